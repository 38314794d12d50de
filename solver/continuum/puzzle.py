"""The exchange puzzle in pure Python: the reference twin of the compiled A*.

The player moves only their own pyramids (the opponent's stand still, though
they may be buried), so a border switch needs both border tops to be the
player's and every row keeps three of the player's pyramids on each side.
Costs are lexicographic: ``(pips, moves)`` for ``cost="pips"``, ``(moves,
pips)`` for ``cost="moves"``.  The bound is the one ``cext.continuum.heuristic``
computes (see :func:`bound`).

>>> from solver.continuum.notation import parse_row
>>> near = parse_row("yL | bL bM bS | yM yS || rL rM rS | gL gM gS")
>>> reference_solve(near, player="A", cost="pips")[:2]
(6, 4)
"""
from __future__ import annotations

import heapq
from typing import List, Optional, Tuple

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


def bound(row: Row, player: str, mode: int) -> int:
    """A lower bound on the primary cost: every own pyramid on the wrong side
    must take part in a switch, and a switch costs the sum of both values and
    carries one pyramid each way.  A king crosses for 0 pips (mode 2: no bound)."""
    if mode == 2:
        return 0
    own = own_pyramids(player)
    total = 0
    for s, side in enumerate(row.sides):
        for stack in side:
            for p in stack:
                if p in own and GOAL_SIDE[p // 3] != s:
                    total += value(p) if mode == 0 else (1 if s == WEST else 0)
    return total


def reference_solve(row: Row, *, player: str, cost: str = "pips", kings: bool = False,
                    max_nodes: int = 2_000_000) -> Optional[Tuple[int, int, List[Move]]]:
    """``(pips, moves, plan)`` of an optimal exchange, ``None`` if none exists.

    Raises RuntimeError when ``max_nodes`` expansions run out (the reference has
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
