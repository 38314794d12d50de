# Included by cext/pyramid.pyx (after the budgeted relaxation): the tail's relaxation.
from libc.stdint cimport int16_t
#
# The main search's relaxation (``_relaxed_finish``) tries at most 32 uses of a
# dragon's socket per node and, past that, does not cut.  On the deals it leaves
# undecided, that budget is what runs out: the relaxed play needs many socket
# choices, the node is not cut, and the search enumerates the board's every
# arrangement.  The tail's relaxation is the same relaxed game, decided
# completely, at an affordable cost:
#
# - a dragon in the reserve is tried first, alone (the exchange argument in
#   docs/pyramid.md, "The tail search": any relaxed finish can place that dragon
#   first);
# - a memo of relaxed states proven unable to finish.  A relaxed state is
#   (accept, reserve, stock, sockets): from it the relaxed play depends only on
#   the deal, never on the board it came from, so an entry holds for every node
#   of the deal.  With more sockets a state can only do better: an entry answers
#   for the same (accept, reserve, stock) with at most its sockets.  Entries
#   are verified (the whole key is compared) and stored only when every choice
#   below was tried, never when the try budget ran out;
# - a large budget of tries per node (``TAIL_TRIES``); past it the node is not
#   cut (counted in ``giveups``), as in the main relaxation.

cdef enum:
    TAIL_MEMO_SIZE = 1 << 16     # entries (about 3 MB)
    TAIL_TRIES = 1000000         # socket tries per node before the relaxation gives up (no cut)


cdef struct TailEntry:
    uint32_t gen                 # the deal it belongs to (0: never used)
    uint32_t accept
    int16_t stock
    int16_t sockets              # proven unable to finish with this many sockets (or fewer)
    int8_t reserve[NKINDS]


cdef struct TailMemo:
    TailEntry *entries
    uint32_t gen
    uint64_t tries               # socket tries, over the deal
    uint64_t giveups             # nodes where the budget ran out (not cut)
    uint64_t hits                # memo answers


cdef inline uint64_t _tail_slot(Relaxed *r) noexcept nogil:
    cdef uint64_t h = (<uint64_t>r.stock << 32 | r.accept) * <uint64_t>0x9E3779B97F4A7C15ULL
    cdef int k
    for k in range(NKINDS):
        h = (h ^ <uint8_t>r.reserve[k]) * <uint64_t>0x100000001B3ULL
    return (h ^ (h >> 29)) & (TAIL_MEMO_SIZE - 1)


cdef inline bint _tail_same(TailMemo *m, TailEntry *e, Relaxed *r) noexcept nogil:
    return e.gen == m.gen and e.stock == r.stock and e.accept == r.accept \
        and memcmp(e.reserve, r.reserve, NKINDS) == 0


cdef bint _tail_finish(State *s, TailMemo *m, Relaxed *r, int *budget) noexcept nogil:
    """``_relaxed_finish`` with the dragon first and the memo (True when unsure)."""
    cdef uint32_t ready, rest, full = (<uint32_t>1 << NKINDS) - 1
    cdef Relaxed child
    cdef TailEntry *e
    cdef int k
    while True:
        if r.accept == full:
            return True
        ready = r.mask & r.accept
        if ready == 0:
            break
        _relaxed_place(s, r, _ctz32(ready))
    if r.mask == 0 or (r.accept | r.mask) == r.accept:
        return True
    if r.sockets == 0:
        return False
    e = &m.entries[_tail_slot(r)]
    if _tail_same(m, e, r) and r.sockets <= e.sockets:
        m.hits += 1
        return False
    rest = r.mask
    if rest & ((<uint32_t>1) << KIND_DRAGON):   # nothing is free, so a dragon goes first
        rest = (<uint32_t>1) << KIND_DRAGON
    while rest:
        k = _ctz32(rest)
        rest &= rest - 1
        if budget[0] == 0:
            return True
        budget[0] -= 1
        m.tries += 1
        child = r[0]
        child.sockets -= 1
        _relaxed_place(s, &child, k)
        if _tail_finish(s, m, &child, budget):
            return True
        if budget[0] == 0:
            return True          # a choice below was cut short: nothing proven here
    if not (_tail_same(m, e, r) and e.sockets >= r.sockets):
        e.gen = m.gen
        e.stock = <int16_t>r.stock
        e.accept = r.accept
        e.sockets = <int16_t>r.sockets
        memcpy(e.reserve, r.reserve, NKINDS)
    return False


cdef bint tail_can_finish(State *s, Relaxed *r) noexcept nogil:
    """The relaxed play from ``r`` (free placements already made), decided by the tail."""
    cdef TailMemo *m = <TailMemo *>s.tail
    cdef int budget = TAIL_TRIES
    cdef bint ok = _tail_finish(s, m, r, &budget)
    if budget == 0:
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
