# Included by cext/pyramid.pyx (before ``can_finish_relaxed``): the tail search's relaxation.
from libc.stdint cimport int16_t
#
# The main search's relaxation (cut 1) lets a reserve tile go down whenever it
# fits a non-dragon tile with room, as often as it likes, and against dragons
# once per socket; it tries at most 32 socket choices per node and, past that,
# does not cut.  On the deals it leaves undecided either that budget runs out,
# or the relaxed play finishes because a kind exposed on one tile with little
# room is taken to accept tiles for ever.  The tail's relaxation
# (docs/pyramid.md, "The tail search") is tighter and decided completely:
#
# - *pools*: an exposed kind whose tiles have at most ``TAIL_POOL`` empty
#   neighbours in all is *scarce*: each tile placed against it uses one of them
#   (a real move fills that position, so it is used once).  Other exposed kinds
#   accept for free, as in cut 1.  A kind placed in the relaxed play accepts
#   for free from then on (generous: sound).  Dragons keep their sockets;
# - a memo of relaxed states that cannot finish, valid for the whole deal: a
#   relaxed state (accept, scarce kinds and their pools, reserve, stock,
#   sockets) decides its future alone.  More sockets can only help: an entry
#   answers for the same rest with at most its sockets.  Entries are compared
#   in full and stored only when every choice below was tried to the end;
# - when nothing is free, no kind is scarce and a dragon is in the reserve,
#   only the dragon is tried (an exchange argument, in the docs);
# - ``TAIL_TRIES`` choices per node; past that the node is not cut (``giveups``).

cdef enum:
    TAIL_POOL = 4                # an exposed kind with at most this much room is scarce
    TAIL_MEMO_SIZE = 1 << 19     # entries (about 40 MB, allocated when a tail search first runs)
    TAIL_TRIES = 1000000         # choices per node before the relaxation gives up (no cut)


cdef struct Pooled:
    uint32_t accept              # kinds placeable for free
    uint32_t scarce              # exposed kinds with little room: their pools
    int sockets                  # the dragons' empty neighbours, 5 per dragon placed since
    int8_t pool[NKINDS]          # empty neighbours left around the tiles of a scarce kind
    int8_t reserve[NKINDS]
    uint32_t mask                # kinds in the reserve
    int stock


cdef struct TailEntry:
    uint32_t gen                 # the deal it belongs to (0: never used)
    uint32_t accept
    uint32_t scarce
    int16_t stock
    int16_t sockets              # proven unable to finish with this many sockets (or fewer)
    int8_t pool[NKINDS]
    int8_t reserve[NKINDS]


cdef struct TailMemo:
    TailEntry *entries
    uint32_t gen
    uint64_t tries               # choices tried, over the deal
    uint64_t giveups             # nodes where the budget ran out (not cut)
    uint64_t hits                # memo answers
    int budget                   # choices left at this node


cdef inline void _pooled_place(State *s, Pooled *r, int k) noexcept nogil:
    r.reserve[k] -= 1
    if r.reserve[k] == 0:
        r.mask &= ~((<uint32_t>1) << k)
    if k == KIND_DRAGON:
        r.sockets += DRAGON_SOCKETS
    else:
        r.accept |= g_fit[s.variant][k]
        r.scarce &= ~((<uint32_t>1) << k)
        r.pool[k] = 0            # free from now on: one key for one state
    if r.stock < NPOS:
        r.reserve[s.deal[r.stock]] += 1
        r.mask |= (<uint32_t>1) << s.deal[r.stock]
        r.stock += 1


cdef inline uint64_t _tail_slot(Pooled *r) noexcept nogil:
    cdef uint64_t h = (<uint64_t>r.stock << 32 | r.accept) * <uint64_t>0x9E3779B97F4A7C15ULL
    cdef int k
    h ^= r.scarce
    for k in range(NKINDS):
        h = (h ^ <uint8_t>r.reserve[k] ^ (<uint64_t>(<uint8_t>r.pool[k]) << 8)) * <uint64_t>0x100000001B3ULL
    return (h ^ (h >> 29)) & (TAIL_MEMO_SIZE - 1)


cdef inline bint _tail_same(TailMemo *m, TailEntry *e, Pooled *r) noexcept nogil:
    return e.gen == m.gen and e.stock == r.stock and e.accept == r.accept and e.scarce == r.scarce \
        and memcmp(e.reserve, r.reserve, NKINDS) == 0 and memcmp(e.pool, r.pool, NKINDS) == 0


cdef bint _tail_try(State *s, TailMemo *m, Pooled *child, int k, int *budget) noexcept nogil:
    """Place ``k`` in ``child`` (its pool or socket already charged) and go on."""
    budget[0] -= 1
    m.tries += 1
    _pooled_place(s, child, k)
    return _tail_finish(s, m, child, budget)


