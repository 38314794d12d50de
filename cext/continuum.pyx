# cython: language_level=3
"""Compiled Continuum row: a 64-bit encoding, successor generation, A* search.

Encoding of a row in one ``uint64_t`` (the *key*):

* bits 0-47: the 12 pyramid ids (4 bits each) in row order, West end first,
  each stack bottom first;
* bits 48-59: bit ``48 + k`` is set when position ``k`` starts a new stack;
* bits 60-63: how many pyramids stand on the West side.

The key is canonical (one row, one key), so it is also the hash-table key.
Move codes: ``kind << 8 | pid << 4 | low`` with kind 0 onto, 1 gap, 2 switch,
3 king; ``low`` is the direction (0 West, 1 East) or the other pyramid.
The readable twin is ``solver/continuum/rules.py``; the successor order is the
same, so the differential tests compare lists, not sets.
"""
from libc.stdint cimport uint64_t, int64_t, int32_t, uint32_t, int8_t, uint8_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memset

DEF MAXP = 12
DEF MAXSUCC = 80
DEF SCALE = 1048576        # g = primary * SCALE + secondary

cdef struct Lay:
    int8_t n[2]            # stacks per side
    int8_t h[2][12]        # stack heights
    int8_t p[2][12][12]    # pyramids, bottom first


cdef inline int value_of(int pid) noexcept nogil:
    return pid % 3 + 1


cdef void decode(uint64_t key, Lay *L) noexcept nogil:
    """Unpack ``key`` into stacks."""
    cdef int nwest = <int>(key >> 60)
    cdef int k, s, pid
    L.n[0] = 0
    L.n[1] = 0
    for k in range(MAXP):
        s = 0 if k < nwest else 1
        pid = <int>((key >> (4 * k)) & 15)
        if (key >> (48 + k)) & 1 or (k == nwest):
            L.h[s][L.n[s]] = 0
            L.n[s] += 1
        L.p[s][L.n[s] - 1][L.h[s][L.n[s] - 1]] = pid
        L.h[s][L.n[s] - 1] += 1


cdef uint64_t encode(Lay *L) noexcept nogil:
    """Pack stacks into the canonical key."""
    cdef uint64_t key = 0
    cdef int k = 0, s, i, j, nwest = 0
    for s in range(2):
        for i in range(L.n[s]):
            for j in range(L.h[s][i]):
                key |= (<uint64_t>L.p[s][i][j]) << (4 * k)
                if j == 0:
                    key |= (<uint64_t>1) << (48 + k)
                k += 1
        if s == 0:
            nwest = k
    return key | ((<uint64_t>nwest) << 60)


cdef inline void remove_stack(Lay *L, int s, int i) noexcept nogil:
    cdef int a
    for a in range(i, L.n[s] - 1):
        L.h[s][a] = L.h[s][a + 1]
        memcpy(L.p[s][a], L.p[s][a + 1], 12)
    L.n[s] -= 1


cdef inline void insert_single(Lay *L, int s, int i, int pid) noexcept nogil:
    """A new one-pyramid stack at index ``i`` of side ``s``."""
    cdef int a
    a = L.n[s]
    while a > i:
        L.h[s][a] = L.h[s][a - 1]
        memcpy(L.p[s][a], L.p[s][a - 1], 12)
        a -= 1
    L.h[s][i] = 1
    L.p[s][i][0] = pid
    L.n[s] += 1


