"""Cards, packs and hands: the notation of rules/continental.md, both ways.

A card is an integer: ``suit * 13 + rank`` for a natural card (suits ``s h d c``,
ranks ``A 2 ... 9 T J Q K`` as 0-12) and ``JOKER`` (52) for a joker.  A hand is a
count vector over those 53 kinds, because duplicate cards are interchangeable
for every question the analyser answers.

>>> h = parse_hand("As 2s 3s 4s Kh Kd X")
>>> format_hand(h)
'As 2s 3s 4s Kh Kd X'
>>> parse_hand(format_hand(h)) == h
True
>>> card_points(parse_card("X")), card_points(parse_card("As")), card_points(parse_card("7c"))
(50, 20, 7)
>>> Pack().size, Pack(decks=3, jokers_per_deck=3).size
(108, 165)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, List, Sequence, Tuple

from solver.errors import InputError

RANKS = "A23456789TJQK"
SUITS = "shdc"
N_RANKS = 13
N_SUITS = 4
JOKER = 52
N_KINDS = 53


def card_rank(card: int) -> int:
    """Rank 0-12 of a natural card (A=0 ... K=12)."""
    return card % N_RANKS


def card_suit(card: int) -> int:
    """Suit 0-3 of a natural card (s h d c)."""
    return card // N_RANKS


def make_card(suit: int, rank: int) -> int:
    return suit * N_RANKS + rank % N_RANKS


def card_points(card: int) -> int:
    """Points of a card left in the hand: joker 50, ace 20, K/Q/J 10, else face value."""
    if card == JOKER:
        return 50
    rank = card_rank(card)
    if rank == 0:
        return 20
    return 10 if rank >= 9 else rank + 1


def format_card(card: int) -> str:
    if card == JOKER:
        return "X"
    return RANKS[card_rank(card)] + SUITS[card_suit(card)]


def parse_card(token: str) -> int:
    """The card named by ``token``: ``As``, ``Th``, ``X`` (case-insensitive rank, ``10`` for T)."""
    text = token.strip() if isinstance(token, str) else ""
    if text.upper() == "X":
        return JOKER
    if len(text) == 3 and text[:2] == "10":
        text = "T" + text[2]
    if len(text) == 2:
        rank = RANKS.find(text[0].upper())
        suit = SUITS.find(text[1].lower())
        if rank >= 0 and suit >= 0:
            return make_card(suit, rank)
    raise InputError(f"unknown card {token!r} (expected e.g. As, Th, 7c or X)")


@dataclass(frozen=True)
class Pack:
    """The pack: ``decks`` 52-card decks, each with ``jokers_per_deck`` jokers."""

    decks: int = 2
    jokers_per_deck: int = 2

    def __post_init__(self) -> None:
        for name, value, low, high in (("decks", self.decks, 1, 8), ("jokers per deck", self.jokers_per_deck, 0, 8)):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise InputError(f"{name} must be an integer from {low} to {high}, not {value!r}")

    @property
    def jokers(self) -> int:
        return self.decks * self.jokers_per_deck

    @property
    def size(self) -> int:
        return self.decks * (52 + self.jokers_per_deck)

    def copies(self, card: int) -> int:
        """How many physical cards of this kind the pack holds."""
        return self.jokers if card == JOKER else self.decks

    def canonical_order(self) -> List[int]:
        """Per deck: suits s h d c, ranks A..K, then that deck's jokers (vectors.md)."""
        one = list(range(52)) + [JOKER] * self.jokers_per_deck
        return one * self.decks


Hand = Tuple[int, ...]
"""A hand: a tuple of 53 counts, indexed by card."""


def hand_from_cards(cards: Iterable[int]) -> Hand:
    counts = [0] * N_KINDS
    for c in cards:
        counts[c] += 1
    return tuple(counts)


def hand_cards(hand: Sequence[int]) -> List[int]:
    """The cards of a hand in sorted order (suit, rank, jokers last)."""
    return [c for c in range(N_KINDS) for _ in range(hand[c])]


def hand_size(hand: Sequence[int]) -> int:
    return sum(hand)


def hand_points(hand: Sequence[int]) -> int:
    return sum(card_points(c) * n for c, n in enumerate(hand))


def format_cards(cards: Iterable[int]) -> str:
    return " ".join(format_card(c) for c in cards)


def format_hand(hand: Sequence[int]) -> str:
    return format_cards(hand_cards(hand))


def check_hand(hand: Sequence[int], pack: Pack) -> None:
    """Raise InputError if the hand holds more copies of a card than the pack."""
    for c, n in enumerate(hand):
        if n > pack.copies(c):
            raise InputError(
                f"the hand has {n} copies of {format_card(c)}; the pack holds {pack.copies(c)}"
            )


def parse_hand(text: str, *, pack: Pack = Pack()) -> Hand:
    """A hand from whitespace- or comma-separated cards, checked against ``pack``."""
    if not isinstance(text, str):
        raise InputError("a hand must be text: cards such as 'As 2s X'")
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise InputError("the hand is empty")
    hand = hand_from_cards(parse_card(t) for t in tokens)
    check_hand(hand, pack)
    return hand
