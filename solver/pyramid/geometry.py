"""The 144 positions of the pyramid and who touches whom.

Positions are numbered level by level, then by file ``a``-``i`` and rank
``1``-``9``; a position is written level + square, for example ``1e5``.

>>> len(POSITIONS), POSITIONS[0].name, POSITIONS[-1].name
(144, '1a2', '4e5')
>>> [POSITIONS[q].name for q in SIDES[position_index("1e5")]]
['1d5', '1f5', '1e4', '1e6']
>>> POSITIONS[BELOW[position_index("2e5")]].name
'1e5'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional, Tuple

from solver.errors import InputError

FILES = "abcdefghi"
LEVEL_SPAN = {1: (0, 8), 2: (1, 7), 3: (2, 6), 4: (4, 4)}  # inclusive 0-based file/rank range


@dataclass(frozen=True)
class Position:
    index: int
    level: int
    file: int  # 0-8 for a-i
    rank: int  # 0-8 for 1-9

    @property
    def name(self) -> str:
        return f"{self.level}{FILES[self.file]}{self.rank + 1}"

    def __str__(self) -> str:
        return self.name


def _squares(level: int):
    lo, hi = LEVEL_SPAN[level]
    corners = {(lo, lo), (lo, hi), (hi, lo), (hi, hi)} if lo != hi else set()
    for f in range(lo, hi + 1):
        for r in range(lo, hi + 1):
            if (f, r) not in corners:
                yield f, r


POSITIONS: Tuple[Position, ...] = tuple(
    Position(i, level, f, r)
    for i, (level, f, r) in enumerate(
        (level, f, r) for level in (1, 2, 3, 4) for f, r in _squares(level)
    )
)
_AT: Dict[Tuple[int, int, int], int] = {(p.level, p.file, p.rank): p.index for p in POSITIONS}
_BY_NAME: Dict[str, int] = {p.name: p.index for p in POSITIONS}

START = _AT[(1, 4, 4)]
"""``1e5``: the only position open on the empty board."""


def _at(level: int, f: int, r: int) -> Optional[int]:
    return _AT.get((level, f, r))


SIDES: Tuple[Tuple[int, ...], ...] = tuple(
    tuple(
        q
        for q in (_at(p.level, p.file - 1, p.rank), _at(p.level, p.file + 1, p.rank),
                  _at(p.level, p.file, p.rank - 1), _at(p.level, p.file, p.rank + 1))
        if q is not None
    )
    for p in POSITIONS
)
"""Orthogonal neighbours on the same level (west, east, south, north)."""

BELOW: Tuple[Optional[int], ...] = tuple(_at(p.level - 1, p.file, p.rank) for p in POSITIONS)
ABOVE: Tuple[Optional[int], ...] = tuple(_at(p.level + 1, p.file, p.rank) for p in POSITIONS)


def position_index(name: str) -> int:
    """The index of a position written like ``1e5`` (case-insensitive)."""
    index = _BY_NAME.get(name.strip().lower()) if isinstance(name, str) else None
    if index is None:
        raise InputError(f"unknown position {name!r} (expected level 1-4 and a square, e.g. 1e5)")
    return index
