# cython: language_level=3
"""Compiled Continuous Pyramid: compact state, incremental moves, exact DFS.

The state is a few arrays of bytes plus three 64-bit words of open positions.
Tiles are *kinds* (0-26 suited, 27 wind, 28 season, 29 dragon): faces of one
kind play identically, so the search never branches on them.  The board alone
determines the whole state (the reserve is the first 9 + placed tiles of the
deal minus the placed multiset), so the transposition table is keyed by the
board and verifies the full packed board, not a hash: it cannot collide.

The readable twin is ``solver/pyramid/rules.py``; ``tests/test_pyramid_fast_vs_
reference.py`` holds the two together.
"""
from libc.stdint cimport uint8_t, int8_t, uint16_t, int32_t, uint32_t, uint64_t, int64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset, memcmp, memcpy, memmove
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID
from posix.mman cimport madvise, MADV_HUGEPAGE
from posix.stdlib cimport posix_memalign

from cext.rng cimport splitmix64_next, fisher_yates

cdef enum:
    NPOS = 144
    NKINDS = 30
    NSLOTS = 9
    KIND_WIND = 27
    KIND_SEASON = 28
    KIND_DRAGON = 29
    START = 38          # 1e5: level 1, file e (4), rank 5 (4)
    HOLE_CHECK_FROM = 100   # the matching check pays off only once the board fills up
    PACKED_WORDS = 12   # 12 positions x 5 bits per 64-bit word
    NSYM = 8            # rotations and reflections of the square
    MAX_MOVES = 1296    # 9 distinct reserve kinds x 144 positions

cdef extern from *:
    """
    static inline int _ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int _ctz32(unsigned int x) { return __builtin_ctz(x); }
    static inline int _popcount32(unsigned int x) { return __builtin_popcount(x); }
    static inline void _prefetch(const void *p) { __builtin_prefetch(p, 1); }
    """
    int _ctz64(uint64_t x) nogil
    int _ctz32(uint32_t x) nogil
    int _popcount32(uint32_t x) nogil
    void _prefetch(const void *p) nogil


# -- geometry, built once at import ------------------------------------------
cdef int8_t g_level[NPOS]
cdef int8_t g_file[NPOS]
cdef int8_t g_rank[NPOS]
cdef int g_nside[NPOS]
cdef int g_side[NPOS][4]
cdef int g_below[NPOS]
cdef int g_above[NPOS]
cdef int g_ndep[NPOS]
cdef int g_dep[NPOS][9]      # positions whose support count rises when p fills
cdef int g_threshold[NPOS]   # support needed to open: 1 on level 1, 5 above
cdef int g_sym[NSYM][NPOS]   # image of each position under the 8 symmetries of the square
cdef uint32_t g_fit[2][NKINDS]   # [variant][kind]: mask of kinds that fit against it
cdef uint64_t g_zobrist[NPOS][NKINDS]
cdef int g_nup[NPOS]
cdef int g_up[NPOS][5]       # positions that have p as a neighbour to fit: its sides and the one above
cdef uint64_t g_nbmask[NPOS][3]  # p's side neighbours and the one below, as a bitset
cdef uint8_t g_word[NPOS]    # a position's packed word and bit offset (5 bits per position)
cdef uint8_t g_shift[NPOS]

cdef int _index_at(int level, int f, int r):
    cdef int p
    for p in range(NPOS):
        if g_level[p] == level and g_file[p] == f and g_rank[p] == r:
            return p
    return -1


cdef int _kind_rank(int k):
    if k < 27:
        return k % 9 + 1
    if k == KIND_WIND:
        return 0
    if k == KIND_SEASON:
        return 10
    return -1


cdef bint _fits(int a, int b, int variant):
    cdef int ra, rb
    if a == KIND_DRAGON or b == KIND_DRAGON:
        return True
    ra = _kind_rank(a)
    rb = _kind_rank(b)
    if not (ra - rb == 1 or rb - ra == 1 or (variant == 0 and ra + rb == 10 and ra * rb == 0)):
        return False
    if a < 27 and b < 27 and a // 9 == b // 9:
        return False
    return True


cdef void _build_tables():
    cdef int p = 0, level, lo, hi, f, r, q, a, i, k, v, n
    cdef int df[4]
    cdef int dr[4]
    cdef uint64_t seed = 0x5059524D49445A42ULL   # fixed: Zobrist keys repeat run to run
    df[:] = [-1, 1, 0, 0]
    dr[:] = [0, 0, -1, 1]
    for level in range(1, 5):
        lo = level - 1 if level < 4 else 4
        hi = 9 - level if level < 4 else 4
        for f in range(lo, hi + 1):
            for r in range(lo, hi + 1):
                if lo != hi and (f == lo or f == hi) and (r == lo or r == hi):
                    continue
                g_level[p] = level
                g_file[p] = f
                g_rank[p] = r
                p += 1
    for p in range(NPOS):
        g_nside[p] = 0
        for i in range(4):
            q = _index_at(g_level[p], g_file[p] + df[i], g_rank[p] + dr[i])
            if q >= 0:
                g_side[p][g_nside[p]] = q
                g_nside[p] += 1
        g_below[p] = _index_at(g_level[p] - 1, g_file[p], g_rank[p])
        g_above[p] = _index_at(g_level[p] + 1, g_file[p], g_rank[p])
        g_threshold[p] = 1 if g_level[p] == 1 else 5
    for p in range(NPOS):
        # p supports: its level-1 side neighbours (level-1 openness), and every
        # upper position a whose five supports (below(a) and its sides) hold p.
        n = 0
        if g_level[p] == 1:
            for i in range(g_nside[p]):
                g_dep[p][n] = g_side[p][i]
                n += 1
        for a in range(NPOS):
            q = g_below[a]
            if q < 0:
                continue
            if q == p:
                g_dep[p][n] = a
                n += 1
            else:
                for i in range(g_nside[q]):
                    if g_side[q][i] == p:
                        g_dep[p][n] = a
                        n += 1
        g_ndep[p] = n
    for v in range(2):
        for a in range(NKINDS):
            g_fit[v][a] = 0
            for k in range(NKINDS):
                if _fits(k, a, v):
                    g_fit[v][a] |= (<uint32_t>1) << k
    for p in range(NPOS):
        for k in range(NKINDS):
            g_zobrist[p][k] = splitmix64_next(&seed)
    for p in range(NPOS):
        g_word[p] = p // 12
        g_shift[p] = (p % 12) * 5
        g_nup[p] = 0
        g_nbmask[p][0] = g_nbmask[p][1] = g_nbmask[p][2] = 0
        for i in range(g_nside[p] + 1):
            q = g_side[p][i] if i < g_nside[p] else g_above[p]
            if q >= 0:
                g_up[p][g_nup[p]] = q
                g_nup[p] += 1
            q = g_side[p][i] if i < g_nside[p] else g_below[p]
            if q >= 0:
                g_nbmask[p][q >> 6] |= (<uint64_t>1) << (q & 63)
    for p in range(NPOS):
        f = g_file[p]
        r = g_rank[p]
        g_sym[0][p] = p
        g_sym[1][p] = _index_at(g_level[p], r, 8 - f)
        g_sym[2][p] = _index_at(g_level[p], 8 - f, 8 - r)
        g_sym[3][p] = _index_at(g_level[p], 8 - r, f)
        g_sym[4][p] = _index_at(g_level[p], 8 - f, r)
        g_sym[5][p] = _index_at(g_level[p], f, 8 - r)
        g_sym[6][p] = _index_at(g_level[p], r, f)
        g_sym[7][p] = _index_at(g_level[p], 8 - r, 8 - f)


_build_tables()


# -- the state ----------------------------------------------------------------
cdef struct State:
    int8_t kind[NPOS]          # -1 when empty
    uint8_t support[NPOS]      # filled supports (see g_dep)
    uint64_t open[3]           # bitset of open positions
    uint64_t packed[NSYM][PACKED_WORDS]  # kind+1 in 5 bits per position, for the board's
                                         # 8 symmetric images: [0] is the board itself
    uint64_t hash[NSYM]        # Zobrist hash of each image
    int placed
    int8_t reserve[NKINDS]     # reserve multiset, by kind
    uint32_t reserve_mask      # kinds present in the reserve
    int variant                # 0 continuous, 1 wild dragons
    int8_t deal[NPOS]          # the deal as kinds
    uint8_t empty_near[NPOS]   # empty positions among sides(p) and above(p)
    uint8_t exposed[NKINDS]    # filled tiles, by kind, with an empty side or top
    uint8_t fit_exposed[NKINDS]  # kinds k with exposed[k] > 0, not the dragon, that kind j fits
    uint32_t exposed_accept    # kinds j with fit_exposed[j] > 0
    uint8_t suffix[NPOS + 1][NKINDS]  # suffix[i][k]: tiles of kind k in deal[i:]
    void *tail                 # the tail search's memo (pyramid_tail.pxi); NULL: the budgeted relaxation
    uint32_t acc[NPOS]         # kinds that fit a filled neighbour of p (sides and below)
    uint64_t filled[3]         # bitset of filled positions
    int dragon_room            # empty side and top neighbours of the dragons on the board
    bint packed_on             # packed and hash are kept (from the first use of the table on)
    bint suffix_on             # suffix is counted (from the first Hall check on)
    uint32_t acc_undo[NPOS][5] # last field: acc of g_up[p] before the move made with ``placed`` tiles


