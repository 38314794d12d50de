"""Pure-Python twins of the compiled searches: goal tree, lower bound, BFS, IDA*.

Slow and plain on purpose; the differential tests compare them with
``cext.spectrum`` on random positions.  A solitaire position here is
``(stash, direction, node)`` where ``node`` indexes a :class:`GoalTreeRef`.

>>> from solver.spectrum.rules import Game
>>> st = Game(1, 10).new_state()
>>> tree = GoalTreeRef(st.goals, st.bags, st.rng.state)
>>> lower_bound(tuple(st.stashes[0]), tree, 0, direction=1)
6
"""
from __future__ import annotations

from collections import deque
from typing import Dict, List, Optional, Sequence, Tuple

from solver.rng import SplitMix64
from solver.spectrum.notation import N_COLOURS, PER_KIND, VALUES, stash_value
from solver.spectrum.rules import EXCHANGE, UPCONVERT, Move, _receipts

KCAP = 4


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


def _deficits(stash: Sequence[int], req: Sequence[int]) -> List[set]:
    return [{s for s in range(3) if req[c * 3 + s] > stash[c * 3 + s]} for c in range(N_COLOURS)]


def _turns_into(d: set) -> int:
    """Turns adding to one colour that create the missing sizes ``d``: a turn
    adds one or two sizes, never M and L together (5 points from at most
    four smalls)."""
    return 2 if len(d) == 3 or d == {1, 2} else (1 if d else 0)


def leaf_bound(stash: Sequence[int], req: Sequence[int], allow_up: bool = True) -> int:
    """Turns needed to create the pieces ``req`` lacks (the kernel's count B);
    ``allow_up`` False: for plans without upconversions."""
    deficit = _deficits(stash, req)
    lb = sum(_turns_into(d) for d in deficit)
    needy = 0
    for c, d in enumerate(deficit):
        if _turns_into(d) != 1:
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


def _left_over(values: List[int], cap: int) -> int:
    """How many values remain once the smallest that fit in ``cap`` are kept."""
    total = 0
    for i, v in enumerate(sorted(values)):
        if total + v > cap:
            return len(values) - i
        total += v
    return 0


def leaf_eval(stash: Sequence[int], req: Sequence[int], value: int, m: int, w: int,
              win: int) -> int:
    """Least turns of a plan with exactly ``m`` more conversions, the first
    ``m - w`` consuming ``req``, the last ``w`` unknown: max of counts B
    (pieces to create), A (colours to empty, one source colour per turn, plus
    deficit turns far from any piece) and C (deficit turns plus colours to
    empty far from any deficit), minimised
    over the upconversions u (twin of the kernel's ``leaf_eval``)."""
    deficit = _deficits(stash, req)
    residual = [sum(max(0, stash[c * 3 + s] - req[c * 3 + s]) * (s + 1) for s in range(3))
                for c in range(N_COLOURS)]
    tcount = sum(_turns_into(d) for d in deficit)
    b, b0 = leaf_bound(stash, req, True), leaf_bound(stash, req, False)
    far = [residual[c] for c in range(N_COLOURS) if residual[c] and not (
        deficit[c] or deficit[(c - 1) % N_COLOURS] or deficit[(c + 1) % N_COLOURS])]
    held = [r for r in residual if r]
    lonely = sum(_turns_into(d) for c, d in enumerate(deficit) if d and not (
        residual[c] or residual[(c - 1) % N_COLOURS] or residual[(c + 1) % N_COLOURS]))
    freed = 0
    if w:
        freed = sum(min(w, sum(1 for c in range(N_COLOURS) if stash[c * 3 + s] > req[c * 3 + s]))
                    for s in range(3))
    best = None
    u = max(0, 6 * m - value)
    while True:
        cap = min(win, value + u - 6 * m)
        v = max(u, b if u else b0, _left_over(held, cap) - freed + lonely)
        if not w:
            v = max(v, tcount + _left_over(far, cap))
        best = v if best is None else min(best, v)
        if cap == win or u + 1 >= best:
            return best
        u += 1


