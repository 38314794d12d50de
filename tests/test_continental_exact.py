"""Exact odds (solver.continental.exact): the counting DPs against brute force, each other,
the trio-only partition count and the definition of the pack.

Brute force enumerates every hand of a reduced pack (fewer ranks or suits, one deck or
two, few jokers, small hands: ``cells`` says which cards a hand may hold, the pack stays
whole for the exchanges) and asks the search engine for each hand's deficiency.
"""
from __future__ import annotations

import random
from math import comb

import pytest

from solver.cext import continental as engine
from solver.continental import exact
from solver.continental.analysis import exact_distribution, odds
from solver.continental.notation import Pack
from solver.continental.render import odds_text
from solver.continental.rules import ROUNDS
from solver.errors import InputError

ONE_DECK = Pack(decks=1, jokers_per_deck=0)
ALL = 15


def brute(rnd, pack, n, cells, joker_limit=True):
    """{deficiency: hands} over every hand of ``n`` cards whose naturals lie in ``cells``."""
    kinds = [s * 13 + r for r in range(13) for s in range(4) if cells[r] >> s & 1]
    out = {}
    vec = [0] * 53

    def rec(i, left, weight):
        if i == len(kinds) or left == 0:
            if left <= pack.jokers:
                vec[52] = left
                d = engine.deficiency(vec, rnd, pack.decks, pack.jokers_per_deck, joker_limit)[0]
                out[d] = out.get(d, 0) + weight * comb(pack.jokers, left)
                vec[52] = 0
            return
        c = kinds[i]
        for h in range(min(pack.decks, left) + 1):
            vec[c] = h
            rec(i + 1, left - h, weight * comb(pack.decks, h))
        vec[c] = 0

    rec(0, n, 1)
    return dict(sorted(out.items()))


def ranks(*rs, suits=ALL):
    return tuple(suits if r in rs else 0 for r in range(13))


EVERY_RANK_ONE_SUIT = (1,) * 13
AROUND_THE_ACE = ranks(0, 1, 2, 10, 11, 12)

# (round, pack, hand size, cells, joker limit): every contract shape, through the ace,
# with and without jokers; on every rank (the rotation classes) and on a few ranks.
CASES = [
    (1, ONE_DECK, 7, ranks(0, 1, 2, 3, 4), True),
    (1, Pack(2, 1), 6, ranks(3, 4, 5, suits=3), True),
    (2, ONE_DECK, 5, AROUND_THE_ACE, True),
    (2, ONE_DECK, 8, EVERY_RANK_ONE_SUIT, True),
    (2, Pack(2, 1), 6, EVERY_RANK_ONE_SUIT, True),
    (2, Pack(1, 3), 3, EVERY_RANK_ONE_SUIT, True),      # a hand of jokers only
    (3, ONE_DECK, 5, AROUND_THE_ACE, True),
    (3, Pack(2, 1), 7, EVERY_RANK_ONE_SUIT, False),
    (4, ONE_DECK, 6, ranks(5, 6, 7, 8), True),
    (4, Pack(1, 2), 5, ranks(5, 6, 7), False),
    (5, ONE_DECK, 5, AROUND_THE_ACE, True),
    (5, Pack(2, 1), 6, EVERY_RANK_ONE_SUIT, True),
    (6, ONE_DECK, 5, AROUND_THE_ACE, True),
    (6, Pack(2, 1), 5, EVERY_RANK_ONE_SUIT, True),
    (6, Pack(1, 1), 4, ranks(0, 1, 12, suits=3), True),
    (7, ONE_DECK, 5, AROUND_THE_ACE, True),
    (7, Pack(2, 1), 5, EVERY_RANK_ONE_SUIT, True),
    (7, Pack(1, 1), 6, ranks(0, 1, 2, 3, 11, 12, suits=5), False),
]


