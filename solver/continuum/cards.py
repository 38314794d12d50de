"""The 34-card deck, the seeded shuffle and the dice (rules/continuum.md).

Canonical order: suits ``s h d c``, each with ranks ``A 2 3 4 5 J Q K``, then
two jokers ``X``.  Game N shuffles it by Fisher-Yates driven by SplitMix64(N);
the same generator then rolls every die and makes every random policy choice,
in the order the game asks for them.

>>> rng = SplitMix64(0)
>>> deck = shuffled_deck(rng)
>>> len(deck), deck.count("X"), sorted(set(c[0] for c in deck))
(34, 2, ['2', '3', '4', '5', 'A', 'J', 'K', 'Q', 'X'])
>>> card_values("4h"), card_values("X"), card_values("Kd")
((4,), (1, 2, 3, 4, 5), ())
"""
from __future__ import annotations

from typing import List, Tuple

from solver.rng import SplitMix64

RANKS = "A2345JQK"
SUITS = "shdc"
CANONICAL_DECK: Tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + ("X", "X")


def shuffled_deck(rng: SplitMix64) -> List[str]:
    """The deck shuffled in place order: i from 33 down to 1, j = next() mod (i+1)."""
    deck = list(CANONICAL_DECK)
    for i in range(len(deck) - 1, 0, -1):
        j = rng.next() % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def roll(rng: SplitMix64) -> int:
    """One die: 1 + next() mod 6."""
    return 1 + rng.below(6)


def card_values(card: str) -> Tuple[int, ...]:
    """The pip values a card may be played for: ace 1, 2-5 face, joker any of 1-5,
    none for the king, jack and queen (they act differently or not at all)."""
    r = card[0]
    if r == "A":
        return (1,)
    if r in "2345":
        return (int(r),)
    if r == "X":
        return (1, 2, 3, 4, 5)
    return ()
