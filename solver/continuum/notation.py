"""One-line notations for rows and moves; parsers and formatters round-trip.

A row lists stacks from the West end to the East end.  Pyramids in a stack are
written bottom first and separated by spaces, stacks by ``|``, and the continuum
is ``||``.  A move is the moving pyramid and an arrow: ``rS>`` onto the stack to
the East, ``rS<`` onto the stack to the West, ``rS>_`` / ``rS<_`` as a new stack
in the gap (or beyond the outer end).  Switches name both pyramids: ``rS x yS``
for the border switch, ``rS k yS`` for a king.

>>> row = parse_row("rL rM rS | bL bM bS || yL yM yS | gL gM gS")
>>> format_row(row) == "rL rM rS | bL bM bS || yL yM yS | gL gM gS"
True
>>> format_move(parse_move("bm<_")), format_move(parse_move("rSxyS"))
('bM<_', 'rS x yS')

The text of a row or a move is spelled by the objects themselves
(``Row.text()``, ``Move.text()`` in :mod:`solver.continuum.rules`, which
never imports this module); ``format_row``/``format_move`` are those, and the
parsers here read them back.
"""
from __future__ import annotations

import re

from solver.continuum.pieces import pyramid_id
from solver.continuum.rules import Move, Row, make_row
from solver.errors import InputError

_STEP = re.compile(r"^\s*(\w\w)\s*(<_|>_|<|>)\s*$")
_SWAP = re.compile(r"^\s*(\w\w)\s*([xk])\s*(\w\w)\s*$", re.IGNORECASE)


def format_row(row: Row) -> str:
    """``rL rM rS | bL bM bS || ...``: stacks West to East, bottom first."""
    return row.text()


def parse_row(text: str) -> Row:
    """Parse a row; InputError names the first problem (bad token, duplicate, ...)."""
    if not isinstance(text, str) or not text.strip():
        raise InputError("the row is empty: expected e.g. 'rL rM rS | bL bM bS || yL yM yS | gL gM gS'")
    halves = text.split("||")
    if len(halves) != 2:
        raise InputError(f"a row has exactly one continuum '||', this one has {len(halves) - 1}")
    sides = []
    for name, half in zip(("West", "East"), halves):
        stacks = []
        for part in half.split("|"):
            tokens = part.split()
            if not tokens:
                raise InputError(f"the {name} side has an empty stack (a '|' with nothing on one side)")
            stacks.append([pyramid_id(tok) for tok in tokens])
        sides.append(stacks)
    return make_row(*sides)


def format_move(move: Move) -> str:
    """``rS>``, ``rS<_``, ``rS x yS``, ``rS k yS`` (see :meth:`Move.text`)."""
    return move.text()


def parse_move(text: str) -> Move:
    """A move from its notation (``rS>``, ``rS<_``, ``rS x yS``, ``rS k yS``)."""
    if not isinstance(text, str):
        raise InputError(f"not a move: {text!r}")
    m = _STEP.match(text)
    if m:
        d = 1 if m.group(2)[0] == ">" else -1
        kind = "gap" if m.group(2).endswith("_") else "onto"
        return Move(kind, pyramid_id(m.group(1)), direction=d)
    m = _SWAP.match(text)
    if m:
        a, b = pyramid_id(m.group(1)), pyramid_id(m.group(3))
        if a == b:
            raise InputError(f"a switch needs two different pyramids: {text!r}")
        return Move("switch" if m.group(2).lower() == "x" else "king", a, b)
    raise InputError(f"not a move: {text!r} (expected e.g. rS>, rS<_, rS x yS, rS k yS)")
