"""Blind policies: legal, deterministic, blind to the stock; the compiled pick matches the reference;
the Policy twins in the shared play-out loop make the compiled loop's games."""
import json
import random

import pytest
from click.testing import CliRunner

from solver.cext import pyramid_blind
from solver.cli.main import solve
from solver.errors import InputError
from solver.game import Limits, Policy
from solver.games import make_policy, run_analysis
from solver.playout import play_out, seat_rng
from solver.pyramid.blind import (Greedy, GreedyPolicy, Lookahead, LookaheadPolicy, face_moves, play, play_steps,
                                  quick_key, _places)
from solver.pyramid.check import check_solution
from solver.pyramid.deal import Deal, deal_from_seed
from solver.pyramid.rules import Pyramid

PLAYERS = {"greedy": Greedy, "lookahead": Lookahead}


@pytest.mark.parametrize("policy", sorted(PLAYERS))
@pytest.mark.parametrize("variant", ["continuous", "wild-dragons"])
def test_games_are_legal_and_end_only_when_stuck(policy, variant):
    for seed in (1, 2, 7):
        deal = deal_from_seed(seed)
        game = play(deal, PLAYERS[policy](), variant=variant)
        state = face_moves(deal, game, variant=variant)      # replays through the reference rules
        assert state.placed == game.placed
        if game.verdict == "won":
            assert game.placed == 144
            assert check_solution(deal, state.history, variant=variant).valid
        else:
            assert game.placed < 144 and state.legal_moves() == []


@pytest.mark.parametrize("policy", sorted(PLAYERS))
def test_policies_never_look_at_the_stock(policy):
    """Two deals that differ only beyond the tiles revealed so far get the same moves."""
    deal = deal_from_seed(11)
    base = play(deal, PLAYERS[policy]())
    k = min(40, base.placed)
    cut = 9 + k                                  # tiles seen after k moves: 9 reserves + k refills
    tail = list(deal.faces[cut:])
    random.Random(3).shuffle(tail)
    other = Deal(deal.faces[:cut] + tuple(tail), deal.seed)
    assert other != deal
    assert play(other, PLAYERS[policy]()).moves[:k] == base.moves[:k]
    assert play(deal, PLAYERS[policy]()).moves == base.moves     # and replays exactly


def test_compiled_quick_pick_matches_the_reference_key():
    rng = random.Random(1)
    for _ in range(300):
        moves = sorted({(rng.randrange(30), rng.randrange(144)) for _ in range(rng.randrange(1, 40))})
        places = _places(moves)
        assert pyramid_blind.quick_pick(moves) == min(moves, key=lambda m: quick_key(m, places))


def test_bad_player_and_options():
    with pytest.raises(InputError):
        play(deal_from_seed(1), "psychic")
    with pytest.raises(InputError):
        Lookahead(samples=0)
    with pytest.raises(InputError, match="option samples must be at least 1"):
        run_analysis("pyramid", "blind:lookahead", 1, options={"samples": 0})
    with pytest.raises(InputError, match="no option 'samples'"):
        run_analysis("pyramid", "blind:greedy", 1, options={"samples": 3})
    with pytest.raises(InputError, match="whole number"):
        run_analysis("pyramid", "blind:lookahead", 1, options={"width": "wide"})


@pytest.mark.parametrize("policy", sorted(PLAYERS))
@pytest.mark.parametrize("variant", ["continuous", "wild-dragons"])
def test_shared_loop_makes_the_compiled_loops_games(policy, variant):
    """The Policy twin through solver.playout.play_out makes exactly the moves of the
    compiled blind loop (the blind analysis), with the same nodes."""
    game = Pyramid(variant)
    for seed in (1, 3, 5, 8):
        fast = run_analysis("pyramid", f"blind:{policy}", seed, variant=variant)
        out = play_out(game, [make_policy("pyramid", policy, game)], seed=seed, max_moves=144)
        assert out.line == fast.line, seed
        assert out.nodes == fast.nodes and out.finished
        assert (out.winner == 0) == (fast.verdict == "won") and out.scores == [1.0 if fast.verdict == "won" else 0.0]
        compiled = play(deal_from_seed(seed), PLAYERS[policy](), variant=variant)
        assert [m for m in fast.line] == [str(m) for m in face_moves(deal_from_seed(seed), compiled, variant=variant).history]