@pytest.mark.parametrize("rnd, pack, n, cells, joker_limit", CASES,
                         ids=[f"r{c[0]}-{c[1].decks}x{c[1].jokers_per_deck}-n{c[2]}-{i}" for i, c in enumerate(CASES)])
def test_exact_counts_equal_brute_force(rnd, pack, n, cells, joker_limit):
    want = brute(rnd, pack, n, cells, joker_limit)
    got = exact.distribution(rnd, pack=pack, hand_size=n, cells=cells, joker_limit=joker_limit)
    assert got == want


def test_the_cases_reach_every_method():
    """Each shape is checked by the method the default pack uses, rotation classes included."""
    methods = {(rnd, exact.plan(rnd, pack=pack, hand_size=n, cells=cells).method,
                exact.plan(rnd, pack=pack, hand_size=n, cells=cells).rotation)
               for rnd, pack, n, cells, _ in CASES}
    for rnd in ROUNDS:
        default = exact.plan(rnd)
        assert (rnd, default.method, default.rotation) in methods


# (round, pack, hand size, cells, joker limit, thresholds): hands large enough to meet the
# contract or miss it by little, so that a threshold drops keys; every contract shape.
THRESHOLD_CASES = [
    (1, Pack(2, 1), 7, ranks(3, 4, 5, 6, suits=3), True, (0, 1)),
    (2, Pack(2, 1), 8, EVERY_RANK_ONE_SUIT, False, (0, 1, 2)),        # rotation classes
    (3, Pack(2, 1), 9, ranks(0, 1, 2, 3, 4, 5, 6, 12, suits=1), True, (0, 1, 2)),
    (4, ONE_DECK, 9, ranks(5, 6, 7, 8, 9), True, (0, 1, 2)),
    (6, ONE_DECK, 11, ranks(0, 1, 2, 3, 4, 12, suits=7), True, (0, 1, 2)),   # tails through the ace
    (7, Pack(2, 1), 10, ranks(0, 1, 2, 3, 4, 10, 11, 12, suits=1), True, (2, 3)),
    pytest.param(5, Pack(2, 1), 9, EVERY_RANK_ONE_SUIT, True, (1, 2, 3, 4), marks=pytest.mark.slow),
    pytest.param(6, Pack(2, 1), 11, EVERY_RANK_ONE_SUIT, True, (0, 1, 2, 3, 4),
                 marks=pytest.mark.slow),                                  # round 6, rotation, jokers
    pytest.param(6, Pack(2, 1), 9, ranks(0, 1, 2, 3, 11, 12, suits=3), True, (2, 3, 4, 5),
                 marks=pytest.mark.slow),
]


@pytest.mark.parametrize("rnd, pack, n, cells, joker_limit, thresholds", THRESHOLD_CASES,
                         ids=[f"r{c[0]}-n{c[2]}-{i}" for i, c in
                              enumerate(getattr(c, "values", c) for c in THRESHOLD_CASES)])
def test_threshold_counts_equal_brute_force(rnd, pack, n, cells, joker_limit, thresholds):
    """Counting only deficiency <= D gives brute force's counts there, and nothing else."""
    want = brute(rnd, pack, n, cells, joker_limit)
    assert min(want) <= max(thresholds) < max(want)          # the cases cut the distribution
    for t in thresholds:
        got = exact.distribution(rnd, pack=pack, hand_size=n, cells=cells, joker_limit=joker_limit,
                                 threshold=t)
        assert got == {d: c for d, c in want.items() if d <= t}


@pytest.mark.parametrize("rnd, pack, n, cells, t", [
    (6, ONE_DECK, 11, ranks(0, 1, 2, 3, 4, 12, suits=7), 0),
    (2, Pack(2, 1), 6, EVERY_RANK_ONE_SUIT, 1),
    pytest.param(6, Pack(2, 1), 11, EVERY_RANK_ONE_SUIT, 0, marks=pytest.mark.slow),
    pytest.param(6, ONE_DECK, 11, ranks(0, 1, 2, 3, 4, 12, suits=7), 1, marks=pytest.mark.slow),
])
def test_compiled_threshold_equals_the_python_specification(rnd, pack, n, cells, t):
    kw = dict(pack=pack, hand_size=n, cells=cells, threshold=t)
    assert exact.distribution(rnd, engine="compiled", **kw) == exact.distribution(rnd, engine="python", **kw)


