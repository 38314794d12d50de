"""The rules of Continental in code: rounds, contracts, melds and seeded deals.

This is the readable reference of rules/continental.md.  A *meld* as laid on the
table is a list of cards; for a straight the list is in run order, with each
joker at the place of the card it stands for.

>>> ROUNDS[7]
Round(number=7, cards=13, trios=0, straights=3)
>>> from solver.continental.notation import parse_card as p
>>> is_trio([p("Ks"), p("Kh"), p("X")])
True
>>> is_trio([p("Ks"), p("X"), p("X")]), is_trio([p("Ks"), p("X"), p("X")], joker_limit=False)
(False, True)
>>> is_straight([p(c) for c in "Qh Kh Ah 2h".split()])
True
>>> is_straight([p(c) for c in "Kh Ah 2h 4h".split()])
False
>>> " ".join(format_card(c) for c in deal_hand(0, 13))
'Js Jd Td As Ah 8h 5h 2h 2h 3s 9s Qs Ad'
"""
from __future__ import annotations

from typing import Dict, List, NamedTuple, Optional, Sequence

from solver.continental.notation import (
    JOKER, N_RANKS, Pack, card_rank, card_suit, format_card, make_card,
)
from solver.errors import InputError
from solver.rng import check_seed, shuffled

TRIO_MIN = 3
STRAIGHT_MIN = 4
STRAIGHT_MAX = 13


class Round(NamedTuple):
    number: int
    cards: int
    trios: int
    straights: int

    @property
    def contract(self) -> str:
        parts = []
        if self.trios:
            parts.append(f"{self.trios} trio{'s' if self.trios > 1 else ''}")
        if self.straights:
            parts.append(f"{self.straights} straight{'s' if self.straights > 1 else ''}")
        return " + ".join(parts)

    @property
    def kinds(self) -> List[str]:
        """The contract's combinations in search order: trios first, then straights."""
        return ["trio"] * self.trios + ["straight"] * self.straights


ROUNDS: Dict[int, Round] = {
    r.number: r
    for r in (
        Round(1, 7, 2, 0), Round(2, 8, 1, 1), Round(3, 9, 0, 2), Round(4, 10, 3, 0),
        Round(5, 11, 2, 1), Round(6, 12, 1, 2), Round(7, 13, 0, 3),
    )
}


def get_round(number: int) -> Round:
    if isinstance(number, bool) or not isinstance(number, int) or number not in ROUNDS:
        raise InputError(f"round must be 1 to 7, not {number!r}")
    return ROUNDS[number]


def _split(cards: Sequence[int]):
    naturals = [c for c in cards if c != JOKER]
    return naturals, len(cards) - len(naturals)


def _jokers_ok(naturals: int, jokers: int, joker_limit: bool) -> bool:
    """At least one natural card, and (with the limit) no more jokers than naturals."""
    return naturals >= 1 and (not joker_limit or jokers <= naturals)


def is_trio(cards: Sequence[int], *, joker_limit: bool = True) -> bool:
    """Three or more cards of one rank (suits free, duplicates allowed)."""
    naturals, jokers = _split(cards)
    return (
        len(cards) >= TRIO_MIN
        and _jokers_ok(len(naturals), jokers, joker_limit)
        and len({card_rank(c) for c in naturals}) == 1
    )


def straight_start(cards: Sequence[int]) -> Optional[int]:
    """The rank of the first place of a straight given in run order, or None.

    The ranks form a circle of 13, so Q-K-A-2 runs through the ace.
    """
    for i, c in enumerate(cards):
        if c != JOKER:
            return (card_rank(c) - i) % N_RANKS
    return None


def is_straight(cards: Sequence[int], *, joker_limit: bool = True) -> bool:
    """4 to 13 cards of one suit in consecutive ranks on the circle, in run order."""
    naturals, jokers = _split(cards)
    if not STRAIGHT_MIN <= len(cards) <= STRAIGHT_MAX:
        return False
    if not _jokers_ok(len(naturals), jokers, joker_limit):
        return False
    if len({card_suit(c) for c in naturals}) != 1:
        return False
    start = straight_start(cards)
    return all(c == JOKER or card_rank(c) == (start + i) % N_RANKS for i, c in enumerate(cards))


def is_meld(cards: Sequence[int], kind: str, *, joker_limit: bool = True) -> bool:
    return (is_trio if kind == "trio" else is_straight)(cards, joker_limit=joker_limit)


def joker_stands_for(cards: Sequence[int], index: int) -> Optional[int]:
    """The natural card a joker at ``index`` of a straight stands for (None for trios)."""
    start = straight_start(cards)
    naturals = [c for c in cards if c != JOKER]
    if start is None or not naturals:
        return None
    return make_card(card_suit(naturals[0]), start + index)


def deal_order(seed: int, *, pack: Pack = Pack()) -> List[int]:
    """Deal number ``seed``: the canonical pack shuffled by SplitMix64(seed)."""
    check_seed(seed)
    return shuffled(pack.canonical_order(), seed=seed)


def deal_hand(seed: int, cards: int, *, pack: Pack = Pack()) -> List[int]:
    """The first ``cards`` cards of deal ``seed`` (the hand of the odds analysis)."""
    return deal_order(seed, pack=pack)[:cards]
