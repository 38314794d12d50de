"""Tiles: the 38 faces, their notation, and the 30 kinds the rules distinguish.

A *face* is what a tile shows (``EW`` and ``SW`` are different faces); a *kind*
is what the rules see (all winds are one kind).  Faces are numbered in the
canonical deal order of rules/pyramid.md.

>>> parse_tile("5D").rank, parse_tile("5D").suit
(5, 'D')
>>> parse_tile("NW").kind == parse_tile("EW").kind
True
>>> str(parse_tile("rd"))
'RD'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from solver.errors import InputError

SUITS = "BCD"
WIND_FACES = ("EW", "SW", "WW", "NW")
SEASON_FACES = ("SP", "SU", "AU", "WI")
DRAGON_FACES = ("RD", "GD", "WD")

WIND_RANK = 0
SEASON_RANK = 10
KIND_WIND = 27
KIND_SEASON = 28
KIND_DRAGON = 29
N_KINDS = 30


@dataclass(frozen=True)
class Tile:
    """One face.  ``kind`` is 0-26 for suited tiles (suit*9 + rank-1), 27 wind,
    28 season, 29 dragon; ``rank`` is 0-10 or None for a dragon."""

    face: int
    token: str
    kind: int
    rank: Optional[int]
    suit: Optional[str]
    copies: int

    @property
    def is_dragon(self) -> bool:
        return self.kind == KIND_DRAGON

    def __str__(self) -> str:
        return self.token


def _build() -> Tuple[Tile, ...]:
    faces: List[Tile] = []
    for s, suit in enumerate(SUITS):
        for rank in range(1, 10):
            faces.append(Tile(len(faces), f"{rank}{suit}", s * 9 + rank - 1, rank, suit, 4))
    for token in WIND_FACES:
        faces.append(Tile(len(faces), token, KIND_WIND, WIND_RANK, None, 3))
    for token in SEASON_FACES:
        faces.append(Tile(len(faces), token, KIND_SEASON, SEASON_RANK, None, 3))
    for token in DRAGON_FACES:
        faces.append(Tile(len(faces), token, KIND_DRAGON, None, None, 4))
    return tuple(faces)


TILES: Tuple[Tile, ...] = _build()
"""All 38 faces in canonical order."""

_BY_TOKEN: Dict[str, Tile] = {t.token: t for t in TILES}

CANONICAL_DECK: Tuple[int, ...] = tuple(t.face for t in TILES for _ in range(t.copies))
"""The 144 faces in canonical order (rules/pyramid.md, deal step 1)."""

assert len(CANONICAL_DECK) == 144


def parse_tile(token: str) -> Tile:
    """The face named by a two-character token (case-insensitive)."""
    tile = _BY_TOKEN.get(token.strip().upper()) if isinstance(token, str) else None
    if tile is None:
        raise InputError(f"unknown tile {token!r} (expected e.g. 5D, EW, SP, RD)")
    return tile


def kind_rank(kind: int) -> Optional[int]:
    """The rank of a kind: 1-9 suited, 0 wind, 10 season, None dragon."""
    if kind < 27:
        return kind % 9 + 1
    return {KIND_WIND: WIND_RANK, KIND_SEASON: SEASON_RANK}.get(kind)


def kind_suit(kind: int) -> Optional[int]:
    """The suit index 0-2 of a suited kind, else None."""
    return kind // 9 if kind < 27 else None