def test_threshold_raw_results_equal_python_on_one_problem():
    """A round-6 rotation-class run with jokers in hand, cut at deficiency 1: the same raw result."""
    from solver.cext import continental_exact as kernel
    jobs = exact.plan(6, pack=Pack(2, 1), hand_size=9, cells=EVERY_RANK_ONE_SUIT, threshold=1).jobs
    prob = next(p for jh, p in jobs if jh == 2 and p.rotation == exact.RUN2)
    got = kernel.rank_dp(prob)
    assert got == exact.rank_dp_python(prob) and all(d <= 1 for d, _ in got)


@pytest.mark.parametrize("rnd, pack, n, cells", [
    (2, Pack(2, 1), 4, ranks(0, 1, 2, 12, suits=1)),   # rank DP, tails through the ace, jokers
    (2, ONE_DECK, 3, ranks(0, 1, 12)),                 # rank DP, suit relabelling
    (7, Pack(1, 1), 5, ranks(0, 1, 2, 12, suits=3)),   # suit profiles
    pytest.param(6, ONE_DECK, 2, ranks(0, 1, 12), marks=pytest.mark.slow),   # two straights and a trio
    pytest.param(5, Pack(1, 1), 3, ranks(0, 11, 12), marks=pytest.mark.slow),   # two trios, jokers
])
def test_compiled_dp_equals_the_python_specification(rnd, pack, n, cells):
    kw = dict(pack=pack, hand_size=n, cells=cells)
    assert exact.distribution(rnd, engine="compiled", **kw) == exact.distribution(rnd, engine="python", **kw)


def test_compiled_dp_states_equal_python_on_one_problem():
    """Same keys, same rotation classes: the raw results of one run agree."""
    from solver.cext import continental_exact as kernel
    prob = exact.plan(2, pack=Pack(2, 1), hand_size=4, cells=EVERY_RANK_ONE_SUIT).jobs[4][1]
    assert prob.rotation and kernel.rank_dp(prob) == exact.rank_dp_python(prob)


@pytest.mark.parametrize("rnd", [1, 4])
def test_trio_rounds_equal_the_partition_count(rnd):
    for pack in (Pack(), Pack(1, 0), Pack(3, 3)):
        assert exact.distribution(rnd, pack=pack) == exact_distribution(rnd, pack=pack)


@pytest.mark.parametrize("rnd", [3, pytest.param(2, marks=pytest.mark.slow)])
def test_every_hand_of_the_default_pack_is_counted(rnd):
    dist = exact.distribution(rnd)
    assert sum(dist.values()) == comb(108, ROUNDS[rnd].cards)
    assert min(dist) == 0 and all(v > 0 for v in dist.values())


def test_progress_counts_every_step():
    seen = []
    exact.distribution(2, pack=ONE_DECK, hand_size=4, progress=lambda done, total: seen.append((done, total)))
    total = seen[-1][1]
    assert seen == [(i, total) for i in range(1, total + 1)] and total == 13 * len(exact.plan(2, hand_size=4, pack=ONE_DECK).jobs)


def test_unsupported_packs_are_named():
    assert exact.unsupported(6) is None and exact.unsupported(5, Pack(2, 1)) is None
    assert "monte-carlo" in exact.unsupported(6, Pack(3, 2))
    assert exact.unsupported(5, Pack(2, 2), joker_limit=False) is not None
    assert all(exact.unsupported(r, Pack(8, 8)) is None for r in (1, 2, 3, 4, 7))
    with pytest.raises(InputError):
        exact.distribution(2, hand_size=14)


