"""Odds of meeting each contract (the per-seed ``deal`` analysis is in contract.py).

Two methods:

* ``exact`` (every round): every hand of the pack is counted by its
  deficiency, with the dynamic programmes of :mod:`solver.continental.exact`;
  P(meets) is a fraction.  Packs where that would not finish are refused
  (:func:`solver.continental.exact.unsupported`).
* ``monte-carlo``: deals ``seed .. seed+deals-1`` (deal N is the canonical pack
  shuffled by SplitMix64(N)); P(meets) gets 95% and 99.9% Wilson intervals.

:func:`exact_distribution` is an independent count for the trio-only rounds 1
and 4 (a sum over partitions into rank counts, each hand's deficiency by the
search engine); the tests hold the dynamic programmes to it.

>>> r = odds(1, deals=2000, seed=0, method="monte-carlo")
>>> r["method"], r["deals"], r["deficiency"]["0"] > 0
('monte-carlo', 2000, True)
>>> exact = odds(1)
>>> exact["method"], exact["p_fraction"], exact["deals"] == sum(exact["counts"].values())
('exact', '1397012/268107867', True)
"""
from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from math import comb, factorial
from typing import Callable, Dict, List, Optional, Sequence

from solver.cext import continental as _fast
from solver.continental import exact as _exact
from solver.continental.deficiency import deficiency_search
from solver.continental.notation import (
    JOKER, N_KINDS, N_RANKS, N_SUITS, Pack, hand_from_cards, make_card,
)
from solver.continental.rules import deal_hand, get_round
from solver.errors import InputError
from solver.stats import wilson

Z999 = 3.2905267314919255
"""The normal quantile of a two-sided 99.9% interval."""
from solver.rng import MASK64, check_seed

TRIO_ONLY_ROUNDS = (1, 4)
METHODS = ("auto", "exact", "monte-carlo")


def _partitions(total: int, parts: int, cap: int, top: Optional[int] = None):
    """Non-increasing lists of at most ``parts`` positive integers <= cap summing to total."""
    top = cap if top is None else top
    if total == 0:
        yield []
        return
    if parts == 0:
        return
    for first in range(min(top, total), 0, -1):
        for rest in _partitions(total - first, parts - 1, cap, first):
            yield [first] + rest


def _profile_hand(counts: Sequence[int], jokers: int, pack: Pack) -> List[int]:
    """A hand with ``counts[i]`` cards of rank i (suits spread, at most ``decks`` each)."""
    hand = [0] * N_KINDS
    for r, n in enumerate(counts):
        for i in range(n):
            hand[make_card(i % N_SUITS, r)] += 1
    hand[JOKER] = jokers
    return hand


def exact_distribution(round_number: int, *, pack: Pack = Pack(), joker_limit: bool = True,
                       deficiency_fn: Optional[Callable] = None) -> Dict[int, int]:
    """{deficiency: number of physical hands} over all hands of a trio-only round
    (the partition count: the independent check of the dynamic programmes)."""
    rnd = get_round(round_number)
    if rnd.straights:
        raise InputError(f"the partition count covers the trio-only rounds {TRIO_ONLY_ROUNDS}, not {rnd.number}")
    if deficiency_fn is None:
        def deficiency_fn(hand):
            return _fast.deficiency(hand, round_number, pack.decks, pack.jokers_per_deck,
                                    joker_limit)[0]
    per_rank = N_SUITS * pack.decks
    dist: Dict[int, int] = {}
    for jokers in range(0, min(rnd.cards, pack.jokers) + 1):
        for counts in _partitions(rnd.cards - jokers, N_RANKS, per_rank):
            ways = factorial(N_RANKS) // factorial(N_RANKS - len(counts))
            for v in set(counts):
                ways //= factorial(counts.count(v))
            for v in counts:
                ways *= comb(per_rank, v)
            ways *= comb(pack.jokers, jokers)
            d = deficiency_fn(_profile_hand(counts, jokers, pack))
            dist[d] = dist.get(d, 0) + ways
    assert sum(dist.values()) == comb(pack.size, rnd.cards)
    return dict(sorted(dist.items()))


