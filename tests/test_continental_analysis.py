"""Odds: exact counting, Monte Carlo, their agreement, and the batch-runner entry point."""
from __future__ import annotations

import json
from math import comb

import pytest

from solver.stats import wilson

from solver.continental.analysis import (
    exact_distribution, mc_histogram, mc_histogram_reference, odds,
)
from solver.continental.deficiency import deficiency
from solver.continental.notation import Pack
from solver.errors import InputError


@pytest.mark.parametrize("rnd", [1, 4])
def test_exact_counting_matches_with_the_reference_deficiency(rnd):
    pack = Pack()
    fast = exact_distribution(rnd, pack=pack)
    ref = exact_distribution(rnd, pack=pack,
                             deficiency_fn=lambda h: deficiency(h, rnd, pack=pack))
    assert fast == ref
    assert sum(fast.values()) == comb(108, 7 if rnd == 1 else 10)


def test_exact_counting_of_a_jokerless_deck_directly():
    """One deck without jokers, round 1: a hand meets iff two ranks hold 3+ cards each.

    Counted rank by rank (no partitions, no deficiency search): an independent check.
    """
    pack = Pack(decks=1, jokers_per_deck=0)
    dist = exact_distribution(1, pack=pack)
    meets = 0
    def rec(r, left, counts):
        nonlocal meets
        if r == 13:
            if left == 0 and sum(1 for n in counts if n >= 3) >= 2:
                w = 1
                for n in counts:
                    w *= comb(4, n)
                meets += w
            return
        for n in range(0, min(4, left) + 1):
            rec(r + 1, left - n, counts + [n])
    rec(0, 7, [])
    assert dist.get(0, 0) == meets


def test_monte_carlo_compiled_equals_reference():
    for rnd in (1, 3, 5):
        assert mc_histogram(rnd, deals=60, seed=77) == mc_histogram_reference(rnd, deals=60, seed=77)


def test_monte_carlo_does_not_depend_on_the_thread_split():
    a = mc_histogram(2, deals=3001, seed=5, workers=1)
    b = mc_histogram(2, deals=3001, seed=5, workers=3)
    assert a == b and sum(a) == 3001


def test_monte_carlo_agrees_with_exact_round_1():
    exact = odds(1)
    mc = odds(1, deals=40_000, seed=9, method="monte-carlo")
    assert mc["method"] == "monte-carlo" and exact["method"] == "exact"
    # a 99.99% interval around the Monte Carlo estimate must hold the exact value
    lo, hi = wilson(round(mc["p_meets"] * 40_000), 40_000, z=3.9)
    assert lo <= exact["p_meets"] <= hi
    assert sum(mc["deficiency"].values()) == 40_000


def test_odds_json_keys():
    r = odds(7, deals=500, seed=1, method="monte-carlo")
    json.dumps(r)
    for key in ("round", "deals", "p_meets", "ci95", "ci999", "method", "deficiency", "counts", "p_fraction"):
        assert key in r
    assert r["method"] == "monte-carlo" and r["ci95"][0] <= r["p_meets"] <= r["ci95"][1]


def test_bad_odds_input():
    with pytest.raises(InputError):
        odds(8)
    with pytest.raises(InputError, match="exact odds of round 6"):
        odds(6, pack=Pack(decks=3), method="exact")
    with pytest.raises(InputError):
        odds(1, deals=0, method="monte-carlo")


