"""The longest line of a deal that is not won: truthful, and never shorter than blind play."""
import pytest

from solver.game import Limits
from solver.games import run_analysis
from solver.pyramid.check import replay
from solver.pyramid.deal import deal_from_seed
from solver.pyramid.rules import PyramidGame
from solver.pyramid.search import solve


@pytest.mark.parametrize("seed, blind", [(2, 2), (41, 10)])
def test_the_issue_seeds(seed, blind):
    """Seed 2 showed 1 placed tile where blind play places 2; seed 41 showed 1 where it places 10."""
    result = solve(deal_from_seed(seed))
    assert result.verdict == "lost"
    assert result.deepest == len(result.best_line) >= blind
    assert replay(deal_from_seed(seed), result.best_line).placed == result.deepest


@pytest.mark.parametrize("variant", ["continuous", "wild-dragons"])
def test_no_stored_row_places_fewer_tiles_than_blind_play(variant):
    below, lost = [], 0
    for seed in range(1, 301):
        row = run_analysis("pyramid", "thoughtful", seed, variant=variant)
        if row.verdict == "won":
            assert row.fields["placed"] == 144 and row.fields["longest_exact"]
            continue
        lost += 1
        for policy in ("blind:greedy", "blind:lookahead"):
            blind = run_analysis("pyramid", policy, seed, variant=variant).fields["placed"]
            if row.fields["placed"] < blind:
                below.append((seed, policy, row.fields["placed"], blind))
    assert lost > 20 and below == []


def _longest_by_brute_force(deal, variant, cap=50_000):
    """Most tiles any line places: plain DFS on the reference state, boards memoised."""
    seen = {}
    visits = [0]

    def longest(state):
        key = tuple(state.board)
        if key in seen:
            return seen[key]
        visits[0] += 1
        assert visits[0] < cap, "too big for the brute force"
        best = state.placed
        for move in state.legal_moves():
            child = state.clone()
            child.apply(move)
            best = max(best, longest(child))
        seen[key] = best
        return best

    return longest(PyramidGame(deal, variant).new_initial_state())


def test_an_exact_longest_line_is_the_brute_force_maximum():
    """Where the kernel says its longest line is exact, no line places more (small cases)."""
    compared = 0
    for seed in range(1, 120):
        result = solve(deal_from_seed(seed), node_limit=100_000)
        if result.verdict != "lost" or not result.longest_exact or result.deepest > 4:
            continue
        assert _longest_by_brute_force(deal_from_seed(seed), "continuous") == result.deepest
        compared += 1
    assert compared >= 3


def test_unknown_keeps_a_line_at_least_as_long_as_blind_play():
    row = run_analysis("pyramid", "thoughtful", 7260, limits=Limits(node_limit=1000))
    assert row.verdict == "unknown" and row.fields["longest_exact"] is False
    blind = run_analysis("pyramid", "blind:greedy", 7260).fields["placed"]
    assert row.fields["placed"] >= blind


@pytest.mark.parametrize("variant", ["continuous", "wild-dragons"])
def test_the_bound_keeps_the_longest_line(variant):
    """The longest-line search with its relaxation bound against the same search
    without it: where both finish they find the same number of tiles, and the
    bound finishes wherever the plain search does (and on more deals)."""
    from solver.cext import pyramid as fast
    from solver.pyramid.search import VARIANT_CODES
    both = more = 0
    for seed in range(1, 301):
        kinds = fast.deal_kinds_of_seed(seed)
        bounded = fast.solve_kinds(kinds, variant=VARIANT_CODES[variant], node_limit=200_000)
        if bounded["verdict"] != "lost":
            continue
        plain = fast.solve_kinds(kinds, variant=VARIANT_CODES[variant], node_limit=200_000, longest_bound=False)
        assert plain["nodes"] == bounded["nodes"]
        if plain["longest_exact"]:
            assert bounded["longest_exact"] and bounded["deepest"] == plain["deepest"], seed
            assert bounded["longest_nodes"] <= plain["longest_nodes"]
            both += 1
        elif bounded["longest_exact"]:
            assert bounded["deepest"] >= plain["deepest"], seed
            more += 1
    assert both > 20 and more > 0
