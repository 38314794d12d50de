"""Hand analysis driven by the compiled kernel: meets, arrangement, deficiency, outs.

``deficiency`` here runs ``solver.cext.continental`` (the reference lives in
``deficiency.py`` and the tests hold the two together).  :func:`analyse_hand`
answers the `solve` question as a :class:`~solver.game.Result` under
:class:`~solver.game.Limits`: ``node_limit`` caps each search it runs (the
deficiency search, the arrangement search, and each deficiency search of the
improving-card test), ``time_limit`` the whole analysis.  None of these
searches keeps a table, so ``table_mb`` bounds nothing here.

>>> from solver.continental.notation import parse_hand
>>> r = analyse_hand(parse_hand("As 2s 3s 4s Kh Kd 7c 9d"), 2)
>>> r.verdict, r.fields["deficiency"], " ".join(r.fields["improving"])
('lost', 1, 'Ks Kh Kd Kc X')
>>> r = analyse_hand(parse_hand("As 2s 3s 4s Kh Kd 7c 9d"), 2, limits=Limits(node_limit=1))
>>> r.verdict, r.limit, r.fields["deficiency"]
('unknown', 'nodes', None)
"""
from __future__ import annotations

import time
from typing import List, Optional, Sequence, Tuple

from solver.cext import continental as _fast
from solver.continental.arrange import Arrangement, search_arrangement
from solver.continental.notation import (
    N_KINDS, Pack, check_hand, format_card, hand_cards, hand_points, hand_size,
)
from solver.continental.rules import get_round
from solver.errors import InputError
from solver.game import Limits, Result

DEFAULT_NODE_LIMIT = 500_000
DEFAULT_LIMITS = Limits(node_limit=DEFAULT_NODE_LIMIT)
"""The `solve` analysis's defaults: 500,000 nodes per search, no time limit."""

FIELDS = ("round", "contract", "hand", "deficiency", "melds", "points_left", "improving")
"""The hand analysis's fields, present whatever the verdict (None where they do not apply)."""


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
    """The deficiency (compiled search, no limit: it always finishes)."""
    return _fast.deficiency(hand, round_number, pack.decks, pack.jokers_per_deck, joker_limit)[0]


class _Budget:
    """The limits of one analysis: nodes per search, one deadline, nodes spent."""

    def __init__(self, limits: Limits) -> None:
        self.node_limit = limits.node_limit
        self.deadline = None if limits.time_limit is None else time.perf_counter() + limits.time_limit
        self.nodes = 0

    def time_left(self) -> Optional[float]:
        return None if self.deadline is None else self.deadline - time.perf_counter()


def limited_deficiency(hand: Sequence[int], round_number: int, *, pack: Pack, joker_limit: bool,
                       node_limit: Optional[int] = None, time_limit: Optional[float] = None
                       ) -> Tuple[Optional[int], int, Optional[str]]:
    """``(deficiency or None, nodes, limit)``: the compiled search under a node and
    time limit.  A stopped search still proves deficiency 0 when it reached an
    arrangement costing nothing; otherwise it gives None and names the limit."""
    if time_limit is not None and time_limit <= 0:
        return None, 0, "time"
    best, nodes, stopped = _fast.deficiency_limited(hand, round_number, pack.decks, pack.jokers_per_deck,
                                                    joker_limit, node_limit or 0, time_limit or 0.0)
    if stopped is not None and best > 0:
        return None, nodes, stopped
    return best, nodes, None


def _deficiency(budget: _Budget, hand, rnd, pack, joker_limit) -> Tuple[Optional[int], Optional[str]]:
    d, nodes, stopped = limited_deficiency(hand, rnd, pack=pack, joker_limit=joker_limit,
                                           node_limit=budget.node_limit, time_limit=budget.time_left())
    budget.nodes += nodes
    return d, stopped