def test_odds_exact_fraction_and_counts():
    r = odds(3)
    assert r["method"] == "exact" and r["deals"] == comb(108, 9)
    num, den = map(int, r["p_fraction"].split("/"))
    assert num * r["deals"] == r["counts"]["0"] * den
    assert r["ci95"] == [r["p_meets"]] * 2 == r["ci999"]
    assert r["rest"] is None and sum(r["counts"].values()) == r["deals"]
    assert odds(6, pack=Pack(3, 2), deals=200)["method"] == "monte-carlo"   # auto falls back
    assert [r for r in ROUNDS if exact.exact_by_default(r)] == [1, 2, 3, 4, 5, 6, 7]


def test_odds_with_max_deficiency_lumps_the_rest():
    whole = odds(3)
    cut = odds(3, max_deficiency=1)
    assert cut["counts"] == {d: n for d, n in whole["counts"].items() if int(d) <= 1}
    assert cut["p_fraction"] == whole["p_fraction"]
    assert cut["rest"]["deficiency_at_least"] == 2
    assert cut["rest"]["hands"] == sum(n for d, n in whole["counts"].items() if int(d) >= 2)
    assert odds(3, max_deficiency=9)["rest"] is None          # past every deficiency: all counted
    with pytest.raises(InputError):
        odds(3, max_deficiency=-1)


def test_odds_counts_from_the_top_and_lumps_the_middle(monkeypatch):
    """With COUNTED_ABOVE the hands above it are counted one by one too (round 1 standing in for 6)."""
    whole = odds(1)["counts"]
    monkeypatch.setattr(exact, "COUNTED_TO", {1: 0})
    monkeypatch.setattr(exact, "COUNTED_ABOVE", {1: 2})
    cut = odds(1)
    assert cut["counts"] == {d: n for d, n in whole.items() if int(d) not in (1, 2)}
    assert cut["rest"] == {"deficiency_at_least": 1, "deficiency_at_most": 2, "hands": whole["1"] + whole["2"],
                           "share": (whole["1"] + whole["2"]) / cut["deals"]}
    assert odds(1, max_deficiency=0)["rest"]["hands"] == sum(n for d, n in whole.items() if d != "0")
    assert f"  1-2 {cut['rest']['share']:8.4%} (not counted one by one" in odds_text(cut)
    gap_of_one = odds(1, max_deficiency=0, count_above=1)       # the lump is one deficiency: counted
    assert gap_of_one["rest"] is None and gap_of_one["counts"] == whole
    explicit = odds(1, max_deficiency=0, count_above=2)         # the option, whatever the default
    assert {k: v for k, v in explicit.items() if k != "seconds"} == {k: v for k, v in cut.items() if k != "seconds"}
    with pytest.raises(InputError):
        odds(1, count_above=-1)
    monkeypatch.setattr(exact, "COUNTED_ABOVE", {1: 1})         # round 6's default shape: a gap of one
    by_default = odds(1)
    assert by_default["rest"] is None and by_default["counts"] == whole


def test_round_6_is_counted_whole_by_default():
    """The plan, not the (minutes-long) run: round 6 counts to 0, 1, 2, 3 and 4, each pass with
    the jobs its bound can shift (2-3 jokers from 1, 4 from 2) run without joker slots, and
    from the top above 5, so that 5 is the total less the others (no lumped row)."""
    assert exact.COUNTED_TO == {6: 4} and exact.COUNTED_ABOVE == {6: 5}
    for bound, want in ((0, [0, 1, 0, 0, 0]), (1, [0, 1, 2, 3, 0]), (2, [0, 1, 2, 3, 4]), (3, [0, 1, 2, 3, 4]),
                        (4, [0, 1, 2, 3, 4])):
        jobs = exact.plan(6, threshold=bound, at_most=True).jobs
        assert [exact.shifted(jh, p) for jh, p in jobs[::3]] == want
        assert all(p.threshold == bound + exact.shifted(jh, p) and p.hand_jokers == jh - exact.shifted(jh, p)
                   for jh, p in jobs)
    assert all(p.threshold == 1 + exact.shifted(jh, p) for jh, p in exact.plan(6, threshold=1).jobs)
    assert all(p.threshold == -1 for _, p in exact.plan(6).jobs)


