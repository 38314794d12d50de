"""Statistics: Wilson intervals, percentiles, the report over a database."""
import math
import random

from hypothesis import given, strategies as st

from solver.stats import format_report, nearest_rank, streamed_percentiles, summarise, wilson, win_interval
from solver.store import ResultStore, Row


@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_contains_the_proportion_and_solves_its_equation(k, n):
    k = min(k, n)
    lo, hi = wilson(k, n)
    assert 0 <= lo <= k / n <= hi <= 1
    z = 1.959963984540054
    for bound in (lo, hi):   # a Wilson bound p satisfies |k/n - p| = z sqrt(p(1-p)/n)
        if 0 < bound < 1:
            assert abs(abs(k / n - bound) - z * math.sqrt(bound * (1 - bound) / n)) < 1e-9


def test_unknowns_widen_the_interval():
    assert win_interval(won=50, lost=50, unknown=0) < (0.5, 1.0)
    lo0, hi0 = win_interval(won=50, lost=40, unknown=0)
    lo1, hi1 = win_interval(won=50, lost=40, unknown=10)
    assert lo1 < lo0 and hi1 > hi0


@given(st.lists(st.floats(0, 100, allow_nan=False), min_size=1, max_size=200))
def test_streamed_percentiles_match_nearest_rank(values):
    values.sort()
    got = streamed_percentiles(iter(values), len(values))
    assert got["max"] == values[-1]
    assert got["median"] == nearest_rank(values, 50)
    assert got["p99"] == nearest_rank(values, 99)
    assert sum(v <= got["p90"] for v in values) >= 0.9 * len(values)


def test_report_counts_and_side_by_side(tmp_path):
    rng = random.Random(5)
    path = str(tmp_path / "r.sqlite")
    verdicts = {s: rng.choice(["won", "won", "lost", "unknown"]) for s in range(1, 201)}
    blind = {s: rng.choice(["won", "lost"]) for s in range(101, 301)}
    with ResultStore(path, create=True) as store:
        store.add([Row("pyramid", "continuous", "thoughtful", s, v, "nodes" if v == "unknown" else None,
                       s, s / 1000, "{}") for s, v in verdicts.items()])
        store.add([Row("pyramid", "continuous", "blind:greedy", s, v, None, 1, 0.001, "{}")
                   for s, v in blind.items()])
        store.commit()
        report = summarise(store, slowest=3)
    g = {x["analysis"]: x for x in report["groups"]}
    t = g["thoughtful"]
    won = sum(v == "won" for v in verdicts.values())
    lost = sum(v == "lost" for v in verdicts.values())
    assert (t["won"], t["lost"], t["unknown"]) == (won, lost, 200 - won - lost)
    assert t["limits"] == {"nodes": 200 - won - lost}
    assert t["win_rate"] == round(won / (won + lost), 4)
    assert t["seconds"]["max"] == 0.2 and t["nodes"]["median"] == 100
    assert [x["seed"] for x in t["slowest"]] == [200, 199, 198]
    (side,) = report["side_by_side"]
    assert side["seeds"] == 100                              # seeds 101-200 are in both
    per = {a["analysis"]: a for a in side["analyses"]}
    assert per["blind:greedy"]["won"] == sum(blind[s] == "won" for s in range(101, 201))
    assert per["thoughtful"]["won"] == sum(verdicts[s] == "won" for s in range(101, 201))
    text = format_report(report)
    assert "side by side" in text and "thoughtful" in text


def test_three_analyses_are_also_compared_pairwise(tmp_path):
    path = str(tmp_path / "r.sqlite")
    with ResultStore(path, create=True) as store:
        for analysis, seeds in (("thoughtful", range(1, 101)), ("blind:a", range(1, 51)),
                                ("blind:b", range(41, 101))):
            store.add([Row("pyramid", "continuous", analysis, s, "won" if s % 3 else "lost", None, 1, 0.1, "{}")
                       for s in seeds])
        store.commit()
        report = summarise(store)
    sizes = {tuple(a["analysis"] for a in c["analyses"]): c["seeds"] for c in report["side_by_side"]}
    assert sizes == {("blind:a", "blind:b", "thoughtful"): 10, ("blind:a", "thoughtful"): 50,
                     ("blind:b", "thoughtful"): 60}


def test_cross_check_counts_blind_wins_against_the_search(tmp_path):
    path = str(tmp_path / "r.sqlite")
    exact = {1: "won", 2: "lost", 3: "unknown", 4: "unknown", 5: "lost"}
    blind = {1: "won", 2: "won", 3: "won", 4: "lost", 5: "lost"}
    with ResultStore(path, create=True) as store:
        for analysis, verdicts in (("thoughtful", exact), ("blind:x", blind)):
            store.add([Row("pyramid", "continuous", analysis, s, v, None, 1, 0.1, "{}")
                       for s, v in verdicts.items()])
        store.commit()
        (side,) = summarise(store)["side_by_side"]
    assert (side["won_where_lost"], side["won_where_unknown"]) == (1, 1)


def test_whole_number_fields_are_summarised(tmp_path):
    """Spectrum's minimum ``turns`` (declared by its analysis) as a histogram; a
    play-out's ``length`` with many values as percentiles; rows without the field ignored."""
    import json
    path = str(tmp_path / "r.sqlite")
    turns = {s: 6 + s % 5 for s in range(1, 101)}
    with ResultStore(path, create=True) as store:
        store.add([Row("spectrum", "default", "min-turns", s, "won", None, 1, 0.01,
                       json.dumps({"turns": t})) for s, t in turns.items()])
        store.add([Row("spectrum", "default", "min-turns", 101, "unknown", "nodes", 1, 0.01,
                       json.dumps({"turns": None}))])
        store.add([Row("spectrum", "default", "playout", s, "finished", None, 0, 0.01,
                       json.dumps({"length": s, "winner": 0, "scores": [1, 0]})) for s in range(1, 41)])
        store.commit()
        report = summarise(store)
    g = {x["analysis"]: x for x in report["groups"]}
    hist = g["min-turns"]["fields"]["turns"]["histogram"]
    assert hist == {str(t): sum(v == t for v in turns.values()) for t in range(6, 11)}
    assert g["playout"]["fields"]["length"]["percentiles"]["max"] == 40
    assert g["playout"]["wins"] == [40, 0] and g["playout"]["kind"] == "playout"
    text = format_report(report)
    assert "turns    6: 20, 7: 20" in text and "length   median 20" in text


def test_a_solitaire_without_a_win_is_lost_not_drawn():
    from solver.stats import format_playouts, playout_summary
    alone = [{"winner": 0, "outcome": "finished", "length": 144, "policies": ["greedy"], "scores": [1]},
             {"winner": None, "outcome": "finished", "length": 7, "policies": ["greedy"], "scores": [0]}]
    s = playout_summary(alone)
    assert (s["wins"], s["draws"], s["losses"]) == ([1], 0, 1)
    assert "lost 1" in format_playouts(s) and "draws" not in format_playouts(s)
    two = [{"winner": None, "outcome": "finished", "length": 9, "policies": ["a", "b"], "scores": [0, 0]}]
    s = playout_summary(two)
    assert s["draws"] == 1 and "losses" not in s