def _arrangement(budget: _Budget, hand, rnd, joker_limit) -> Tuple[Optional[Arrangement], Optional[str]]:
    """The fewest-points arrangement, or None and the limit that stopped it.

    The arrangement search counts nodes but has no clock; under a time limit it
    is run with node budgets that double (restarting), each only when the rate
    measured so far says it fits in the time left; the nodes of every run count."""
    cap = budget.node_limit
    if budget.deadline is None:
        found = search_arrangement(hand, rnd, joker_limit=joker_limit, node_limit=cap)
        budget.nodes += found.nodes
        return (found, None) if found.complete else (None, "nodes")
    step, rate = 4096, None
    while True:
        left = budget.time_left()
        run = step if cap is None else min(step, cap)
        if left <= 0 or (rate is not None and run > rate * left):
            return None, "time"
        t0 = time.perf_counter()
        found = search_arrangement(hand, rnd, joker_limit=joker_limit, node_limit=run)
        budget.nodes += found.nodes
        if found.complete:
            return found, None
        if cap is not None and run >= cap:
            return None, "nodes"
        rate = found.nodes / max(time.perf_counter() - t0, 1e-6)
        step *= 2


def _improving(budget: _Budget, hand, rnd, pack, joker_limit, base) -> Tuple[Optional[List[int]], Optional[str]]:
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
            d, stopped = _deficiency(budget, h, rnd, pack, joker_limit)
            h[g] += 1
            if stopped is not None:
                return None, stopped
            if d < base:
                out.append(c)
                break
        h[c] -= 1
    return out, None


def improving_cards(hand: Sequence[int], round_number: int, *, pack: Pack = Pack(),
                    joker_limit: bool = True) -> List[int]:
    """Every card whose draw, with some card given up, lowers the deficiency (no limit)."""
    base = deficiency(hand, round_number, pack=pack, joker_limit=joker_limit)
    return _improving(_Budget(Limits()), hand, round_number, pack, joker_limit, base)[0]


def analyse_hand(hand: Sequence[int], round_number: int, *, pack: Pack = Pack(),
                 joker_limit: bool = True, limits: Limits = DEFAULT_LIMITS) -> Result:
    """Does ``hand`` meet round ``round_number``'s contract, and how should it go down?

    ``won``: it meets the contract, and ``melds`` is the arrangement leaving the
    fewest points (``points_left``), proven by exhaustive search.  ``lost``: it
    does not; ``deficiency`` is exact, ``points_left`` is the whole hand and
    ``improving`` lists the cards that would lower the deficiency.  ``unknown``:
    a limit stopped a search; what was not proven is None (the deficiency is
    kept when its own search finished).  ``nodes`` sums every search's nodes.
    """
    check_round_hand(hand, round_number, pack)
    rnd = get_round(round_number)
    start = time.perf_counter()
    budget = _Budget(limits)
    fields = dict.fromkeys(FIELDS)
    fields.update(round=rnd.number, contract=rnd.contract, hand=[format_card(c) for c in hand_cards(hand)])
    verdict, stopped = "unknown", None
    d, stopped = _deficiency(budget, hand, rnd.number, pack, joker_limit)
    fields["deficiency"] = d
    if d == 0:
        found, stopped = _arrangement(budget, hand, rnd.number, joker_limit)
        if found is not None:
            if found.melds is None:
                raise AssertionError("the deficiency search and the arrangement search disagree")
            verdict = "won"
            fields["melds"] = [[format_card(c) for c in m] for m in found.melds]
            fields["points_left"] = found.points_left
    elif d is not None:
        improving, stopped = _improving(budget, hand, rnd.number, pack, joker_limit, d)
        if improving is not None:
            verdict = "lost"
            fields["points_left"] = hand_points(hand)
            fields["improving"] = [format_card(c) for c in improving]
    return Result(verdict, limit=stopped, nodes=budget.nodes, seconds=time.perf_counter() - start,
                  fields=fields)
