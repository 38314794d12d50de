"""The pure-Python twin of the compiled solver: plain alpha-beta, no table,
optionally with the exchange bound (:mod:`solver.boundary.bound`) pruning as the
kernel does.

Same scores and the same verdict rules as ``solver.cext.boundary`` (see
:mod:`solver.boundary.search`): ``MATE - n`` wins n plies from the root,
``-(MATE - n)`` loses, 0 is a draw or not proven.  A position repeated on the
current line scores 0.  Meant for small depths: tests derive endgame verdicts
with it and check the compiled solver against them.

>>> from solver.boundary.notation import parse_position
>>> reference_solve(parse_position("Bl+Bm+Bs4Rl+Rm/5Rs/2gr2/2rg2/6/Yl+Ym+Ys4Gl+Gm+Gs r"), max_depth=2)
{'result': 'win', 'plies': 1, 'best': (None, None, 29, 35), 'depth': 1}
"""
from __future__ import annotations

from typing import List, Optional

from solver.boundary.bound import exchange_bound
from solver.boundary.rules import BASES, Move, Position

MATE = 10000
MATE_BOUND = 9000


class _Horizon:
    hits = 0


def _ordered(pos: Position, moves: List[Move]) -> List[Move]:
    """Landings on the mover's own bases first: they are the only winning moves."""
    own = BASES[pos.side]
    return sorted(moves, key=lambda m: m[3] not in own)


def negamax(pos: Position, depth: int, ply: int, alpha: int, beta: int,
            path: List[int], horizon: _Horizon, bound: bool = False) -> int:
    """Score for the side to move (contract as the compiled ``negamax``).

    With ``bound``: the side to move X cannot complete the exchange before ply
    ``ply + 2 b(X) - 1``, the other side Y before ``ply + 2 b(Y)`` (``b`` the
    exchange bound), so the score is at most ``MATE - ply - 2 b(X) + 1`` (0 when
    that is beyond the horizon) and at least ``-(MATE - ply - 2 b(Y))`` (0
    likewise); a bound outside (alpha, beta) is returned at once.
    """
    if pos.winner() is not None:
        return -(MATE - ply)
    key = pos.key()
    if key in path[len(path) - 2::-2]:
        return 0
    moves = pos.legal_moves()
    if not moves:
        return -(MATE - ply)
    if depth == 0:
        horizon.hits += 1
        return 0
    if bound:
        bx, by = exchange_bound(pos, pos.side), exchange_bound(pos, 1 - pos.side)
        upper = MATE - ply - (2 * bx - 1) if 2 * bx - 1 <= depth else 0
        if upper <= alpha:
            horizon.hits += upper == 0
            return upper
        lower = -(MATE - ply - 2 * by) if 2 * by <= depth else 0
        if lower >= beta:
            horizon.hits += lower == 0
            return lower
    best = -MATE - 1
    path.append(key)
    for m in _ordered(pos, moves):
        child = pos.clone()
        child.apply(m)
        v = -negamax(child, depth - 1, ply + 1, -beta, -alpha, path, horizon, bound)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    path.pop()
    return best


def reference_solve(pos: Position, *, max_depth: int, bound: bool = False) -> dict:
    """Iterative deepening to ``max_depth``: win/loss in N plies, draw, or unknown
    (``bound``: prune with the exchange bound, as the kernel does)."""
    if pos.winner() is not None or not pos.legal_moves():
        return {"result": "loss", "plies": 0, "best": None, "depth": 0}
    for depth in range(1, max_depth + 1):
        horizon = _Horizon()
        best_v, best_m = -MATE - 1, None
        for m in _ordered(pos, pos.legal_moves()):
            child = pos.clone()
            child.apply(m)
            v = -negamax(child, depth - 1, 1, -MATE - 1, -best_v if best_v > -MATE else MATE + 1,
                         [pos.key()], horizon, bound)
            if v > best_v:
                best_v, best_m = v, m
        if best_v > MATE_BOUND:
            return {"result": "win", "plies": MATE - best_v, "best": best_m, "depth": depth}
        if best_v < -MATE_BOUND:
            return {"result": "loss", "plies": MATE + best_v, "best": best_m, "depth": depth}
        if horizon.hits == 0:
            return {"result": "draw", "plies": None, "best": best_m, "depth": depth}
    return {"result": "unknown", "plies": None, "best": None, "depth": max_depth}


def best_moves(pos: Position, *, depth: int) -> Optional[int]:
    """The exact root score at ``depth`` (for tests)."""
    return negamax(pos, depth, 0, -MATE - 1, MATE + 1, [], _Horizon())