def test_one_joker_is_counted_by_the_no_joker_dp():
    """The hands with one joker run without joker slots, the threshold one higher (the shift)."""
    jobs = exact.plan(6, threshold=1).jobs
    one = [p for jh, p in jobs if jh == 1]
    assert len(one) == 3 and all(p.hand_jokers == 0 and p.jokers == 0 and p.naturals == 11
                                 and p.threshold == 2 for p in one)
    assert all(exact.shifted(jh, p) == 0 for jh, p in jobs if jh != 1)
    one_deck = exact.plan(6, pack=Pack(1, 1)).jobs          # two straights may need a card twice
    assert all(exact.shifted(jh, p) == 0 for jh, p in one_deck)


@pytest.mark.slow
def test_random_reduced_packs_equal_brute_force():
    rng = random.Random(16)
    for _ in range(40):
        rnd = rng.randint(1, 7)
        pack = Pack(rng.choice([1, 1, 2]), rng.choice([0, 0, 1, 2]))
        chosen = rng.sample(range(13), rng.randint(3, 6))
        cells = ranks(*chosen, suits=rng.choice([1, 3, 5, 7, 15]))
        n = rng.randint(3, 7)
        joker_limit = rng.random() < 0.8
        assert exact.distribution(rnd, pack=pack, hand_size=n, cells=cells, joker_limit=joker_limit) == \
            brute(rnd, pack, n, cells, joker_limit)


@pytest.mark.slow
@pytest.mark.parametrize("rnd", [1, 2, 3, 4, 7])
def test_exact_inside_the_monte_carlo_interval(rnd):
    """The exact P(meets) lies in the 99.9% interval of 400,000 seeded deals (10 million
    per round in docs/continental.md)."""
    ex = odds(rnd)
    mc = odds(rnd, deals=400_000, seed=16, method="monte-carlo")
    lo, hi = mc["ci999"]
    assert lo <= ex["p_meets"] <= hi


def test_odds_command_exact_json_text_and_plot(tmp_path):
    import json
    from click.testing import CliRunner
    from solver.cli.main import solve
    run = CliRunner().invoke
    r = run(solve, ["continental", "odds", "--round", "1", "--json"])
    out = json.loads(r.output)
    assert r.exit_code == 0 and out["p_fraction"] == "1397012/268107867" and out["seed"] is None
    assert sum(out["counts"].values()) == comb(108, 7)
    saved = tmp_path / "r1.json"
    saved.write_text(r.output)
    text = run(solve, ["continental", "odds", "--round", "4"]).output
    assert "exactly: 2039363/1546561995" in text
    assert run(solve, ["continental", "odds", "--round", "4", "--with", str(saved)]).exit_code == 2
    pytest.importorskip("matplotlib")
    picture = tmp_path / "d.png"
    r = run(solve, ["continental", "odds", "--round", "4", "--plot", str(picture), "--with", str(saved)])
    assert r.exit_code == 0 and picture.stat().st_size > 1000


