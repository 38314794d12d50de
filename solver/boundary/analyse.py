"""Annotate a record: each ply's proven value, or the engine's estimate.

:func:`analyse_record` replays a record and, for the position after every
ply (and the start), asks the proof search (:func:`solver.boundary.search.solve`)
within a time limit per position; where it finds no proof, the engine
(:func:`solver.boundary.engine.bestmove`) gives its estimate and the depth it
reached.  Values are from the view of the side to move in that position.

The positions are solved from the end backwards: the later positions are the
easy ones, and a proven position after a ply bounds the one before it
(:func:`consistent` states what must hold between neighbours).

The turning point is the last ply whose mover left a position proven won or
drawn for them for one proven lost (or won for them for one proven drawn):
there the proven value changed hands (``basis`` "proof"), and the better move
is the proof's best move in the position before.  Without such a pair, the
turning point is the first ply after which the mover is proven lost while the
position before was answered "not lost within N plies" for an N longer than
the defence left (``basis`` "depth": the move shortened the game; whether it
also threw away a draw or a win is beyond the search), with the move the proof
search found holding out longer there (``holds``).  Separately, among the estimated positions, the ply after
which the mover's estimate fell the most is named.

>>> from solver.boundary.analyse import consistent
>>> consistent({"verdict": "won", "plies": 5}, {"verdict": "lost", "plies": 4})
True
>>> consistent({"verdict": "lost", "plies": 3}, {"verdict": "lost", "plies": 4})
False
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import List, Optional

from solver.boundary.engine import MATE, bestmove
from solver.boundary.notation import format_position
from solver.boundary.replay import replay_text
from solver.boundary.rules import PLAYER_NAMES
from solver.boundary.search import solve_position
from solver.errors import InputError

DEFAULT_TIME = 10.0
"""Seconds the proof search spends on each position by default."""
DEFAULT_ENGINE_TIME = 1.0
"""Seconds the engine spends on a position the proof search left unknown."""


def consistent(before: dict, after: dict) -> bool:
    """Whether two proven answers (``verdict`` won/lost/draw, ``plies``) agree when
    ``after`` is the position a legal move leads to from ``before`` (each from its own
    side to move's view; unknowns agree with anything):

    - ``after`` lost in N: ``before`` is won within N + 1;
    - ``after`` drawn: ``before`` is won or drawn;
    - ``after`` won in N: if ``before`` is lost, then in N + 1 or more.
    """
    b, a = before.get("verdict"), after.get("verdict")
    if b not in ("won", "lost", "draw") or a not in ("won", "lost", "draw"):
        return True
    if a == "lost":
        return b == "won" and before["plies"] <= after["plies"] + 1
    if a == "draw":
        return b in ("won", "draw")
    return b != "lost" or before["plies"] >= after["plies"] + 1


@dataclass
class Ply:
    """The position after ``number`` plies (0: the start) and what is known of it."""

    number: int
    move: Optional[str]                  # the move that led here (None at the start)
    label: Optional[str]                 # "12. Red" ...
    position: str
    side: str                            # the side to move: "red" or "green"
    verdict: str                         # won / lost / draw / unknown, side to move's view
    plies: Optional[int] = None          # to the end, won/lost only
    best: Optional[str] = None           # the proof's best move (won/lost/draw)
    estimate: Optional[int] = None       # the engine's score where the verdict is unknown
    estimate_text: Optional[str] = None
    depth: Optional[int] = None          # the engine's depth (unknown) or the proof's
    engine_move: Optional[str] = None
    proof_depth: Optional[int] = None    # the deepest question the proof search answered
    holds: Optional[str] = None          # unknown: a move not lost within not_lost_within plies
    nodes: int = 0
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return dict(self.__dict__)

    def value_text(self) -> str:
        if self.verdict == "won":
            return f"{self.side.capitalize()} wins in {self.plies}"
        if self.verdict == "lost":
            return f"{self.side.capitalize()} loses in {self.plies}"
        if self.verdict == "draw":
            return "draw"
        return f"unknown; engine {self.estimate_text} at depth {self.depth}"


@dataclass
class Analysis:
    plies: List[Ply]
    turning_point: Optional[dict]
    estimated_turning_point: Optional[dict]
    proven_from: Optional[int]           # the earliest ply with a proven value
    consistent: bool
    seconds: float = 0.0
    nodes: int = 0
    resigned: Optional[str] = None
    notes: List[str] = field(default_factory=list)


def _mover_value(before: Ply) -> Optional[int]:
    """-1 lost, 0 draw, +1 won for the side to move in a proven position."""
    return {"won": 1, "draw": 0, "lost": -1}.get(before.verdict)


def analyse_record(text: str, *, time_limit: float = DEFAULT_TIME,
                   engine_time: float = DEFAULT_ENGINE_TIME, table_mb: float = 64,
                   max_depth: int = 40, last: Optional[int] = None,
                   on_ply=None) -> Analysis:
    """Annotate the record ``text`` (its replay must be legal: InputError otherwise).

    ``last``: analyse only the last ``last`` positions (the others are listed
    as unknown, without an estimate).  ``on_ply(ply)`` is called as each
    position is done (from the end backwards)."""
    if time_limit <= 0 or engine_time < 0:
        raise InputError("--time-limit must be > 0 and --engine-time >= 0")
    rep = replay_text(text)
    if not rep.legal:
        raise InputError(f"the record is not legal: {rep.error}")
    t0 = time.perf_counter()
    n = len(rep.positions)
    out: List[Optional[Ply]] = [None] * n
    lowest = 0 if last is None else max(0, n - last)
    for i in range(n - 1, -1, -1):
        pos = rep.positions[i]
        half = rep.halves[i - 1] if i > 0 else None
        ply = Ply(number=i, move=None if half is None else half.text,
                  label=None if half is None else half.label(), position=format_position(pos),
                  side=PLAYER_NAMES[pos.side].lower(), verdict="unknown")
        if i >= lowest:
            r = solve_position(pos, time_limit=time_limit, tt_mb=int(table_mb), max_depth=max_depth)
            ply.verdict = {"win": "won", "loss": "lost"}.get(r["result"], r["result"])
            ply.plies, ply.nodes = r["plies"], r["nodes"]
            ply.depth = ply.proof_depth = r["depth"]
            ply.best = r["best"]
            if ply.verdict == "unknown":
                ply.holds = r["hold"]
            if ply.verdict == "unknown" and engine_time > 0:
                e = bestmove(pos, time_limit=engine_time, table_mb=int(min(table_mb, 64)))
                ply.nodes += e.nodes
                ply.estimate, ply.estimate_text = e.score, e.score_text
                ply.depth, ply.engine_move = e.depth, e.move
            ply.seconds = round(time.perf_counter() - t0, 6)
        out[i] = ply
        if on_ply is not None:
            on_ply(ply)
    plies: List[Ply] = [p for p in out if p is not None]
    ok = all(consistent(plies[i - 1].to_dict(), plies[i].to_dict()) for i in range(1, n))
    proven = [p.number for p in plies if p.verdict != "unknown"]
    return Analysis(plies=plies, turning_point=_turning_point(plies) or _shortened(plies),
                    estimated_turning_point=_estimated_turn(plies),
                    proven_from=min(proven) if proven else None, consistent=ok,
                    seconds=time.perf_counter() - t0, nodes=sum(p.nodes for p in plies),
                    resigned=None if rep.resigned is None else PLAYER_NAMES[rep.resigned].lower())


def _turning_point(plies: List[Ply]) -> Optional[dict]:
    """The last ply whose mover's proven value got worse (won -> draw/lost, draw -> lost)."""
    for i in range(len(plies) - 1, 0, -1):
        before, after = plies[i - 1], plies[i]
        vb = _mover_value(before)
        va = _mover_value(after)
        if vb is None or va is None:
            continue
        # after is from the opponent's view: the mover's value after the move is -va
        if -va < vb:
            return {"ply": after.number, "label": after.label, "move": after.move,
                    "mover": before.side, "basis": "proof", "before": before.value_text(),
                    "after": after.value_text(), "better_move": before.best}
    return None


def not_lost_within(ply: Ply) -> int:
    """For a position the proof search left unknown after completing depth d: the side
    to move is not lost within the largest even number <= d plies (the loss question at
    that depth said no)."""
    d = ply.proof_depth or 0
    return d - d % 2


def _shortened(plies: List[Ply]) -> Optional[dict]:
    """Without a proven change of hands: the ply where a proven loss began, when the
    position before it was not lost within more plies than the mover had left after the
    move (the move shortened the defence; the value may or may not have changed hands:
    the position before is unknown, only "not lost within N" is answered)."""
    for i in range(1, len(plies)):
        before, after = plies[i - 1], plies[i]
        if before.verdict == "unknown" and after.verdict == "won" and after.plies is not None:
            held = not_lost_within(before)
            if held >= after.plies + 1:
                return {"ply": after.number, "label": after.label, "move": after.move,
                        "mover": before.side, "basis": "depth",
                        "before": f"not lost within {held} plies",
                        "after": f"{before.side.capitalize()} loses in {after.plies + 1}",
                        "better_move": before.holds}
    return None


def _estimated_turn(plies: List[Ply]) -> Optional[dict]:
    """Among neighbours with an engine estimate, the ply after which the mover's
    estimate fell the most (scores of the side to move; the mover's after is minus)."""
    best = None
    for i in range(1, len(plies)):
        before, after = plies[i - 1], plies[i]
        if before.estimate is None or after.estimate is None:
            continue
        drop = before.estimate - (-after.estimate)
        if abs(before.estimate) > MATE - 1000 or abs(after.estimate) > MATE - 1000:
            continue
        if best is None or drop > best["drop"]:
            best = {"ply": after.number, "label": after.label, "move": after.move,
                    "mover": before.side, "drop": drop, "before": before.estimate_text,
                    "after": str(-after.estimate), "better_move": before.engine_move}
    return best
