"""Terminal pictures of rows and plans (pure functions returning ``str``).

>>> print(render_row(parse_row("rL rM | bL bM bS rS || yL yM yS | gL gM gS")))
   rS
   bS    yS gS
rM bM    yM gM
rL bL || yL gL
"""
from __future__ import annotations

from typing import Iterable

from solver.continuum.notation import format_move, parse_row  # noqa: F401 (doctest)
from solver.continuum.pieces import pyramid_name, value
from solver.continuum.rules import Move, Row, apply


def render_row(row: Row) -> str:
    """Stacks drawn upright, West end on the left; ``||`` marks the continuum."""
    height = max(len(st) for side in row.sides for st in side)
    return "\n".join(_line(row, level) for level in range(height - 1, -1, -1))


def _line(row: Row, level: int) -> str:
    def cells(side):
        return " ".join(pyramid_name(st[level]) if level < len(st) else "  " for st in side)
    gap = " || " if level == 0 else "    "
    return (cells(row.west) + gap + cells(row.east)).rstrip()


def move_pips(row: Row, move: Move) -> int:
    if move.kind == "king":
        return 0
    if move.kind == "switch":
        return value(move.pid) + value(move.other)
    return value(move.pid)


def render_plan(start: Row, plan: Iterable[Move]) -> str:
    """One numbered line per move: the move, its pips, and the row after it."""
    lines, row, total = [], start, 0
    for n, move in enumerate(plan, 1):
        pips = move_pips(row, move)
        total += pips
        row = apply(row, move)
        lines.append(f"{n:3d}. {format_move(move):9s} {pips} pip{'s' if pips != 1 else ' '}  "
                     f"(total {total:3d})  {row.text()}")
    return "\n".join(lines)