cdef inline void _set_open(State *s, int p) noexcept nogil:
    s.open[p >> 6] |= (<uint64_t>1) << (p & 63)


cdef inline void _clear_open(State *s, int p) noexcept nogil:
    s.open[p >> 6] &= ~((<uint64_t>1) << (p & 63))


cdef inline void _reserve_add(State *s, int k, int delta) noexcept nogil:
    s.reserve[k] += delta
    if s.reserve[k] > 0:
        s.reserve_mask |= (<uint32_t>1) << k
    else:
        s.reserve_mask &= ~((<uint32_t>1) << k)


cdef inline void _exposure_change(State *s, int k, int delta) noexcept nogil:
    """Kind ``k`` (not the dragon) becomes exposed (delta 1) or stops being so (-1)."""
    cdef uint32_t m = g_fit[s.variant][k]
    cdef int j
    while m:
        j = _ctz32(m)
        m &= m - 1
        s.fit_exposed[j] += delta
        if s.fit_exposed[j] == 0:
            s.exposed_accept &= ~((<uint32_t>1) << j)
        else:
            s.exposed_accept |= (<uint32_t>1) << j


cdef inline void _expose(State *s, int k) noexcept nogil:
    s.exposed[k] += 1
    if s.exposed[k] == 1 and k != KIND_DRAGON:
        _exposure_change(s, k, 1)


cdef inline void _cover(State *s, int k) noexcept nogil:
    s.exposed[k] -= 1
    if s.exposed[k] == 0 and k != KIND_DRAGON:
        _exposure_change(s, k, -1)


cdef void state_init(State *s, int8_t *deal, int variant) noexcept nogil:
    """The start of play: empty board, the first 9 tiles in reserve, 1e5 open.

    The large fields that are written before they are read are not cleared
    (the packed images and hashes: :func:`_ensure_packed`; the undo record;
    the counts of the stock, made when the Hall check first needs them:
    :func:`_need_suffix`): a deal won by the dive never pays for them.
    """
    cdef int p
    memset(s, 0, <char *>&s.packed - <char *>s)                      # kind, support, open
    memset(&s.placed, 0, <char *>&s.suffix - <char *>&s.placed)      # placed ... exposed_accept
    memset(&s.tail, 0, <char *>&s.acc_undo - <char *>&s.tail)        # tail ... suffix_on
    for p in range(NPOS):
        s.kind[p] = -1
        s.deal[p] = deal[p]
    for p in range(NSLOTS):
        _reserve_add(s, deal[p], 1)
    for p in range(NPOS):
        s.empty_near[p] = g_nside[p] + (1 if g_above[p] >= 0 else 0)
    s.packed_on = False
    s.variant = variant
    _set_open(s, START)


cdef inline void _pack(State *s, int k, int p) noexcept nogil:
    """Write kind ``k`` at ``p`` into every symmetric image of the board."""
    cdef int g, q
    for g in range(NSYM):
        q = g_sym[g][p]
        s.packed[g][g_word[q]] |= (<uint64_t>(k + 1)) << g_shift[q]
        s.hash[g] ^= g_zobrist[q][k]


cdef inline void _unpack(State *s, int k, int p) noexcept nogil:
    cdef int g, q
    for g in range(NSYM):
        q = g_sym[g][p]
        s.packed[g][g_word[q]] &= ~((<uint64_t>31) << g_shift[q])
        s.hash[g] ^= g_zobrist[q][k]


cdef void _ensure_packed(State *s) noexcept nogil:
    """Start keeping the packed images and hashes: a deal that never uses the
    table (a straight dive to a win) never pays for them."""
    cdef int p
    if s.packed_on:
        return
    memset(s.packed, 0, sizeof(s.packed))
    memset(s.hash, 0, sizeof(s.hash))
    for p in range(NPOS):
        if s.kind[p] >= 0:
            _pack(s, s.kind[p], p)
    s.packed_on = True


cdef inline uint32_t _acc_of(State *s, int p) noexcept nogil:
    """Kinds that fit a filled side neighbour of ``p`` or the tile below it."""
    cdef uint32_t acc = 0
    cdef int i, q
    for i in range(g_nside[p] + 1):
        q = g_side[p][i] if i < g_nside[p] else g_below[p]
        if q >= 0 and s.kind[q] >= 0:
            acc |= g_fit[s.variant][s.kind[q]]
    return acc


cdef inline int canonical(State *s) noexcept nogil:
    """The image with the smallest hash: symmetric boards share a table entry.

    Sound because the rules, the deal and the reserve do not depend on where
    on the pyramid a tile stands, only on which tiles touch: the 8 images of a
    board are all dead or all alive.
    """
    cdef int g, best = 0
    for g in range(1, NSYM):
        if s.hash[g] < s.hash[best]:
            best = g
    return best


cdef inline void _need_suffix(State *s) noexcept nogil:
    """Count ``suffix`` if it is not yet (the deal does not change during play)."""
    if not s.suffix_on:
        _count_suffix(s)


cdef void _count_suffix(State *s) noexcept nogil:
    cdef int i, k
    s.suffix_on = True
    memset(s.suffix[NPOS], 0, NKINDS)
    for i in range(NPOS - 1, -1, -1):
        memcpy(s.suffix[i], s.suffix[i + 1], NKINDS)
        s.suffix[i][s.deal[i]] += 1


cdef uint64_t _LAST_WORD = ((<uint64_t>1) << (NPOS - 128)) - 1   # positions 128-143


cdef int _try_assign(int i, uint32_t *pot, int *rem, int *owner, int *owned, bint *seen) noexcept nogil:
    """Kuhn's augmenting path: give restricted position ``i`` a tile kind."""
    cdef int k, j, c
    cdef uint32_t m = pot[i]
    while m:
        k = _ctz32(m)
        m &= m - 1
        if seen[k]:
            continue
        seen[k] = True
        if owned[k] < rem[k]:
            owner[k * 32 + owned[k]] = i
            owned[k] += 1
            return 1
        for c in range(owned[k]):
            j = owner[k * 32 + c]
            if _try_assign(j, pot, rem, owner, owned, seen):
                owner[k * 32 + c] = i
                return 1
    return 0


cdef bint holes_matchable(State *s) noexcept nogil:
    """False only if some empty positions can never all be filled.

    Every empty position must one day take a distinct remaining tile, and that
    tile must fit a neighbour filled by then: one filled now, or one still
    empty (then it could fit anything some remaining tile fits).  If even this
    generous matching between positions and remaining tiles fails (Hall), no
    line wins.  Only positions that accept fewer than all remaining kinds are
    matched (at most 32 of them: any subset must be matchable too).
    """
    cdef int rem[NKINDS]
    cdef uint32_t pot[32]
    cdef int owner[NKINDS * 32]
    cdef int owned[NKINDS]
    cdef bint seen[NKINDS]
    cdef uint32_t remaining = 0, reachable = 0, mask
    cdef uint64_t empty
    cdef int k, p, i, w, n = 0, stock = NSLOTS + s.placed
    cdef bint open_neighbour
    _need_suffix(s)
    for k in range(NKINDS):
        rem[k] = s.reserve[k] + (s.suffix[stock][k] if stock < NPOS else 0)
        if rem[k] > 0:
            remaining |= (<uint32_t>1) << k
            reachable |= g_fit[s.variant][k]
    for w in range(3):
        empty = ~s.filled[w] & (_LAST_WORD if w == 2 else ~(<uint64_t>0))
        while empty and n < 32:
            p = w * 64 + _ctz64(empty)
            empty &= empty - 1
            open_neighbour = ((g_nbmask[p][0] & ~s.filled[0]) | (g_nbmask[p][1] & ~s.filled[1])
                              | (g_nbmask[p][2] & ~s.filled[2])) != 0
            mask = (s.acc[p] | (reachable if open_neighbour else 0)) & remaining
            if mask == remaining:
                continue
            if mask == 0:
                return False
            pot[n] = mask
            n += 1
    memset(owned, 0, sizeof(owned))
    for i in range(n):
        memset(seen, 0, sizeof(seen))
        if not _try_assign(i, pot, rem, owner, owned, seen):
            return False
    return True


