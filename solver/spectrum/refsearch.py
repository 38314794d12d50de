"""Pure-Python twins of the compiled searches: goal tree, lower bound, BFS, IDA*.

Slow and plain on purpose; the differential tests compare them with
``solver.cext.spectrum`` on random positions.  A solitaire position here is
``(stash, direction, node)`` where ``node`` indexes a :class:`GoalTreeRef`.

One idea per module, as in the kernel's include files: ``ref_goaltree``,
``ref_successors``, ``ref_bound``, ``ref_ida`` and ``ref_bfs``; this module
re-exports their names (the tests and the benchmark import them from here).

>>> from solver.spectrum.rules import Game
>>> st = Game(1, 10).new_state()
>>> tree = GoalTreeRef(st.goals, st.bags, st.rng.state)
>>> lower_bound(tuple(st.stashes[0]), tree, 0, direction=1)
6
"""
from solver.spectrum.notation import VALUES  # noqa: F401
from solver.spectrum.ref_bfs import bfs_reach
from solver.spectrum.ref_bound import (  # noqa: F401 (re-exports, the tests use some private ones)
    INFEASIBLE, KCAP, NO_PLAN, UP_ANY, UP_NONE, UP_SOME, _requirements, _sequences,
    exchange_makes, flow_turns, leaf_bound, leaf_eval, lower_bound, phase_turns,
)
from solver.spectrum.ref_goaltree import GoalTreeRef
from solver.spectrum.ref_ida import commuted_away, ida_min_turns
from solver.spectrum.ref_successors import successors

__all__ = ["GoalTreeRef", "successors", "lower_bound", "leaf_bound", "bfs_reach",
           "ida_min_turns", "commuted_away", "leaf_eval", "phase_turns", "exchange_makes",
           "flow_turns", "VALUES"]