cdef int gen(uint64_t key, uint32_t movable, bint kings,
             uint64_t *okey, int *ocost, int *ocode) noexcept nogil:
    """Write every successor of ``key`` (moving only pyramids in the bit mask
    ``movable``) into the arrays; return their number (at most MAXSUCC).
    Same moves and order as ``rules.legal_moves``."""
    cdef Lay L, M
    cdef int cnt = 0, s, i, j, d, di, p, q, h, n
    decode(key, &L)
    for s in range(2):
        n = L.n[s]
        for i in range(n):
            h = L.h[s][i]
            p = L.p[s][i][h - 1]
            if not (movable >> p) & 1:
                continue
            for di in range(2):
                d = -1 if di == 0 else 1
                j = i + d
                if 0 <= j < n:
                    # onto the neighbour
                    memcpy(&M, &L, sizeof(Lay))
                    M.p[s][j][M.h[s][j]] = p
                    M.h[s][j] += 1
                    M.h[s][i] -= 1
                    if M.h[s][i] == 0:
                        remove_stack(&M, s, i)
                    okey[cnt] = encode(&M); ocost[cnt] = value_of(p)
                    ocode[cnt] = (0 << 8) | (p << 4) | di
                    cnt += 1
                # a new stack: between two stacks, or beyond the side's outer end
                if h > 1 and (0 <= j < n or (s == 0 and d < 0) or (s == 1 and d > 0)):
                    memcpy(&M, &L, sizeof(Lay))
                    M.h[s][i] -= 1
                    insert_single(&M, s, i if d < 0 else i + 1, p)
                    okey[cnt] = encode(&M); ocost[cnt] = value_of(p)
                    ocode[cnt] = (1 << 8) | (p << 4) | di
                    cnt += 1
    # the border switch
    if L.n[0] > 0 and L.n[1] > 0:
        p = L.p[0][L.n[0] - 1][L.h[0][L.n[0] - 1] - 1]
        q = L.p[1][0][L.h[1][0] - 1]
        if (movable >> p) & 1 and (movable >> q) & 1:
            memcpy(&M, &L, sizeof(Lay))
            M.p[0][M.n[0] - 1][M.h[0][M.n[0] - 1] - 1] = q
            M.p[1][0][M.h[1][0] - 1] = p
            okey[cnt] = encode(&M); ocost[cnt] = value_of(p) + value_of(q)
            ocode[cnt] = (2 << 8) | (p << 4) | q
            cnt += 1
    if kings:
        for s in range(2):
            for i in range(L.n[s] - 1):
                if L.h[s][i] == 1 and L.h[s][i + 1] == 1:
                    p = L.p[s][i][0]
                    q = L.p[s][i + 1][0]
                    if (movable >> p) & 1 and (movable >> q) & 1:
                        memcpy(&M, &L, sizeof(Lay))
                        M.p[s][i][0] = q
                        M.p[s][i + 1][0] = p
                        okey[cnt] = encode(&M); ocost[cnt] = 0
                        ocode[cnt] = (3 << 8) | (p << 4) | q
                        cnt += 1
        if L.n[0] > 0 and L.n[1] > 0 and L.h[0][L.n[0] - 1] == 1 and L.h[1][0] == 1:
            p = L.p[0][L.n[0] - 1][0]
            q = L.p[1][0][0]
            if (movable >> p) & 1 and (movable >> q) & 1:
                memcpy(&M, &L, sizeof(Lay))
                M.p[0][M.n[0] - 1][0] = q
                M.p[1][0][0] = p
                okey[cnt] = encode(&M); ocost[cnt] = 0
                ocode[cnt] = (3 << 8) | (p << 4) | q
                cnt += 1
    return cnt


cdef bint is_goal(uint64_t key, uint32_t colours) noexcept nogil:
    """Every colour ``c`` in the bit mask ``colours`` stands as exactly L M S
    on its goal side (colours 0, 1 East; 2, 3 West)."""
    cdef Lay L
    cdef int c, s, i, found
    decode(key, &L)
    for c in range(4):
        if not (colours >> c) & 1:
            continue
        s = 1 if c < 2 else 0
        found = 0
        for i in range(L.n[s]):
            if (L.h[s][i] == 3 and L.p[s][i][0] == c * 3 + 2
                    and L.p[s][i][1] == c * 3 + 1 and L.p[s][i][2] == c * 3):
                found = 1
                break
        if not found:
            return False
    return True


