"""The arrangement that meets a contract leaving the fewest points in hand.

Exhaustive search over the hand's own cards (no draws): straights first, each a
run of 4 to 13 places on the rank circle whose places hold the natural card or
a joker; then trios, which take any suits of their rank (once the straights are
fixed, which copy a trio takes no longer matters).  Combinations of one kind
are generated in non-decreasing key order so each set is seen once, and a branch
stops when even laying every remaining card could not beat the best found.

>>> from solver.continental.notation import parse_hand, format_cards
>>> melds, left = best_arrangement(parse_hand("As 2s 3s 4s Kh Kd X 7c"), 2)
>>> [format_cards(m) for m in melds], left
(['As 2s 3s 4s', 'Kh Kd X'], 7)
>>> best_arrangement(parse_hand("As 3h 5d 7c 9s Jh Kd"), 1) is None
True
"""
from __future__ import annotations

from typing import Iterator, List, NamedTuple, Optional, Sequence, Tuple

from solver.continental.notation import (
    JOKER, N_RANKS, N_SUITS, card_points, hand_points, make_card,
)
from solver.continental.rules import STRAIGHT_MAX, STRAIGHT_MIN, TRIO_MIN, get_round

Meld = List[int]


def _straights(res: List[int], joker_limit: bool) -> Iterator[Tuple[tuple, Meld]]:
    """Every straight the residual hand can form, with a sortable key."""
    for s in range(N_SUITS):
        for start in range(N_RANKS):
            # places: natural if held, joker if one is left; extend run by run
            def grow(run: Meld, naturals: int, jokers: int):
                length = len(run)
                if length >= STRAIGHT_MIN and naturals >= 1 and (
                        not joker_limit or jokers <= naturals):
                    yield (s, start, length, tuple(run)), list(run)
                if length == STRAIGHT_MAX:
                    return
                c = make_card(s, start + length)
                if res[c] > 0:
                    res[c] -= 1
                    run.append(c)
                    yield from grow(run, naturals + 1, jokers)
                    run.pop()
                    res[c] += 1
                if res[JOKER] > 0:
                    res[JOKER] -= 1
                    run.append(JOKER)
                    yield from grow(run, naturals, jokers + 1)
                    run.pop()
                    res[JOKER] += 1
            yield from grow([], 0, 0)


def _trios(res: List[int], joker_limit: bool) -> Iterator[Tuple[tuple, Meld]]:
    for r in range(N_RANKS):
        held = [make_card(s, r) for s in range(N_SUITS) for _ in range(res[make_card(s, r)])]
        for k in range(1, len(held) + 1):
            for j in range(0, res[JOKER] + 1):
                if k + j >= TRIO_MIN and (not joker_limit or j <= k):
                    yield (r, k, j), held[:k] + [JOKER] * j


class Arrangement(NamedTuple):
    """What :func:`search_arrangement` found.

    ``complete`` is False when the node limit stopped the search: then ``melds``
    is the best arrangement seen so far (or None if none was seen), not a proof.
    """

    melds: Optional[List[Meld]]
    points_left: Optional[int]
    nodes: int
    complete: bool


def search_arrangement(hand: Sequence[int], round_number: int, *, joker_limit: bool = True,
                       max_cards: Optional[int] = None,
                       node_limit: Optional[int] = None) -> Arrangement:
    """Branch and bound for the arrangement leaving the fewest points (see the module doc).

    ``max_cards`` caps the cards laid (in play a player keeps a card to discard);
    ``node_limit`` caps the combinations placed.
    """
    cap = sum(hand) if max_cards is None else max_cards
    rnd = get_round(round_number)
    kinds = ["straight"] * rnd.straights + ["trio"] * rnd.trios
    res = list(hand)
    total = hand_points(hand)
    best: List = [None, -1]  # melds, points laid
    chosen: List[Meld] = []
    nodes = [0]
    stopped = [False]

    def dfs(depth: int, last_key, laid: int, count: int) -> None:
        if depth == len(kinds):
            if laid > best[1]:
                best[0], best[1] = [list(m) for m in chosen], laid
            return
        if laid + hand_points(res) <= best[1]:
            return
        gen = _straights if kinds[depth] == "straight" else _trios
        same = depth > 0 and kinds[depth - 1] == kinds[depth]
        for key, meld in list(gen(res, joker_limit)):
            if same and key < last_key or count + len(meld) > cap:
                continue
            if best[1] == total:
                return  # every card laid: nothing can beat it
            if node_limit is not None and nodes[0] >= node_limit:
                stopped[0] = True
                return
            nodes[0] += 1
            for c in meld:
                res[c] -= 1
            chosen.append(meld)
            dfs(depth + 1, key, laid + sum(card_points(c) for c in meld), count + len(meld))
            chosen.pop()
            for c in meld:
                res[c] += 1

    dfs(0, None, 0, 0)
    left = None if best[0] is None else hand_points(hand) - best[1]
    return Arrangement(best[0], left, nodes[0], not stopped[0])


def best_arrangement(hand: Sequence[int], round_number: int, *, joker_limit: bool = True,
                     max_cards: Optional[int] = None) -> Optional[Tuple[List[Meld], int]]:
    """(melds, points left) for the best way to meet the contract, or None if it cannot.

    Exhaustive (no node limit).
    """
    found = search_arrangement(hand, round_number, joker_limit=joker_limit, max_cards=max_cards)
    return None if found.melds is None else (found.melds, found.points_left)
