# cython: language_level=3
"""Compiled twin of ``solver.continental.exact.rank_dp_python``: the rank DP.

Contract of ``rank_dp(problem, progress=None)``: ``problem`` is a
``solver.continental.exact.Problem``; the result is the same dictionary the
pure-Python DP returns (``{(deficiency, m): hands}``, or with
``problem.profile`` ``{(cards, profile): rows}``), with the same keys, the same
transitions, the same pruning and the same rotation classes; only the
representation differs.  ``progress`` (no arguments) is called after each rank.

State, in a few words.  A *key* (a partial contract) is packed in 64 bits:
three straights in progress ``suit<<6 | places<<4 | jokers<<2 | wrap`` (0xFF
empty), three heads due ``suit<<4 | L<<2 | jokers`` (0 empty), then straights
started, trios placed, joker slots, trio naturals still open in this rank and
naturals the rank may still take.  Keys are interned to ids; a DP state is a
sorted array of ``id<<8 | value`` entries (the function key -> best matched)
with the cards so far, the empty-run bookkeeping of the rotation classes and a
128-bit weight.  A layer is a hash table of states (one record a state, the
hash's high half in the slot, inserts staged a few states behind so that the
slot's cache miss overlaps other work); each cell, rank start and rank end
maps a layer to the next, written into the layer two steps back (its arrays
kept: fresh ones cost page faults).  Transitions are computed once per key and
cached, as are each key's per-suit signature words and its sure misses by
rank (places on cells no hand holds, ``exact._sure_misses``).  At a rank end
(and after each cell) dominated and hopeless keys are dropped and, at a rank
end, when the problem is symmetric in the suits, the state is relabelled to a
canonical suit order (suits sorted by an invariant signature, ties tried in
every order but suits no key names in one, the smallest entry array kept;
without a tie one relabelling; inside a rank the relabelling cost more than
the states it merged).  With
``problem.at_most`` (``exact.count_at_most``) values are capped at the target and a state that has reached it is *decided*:
tag bit ``DECIDED``, no entries, only its cards and empty runs carried on
(with ``problem.low`` the target is that of deficiency ``low``, and the states
short of it end counted by their deficiency: a window).
"""
from libc.stdlib cimport malloc, calloc, realloc, free, qsort
from libc.string cimport memset, memcpy, memcmp
from libc.stdint cimport uint64_t, uint32_t, int64_t, int32_t, int16_t, int8_t, uint8_t

cdef extern from *:
    """
    typedef unsigned __int128 u128_t;
    static inline unsigned long long ce_lo(u128_t x) { return (unsigned long long)x; }
    static inline unsigned long long ce_hi(u128_t x) { return (unsigned long long)(x >> 64); }
    static inline int ce_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    static inline void ce_prefetch(const void *p) { __builtin_prefetch(p); }
    static int ce_cmp_u32(const void *a, const void *b) {
        unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;
        return (x > y) - (x < y);
    }
    typedef struct { unsigned long long masked; int nj, value, index; } ce_rec;
    static int ce_cmp_rec(const void *a, const void *b) {
        const ce_rec *x = (const ce_rec *)a, *y = (const ce_rec *)b;
        if (x->masked != y->masked) return (x->masked > y->masked) - (x->masked < y->masked);
        return (x->nj > y->nj) - (x->nj < y->nj);
    }
    /* ascending sort of 32-bit words: insertion sort for short runs, else quicksort */
    static void ce_sort_u32(unsigned int *a, long n) {
        while (n > 24) {
            unsigned int x = a[0], y = a[n / 2], z = a[n - 1], p, t;
            long i = 0, j = n - 1;
            p = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
            for (;;) {
                while (a[i] < p) i++;
                while (a[j] > p) j--;
                if (i >= j) break;
                t = a[i]; a[i] = a[j]; a[j] = t; i++; j--;
            }
            if (j + 1 < n - j - 1) { ce_sort_u32(a, j + 1); a += j + 1; n -= j + 1; }
            else { ce_sort_u32(a + j + 1, n - j - 1); n = j + 1; }
        }
        for (long i = 1; i < n; i++) {
            unsigned int v = a[i]; long j = i;
            while (j > 0 && a[j - 1] > v) { a[j] = a[j - 1]; j--; }
            a[j] = v;
        }
    }
    """
    ctypedef unsigned long long u128_t        # really unsigned __int128
    unsigned long long ce_lo(u128_t) nogil
    unsigned long long ce_hi(u128_t) nogil
    int ce_cmp_u32(const void *, const void *) nogil
    int ce_ctz(unsigned long long) nogil
    void ce_prefetch(const void *) nogil
    void ce_sort_u32(unsigned int *, long) nogil
    int ce_cmp_rec(const void *, const void *) nogil
    ctypedef struct ce_rec:
        unsigned long long masked
        int nj, value, index

DEF NR = 13
DEF NS = 4
DEF SMIN = 4
DEF TMIN = 3
DEF EMPTY_O = 0xFF
DEF NPERM = 24
DEF MAXC = 20          # dominance candidates per key: 3 per straight in progress or head due, 2 for the trios
DEF DECIDED = 1 << 17   # state tag: at_most, a key has reached the target (no entries kept)
DEF RING = 4           # states staged before their insert (their slots fetched meanwhile; 8 was no faster)

cdef int PERMS[NPERM][NS]     # PERMS[pi][s]: suit s's new label
cdef int INV[NPERM][NS]       # INV[pi][l]: the suit labelled l
cdef int PIDX[256]            # pi from INV[pi] packed two bits a label
cdef int _i = 0
import itertools as _it
for _p in _it.permutations(range(NS)):
    for _j in range(NS):
        PERMS[_i][_j] = _p[_j]
        INV[_i][_p[_j]] = _j
    _i += 1
for _i in range(NPERM):
    PIDX[INV[_i][0] | (INV[_i][1] << 2) | (INV[_i][2] << 4) | (INV[_i][3] << 6)] = _i


cdef struct Key:
    int o[3]          # opens: suit<<6 | places<<4 | jokers<<2 | wrap, EMPTY_O if none
    int b[3]          # heads due: suit<<4 | L<<2 | jokers, 0 if none
    int ns, nt, nj, td, cap


cdef inline void sort3(int *a) noexcept nogil:
    cdef int t
    if a[0] > a[1]:
        t = a[0]; a[0] = a[1]; a[1] = t
    if a[1] > a[2]:
        t = a[1]; a[1] = a[2]; a[2] = t
    if a[0] > a[1]:
        t = a[0]; a[0] = a[1]; a[1] = t


cdef inline uint64_t kenc(Key *k) noexcept nogil:
    sort3(k.o)
    sort3(k.b)
    cdef uint64_t x = 0
    x = (<uint64_t>k.o[0] << 56) | (<uint64_t>k.o[1] << 48) | (<uint64_t>k.o[2] << 40)
    x |= (<uint64_t>k.b[0] << 34) | (<uint64_t>k.b[1] << 28) | (<uint64_t>k.b[2] << 22)
    x |= (<uint64_t>k.ns << 20) | (<uint64_t>k.nt << 18) | (<uint64_t>k.nj << 11)
    x |= (<uint64_t>k.td << 7) | (<uint64_t>k.cap << 1)
    return x