cdef int heuristic(uint64_t key, uint32_t own, uint32_t movable, int mode) noexcept nogil:
    """An admissible bound on the primary cost to the goal for the pyramids in
    ``own``; only pyramids in ``movable`` (which holds ``own``) move.  Each
    move's cost is shared out to the pyramids it moves, and
    each own pyramid ``p`` is given a lower bound on its share:

    * on the wrong side: one switch (``value(p)``); and, when some stack
      between its stack and the continuum holds a pyramid not in ``movable``
      (so its stack can never touch the continuum), one step before that
      switch (``value(p)`` again);
    * on its goal side, with anything but its own tree's larger pyramids
      beneath it (S needs L M, M needs L, L nothing): one move (``value(p)``),
      since what lies under a pyramid changes only when it moves;
    * and every other pyramid above an own pyramid that must move (one of the
      two cases above) must step off it first (its value; pips mode only).

    mode 0 (pips, no kings): the sum of those shares.  mode 1 (moves): the own
    pyramids wrong on the West side (one switch carries one each way) plus the
    blocked ones (each a separate one-space step).  mode 2 (pips with kings):
    0, since a king moves pyramids for free."""
    cdef Lay L
    cdef int s, i, j, a, pid, total = 0, goal, c, ok, blocked, low
    cdef int fixed[2][12]
    if mode == 2:
        return 0
    decode(key, &L)
    for s in range(2):
        for i in range(L.n[s]):
            fixed[s][i] = 0
            for j in range(L.h[s][i]):
                if not (movable >> L.p[s][i][j]) & 1:
                    fixed[s][i] = 1
    for s in range(2):
        for i in range(L.n[s]):
            low = 99
            for j in range(L.h[s][i]):
                pid = L.p[s][i][j]
                if not (own >> pid) & 1:
                    if mode == 0 and j > low:
                        total += value_of(pid)
                    continue
                c = pid // 3
                goal = 1 if c < 2 else 0
                if s != goal:
                    if j < low:
                        low = j
                    blocked = 0
                    if s == 0:
                        for a in range(i + 1, L.n[0]):
                            blocked |= fixed[0][a]
                    else:
                        for a in range(0, i):
                            blocked |= fixed[1][a]
                    if mode == 0:
                        total += value_of(pid) * (1 + blocked)
                    else:
                        total += blocked + (1 if s == 0 else 0)
                else:
                    ok = j == 2 - pid % 3
                    for a in range(j):
                        if L.p[s][i][a] != c * 3 + 2 - a:
                            ok = 0
                    if not ok:
                        if j < low:
                            low = j
                        if mode == 0:
                            total += value_of(pid)
    return total