def test_policy_twins_are_policies_and_ignore_the_seat_rng():
    """The lookahead's imagined worlds come from the deal's seed, not from the seat's rng;
    its choice depends on the state alone (asked twice, or out of order, it answers the same)."""
    state = Pyramid().new_initial_state(5)
    for _ in range(30):
        state.apply(GreedyPolicy().choose(state, seat_rng(5, 0)))
    assert isinstance(LookaheadPolicy(), Policy) and LookaheadPolicy.name == "lookahead"
    policy = LookaheadPolicy()
    first = policy.choose(state, seat_rng(1, 0))
    assert policy.choose(state, seat_rng(2, 0)) == first                  # again, another rng
    assert LookaheadPolicy().choose(state, seat_rng(3, 0)) == first       # a fresh policy, mid-game
    later = state.clone()
    later.apply(first)
    assert policy.choose(later, None) == LookaheadPolicy().choose(later, None)


def test_lookahead_options_change_the_game():
    a = run_analysis("pyramid", "blind:lookahead", 3)
    b = run_analysis("pyramid", "blind:lookahead", 3, options={"samples": 1, "width": 2, "depth": 0})
    assert a.nodes != b.nodes


@pytest.mark.parametrize("policy", sorted(PLAYERS))
def test_blind_analyses_honour_the_node_limit(policy):
    """`run_batch(..., node_limit=1000)` was ignored by the blind analyses (they always
    played to the end): a game that needs more nodes now stops as unknown/nodes."""
    full = run_analysis("pyramid", f"blind:{policy}", 1)
    assert full.verdict == "won" and full.nodes > 900
    cut = run_analysis("pyramid", f"blind:{policy}", 1, limits=Limits(node_limit=300))
    assert cut.verdict == "unknown" and cut.limit == "nodes"
    assert 300 <= cut.nodes <= 300 + 50
    assert cut.line == full.line[:len(cut.line)] and cut.fields["placed"] == len(cut.line) < 144
    roomy = run_analysis("pyramid", f"blind:{policy}", 1, limits=Limits(node_limit=full.nodes + 1))
    assert roomy.verdict == "won" and roomy.line == full.line


def test_blind_analysis_honours_the_time_limit():
    out = run_analysis("pyramid", "blind:lookahead", 1, limits=Limits(time_limit=1e-9))
    assert out.verdict == "unknown" and out.limit == "time" and out.line == []


def test_play_command_goes_through_the_shared_loop():
    r = CliRunner().invoke(solve, ["pyramid", "play", "--seed", "5", "--policy", "greedy", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    fast = run_analysis("pyramid", "blind:greedy", 5)
    assert data["line"] == fast.line and data["policies"] == ["greedy"]
    assert data["winner"] == (0 if fast.verdict == "won" else None)
    text = CliRunner().invoke(solve, ["pyramid", "play", "--seed", "5", "--policy", "lookahead"])
    assert text.exit_code == 0 and f"   1. {run_analysis('pyramid', 'blind:lookahead', 5).line[0]}" in text.output


@pytest.mark.parametrize("variant", ["continuous", "wild-dragons"])
def test_a_blind_win_is_never_a_deal_the_search_calls_lost(variant):
    """Two independent answers to one question: a won blind game certifies the deal."""
    lost = [s for s in range(1, 400)
            if run_analysis("pyramid", "thoughtful", s, variant=variant,
                            limits=Limits(node_limit=5_000)).verdict == "lost"]
    assert lost
    for seed in lost:
        assert play(deal_from_seed(seed), Greedy(), variant=variant).verdict == "lost"


@pytest.mark.parametrize("variant", ["continuous", "wild-dragons"])
def test_the_compiled_players_play_the_python_players_games(variant):
    """cext's play_blind (behind play) against play_steps, the Python players' decisions
    on the engine: the same moves, nodes, verdicts and limits, with options and node limits."""
    cases = [(seed, Greedy(), None) for seed in range(1, 25)]
    cases += [(seed, Lookahead(), None) for seed in range(1, 13)]
    cases += [(13, Lookahead(samples=2, width=7, depth=3), None), (14, Lookahead(samples=1, width=1, depth=0), None),
              (15, Lookahead(samples=3, width=2, depth=10), None), (16, Greedy(), 60), (17, Lookahead(), 250),
              (18, Lookahead(), 1)]
    for seed, player, limit in cases:
        deal = deal_from_seed(seed)
        fast = play(deal, player, variant=variant, node_limit=limit)
        slow = play_steps(deal, player, variant=variant, node_limit=limit)
        assert (fast.verdict, fast.moves, fast.nodes, fast.limit, fast.placed) == \
            (slow.verdict, slow.moves, slow.nodes, slow.limit, slow.placed), (seed, player.name, limit)
    assert play_steps(deal_from_seed(1), Lookahead(), node_limit=250).limit == "nodes"
