"""Hints: from a position, which moves keep the deal winnable, and which moves
of a solution are critical.

A *choice* is a tile kind on a position: moves that differ only in which wind,
season or dragon face they take play identically (rules/pyramid.md), so they
share one verdict.  Every choice is decided by the exact search from the
position it reaches (:func:`~solver.pyramid.search.solve` with ``after``),
each under the limits given; a ``won`` choice carries a line the compiled
checker replayed from the deal's start.

>>> from solver.pyramid.deal import deal_from_seed
>>> h = hint(deal_from_seed(42), [])
>>> h.verdict, h.moves[0]["move"], h.moves[0]["verdict"]
('won', '1B@1e5', 'won')
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from solver.game import Limits
from solver.pyramid.check import replay
from solver.pyramid.deal import Deal
from solver.pyramid.rules import Move
from solver.pyramid.search import SolveResult, solve
from solver.pyramid.tiles import TILES

HINT_LIMITS = Limits(node_limit=2_000_000, time_limit=10.0, table_mb=64)
"""Each choice's default limits: 2M nodes, 10 s, a 64 MiB table."""


@dataclass
class Hint:
    """``verdict`` of the position (won if some choice wins, lost if none does
    or no move is legal, else unknown), ``moves``: every legal move with its
    choice's verdict, ``winning``: the moves that keep the deal winnable,
    ``line``: a winning continuation, ``critical``: see :func:`critical_moves`."""

    verdict: str
    limit: Optional[str]
    nodes: int
    seconds: float
    played: int
    line: List[str] = field(default_factory=list)
    moves: List[Dict] = field(default_factory=list)
    critical: Optional[List[Dict]] = None

    @property
    def winning(self) -> List[str]:
        return [m["move"] for m in self.moves if m["verdict"] == "won"]

    def to_dict(self) -> dict:
        return {"verdict": self.verdict, "limit": self.limit, "nodes": self.nodes,
                "seconds": round(self.seconds, 6), "line": list(self.line), "played": self.played,
                "moves": list(self.moves), "winning": self.winning, "critical": self.critical}


def _decide(deal: Deal, after: Sequence[Move], variant: str, limits: Limits) -> SolveResult:
    return solve(deal, variant=variant, node_limit=limits.node_limit, time_limit=limits.time_limit,
                 table_mb=limits.table_mb, after=after, longest=False)


def _choices(state) -> Dict[Tuple[int, int], List[Move]]:
    """The legal moves grouped by choice (kind, position), in the reference order."""
    groups: Dict[Tuple[int, int], List[Move]] = {}
    for move in state.legal_moves():
        groups.setdefault((TILES[move.tile].kind, move.pos), []).append(move)
    return groups


def _combine(verdicts: Sequence[SolveResult]) -> Tuple[str, Optional[str]]:
    if any(r.verdict == "won" for r in verdicts):
        return "won", None
    unknown = [r for r in verdicts if r.verdict == "unknown"]
    if unknown:
        return "unknown", unknown[0].limit
    return "lost", None


def hint(deal: Deal, moves: Sequence[Move], *, variant: str = "continuous",
         limits: Limits = Limits(), critical: bool = False) -> Hint:
    """Decide the position after ``moves`` (checked: InputError names a bad
    one) and every legal move from it."""
    t0 = time.perf_counter()
    limits = limits.or_defaults(**HINT_LIMITS.to_dict())
    state = replay(deal, moves, variant=variant)
    moves = list(moves)
    out = Hint("won", None, 0, 0.0, len(moves))
    if state.is_won():
        out.critical = [] if critical else None
        out.seconds = time.perf_counter() - t0
        return out
    groups = _choices(state)
    whole = _decide(deal, moves, variant, limits)
    out.nodes += whole.nodes
    decided = []
    for choice, faces in groups.items():
        if whole.verdict == "lost":      # every move from a lost position loses
            r = SolveResult("lost", variant)
        else:
            r = _decide(deal, moves + [faces[0]], variant, limits)
            out.nodes += r.nodes
            if r.verdict == "won" and not out.line:
                out.line = r.line[len(moves):]
        decided.append(r)
        for m in faces:
            out.moves.append({"move": str(m), "verdict": r.verdict, "limit": r.limit, "nodes": r.nodes})
    out.verdict, out.limit = _combine(decided) if decided else ("lost", None)
    if out.verdict != "won" and whole.verdict == "won":     # the whole position was won after all
        out.verdict, out.limit, out.line = "won", None, whole.line[len(moves):]
    if critical:
        out.critical = critical_moves(deal, moves, whole.moves[len(moves):] if whole.verdict == "won" else [],
                                      variant=variant, limits=limits) if out.verdict == "won" else None
    out.seconds = time.perf_counter() - t0
    return out


def critical_moves(deal: Deal, played: Sequence[Move], solution: Sequence[Move], *,
                   variant: str = "continuous", limits: Limits = HINT_LIMITS) -> List[Dict]:
    """The moves of ``solution`` (from the position after ``played``) where no
    other choice keeps the deal winnable.

    At each move the other choices are decided until one wins; a move is
    listed when none does: ``critical`` is True when every other choice is
    proven lost (or there is none), None when some stayed unknown.  Each
    entry: ``number`` (1-based, counted from the deal's start), ``move``,
    ``choices`` (legal choices there, the solution's included), ``forced``
    (it was the only legal choice), ``lost`` and ``unknown`` (the other
    choices' verdicts).
    """
    state = replay(deal, played, variant=variant)
    prefix = list(played)
    out = []
    for move in solution:
        groups = _choices(state)
        mine = (TILES[move.tile].kind, move.pos)
        lost = unknown = 0
        rescued = False
        for choice, faces in groups.items():
            if choice == mine:
                continue
            r = _decide(deal, prefix + [faces[0]], variant, limits)
            if r.verdict == "won":
                rescued = True
                break
            lost += r.verdict == "lost"
            unknown += r.verdict == "unknown"
        if not rescued:
            out.append({"number": len(prefix) + 1, "move": str(move), "choices": len(groups),
                        "forced": len(groups) == 1, "lost": lost, "unknown": unknown,
                        "critical": True if unknown == 0 else None})
        state.apply(move)
        prefix.append(move)
    return out
