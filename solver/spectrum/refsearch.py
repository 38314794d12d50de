"""Pure-Python twins of the compiled searches: goal tree, lower bound, BFS, IDA*.

Slow and plain on purpose; the differential tests compare them with
``cext.spectrum`` on random positions.  A solitaire position here is
``(stash, direction, node)`` where ``node`` indexes a :class:`GoalTreeRef`.

>>> from solver.spectrum.rules import Game
>>> st = Game(1, 10).new_state()
>>> tree = GoalTreeRef(st.goals, st.bags, st.rng.state)
>>> lower_bound(tuple(st.stashes[0]), tree, 0)
5
"""
from __future__ import annotations

from collections import deque
from typing import Dict, List, Optional, Sequence, Tuple

from solver.rng import SplitMix64
from solver.spectrum.notation import N_COLOURS, PER_KIND, VALUES, stash_value
from solver.spectrum.rules import EXCHANGE, UPCONVERT, Move, _receipts

KCAP = 3


class GoalTreeRef:
    """Goals along every conversion history (node 0 = the given goals)."""

    def __init__(self, goals, bags, rng_state: int) -> None:
        self.goals: List[list] = [list(tuple(g) for g in goals)]
        self.bags: List[list] = [[list(b) for b in bags]]
        self.rng: List[int] = [rng_state]
        self.children: List[Dict[int, int]] = [{}]

    def child(self, node: int, slot: int) -> int:
        if slot not in self.children[node]:
            goals = list(self.goals[node])
            bags = [list(b) for b in self.bags[node]]
            for s in range(3):
                bags[s].append(goals[slot][s])
            rng = SplitMix64(0)
            rng.state = self.rng[node]
            goals[slot] = tuple(bags[s].pop(rng.below(len(bags[s]))) for s in range(3))
            self.goals.append(goals)
            self.bags.append(bags)
            self.rng.append(rng.state)
            self.children.append({})
            self.children[node][slot] = len(self.goals) - 1
        return self.children[node][slot]


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


def _can_source(stash, size: int, y: int) -> bool:
    n = stash[y * 3:y * 3 + 3]
    if size == 0:
        return n[1] + n[2] > 0
    if size == 1:
        return n[0] >= 2 or n[2] >= 1
    return n[0] + 2 * n[1] >= 3


def leaf_bound(stash: Sequence[int], req: Sequence[int], allow_up: bool) -> int:
    """Turns needed to hold pieces ``req`` (twin of the kernel's ``leaf_bound``)."""
    deficit = [{s for s in range(3) if req[c * 3 + s] > stash[c * 3 + s]} for c in range(N_COLOURS)]
    lb = sum((len(d) + 1) // 2 for d in deficit)
    needy = 0
    for c, d in enumerate(deficit):
        if not d or len(d) == 3:
            continue
        y0, y1 = (c - 1) % N_COLOURS, (c + 1) % N_COLOURS
        if deficit[y0] or deficit[y1]:
            continue
        for s in d:
            if _can_source(stash, s, y0) or _can_source(stash, s, y1):
                continue
            if allow_up and s > 0 and stash[c * 3 + s - 1] > 0:
                continue
            needy += 1
            break
    return lb + (needy + 1) // 2


def lower_bound(stash: Sequence[int], tree: GoalTreeRef, node: int, *, win_value: int = 6) -> int:
    """Turns still needed, at least (twin of the kernel's ``lower_bound``)."""
    value = stash_value(stash)
    if value <= win_value:
        return 0
    k = min(KCAP, (value - win_value + 5) // 6)
    best = None
    for seq_req in _requirements(tree, node, k):
        lb = leaf_bound(stash, seq_req, True)
        best = lb if best is None else min(best, lb)
    return max(1, best)


def _requirements(tree: GoalTreeRef, node: int, k: int):
    """The pieces (36 counts) each conversion sequence of length ``k`` consumes."""
    if k == 0:
        yield [0] * 36
        return
    for slot in range(3):
        goal = tree.goals[node][slot]
        rest = tree.child(node, slot) if k > 1 else node
        for req in _requirements(tree, rest, k - 1):
            for s in range(3):
                req[goal[s] * 3 + s] += 1
            yield req


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


def ida_min_turns(stash, direction: int, tree: GoalTreeRef, node: int = 0, *,
                  win_value: int = 6, max_turns: int = 12) -> dict:
    """Twin of the kernel's IDA* (without a transposition table): minimum turns."""
    plan: List[int] = []

    def dfs(st, d, n, g, bound):
        h = lower_bound(st, tree, n, win_value=win_value)
        if g + h > bound:
            return g + h
        best = 1 << 20
        for move, st2, d2, n2, won in successors(st, d, tree, n, win_value=win_value):
            plan.append(move.code())
            if won:
                return -1
            r = dfs(st2, d2, n2, g + 1, bound)
            if r < 0:
                return -1
            plan.pop()
            best = min(best, r)
        return best

    if stash_value(stash) <= win_value:
        return {"status": "found", "turns": 0, "plan": []}
    bound = lower_bound(stash, tree, node, win_value=win_value)
    while bound <= max_turns:
        r = dfs(tuple(stash), direction, node, 0, bound)
        if r < 0:
            return {"status": "found", "turns": len(plan), "plan": plan}
        if r >= 1 << 20:
            return {"status": "exhausted"}
        bound = r
    return {"status": "limit", "limit": "turns"}


__all__ = ["GoalTreeRef", "successors", "lower_bound", "leaf_bound", "bfs_reach",
           "ida_min_turns", "VALUES"]