def mc_histogram(round_number: int, *, deals: int, seed: int, pack: Pack = Pack(),
                 joker_limit: bool = True, workers: int = 2) -> List[int]:
    """Deficiency counts over deals seed .. seed+deals-1, compiled, split over threads."""
    chunks = max(1, min(workers, deals))
    bounds = [deals * i // chunks for i in range(chunks + 1)]

    def run(i):
        return _fast.odds_histogram(round_number, (seed + bounds[i]) & MASK64,
                                    bounds[i + 1] - bounds[i], pack.decks, pack.jokers_per_deck,
                                    joker_limit)

    with ThreadPoolExecutor(max_workers=chunks) as pool:
        parts = list(pool.map(run, range(chunks)))
    out = [0] * max(len(p) for p in parts)
    for p in parts:
        for d, n in enumerate(p):
            out[d] += n
    return out


def mc_histogram_reference(round_number: int, *, deals: int, seed: int, pack: Pack = Pack(),
                           joker_limit: bool = True) -> List[int]:
    """The pure-Python twin of :func:`mc_histogram` (slow; for the tests)."""
    rnd = get_round(round_number)
    out: List[int] = []
    for k in range(deals):
        hand = hand_from_cards(deal_hand((seed + k) & MASK64, rnd.cards, pack=pack))
        d = deficiency_search(hand, round_number, pack=pack, joker_limit=joker_limit)[0]
        out.extend([0] * (d + 1 - len(out)))
        out[d] += 1
    return out


def odds(round_number: int, *, deals: int = 100_000, seed: int = 0, pack: Pack = Pack(),
         joker_limit: bool = True, method: str = "auto", workers: int = 2,
         max_deficiency: Optional[int] = None, count_above: Optional[int] = None,
         progress: Optional[Callable[[int, int], None]] = None) -> Dict:
    """P(meets) and the deficiency distribution for dealt hands of a round.

    ``auto`` is exact where the pack is supported, else Monte Carlo; ``exact``
    on an unsupported pack is an InputError.  ``max_deficiency`` D counts
    exactly only the hands of deficiency at most D (default: every hand; round 6
    counts to :data:`solver.continental.exact.COUNTED_TO` one bound at a time,
    :func:`~solver.continental.exact.distribution_to`, and the rest from the top);
    the others are lumped in ``rest``.  ``progress(done, total)`` follows the exact count's DP steps.
    The keys are the same whatever the method: ``counts`` (hands, or deals)
    and ``deficiency`` (probabilities when exact, deal counts for Monte Carlo,
    as before) by deficiency; ``rest`` (null, or the hands past ``max_deficiency``:
    ``{"deficiency_at_least": D + 1, "hands": n, "share": n / deals}``; by default
    in round 6 the hands above :data:`~solver.continental.exact.COUNTED_ABOVE`
    are counted one by one too (when the gap is wider ``rest`` has
    ``"deficiency_at_most"``);
    ``count_above`` K chooses that bound, for any round with trios; when K is
    D + 1 the one deficiency between is total minus the rest, so it is counted
    and ``rest`` is null);
    ``p_fraction`` the exact P(meets) in lowest terms (null for Monte Carlo);
    ``ci95`` and ``ci999`` (``[p, p]`` when exact).
    """
    rnd = get_round(round_number)
    check_seed(seed)
    if method not in METHODS:
        raise InputError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise InputError(f"deals must be a positive integer, not {deals!r}")
    for name, x in (("max deficiency", max_deficiency), ("count above", count_above)):
        if x is not None and (isinstance(x, bool) or not isinstance(x, int) or x < 0):
            raise InputError(f"{name} must be a non-negative integer, not {x!r}")
    refused = _exact.unsupported(rnd.number, pack, joker_limit)
    if method == "auto":
        method = "exact" if _exact.exact_by_default(rnd.number, pack, joker_limit) else "monte-carlo"
    elif method == "exact" and refused:
        raise InputError(refused)
    start = time.perf_counter()
    out = {"game": "continental", "variant": None, "round": rnd.number, "contract": rnd.contract,
           "cards": rnd.cards, "decks": pack.decks, "jokers_per_deck": pack.jokers_per_deck,
           "joker_limit": joker_limit, "method": method}
    if method == "exact":
        upto = _exact.COUNTED_TO.get(rnd.number) if max_deficiency is None else max_deficiency
        if upto is not None and upto >= rnd.cards:
            upto = None                       # no hand lies further: count them all
        if upto is not None and rnd.number in _exact.COUNTED_TO:      # one count per bound: cheaper there
            dist = _exact.distribution_to(rnd.number, upto, pack=pack, joker_limit=joker_limit, progress=progress)
        else:
            dist = _exact.distribution(rnd.number, pack=pack, joker_limit=joker_limit, threshold=upto,
                                       progress=progress)
        total = comb(pack.size, rnd.cards)
        counted = sum(dist.values())
        if upto is None and counted != total:
            raise AssertionError(f"the exact count covers {counted} hands, not C({pack.size}, {rnd.cards})")
        rest = None
        above = count_above
        if above is None and max_deficiency is None:
            above = _exact.COUNTED_ABOVE.get(rnd.number)
        if upto is not None and above is not None and above > upto and rnd.trios:
            below, top = _exact.count_window(rnd.number, above, rnd.cards, pack=pack, joker_limit=joker_limit,
                                             progress=progress)
            if below + sum(top.values()) != total or below < counted or below.denominator != 1:
                raise AssertionError(f"the count from the top covers {below + sum(top.values())} hands, "
                                     f"not C({pack.size}, {rnd.cards})")
            dist.update((d, int(n)) for d, n in top.items() if n)
            lumped = int(below) - counted
            if above == upto + 1:             # the gap is one deficiency: its count is exact
                if lumped:
                    dist[above] = lumped
                dist = dict(sorted(dist.items()))
            else:
                rest = {"deficiency_at_least": upto + 1, "deficiency_at_most": above,
                        "hands": lumped, "share": lumped / total}
        elif upto is not None:
            rest = {"deficiency_at_least": upto + 1, "hands": total - counted,
                    "share": (total - counted) / total}
        p = Fraction(dist.get(0, 0), total)
        out.update(deals=total, seed=None, p_meets=float(p), p_fraction=f"{p.numerator}/{p.denominator}",
                   ci95=[float(p), float(p)], ci999=[float(p), float(p)],
                   deficiency={str(d): n / total for d, n in dist.items()},
                   counts={str(d): n for d, n in dist.items()}, rest=rest)
    else:
        hist = mc_histogram(rnd.number, deals=deals, seed=seed, pack=pack,
                            joker_limit=joker_limit, workers=workers)
        counts = {str(d): n for d, n in enumerate(hist) if n}
        out.update(deals=deals, seed=seed, p_meets=hist[0] / deals, p_fraction=None,
                   ci95=list(wilson(hist[0], deals)), ci999=list(wilson(hist[0], deals, z=Z999)),
                   deficiency=counts, counts=dict(counts), rest=None)
    out["seconds"] = round(time.perf_counter() - start, 3)
    return out
