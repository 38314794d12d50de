"""Laying off: cards added to the combinations on the table, and straight jokers won back.

After going down (on a later turn) a player adds cards to any displayed
combination: a trio takes cards of its rank and jokers within the limit; a
straight grows at either end up to 13 cards.  A joker can be taken only from a
straight (a trio's joker stands for no particular card) by playing the card it
stands for; the rules engine does so only when the joker can at once be laid on
another combination (docs/continental.md, decision 8).

>>> straight = Meld("straight", [11, 12, 0, 1], 0)        # Qs Ks As 2s
>>> lay_off_spots(straight, 2, True)                      # 3s goes on top
[[11, 12, 0, 1, 2]]
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List

from solver.continental.notation import JOKER, N_KINDS, card_points
from solver.continental.rules import is_straight, is_trio, joker_stands_for


@dataclass
class Meld:
    """A combination on the table: ``kind`` trio or straight, its ``cards`` (a
    straight in run order, each joker at its place) and the seat that laid it."""

    kind: str
    cards: List[int]
    owner: int

    def copy(self) -> "Meld":
        return Meld(self.kind, list(self.cards), self.owner)


def lay_off_spots(meld: Meld, card: int, joker_limit: bool) -> List[List[int]]:
    """The new card lists of ``meld`` with ``card`` added (empty if it cannot go)."""
    cards = meld.cards
    if meld.kind == "trio":
        grown = cards + [card]
        return [grown] if is_trio(grown, joker_limit=joker_limit) else []
    out = []
    for grown in (cards + [card], [card] + cards):
        if is_straight(grown, joker_limit=joker_limit):
            out.append(grown)
    return out


def lay_off_all(hand: List[int], melds: List[Meld], seat: int, keep: int, joker_limit: bool,
                log: list) -> None:
    """Lay off cards of ``hand`` (most points first) and win back straight jokers,
    keeping at least ``keep`` cards in hand.  ``hand`` and ``melds`` change in
    place; each step is logged as ("layoff" | "swap-joker", seat, card)."""
    changed = True
    while changed and sum(hand) > keep:
        changed = False
        for card in sorted((c for c in range(N_KINDS) if hand[c]), key=card_points, reverse=True):
            for meld in melds:
                spots = lay_off_spots(meld, card, joker_limit)
                if spots:
                    meld.cards = spots[0]
                    hand[card] -= 1
                    log.append(("layoff", seat, card))
                    changed = True
                    break
            if changed:
                break
            if card == JOKER:
                continue
            if _swap_joker(hand, melds, seat, card, joker_limit, log):
                changed = True
                break


def _swap_joker(hand, melds, seat, card, joker_limit, log) -> bool:
    """Play ``card`` in place of the straight joker it stands for, when that joker
    can at once be laid on another combination."""
    for meld in melds:
        if meld.kind != "straight":
            continue
        for i, c in enumerate(meld.cards):
            if c == JOKER and joker_stands_for(meld.cards, i) == card:
                others = [m for m in melds if m is not meld and lay_off_spots(m, JOKER, joker_limit)]
                if others:
                    meld.cards[i] = card
                    hand[card] -= 1
                    log.append(("swap-joker", seat, card))
                    others[0].cards = lay_off_spots(others[0], JOKER, joker_limit)[0]
                    return True
    return False
