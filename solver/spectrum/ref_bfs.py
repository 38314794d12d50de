"""Breadth-first search for the fewest turns, pure Python (twin of
``cext/spectrum_bfs.pxi``).
"""
from __future__ import annotations

from collections import deque
from typing import Dict, Optional

from solver.spectrum.notation import stash_value
from solver.spectrum.ref_goaltree import GoalTreeRef
from solver.spectrum.ref_successors import successors


def bfs_reach(stash, direction: int, tree: GoalTreeRef, node: int = 0, *, target=None,
              value_max: int = -1, value_min: int = -1, max_states: int = 200_000,
              max_turns: int = 60) -> dict:
    """Twin of the kernel's ``bfs_reach``: fewest turns to ``target`` or a value range."""
    def hit(st):
        if target is not None:
            return tuple(st) == tuple(target)
        v = stash_value(st)
        return (value_max < 0 or v <= value_max) and (value_min < 0 or v >= value_min)

    start = (tuple(stash), direction, node)
    parent: Dict[tuple, Optional[tuple]] = {start: None}
    queue = deque([(start, 0, False)])
    cut = False
    while queue:
        pos, depth, won = queue.popleft()
        if hit(pos[0]):
            plan = []
            while parent[pos] is not None:
                pos, move = parent[pos]
                plan.append(move.code())
            return {"status": "found", "turns": len(plan), "plan": plan[::-1], "states": len(parent)}
        if depth >= max_turns:
            cut = True
            continue
        if won:
            continue
        for move, st, d, n, w in successors(pos[0], pos[1], tree, pos[2]):
            nxt = (st, d, n)
            if nxt in parent:
                continue
            if len(parent) >= max_states:
                return {"status": "limit", "limit": "states", "states": len(parent)}
            parent[nxt] = (pos, move)
            queue.append((nxt, depth + 1, w))
    if cut:
        return {"status": "limit", "limit": "turns", "states": len(parent)}
    return {"status": "exhausted", "states": len(parent)}