cdef void state_recompute(State *s) noexcept nogil:
    """Rebuild every derived field from ``kind``, ``reserve`` and ``placed``.

    The incremental updates in make/unmake must always agree with this; the
    tests check that they do.
    """
    cdef int p, i, q, a, k
    memset(s.support, 0, sizeof(s.support))
    memset(s.open, 0, sizeof(s.open))
    memset(s.packed, 0, sizeof(s.packed))
    memset(s.exposed, 0, sizeof(s.exposed))
    memset(s.hash, 0, sizeof(s.hash))
    memset(s.filled, 0, sizeof(s.filled))
    memset(s.fit_exposed, 0, sizeof(s.fit_exposed))
    s.exposed_accept = 0
    s.dragon_room = 0
    s.reserve_mask = 0
    for k in range(NKINDS):
        if s.reserve[k] > 0:
            s.reserve_mask |= (<uint32_t>1) << k
    for p in range(NPOS):
        s.empty_near[p] = 0
        for i in range(g_nside[p]):
            if s.kind[g_side[p][i]] < 0:
                s.empty_near[p] += 1
        if g_above[p] >= 0 and s.kind[g_above[p]] < 0:
            s.empty_near[p] += 1
        s.acc[p] = _acc_of(s, p)
        k = s.kind[p]
        if k < 0:
            continue
        if s.packed_on:
            _pack(s, k, p)
        s.filled[p >> 6] |= (<uint64_t>1) << (p & 63)
        if k == KIND_DRAGON:
            s.dragon_room += s.empty_near[p]
        if s.empty_near[p] > 0:
            _expose(s, k)
        for i in range(g_ndep[p]):
            s.support[g_dep[p][i]] += 1
    if s.placed == 0:
        _set_open(s, START)
    else:
        for a in range(NPOS):
            if s.kind[a] < 0 and s.support[a] >= g_threshold[a]:
                _set_open(s, a)


cdef inline void state_make(State *s, int k, int p) noexcept nogil:
    """Place kind ``k`` on open position ``p`` and refill the reserve.

    Precondition: (k, p) is legal.  Exactly undone by ``state_unmake(s, k, p)``.
    """
    cdef int i, a
    cdef int stock = NSLOTS + s.placed
    cdef uint32_t fit = g_fit[s.variant][k]
    s.kind[p] = k
    if s.packed_on:
        _pack(s, k, p)
    s.filled[p >> 6] |= (<uint64_t>1) << (p & 63)
    for i in range(g_nup[p]):
        a = g_up[p][i]
        s.acc_undo[s.placed][i] = s.acc[a]
        s.acc[a] |= fit
    _clear_open(s, p)
    for i in range(g_ndep[p]):
        a = g_dep[p][i]
        s.support[a] += 1
        if s.kind[a] < 0 and s.support[a] >= g_threshold[a]:
            _set_open(s, a)
    _touch_neighbours(s, p, -1)
    if s.empty_near[p] > 0:
        _expose(s, k)
    if k == KIND_DRAGON:
        s.dragon_room += s.empty_near[p]
    _reserve_add(s, k, -1)
    if stock < NPOS:
        _reserve_add(s, s.deal[stock], 1)
    s.placed += 1


cdef inline void _touch_neighbours(State *s, int p, int delta) noexcept nogil:
    """``p`` fills (delta -1) or empties (+1): adjust the tiles that see it.

    Those are its side neighbours and the tile below; a filled one whose last
    empty neighbour goes is covered for good and leaves ``exposed``.
    """
    cdef int i, q
    for i in range(g_nside[p] + 1):
        q = g_side[p][i] if i < g_nside[p] else g_below[p]
        if q < 0:
            continue
        if s.kind[q] >= 0 and delta < 0 and s.empty_near[q] == 1:
            _cover(s, s.kind[q])
        elif s.kind[q] >= 0 and delta > 0 and s.empty_near[q] == 0:
            _expose(s, s.kind[q])
        if s.kind[q] == KIND_DRAGON:
            s.dragon_room += delta
        s.empty_near[q] += delta


cdef enum:
    DRAGON_SOCKETS = 5      # empty neighbours a newly placed tile can have (4 sides and the top)
    RELAX_BRANCHES = 32     # choices the relaxation may try per node before it gives up (no cut)


cdef struct Relaxed:
    uint32_t accept          # kinds that fit a non-dragon tile with room (unlimited)
    int sockets              # empty neighbours of dragons: one tile each
    int8_t reserve[NKINDS]
    uint32_t mask            # kinds in the reserve
    int stock
    int placed
    int target               # tiles to reach in all: NPOS to finish the deal


cdef inline void _relaxed_place(State *s, Relaxed *r, int k) noexcept nogil:
    r.reserve[k] -= 1
    if r.reserve[k] == 0:
        r.mask &= ~((<uint32_t>1) << k)
    if k == KIND_DRAGON:
        r.sockets += DRAGON_SOCKETS
    else:
        r.accept |= g_fit[s.variant][k]
    if r.stock < NPOS:
        r.reserve[s.deal[r.stock]] += 1
        r.mask |= (<uint32_t>1) << s.deal[r.stock]
        r.stock += 1
    r.placed += 1


cdef bint _relaxed_finish(State *s, Relaxed *r, int *budget) noexcept nogil:
    """Can the relaxed play place every tile from ``r`` (``r.target`` tiles in
    all: see :func:`can_reach_relaxed`)?  (True when unsure.)

    Free placements (a kind in ``accept``) are made first: they cost nothing
    and only add options, so any finishing order can make them first.  When
    none is left, one tile must use a dragon's socket: each reserve kind is
    tried, at most ``budget`` tries in all (then True: no cut).
    """
    cdef uint32_t ready, rest, full = (<uint32_t>1 << NKINDS) - 1
    cdef Relaxed child
    cdef int k
    while True:
        if r.accept == full:
            return True
        ready = r.mask & r.accept
        if ready == 0:
            break
        _relaxed_place(s, r, _ctz32(ready))
    if r.mask == 0 or (r.accept | r.mask) == r.accept or r.placed >= r.target:
        return True
    if r.sockets == 0:
        return False
    rest = r.mask
    while rest:
        k = _ctz32(rest)
        rest &= rest - 1
        if budget[0] == 0:
            return True
        budget[0] -= 1
        child = r[0]
        child.sockets -= 1
        _relaxed_place(s, &child, k)
        if _relaxed_finish(s, &child, budget):
            return True
    return False


include "pyramid_tail.pxi"
include "pyramid_squares.pxi"


cdef bint can_finish_relaxed(State *s) noexcept nogil:
    """False only if the deal provably cannot be finished from here.

    The relaxation forgets geometry: a reserve tile may be placed whenever it
    fits a non-dragon tile that still has an empty neighbour (or one placed
    since), as often as it likes; or against a dragon, one tile per empty
    neighbour of a dragon on the board, and 5 more for each dragon placed
    since (a new tile has at most 5 empty neighbours: 4 sides and the top).
    Every real move is a relaxed move: it fits a filled neighbour of an empty
    position; a non-dragon one is exposed, a dragon one gives up that
    position, which no other move can take.  Relaxed placements only add
    options, so if the relaxed play cannot place all 144 tiles, no real line can.
    """
    cdef Relaxed r
    cdef int k, p, budget = RELAX_BRANCHES
    if s.tail != NULL:
        return tail_can_finish(s) and not (g_squares_on and s.placed <= g_squares_upto and squares_short(s, SQUARES_AHEAD))
    cdef uint32_t ready, full = (<uint32_t>1 << NKINDS) - 1
    r.accept = s.exposed_accept
    r.sockets = 0
    memcpy(r.reserve, s.reserve, sizeof(r.reserve))
    r.mask = s.reserve_mask
    r.stock = NSLOTS + s.placed
    r.placed = s.placed
    r.target = NPOS
    while r.accept != full:      # the free placements first: the dragons' sockets only if they stall
        ready = r.mask & r.accept
        if ready == 0:
            break
        _relaxed_place(s, &r, _ctz32(ready))
    if r.accept == full or r.mask == 0:
        return True
    r.sockets += s.dragon_room
    return _relaxed_finish(s, &r, &budget)


cdef bint can_reach_relaxed(State *s, int target) noexcept nogil:
    """False only if no line from here places ``target`` tiles in all (from a
    board with a tile on it: the first tile needs no neighbour).

    The relaxation of :func:`can_finish_relaxed` (without the tail's), asked
    for ``target`` tiles instead of 144: every real line is a relaxed line, and
    relaxed placements only add options, so if the relaxed play (free
    placements first, then each kind on a dragon's socket, at most 32 tries:
    then True) never has ``target`` tiles placed, no real line does.  The
    longest-line search uses it as its bound.
    """
    cdef Relaxed r
    cdef int budget = RELAX_BRANCHES
    r.accept = s.exposed_accept
    r.sockets = s.dragon_room
    memcpy(r.reserve, s.reserve, sizeof(r.reserve))
    r.mask = s.reserve_mask
    r.stock = NSLOTS + s.placed
    r.placed = s.placed
    r.target = target
    return _relaxed_finish(s, &r, &budget)