# (round, pack, hand size, cells, joker limit): every D from the least deficiency to the most
AT_MOST_CASES = [
    (1, Pack(2, 1), 7, ranks(3, 4, 5, 6, suits=3), True),
    (2, Pack(2, 1), 8, EVERY_RANK_ONE_SUIT, False),                      # rotation classes
    (4, ONE_DECK, 9, ranks(5, 6, 7, 8, 9), True),
    (5, Pack(2, 1), 6, EVERY_RANK_ONE_SUIT, True),
    (6, ONE_DECK, 5, AROUND_THE_ACE, True),
    pytest.param(6, ONE_DECK, 11, ranks(0, 1, 2, 3, 4, 12, suits=7), True,
                 marks=pytest.mark.slow),                                  # tails through the ace
    pytest.param(6, Pack(2, 1), 9, EVERY_RANK_ONE_SUIT, True, marks=pytest.mark.slow),   # rotation, jokers
    pytest.param(6, Pack(2, 1), 9, ranks(0, 1, 2, 3, 11, 12, suits=3), True, marks=pytest.mark.slow),
]


@pytest.mark.parametrize("rnd, pack, n, cells, joker_limit", AT_MOST_CASES,
                         ids=[f"r{c[0]}-n{c[2]}-{i}" for i, c in
                              enumerate(getattr(c, "values", c) for c in AT_MOST_CASES)])
def test_count_at_most_equals_brute_force(rnd, pack, n, cells, joker_limit):
    """One number per D (values capped, decided prefixes kept by their cards): brute force's sum to D."""
    want = brute(rnd, pack, n, cells, joker_limit)
    for t in range(min(want) - 1, max(want) + 1):
        got = exact.count_at_most(rnd, t, pack=pack, hand_size=n, cells=cells, joker_limit=joker_limit) \
            if t >= 0 else 0
        assert got == sum(c for d, c in want.items() if d <= t)


@pytest.mark.parametrize("rnd, pack, n, cells, t", [
    (5, Pack(2, 1), 6, EVERY_RANK_ONE_SUIT, 4),
    (2, Pack(2, 1), 6, EVERY_RANK_ONE_SUIT, 1),
    pytest.param(6, Pack(2, 1), 6, ranks(0, 1, 2, 3, 11, 12, suits=3), 5, marks=pytest.mark.slow),
])
def test_compiled_count_at_most_equals_the_python_specification(rnd, pack, n, cells, t):
    """Whole counts and one rotation-class run's raw result (decided prefixes included)."""
    from solver.cext import continental_exact as kernel
    kw = dict(pack=pack, hand_size=n, cells=cells)
    assert exact.count_at_most(rnd, t, engine="compiled", **kw) == exact.count_at_most(rnd, t, engine="python", **kw)
    for _, prob in exact.plan(rnd, threshold=t, at_most=True, **kw).jobs:
        assert prob.at_most and kernel.rank_dp(prob) == exact.rank_dp_python(prob)


# (round, pack, hand size, cells): windows low < d <= high, every pair around the distribution
WINDOW_CASES = [
    (5, Pack(2, 1), 6, EVERY_RANK_ONE_SUIT),                              # rotation, one joker
    (6, Pack(2, 1), 6, ranks(0, 1, 2, 3, 11, 12, suits=3)),               # tails through the ace
    pytest.param(6, Pack(2, 2), 7, ranks(0, 1, 2, 3, 11, 12, suits=3), marks=pytest.mark.slow),   # 2-4 jokers
]


@pytest.mark.parametrize("rnd, pack, n, cells", WINDOW_CASES,
                         ids=[f"r{c[0]}-n{c[2]}-{i}" for i, c in
                              enumerate(getattr(c, "values", c) for c in WINDOW_CASES)])
def test_count_window_equals_brute_force(rnd, pack, n, cells):
    """One pass: the hands to ``low`` as one number, those above it to ``high`` by deficiency."""
    want = brute(rnd, pack, n, cells)
    for low in range(min(want) - 1, max(want) + 1):
        for high in range(max(low, 0), max(want) + 1):
            upto, by_d = exact.count_window(rnd, low, high, pack=pack, hand_size=n, cells=cells)
            assert upto == sum(c for d, c in want.items() if d <= low)
            assert by_d == {d: c for d, c in want.items() if low < d <= high}


