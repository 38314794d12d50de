"""One turn, pure Python (twin of ``cext/spectrum_successors.pxi``): every
successor of ``(stash, direction, node)`` in rules.py order, after the goal check.
"""
from __future__ import annotations

from typing import List, Sequence, Tuple

from solver.spectrum.notation import N_COLOURS, PER_KIND, stash_value
from solver.spectrum.ref_goaltree import GoalTreeRef
from solver.spectrum.rules import EXCHANGE, UPCONVERT, Move, _receipts


def successors(stash: Sequence[int], direction: int, tree: GoalTreeRef, node: int,
               *, win_value: int = 6) -> List[Tuple[Move, tuple, int, int, bool]]:
    """``(move, stash, direction, node, won)`` for every move, in rules.py order."""
    out = []
    for c in range(N_COLOURS):
        have = stash[c * 3:c * 3 + 3]
        to = (c + direction) % N_COLOURS
        for g0 in range(have[0] + 1):
            for g1 in range(have[1] + 1):
                for g2 in range(have[2] + 1):
                    give = (g0, g1, g2)
                    total = g0 + 2 * g1 + 3 * g2
                    if not total:
                        continue
                    for rec in _receipts(total, give):
                        if all(stash[to * 3 + s] + rec[s] <= PER_KIND for s in range(3)):
                            out.append(_after(stash, direction, tree, node,
                                              Move(EXCHANGE, c, to, give, rec), win_value))
        for s in (0, 1):
            if have[s] and stash[c * 3 + s + 1] < PER_KIND:
                g, r = [0, 0, 0], [0, 0, 0]
                g[s], r[s + 1] = 1, 1
                out.append(_after(stash, direction, tree, node,
                                  Move(UPCONVERT, c, c, tuple(g), tuple(r)), win_value))
    return out


def _after(stash, direction, tree, node, move, win_value):
    new = list(stash)
    for s in range(3):
        new[move.colour * 3 + s] -= move.give[s]
        new[move.to_colour * 3 + s] += move.receive[s]
    while True:
        goals = tree.goals[node]
        hit = next((i for i, g in enumerate(goals) if all(new[g[s] * 3 + s] for s in range(3))), None)
        if hit is None:
            break
        for s in range(3):
            new[goals[hit][s] * 3 + s] -= 1
        node = tree.child(node, hit)
        direction = -direction
    return move, tuple(new), direction, node, stash_value(new) <= win_value
