"""The hot loop of blind Pyramid play: the quick greedy pick and roll-outs.

``quick_pick`` is ``min(moves, key=quick_key)`` of ``solver/pyramid/blind.py``
(dragons last, then the kind with the fewest places, then the lowest level;
ties keep the first move), and ``rollout`` repeats it on an engine.  Both
drive ``solver.cext.pyramid.Engine`` through its Python methods: the state itself
stays private to cext/pyramid.pyx.
"""
from libc.string cimport memset

DEF NKINDS = 30
DEF KIND_DRAGON = 29
DEF NPOS = 144

cdef int g_level[NPOS]


def set_levels(levels):
    """Load the level (1-4) of each of the 144 positions (from solver geometry)."""
    cdef int p
    assert len(levels) == NPOS and all(1 <= v <= 4 for v in levels), "144 levels 1-4"
    for p in range(NPOS):
        g_level[p] = levels[p]


cpdef tuple quick_pick(list moves):
    """The greedy move among ``moves`` (a non-empty list of (kind, pos))."""
    cdef int places[NKINDS]
    cdef int i, n = len(moves), k, p
    cdef long key, best_key = -1
    cdef tuple m, best = None
    assert n > 0, "quick_pick needs a move"
    memset(places, 0, sizeof(places))
    for i in range(n):
        assert 0 <= (<tuple>moves[i])[0] < NKINDS and 0 <= (<tuple>moves[i])[1] < NPOS, \
            "moves are (kind 0-29, position 0-143)"
        places[<int>(<tuple>moves[i])[0]] += 1
    for i in range(n):
        m = <tuple>moves[i]
        k = m[0]
        p = m[1]
        key = ((1 if k == KIND_DRAGON else 0) << 20) | (places[k] << 4) | g_level[p]
        if best is None or key < best_key:
            best, best_key = m, key
    return best


def rollout(world, int depth):
    """Play up to ``depth`` quick greedy moves on ``world``, then take them back.

    Returns (moves made, won, stuck, positions examined).
    """
    cdef int made = 0, i, examined = 0
    cdef bint won, stuck
    cdef list moves
    cdef tuple mv
    assert depth >= 0, "depth must be >= 0"
    for i in range(depth):
        moves = world.legal_moves()
        examined += 1
        if not moves:
            break
        mv = quick_pick(moves)
        world.make(mv[0], mv[1])
        made += 1
    won = world.is_won()
    stuck = (not won) and world.is_stuck()
    for i in range(made):
        world.unmake()
    return made, won, stuck, examined