cdef inline void kdec(uint64_t x, Key *k) noexcept nogil:
    k.o[0] = (x >> 56) & 0xFF; k.o[1] = (x >> 48) & 0xFF; k.o[2] = (x >> 40) & 0xFF
    k.b[0] = (x >> 34) & 63; k.b[1] = (x >> 28) & 63; k.b[2] = (x >> 22) & 63
    k.ns = (x >> 20) & 3; k.nt = (x >> 18) & 3; k.nj = (x >> 11) & 127
    k.td = (x >> 7) & 15; k.cap = (x >> 1) & 63


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    z += 0x9E3779B97F4A7C15ULL
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef struct Run:
    # the problem
    int S, T, D, J, MJ4, MJ3, jH, N, size, rotation, profile, prune, symmetric, capbind
    int floor         # matched at or below it is not counted (threshold); -1 none
    int at_most       # count the hands of deficiency <= threshold as one number
    int target        # at_most: values are capped here; a complete-able key there decides
    int free          # no card is ever needed twice (straights <= decks, naturals per rank)
    int dom           # the dominance of one changed combination at rank ends (exact.COMBINATION_DOMINANCE)
    int cells[NR]
    int ssuits
    int ntails
    int tails[3]
    # interned keys and their caches
    uint64_t *keys
    int32_t nkeys, capkeys
    int32_t *slot
    int64_t smask
    int64_t *c_start      # [key*NR + r]: offset into the transition pool, -1 unknown
    int32_t *n_start
    int64_t *c_cell       # [key*(NS*(D+1)) + s*(D+1) + h]
    int32_t *n_cell
    int32_t *c_end        # [key*NR + r]: new key, -1 dropped, -2 unknown
    int32_t *c_perm       # [key*NPERM + p], -2 unknown
    int8_t *rem           # places still to place
    int8_t *whole         # no straight in progress and no head due
    uint64_t *ksig        # [key*NS + s]: the key seen from suit s (a relabelling-invariant hash part)
    uint8_t *kmask        # suits the key names (straights in progress, heads due)
    int8_t *sure          # [(key*NR + r)*2 + mid]: places left after rank r on cells no hand holds
    int8_t *dcnt          # [key]: its dominance candidates (the key with one combination changed)
    uint64_t *denc        # [key*MAXC + c]: candidate c, encoded
    int8_t *dmarg         # [key*MAXC + c]: the value it needs above the key's | 16 if only at r <= 8, 32 r <= 11
    # transition pool
    int32_t *tp_id
    int8_t *tp_gain
    int64_t tpn, tpcap
    # scratch
    int16_t *best
    int32_t *touched
    int32_t ntouched
    uint64_t *bits        # [kid >> 6]: the touched keys as a bitmap (collected in id order)
    uint32_t *buf
    int64_t bufcap
    int8_t *keep          # prune's scratch, as long as ``buf``
    uint32_t *cand        # canonical's scratch, as long as ``buf``
    ce_rec *rec           # prune's joker-slot dominance records, as long as ``buf``
    int32_t *dcid         # [key*MAXC + c]: candidate c's id (-1 not interned) ...
    int32_t *dver         # ... as of ``nkeys`` = dver[key] (-1 never looked up)


cdef struct SMeta:
    u128_t w              # physical prefixes (first, 16-byte aligned: a record is 32 bytes)
    int64_t off           # first entry in ``ent``
    int32_t ln            # entries
    int32_t tag           # cards | run info << 8 | column not empty << 16


cdef struct Staged:
    u128_t w
    uint64_t hv
    int32_t tag, n, cap
    uint32_t *e


cdef struct Layer:
    Staged ring[RING]     # states waiting for their insert (``stage_add``)
    int32_t head, nst
    uint32_t *ent
    int64_t nent, capent
    SMeta *m              # one record a state: a found state costs one cache miss, not four
    uint64_t *h           # each state's hash (read only when the slots are rebuilt)
    int32_t n, cap, acap  # states, the count that doubles the slots, records allocated
    uint64_t *slot        # hash's high 32 bits | state + 1 (0 empty): a probe reads no record
    int64_t smask, scap   # slots in use - 1, slots allocated


# ---------------------------------------------------------------- keys

