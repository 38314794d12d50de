"""Blind policies: legal, deterministic, blind to the stock; the compiled pick matches the reference."""
import random

import pytest
from click.testing import CliRunner

from solver.cext import pyramid_blind
from solver.cli.main import solve
from solver.errors import InputError
from solver.pyramid.blind import POLICIES, face_moves, play, quick_key, _places
from solver.pyramid.check import check_solution
from solver.pyramid.deal import Deal, deal_from_seed


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("variant", ["continuous", "wild-dragons"])
def test_games_are_legal_and_end_only_when_stuck(policy, variant):
    for seed in (1, 2, 7):
        deal = deal_from_seed(seed)
        game = play(deal, policy=policy, variant=variant)
        state = face_moves(deal, game, variant=variant)      # replays through the reference rules
        assert state.placed == game.placed
        if game.verdict == "won":
            assert game.placed == 144
            assert check_solution(deal, state.history, variant=variant).valid
        else:
            assert game.placed < 144 and state.legal_moves() == []


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_policies_never_look_at_the_stock(policy):
    """Two deals that differ only beyond the tiles revealed so far get the same moves."""
    deal = deal_from_seed(11)
    base = play(deal, policy=policy)
    k = min(40, base.placed)
    cut = 9 + k                                  # tiles seen after k moves: 9 reserves + k refills
    tail = list(deal.faces[cut:])
    random.Random(3).shuffle(tail)
    other = Deal(deal.faces[:cut] + tuple(tail), deal.seed)
    assert other != deal
    assert play(other, policy=policy).moves[:k] == base.moves[:k]
    assert play(deal, policy=policy).moves == base.moves     # and replays exactly


def test_compiled_quick_pick_matches_the_reference_key():
    rng = random.Random(1)
    for _ in range(300):
        moves = sorted({(rng.randrange(30), rng.randrange(144)) for _ in range(rng.randrange(1, 40))})
        places = _places(moves)
        assert pyramid_blind.quick_pick(moves) == min(moves, key=lambda m: quick_key(m, places))


def test_bad_policy_and_options():
    with pytest.raises(InputError):
        play(deal_from_seed(1), policy="psychic")
    with pytest.raises(InputError):
        play(deal_from_seed(1), policy="lookahead", samples=0)
    with pytest.raises(InputError, match="no option"):
        play(deal_from_seed(1), policy="greedy", samples=3)


def test_play_command_shows_the_game():
    r = CliRunner().invoke(solve, ["pyramid", "play", "--seed", "5", "--policy", "greedy"])
    assert r.exit_code == 0, r.output
    game = play(deal_from_seed(5), policy="greedy")
    assert f"{game.verdict}, {game.placed} of 144" in r.output
    assert "Level 1 (" in r.output
    first = str(face_moves(deal_from_seed(5), game).history[0])
    assert first in r.output


@pytest.mark.parametrize("variant", ["continuous", "wild-dragons"])
def test_a_blind_win_is_never_a_deal_the_search_calls_lost(variant):
    """Two independent answers to one question: a won blind game certifies the deal."""
    from solver.pyramid.analysis import analyse_seed
    lost = [s for s in range(1, 400)
            if analyse_seed(s, variant=variant, node_limit=5_000)["verdict"] == "lost"]
    assert lost
    for seed in lost:
        assert play(deal_from_seed(seed), policy="greedy", variant=variant).verdict == "lost"
