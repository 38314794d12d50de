"""Replaying a record: the first illegal move, with its number, side and reason.

>>> r = replay_text("1. (e1-e3)")
>>> r.legal, r.error
(False, "1. (e1-e3): Red's move: no pyramid of Red's on e1")
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional

from solver.boundary.notation import (HalfMove, format_move, format_position, format_square,
                                      parse_move, parse_record)
from solver.boundary.rules import (BASES, PLAYER_NAMES, Move, Position, owner, ray, size,
                                   world)


@dataclass
class Replay:
    """What a replay found; ``positions[i]`` is the position after ``i`` half-moves."""

    legal: bool
    plies: int
    positions: List[Position]
    halves: List[HalfMove]
    error: Optional[str] = None
    resigned: Optional[int] = None
    winner: Optional[int] = None
    illegal: Optional[HalfMove] = None

    @property
    def final(self) -> Position:
        return self.positions[-1]

    def as_json(self) -> dict:
        return {
            "legal": self.legal,
            "plies": self.plies,
            "final": format_position(self.final),
            "error": self.error,
            "illegal_move": None if self.illegal is None else {
                "number": self.illegal.number, "side": PLAYER_NAMES[self.illegal.side].lower(),
                "move": self.illegal.text},
            "resigned": None if self.resigned is None else PLAYER_NAMES[self.resigned].lower(),
            "winner": None if self.winner is None else PLAYER_NAMES[self.winner].lower(),
        }


def why_illegal(pos: Position, move: Move) -> str:
    """A short reason a move that is not in ``pos.legal_moves()`` fails."""
    s0, s1, p0, p1 = move
    me = pos.side
    name = PLAYER_NAMES[me]
    if pos.winner() is not None:
        return "the game is already over"
    if s0 is not None:
        if pos.stones.get(s0) != me:
            return f"no stone of {name}'s on {format_square(s0)}"
        if world(s0) != world(s1):
            return "a stone never crosses the continuum"
        found = [n for n, (t, _k) in enumerate(pos.stone_targets(s0)) if t == s1]
        if not found:
            return f"the stone cannot go from {format_square(s0)} to {format_square(s1)}"
    if not pos.stacks[p0] or owner(pos.stacks[p0][-1]) != me:
        return f"no pyramid of {name}'s on {format_square(p0)}"
    if s0 is not None and world(p0) != world(s0):
        return "the pyramid is not in the stone's world"
    if s0 is None and world(p0) != world(p1):
        return "a pyramid crosses the continuum only after a stone move"
    if s0 is not None and p1 in BASES[1 - me]:
        return "a pyramid may not end on an opponent's base"
    if p1 in BASES[1 - me]:
        return "a pyramid may not end on an opponent's base"
    trial = pos.clone()
    steps = size(pos.stacks[p0][-1])
    if s0 is not None:
        trial.stones[s1] = trial.stones.pop(s0)
        steps = next(k for t, k in pos.stone_targets(s0) if t == s1)
    if p1 not in trial.pyramid_targets(p0, steps, may_cross=s0 is not None):
        lines = [d for d in range(8) if (ray(p0, d, steps) or [None])[-1] == p1]
        if not lines:
            return f"{format_square(p0)}-{format_square(p1)} is not a straight move of {steps}"
        return f"{format_square(p0)}-{format_square(p1)} is blocked or lands on an occupied square"
    return "it leaves fewer than 2 of the mover's pyramids in a world"


def replay(halves: List[HalfMove], *, start: Optional[Position] = None) -> Replay:
    """Play the half-moves from ``start`` (the start position) until one is illegal."""
    pos = (start or Position.start()).clone()
    positions = [pos.clone()]
    out = Replay(True, 0, positions, halves)
    for h in halves:
        if h.text.lower() == "resign":
            out.resigned = h.side
            break
        move = parse_move(h.text)
        if h.side != pos.side or move not in pos.legal_moves():
            reason = (f"it is {PLAYER_NAMES[pos.side]}'s turn" if h.side != pos.side
                      else why_illegal(pos, move))
            out.legal = False
            out.illegal = h
            out.error = f"{h.label()}: {PLAYER_NAMES[h.side]}'s move: {reason}"
            break
        pos.apply(move)
        positions.append(pos.clone())
        out.plies += 1
        if pos.winner() is not None:
            out.winner = pos.winner()
            break
    return out


def replay_text(text: str, *, start: Optional[Position] = None) -> Replay:
    """Parse a record (InputError if malformed) and replay it."""
    return replay(parse_record(text), start=start)
