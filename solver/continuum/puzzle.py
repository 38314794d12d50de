"""The exchange puzzle in pure Python: the reference twin of the compiled A*.

The player moves only their own pyramids (the opponent's stand still, though
they may be buried), so a border switch needs both border tops to be the
player's and every row keeps three of the player's pyramids on each side.
Costs are lexicographic: ``(pips, moves)`` for ``cost="pips"``, ``(moves,
pips)`` for ``cost="moves"``.  The bound is the one ``solver.cext.continuum.heuristic``
computes (see :func:`bound`).

>>> from solver.continuum.notation import parse_row
>>> near = parse_row("yL | bL bM bS | yM yS || rL rM rS | gL gM gS")
>>> reference_solve(near, player="A", cost="pips")[:2]
(6, 4)
"""
from __future__ import annotations

import heapq
from typing import FrozenSet, List, Optional, Tuple

from solver.continuum.pieces import GOAL_SIDE, PLAYER_COLOURS, WEST, check_player, own_pyramids, value
from solver.continuum.rules import Move, Row, is_won, successors
from solver.errors import InputError

COSTS = ("pips", "moves")


def check_cost(cost: str) -> str:
    if cost not in COSTS:
        raise InputError(f"no such cost: {cost!r} (expected pips or moves)")
    return cost


def bound_mode(cost: str, kings: bool) -> int:
    """0: pips of wrong-side pyramids; 1: wrong-side pyramids on the West; 2: none."""
    if cost == "moves":
        return 1
    return 2 if kings else 0


def bound(row: Row, player: str, mode: int, movable: Optional[FrozenSet[int]] = None) -> int:
    """A lower bound on the primary cost (the compiled ``heuristic``'s twin).

    Each move's cost is shared out to the pyramids it moves.  An own pyramid
    on the wrong side takes part in a switch (its value); if a stack between it
    and the continuum holds a pyramid not in ``movable`` (default: the
    player's own, so the opponent's never move), its
    stack can never reach the continuum, so it first steps once (its value
    again).  An own pyramid on its goal side with anything but its tree's
    larger pyramids beneath must move (its value): what lies under a pyramid
    changes only when it moves; and any other pyramid above an own pyramid that
    must move has to step off first (its value).  Mode 0 sums these pips; mode 1 counts moves
    (own pyramids wrong on the West, one per switch, plus the blocked steps);
    mode 2 (kings, which move for free) is 0."""
    if mode == 2:
        return 0
    own = own_pyramids(player)
    movable = own if movable is None else movable
    total = 0
    for s, side in enumerate(row.sides):
        fixed = [any(p not in movable for p in stack) for stack in side]
        for i, stack in enumerate(side):
            low = None                 # the lowest own pyramid of this stack that must move
            for j, p in enumerate(stack):
                if p not in own:
                    if mode == 0 and low is not None:
                        total += value(p)
                    continue
                c = p // 3
                if GOAL_SIDE[c] != s:
                    between = fixed[i + 1:] if s == WEST else fixed[:i]
                    blocked = int(any(between))
                    total += value(p) * (1 + blocked) if mode == 0 else blocked + (s == WEST)
                elif list(stack[:j]) != [c * 3 + 2 - a for a in range(2 - p % 3)]:
                    total += value(p) if mode == 0 else 0
                else:
                    continue
                low = j if low is None else low
    return total


def reference_solve(row: Row, *, player: str, cost: str = "pips", kings: bool = False,
                    max_nodes: int = 2_000_000, max_step: int = 6) -> Optional[Tuple[int, int, List[Move]]]:
    """``(pips, moves, plan)`` of an optimal exchange, ``None`` if none exists.

    Moves costing more than ``max_step`` pips are skipped.  Raises RuntimeError
    when ``max_nodes`` expansions run out (the reference has
    no verdict of its own: it is here to check the compiled search)."""
    player = check_player(player)
    check_cost(cost)
    own = own_pyramids(player)
    mode = bound_mode(cost, kings)
    by_moves = cost == "moves"
    best = {row: (0, 0)}
    parent = {row: None}
    heap = [((bound(row, player, mode), 0), (0, 0), 0, row)]
    tie = 0
    nodes = 0
    while heap:
        _, g, _, r = heapq.heappop(heap)
        if best[r] != g:
            continue
        if is_won(r, player):
            plan: List[Move] = []
            while parent[r] is not None:
                r, m = parent[r]
                plan.append(m)
            plan.reverse()
            pips, moves = (g[1], g[0]) if by_moves else g
            return pips, moves, plan
        if nodes >= max_nodes:
            raise RuntimeError("reference search ran out of nodes")
        nodes += 1
        for m, c, r2 in successors(r, own, kings=kings):
            if c > max_step:
                continue
            g2 = (g[0] + 1, g[1] + c) if by_moves else (g[0] + c, g[1] + 1)
            if r2 in best and best[r2] <= g2:
                continue
            best[r2] = g2
            parent[r2] = (r, m)
            tie += 1
            heapq.heappush(heap, ((g2[0] + bound(r2, player, mode), -g2[1]), g2, tie, r2))
    return None


def exchange_colours(player: str) -> Tuple[int, ...]:
    return PLAYER_COLOURS[check_player(player)]
