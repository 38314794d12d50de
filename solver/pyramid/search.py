"""Drive the compiled exact search: verdicts, limits, verified solutions.

>>> from solver.pyramid.deal import deal_from_seed
>>> result = solve(deal_from_seed(1))
>>> result.verdict, len(result.moves)
('won', 144)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple

from solver.cext import pyramid as _fast
from solver.pyramid.check import name_and_check
from solver.pyramid.deal import RESERVE_SLOTS, Deal
from solver.pyramid.rules import Move, check_variant, parse_move
from solver.pyramid.tiles import TILES

VARIANT_CODES = {"continuous": 0, "wild-dragons": 1}
DEFAULT_NODE_LIMIT = 20_000_000
DEFAULT_TIME_LIMIT = 60.0
DEFAULT_TABLE_MB = 64


class SolverBug(RuntimeError):
    """The compiled search produced a line the reference rules reject."""


@dataclass
class SolveResult:
    """The outcome of an exact search.

    ``verdict`` is ``won`` (``line`` replayed by the compiled checker),
    ``lost`` (no line wins: proven by exhaustive search with sound cuts only)
    or ``unknown`` (``limit`` names the node or time limit that stopped it).
    ``line`` holds the moves as ``TILE@POS`` text; ``moves`` parses them.
    """

    verdict: str
    variant: str
    line: List[str] = field(default_factory=list)
    slots: List[int] = field(default_factory=list)   # reserve slot (1-9) of each move
    nodes: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0       # the search's CPU seconds (its thread): what time_limit counts
    limit: Optional[str] = None
    table_entries: int = 0
    table_bytes: int = 0
    deepest: int = 0
    seed: Optional[int] = None
    best_line: List[Move] = field(default_factory=list)  # not won: the line that placed most tiles
    longest_exact: bool = False    # no line places more tiles than best_line (won: always)
    best_source: Optional[str] = None   # not won: "search" (the contract adds "greedy", "lookahead")
    hub: Optional[str] = None      # lost by the hub lemma (solver.pyramid.hub): its reason
    sat: Optional[str] = None      # decided by the SAT stage (solver.pyramid.sat): how
    sat_k: Optional[int] = None    # lost by the SAT stage: no line places this many tiles

    @property
    def moves(self) -> List[Move]:
        """The solution as :class:`~solver.pyramid.rules.Move` (empty unless won)."""
        return [parse_move(m) for m in self.line]

    def to_dict(self) -> dict:
        return {
            "seed": self.seed, "variant": self.variant, "verdict": self.verdict,
            "moves": list(self.line), "slots": self.slots,
            "nodes": self.nodes, "seconds": round(self.seconds, 6), "limit": self.limit,
            "table_entries": self.table_entries, "table_bytes": self.table_bytes,
            "deepest": self.deepest,
        }


_KIND_OF_FACE = tuple(t.kind for t in TILES)


def deal_kinds(deal: Deal) -> List[int]:
    return [_KIND_OF_FACE[f] for f in deal.faces]


def faces_for_line(deal: Deal, line) -> Tuple[List[Move], List[int]]:
    """Name the actual tiles of a compiled line of (kind, position) pairs.

    Each kind is taken from the lowest reserve slot holding a tile of that
    kind, and that slot is refilled from the stock.  Only the reserve is
    tracked here; legality is the checker's job.  Returns moves and slots.
    """
    reserve: List[Optional[int]] = list(deal.faces[:RESERVE_SLOTS])
    stock = RESERVE_SLOTS
    moves, slots = [], []
    for kind, pos in line:
        slot = next((i for i, f in enumerate(reserve) if f is not None and TILES[f].kind == kind), None)
        if slot is None:
            raise SolverBug(f"the search played kind {kind} with none in the reserves")
        moves.append(Move(reserve[slot], pos))
        slots.append(slot + 1)
        reserve[slot] = deal.faces[stock] if stock < len(deal.faces) else None
        stock += 1
    return moves, slots


def solve(deal: Deal, *, variant: str = "continuous", node_limit: Optional[int] = DEFAULT_NODE_LIMIT,
          time_limit: Optional[float] = DEFAULT_TIME_LIMIT, table_mb: float = DEFAULT_TABLE_MB,
          after: Sequence[Move] = (), longest: bool = True, tail: bool = False) -> SolveResult:
    """Decide whether a thoughtful player (who knows the whole deal) can win it.

    ``node_limit``/``time_limit`` of None or 0 mean no limit; ``time_limit``
    counts CPU seconds of the searching thread (the same work at any load),
    ``seconds`` is wall time and ``cpu_seconds`` what the limit counted;
    ``table_mb`` bounds the transposition table.  A ``won`` line is named and replayed by the
    compiled checker (:func:`~solver.pyramid.check.name_and_check`, a kernel
    that shares nothing with the search) before it is returned.

    ``after``: legal moves played first (the caller checks them); the search
    decides the position they reach, and a ``won`` line starts with them.
    ``longest=False`` skips the search for the longest line of a lost deal.
    ``tail=True``: the tail search (:mod:`solver.pyramid.tail`): the same search
    with its relaxation decided completely.
    """
    check_variant(variant)
    kinds = [(_KIND_OF_FACE[m.tile], m.pos) for m in after]
    raw = _fast.solve_kinds(deal_kinds(deal), variant=VARIANT_CODES[variant],
                            node_limit=int(node_limit or 0), time_limit=float(time_limit or 0.0),
                            table_bytes=int(table_mb * (1 << 20)), prefix=kinds,
                            longest_budget=4000 if longest else 0, tail=tail)
    result = SolveResult(raw["verdict"], variant, nodes=raw["nodes"], seconds=raw["seconds"],
                         cpu_seconds=raw["cpu_seconds"],
                         limit=raw["limit"], table_entries=raw["table_entries"],
                         table_bytes=raw["table_bytes"], deepest=raw["deepest"], seed=deal.seed)
    if result.verdict == "won":
        line, slots, report = name_and_check(deal, raw["moves"], variant=variant, prefix=after)
        if not report.valid:
            raise SolverBug(f"the checker rejected the solver's line: {report.error}")
        result.line, result.slots = line, slots
        result.longest_exact = True
    else:
        result.best_line = faces_for_line(deal, raw["deepest_line"])[0]
        result.best_source = "search"
        result.longest_exact = bool(raw["longest_exact"]) and not after
    return result