def test_count_window_jobs_add_up():
    """Windows chosen per DP job add up to the whole count (the per-job schedule of round 6)."""
    kw = dict(pack=Pack(2, 1), hand_size=6, cells=EVERY_RANK_ONE_SUIT)
    want = brute(5, kw["pack"], 6, kw["cells"])
    n_jobs = len(exact.plan(5, threshold=5, at_most=True, **kw).jobs)
    total = 0
    for i in range(n_jobs):
        upto, by_d = exact.count_window(5, 4 + i % 2, 5, jobs=[i], **kw)      # (4, 5] or (5, 5]
        total += upto + sum(by_d.values())
    assert total == sum(c for d, c in want.items() if d <= 5)


# (round, pack, hand size, cells): 2-4 jokers in hand, so jobs with 2+ jokers are shifted
SHIFT_CASES = [
    (2, Pack(2, 2), 8, EVERY_RANK_ONE_SUIT),          # rotation classes; 2-3 jokers shifted from bound 1
    (5, Pack(2, 2), 10, EVERY_RANK_ONE_SUIT),         # two trios
    (6, Pack(2, 2), 6, ranks(0, 1, 2, 3, 11, 12, suits=3)),               # tails through the ace
]


@pytest.mark.parametrize("rnd, pack, n, cells", SHIFT_CASES)
def test_joker_shift_counts_equal_brute_force(rnd, pack, n, cells):
    """Jobs with 2-4 jokers run as no-joker jobs wherever shift_exact allows: every count to D
    and every window equal brute force (and some job with 2+ jokers is shifted)."""
    want = brute(rnd, pack, n, cells)
    kw = dict(pack=pack, hand_size=n, cells=cells)
    assert any(jh >= 2 and exact.shifted(jh, p) == jh
               for jh, p in exact.plan(rnd, threshold=4, at_most=True, **kw).jobs)
    if n == 8:                        # 6 naturals: no best contract misses a combination whole
        assert [exact.shifted(jh, p) for jh, p in exact.plan(rnd, threshold=1, at_most=True, **kw).jobs
                if p.rotation == exact.RUN3] == [0, 1, 2, 3, 0]
    for t in range(max(min(want) - 1, 0), max(want) + 1):
        assert exact.count_at_most(rnd, t, **kw) == sum(c for d, c in want.items() if d <= t)
        for high in sorted({t, max(want)}):
            upto, by_d = exact.count_window(rnd, t, high, **kw)
            assert upto == sum(c for d, c in want.items() if d <= t)
            assert by_d == {d: c for d, c in want.items() if t < d <= high}


@pytest.mark.parametrize("rnd, pack, n, cells", SHIFT_CASES[:2])
def test_distribution_to_equals_brute_force(rnd, pack, n, cells):
    """The distribution to D as counts to each bound (each pass shifting what it can)."""
    want = brute(rnd, pack, n, cells)
    for upto in range(0, max(want) + 1):
        got = exact.distribution_to(rnd, upto, pack=pack, hand_size=n, cells=cells)
        assert got == {d: c for d, c in want.items() if d <= upto}
    assert exact.distribution_to(3, 1, hand_size=4, pack=ONE_DECK) == exact.distribution(3, hand_size=4, pack=ONE_DECK,
                                                                                          threshold=1)
    seen = []
    exact.distribution_to(rnd, 2, pack=pack, hand_size=n, cells=cells, progress=lambda *a: seen.append(a))
    assert seen == [(i, seen[-1][1]) for i in range(1, seen[-1][1] + 1)]        # the passes as one bar