cdef bint _tail_finish(State *s, TailMemo *m, Pooled *r, int *budget) noexcept nogil:
    """Can the relaxed play place every tile from ``r``?  (True when unsure.)

    Free placements first (they cost nothing and only add options); when they
    stall, each reserve kind is tried on each scarce pool it fits and on a
    dragon's socket.
    """
    cdef uint32_t ready, rest, pools, full = (<uint32_t>1 << NKINDS) - 1
    cdef Pooled child
    cdef TailEntry *e
    cdef int k, j
    while True:
        if r.accept == full:
            return True
        ready = r.mask & r.accept
        if ready == 0:
            break
        _pooled_place(s, r, _ctz32(ready))
    if r.mask == 0:
        return True
    e = &m.entries[_tail_slot(r)]
    if _tail_same(m, e, r) and r.sockets <= e.sockets:
        m.hits += 1
        return False
    rest = r.mask
    if r.accept == 0 and r.scarce == 0 and rest & ((<uint32_t>1) << KIND_DRAGON):
        rest = (<uint32_t>1) << KIND_DRAGON      # only sockets: a dragon goes first
    while rest:
        k = _ctz32(rest)
        rest &= rest - 1
        pools = r.scarce
        while pools:
            j = _ctz32(pools)
            pools &= pools - 1
            if r.pool[j] == 0 or not (g_fit[s.variant][j] >> k) & 1:
                continue
            if budget[0] == 0:
                return True
            child = r[0]
            child.pool[j] -= 1
            if _tail_try(s, m, &child, k, budget) or budget[0] == 0:
                return True      # a win, or a choice below cut short: nothing proven here
        if r.sockets > 0:
            if budget[0] == 0:
                return True
            child = r[0]
            child.sockets -= 1
            if _tail_try(s, m, &child, k, budget) or budget[0] == 0:
                return True
    if not (_tail_same(m, e, r) and e.sockets >= r.sockets):
        e.gen = m.gen
        e.stock = <int16_t>r.stock
        e.accept = r.accept
        e.scarce = r.scarce
        e.sockets = <int16_t>r.sockets
        memcpy(e.pool, r.pool, NKINDS)
        memcpy(e.reserve, r.reserve, NKINDS)
    return False


cdef bint _tail_relaxed(State *s, TailMemo *m, int *room, int most) noexcept nogil:
    """The relaxed play from the board, kinds with room 1..``most`` scarce."""
    cdef Pooled r
    cdef int k
    memset(&r, 0, sizeof(Pooled))
    r.sockets = room[KIND_DRAGON]
    for k in range(KIND_DRAGON):
        if 0 < room[k] <= most:
            r.scarce |= (<uint32_t>1) << k
            r.pool[k] = <int8_t>room[k]
        elif room[k] > most:
            r.accept |= g_fit[s.variant][k]
    memcpy(r.reserve, s.reserve, sizeof(r.reserve))
    r.mask = s.reserve_mask
    r.stock = NSLOTS + s.placed
    return _tail_finish(s, m, &r, &m.budget)


cdef bint tail_can_finish(State *s) noexcept nogil:
    """False only if the deal provably cannot be finished from here (the tail's
    relaxation).  Without pools first (no kind scarce: cut 1 decided
    completely), which is cheaper to refute; then with them."""
    cdef TailMemo *m = <TailMemo *>s.tail
    cdef int room[NKINDS]
    cdef int p
    cdef bint ok
    memset(room, 0, sizeof(room))
    for p in range(NPOS):
        if s.kind[p] >= 0:
            room[s.kind[p]] += s.empty_near[p]
    m.budget = TAIL_TRIES
    ok = _tail_relaxed(s, m, room, 0) and _tail_relaxed(s, m, room, TAIL_POOL)
    if m.budget == 0:
        m.giveups += 1
    return ok


cdef TailMemo *g_tail_memo = NULL     # kept between deals, like the workspace
cdef bint g_tail_memo_busy = False


cdef TailMemo *_tail_memo_take() except NULL:
    """The process's memo (or a private one while another thread holds it), with
    a fresh generation: no entry of an earlier deal can answer.  GIL held."""
    global g_tail_memo, g_tail_memo_busy
    cdef TailMemo *m
    if g_tail_memo_busy or g_tail_memo == NULL:
        m = <TailMemo *>calloc(1, sizeof(TailMemo))
        if m == NULL:
            raise MemoryError()
        m.entries = <TailEntry *>calloc(TAIL_MEMO_SIZE, sizeof(TailEntry))
        if m.entries == NULL:
            free(m)
            raise MemoryError()
        if g_tail_memo_busy:
            m.gen = 1
            return m
        g_tail_memo = m
    m = g_tail_memo
    g_tail_memo_busy = True
    m.gen += 1
    if m.gen == 0:               # wrapped: forget every entry
        memset(m.entries, 0, TAIL_MEMO_SIZE * sizeof(TailEntry))
        m.gen = 1
    m.tries = m.giveups = m.hits = 0
    return m


cdef void _tail_memo_give_back(TailMemo *m) noexcept:
    global g_tail_memo_busy
    if m == g_tail_memo:
        g_tail_memo_busy = False
    else:
        free(m.entries)
        free(m)
