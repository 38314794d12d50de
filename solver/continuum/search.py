"""The exchange puzzle's exact minimum, driven through the compiled A*.

:func:`solve_puzzle` returns a :class:`PuzzleResult` whose verdict is
``solved`` (with an optimal plan), ``impossible`` (every reachable row was
expanded: no exchange exists), or ``unknown`` (a node or state limit ran out;
``limit`` names it).  The reference twin is :mod:`solver.continuum.puzzle`.

>>> r = solve_puzzle(start_row(), player="A", cost="pips")
>>> r.verdict, r.pips, r.moves
('solved', 30, 13)
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import List, Optional

from solver.cext import continuum as _c
from solver.continuum.codec import code_move, key_row, row_key
from solver.continuum.pieces import PLAYER_COLOURS, check_player, own_pyramids, pyramid_name
from solver.continuum.puzzle import bound_mode, check_cost
from solver.continuum.rules import Move, Row, start_row, three_per_side
from solver.errors import InputError

DEFAULT_MAX_NODES = 5_000_000
#: stored rows; about 64 bytes each, so the default table stays near 130 MB
DEFAULT_MAX_STATES = 2_000_000


def mask(ids) -> int:
    m = 0
    for i in ids:
        m |= 1 << i
    return m


@dataclass
class PuzzleResult:
    player: str
    cost: str
    kings: bool
    verdict: str                      # solved | impossible | unknown
    pips: Optional[int] = None
    moves: Optional[int] = None
    plan: List[Move] = field(default_factory=list)
    rows: List[Row] = field(default_factory=list)   # the row after each plan move
    nodes: int = 0
    states: int = 0
    limit: Optional[str] = None
    seconds: float = 0.0
    max_step: int = 6

    def to_json(self, start: Row) -> dict:
        return {
            "player": self.player, "cost": self.cost, "kings": self.kings, "max_step": self.max_step,
            "verdict": self.verdict, "row": start.text(),
            "pips": self.pips, "moves": self.moves,
            "plan": [m.text() for m in self.plan],
            "states": self.states, "nodes": self.nodes, "limit": self.limit,
            "seconds": round(self.seconds, 6),
        }


def check_puzzle_row(row: Row, player: str) -> None:
    if not three_per_side(row, player):
        raise InputError(f"player {player} must have exactly 3 pyramids on each side of the continuum")


def solve_puzzle(row: Row, *, player: str, cost: str = "pips", kings: bool = False,
                 max_nodes: int = DEFAULT_MAX_NODES, max_states: int = DEFAULT_MAX_STATES,
                 max_step: int = 6) -> PuzzleResult:
    """Minimum pips (or moves) for ``player`` to exchange both trees from ``row``.

    ``max_step`` skips moves dearer than that many pips: 5 gives the minimum
    the full game can play (no card is worth 6, so no large-large switch)."""
    player = check_player(player)
    check_cost(cost)
    check_puzzle_row(row, player)
    if max_nodes < 0 or max_states < 1:
        raise InputError("limits must be positive")
    if not 1 <= max_step <= 6:
        raise InputError(f"max_step must be 1-6 (a move costs at most 6 pips), not {max_step}")
    t0 = time.perf_counter()
    status, limit, pips, moves, path, nodes, states = _c.astar(
        row_key(row), mask(own_pyramids(player)), mask(PLAYER_COLOURS[player]),
        bound_mode(cost, kings), cost == "moves", kings, max_nodes, max_states, max_step)
    res = PuzzleResult(player, cost, kings, "unknown", max_step=max_step, nodes=nodes, states=states,
                       limit=limit,
                       seconds=time.perf_counter() - t0)
    if status == "found":
        res.verdict, res.pips, res.moves = "solved", pips, moves
        res.plan = [code_move(c) for _, c in path]
        res.rows = [key_row(k) for k, _ in path]
    elif status == "exhausted":
        res.verdict = "impossible"
    return res


def describe_limit(res: PuzzleResult) -> str:
    return {"max_nodes": "the node limit", "max_states": "the state-table limit",
            "heap": "the open-list limit"}.get(res.limit or "", "a limit")


__all__ = ["PuzzleResult", "solve_puzzle", "start_row", "pyramid_name"]