cdef inline uint64_t mix(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef bint key_ok(uint64_t key) noexcept:
    """A well-formed key (for the entry points' asserts): at most 12 West,
    the first position of each side starts a stack, every id once."""
    cdef int nwest = <int>(key >> 60), k
    cdef uint32_t seen = 0
    if nwest > MAXP or not (key >> 48) & 1 and nwest != 0:
        return False
    if nwest < MAXP and not (key >> (48 + nwest)) & 1:
        return False
    for k in range(MAXP):
        seen |= 1u << <int>((key >> (4 * k)) & 15)
    return seen == 4095


# ----------------------------------------------------------------- Python API

def encode_stacks(west, east):
    """The key of a row given as two lists of stacks (lists of ids, bottom first)."""
    cdef Lay L
    cdef int s, i, j
    assert sum(len(st) for side in (west, east) for st in side) == MAXP, "12 pyramids"
    assert all(0 <= p < MAXP for side in (west, east) for st in side for p in st), "ids 0-11"
    for s, side in enumerate((west, east)):
        L.n[s] = len(side)
        for i, stack in enumerate(side):
            L.h[s][i] = len(stack)
            for j, pid in enumerate(stack):
                L.p[s][i][j] = pid
    return encode(&L)


def decode_key(uint64_t key):
    """``(west, east)``: the stacks of a key as tuples of tuples."""
    cdef Lay L
    assert key_ok(key), "not a row key"
    decode(key, &L)
    return tuple(
        tuple(tuple(L.p[s][i][j] for j in range(L.h[s][i])) for i in range(L.n[s]))
        for s in range(2))


def successors(uint64_t key, uint32_t movable, bint kings=False):
    """``[(key, pips, code), ...]`` for every legal move, in the reference's order."""
    cdef uint64_t okey[MAXSUCC]
    cdef int ocost[MAXSUCC]
    cdef int ocode[MAXSUCC]
    cdef int n
    assert key_ok(key) and movable >> MAXP == 0, "a row key and a mask of ids 0-11"
    n = gen(key, movable, kings, okey, ocost, ocode)
    return [(okey[i], ocost[i], ocode[i]) for i in range(n)]


def goal(uint64_t key, uint32_t colours):
    assert key_ok(key) and colours >> 4 == 0, "a row key and a mask of colours 0-3"
    return is_goal(key, colours)


def bound(uint64_t key, uint32_t own, int mode, movable=None):
    assert key_ok(key) and own >> MAXP == 0 and 0 <= mode <= 2, "a row key, ids 0-11, mode 0-2"
    assert movable is None or (movable & own) == own, "the own pyramids are movable"
    return heuristic(key, own, own if movable is None else movable, mode)


def count_successors(keys, uint32_t movable, bint kings=False):
    """Total successors over ``keys`` (a benchmark of generation alone)."""
    cdef uint64_t okey[MAXSUCC]
    cdef int ocost[MAXSUCC]
    cdef int ocode[MAXSUCC]
    cdef long total = 0
    cdef uint64_t k
    assert movable >> MAXP == 0, "a mask of ids 0-11"
    for k in keys:
        total += gen(k, movable, kings, okey, ocost, ocode)
    return total


# ------------------------------------------------------------ A*'s open list

cdef struct Heap:
    # a binary min-heap of (f, g, row-table slot): least f first, then greatest g
    int64_t *f
    int64_t *g
    int32_t *slot
    long n, cap, limit     # entries, room, the room it may grow to


cdef int heap_init(Heap *H, long cap, long limit) noexcept nogil:
    """Room for ``cap`` entries, doubled as needed up to ``limit``; -1 if out of memory."""
    H.n = 0
    H.cap = cap
    H.limit = limit
    H.f = <int64_t *>malloc(cap * sizeof(int64_t))
    H.g = <int64_t *>malloc(cap * sizeof(int64_t))
    H.slot = <int32_t *>malloc(cap * sizeof(int32_t))
    if H.f == NULL or H.g == NULL or H.slot == NULL:
        heap_free(H)
        return -1
    return 0


cdef void heap_free(Heap *H) noexcept nogil:
    free(H.f)
    free(H.g)
    free(H.slot)
    H.f = NULL
    H.g = NULL
    H.slot = NULL
    H.n = H.cap = 0


cdef inline bint heap_before(int64_t f1, int64_t g1, int64_t f2, int64_t g2) noexcept nogil:
    """Does (f1, g1) leave the heap before (f2, g2)?  Least f, ties to the greatest g."""
    return f1 < f2 or (f1 == f2 and g1 > g2)


cdef int heap_grow(Heap *H) noexcept nogil:
    """Double the room: 1 if that would pass the limit, -1 if out of memory."""
    cdef int64_t *nf
    cdef int64_t *ng
    cdef int32_t *ns
    if H.cap >= H.limit:
        return 1
    nf = <int64_t *>realloc(H.f, 2 * H.cap * sizeof(int64_t))
    if nf == NULL:
        return -1
    H.f = nf
    ng = <int64_t *>realloc(H.g, 2 * H.cap * sizeof(int64_t))
    if ng == NULL:
        return -1
    H.g = ng
    ns = <int32_t *>realloc(H.slot, 2 * H.cap * sizeof(int32_t))
    if ns == NULL:
        return -1
    H.slot = ns
    H.cap *= 2
    return 0


cdef inline int heap_push(Heap *H, int64_t f, int64_t g, int32_t slot) noexcept nogil:
    """Add an entry, sifting it up; 0, or :func:`heap_grow`'s failure (nothing added)."""
    cdef long i, parent
    cdef int r
    cdef int64_t *hf
    cdef int64_t *hg
    cdef int32_t *hs
    if H.n >= H.cap:
        r = heap_grow(H)
        if r:
            return r
    hf, hg, hs = H.f, H.g, H.slot
    i = H.n
    H.n += 1
    while i > 0:
        parent = (i - 1) // 2
        if heap_before(f, g, hf[parent], hg[parent]):
            hf[i] = hf[parent]
            hg[i] = hg[parent]
            hs[i] = hs[parent]
            i = parent
        else:
            break
    hf[i] = f
    hg[i] = g
    hs[i] = slot
    return 0


cdef inline void heap_pop(Heap *H, int64_t *f, int64_t *g, long *slot) noexcept nogil:
    """Take the first entry (the heap is not empty), sifting the last one down."""
    cdef long i = 0, c, n
    cdef int64_t tf, tg
    cdef int32_t ts
    cdef int64_t *hf = H.f
    cdef int64_t *hg = H.g
    cdef int32_t *hs = H.slot
    f[0] = hf[0]
    g[0] = hg[0]
    slot[0] = hs[0]
    H.n -= 1
    n = H.n
    if n == 0:
        return
    tf = hf[n]
    tg = hg[n]
    ts = hs[n]
    while True:
        c = 2 * i + 1
        if c >= n:
            break
        if c + 1 < n and heap_before(hf[c + 1], hg[c + 1], hf[c], hg[c]):
            c += 1
        if heap_before(hf[c], hg[c], tf, tg):
            hf[i] = hf[c]
            hg[i] = hg[c]
            hs[i] = hs[c]
            i = c
        else:
            break
    hf[i] = tf
    hg[i] = tg
    hs[i] = ts


# ------------------------------------------------------------ A*'s row table

cdef struct RowTable:
    # open addressing on the canonical key (linear probing); a slot is a row
    uint64_t *key          # EMPTY_ROW marks a free slot
    int64_t *g             # the least cost found to the row
    int32_t *parent        # the slot it was reached from (-1: the start)
    int32_t *code          # the move from there
    int32_t *used          # the slots this search filled, in order
    long alloc             # slots allocated (kept between searches)
    uint64_t mask          # this search's size - 1 (a power of two, at most ``alloc``)
    long n                 # rows this search stored


DEF EMPTY_ROW = 0xFFFFFFFFFFFFFFFF     # no key: bits 60-63 count at most 12 West pyramids

# the table is kept between searches (re-allocating megabytes per search costs
# more than a short search); it grows to the largest size asked for
cdef RowTable _T


cdef void table_release(RowTable *T) noexcept nogil:
    free(T.key)
    free(T.g)
    free(T.parent)
    free(T.code)
    free(T.used)
    T.key = NULL
    T.g = NULL
    T.parent = NULL
    T.code = NULL
    T.used = NULL
    T.alloc = 0


cdef int table_open(RowTable *T, long max_states) except -1:
    """Ready for a search that stores at most ``max_states`` rows: twice as many
    slots at least (a power of two, 1024 or more), all free."""
    cdef long cap = 1024, z
    while cap < 2 * max_states:
        cap *= 2
    if cap > T.alloc:
        table_release(T)
        T.key = <uint64_t *>malloc(cap * sizeof(uint64_t))
        T.g = <int64_t *>malloc(cap * sizeof(int64_t))
        T.parent = <int32_t *>malloc(cap * sizeof(int32_t))
        T.code = <int32_t *>malloc(cap * sizeof(int32_t))
        T.used = <int32_t *>malloc(cap * sizeof(int32_t))
        if T.key == NULL or T.g == NULL or T.parent == NULL or T.code == NULL or T.used == NULL:
            table_release(T)
            raise MemoryError()
        T.alloc = cap
        for z in range(cap):
            T.key[z] = <uint64_t>EMPTY_ROW
    T.mask = cap - 1
    T.n = 0
    return 0


cdef inline long table_find(const RowTable *T, uint64_t key) noexcept nogil:
    """The slot holding ``key``, or the free slot where it would go."""
    cdef long slot = <long>(mix(key) & T.mask)
    while T.key[slot] != <uint64_t>EMPTY_ROW and T.key[slot] != key:
        slot = (slot + 1) & T.mask
    return slot


cdef inline bint table_free(const RowTable *T, long slot) noexcept nogil:
    return T.key[slot] == <uint64_t>EMPTY_ROW


cdef inline void table_add(RowTable *T, long slot, uint64_t key) noexcept nogil:
    """Store ``key`` in the free ``slot`` (from :func:`table_find`)."""
    T.key[slot] = key
    T.used[T.n] = <int32_t>slot
    T.n += 1


cdef void table_close(RowTable *T) noexcept nogil:
    """Free the slots this search filled, so the next one finds them free."""
    cdef long i
    for i in range(T.n):
        T.key[T.used[i]] = <uint64_t>EMPTY_ROW
    T.n = 0


# ------------------------------------------------------------ A*

def astar(uint64_t start, uint32_t own, uint32_t colours, int mode, bint by_moves,
          bint kings, long max_nodes, long max_states, int max_step=6, movable=None,
          int weight=1):
    """A* over rows from ``start``, moving only pyramids in ``own``, to a row
    where ``is_goal(colours)`` holds.  Moves costing more than ``max_step``
    pips are skipped (5 for the full game: no card is worth 6, so a large-large
    switch can never be played there).

    Cost is lexicographic: (pips, moves) when ``by_moves`` is false, else
    (moves, pips); ``mode`` picks the bound (see ``heuristic``), which is
    admissible for the primary cost.  States that improve are reopened, so the
    first goal popped is optimal.

    Returns ``(status, limit, pips, moves, path, nodes, states)``:
    status ``"found"`` with ``path`` the list of ``(key, code)`` from the move
    after ``start`` to the goal; ``"exhausted"`` when every reachable row was
    expanded without a goal (a proof that none is reachable); ``"limit"`` when
    ``max_nodes`` expansions or ``max_states`` stored rows ran out first
    (``limit`` names which).  ``max_states`` also bounds memory: about
    ``64 * max_states`` bytes, kept for the next search (not re-entrant).
    """
    cdef uint32_t mov = own if movable is None else movable
    cdef RowTable *T = &_T
    cdef Heap H
    cdef uint64_t okey[MAXSUCC]
    cdef int ocost[MAXSUCC]
    cdef int ocode[MAXSUCC]
    cdef long nodes = 0, states, slot, child
    cdef int nsucc, a, full, found = -1
    cdef int status = 1      # 0 found, 1 exhausted, 2 nodes, 3 states, 4 heap, 5 out of memory
    cdef int64_t f, g, g2
    cdef int primary, secondary
    assert key_ok(start) and own >> MAXP == 0 and mov >> MAXP == 0 and colours >> 4 == 0, \
        "a row key, masks of ids 0-11 and of colours 0-3"
    assert (mov & own) == own and 0 <= mode <= 2 and weight >= 1, "own movable, mode 0-2, weight >= 1"
    # slots are int32: the table (twice the rows, a power of two) has at most 2**31
    assert 1 <= max_states <= (1 << 30) and max_nodes >= 0, "limits out of range"
    table_open(T, max_states)
    if heap_init(&H, 4096, 16 * max_states) < 0:
        raise MemoryError()
    try:
        with nogil:
            slot = table_find(T, start)
            table_add(T, slot, start)
            T.g[slot] = 0
            T.parent[slot] = -1
            T.code[slot] = -1
            heap_push(&H, <int64_t>heuristic(start, own, mov, mode) * SCALE * weight, 0,
                      <int32_t>slot)
            while H.n > 0:
                heap_pop(&H, &f, &g, &slot)
                if g != T.g[slot]:
                    continue            # stale: the row was reached cheaper since
                if is_goal(T.key[slot], colours):
                    found = <int>slot
                    status = 0
                    break
                if nodes >= max_nodes:
                    status = 2
                    break
                nodes += 1
                nsucc = gen(T.key[slot], mov, kings, okey, ocost, ocode)
                for a in range(nsucc):
                    if ocost[a] > max_step:
                        continue
                    if by_moves:
                        g2 = g + SCALE + ocost[a]
                    else:
                        g2 = g + <int64_t>ocost[a] * SCALE + 1
                    child = table_find(T, okey[a])
                    if table_free(T, child):
                        if T.n >= max_states:
                            status = 3
                            break
                        table_add(T, child, okey[a])
                    elif T.g[child] <= g2:
                        continue
                    T.g[child] = g2
                    T.parent[child] = <int32_t>slot
                    T.code[child] = ocode[a]
                    full = heap_push(&H, g2 + <int64_t>heuristic(okey[a], own, mov, mode) * SCALE * weight,
                                     g2, <int32_t>child)
                    if full:
                        status = 4 if full > 0 else 5
                        break
                if status >= 3:
                    break
        states = T.n
        if status == 5:
            raise MemoryError()
        if status != 0:
            limit = {1: None, 2: "max_nodes", 3: "max_states", 4: "heap"}[status]
            return ("exhausted" if status == 1 else "limit", limit, None, None, None, nodes, states)
        path = []
        slot = found
        while T.parent[slot] >= 0:
            path.append((T.key[slot], T.code[slot]))
            slot = T.parent[slot]
        path.reverse()
        g = T.g[found]
        primary = <int>(g // SCALE)
        secondary = <int>(g % SCALE)
        if by_moves:
            return ("found", None, secondary, primary, path, nodes, states)
        return ("found", None, primary, secondary, path, nodes, states)
    finally:
        table_close(T)
        heap_free(&H)


def side_masks(uint64_t key):
    """``(west, singles)``: bit masks of the pyramids on the West side and of
    the single pyramids (stacks of one), for the full game's quick checks."""
    cdef int nwest = <int>(key >> 60)
    cdef int k, pid
    cdef uint32_t west = 0, singles = 0
    for k in range(MAXP):
        pid = <int>((key >> (4 * k)) & 15)
        if k < nwest:
            west |= 1u << pid
        if (key >> (48 + k)) & 1 and (k == MAXP - 1 or (key >> (49 + k)) & 1 or k + 1 == nwest):
            singles |= 1u << pid
    return west, singles


# ------------------------------------------------------- the full game's cards

DEF SEEN_CAP = 32768       # visited (row, pips left, opponent pyramid) per card; half may fill
DEF OUT_CAP = 8192         # distinct end rows per card (a 5 gave at most 1,112 in tests)

cdef struct Spend:
    uint32_t own
    uint64_t seen_key[SEEN_CAP]
    uint8_t seen_aux[SEEN_CAP]   # 0 empty, else 1 + 2 * pips + used
    int nseen
    uint64_t okey[OUT_CAP]
    int8_t oopp[OUT_CAP]
    int32_t ocodes[OUT_CAP][5]
    uint8_t olen[OUT_CAP]
    int nout
    int overflow
    int32_t path[5]


cdef Spend _S               # one enumeration at a time (the module is not re-entrant here)


DEF ALLP = 4095


cdef inline int foreign_of(uint32_t own, int code, int opp) noexcept nogil:
    """The opponent's pyramid this turn after move ``code``: ``opp`` if the
    move moves none of theirs, the one it moves if that is allowed (none
    moved yet, or the same one), -2 if the move is not allowed."""
    cdef int kind = code >> 8, p = (code >> 4) & 15, q = code & 15, x = -1
    if not (own >> p) & 1:
        x = p
    if kind >= 2 and not (own >> q) & 1:
        if x >= 0:
            return -2
        x = q
    if x < 0:
        return opp
    if opp >= 0 and x != opp:
        return -2
    return x


def move_opp(uint32_t own, int code, int opp):
    """Python access to ``foreign_of`` (used for kings and by the tests)."""
    assert -1 <= opp < MAXP and (code >> 8) <= 3, "opp -1 or an id, a move code"
    return foreign_of(own, code, opp)


cdef inline int popcount12(uint32_t x) noexcept nogil:
    cdef int n = 0
    while x:
        x &= x - 1
        n += 1
    return n


cdef uint32_t singles_of(uint64_t key) noexcept nogil:
    """The mask of single pyramids (stacks of one)."""
    cdef int nwest = <int>(key >> 60)
    cdef int k
    cdef uint32_t singles = 0
    for k in range(MAXP):
        if (key >> (48 + k)) & 1 and (k == MAXP - 1 or (key >> (49 + k)) & 1 or k + 1 == nwest):
            singles |= 1u << <int>((key >> (4 * k)) & 15)
    return singles


cdef bint seen_add(Spend *S, uint64_t key, int pips, int opp) noexcept nogil:
    """Insert (key, pips, opp) into the visited set; False if already there
    (or the set is half full, which sets ``overflow``)."""
    cdef uint8_t aux = <uint8_t>(1 + 13 * pips + opp + 1)
    cdef int slot = <int>(mix(key + <uint64_t>aux) & (SEEN_CAP - 1))
    while S.seen_aux[slot] != 0:
        if S.seen_key[slot] == key and S.seen_aux[slot] == aux:
            return False
        slot = (slot + 1) & (SEEN_CAP - 1)
    if S.nseen * 2 >= SEEN_CAP:
        S.overflow = 1
        return False
    S.seen_key[slot] = key
    S.seen_aux[slot] = aux
    S.nseen += 1
    return True


cdef void spend_rec(Spend *S, uint64_t key, int pips, int opp, int depth) noexcept nogil:
    """Depth-first over move sequences, in the successor order; a state seen
    before (same row, pips left, flag) is not explored again."""
    cdef uint64_t okey[MAXSUCC]
    cdef int ocost[MAXSUCC]
    cdef int ocode[MAXSUCC]
    cdef int n, a, i, nopp
    cdef uint32_t movable
    if S.overflow or not seen_add(S, key, pips, opp):
        return
    if pips == 0:
        if S.nout >= OUT_CAP:
            S.overflow = 1
            return
        S.okey[S.nout] = key
        S.oopp[S.nout] = opp
        S.olen[S.nout] = depth
        for i in range(depth):
            S.ocodes[S.nout][i] = S.path[i]
        S.nout += 1
        return
    movable = S.own | (singles_of(key) & (ALLP if opp < 0 else (1u << opp)))
    n = gen(key, movable, False, okey, ocost, ocode)
    for a in range(n):
        if ocost[a] > pips:
            continue
        nopp = foreign_of(S.own, ocode[a], opp)
        if nopp == -2:
            continue
        S.path[depth] = ocode[a]
        spend_rec(S, okey[a], pips - ocost[a], nopp, depth + 1)


def spend(uint64_t key, uint32_t own, int pips, int opp, uint32_t mask_a, uint32_t mask_b,
          bint need_balance):
    """Every distinct ``(end key, opponent flag)`` reachable by spending exactly
    ``pips`` (1-5) on one-space moves and switches of pyramids in ``own``,
    plus one opponent single per turn (``opp``: the one that already moved
    this turn, -1 none; it may move again while single).
    Returns ``[(end_key, opp, codes), ...]`` in first-found order (the
    reference ``options._spend`` explores in the same order), keeping only rows
    where both players (masks ``mask_a``, ``mask_b``) have 3 per side when
    ``need_balance``.  Raises OverflowError if the fixed tables fill up."""
    cdef Spend *S = &_S
    cdef int i, k, nwest
    cdef uint32_t west
    if pips < 1 or pips > 5:
        raise ValueError("pips must be 1-5")
    assert key_ok(key) and -1 <= opp < MAXP and own >> MAXP == 0, "a row key, opp -1 or an id"
    memset(S.seen_aux, 0, SEEN_CAP)
    S.nseen = 0
    S.nout = 0
    S.overflow = 0
    S.own = own
    with nogil:
        spend_rec(S, key, pips, opp, 0)
    if S.overflow:
        raise OverflowError("card enumeration tables overflowed")
    out = []
    for i in range(S.nout):
        if need_balance:
            west = 0
            nwest = <int>(S.okey[i] >> 60)
            for k in range(nwest):
                west |= 1u << <int>((S.okey[i] >> (4 * k)) & 15)
            if popcount12(west & mask_a) != 3 or popcount12(west & mask_b) != 3:
                continue
        out.append((S.okey[i], S.oopp[i], tuple([S.ocodes[i][k] for k in range(S.olen[i])])))
    return out