cdef int grow_keys(Run *R) except -1:
    cdef int32_t old = R.capkeys, c = R.capkeys * 2, i
    cdef int cells = NS * (R.D + 1)
    R.keys = <uint64_t *>realloc(R.keys, c * sizeof(uint64_t))
    R.c_start = <int64_t *>realloc(R.c_start, c * NR * sizeof(int64_t))
    R.n_start = <int32_t *>realloc(R.n_start, c * NR * sizeof(int32_t))
    R.c_cell = <int64_t *>realloc(R.c_cell, c * cells * sizeof(int64_t))
    R.n_cell = <int32_t *>realloc(R.n_cell, c * cells * sizeof(int32_t))
    R.c_end = <int32_t *>realloc(R.c_end, c * NR * sizeof(int32_t))
    R.c_perm = <int32_t *>realloc(R.c_perm, c * NPERM * sizeof(int32_t))
    R.rem = <int8_t *>realloc(R.rem, c)
    R.whole = <int8_t *>realloc(R.whole, c)
    R.ksig = <uint64_t *>realloc(R.ksig, c * NS * sizeof(uint64_t))
    R.kmask = <uint8_t *>realloc(R.kmask, c)
    R.sure = <int8_t *>realloc(R.sure, c * NR * 2)
    R.dcnt = <int8_t *>realloc(R.dcnt, c)
    R.denc = <uint64_t *>realloc(R.denc, c * MAXC * sizeof(uint64_t))
    R.dmarg = <int8_t *>realloc(R.dmarg, c * MAXC)
    R.best = <int16_t *>realloc(R.best, c * sizeof(int16_t))
    R.touched = <int32_t *>realloc(R.touched, c * sizeof(int32_t))
    R.bits = <uint64_t *>realloc(R.bits, (c // 64 + 1) * sizeof(uint64_t))
    R.dcid = <int32_t *>realloc(R.dcid, c * MAXC * sizeof(int32_t))
    R.dver = <int32_t *>realloc(R.dver, c * sizeof(int32_t))
    if (R.bits == NULL or R.dcid == NULL or R.dver == NULL or R.keys == NULL or R.c_start == NULL or R.n_start == NULL or R.c_cell == NULL
            or R.n_cell == NULL or R.c_end == NULL or R.c_perm == NULL or R.rem == NULL
            or R.whole == NULL or R.ksig == NULL or R.kmask == NULL or R.sure == NULL or R.best == NULL or R.touched == NULL
            or R.dcnt == NULL or R.denc == NULL or R.dmarg == NULL):
        raise MemoryError()
    for i in range(old * NR, c * NR):
        R.c_start[i] = -1
        R.c_end[i] = -2
    for i in range(old * cells, c * cells):
        R.c_cell[i] = -1
    for i in range(old * NPERM, c * NPERM):
        R.c_perm[i] = -2
    for i in range(old, c):
        R.best[i] = -1
        R.dver[i] = -1
    for i in range(old // 64 + 1, c // 64 + 1):
        R.bits[i] = 0
    R.capkeys = c
    # rehash
    free(R.slot)
    R.smask = 2 * c - 1
    R.slot = <int32_t *>malloc((R.smask + 1) * sizeof(int32_t))
    if R.slot == NULL:
        raise MemoryError()
    for i in range(R.smask + 1):
        R.slot[i] = -1
    for i in range(R.nkeys):
        insert_slot(R, i)
    return 0


cdef inline void insert_slot(Run *R, int32_t kid) noexcept:
    cdef int64_t j = <int64_t>(mix64(R.keys[kid]) & <uint64_t>R.smask)
    while R.slot[j] >= 0:
        j = (j + 1) & R.smask
    R.slot[j] = kid


cdef int32_t intern(Run *R, uint64_t x) except -1:
    cdef int64_t j = <int64_t>(mix64(x) & <uint64_t>R.smask)
    cdef int32_t kid
    cdef Key k
    while R.slot[j] >= 0:
        if R.keys[R.slot[j]] == x:
            return R.slot[j]
        j = (j + 1) & R.smask
    if R.nkeys + 1 >= R.capkeys:
        grow_keys(R)
        return intern(R, x)
    kid = R.nkeys
    R.nkeys += 1
    R.keys[kid] = x
    R.slot[j] = kid
    kdec(x, &k)
    R.rem[kid] = remaining(R, &k) + k.td     # trio naturals still open here can match
    R.whole[kid] = 1 if (k.o[0] == EMPTY_O and k.b[2] == 0) else 0
    key_signature(R, kid, &k)
    sure_misses(R, kid, &k)
    dominance_keys(R, kid, &k)
    return kid


cdef inline void dom_add(Run *R, int32_t kid, Key *y, int margin, int needs) noexcept:
    cdef int c = R.dcnt[kid]
    R.denc[kid * MAXC + c] = kenc(y)
    R.dmarg[kid * MAXC + c] = <int8_t>(margin | needs)
    R.dcnt[kid] = c + 1


cdef void dominance_keys(Run *R, int32_t kid, Key *k) noexcept:
    """``R.denc``, ``R.dmarg``: the keys that beat this one at a rank end when they hold
    at least its value plus the margin (``exact._dominance``): one straight in
    progress (not a tail) at other places or not started, one head due with
    other heads or not started, one trio fewer or more.  Only with ``R.free``."""
    cdef int j, o, s, p, q, t, L
    cdef Key y
    R.dcnt[kid] = 0
    if not R.free:
        return
    for j in range(3):
        o = k.o[j]
        if o == EMPTY_O or (o & 3):
            continue
        s = o >> 6
        p = (o >> 4) & 3
        q = (o >> 2) & 3
        for t in range(1, SMIN):
            if t != p:
                y = k[0]
                y.o[j] = (s << 6) | (t << 4) | (q << 2)
                dom_add(R, kid, &y, t - p if t > p else 0, 0)
        y = k[0]
        y.o[j] = EMPTY_O
        y.ns -= 1
        y.nj -= q
        dom_add(R, kid, &y, 0, 16)
    for j in range(3):
        o = k.b[j]
        if o == 0:
            continue
        s = o >> 4
        L = (o >> 2) & 3
        q = o & 3
        for t in range(1, SMIN):
            if t != L:
                y = k[0]
                y.b[j] = (s << 4) | (t << 2) | q
                dom_add(R, kid, &y, L - t if t < L else 0, 0)
        y = k[0]
        y.b[j] = 0
        y.ns -= 1
        y.nj -= q
        dom_add(R, kid, &y, 0, 16)
    if k.td == 0 and k.nt > 0:
        y = k[0]
        y.nt -= 1
        dom_add(R, kid, &y, 0, 32)
    if k.td == 0 and k.nt < R.T:
        y = k[0]
        y.nt += 1
        dom_add(R, kid, &y, TMIN, 0)


cdef inline int32_t find_key(Run *R, uint64_t x) noexcept:
    """The id of key ``x`` if it is interned, else -1 (nothing is added)."""
    cdef int64_t j = <int64_t>(mix64(x) & <uint64_t>R.smask)
    while R.slot[j] >= 0:
        if R.keys[R.slot[j]] == x:
            return R.slot[j]
        j = (j + 1) & R.smask
    return -1


cdef void sure_misses(Run *R, int32_t kid, Key *k) noexcept:
    """``R.sure``, as ``exact._sure_misses`` (at a rank end, and inside a rank: ``mid``)."""
    cdef int r, j, x, s, p, L, n, mid, best, c, i
    for r in range(NR):
        for mid in range(2):
            n = 0
            for j in range(3):
                if k.o[j] != EMPTY_O:
                    s = k.o[j] >> 6
                    p = (k.o[j] >> 4) & 3
                    L = k.o[j] & 3
                    for x in range(r + 1, r + 1 + SMIN - p - mid):
                        if x < NR and not (R.cells[x] >> s) & 1:
                            n += 1
                    for x in range(NR - L, NR):
                        if not (R.cells[x] >> s) & 1:
                            n += 1
                if k.b[j] != 0:
                    s = k.b[j] >> 4
                    L = (k.b[j] >> 2) & 3
                    for x in range(NR - L, NR):
                        if not (R.cells[x] >> s) & 1:
                            n += 1
            best = -1                       # a straight not started yet: its emptiest start
            for x in range(r + 1, NR - SMIN + 1):
                for s in range(NS):
                    if (R.ssuits >> s) & 1:
                        c = 0
                        for i in range(SMIN):
                            if not (R.cells[x + i] >> s) & 1:
                                c += 1
                        if best < 0 or c < best:
                            best = c
            if best > 0:
                n += (R.S - k.ns) * best
            best = -1                       # a trio not placed yet: its emptiest rank
            for x in range(r + 1, NR):
                c = TMIN if R.cells[x] == 0 else 0
                if best < 0 or c < best:
                    best = c
            if best > 0:
                n += (R.T - k.nt) * best
            R.sure[(<int64_t>kid * NR + r) * 2 + mid] = n


cdef void key_signature(Run *R, int32_t kid, Key *k) noexcept:
    """``R.ksig[kid*NS + s]``: a hash of the key that names suit s alone (the others as 'another suit').

    Relabelling the suits permutes these words with the suits, which is what
    :func:`canonical` needs from a signature; computed once per key.
    """
    cdef int s, j
    cdef uint64_t hk = mix64(R.keys[kid] & 0x3FFFFF), part
    R.kmask[kid] = 0
    for j in range(3):
        if k.o[j] != EMPTY_O:
            R.kmask[kid] |= 1 << (k.o[j] >> 6)
        if k.b[j] != 0:
            R.kmask[kid] |= 1 << (k.b[j] >> 4)
    for s in range(NS):
        part = hk
        for j in range(3):
            if k.o[j] != EMPTY_O:
                part += mix64((<uint64_t>(k.o[j] & 63) << 8) ^ (1 if (k.o[j] >> 6) == s else 2))
            if k.b[j] != 0:
                part += mix64((<uint64_t>(k.b[j] & 15) << 16) ^ (3 if (k.b[j] >> 4) == s else 4))
        R.ksig[kid * NS + s] = part


cdef int remaining(Run *R, Key *k) noexcept:
    cdef int i, nopen = 0, nob = 0, placed = TMIN * k.nt
    for i in range(3):
        if k.o[i] != EMPTY_O:
            nopen += 1
            placed += ((k.o[i] >> 4) & 3) - (k.o[i] & 3)
        if k.b[i] != 0:
            nob += 1
            placed += SMIN - ((k.b[i] >> 2) & 3)
    placed += SMIN * (k.ns - nopen - nob)
    return R.size - placed


cdef int tp_push(Run *R, int32_t nid, int gain) except -1:
    if R.tpn == R.tpcap:
        R.tpcap *= 2
        R.tp_id = <int32_t *>realloc(R.tp_id, R.tpcap * sizeof(int32_t))
        R.tp_gain = <int8_t *>realloc(R.tp_gain, R.tpcap)
        if R.tp_id == NULL or R.tp_gain == NULL:
            raise MemoryError()
    R.tp_id[R.tpn] = nid
    R.tp_gain[R.tpn] = gain
    R.tpn += 1
    return 0


cdef inline int jgain(Run *R, int nj, int add) noexcept nogil:
    cdef int a = nj + add, b = nj
    if a > R.jH:
        a = R.jH
    if b > R.jH:
        b = R.jH
    return a - b if a > b else 0


# ---------------------------------------------------------------- transitions

cdef int trios_into(Run *R, Key *base, int kt_left, int left, int lo, int kt, int jk,
                    int gain_base, int64_t *count) except -1:
    """Place ``left`` more trios (joker counts non-decreasing from ``lo``) on ``base``."""
    cdef Key n
    cdef int x, td, cap
    if left == 0:
        if base.nj + jk > R.J:
            return 0
        td = TMIN * kt - jk
        cap = NS * R.D - td if R.capbind else 0
        if cap < 0:
            return 0
        n = base[0]
        n.nt = base.nt + kt
        n.nj = base.nj + jk
        n.td = td
        n.cap = cap
        tp_push(R, intern(R, kenc(&n)), gain_base + jgain(R, base.nj, jk))
        count[0] += 1
        return 0
    for x in range(lo, R.MJ3 + 1):
        trios_into(R, base, kt_left, left - 1, x, kt, jk + x, gain_base, count)
    return 0


cdef int starts_into(Run *R, Key *base, int nopen, int left, int lo, int64_t *count) except -1:
    """Start up to ``left`` more straights (suits non-decreasing from ``lo``), then the trios."""
    cdef int s, kt
    cdef Key n
    for kt in range(R.T - base.nt + 1):
        trios_into(R, base, kt, kt, 0, kt, 0, 0, count)
    if left == 0:
        return 0
    for s in range(lo, NS):
        if not (R.ssuits >> s) & 1:
            continue
        n = base[0]
        n.o[nopen] = s << 6
        n.ns = base.ns + 1
        starts_into(R, &n, nopen + 1, left - 1, s, count)
    return 0


cdef int64_t start_trans(Run *R, int32_t kid, int r) except -2:
    cdef int64_t at = <int64_t>kid * NR + r
    if R.c_start[at] >= 0:
        return at
    cdef Key k, n
    cdef int i, nopen = 0, nob = 0, s, L, q, most
    cdef int64_t off = R.tpn, count = 0
    kdec(R.keys[kid], &k)
    n = k
    for i in range(3):
        n.o[i] = EMPTY_O
        n.b[i] = 0
    for i in range(3):
        if k.o[i] != EMPTY_O:
            n.o[nopen] = k.o[i]
            nopen += 1
    for i in range(3):
        if k.b[i] != 0:
            s = k.b[i] >> 4
            L = (k.b[i] >> 2) & 3
            q = k.b[i] & 3
            if NR - L == r:
                n.o[nopen] = (s << 6) | ((SMIN - L) << 4) | (q << 2)
                nopen += 1
            else:
                n.b[nob] = k.b[i]
                nob += 1
    most = R.S - k.ns if r <= NR - SMIN else 0
    starts_into(R, &n, nopen, most, 0, &count)
    at = <int64_t>kid * NR + r          # the caches may have moved: index again
    R.c_start[at] = off
    R.n_start[at] = <int32_t>count
    return at


cdef int64_t cell_trans(Run *R, int32_t kid, int s, int h) except -2:
    cdef int stride = NS * (R.D + 1)
    cdef int64_t at = <int64_t>kid * stride + s * (R.D + 1) + h
    if R.c_cell[at] >= 0:
        return at
    cdef Key k, n
    cdef int mine[3]
    cdef int rest[3]
    cdef int nm = 0, nr = 0, i, c, nJ, nN, ok, p, q, L, nb, no, matched, take
    cdef int64_t off = R.tpn, count = 0
    kdec(R.keys[kid], &k)
    for i in range(3):
        if k.o[i] != EMPTY_O:
            if (k.o[i] >> 6) == s:
                mine[nm] = k.o[i]
                nm += 1
            else:
                rest[nr] = k.o[i]
                nr += 1
    for c in range(1 << nm):
        nJ = 0
        for i in range(nm):
            nJ += (c >> i) & 1
        nN = nm - nJ
        if nN > R.D or (R.capbind and nN > k.cap) or k.nj + nJ > R.J:
            continue
        n = k
        no = 0
        nb = 0
        for i in range(3):
            n.o[i] = EMPTY_O
            n.b[i] = 0
        for i in range(3):
            if k.b[i] != 0:
                n.b[nb] = k.b[i]
                nb += 1
        for i in range(nr):
            n.o[no] = rest[i]
            no += 1
        ok = 1
        for i in range(nm):
            p = (mine[i] >> 4) & 3
            q = ((mine[i] >> 2) & 3) + ((c >> i) & 1)
            L = mine[i] & 3
            if q > R.MJ4:
                ok = 0
                break
            if R.J <= R.MJ4:
                q = 0                 # the limit cannot bind: keys need not tell
            if p + 1 == SMIN:
                if L:
                    n.b[nb] = (s << 4) | (L << 2) | q
                    nb += 1
            else:
                n.o[no] = (s << 6) | ((p + 1) << 4) | (q << 2) | L
                no += 1
        if not ok:
            continue
        matched = nN if nN < h else h
        take = h - matched
        if take > k.td:
            take = k.td
        n.nj = k.nj + nJ
        n.td = k.td - take
        n.cap = k.cap - nN if R.capbind else 0
        tp_push(R, intern(R, kenc(&n)), matched + take + jgain(R, k.nj, nJ))
        count += 1
    at = <int64_t>kid * stride + s * (R.D + 1) + h
    R.c_cell[at] = off
    R.n_cell[at] = <int32_t>count
    return at


cdef int32_t end_trans(Run *R, int32_t kid, int r) except -3:
    cdef int64_t at = <int64_t>kid * NR + r
    if R.c_end[at] != -2:
        return R.c_end[at]
    cdef Key k
    cdef int32_t res
    kdec(R.keys[kid], &k)
    if not R.profile and k.ns < R.S and r >= NR - SMIN:
        res = -1
    elif r == NR - 1 and (k.o[0] != EMPTY_O or k.b[2] != 0 or (not R.profile and k.nt < R.T)):
        res = -1
    else:
        k.td = 0
        k.cap = 0
        res = intern(R, kenc(&k))
    R.c_end[<int64_t>kid * NR + r] = res
    return res


cdef int32_t perm_key(Run *R, int32_t kid, int pi) except -3:
    cdef int64_t at = <int64_t>kid * NPERM + pi
    if R.c_perm[at] != -2:
        return R.c_perm[at]
    cdef Key k
    cdef int i
    cdef int32_t res
    kdec(R.keys[kid], &k)
    for i in range(3):
        if k.o[i] != EMPTY_O:
            k.o[i] = (PERMS[pi][k.o[i] >> 6] << 6) | (k.o[i] & 63)
        if k.b[i] != 0:
            k.b[i] = (PERMS[pi][k.b[i] >> 4] << 4) | (k.b[i] & 15)
    res = intern(R, kenc(&k))
    R.c_perm[<int64_t>kid * NPERM + pi] = res
    return res


# ---------------------------------------------------------------- layers

cdef Layer *layer_new() except NULL:
    cdef Layer *L = <Layer *>malloc(sizeof(Layer))
    if L == NULL:
        raise MemoryError()
    memset(L, 0, sizeof(Layer))
    L.capent = 1 << 16
    L.ent = <uint32_t *>malloc(L.capent * sizeof(uint32_t))
    if L.ent == NULL:
        raise MemoryError()
    layer_reset(L, 1 << 10)
    return L


cdef int layer_reset(Layer *L, int64_t expect) except -1:
    """Empty ``L`` for reuse, its slots sized for about ``expect`` states.

    A layer's arrays are kept from step to step (the next step writes into the
    layer two steps back): fresh ones cost page faults (system time) and grew
    by copying; the slots in use are cut back so that a small layer's probes
    stay within a small table.
    """
    cdef int64_t c = 1 << 10
    while c < expect:
        c *= 2
    L.n = 0
    L.nent = 0
    L.head = L.nst = 0
    L.cap = <int32_t>c
    return layer_room(L)


cdef int layer_room(Layer *L) except -1:
    """Arrays for ``L.cap`` states and an empty table of ``2 * L.cap`` slots (kept, grown only)."""
    if L.cap > L.acap:
        L.acap = L.cap
        L.m = <SMeta *>realloc(L.m, L.acap * sizeof(SMeta))
        L.h = <uint64_t *>realloc(L.h, L.acap * sizeof(uint64_t))
        if L.m == NULL or L.h == NULL:
            raise MemoryError()
    L.smask = 2 * L.cap - 1
    if L.smask + 1 > L.scap:
        free(L.slot)
        L.scap = L.smask + 1
        L.slot = <uint64_t *>malloc(L.scap * sizeof(uint64_t))
        if L.slot == NULL:
            raise MemoryError()
    memset(L.slot, 0, (L.smask + 1) * sizeof(uint64_t))
    return 0


cdef void layer_free(Layer *L) noexcept:
    cdef int i
    if L == NULL:
        return
    free(L.ent); free(L.m); free(L.h); free(L.slot)
    for i in range(RING):
        free(L.ring[i].e)
    free(L)


cdef inline uint64_t layer_hash(int32_t tag, uint32_t *e, int32_t n) noexcept nogil:
    """A state's hash: two entries a multiply (a chain of ``mix64`` per entry cost 3x)."""
    cdef uint64_t hv = <uint64_t>tag * 0x9E3779B97F4A7C15ULL + <uint64_t>n
    cdef int32_t i = 0
    while i + 1 < n:
        hv = (hv ^ ((<uint64_t>e[i] << 32) | e[i + 1])) * 0xBF58476D1CE4E5B9ULL
        hv ^= hv >> 29
        i += 2
    if i < n:
        hv = (hv ^ e[i]) * 0xBF58476D1CE4E5B9ULL
    return mix64(hv)


cdef int layer_add(Layer *L, int32_t tag, uint32_t *e, int32_t n, u128_t w) except -1:
    """Add weight ``w`` to the state (tag, entries), creating it if new."""
    return layer_add_h(L, layer_hash(tag, e, n), tag, e, n, w)


cdef int stage_add(Layer *L, int32_t tag, uint32_t *e, int32_t n, u128_t w) except -1:
    """``layer_add``, a few states later: the state's slot is fetched now and
    the state inserted after ``RING - 1`` more (a probe of a large layer is a
    cache miss; this way the misses overlap the work on the next states).
    ``stage_flush`` inserts what is left.  The inserts keep their order."""
    cdef Staged *x
    cdef uint64_t sl
    cdef int32_t i
    if L.nst == RING:
        x = &L.ring[L.head]
        layer_add_h(L, x.hv, x.tag, x.e, x.n, x.w)
        L.head = (L.head + 1) % RING
        L.nst -= 1
    x = &L.ring[(L.head + L.nst) % RING]
    L.nst += 1
    if n > x.cap:
        x.cap = 2 * n
        x.e = <uint32_t *>realloc(x.e, x.cap * sizeof(uint32_t))
        if x.e == NULL:
            raise MemoryError()
    memcpy(x.e, e, n * sizeof(uint32_t))
    x.n = n
    x.tag = tag
    x.w = w
    x.hv = layer_hash(tag, e, n)
    ce_prefetch(&L.slot[x.hv & <uint64_t>L.smask])
    if L.nst >= 2:                    # the one staged before: its slot is here by now, fetch its record
        x = &L.ring[(L.head + L.nst - 2) % RING]
        sl = L.slot[x.hv & <uint64_t>L.smask]
        if sl != 0:
            i = <int32_t>(sl & 0xFFFFFFFFULL) - 1
            ce_prefetch(&L.m[i])
    return 0


cdef int stage_flush(Layer *L) except -1:
    cdef Staged *x
    while L.nst:
        x = &L.ring[L.head]
        layer_add_h(L, x.hv, x.tag, x.e, x.n, x.w)
        L.head = (L.head + 1) % RING
        L.nst -= 1
    return 0


cdef int layer_add_h(Layer *L, uint64_t hv, int32_t tag, uint32_t *e, int32_t n, u128_t w) except -1:
    """``layer_add`` with the state's hash ``hv`` given."""
    cdef uint64_t sl, fp = hv & 0xFFFFFFFF00000000ULL
    cdef int32_t idx
    cdef int64_t j = <int64_t>(hv & <uint64_t>L.smask)
    cdef SMeta *q
    while True:
        sl = L.slot[j]
        if sl == 0:
            break
        if (sl & 0xFFFFFFFF00000000ULL) == fp:
            q = &L.m[<int32_t>(sl & 0xFFFFFFFFULL) - 1]
            if q.tag == tag and q.ln == n and memcmp(L.ent + q.off, e, n * sizeof(uint32_t)) == 0:
                q.w += w
                return 0
        j = (j + 1) & L.smask
    if L.n + 1 >= L.cap:
        layer_grow(L)
        return layer_add_h(L, hv, tag, e, n, w)
    while L.nent + n > L.capent:
        L.capent *= 2
        L.ent = <uint32_t *>realloc(L.ent, L.capent * sizeof(uint32_t))
        if L.ent == NULL:
            raise MemoryError()
    idx = L.n
    L.n += 1
    memcpy(L.ent + L.nent, e, n * sizeof(uint32_t))
    q = &L.m[idx]
    q.off = L.nent
    L.nent += n
    q.ln = n
    q.tag = tag
    q.w = w
    L.h[idx] = hv
    L.slot[j] = fp | <uint64_t>(idx + 1)
    return 0


cdef int layer_grow(Layer *L) except -1:
    cdef int32_t i
    cdef int64_t j
    L.cap *= 2
    layer_room(L)
    for i in range(L.n):
        j = <int64_t>(L.h[i] & <uint64_t>L.smask)
        while L.slot[j] != 0:
            j = (j + 1) & L.smask
        L.slot[j] = (L.h[i] & 0xFFFFFFFF00000000ULL) | <uint64_t>(i + 1)
    return 0


# ---------------------------------------------------------------- scratch

cdef inline void relax(Run *R, int32_t nid, int v) noexcept:
    if R.best[nid] < 0:
        R.touched[R.ntouched] = nid
        R.ntouched += 1
        R.best[nid] = v
        R.bits[nid >> 6] |= (<uint64_t>1) << (nid & 63)
    elif v > R.best[nid]:
        R.best[nid] = v


cdef int collect(Run *R) except -1:
    """Move the touched keys into ``R.buf`` as sorted entries; return their number.

    The ids come out of the bitmap in order when its touched words are few
    (the usual case: a run has a few thousand keys), else by sorting.
    """
    cdef int32_t i, n = R.ntouched, lo, hi, kid, m = 0, w
    cdef uint64_t x
    if n + 1 > R.bufcap:
        R.bufcap = 2 * n + 2
        R.buf = <uint32_t *>realloc(R.buf, R.bufcap * sizeof(uint32_t))
        R.keep = <int8_t *>realloc(R.keep, R.bufcap)
        R.rec = <ce_rec *>realloc(R.rec, R.bufcap * sizeof(ce_rec))
        R.cand = <uint32_t *>realloc(R.cand, R.bufcap * sizeof(uint32_t))
        if R.buf == NULL or R.keep == NULL or R.rec == NULL or R.cand == NULL:
            raise MemoryError()
    if n == 0:
        return 0
    lo = 0
    hi = R.nkeys - 1
    if (hi >> 6) >= 4 * n:                # many keys: the touched ones' span
        lo = hi = R.touched[0]
        for i in range(1, n):
            if R.touched[i] < lo:
                lo = R.touched[i]
            if R.touched[i] > hi:
                hi = R.touched[i]
    if (hi >> 6) - (lo >> 6) < 4 * n:
        for w in range(lo >> 6, (hi >> 6) + 1):
            x = R.bits[w]
            R.bits[w] = 0
            while x:
                kid = (w << 6) | ce_ctz(x)
                x &= x - 1
                R.buf[m] = (<uint32_t>kid << 8) | <uint32_t>R.best[kid]
                R.best[kid] = -1
                m += 1
    else:
        for i in range(n):
            kid = R.touched[i]
            R.buf[i] = (<uint32_t>kid << 8) | <uint32_t>R.best[kid]
            R.best[kid] = -1
            R.bits[kid >> 6] = 0
        ce_sort_u32(R.buf, n)
    R.ntouched = 0
    return n


# ---------------------------------------------------------------- steps

cdef Layer *step_start(Run *R, Layer *L, int r, Layer *out) except NULL:
    layer_reset(out, L.n)
    cdef int32_t st, i, kid, c, n
    cdef int64_t at, base
    cdef int v
    for st in range(L.n):
        if L.m[st].tag & DECIDED:
            stage_add(out, L.m[st].tag, R.buf, 0, L.m[st].w)
            continue
        for i in range(L.m[st].ln):
            kid = <int32_t>(L.ent[L.m[st].off + i] >> 8)
            v = L.ent[L.m[st].off + i] & 0xFF
            at = start_trans(R, kid, r)
            base = R.c_start[at]
            for c in range(R.n_start[at]):
                relax(R, R.tp_id[base + c], v + R.tp_gain[base + c])
        n = collect(R)
        stage_add(out, L.m[st].tag, R.buf, n, L.m[st].w)
    stage_flush(out)
    return out


cdef Layer *step_cell(Run *R, Layer *L, int r, int s, Layer *out) except NULL:
    layer_reset(out, L.n)
    cdef int32_t st, i, kid, c, n, tag
    cdef int64_t at, base
    cdef int v, h, top, cards
    cdef u128_t mult
    for st in range(L.n):
        cards = L.m[st].tag & 0xFF
        top = 0
        if (R.cells[r] >> s) & 1:
            top = R.D if R.D < R.N - cards else R.N - cards
        mult = 1
        for h in range(top + 1):
            if h:
                mult = mult * <u128_t>(R.D - h + 1) // <u128_t>h
            if L.m[st].tag & DECIDED:
                tag = (L.m[st].tag & ~0xFF) | (cards + h)
                if h:
                    tag |= 1 << 16
                stage_add(out, tag, R.buf, 0, L.m[st].w * mult)
                continue
            for i in range(L.m[st].ln):
                kid = <int32_t>(L.ent[L.m[st].off + i] >> 8)
                v = L.ent[L.m[st].off + i] & 0xFF
                at = cell_trans(R, kid, s, h)
                base = R.c_cell[at]
                for c in range(R.n_cell[at]):
                    relax(R, R.tp_id[base + c], v + R.tp_gain[base + c])
            n = collect(R)
            if n == 0:
                continue
            if R.prune and not R.profile:
                R.ntouched = n
                n = prune(R, cards + h, r, 0)
                R.ntouched = 0
                if n == 0:
                    continue              # no key can end within the threshold
            tag = (L.m[st].tag & ~0xFF) | (cards + h)
            if h:
                tag |= 1 << 16
            if n < 0:                     # decided (at_most)
                stage_add(out, tag | DECIDED, R.buf, 0, L.m[st].w * mult)
                continue
            stage_add(out, tag, R.buf, n, L.m[st].w * mult)     # relabelled at the rank end only
    stage_flush(out)
    return out


cdef int run_update(Run *R, int extra, int empty, int r) noexcept:
    """The rotation-class bookkeeping of ``exact._runs``; -1 drops the hand."""
    if R.rotation == 0:
        return extra
    cdef int run = extra & 3, count = extra >> 2, longest, counted
    if r == 0 and empty:
        return -1
    longest = 99 if R.rotation == 1 else (2 if R.rotation == 2 else 1)
    if empty:
        run += 1
        if run > longest:
            return -1
        return (run if run < 3 else 3) | (count << 2)
    if R.rotation == 1:
        counted = run >= 3
    elif R.rotation == 2:
        counted = run == 2
    else:
        counted = run == 1
    return (count + counted) << 2


cdef int run_weight(Run *R, int extra) noexcept:
    if R.rotation == 0:
        return 1
    cdef int run = extra & 3, count = extra >> 2, ok
    if R.rotation == 1:
        ok = run >= 3
    elif R.rotation == 2:
        ok = run == 2
    else:
        ok = run == 1
    return count + 1 if ok else 0


cdef int prune(Run *R, int cards, int r, int end) except -1:
    """Dominated and hopeless keys out of ``R.buf[:R.ntouched]``; return how many are left.

    A key is dominated by the same key with fewer joker slots and at least its
    value; it is hopeless when its value plus all it could still gain cannot
    beat a key that is already a complete-able contract (no straight in
    progress, no head due, and every straight and trio still to come can still
    be started at a later rank), or cannot end above ``R.floor`` (the
    threshold).  The naturals still to match are also capped by the places not
    on cells no hand holds (``R.sure``; inside a rank, ``end`` false, the
    count that holds mid-rank).  The order is kept.  With ``R.at_most`` the values are first
    capped at ``R.target``, and -2 says a complete-able key has reached it (the
    prefix is decided: deficiency at most the threshold).
    """
    cdef int32_t n = R.ntouched, i, kid, m = 0
    cdef ce_rec *rec
    cdef uint64_t prev = 0xFFFFFFFFFFFFFFFFULL
    cdef int v, best = -1, lower = -1, left, jleft, upper, nj, room
    cdef int8_t *keep
    if R.at_most:
        for i in range(n):
            if (R.buf[i] & 0xFF) > <uint32_t>R.target:
                R.buf[i] = (R.buf[i] & ~(<uint32_t>0xFF)) | <uint32_t>R.target
            kid = <int32_t>(R.buf[i] >> 8)
            if ((R.buf[i] & 0xFF) == <uint32_t>R.target and complete_able(R, kid, r)
                    and (R.whole[kid] or (R.free and r < NR - 1))):
                return -2
    keep = R.keep
    memset(keep, 1, n)
    if R.J > 0:
        rec = R.rec
        for i in range(n):
            kid = <int32_t>(R.buf[i] >> 8)
            rec[i].masked = R.keys[kid] & ~(<uint64_t>127 << 11)
            rec[i].nj = (R.keys[kid] >> 11) & 127
            rec[i].value = R.buf[i] & 0xFF
            rec[i].index = i
        qsort(rec, n, sizeof(ce_rec), ce_cmp_rec)
        for i in range(n):
            if rec[i].masked != prev:
                prev = rec[i].masked
                best = -1
            if rec[i].value > best:
                best = rec[i].value
            else:
                keep[rec[i].index] = 0
    if R.dom and R.free and end:
        combination_dominance(R, n, keep, r)
    for i in range(n):
        kid = <int32_t>(R.buf[i] >> 8)
        v = R.buf[i] & 0xFF
        if keep[i] and R.whole[kid] and v > lower and complete_able(R, kid, r):
            lower = v
    left = R.N - cards
    for i in range(n):
        if not keep[i]:
            continue
        kid = <int32_t>(R.buf[i] >> 8)
        v = R.buf[i] & 0xFF
        nj = (R.keys[kid] >> 11) & 127
        jleft = R.jH - (nj if nj < R.jH else R.jH)
        room = R.rem[kid] - R.sure[(<int64_t>kid * NR + r) * 2 + (0 if end else 1)]
        if left < room:
            room = left
        upper = room + jleft
        if R.rem[kid] < upper:
            upper = R.rem[kid]
        upper += v
        if upper > (lower if lower > R.floor else R.floor) or (
                v == lower and v > R.floor and R.whole[kid] and complete_able(R, kid, r)):
            R.buf[m] = R.buf[i]
            m += 1
    return m


cdef void combination_dominance(Run *R, int32_t n, int8_t *keep, int r) noexcept:
    """Clear ``keep`` for the keys of ``R.buf[:n]`` (a rank end) that a candidate of
    ``dominance_keys`` beats on every completion (``exact._dominance``)."""
    cdef int32_t i, kid, cid
    cdef int c, m, v
    for i in range(n):
        if keep[i]:
            R.best[R.buf[i] >> 8] = <int16_t>(R.buf[i] & 0xFF)
    for i in range(n):
        if not keep[i]:
            continue
        kid = <int32_t>(R.buf[i] >> 8)
        v = R.buf[i] & 0xFF
        if R.dver[kid] != R.nkeys:          # keys are never removed: a found id stays
            for c in range(R.dcnt[kid]):
                R.dcid[kid * MAXC + c] = find_key(R, R.denc[kid * MAXC + c])
            R.dver[kid] = R.nkeys
        for c in range(R.dcnt[kid]):
            m = R.dmarg[kid * MAXC + c]
            if (m & 16 and r > NR - SMIN - 1) or (m & 32 and r > NR - 2):
                continue
            cid = R.dcid[kid * MAXC + c]
            if cid >= 0 and R.best[cid] >= v + (m & 15):
                keep[i] = 0
                break
    for i in range(n):
        R.best[R.buf[i] >> 8] = -1


cdef inline int complete_able(Run *R, int32_t kid, int r) noexcept:
    cdef int ns = (R.keys[kid] >> 20) & 3, nt = (R.keys[kid] >> 18) & 3
    return (ns == R.S or r + 1 <= NR - SMIN) and (nt == R.T or r + 1 <= NR - 1)


cdef int canonical(Run *R, int32_t n, uint32_t *out) except -1:
    """Write the canonical relabelling of ``R.buf[:n]`` into ``out``.

    The relabellings tried are those putting the suits in signature order
    (``sig`` is permuted with the suits, so the set of arrays tried is the same
    for every relabelling of the state, and the least of them is canonical).
    Suits no key names have the same signature and are interchangeable: one
    order of them is enough.  Usually the signatures differ and one
    relabelling is tried, with no search over the 24.
    """
    cdef uint64_t sig[NS]
    cdef uint64_t x
    cdef int order[NS]
    cdef int i, j, t, s, pi, kid, first = 1, u, v, ok, named = 0, ties = 0
    cdef uint64_t vh
    cdef uint32_t *cand = R.cand
    for s in range(NS):
        sig[s] = 0
    for i in range(n):
        kid = <int32_t>(R.buf[i] >> 8)
        vh = <uint64_t>(R.buf[i] & 0xFF) * 0x9E3779B97F4A7C15ULL
        named |= R.kmask[kid]
        for s in range(NS):
            x = (R.ksig[kid * NS + s] ^ vh) * 0xBF58476D1CE4E5B9ULL
            sig[s] += x ^ (x >> 31)
    for s in range(NS):                          # suits by signature, then index
        order[s] = s
    for i in range(1, NS):
        t = order[i]
        j = i
        while j > 0 and sig[order[j - 1]] > sig[t]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = t
    for i in range(NS - 1):
        if sig[order[i]] == sig[order[i + 1]] and ((named >> order[i]) & 1 or (named >> order[i + 1]) & 1):
            ties = 1
    for pi in range(NPERM):
        if not ties:
            # the one order: suit order[l] gets label l
            pi = PIDX[order[0] | (order[1] << 2) | (order[2] << 4) | (order[3] << 6)]
        else:
            ok = 1
            for i in range(NS - 1):               # labels in signature order; unnamed suits by index
                u = INV[pi][i]
                v = INV[pi][i + 1]
                if sig[u] > sig[v] or (sig[u] == sig[v] and u > v
                                       and not (named >> u) & 1 and not (named >> v) & 1):
                    ok = 0
            if not ok:
                continue
        if pi == 0:                              # the identity: already sorted
            memcpy(cand, R.buf, n * sizeof(uint32_t))
        else:
            for i in range(n):
                kid = <int32_t>(R.buf[i] >> 8)
                cand[i] = (<uint32_t>perm_key(R, kid, pi) << 8) | (R.buf[i] & 0xFF)
            ce_sort_u32(cand, n)
        if first or memcmp(cand, out, n * sizeof(uint32_t)) < 0:
            # memcmp on little-endian words is not the numeric order, but any total order is canonical
            memcpy(out, cand, n * sizeof(uint32_t))
            first = 0
        if not ties:
            break
    return 0


cdef Layer *step_end(Run *R, Layer *L, int r, Layer *out) except NULL:
    layer_reset(out, L.n)
    cdef int32_t st, i, kid, nid, n, tag
    cdef int v, extra, cards
    cdef uint32_t *canon = NULL
    cdef int64_t canoncap = 0
    try:
        for st in range(L.n):
            cards = L.m[st].tag & 0xFF
            extra = run_update(R, (L.m[st].tag >> 8) & 0xFF, not ((L.m[st].tag >> 16) & 1), r)
            if extra < 0:
                continue
            if L.m[st].tag & DECIDED:
                stage_add(out, cards | (extra << 8) | DECIDED, R.buf, 0, L.m[st].w)
                continue
            for i in range(L.m[st].ln):
                kid = <int32_t>(L.ent[L.m[st].off + i] >> 8)
                v = L.ent[L.m[st].off + i] & 0xFF
                nid = end_trans(R, kid, r)
                if nid >= 0:
                    relax(R, nid, v)
            n = collect(R)
            if n == 0:
                continue
            if R.prune and not R.profile:
                R.ntouched = n
                n = prune(R, cards, r, 1)
                R.ntouched = 0
                if n == 0:
                    continue
            tag = cards | (extra << 8)
            if n < 0:                     # decided (at_most)
                stage_add(out, tag | DECIDED, R.buf, 0, L.m[st].w)
                continue
            if R.symmetric and not R.profile:
                if n > canoncap:
                    canoncap = 2 * n
                    canon = <uint32_t *>realloc(canon, canoncap * sizeof(uint32_t))
                    if canon == NULL:
                        raise MemoryError()
                canonical(R, n, canon)
                stage_add(out, tag, canon, n, L.m[st].w)
            else:
                stage_add(out, tag, R.buf, n, L.m[st].w)
    finally:
        free(canon)
    stage_flush(out)
    return out


# ---------------------------------------------------------------- driver

cdef int initial_tails(Run *R, Key *base, int nopen, int left, int lo, uint32_t *ent, int *count) except -1:
    cdef int t, s, L
    cdef Key n
    n = base[0]
    ent[count[0]] = <uint32_t>intern(R, kenc(&n)) << 8
    count[0] += 1
    if left == 0:
        return 0
    for t in range(lo, NS * R.ntails):
        s = t // R.ntails
        L = R.tails[t % R.ntails]
        if not (R.ssuits >> s) & 1:
            continue
        n = base[0]
        n.o[nopen] = (s << 6) | (L << 4) | L
        n.ns = base.ns + 1
        initial_tails(R, &n, nopen + 1, left - 1, t, ent, count)
    return 0


_debug = [False]


def rank_dp(problem, progress=None):
    """The rank DP of ``solver.continental.exact`` (see the module docstring)."""
    cdef Run R
    cdef Layer *L = NULL
    cdef Layer *spare = NULL
    cdef Layer *nxt
    cdef Key k
    cdef int i, r, s, count = 0, m, d, best, cards, cells
    cdef uint32_t init[4096]
    cdef int32_t st, j, kid
    cdef u128_t acc[32][16]
    memset(&R, 0, sizeof(Run))
    p = problem
    R.T = p.trios; R.S = p.straights; R.D = p.decks; R.J = p.jokers
    R.MJ4 = p.max_joker_straight; R.MJ3 = p.max_joker_trio; R.jH = p.hand_jokers
    R.N = p.naturals; R.size = p.size; R.rotation = p.rotation; R.profile = bool(p.profile)
    R.prune = bool(p.prune); R.symmetric = bool(p.symmetric); R.capbind = bool(p.cap_binds)
    R.ssuits = p.straight_suits
    R.floor = R.size - p.threshold - 1 if p.threshold >= 0 else -1
    R.at_most = 1 if (p.at_most and p.threshold >= 0) else 0
    R.target = R.size - p.decided_at if R.at_most else 255
    R.free = 1 if (R.S <= R.D and not R.capbind) else 0
    from solver.continental import exact as _exact
    R.dom = 1 if _exact.COMBINATION_DOMINANCE else 0
    if R.S > 3 or R.T > 3 or R.J > 127 or R.D > 15 or R.N > 13 or R.size > 12 + 13:
        raise ValueError("problem out of the kernel's range")
    for r in range(NR):
        R.cells[r] = p.cells[r]
    R.ntails = len(p.tails)
    for i in range(R.ntails):
        R.tails[i] = p.tails[i]
    R.capkeys = 1 << 10
    R.keys = <uint64_t *>malloc(R.capkeys * sizeof(uint64_t))
    cells = NS * (R.D + 1)
    R.c_start = <int64_t *>malloc(R.capkeys * NR * sizeof(int64_t))
    R.n_start = <int32_t *>malloc(R.capkeys * NR * sizeof(int32_t))
    R.c_cell = <int64_t *>malloc(R.capkeys * cells * sizeof(int64_t))
    R.n_cell = <int32_t *>malloc(R.capkeys * cells * sizeof(int32_t))
    R.c_end = <int32_t *>malloc(R.capkeys * NR * sizeof(int32_t))
    R.c_perm = <int32_t *>malloc(R.capkeys * NPERM * sizeof(int32_t))
    R.rem = <int8_t *>malloc(R.capkeys)
    R.whole = <int8_t *>malloc(R.capkeys)
    R.ksig = <uint64_t *>malloc(R.capkeys * NS * sizeof(uint64_t))
    R.kmask = <uint8_t *>malloc(R.capkeys)
    R.sure = <int8_t *>malloc(R.capkeys * NR * 2)
    R.dcnt = <int8_t *>malloc(R.capkeys)
    R.denc = <uint64_t *>malloc(R.capkeys * MAXC * sizeof(uint64_t))
    R.dmarg = <int8_t *>malloc(R.capkeys * MAXC)
    R.best = <int16_t *>malloc(R.capkeys * sizeof(int16_t))
    R.touched = <int32_t *>malloc(R.capkeys * sizeof(int32_t))
    R.bits = <uint64_t *>calloc(R.capkeys // 64 + 1, sizeof(uint64_t))
    R.dcid = <int32_t *>malloc(R.capkeys * MAXC * sizeof(int32_t))
    R.dver = <int32_t *>malloc(R.capkeys * sizeof(int32_t))
    R.smask = 2 * R.capkeys - 1
    R.slot = <int32_t *>malloc((R.smask + 1) * sizeof(int32_t))
    R.tpcap = 1 << 16
    R.tp_id = <int32_t *>malloc(R.tpcap * sizeof(int32_t))
    R.tp_gain = <int8_t *>malloc(R.tpcap)
    R.bufcap = 1 << 12
    R.buf = <uint32_t *>malloc(R.bufcap * sizeof(uint32_t))
    R.keep = <int8_t *>malloc(R.bufcap)
    R.rec = <ce_rec *>malloc(R.bufcap * sizeof(ce_rec))
    R.cand = <uint32_t *>malloc(R.bufcap * sizeof(uint32_t))
    try:
        if (R.bits == NULL or R.dcid == NULL or R.dver == NULL or R.keep == NULL or R.rec == NULL or R.cand == NULL or R.keys == NULL or R.c_start == NULL or R.n_start == NULL or R.c_cell == NULL
                or R.n_cell == NULL or R.c_end == NULL or R.c_perm == NULL or R.rem == NULL
                or R.whole == NULL or R.ksig == NULL or R.kmask == NULL or R.sure == NULL or R.best == NULL or R.touched == NULL or R.slot == NULL
                or R.dcnt == NULL or R.denc == NULL or R.dmarg == NULL
                or R.tp_id == NULL or R.tp_gain == NULL or R.buf == NULL):
            raise MemoryError()
        for i in range(R.capkeys * NR):
            R.c_start[i] = -1
            R.c_end[i] = -2
        for i in range(R.capkeys * cells):
            R.c_cell[i] = -1
        for i in range(R.capkeys * NPERM):
            R.c_perm[i] = -2
        for i in range(R.capkeys):
            R.best[i] = -1
            R.dver[i] = -1
        for i in range(R.smask + 1):
            R.slot[i] = -1
        for i in range(3):
            k.o[i] = EMPTY_O
            k.b[i] = 0
        k.ns = k.nt = k.nj = k.td = k.cap = 0
        initial_tails(&R, &k, 0, R.S, 0, init, &count)
        ce_sort_u32(init, count)
        L = layer_new()
        spare = layer_new()
        layer_add(L, 0, init, count, 1)
        for r in range(NR):
            nxt = step_start(&R, L, r, spare)
            spare = L
            L = nxt
            for s in range(NS):
                nxt = step_cell(&R, L, r, s, spare)
                spare = L
                L = nxt
            if _debug[0]:
                import sys as _s
                print(f"  rank {r} before end: states {L.n} entries {L.nent} keys {R.nkeys}", file=_s.stderr, flush=True)
            nxt = step_end(&R, L, r, spare)
            spare = L
            L = nxt
            if _debug[0]:
                import sys as _s
                print(f"  rank {r} end: states {L.n} entries {L.nent}", file=_s.stderr, flush=True)
            if progress is not None:
                progress()
        result = {}
        if R.profile:
            for st in range(L.n):
                prof = [[-1] * (R.J + 1) for _ in range(R.S + 1)]
                for j in range(L.m[st].ln):
                    kid = <int32_t>(L.ent[L.m[st].off + j] >> 8)
                    kdec(R.keys[kid], &k)
                    d = L.ent[L.m[st].off + j] & 0xFF
                    if d > prof[k.ns][k.nj]:
                        prof[k.ns][k.nj] = d
                key = (L.m[st].tag & 0xFF, tuple(map(tuple, prof)))
                result[key] = result.get(key, 0) + _pyint(L.m[st].w)
            return result
        memset(acc, 0, sizeof(acc))
        for st in range(L.n):
            cards = L.m[st].tag & 0xFF
            if cards != R.N:
                continue
            m = run_weight(&R, (L.m[st].tag >> 8) & 0xFF)
            if m == 0:
                continue
            best = -1
            for j in range(L.m[st].ln):
                d = L.ent[L.m[st].off + j] & 0xFF
                if d > best:
                    best = d
            if R.at_most and ((L.m[st].tag & DECIDED) or best >= R.target):
                acc[p.decided_at][m] += L.m[st].w
            else:
                acc[R.size - best][m] += L.m[st].w
        for d in range(32):
            for m in range(16):
                if acc[d][m]:
                    result[(d, m)] = _pyint(acc[d][m])
        return result
    finally:
        layer_free(L)
        layer_free(spare)
        free(R.keys); free(R.c_start); free(R.n_start); free(R.c_cell); free(R.n_cell)
        free(R.c_end); free(R.c_perm); free(R.rem); free(R.whole); free(R.ksig); free(R.kmask); free(R.sure); free(R.best); free(R.touched)
        free(R.dcnt); free(R.denc); free(R.dmarg)
        free(R.slot); free(R.tp_id); free(R.tp_gain); free(R.buf)
        free(R.bits); free(R.dcid); free(R.dver); free(R.keep); free(R.rec); free(R.cand)


cdef object _pyint(u128_t x):
    return (int(ce_hi(x)) << 64) | int(ce_lo(x))
