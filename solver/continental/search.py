"""Hand analysis driven by the compiled kernel: meets, arrangement, deficiency, outs.

``deficiency`` here runs ``solver.cext.continental`` (the reference lives in
``deficiency.py`` and the tests hold the two together).

>>> from solver.continental.notation import parse_hand, format_cards
>>> r = analyse_hand(parse_hand("As 2s 3s 4s Kh Kd 7c 9d"), 2)
>>> r["meets"], r["deficiency"], format_cards(r["improving"])
(False, 1, 'Ks Kh Kd Kc X')
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence

from solver.cext import continental as _fast
from solver.continental.arrange import search_arrangement
from solver.continental.notation import (
    N_KINDS, Pack, check_hand, hand_points, hand_size,
)
from solver.continental.rules import get_round
from solver.errors import InputError

DEFAULT_NODE_LIMIT = 500_000


def check_round_hand(hand: Sequence[int], round_number: int, pack: Pack) -> None:
    """InputError unless ``hand`` fits the pack and holds at least the round's deal.

    Hands may be larger than the deal: penalty cards add to them during play.
    """
    rnd = get_round(round_number)
    check_hand(hand, pack)
    n = hand_size(hand)
    if n < rnd.cards:
        raise InputError(f"round {rnd.number} deals {rnd.cards} cards; the hand has {n}")


def deficiency(hand: Sequence[int], round_number: int, *, pack: Pack = Pack(),
               joker_limit: bool = True) -> int:
    """The deficiency (compiled search)."""
    return _fast.deficiency(hand, round_number, pack.decks, pack.jokers_per_deck, joker_limit)[0]


def improving_cards(hand: Sequence[int], round_number: int, *, pack: Pack = Pack(),
                    joker_limit: bool = True) -> List[int]:
    """Every card whose draw, with some card given up, lowers the deficiency."""
    base = deficiency(hand, round_number, pack=pack, joker_limit=joker_limit)
    out = []
    h = list(hand)
    for c in range(N_KINDS):
        if h[c] >= pack.copies(c):
            continue
        h[c] += 1
        for g in range(N_KINDS):
            if g == c or h[g] == 0:
                continue
            h[g] -= 1
            lower = deficiency(h, round_number, pack=pack, joker_limit=joker_limit) < base
            h[g] += 1
            if lower:
                out.append(c)
                break
        h[c] -= 1
    return out


def analyse_hand(hand: Sequence[int], round_number: int, *, pack: Pack = Pack(),
                 joker_limit: bool = True, node_limit: Optional[int] = DEFAULT_NODE_LIMIT) -> Dict:
    """Everything ``solve continental hand`` shows, as plain data (cards as ints).

    Whether the hand meets the contract comes from the (always exhaustive)
    deficiency search.  The fewest-points arrangement is searched under
    ``node_limit``; ``arrangement`` says ``best`` when that search finished and
    ``unknown`` (with the limit) when it stopped early, in which case ``melds``
    is the best arrangement seen, which does show the contract is met.
    """
    check_round_hand(hand, round_number, pack)
    d = deficiency(hand, round_number, pack=pack, joker_limit=joker_limit)
    found = search_arrangement(hand, round_number, joker_limit=joker_limit,
                               node_limit=node_limit) if d == 0 else None
    if found is not None and found.complete and found.melds is None:
        raise AssertionError("the deficiency search and the arrangement search disagree")
    melds = found.melds if found is not None and found.melds is not None else []
    left = found.points_left if melds else hand_points(hand)
    status = "none" if d else ("best" if found.complete else f"unknown: node limit {node_limit} reached")
    return {
        "round": round_number,
        "meets": d == 0,
        "deficiency": d,
        "melds": melds,
        "points_left": left,
        "arrangement": status,
        "arrangement_nodes": found.nodes if found is not None else 0,
        "improving": [] if d == 0 else improving_cards(
            hand, round_number, pack=pack, joker_limit=joker_limit),
    }
