"""Continental benchmarks: compiled kernel against the pure-Python reference, same run.

    python -m pytest -q bench/bench_continental.py
    python -m pytest -q bench/bench_continental.py --benchmark-columns=mean,ops

Each test reports evaluations (or deals) per call in ``extra_info``; divide by
the mean time for a rate.  Hands are dealt hands of seeds 0..N-1.
"""
from __future__ import annotations

import pytest

from solver.cext import continental as fast
from solver.continental.deficiency import deficiency_search
from solver.continental.notation import hand_from_cards
from solver.continental.rules import ROUNDS, deal_hand

N_FAST = 20_000
N_REF = 200


def _hands(rnd, n):
    return [hand_from_cards(deal_hand(s, ROUNDS[rnd].cards)) for s in range(n)]


def _matrix(hands):
    return memoryview(bytearray(b"".join(bytes(h) for h in hands))).cast("B", (len(hands), 53))


@pytest.mark.parametrize("rnd", [1, 4, 7])
def test_deficiency_compiled(benchmark, rnd):
    hands = _matrix(_hands(rnd, N_FAST if rnd != 7 else 2000))
    benchmark.extra_info["evaluations"] = hands.shape[0]
    benchmark.pedantic(fast.deficiency_batch, args=(hands, rnd), rounds=3, iterations=1)


@pytest.mark.parametrize("rnd", [1, 4, 7])
def test_deficiency_reference(benchmark, rnd):
    hands = _hands(rnd, N_REF if rnd != 7 else 50)
    benchmark.extra_info["evaluations"] = len(hands)

    def run():
        for h in hands:
            deficiency_search(h, rnd)
    benchmark.pedantic(run, rounds=1, iterations=1)


def test_odds_round7_deals_compiled(benchmark):
    """Shuffle + deficiency for 20,000 round-7 deals, one thread (x50 for a million)."""
    benchmark.extra_info["deals"] = 20_000
    benchmark.pedantic(fast.odds_histogram, args=(7, 0, 20_000), rounds=2, iterations=1)


def test_odds_round1_deals_compiled(benchmark):
    benchmark.extra_info["deals"] = 200_000
    benchmark.pedantic(fast.odds_histogram, args=(1, 0, 200_000), rounds=2, iterations=1)


# ---- exact odds (solver.continental.exact): the counting DPs

EXACT_SMALL = dict(hand_size=5, cells=(1,) * 13)   # one suit, every rank: the rotation classes


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_exact_round2_small(benchmark, engine):
    """Round 2's rank DP, 2 decks x 1 joker, 5-card hands of one suit: compiled vs the spec."""
    from solver.continental.exact import distribution
    from solver.continental.notation import Pack
    benchmark.pedantic(distribution, args=(2,), kwargs=dict(pack=Pack(2, 1), engine=engine, **EXACT_SMALL),
                       rounds=1, iterations=1)


@pytest.mark.parametrize("rnd", [1, 2, 3, 4, 7])
def test_exact_default_pack(benchmark, rnd):
    """The whole count of a round at the default pack, compiled (rounds 5 and 6: docs)."""
    from solver.continental.exact import distribution
    benchmark.extra_info["round"] = rnd
    benchmark.pedantic(distribution, args=(rnd,), rounds=1, iterations=1)


@pytest.mark.parametrize("threshold", [0, 1])
def test_exact_round6_to_a_threshold(benchmark, threshold):
    """Round 6 at the default pack, only the hands of deficiency <= threshold (its whole
    count takes hours): 0 gives P(meets), 1 is what `odds --round 6` runs."""
    from solver.continental.exact import distribution
    benchmark.extra_info["threshold"] = threshold
    benchmark.pedantic(distribution, args=(6,), kwargs=dict(threshold=threshold), rounds=1, iterations=1)


@pytest.mark.parametrize("shift", [True, False])
def test_exact_round6_one_joker_shift(benchmark, monkeypatch, shift):
    """Round 6 to deficiency 0 with the hands of one joker counted by the no-joker DP on
    their naturals (the shift) or with one joker slot, as before: the ratio is the gain."""
    from solver.continental import exact
    monkeypatch.setattr(exact, "ONE_JOKER_SHIFT", shift)
    benchmark.extra_info["shift"] = shift
    benchmark.pedantic(exact.distribution, args=(6,), kwargs=dict(threshold=0), rounds=1, iterations=1)


@pytest.mark.parametrize("threshold", [6, 7])
def test_exact_round6_count_at_most(benchmark, threshold):
    """Round 6, the number of hands of deficiency <= threshold in one pass (decided prefixes):
    the top of the distribution, cheap where the middle is not (docs/continental.md)."""
    from solver.continental.exact import count_at_most
    benchmark.extra_info["threshold"] = threshold
    benchmark.pedantic(count_at_most, args=(6, threshold), rounds=1, iterations=1)


def test_exact_round6_window_from_the_top(benchmark):
    """Round 6's top as `odds --round 6` counts it: one window pass per job, the hands <= 5
    as one number and every hand above one by one; here the rotation class 3+ of each
    number of jokers (the other classes of the jokerless hands take minutes: docs)."""
    from solver.continental.exact import count_window
    benchmark.pedantic(count_window, args=(6, 5, 12), kwargs=dict(jobs=[0, 3, 6, 9, 12]), rounds=1, iterations=1)


@pytest.mark.parametrize("shift", [True, False])
def test_exact_round6_joker_shift_to_a_bound(benchmark, monkeypatch, shift):
    """Round 6's hands of two and three jokers (class 3+) counted to deficiency 2, as jokerless
    DPs on 10 and 9 naturals at 4 and 5 (the shift to a bound) or with joker slots: the ratio is
    the gain (docs/continental.md, sixth attempt: 6.9 + 3.2 s against 25.4 + 36.7 s)."""
    from solver.continental import exact
    monkeypatch.setattr(exact, "JOKER_SHIFT", shift)
    benchmark.extra_info["shift"] = shift
    benchmark.pedantic(exact.count_window, args=(6, 2, 2), kwargs=dict(jobs=[6, 9]), rounds=1, iterations=1)


def test_exact_round6_distribution_to_1(benchmark):
    """Round 6, deficiency 0 and 1 as two counts to a bound (the default's first two passes)."""
    from solver.continental.exact import distribution_to
    benchmark.pedantic(distribution_to, args=(6, 1), rounds=1, iterations=1)


@pytest.mark.parametrize("dominance", [True, False])
def test_exact_round6_dominance(benchmark, monkeypatch, dominance):
    """Round 6's jokerless hands (classes 3+, 2, 1) counted to deficiency 2 with the dominance of
    one changed combination or without: the ratio is the gain (docs/continental.md, seventh
    attempt: 1.96, 5.13, 9.37 s against 3.11, 7.44, 13.21 s)."""
    from solver.continental import exact
    monkeypatch.setattr(exact, "COMBINATION_DOMINANCE", dominance)
    benchmark.extra_info["dominance"] = dominance
    benchmark.pedantic(exact.count_window, args=(6, 2, 2), kwargs=dict(jobs=[0, 1, 2]), rounds=1, iterations=1)


def test_exact_round6_class_2_to_3(benchmark):
    """Round 6's jokerless hands whose longest empty run is 2 (job 1), counted to deficiency 3:
    the job the eighth attempt timed its kernel changes on (docs/continental.md: 34.6-38.0 s
    CPU before them, 20.8 s after, alone in a process at load 4-5)."""
    from solver.continental.exact import count_window
    benchmark.pedantic(count_window, args=(6, 3, 3), kwargs=dict(jobs=[1]), rounds=1, iterations=1)