cdef inline void state_unmake(State *s, int k, int p) noexcept nogil:
    """Undo ``state_make(s, k, p)``: the last move made."""
    cdef int i, a
    cdef int stock
    s.placed -= 1
    stock = NSLOTS + s.placed
    if stock < NPOS:
        _reserve_add(s, s.deal[stock], -1)
    _reserve_add(s, k, 1)
    for i in range(g_ndep[p]):
        a = g_dep[p][i]
        s.support[a] -= 1
        if s.support[a] < g_threshold[a]:
            _clear_open(s, a)
    _set_open(s, p)
    if s.empty_near[p] > 0:
        _cover(s, k)
    if k == KIND_DRAGON:
        s.dragon_room -= s.empty_near[p]
    _touch_neighbours(s, p, 1)
    s.kind[p] = -1
    s.filled[p >> 6] &= ~((<uint64_t>1) << (p & 63))
    for i in range(g_nup[p]):
        s.acc[g_up[p][i]] = s.acc_undo[s.placed][i]
    if s.packed_on:
        _unpack(s, k, p)


cdef inline uint32_t accepts(State *s, int p) noexcept nogil:
    """Mask of kinds that fit at least one filled neighbour of ``p`` (all on an empty board)."""
    if s.placed == 0:
        return (<uint32_t>1 << NKINDS) - 1
    return s.acc[p]


cdef int generate(State *s, uint16_t *moves) noexcept nogil:
    """Write every legal move as ``pos * 32 + kind`` into ``moves``; return the count."""
    cdef int places[NKINDS]
    return generate_counted(s, moves, places)


cdef inline int generate_counted(State *s, uint16_t *moves, int *places) noexcept nogil:
    """:func:`generate`, and ``places[k]``: the moves of kind k."""
    cdef int n = 0, w, p, k
    cdef uint64_t bits
    cdef uint32_t m
    memset(places, 0, NKINDS * sizeof(int))
    for w in range(3):
        bits = s.open[w]
        while bits:
            p = w * 64 + _ctz64(bits)
            bits &= bits - 1
            m = accepts(s, p) & s.reserve_mask
            while m:
                k = _ctz32(m)
                m &= m - 1
                moves[n] = <uint16_t>(p * 32 + k)
                places[k] += 1
                n += 1
    return n


# -- the transposition table ---------------------------------------------------
cdef struct Entry:
    uint64_t packed[PACKED_WORDS]   # the whole board: a hit is an exact match


cdef struct Table:
    Entry *entries
    uint16_t *tags         # per entry: 0 empty, else a 16-bit check of the stored hash
    uint64_t size          # a power of two
    uint64_t used          # occupied entries (peak, as nothing is ever freed)
    uint64_t stores
    uint64_t hits
    uint32_t *dirty        # indices of the entries this deal filled, to clear their tags after
    uint64_t ndirty
    bint overflow          # more than DIRTY_CAP filled: clear every tag
    uint64_t *occupied     # a bit per bucket: some entry of it was filled this deal (a small
                           # array, mostly in cache: most probes of a sparse table stop here)


cdef enum:
    DIRTY_CAP = 1 << 16
    ENTRY_BYTES = PACKED_WORDS * 8 + 2   # an entry and its tag


cdef uint64_t _table_size(uint64_t max_bytes) noexcept nogil:
    """Entries in a table of at most ``max_bytes``: the largest power of two that fits."""
    cdef uint64_t size = 1
    if max_bytes < ENTRY_BYTES:
        return 0
    while size * 2 * ENTRY_BYTES <= max_bytes:
        size *= 2
    return size


cdef void *_huge_alloc(uint64_t nbytes) noexcept nogil:
    """Table memory on 2 MiB pages where the system allows it (transparent huge
    pages on request): a probe lands anywhere in tens of MiB, and small pages
    would cost it an address translation miss as well.  NULL if out of memory."""
    cdef void *mem = NULL
    cdef uint64_t huge = 1 << 21
    if nbytes < huge:
        return malloc(nbytes if nbytes > 0 else 1)
    nbytes = (nbytes + huge - 1) & ~(huge - 1)
    if posix_memalign(&mem, huge, nbytes) != 0:
        return NULL
    madvise(mem, nbytes, MADV_HUGEPAGE)     # advice: refused, the table just stays on small pages
    return mem


cdef int table_init(Table *t, uint64_t max_bytes) noexcept nogil:
    memset(t, 0, sizeof(Table))
    t.size = _table_size(max_bytes)
    t.dirty = <uint32_t *>malloc(DIRTY_CAP * sizeof(uint32_t))
    if t.size == 0:
        return 0 if t.dirty != NULL else -1
    t.entries = <Entry *>_huge_alloc(t.size * sizeof(Entry))
    t.tags = <uint16_t *>_huge_alloc(t.size * sizeof(uint16_t))
    if t.tags != NULL:
        memset(t.tags, 0, t.size * sizeof(uint16_t))
    t.occupied = <uint64_t *>calloc(_occupied_words(t), sizeof(uint64_t))
    return 0 if t.entries != NULL and t.tags != NULL and t.dirty != NULL and t.occupied != NULL else -1


