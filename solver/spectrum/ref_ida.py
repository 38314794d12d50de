"""IDA* for the minimum turns, pure Python (twin of ``cext/spectrum_ida.pxi``):
the same bound and commutation pruning, no transposition table.
"""
from __future__ import annotations

from typing import List, Optional

from solver.spectrum.notation import stash_value
from solver.spectrum.ref_bound import lower_bound
from solver.spectrum.ref_goaltree import GoalTreeRef
from solver.spectrum.ref_successors import successors
from solver.spectrum.rules import Move


def commuted_away(parent, prev: Optional[Move], node: int, move: Move, node2: int,
                  tree: GoalTreeRef) -> bool:
    """Skip ``move`` after ``prev`` (twin of the kernel's rule): ``prev`` led
    from stash ``parent`` to here without a conversion, ``move`` converts
    nothing either, here or played first at ``parent``, touches none of
    prev's colours, and has the smaller code.  Then (move, prev) reaches the
    same position in as many turns, and the lexicographically least ordering
    of any plan is never skipped."""
    if prev is None or move.code() >= prev.code() or node2 != node:
        return False
    if {move.colour, move.to_colour} & {prev.colour, prev.to_colour}:
        return False
    first = list(parent)
    for s in range(3):
        first[move.colour * 3 + s] -= move.give[s]
        first[move.to_colour * 3 + s] += move.receive[s]
    return not any(all(first[g[s] * 3 + s] for s in range(3)) for g in tree.goals[node])


def ida_min_turns(stash, direction: int, tree: GoalTreeRef, node: int = 0, *,
                  win_value: int = 6, max_turns: int = 12) -> dict:
    """Twin of the kernel's IDA* (commutation pruning, no transposition
    table): minimum turns."""
    plan: List[int] = []

    def dfs(st, d, n, g, bound, parent, prev):
        h = lower_bound(st, tree, n, direction=d, win_value=win_value)
        if g + h > bound:
            return g + h
        best = 1 << 20
        for move, st2, d2, n2, won in successors(st, d, tree, n, win_value=win_value):
            if commuted_away(parent, prev, n, move, n2, tree):
                continue
            plan.append(move.code())
            if won:
                return -1
            r = dfs(st2, d2, n2, g + 1, bound, st, move if n2 == n else None)
            if r < 0:
                return -1
            plan.pop()
            best = min(best, r)
        return best

    if stash_value(stash) <= win_value:
        return {"status": "found", "turns": 0, "plan": []}
    bound = lower_bound(stash, tree, node, direction=direction, win_value=win_value)
    while bound <= max_turns:
        r = dfs(tuple(stash), direction, node, 0, bound, None, None)
        if r < 0:
            return {"status": "found", "turns": len(plan), "plan": plan}
        if r >= 1 << 20:
            return {"status": "exhausted"}
        bound = r
    return {"status": "limit", "limit": "turns"}