def lower_bound(stash: Sequence[int], tree: GoalTreeRef, node: int, *, direction: int,
                win_value: int = 6) -> int:
    """Turns still needed, at least (twin of the kernel's ``lower_bound``):
    over every number m >= k of conversions and every sequence of goals
    (known for the first ``KCAP``), the least of the larger of
    :func:`leaf_eval` and the sequence's phase floor (:func:`_sequences`)."""
    value = stash_value(stash)
    if value <= win_value:
        return 0
    k = (value - win_value + 5) // 6
    best = 1 << 20
    for j in range(0, KCAP + 1):
        for req, floor, floor0 in _sequences(stash, direction, tree, node, j):
            m = max(k, j)
            while 6 * m - value < best and (j == KCAP or m == j):
                fl = floor0 if value - 6 * m == win_value else floor
                best = min(best, max(fl, leaf_eval(stash, req, value, m, m - j, win_value)))
                m += 1
    return max(1, best)


def _sequences(stash, direction: int, tree: GoalTreeRef, node: int, k: int):
    """``(req, floor, floor0)`` for each sequence of ``k`` conversions: the
    pieces (36 counts) it consumes, and turns it needs at least by its
    phases: the first goal g1 is gathered with the direction fixed and
    nothing converted (``phase_turns(g1)``); a second goal g2 is either
    matched in the same turn (the first phase gathered both) or needs one
    more turn.  ``floor0``: the same for plans without upconversions."""
    for req, goals in _requirements(tree, node, k):
        floors = [0, 0]
        if k >= 1:
            for i, up in enumerate((True, False)):
                one = [0] * 36
                for s in range(3):
                    one[goals[0][s] * 3 + s] += 1
                floors[i] = phase_turns(stash, one, direction, up)
                if k >= 2:
                    for s in range(3):
                        one[goals[1][s] * 3 + s] += 1
                    floors[i] = min(floors[i] + 1, phase_turns(stash, one, direction, up))
        yield req, floors[0], floors[1]


def _requirements(tree: GoalTreeRef, node: int, k: int):
    """``(req, goals)``: the pieces (36 counts) each conversion sequence of
    length ``k`` consumes, and its goals in order."""
    if k == 0:
        yield [0] * 36, []
        return
    for slot in range(3):
        goal = tree.goals[node][slot]
        rest = tree.child(node, slot) if k > 1 else node
        for req, goals in _requirements(tree, rest, k - 1):
            for s in range(3):
                req[goal[s] * 3 + s] += 1
            yield req, [goal] + goals


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


__all__ = ["GoalTreeRef", "successors", "lower_bound", "leaf_bound", "bfs_reach",
           "ida_min_turns", "commuted_away", "leaf_eval", "phase_turns", "VALUES"]


def phase_turns(stash: Sequence[int], req: Sequence[int], direction: int,
                allow_up: bool = True) -> int:
    """Turns, at least, to make ``stash`` hold ``req`` with the direction fixed
    and nothing converted (one phase).  A turn adds pieces to one colour only
    (exchange: the next colour; upconversion: its own), so each deficit
    colour costs 1 turn, or 2 when it lacks both M and L (5 points from at
    most four smalls is impossible) or all three sizes.  A deficit colour x
    costing 1 whose upstream neighbour x - direction has no deficit, and
    which can get some missing size neither from that neighbour as it stands
    nor by an upconversion, needs one more turn: one into x - direction or a
    second one into x; such turns are distinct for distinct colours.
    ``allow_up`` False: for plans without upconversions."""
    deficit = _deficits(stash, req)
    total = 0
    for x, d in enumerate(deficit):
        if not d:
            continue
        if d == {1, 2} or len(d) == 3:
            total += 2
            continue
        total += 1
        y = (x - direction) % N_COLOURS
        if deficit[y]:
            continue
        for s in d:
            if not (_can_source(stash, s, y) or (allow_up and s > 0 and stash[x * 3 + s - 1] > 0)):
                total += 1
                break
    return total