def test_joker_shift_is_refused_where_a_trio_takes_one_joker(monkeypatch):
    """Shifting two jokers at bound 1 would be wrong (a hand with a whole straight and no trio
    card fills only one place: the trio takes one joker): forced, the count is wrong."""
    rnd, pack, n, cells = 2, Pack(2, 2), 6, EVERY_RANK_ONE_SUIT
    want = brute(rnd, pack, n, cells)
    kw = dict(pack=pack, hand_size=n, cells=cells)
    assert not exact.shift_exact(1, 2, True, 2, 1) and exact.shift_exact(1, 2, True, 2, 2)
    monkeypatch.setattr(exact, "shift_exact", lambda *args: True)
    assert any(exact.count_at_most(rnd, t, **kw) != sum(c for d, c in want.items() if d <= t) for t in (0, 1))


def test_compiled_window_equals_the_python_specification():
    """One window run's raw result (decided prefixes, and the rest by deficiency), every job."""
    from solver.cext import continental_exact as kernel
    kw = dict(pack=Pack(2, 1), hand_size=6, cells=EVERY_RANK_ONE_SUIT)
    for jh, prob in exact.plan(5, threshold=6, at_most=True, low=4, **kw).jobs:
        raw = exact.rank_dp_python(prob)
        assert kernel.rank_dp(prob) == raw
        assert {d for d, _ in raw} <= set(range(prob.decided_at, prob.threshold + 1))


def test_count_window_refuses_bad_windows():
    with pytest.raises(InputError):
        exact.count_window(6, 3, 2)
    with pytest.raises(InputError):
        exact.count_window(7, 1, 2)                   # no trios: the suit profiles count everything


# the dominance of one changed combination (exact._dominance): cases where each kind drops keys
DOMINANCE_CASES = [
    (1, Pack(2, 0), 8, ranks(0, 1, 2, suits=3)),     # a trio placed against one to come (margin 3)
    (6, Pack(2, 1), 6, EVERY_RANK_ONE_SUIT),         # straights at other places, heads due, the ace
    (5, Pack(2, 0), 7, ranks(0, 1, 2, 3, 4, suits=3)),
]


@pytest.mark.parametrize("rnd, pack, n, cells", DOMINANCE_CASES)
def test_dominance_counts_equal_brute_force(rnd, pack, n, cells, monkeypatch):
    kw = dict(pack=pack, hand_size=n, cells=cells)
    want = brute(rnd, pack, n, cells)
    assert exact.COMBINATION_DOMINANCE
    assert exact.distribution(rnd, engine="compiled", **kw) == want
    assert exact.distribution(rnd, engine="python", **kw) == want
    monkeypatch.setattr(exact, "COMBINATION_DOMINANCE", False)
    assert exact.distribution(rnd, engine="compiled", **kw) == want


def test_dominance_drops_the_keys_it_should():
    """One straight one place further on and one card more beats the one behind; a trio
    placed with 3 more beats none placed; a straight that matched nothing loses to not
    having started it.  Keys differing in more than one combination are left alone."""
    p = exact.plan(6, threshold=2, at_most=True).jobs[0][1]
    behind = (((0, 1, 0, 0),), (), 1, 0, 0, 0, 0)
    ahead = (((0, 2, 0, 0),), (), 1, 0, 0, 0, 0)
    none = ((), (), 0, 0, 0, 0, 0)
    assert exact._dominance(p, {behind: 3, ahead: 4}, 5) == {ahead: 4}
    assert exact._dominance(p, {behind: 3, ahead: 3}, 5) == {behind: 3}
    assert exact._dominance(p, {behind: 3, none: 3}, 5) == {none: 3}
    assert exact._dominance(p, {behind: 3, none: 3}, 9) == {behind: 3, none: 3}   # too late to start
    placed = ((), (), 0, 1, 0, 0, 0)
    assert exact._dominance(p, {none: 1, placed: 4}, 5) == {placed: 4}
    assert exact._dominance(p, {none: 2, placed: 4}, 5) == {none: 2, placed: 4}
    other = (((1, 2, 0, 0),), (), 1, 1, 0, 0, 0)                  # two changes from behind
    assert exact._dominance(p, {behind: 3, other: 9}, 5) == {behind: 3, other: 9}
