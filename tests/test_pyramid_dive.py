"""The straight dive that starts each round of the compiled search changes nothing.

``cext/pyramid.pyx`` (``_dive``) plays the first move of the ordering at every
node without the table probe and the cuts; when that does not win, the search
takes over exactly where it would have been.  The pure-Python twin of the
whole search is ``reference_search`` (tests/test_pyramid_fast_vs_reference.py:
the same nodes and lines, the dive on); here the search with the dive is held
to the same search without it, field for field but the times.
"""
import pytest

from solver.cext import pyramid as fast

TIMES = ("seconds", "cpu_seconds", "dives", "dive_wins")


def _solve(kinds, **kw):
    return fast.solve_kinds(kinds, **kw)


def _timeless(answer):
    return {k: v for k, v in answer.items() if k not in TIMES}


@pytest.mark.parametrize("variant", [0, 1])
def test_a_chunk_is_the_same_with_and_without_the_dive(variant):
    seeds = list(range(1, 301)) + [2181, 2340, 2 ** 64 - 1]
    with_dive = fast.solve_seeds(seeds, variant=variant, node_limit=20000)
    without = fast.solve_seeds(seeds, variant=variant, node_limit=20000, dive=False)
    drop = lambda a: a[:3] + a[4:10]       # all but seconds, extra_seconds, cpu_seconds
    assert [drop(a) for a in with_dive] == [drop(a) for a in without]
    verdicts = {a[0] for a in with_dive}
    assert verdicts >= {"won", "lost"}


@pytest.mark.parametrize("variant", [0, 1])
@pytest.mark.parametrize("seed", [1, 6, 20, 370, 2181, 2340])
@pytest.mark.parametrize("node_limit", [0, 1, 60, 144, 145, 150, 5146, 20000])
def test_node_limits_and_restarts(variant, seed, node_limit):
    kinds = fast.deal_kinds_of_seed(seed)
    for first_round in (5000, 0, 100):
        a = _solve(kinds, variant=variant, node_limit=node_limit or 40000, first_round=first_round)
        b = _solve(kinds, variant=variant, node_limit=node_limit or 40000, first_round=first_round, dive=False)
        assert _timeless(a) == _timeless(b)
        assert a["dives"] >= 1 and b["dives"] == 0


@pytest.mark.parametrize("variant", [0, 1])
def test_from_a_position_played_first(variant):
    """A prefix: the dive starts where it ends (``hint`` decides positions so)."""
    for seed in (1, 6, 21, 25):
        kinds = fast.deal_kinds_of_seed(seed)
        won = _solve(kinds, variant=variant, node_limit=40000)
        line = won["moves"] or won["deepest_line"]
        for cut in (1, 5, 30, len(line) // 2):
            prefix = line[:cut]
            a = _solve(kinds, variant=variant, node_limit=40000, prefix=prefix)
            b = _solve(kinds, variant=variant, node_limit=40000, prefix=prefix, dive=False)
            assert _timeless(a) == _timeless(b)


def test_both_ways_out_of_a_dive_are_taken():
    """Dives that win and dives that stop (the search then resumes under them),
    in the first round and in later ones; never in the tail search."""
    answers = [_solve(fast.deal_kinds_of_seed(s), node_limit=40000) for s in (1, 6, 20, 370, 2181, 2340)]
    assert answers[0]["dive_wins"] == 1 and answers[0]["nodes"] == 144
    assert answers[1]["verdict"] == "won" and answers[1]["dive_wins"] == 0     # won after the dive stopped
    assert answers[4]["verdict"] == "lost" and answers[4]["dives"] == 3       # three rounds
    assert answers[5]["dive_wins"] == 1 and answers[5]["dives"] == 2         # the second round's dive won
    assert _solve(fast.deal_kinds_of_seed(1), tail=True)["dives"] == 0
