"""Deals: an order of all 144 tiles, seeded or given as tokens.

>>> d = deal_from_seed(1)
>>> " ".join(d.tokens()[:6])
'9B AU 8C 4C 4B 3C'
>>> parse_deal(d.text()) == d
True
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import List, Optional, Tuple

from solver.errors import InputError
from solver.pyramid.tiles import CANONICAL_DECK, TILES, parse_tile
from solver.cext.rng import shuffled_indices
from solver.rng import check_seed

DEAL_SIZE = 144
RESERVE_SLOTS = 9


@dataclass(frozen=True)
class Deal:
    """The 144 faces in deal order; ``seed`` is set when it came from a seed."""

    faces: Tuple[int, ...]
    seed: Optional[int] = None

    def tokens(self) -> List[str]:
        return [TILES[f].token for f in self.faces]

    def text(self) -> str:
        """The deal as 144 space-separated tokens (parses back with parse_deal)."""
        return " ".join(self.tokens())

    def __eq__(self, other) -> bool:
        return isinstance(other, Deal) and self.faces == other.faces

    def __hash__(self) -> int:
        return hash(self.faces)


def deal_from_seed(seed: int) -> Deal:
    """Deal number ``seed``: the canonical deck shuffled by SplitMix64(seed).

    Uses the compiled shuffle; ``solver.rng.shuffled`` is its reference twin.
    """
    check_seed(seed)
    return Deal(tuple(CANONICAL_DECK[i] for i in shuffled_indices(DEAL_SIZE, seed)), seed)


def parse_deal(text: str) -> Deal:
    """A deal from 144 whitespace- or comma-separated tokens; checks the tile set."""
    if not isinstance(text, str):
        raise InputError("a deal must be text: 144 tile tokens")
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise InputError("the deal is empty: expected 144 tile tokens")
    faces = tuple(parse_tile(tok).face for tok in tokens)
    counts = Counter(faces)
    for tile in TILES:
        have = counts.get(tile.face, 0)
        if have > tile.copies:
            raise InputError(
                f"the deal has {have} copies of {tile.token}; the set has {tile.copies}"
            )
    if len(faces) != DEAL_SIZE:
        missing = [t.token for t in TILES if counts.get(t.face, 0) < t.copies]
        detail = f" (missing {', '.join(missing[:5])}{'...' if len(missing) > 5 else ''})" if missing else ""
        raise InputError(f"the deal has {len(faces)} tiles, expected {DEAL_SIZE}{detail}")
    return Deal(faces)
