"""The batch's chunk path (solver/pyramid/chunked.py) against the per-seed path."""
import json
import re

import pytest

from solver.cext import pyramid as fast
from solver.cext import pyramid_check
from solver.chunk import Spec, row_values
from solver.pyramid.check import name_and_check
from solver.pyramid.chunked import thoughtful_rows
from solver.pyramid.contract import THOUGHTFUL_LIMITS
from solver.pyramid.deal import deal_from_seed
from solver.pyramid.search import SolverBug, deal_kinds

SEEDS = list(range(1, 161)) + [7260, 2 ** 64 - 1, 0x9E3779B97F4A7C15]


def _timeless(row):
    """A stored row without its times (seconds, search_seconds)."""
    seed, verdict, limit, nodes, _seconds, fields = row
    return seed, verdict, limit, nodes, re.sub(r'"search_seconds":[^,]*,', "", fields)


@pytest.mark.parametrize("seed", [0, 1, 42, 2 ** 63, 2 ** 64 - 1])
def test_the_kernel_deals_as_the_reference(seed):
    assert fast.deal_kinds_of_seed(seed) == deal_kinds(deal_from_seed(seed))


@pytest.mark.parametrize("variant", ["continuous", "wild-dragons"])
def test_chunk_rows_are_the_per_seed_rows(variant):
    spec = Spec("pyramid", "thoughtful", variant, "thoughtful")
    per_seed = [row_values(seed, spec.answer(seed)) for seed in SEEDS]
    chunked = thoughtful_rows(SEEDS, variant=variant, limits=THOUGHTFUL_LIMITS)
    assert [_timeless(r) for r in chunked] == [_timeless(r) for r in per_seed]
    assert {r[1] for r in chunked} >= {"won", "lost"}
    assert all(json.loads(r[5])["search_seconds"] <= r[4] for r in chunked)


def test_the_batch_spec_goes_through_the_chunk_path(monkeypatch):
    calls = []
    import solver.pyramid.contract as contract
    real = contract.thoughtful_rows
    monkeypatch.setattr(contract, "thoughtful_rows", lambda seeds, **kw: calls.append(seeds) or real(seeds, **kw))
    rows = Spec("pyramid", "thoughtful", "continuous", "thoughtful", (), (("node_limit", 1000),)).rows([7260, 1])
    assert calls == [[7260, 1]]
    assert [(r[1], r[2]) for r in rows] == [("unknown", "nodes"), ("won", None)]
    assert rows[0][3] > 1000 and rows[1][3] == 144


@pytest.mark.parametrize("variant", [0, 1])
def test_the_batch_checker_agrees_with_name_and_check(variant):
    seeds = [s for s in range(1, 40)]
    answers = fast.solve_seeds(seeds, variant=variant)
    won = [(s, a[8]) for s, a in zip(seeds, answers) if a[0] == "won"]
    checked = pyramid_check.check_seeds([s for s, _ in won], [line for _, line in won], variant)
    for (seed, line), (slots, error, seconds) in zip(won, checked):
        pairs = list(zip(line[0::2], line[1::2]))
        _text, ref_slots, report = name_and_check(deal_from_seed(seed), pairs,
                                                  variant=["continuous", "wild-dragons"][variant])
        assert report.valid and error is None and seconds >= 0
        assert slots == ",".join(map(str, ref_slots))


def test_the_batch_checker_rejects_broken_lines():
    line = fast.solve_seeds([1])[0][8]
    swapped = line[2:4] + line[0:2] + line[4:]
    bad_pos = line[:3] + bytes([200]) + line[4:]
    wrong_seed = pyramid_check.check_seeds([2], [line])[0]
    assert wrong_seed[0] is None and wrong_seed[1][0] >= 1
    assert pyramid_check.check_seeds([1], [swapped])[0][1][0] == 1       # 1e4 is not open on the empty board
    assert pyramid_check.check_seeds([1], [bad_pos])[0][1] == (2, "kind 0-29 and position 0-143")
    short = pyramid_check.check_seeds([1], [line[:-2]])[0]
    assert short[0] is None and short[1] == (144, "the line stops after 143 moves; 144 are needed")
    assert pyramid_check.check_seeds([1], [line])[0][1] is None


def test_a_rejected_line_is_a_solver_bug(monkeypatch):
    import solver.pyramid.chunked as chunked
    monkeypatch.setattr(chunked._checker, "check_seeds",
                        lambda seeds, lines, code: [(None, (5, "made up"), 0.0) for _ in seeds])
    with pytest.raises(SolverBug, match="seed 1: move 5: made up"):
        thoughtful_rows([1], variant="continuous", limits=THOUGHTFUL_LIMITS)


def test_a_batch_first_pass_is_the_tail_threshold_then_the_tail_search(tmp_path):
    """A batch not given a node limit asks the nodes from which the tail search
    takes over (tail.TAIL_FROM); limits given win; a retry of the unknown seeds and a single
    deal keep the 20M default."""
    from solver.batch import make_spec, run_batch
    from solver.pyramid.tail import TAIL_FROM
    from solver.seeds import parse_ranges
    from solver.store import ResultStore
    assert dict(make_spec(game="pyramid", analysis="thoughtful").limits) == {"node_limit": TAIL_FROM}
    assert dict(make_spec(game="pyramid", analysis="thoughtful", node_limit=10 ** 9, time_limit=30).limits) \
        == {"node_limit": 10 ** 9, "time_limit": 30.0}
    assert make_spec(game="pyramid", analysis="blind:greedy").limits == ()
    assert make_spec(game="pyramid", analysis="thoughtful", first_pass=False).limits == ()   # a retry: 20M
    assert THOUGHTFUL_LIMITS.node_limit == 20_000_000
    db = str(tmp_path / "b.sqlite")
    run_batch(db=db, game="pyramid", analysis="thoughtful", ranges=parse_ranges("78159"), workers=1, progress=False)
    with ResultStore(db) as store:
        (row,) = store.db.execute("SELECT verdict, limit_hit, nodes FROM results").fetchall()
    assert row[0] == "lost" and row[1] is None and TAIL_FROM < row[2] < 2 * TAIL_FROM   # the search alone: 9.2M
