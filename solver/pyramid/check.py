"""The independent solution checker: replays moves through the reference rules.

It shares nothing with the compiled search, so a ``won`` verdict is printed only
after a second implementation of the rules has agreed with it.

>>> from solver.pyramid.deal import deal_from_seed
>>> report = check_solution(deal_from_seed(1), ["9B@1e5", "4C@1e4"])
>>> report.valid, report.error
(False, 'move 2 4C@1e4: 4C fits no tile next to 1e4')
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import List, Optional, Sequence, Union

from solver.cext import pyramid_check as _compiled
from solver.errors import InputError
from solver.files import excerpt
from solver.pyramid.deal import DEAL_SIZE, Deal
from solver.pyramid.geometry import BELOW, POSITIONS, SIDES, START
from solver.pyramid.rules import FIT, Move, PyramidGame, PyramidState, parse_move
from solver.pyramid.tiles import CANONICAL_DECK, TILES

_compiled.load(SIDES, BELOW, START, [t.kind for t in TILES], FIT["continuous"], FIT["wild-dragons"],
               [t.token for t in TILES], [p.name for p in POSITIONS], CANONICAL_DECK)
_VARIANT_CODE = {"continuous": 0, "wild-dragons": 1}


@dataclass(frozen=True)
class CheckReport:
    """``valid`` means every move was legal and the deal was won."""

    valid: bool
    moves_played: int
    error: Optional[str] = None          # the first problem, in words
    error_index: Optional[int] = None    # 1-based number of the offending move
    state: Optional[PyramidState] = None

    def to_dict(self) -> dict:
        return {"valid": self.valid, "moves_played": self.moves_played,
                "error": self.error, "error_move": self.error_index}


def check_solution(deal: Deal, moves: Sequence[Union[str, Move]], *,
                   variant: str = "continuous") -> CheckReport:
    """Replay ``moves`` (``TILE@POS`` strings or Move objects) from the deal's start."""
    state = PyramidGame(deal, variant).new_initial_state()
    for number, item in enumerate(moves, start=1):
        try:
            move = parse_move(item) if isinstance(item, str) else item
            state.apply(move)
        except InputError as exc:
            return CheckReport(False, number - 1, f"move {number} {str(item).strip()}: {exc}", number, state)
    if state.placed < DEAL_SIZE:
        return CheckReport(False, state.placed,
                           f"the solution stops after {state.placed} moves; {DEAL_SIZE} are needed",
                           None, state)
    return CheckReport(True, state.placed, None, None, state)


def name_and_check(deal: Deal, kind_line, *, variant: str = "continuous", prefix: Sequence[Move] = ()):
    """The compiled twin of naming a line's tiles and :func:`check_solution`.

    ``kind_line`` is a line of (kind, position) pairs, such as the search's.
    Each kind is named by the face in the lowest reserve slot holding one.
    ``prefix``: moves played first, as given (their faces kept).  Returns (moves as ``TILE@POS`` text, slots 1-9, report): the report is
    valid only when every move was legal and the deal was won.  The compiled
    checker (``cext/pyramid_check.pyx``) is a small kernel of its own, loaded
    with the reference tables; it shares nothing with the search.

    >>> from solver.pyramid.deal import deal_from_seed
    >>> text, slots, report = name_and_check(deal_from_seed(1), [(8, 38), (28, 37)])
    >>> text, slots, report.valid, report.error
    (['9B@1e5', 'SU@1e4'], [1, 1], False, 'the solution stops after 2 moves; 144 are needed')
    """
    text, slots, error = _compiled.name_and_check(deal.faces, kind_line, _VARIANT_CODE[variant],
                                                  [(m.tile, m.pos) for m in prefix])
    if error is not None:
        number, reason = error
        return text, slots, CheckReport(False, number - 1, f"move {number}: {reason}", number)
    if len(text) < DEAL_SIZE:
        return text, slots, CheckReport(False, len(text), f"the solution stops after {len(text)} moves; "
                                                          f"{DEAL_SIZE} are needed")
    return text, slots, CheckReport(True, len(text))


def replay(deal: Deal, moves: Sequence[Union[str, Move]], *, variant: str = "continuous") -> PyramidState:
    """The state after ``moves``; raises IllegalMove naming the first bad one."""
    state = PyramidGame(deal, variant).new_initial_state()
    for number, item in enumerate(moves, start=1):
        move = parse_move(item) if isinstance(item, str) else item
        reason = state.why_illegal(move)
        if reason is not None:
            raise InputError(f"move {number} {move}: {reason}")
        state.apply(move)
    return state


def parse_solution_text(text: str) -> List[str]:
    """Moves from a solution file: one ``TILE@POS`` per line, or the JSON object
    that ``solve pyramid --json`` prints (its ``line``; ``moves`` in files
    written before the contract).  Slot notes, ``#`` comments and lines
    without a move (such as the report around ``solve pyramid``'s solution)
    are ignored, so that report can be checked as it stands; but a file of text
    with no move at all is the wrong file, bad input.

    A line meant as a move must be one: a word with ``@`` that does not parse,
    or a numbered line (``12. ...``) without a move, is bad input naming the
    line, and numbered moves must count 1, 2, 3, ... so that an error names
    the move by the number the file gives it.

    >>> parse_solution_text("  1. 5D@1e5   from reserve slot 2\\nverdict: won\\n2. 4C@1e4")
    ['5D@1e5', '4C@1e4']
    >>> parse_solution_text("1. 5D@1e5\\n2. hello")
    Traceback (most recent call last):
    ...
    solver.errors.InputError: solution line 2: '2. hello' is numbered but holds no move (TILE@POS)
    """
    import json

    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise InputError(f"the solution file is not valid JSON: {exc.msg} at line {exc.lineno}") from None
        moves = None
        if isinstance(data, dict):
            moves = data.get("line") if "line" in data else data.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise InputError("the JSON solution has no 'line' list of TILE@POS strings")
        for number, move in enumerate(moves, start=1):
            _check_move_text(move, f"the JSON solution's move {number}")
        return moves
    moves, seen_text = [], False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        seen_text = True
        where = f"solution line {number}"
        label = re.match(r"(\d+)\.(\s|$)", line)
        token = next((w for w in line.split() if "@" in w), None)
        if token is None:
            if label:
                raise InputError(f"{where}: {excerpt(line)} is numbered but holds no move (TILE@POS)")
            continue
        _check_move_text(token, where)
        if label and label.group(1).lstrip("0") != str(len(moves) + 1):
            raise InputError(f"{where}: the move numbered {excerpt(label.group(1), 20)} is move "
                             f"{len(moves) + 1} of the file (numbered moves count 1, 2, 3, ...)")
        moves.append(token)
    if not moves and seen_text:
        raise InputError("the solution file holds text but no move (TILE@POS)")
    return moves


def _check_move_text(text: str, where: str) -> None:
    """A word meant as a move that does not parse is bad input (exit 2), not an invalid solution."""
    try:
        parse_move(text)
    except InputError as exc:
        raise InputError(f"{where}: {excerpt(text)} is not a move: {exc}") from None