cdef inline uint64_t _occupied_words(Table *t) noexcept nogil:
    return (t.size // 2 + 63) // 64 + 1


cdef inline uint64_t _bucket_number(Table *t, uint64_t i) noexcept nogil:
    return i >> 1 if t.size > 1 else 0


cdef void table_reset(Table *t) noexcept nogil:
    """Empty the table for the next deal: clear the tags this deal set (all of
    them if it set many).  An entry whose tag is 0 is never read."""
    cdef uint64_t i, b
    if t.overflow:
        memset(t.tags, 0, t.size * sizeof(uint16_t))
        memset(t.occupied, 0, _occupied_words(t) * sizeof(uint64_t))
    else:
        for i in range(t.ndirty):
            t.tags[t.dirty[i]] = 0
            b = _bucket_number(t, t.dirty[i])
            t.occupied[b >> 6] = 0       # (a word at a time: its other buckets are dirty too, or empty)
    t.used = 0
    t.stores = 0
    t.hits = 0
    t.ndirty = 0
    t.overflow = False


cdef void table_free(Table *t) noexcept nogil:
    free(t.entries)
    free(t.tags)
    free(t.dirty)
    free(t.occupied)
    t.entries = NULL
    t.tags = NULL
    t.dirty = NULL
    t.occupied = NULL
    t.size = 0


cdef inline uint16_t _tag(State *s, uint64_t hash) noexcept nogil:
    """Tiles placed (1-143) in the high byte, 8 bits of the hash (odd) in the low one."""
    return <uint16_t>((s.placed << 8) | ((hash >> 56) | 1))


cdef inline uint64_t _bucket(Table *t, uint64_t hash) noexcept nogil:
    """The first of the two entries a board may occupy (one when the table has one)."""
    return hash & (t.size - 1) & ~(<uint64_t>(t.size > 1))


cdef inline bint table_dead(Table *t, State *s) noexcept nogil:
    """True only if this exact board was stored as proven dead (the tag filters
    most misses without touching the entry; a hit compares the whole board)."""
    if _table_find(t, s):
        t.hits += 1
        return True
    return False


cdef inline bint _table_find(Table *t, State *s) noexcept nogil:
    """:func:`table_dead` without counting the hit (nothing in the table changes)."""
    cdef uint64_t i, j
    cdef uint16_t tag
    if t.used == 0:     # nothing stored yet (a straight dive): no need to look
        return False
    cdef int g = canonical(s)
    i = _bucket(t, s.hash[g])
    j = _bucket_number(t, i)
    if not (t.occupied[j >> 6] >> (j & 63)) & 1:
        _prefetch(&t.tags[i])           # this board is likely to be stored dead on the way back
        _prefetch(&t.entries[i])
        return False
    tag = _tag(s, s.hash[g])
    for j in range(i, i + 2 if t.size > 1 else i + 1):
        if t.tags[j] == tag and memcmp(t.entries[j].packed, s.packed[g], sizeof(Entry)) == 0:
            return True
    return False


cdef inline void table_store_dead(Table *t, State *s) noexcept nogil:
    """Remember a proven-dead board (any content is sound).  Two entries per
    bucket: an empty one, else the one holding the board with more tiles
    placed (its subtree was smaller) is replaced."""
    cdef uint64_t i
    if t.size == 0:
        return
    _ensure_packed(s)
    cdef int g = canonical(s)
    i = _bucket(t, s.hash[g])
    if t.size > 1 and t.tags[i] != 0 and (t.tags[i + 1] == 0 or (t.tags[i + 1] >> 8) >= (t.tags[i] >> 8)):
        i += 1
    if t.tags[i] == 0:
        t.used += 1
        t.occupied[_bucket_number(t, i) >> 6] |= (<uint64_t>1) << (_bucket_number(t, i) & 63)
        if t.ndirty < DIRTY_CAP:
            t.dirty[t.ndirty] = <uint32_t>i
            t.ndirty += 1
        else:
            t.overflow = True
    t.tags[i] = _tag(s, s.hash[g])
    memcpy(t.entries[i].packed, s.packed[g], sizeof(Entry))
    t.stores += 1


# -- the search ----------------------------------------------------------------
cdef enum:
    WON = 1
    DEAD = 0
    ABORTED = -1

cdef enum:
    LIMIT_NONE = 0
    LIMIT_NODES = 1
    LIMIT_TIME = 2


cdef struct Search:
    State state
    Table table
    uint64_t nodes
    uint64_t relaxed_cuts
    int deepest              # most tiles placed on any line searched
    uint64_t node_limit      # 0: none (this round's budget)
    uint64_t salt            # tie-break of this round's move ordering
    bint cuts                # the two sound relaxation cuts (off only to test them)
    bint bound               # the longest-line search: cut where no line can beat ``deepest``
    double deadline          # CPU seconds of this thread (:func:`_cpu_now`); 0: none
    int limit_hit
    uint16_t path[NPOS]      # the winning line, filled on the way back up
    uint16_t line[NPOS]      # the line being searched
    uint16_t deep_line[NPOS] # the line that placed ``deepest`` tiles
    int deep_same            # line[:deep_same] == deep_line[:deep_same]
    uint16_t *move_stack     # MAX_MOVES per ply
    uint32_t *score_stack    # their ordering scores
    bint dive                # each round starts with a straight dive (:func:`_dive`)
    int resume               # the nodes above this ply are a failed dive's: their checks pass
    uint64_t dives           # rounds that began with a dive, and the dives that won (for the tests)
    uint64_t dive_wins


cdef inline double _now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline double _cpu_now() noexcept nogil:
    """The CPU seconds this thread has run: the clock of the time limit, so
    that a limit means the same work on a loaded machine as on an idle one
    (the search runs in the caller's thread, without the GIL)."""
    cdef timespec ts
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline uint32_t _tie(uint64_t salt, uint16_t move) noexcept nogil:
    """A salted pseudo-random tie-break in 0-15 (0 for salt 0: generation order)."""
    cdef uint64_t z
    if salt == 0:
        return 0
    z = salt * <uint64_t>0x9E3779B97F4A7C15ULL + move
    return <uint32_t>(splitmix64_next(&z) & 15)


cdef inline uint32_t _score(State *s, uint16_t move, uint64_t salt, int *places) noexcept nogil:
    """A move's rank in the ordering (see :func:`order_moves`): smaller first."""
    cdef int k = move & 31
    return _rank(k, s.empty_near[move >> 5], places[k], salt, move)


cdef inline uint32_t _rank(int k, int empty_near, int places, uint64_t salt, uint16_t move) noexcept nogil:
    """The score of move (kind ``k``, its position's ``empty_near``, the ``places`` of its kind)."""
    return (((<uint32_t>(k == KIND_DRAGON)) << 24) | (<uint32_t>empty_near << 16)
            | (<uint32_t>places << 4) | _tie(salt, move))


cdef void order_moves(State *s, uint16_t *moves, int n, uint64_t salt, int *places) noexcept nogil:
    """Bring the most promising move to the front (ordering never changes the
    verdict); :func:`sort_rest` orders the others, needed only when the first
    fails.  Together they are a stable sort by :func:`_score`.

    Dragons last (a dragon in reserve always has a place: keep it for need);
    then the most enclosed position first (fewest empty neighbours: fill holes
    while something still fits them, rather than leave them for the end); then
    the kind with the fewest places first (play the hard tile while it fits);
    ties are broken by the round's salt.  ``places[k]``: the moves of kind k.
    """
    cdef int i, best = 0
    cdef uint32_t key, least = 0xFFFFFFFFu
    cdef uint16_t mv
    for i in range(n):
        key = _score(s, moves[i], salt, places)
        if key < least:
            best, least = i, key
    if best > 0:
        mv = moves[best]
        memmove(&moves[1], &moves[0], best * sizeof(uint16_t))
        moves[0] = mv


cdef void sort_rest(State *s, uint16_t *moves, uint32_t *score, int n, uint64_t salt, int *places) noexcept nogil:
    """Stable insertion sort of moves[1:] by score (moves[0] is already the least;
    the state is the node's, as when :func:`order_moves` ran)."""
    cdef int i, j
    cdef uint32_t key
    cdef uint16_t mv
    for i in range(1, n):
        score[i] = _score(s, moves[i], salt, places)
    for i in range(2, n):
        key = score[i]
        mv = moves[i]
        j = i - 1
        while j >= 1 and score[j] > key:
            score[j + 1] = score[j]
            moves[j + 1] = moves[j]
            j -= 1
        score[j + 1] = key
        moves[j + 1] = mv


cdef int search(Search *x, int ply) noexcept nogil:
    """Depth-first search for a win from the current state.

    Returns WON (and fills ``x.path[ply:]``; the state is then left at the end
    of the line, not restored), DEAD (proven: no move sequence wins from here),
    or ABORTED (a node or time limit was hit; nothing known).
    Only DEAD results are stored, so the table never holds a guess.

    A node above ``x.resume`` is on the line of a straight dive that failed
    (:func:`_dive`): its checks are known to pass and its ordered moves are on
    the stack, so it only counts itself and goes on, as it would have.
    """
    cdef State *s = &x.state
    cdef uint16_t *moves
    cdef uint32_t *scores
    cdef int places[NKINDS]
    cdef int n, i, k, p, r
    cdef bint resumed = ply < x.resume
    if s.placed == NPOS:
        return WON
    x.nodes += 1
    if s.placed > x.deepest:
        x.deepest = s.placed
        memcpy(x.deep_line + x.deep_same, x.line + x.deep_same, (s.placed - x.deep_same) * sizeof(uint16_t))
        x.deep_same = s.placed
    if x.node_limit and x.nodes > x.node_limit:
        x.limit_hit = LIMIT_NODES
        return ABORTED
    if x.deadline > 0 and (x.nodes & 1023) == 0 and _cpu_now() > x.deadline:
        x.limit_hit = LIMIT_TIME
        return ABORTED
    moves = x.move_stack + ply * MAX_MOVES
    scores = x.score_stack + ply * MAX_MOVES
    if resumed:
        n = 2                      # the dive's move, perhaps others: counted when generated (at i == 1)
        moves[0] = x.line[ply]     # the first of the ordering
    else:
        if s.placed > 0 and table_dead(&x.table, s):   # the empty board packs to 0, like an unused entry
            return DEAD
        if x.cuts and s.placed > 0 and not _passes_cuts(s):
            x.relaxed_cuts += 1
            table_store_dead(&x.table, s)
            return DEAD
        if x.bound and s.placed > 0 and not can_reach_relaxed(s, x.deepest + 1):   # "dead": nothing deeper here
            table_store_dead(&x.table, s)
            return DEAD
        n = generate_counted(s, moves, places)
        order_moves(s, moves, n, x.salt, places)
    i = 0
    while i < n:
        if i == 1:
            if resumed:             # the node's ordering as it was: the dive's move first
                n = generate_counted(s, moves, places)
                order_moves(s, moves, n, x.salt, places)
                if n == 1:
                    break
            sort_rest(s, moves, scores, n, x.salt, places)
        k = moves[i] & 31
        p = moves[i] >> 5
        state_make(s, k, p)
        x.line[ply] = moves[i]
        if ply < x.deep_same:
            x.deep_same = ply
        r = search(x, ply + 1)
        if resumed:
            x.resume = 0           # the dive's line is done with below this node
        if r == WON:               # the state is left where the line ends: nothing searches on
            x.path[ply] = moves[i]
            return WON
        state_unmake(s, k, p)
        if r == ABORTED:
            return ABORTED
        i += 1
    table_store_dead(&x.table, s)
    return DEAD


cdef inline bint _passes_cuts(State *s) noexcept nogil:
    """Cuts 1 and 2 (the relaxation, the Hall check from 100 tiles) leave this board alive."""
    return can_finish_relaxed(s) and (s.placed < HOLE_CHECK_FROM or holes_matchable(s))


cdef int _first_move(State *s, uint64_t salt) noexcept nogil:
    """The move :func:`order_moves` would bring to the front here (the least
    :func:`_score`, the first in generation order among equals; -1 when there
    is no move), without writing the moves out.  The score ranks a move by the
    dragon, then by its position's empty neighbours: only the positions with
    the fewest among those with a move that is not the dragon (all positions
    when there is none) hold the first move, and only their moves are scored.
    The kinds of each open position are kept as a mask, and the places of each
    kind are counted bit-sliced (``plane[j]``: bit j of every kind's count;
    at most 144 places: 8 planes), without a branch per move."""
    cdef uint32_t plane[8]
    cdef int pos[NPOS]
    cdef uint32_t kinds[NPOS]
    cdef int np = 0, w, p, k, i, j, places, best = -1, fewest = 255, e
    cdef uint64_t bits
    cdef uint32_t m, carry, t, key, least = 0xFFFFFFFFu, others = ~((<uint32_t>1) << KIND_DRAGON)
    memset(plane, 0, sizeof(plane))
    for w in range(3):
        bits = s.open[w]
        while bits:
            p = w * 64 + _ctz64(bits)
            bits &= bits - 1
            m = accepts(s, p) & s.reserve_mask
            pos[np] = p                     # kept only if it has a move (no branch on it)
            kinds[np] = m
            np += m != 0
            e = s.empty_near[p] if m & others else 255
            fewest = e if e < fewest else fewest
            carry = m
            for j in range(8):              # add 1 to the count of every kind in m
                t = plane[j] & carry
                plane[j] ^= carry
                carry = t
    for i in range(np):
        p = pos[i]
        m = kinds[i]
        if fewest < 255:
            if s.empty_near[p] != fewest:
                continue
            m &= others
        while m:
            k = _ctz32(m)
            m &= m - 1
            places = 0
            for j in range(8):
                places |= ((plane[j] >> k) & 1) << j
            key = _rank(k, s.empty_near[p], places, salt, <uint16_t>(p * 32 + k))
            if key < least:
                best, least = p * 32 + k, key
    return best


cdef bint _dive(Search *x, int start) noexcept nogil:
    """A straight dive from ``start``: the first move of the ordering at every
    node, without the table probe and the cuts (cut 1 and 2 cost a won deal's
    144 nodes about a fifth of their time).  True if it wins: the search would
    have made exactly these moves and counted exactly these nodes, since every
    node of a winning line passes the checks (they are sound: a board on it is
    alive, so neither stored dead nor cut); the nodes, ``deepest`` and the
    lines are set as the search sets them.

    Else (a node with no move, or a limit reached) the dive goes back up to
    ``start`` and looks at the checks of each node of its line on the way: the
    search would have stopped at the shallowest node that fails them (or where
    the dive stopped), so ``x.resume`` is that node's ply and the search takes
    the dive's moves unchecked above it (their ordering is generated only
    where the first move fails: the dive finds the first move without writing
    the moves out, :func:`_first_move`).  Nothing is stored and
    nothing counted: the search then does exactly what it would have done
    without the dive.  Its pure-Python twin is the search itself
    (``reference_search``: the same nodes); ``tests/test_pyramid_dive.py``
    holds the search with and without the dive to the same answers.
    """
    cdef State *s = &x.state
    cdef int move, ply = start, stop
    cdef uint64_t nodes = x.nodes
    while s.placed < NPOS:
        nodes += 1
        if (x.node_limit and nodes > x.node_limit) or \
                (x.deadline > 0 and (nodes & 1023) == 0 and _cpu_now() > x.deadline):
            break
        move = _first_move(s, x.salt)
        if move < 0:
            break
        state_make(s, move & 31, move >> 5)
        x.line[ply] = <uint16_t>move
        if ply < x.deep_same:
            x.deep_same = ply
        ply += 1
    if s.placed == NPOS:
        x.nodes = nodes
        if NPOS - 1 > x.deepest:      # the search's record at the line's last node, 143 tiles placed
            memcpy(x.deep_line + x.deep_same, x.line + x.deep_same, (NPOS - 1 - x.deep_same) * sizeof(uint16_t))
            x.deep_same = NPOS - 1
            x.deepest = NPOS - 1
        memcpy(x.path + start, x.line + start, (NPOS - start) * sizeof(uint16_t))
        return True
    stop = ply
    while ply > start:
        ply -= 1
        state_unmake(s, x.line[ply] & 31, x.line[ply] >> 5)
        if s.placed > 0 and (_table_find(&x.table, s) or not _passes_cuts(s)):
            stop = ply
    x.resume = stop
    return False


cdef int _round(Search *x, int start) noexcept nogil:
    """One round of the search from ``start``: a straight dive first where it
    is on (:func:`_dive`; not in the tail search, whose relaxation keeps a memo,
    nor the longest-line search), then the search if the dive did not win."""
    x.resume = 0
    if x.dive and x.cuts and not x.bound and x.state.tail == NULL:
        x.dives += 1
        if _dive(x, start):
            x.dive_wins += 1
            return WON
    return search(x, start)


cdef int _search_with_restarts(Search *x, uint64_t node_limit, uint64_t first_round, int start) noexcept nogil:
    """Rounds of DFS with doubling node budgets and fresh tie-breaks.

    A round that runs out of budget proves nothing, but every board it proved
    dead stays in the table, so later rounds (and the final, unbudgeted one)
    start from there.  A deal is lost only when one round completes without a
    win.  Restarts help on won deals whose first ordering is stuck in a dead
    subtree far from the root.
    """
    cdef uint64_t budget = first_round, used = 0
    cdef int r
    while True:
        if budget == 0 or (node_limit and used + budget >= node_limit):
            budget = (node_limit - used) if node_limit else 0
            x.limit_hit = LIMIT_NONE
            x.node_limit = used + budget if node_limit else 0
            return _round(x, start)
        x.node_limit = used + budget
        r = _round(x, start)
        if r != ABORTED or x.limit_hit == LIMIT_TIME:
            return r
        used = x.nodes
        x.salt += 1
        budget *= 2


cdef int _play_prefix(Search *x, prefix) except -1:
    """Make the moves of ``prefix`` (kind, position), each checked legal."""
    cdef int n = 0, k, p
    cdef State *s = &x.state
    for k, p in prefix:
        if n >= NPOS or not (0 <= k < NKINDS and 0 <= p < NPOS) or not (s.open[p >> 6] >> (p & 63)) & 1 \
                or not accepts(s, p) & s.reserve_mask & ((<uint32_t>1) << k):
            raise ValueError(f"prefix move {n + 1} (kind {k} at {p}) is illegal")
        state_make(s, k, p)
        x.line[n] = <uint16_t>(p * 32 + k)
        n += 1
    x.deepest = n
    memcpy(x.deep_line, x.line, n * sizeof(uint16_t))
    x.deep_same = n
    return n


cdef bint _longest_line(Search *x, uint64_t budget, int start, bint bound) noexcept nogil:
    """Search a lost deal again without cuts for its longest line (see solve_kinds);
    True if the search finished within ``budget`` nodes.  ``bound``: a node
    from which the relaxation places no more than ``deepest`` tiles is not
    searched (:func:`can_reach_relaxed`; it may hold no longer line)."""
    cdef int r
    table_reset(&x.table)      # the state is back at the root: the proof undid every move
    x.cuts = False
    x.bound = bound
    x.salt = 0
    x.deadline = 0.0
    x.limit_hit = LIMIT_NONE
    x.node_limit = x.nodes + budget
    x.resume = 0
    r = search(x, start)
    x.bound = False
    return r == DEAD


cdef Search *g_workspace = NULL   # kept between deals: no table or stack to allocate per deal
cdef bint g_workspace_busy = False


cdef Search *_workspace_new(uint64_t table_bytes) except NULL:
    cdef Search *x = <Search *>calloc(1, sizeof(Search))
    if x == NULL:
        raise MemoryError()
    x.move_stack = <uint16_t *>malloc((NPOS + 1) * MAX_MOVES * sizeof(uint16_t))
    x.score_stack = <uint32_t *>malloc((NPOS + 1) * MAX_MOVES * sizeof(uint32_t))
    if x.move_stack == NULL or x.score_stack == NULL or table_init(&x.table, table_bytes) != 0:
        _workspace_free(x)
        raise MemoryError("cannot allocate the transposition table")
    return x


cdef void _workspace_free(Search *x) noexcept nogil:
    if x != NULL:
        table_free(&x.table)
        free(x.move_stack)
        free(x.score_stack)
        free(x)


cdef Search *_workspace_take(uint64_t table_bytes) except NULL:
    """The process's workspace (its table emptied after the last deal), or a
    private one while another thread holds it.  Called with the GIL held."""
    global g_workspace, g_workspace_busy
    if g_workspace_busy:
        return _workspace_new(table_bytes)
    if g_workspace != NULL and g_workspace.table.size != _table_size(table_bytes):
        _workspace_free(g_workspace)
        g_workspace = NULL
    if g_workspace == NULL:
        g_workspace = _workspace_new(table_bytes)
    g_workspace_busy = True
    return g_workspace


cdef void _workspace_give_back(Search *x) noexcept:
    global g_workspace_busy
    table_reset(&x.table)
    if x == g_workspace:
        g_workspace_busy = False
    else:
        _workspace_free(x)


cdef struct Decision:
    int verdict              # WON, DEAD or ABORTED
    bint exact               # won, or the longest-line search finished
    uint64_t proof_nodes     # nodes of the proof search (``nodes``)
    double seconds           # the proof search's time
    double cpu_seconds       # the same in CPU seconds of the thread (what the time limit counts)
    double longest_seconds   # the longest-line search's


cdef void _decide(Search *x, int start, uint64_t node_limit, double time_limit, uint64_t first_round,
                  bint cuts, uint64_t longest_budget, bint longest_bound, Decision *d) noexcept nogil:
    """The search (with restarts) from the state the caller set up, then for a
    lost deal the longest-line search (see solve_kinds)."""
    cdef double t0, c0
    x.cuts = cuts
    t0 = _now()
    c0 = _cpu_now()
    x.deadline = c0 + time_limit if time_limit > 0 else 0.0
    d.verdict = _search_with_restarts(x, node_limit, first_round, start)
    d.cpu_seconds = _cpu_now() - c0     # the CPU span inside the wall span: a row's CPU
    d.seconds = _now() - t0             # seconds never exceed its seconds
    d.exact = d.verdict == WON
    d.proof_nodes = x.nodes
    d.longest_seconds = 0.0
    if d.verdict == DEAD and longest_budget > 0:
        t0 = _now()
        d.exact = _longest_line(x, longest_budget, start, longest_bound)
        d.longest_seconds = _now() - t0


cdef void _begin(Search *x, int8_t *deal, int variant) noexcept nogil:
    x.nodes = 0
    x.relaxed_cuts = 0
    x.dives = 0
    x.dive_wins = 0
    x.deepest = 0
    x.deep_same = 0
    x.salt = 0
    x.bound = False
    x.limit_hit = LIMIT_NONE
    state_init(&x.state, deal, variant)


VERDICTS = {WON: "won", DEAD: "lost", ABORTED: "unknown"}
LIMITS = {LIMIT_NONE: None, LIMIT_NODES: "nodes", LIMIT_TIME: "time"}


def solve_kinds(deal_kinds, *, int variant=0, uint64_t node_limit=0,
                double time_limit=0.0, uint64_t table_bytes=64 << 20,
                uint64_t first_round=5000, bint cuts=True, uint64_t longest_budget=4000, prefix=(),
                bint tail=False, bint longest_bound=True, bint dive=True):
    """Decide a deal given as 144 kinds.

    Returns a dict: ``verdict`` ('won', 'lost' or 'unknown'), ``moves`` (the
    winning line as (kind, position) pairs, empty unless won), ``nodes``,
    ``seconds`` (wall), ``cpu_seconds`` (CPU seconds of the calling thread:
    the clock of ``time_limit``), ``limit`` ('nodes', 'time' or None), ``table_entries`` (peak
    occupied entries), ``table_bytes`` (allocated), ``deepest`` and
    ``deepest_line`` (the line that placed the most tiles), ``relaxed_cuts``.

    ``first_round`` is the node budget of the first restart round (0: a single
    plain DFS); ``cuts=False`` switches off the relaxation cuts, so tests can
    check them against plain exhaustive search.  The table and move stack are
    allocated once per process and emptied after each deal.

    The longest line of a lost deal: the proof cuts lines short, so after a
    ``lost`` verdict a second DFS without cuts looks for the line that places
    most tiles, within ``longest_budget`` nodes (0: none), its table emptied
    first (the proof's dead boards say nothing about depth).  Transpositions
    are still cut: a board met again leads to the same depths.  With
    ``longest_bound`` (the default) a board is also cut where the relaxation
    shows that no line from it places more tiles than the deepest found so far
    (:func:`can_reach_relaxed`: sound, so a finished search still has the
    longest line; it finishes far more often within the budget).  ``deepest``
    and ``deepest_line`` are the longest of both searches; ``longest_exact``
    is True when this search finished, so no line places more tiles;
    ``longest_nodes`` counts its nodes (not in ``nodes``).

    ``prefix``: (kind, position) moves played first (checked: ValueError if
    one is illegal); the search decides the position they reach, ``moves`` is
    the winning continuation from there and ``deepest_line`` starts from the
    deal's start.

    ``tail=True``: the tail search (``pyramid_tail.pxi``): the relaxation is
    decided completely (memo, dragon first, a large try budget); the dict adds
    ``tail_tries``, ``tail_hits`` and ``tail_giveups``.

    ``dive=False`` switches off the straight dive that starts each round
    (:func:`_dive`: it changes no answer, node count or line; the tests check
    that); ``dives`` and ``dive_wins`` count the rounds that began with one and
    the dives that won.
    """
    cdef int8_t deal[NPOS]
    cdef int r, i
    cdef int start
    cdef Decision d
    cdef Search *x
    cdef TailMemo *memo = NULL
    assert variant == 0 or variant == 1, "variant 0 (continuous) or 1 (wild dragons)"
    _load_deal(deal_kinds, deal)
    x = _workspace_take(table_bytes)
    try:
        _begin(x, deal, variant)
        x.dive = dive
        if tail:
            memo = _tail_memo_take()
            x.state.tail = memo
        start = _play_prefix(x, prefix)
        with nogil:
            _decide(x, start, node_limit, time_limit, first_round, cuts, longest_budget, longest_bound, &d)
        r = d.verdict
        moves = [(x.path[i] & 31, x.path[i] >> 5) for i in range(start, NPOS)] if r == WON else []
        return {
            "verdict": VERDICTS[r], "moves": moves, "nodes": d.proof_nodes, "seconds": d.seconds,
            "cpu_seconds": d.cpu_seconds,
            "limit": LIMITS[x.limit_hit] if r == ABORTED else None,
            "table_entries": x.table.used, "relaxed_cuts": x.relaxed_cuts, "deepest": x.deepest,
            "deepest_line": moves if r == WON else [(x.deep_line[i] & 31, x.deep_line[i] >> 5)
                                                    for i in range(x.deepest)],
            "table_bytes": x.table.size * ENTRY_BYTES,
            "longest_exact": bool(d.exact), "longest_nodes": x.nodes - d.proof_nodes,
            "dives": x.dives, "dive_wins": x.dive_wins,
        } | ({"tail_tries": memo.tries, "tail_hits": memo.hits, "tail_giveups": memo.giveups} if tail else {})
    finally:
        if memo != NULL:
            x.state.tail = NULL
            _tail_memo_give_back(memo)
        _workspace_give_back(x)


cdef void _deal_seed(uint64_t seed, int8_t *deal) noexcept nogil:
    """Deal number ``seed`` as kinds: the canonical deck (rules/pyramid.md: 1B-9B,
    1C-9C, 1D-9D four of each, then 12 winds, 12 seasons, 12 dragons) shuffled
    by the project's SplitMix64 Fisher-Yates."""
    cdef int32_t idx[NPOS]
    cdef int i
    for i in range(NPOS):
        idx[i] = i
    fisher_yates(idx, NPOS, seed)
    for i in range(NPOS):
        deal[i] = <int8_t>(idx[i] // 4 if idx[i] < 108 else 27 + (idx[i] - 108) // 12)


def deal_kinds_of_seed(uint64_t seed):
    """The 144 kinds of deal ``seed`` as this kernel deals them (for the tests)."""
    cdef int8_t deal[NPOS]
    _deal_seed(seed, deal)
    return [deal[i] for i in range(NPOS)]


cdef bytes _line_bytes(uint16_t *line, int start, int end):
    """A line as bytes: (kind, position) pairs, two bytes per move."""
    cdef uint8_t buf[2 * NPOS]
    cdef int i, n = 0
    for i in range(start, end):
        buf[n] = line[i] & 31
        buf[n + 1] = line[i] >> 5
        n += 2
    return (<char *>buf)[:n]


def solve_seeds(seeds, *, int variant=0, uint64_t node_limit=0, double time_limit=0.0,
                uint64_t table_bytes=64 << 20, uint64_t longest_budget=4000, bint blind_players=True,
                bint longest_bound=True, bint dive=True):
    """Deal each seed of ``seeds`` here and decide it as :func:`solve_kinds`
    does, one call for a whole chunk of a batch.

    Returns one tuple per seed: (verdict, limit, nodes, seconds, deepest,
    longest_exact, table_entries, table_bytes, line, blind, extra_seconds,
    cpu_seconds), where ``seconds`` is the proof search's time (``cpu_seconds``
    the same in CPU seconds of the thread, the clock of ``time_limit``) and ``line`` bytes of (kind,
    position) pairs: the winning line when won, else the line that placed
    ``deepest`` tiles.  The winning line is not checked here: the caller has it
    replayed by the separate checker.  ``blind``: where the longest line is not
    proven the longest (and ``blind_players``), the most tiles the greedy and
    the default lookahead player place on the deal, else None.
    ``extra_seconds``: the longest-line search's and the blind players' time.
    ``dive``: as in :func:`solve_kinds` (off only to test it).
    """
    cdef int8_t deal[NPOS]
    cdef Decision d
    cdef Search *x
    cdef uint64_t seed
    cdef list out = []
    cdef int most
    cdef double t0, blind_seconds
    assert variant == 0 or variant == 1, "variant 0 (continuous) or 1 (wild dragons)"
    x = _workspace_take(table_bytes)
    try:
        for seed in seeds:
            with nogil:
                _deal_seed(seed, deal)
                _begin(x, deal, variant)
                x.dive = dive
                _decide(x, 0, node_limit, time_limit, 5000, True, longest_budget, longest_bound, &d)
            blind = None
            blind_seconds = 0.0
            if blind_players and not d.exact:
                with nogil:
                    t0 = _now()
                    most = _blind_longest(deal, variant, seed)
                    blind_seconds = _now() - t0
                blind = most
            out.append((VERDICTS[d.verdict], LIMITS[x.limit_hit] if d.verdict == ABORTED else None,
                        d.proof_nodes, d.seconds, NPOS if d.verdict == WON else x.deepest, bool(d.exact),
                        x.table.used, x.table.size * ENTRY_BYTES,
                        _line_bytes(x.path, 0, NPOS) if d.verdict == WON else _line_bytes(x.deep_line, 0, x.deepest),
                        blind, d.longest_seconds + blind_seconds, d.cpu_seconds))
            table_reset(&x.table)
        return out
    finally:
        _workspace_give_back(x)


cdef void _load_deal(deal_kinds, int8_t *deal) except *:
    cdef int i, k
    if len(deal_kinds) != NPOS:
        raise ValueError("a deal has 144 tiles")
    for i in range(NPOS):
        k = deal_kinds[i]
        if not 0 <= k < NKINDS:
            raise ValueError(f"bad kind {k}")
        deal[i] = k


# -- a Python handle on the engine, for tests and blind play --------------------
cdef class Engine:
    """The compiled state with make/unmake, for differential tests and policies.

    >>> e = Engine(list(range(27)) * 4 + [27] * 12 + [28] * 12 + [29] * 12)
    >>> e.legal_moves()[:3]
    [(0, 38), (1, 38), (2, 38)]
    """

    cdef State s
    cdef list _history

    def __init__(self, deal_kinds, *, int variant=0):
        cdef int8_t deal[NPOS]
        assert variant == 0 or variant == 1, "variant 0 or 1"
        _load_deal(deal_kinds, deal)
        state_init(&self.s, deal, variant)
        _ensure_packed(&self.s)     # key() and symmetric_keys() show them
        self._history = []

    @staticmethod
    def from_position(board, reserve, stock, *, int variant=0):
        """An engine for a position seen mid-game, e.g. a blind player's sampled world.

        ``board``: 144 kinds or None; ``reserve``: the kinds in reserve (any
        order); ``stock``: the kinds still to come, in order.  Together they must
        make 144 tiles.  The history starts here: ``unmake`` cannot go back
        beyond it.
        """
        cdef Engine e = Engine.__new__(Engine)
        cdef int p, placed = 0, i
        if len(board) != NPOS or len(reserve) + len(stock) + sum(b is not None for b in board) != NPOS:
            raise ValueError("board, reserve and stock must hold 144 tiles in all")
        if len(reserve) > NSLOTS or (len(stock) > 0 and len(reserve) != NSLOTS):
            raise ValueError("the reserve holds 9 tiles while the stock lasts")
        assert variant == 0 or variant == 1, "variant 0 or 1"
        assert all(b is None or 0 <= b < NKINDS for b in board), "kinds 0-29 or None"
        assert all(0 <= k < NKINDS for k in reserve) and all(0 <= k < NKINDS for k in stock), \
            "kinds 0-29"
        memset(&e.s, 0, sizeof(State))
        e.s.variant = variant
        e.s.packed_on = True
        for p in range(NPOS):
            e.s.kind[p] = -1 if board[p] is None else board[p]
            placed += board[p] is not None
        e.s.placed = placed
        for k in reserve:
            e.s.reserve[k] += 1
        for i, k in enumerate(stock):
            e.s.deal[NSLOTS + placed + i] = k
        _count_suffix(&e.s)
        state_recompute(&e.s)
        e._history = []
        return e

    def consistent(self):
        """True if the incrementally kept fields equal a from-scratch rebuild."""
        cdef State copy = self.s
        state_recompute(&copy)
        return memcmp(&copy, &self.s, <char *>&self.s.acc_undo - <char *>&self.s) == 0   # all but the undo record

    def legal_moves(self):
        """Sorted (kind, position) pairs."""
        cdef uint16_t moves[MAX_MOVES]
        cdef int n = generate(&self.s, moves), i
        return sorted([(moves[i] & 31, moves[i] >> 5) for i in range(n)])

    def generate_repeatedly(self, int repeat):
        """Run the move generator ``repeat`` times; return the moves of one run.

        For benchmarks: it times the C generator without building Python lists.
        """
        cdef uint16_t moves[MAX_MOVES]
        cdef int n = 0, i
        with nogil:
            for i in range(repeat):
                n = generate(&self.s, moves)
        return n

    def is_legal(self, int kind, int pos):
        if not (0 <= kind < NKINDS and 0 <= pos < NPOS):
            return False
        return bool((self.s.open[pos >> 6] >> (pos & 63)) & 1) and bool(accepts(&self.s, pos) & self.s.reserve_mask & ((<uint32_t>1) << kind))

    def make(self, int kind, int pos):
        if not self.is_legal(kind, pos):
            raise ValueError(f"illegal move: kind {kind} at {pos}")
        state_make(&self.s, kind, pos)
        self._history.append((kind, pos))

    def unmake(self):
        kind, pos = self._history.pop()
        state_unmake(&self.s, kind, pos)

    @property
    def placed(self):
        return self.s.placed

    def board(self):
        """Kinds on the 144 positions, None where empty."""
        return [None if self.s.kind[p] < 0 else self.s.kind[p] for p in range(NPOS)]

    def reserve(self):
        """The reserve multiset as 30 counts, by kind."""
        return [self.s.reserve[k] for k in range(NKINDS)]

    def open_positions(self):
        return [p for p in range(NPOS) if (self.s.open[p >> 6] >> (p & 63)) & 1]

    def key(self):
        """The exact packed board (12 words) and its Zobrist hash."""
        return tuple(self.s.packed[0][i] for i in range(PACKED_WORDS)), self.s.hash[0]

    def symmetric_keys(self):
        """The packed board of each of the 8 symmetric images."""
        return [tuple(self.s.packed[g][i] for i in range(PACKED_WORDS)) for g in range(NSYM)]

    def is_won(self):
        return self.s.placed == NPOS

    def exposed(self):
        """Filled tiles with an empty side or top neighbour, counted by kind."""
        return [self.s.exposed[k] for k in range(NKINDS)]

    def can_finish_relaxed(self, bint tail=False):
        """The relaxation's verdict here (``tail``: the tail search's, with a fresh memo;
        the relaxation alone: the tail search also asks :meth:`squares_short`)."""
        cdef TailMemo *memo
        if not tail:
            return self.s.placed == 0 or can_finish_relaxed(&self.s)
        memo = _tail_memo_take()
        self.s.tail = memo
        try:
            return self.s.placed == 0 or tail_can_finish(&self.s)
        finally:
            self.s.tail = NULL
            _tail_memo_give_back(memo)

    def can_reach_relaxed(self, int target):
        """The longest-line search's bound: False if no line from here places ``target`` tiles in all."""
        return self.s.placed == 0 or can_reach_relaxed(&self.s, target)

    def squares_short(self, int ahead=SQUARES_AHEAD):
        """The square bound here: the fewest tiles in all it rules out (0: none)."""
        return 0 if self.s.placed == 0 else squares_short(&self.s, ahead)

    def holes_matchable(self):
        return self.s.placed == 0 or holes_matchable(&self.s)

    def is_stuck(self):
        cdef uint16_t moves[MAX_MOVES]
        return self.s.placed < NPOS and generate(&self.s, moves) == 0


def symmetries():
    """The position maps of the 8 symmetries, to test against the reference geometry."""
    return [[g_sym[g][p] for p in range(NPOS)] for g in range(NSYM)]


def geometry():
    """(level, file, rank, sides, below) per position, to test against the reference."""
    return [(g_level[p], g_file[p], g_rank[p], [g_side[p][i] for i in range(g_nside[p])], g_below[p])
            for p in range(NPOS)]


def fit_masks(int variant):
    assert variant == 0 or variant == 1, "variant 0 or 1"
    return [g_fit[variant][k] for k in range(NKINDS)]


include "pyramid_blind_play.pxi"
