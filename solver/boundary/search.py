"""Drives the compiled solver and perft; turns their output into verdicts.

Verdicts are from the side to move's view: ``win`` in N plies with the best
(fastest) move, ``loss`` in N plies with the longest defence, ``draw`` when
every line ends in a win, a loss or a repetition and neither side can force a
win, or ``unknown`` naming the limit hit (depth, time or nodes).

>>> from solver.boundary.notation import START
>>> solve_position(START, max_depth=2)["result"]
'unknown'
>>> perft_position(START, depth=2)["nodes"]
1820
"""
from __future__ import annotations

import time
from typing import Union

from solver.cext.boundary import Board
from solver.boundary.notation import format_move, parse_position
from solver.boundary.rules import Position
from solver.errors import InputError

MAX_DEPTH = 120
DEFAULT_TT_MB = 64


def _position(position: Union[str, Position]) -> Position:
    return parse_position(position) if isinstance(position, str) else position


def solve_position(position: Union[str, Position], *, max_depth: int = 40,
                   time_limit: float = 0.0, node_limit: int = 0,
                   tt_mb: int = DEFAULT_TT_MB) -> dict:
    """Iterative deepening up to ``max_depth`` plies within the limits.

    The transposition table takes at most ``tt_mb`` megabytes (default 64).
    """
    if not 1 <= max_depth <= MAX_DEPTH:
        raise InputError(f"depth must be between 1 and {MAX_DEPTH}, got {max_depth}")
    if time_limit < 0 or node_limit < 0:
        raise InputError("limits must not be negative")
    if not 1 <= tt_mb <= 1024:
        raise InputError(f"the table size must be 1 to 1024 MB, got {tt_mb}")
    pos = _position(position)
    t0 = time.perf_counter()
    out = Board.from_position(pos).search(max_depth=max_depth, time_limit=time_limit,
                                          node_limit=node_limit, tt_mb=tt_mb)
    out["seconds"] = round(time.perf_counter() - t0, 6)
    out["best"] = None if out["best"] is None else format_move(out["best"])
    return out


def perft_position(position: Union[str, Position], *, depth: int, divide: bool = False,
                   reference: bool = False) -> dict:
    """Leaf counts for depths 1..``depth`` (compiled, or the pure-Python reference)."""
    if not 0 <= depth <= 12:
        raise InputError(f"perft depth must be between 0 and 12, got {depth}")
    pos = _position(position)
    from solver.boundary import rules
    counts = []
    t0 = time.perf_counter()
    board = Board.from_position(pos)
    for d in range(1, depth + 1):
        counts.append(rules.perft(pos, d) if reference else board.perft(d))
    seconds = time.perf_counter() - t0
    total = sum(counts)
    out = {"depth": depth, "nodes": counts[-1] if counts else 1, "counts": counts,
           "seconds": round(seconds, 6),
           "nodes_per_second": round(total / seconds) if seconds > 0 else None,
           "engine": "reference" if reference else "compiled", "bulk_leaves": not reference}
    if divide and depth >= 1:
        pairs = rules.divide(pos, depth) if reference else board.divide(depth)
        out["divide"] = {format_move(m): n for m, n in pairs}
    return out
