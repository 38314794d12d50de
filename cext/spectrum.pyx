"""Compiled Spectrum engine: packed stashes, successors, hashing, IDA* and BFS.

Contract.  A solitaire position is ``SState``: the stash packed 3 bits per
(colour, size) count (colours 0-5 in ``w[0]``, 6-11 in ``w[1]``, field
``colour*3 + size``), the direction (+1 cw, -1 ccw), the stash value and a
node of a :class:`GoalTree`.  A goal-tree node stands for one conversion
history: its three goals, its bags and its generator state, so the future
draws are exact.  The bank is implied (4 of each kind minus the stash), which
is also every piece the mover may receive in a multiplayer game.

The pure-Python twin is ``solver/spectrum/rules.py`` (moves, goal check,
draws) and ``solver/spectrum/ref_*.py`` (goal tree, successors, the bound and
the searches, one module per include file below; ``refsearch.py`` gathers
them); ``tests/test_spectrum_fast_vs_reference.py`` holds them together.
"""
from libc.stdint cimport uint64_t, int64_t, int32_t, uint32_t, uint8_t, int8_t, int16_t
from libc.stdlib cimport malloc, realloc, free, calloc
from libc.string cimport memcpy, memset
from libc.time cimport clock, clock_t, CLOCKS_PER_SEC

from cext.rng cimport splitmix64_next

cdef enum:
    UP_ANY = 0        # plans of any kind
    UP_NONE = 1       # plans without upconversions
    UP_SOME = 2       # plans with at least one upconversion

cdef enum:
    NCOL = 12
    PER_KIND = 4
    KCAP = 4          # conversions the lower bound looks ahead
    MAXDEPTH = 96


# One idea per file, in this order (each part uses only the ones above it,
# bar forward references between cdef functions, which Cython resolves):
include "spectrum_goaltree.pxi"       # TNode, GoalTree
include "spectrum_state.pxi"          # SState, cnt/addf, skey, make_state, pack, state_hash
include "spectrum_successors.pxi"     # settle, Succ, expand, successors, count_successors
include "spectrum_bound.pxi"          # ONE_EX, leaf_eval, bound_rec, lower_bound, py_* probes
include "spectrum_ida.pxi"            # TTEntry, _Ida, ida_min_turns
include "spectrum_bfs.pxi"            # QItem, bfs_reach
