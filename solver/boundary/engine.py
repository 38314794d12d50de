"""The Boundary engine: iterative deepening alpha-beta with an evaluation at the horizon.

:func:`bestmove` searches depth 1, 2, 3, ... until the time, node or depth
limit, and reports one :class:`DepthLine` per completed depth (depth, score,
principal variation, nodes, seconds), as chess engines do.  The search is the
kernel's (``solver.cext.boundary.Search`` in engine mode: table move first,
killers, progress and history ordering, threat-first); at the horizon it scores
:func:`solver.boundary.bound.evaluate` for the side to move:

    100 * (bound(other) - bound(mover)) + 50 + moves(mover) - moves(other)

where ``bound`` is the exchange bound (fewest moves left to complete the
exchange).  A completed exchange or a player without a move is a decisive
score: ``win in N`` / ``loss in N`` plies, sound like the proof search's.

>>> lines = []
>>> out = bestmove("Bl+Bm+Bs4Rl+Rm/5Rs/2gr2/2rg2/6/Yl+Ym+Ys4Gl+Gm+Gs r", max_depth=3,
...                on_depth=lines.append)
>>> out.move, out.score_text, [l.depth for l in lines]
('(f5-f6)', 'win in 1', [1])
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Union

from solver.boundary.notation import format_move, parse_position
from solver.boundary.rules import Move, Position
from solver.cext.boundary import OPTIONS, Board, Search
from solver.errors import InputError

MATE = 10000
MATE_BOUND = 9000
MAX_DEPTH = 60
ENGINE_OPTS = 32 | OPTIONS["killers"] | OPTIONS["progress"] | OPTIONS["threat"]
"""The kernel's engine mode (evaluation at the horizon) with its move ordering; no proof bound."""


def score_text(score: int) -> str:
    """``win in N`` / ``loss in N`` for a decisive score, else the number."""
    if score > MATE_BOUND:
        return f"win in {MATE - score}"
    if score < -MATE_BOUND:
        return f"loss in {MATE + score}"
    return str(score)


@dataclass
class DepthLine:
    depth: int
    score: int
    pv: List[str]
    nodes: int
    seconds: float

    @property
    def score_text(self) -> str:
        return score_text(self.score)

    def text(self) -> str:
        return (f"depth {self.depth} score {self.score_text} nodes {self.nodes} "
                f"time {self.seconds:.3f} pv {' '.join(self.pv)}")

    def to_dict(self) -> dict:
        return {"depth": self.depth, "score": self.score, "score_text": self.score_text,
                "pv": self.pv, "nodes": self.nodes, "seconds": round(self.seconds, 6)}


@dataclass
class BestMove:
    move: Optional[str]               # None only when the side to move has no move
    move_tuple: Optional[Move]
    score: Optional[int]
    depth: int
    nodes: int
    seconds: float
    lines: List[DepthLine] = field(default_factory=list)

    @property
    def score_text(self) -> Optional[str]:
        return None if self.score is None else score_text(self.score)


def bestmove(position: Union[str, Position], *, time_limit: float = 0.0, node_limit: int = 0,
             max_depth: int = MAX_DEPTH, table_mb: int = 16,
             on_depth: Optional[Callable[[DepthLine], None]] = None) -> BestMove:
    """Iterative deepening from ``position`` within the limits (0: none; at least one of
    them should bound the work: ``max_depth`` always does).  Depth 1 always completes,
    so a legal move is always returned while one exists; after that the move of the
    deepest completed depth.  Stops early at a decisive score."""
    pos = parse_position(position) if isinstance(position, str) else position
    if isinstance(max_depth, bool) or not isinstance(max_depth, int) or not 1 <= max_depth <= MAX_DEPTH:
        raise InputError(f"depth must be a whole number from 1 to {MAX_DEPTH}, not {max_depth!r}")
    if time_limit < 0 or node_limit < 0:
        raise InputError("limits must not be negative")
    board = Board.from_position(pos)
    t0 = time.perf_counter()
    legal = board.legal_moves()
    if not legal:
        return BestMove(None, None, None, 0, 0, 0.0)
    search = Search(board, max(1, int(table_mb)), 0, ENGINE_OPTS)
    out = BestMove(format_move(legal[0]), legal[0], None, 0, 0, 0.0)
    for depth in range(1, max_depth + 1):
        left = 0.0
        if time_limit:
            left = time_limit - (time.perf_counter() - t0)
            if left <= 0 and depth > 1:
                break
        first = depth == 1
        v = search.run(depth, -MATE - 1, MATE + 1,
                       0.0 if first or not time_limit else max(left, 1e-6),
                       0 if first else node_limit)
        if v is None:
            break
        pv = search.pv(depth)
        if not pv:
            break
        line = DepthLine(depth, v, [format_move(m) for m in pv], search.nodes, time.perf_counter() - t0)
        out.lines.append(line)
        out.move, out.move_tuple, out.score, out.depth = line.pv[0], pv[0], v, depth
        if on_depth is not None:
            on_depth(line)
        if abs(v) > MATE_BOUND or (node_limit and search.nodes >= node_limit):
            break
    out.nodes = search.nodes
    out.seconds = time.perf_counter() - t0
    return out
