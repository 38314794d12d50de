"""Every registered game keeps the one contract of solver/game.py.

Parametrised over the registry (solver.games), so a sixth game is tested the
day it is registered.  Each game's adapter (solver/<game>/contract.py) exports
``reference_check(state)`` (the contract state against the game's independent
engine at that position) and ``hard_instance(limits)`` (an exact search that a
node limit of 1000 cannot finish).
"""
import importlib

import pytest

from solver import games
from solver.errors import InputError
from solver.game import Game, Limits, Outcome, Result, State
from solver.playout import seat_rng

NAMES = games.names()
STEPS = 80          # moves per random play-out checked step by step
SEEDS = (1, 2, 3)


def contract_module(name):
    return importlib.import_module(f"solver.{name}.contract")


def snapshot(state: State):
    """What a state shows through the contract."""
    terminal = state.is_terminal()
    return (terminal, None if terminal else state.current_player(),
            [state.format_move(m) for m in state.legal_moves()] if not terminal else [])


def random_line(name, seed, steps=STEPS):
    """(state before, move) along a seeded random play-out through the contract."""
    game = games.make_game(name)
    state = game.new_initial_state(seed)
    rng = seat_rng(seed, 0)
    for _ in range(steps):
        if state.is_terminal():
            return
        moves = state.legal_moves()
        move = moves[rng.below(len(moves))]
        yield state, move
        state = state.clone()
        state.apply(move)


def test_the_registry_lists_five_games_with_their_parts():
    assert NAMES == ["pyramid", "spectrum", "boundary", "continental", "continuum"]
    for name in NAMES:
        entry = games.get_game(name)
        assert isinstance(games.make_game(name), Game)
        assert "playout" in [a.name for a in games.analyses(name)]
        assert "random" in games.policy_names(name)


@pytest.mark.parametrize("name", NAMES)
def test_random_playouts_agree_with_the_reference_at_every_step(name):
    check = contract_module(name).reference_check
    steps = 0
    for seed in range(1, 9):            # random Pyramid play sticks early: more deals
        for state, move in random_line(name, seed):
            player = state.current_player()
            assert 0 <= player < games.make_game(name).num_players
            assert move in state.legal_moves()
            check(state)
            steps += 1
    assert steps >= 20, "the play-outs must actually move"


@pytest.mark.parametrize("name", NAMES)
def test_every_legal_move_round_trips_through_notation(name):
    for seed in SEEDS:
        for state, _ in random_line(name, seed, steps=40):
            for move in state.legal_moves():
                text = state.format_move(move)
                assert isinstance(text, str) and text
                back = state.parse_move(text)
                assert back == move, f"{text!r} parsed as {back!r}"
                assert state.format_move(back) == text


@pytest.mark.parametrize("name", NAMES)
def test_clone_is_independent(name):
    for state, move in random_line(name, 5, steps=30):
        before = snapshot(state)
        copy = state.clone()
        copy.apply(move)
        assert snapshot(state) == before
        # and the other way round: playing on the original leaves the clone alone
        again = state.clone()
        frozen = snapshot(again)
        state.clone().apply(move)
        assert snapshot(again) == frozen


@pytest.mark.parametrize("name", NAMES)
def test_an_illegal_move_is_refused_with_input_error(name):
    line = list(random_line(name, 7, steps=60))
    played = [(state.format_move(m), m) for state, m in line]
    refused = 0
    for state, _ in line[1:]:
        legal = {state.format_move(m) for m in state.legal_moves()}
        for text, move in played:           # a move of another position, illegal here
            if text in legal:
                continue
            before = snapshot(state)
            with pytest.raises(InputError):
                state.apply(move)
            assert snapshot(state) == before, "a refused move must leave the state as it was"
            refused += 1
            break
    assert refused > 0, "no move of the line was illegal elsewhere: the test saw nothing"
    with pytest.raises(InputError):
        line[0][0].parse_move("\u2603 not a move")


@pytest.mark.parametrize("name", NAMES)
def test_a_node_limit_gives_unknown_on_a_hard_instance(name):
    res = contract_module(name).hard_instance(Limits(node_limit=1000))
    assert isinstance(res, Result)
    assert res.verdict == "unknown" and res.limit == "nodes"
    assert res.to_dict()["limit"] == "nodes"


@pytest.mark.parametrize("name", NAMES)
def test_every_seeded_analysis_takes_the_same_limits(name):
    """Limits are one thing for every game: no analysis rejects or ignores them."""
    from solver.batch import make_spec
    for analysis in games.analyses(name):
        if analysis.seeded:
            spec = make_spec(game=name, analysis=analysis.name, node_limit=1000, time_limit=5, table_mb=16)
            assert dict(spec.limits) == {"node_limit": 1000, "time_limit": 5.0, "table_mb": 16.0}


@pytest.mark.parametrize("name", NAMES)
def test_a_playout_through_the_shared_loop(name):
    out = games.run_analysis(name, "playout", 11, options={"max_moves": 40})
    assert isinstance(out, Outcome)
    d = out.to_dict()
    assert d["verdict"] is None and d["outcome"] in ("finished", "unfinished")
    assert d["length"] == len(d["line"]) <= 40
    assert d["winner"] is None or 0 <= d["winner"] < len(d["scores"])
    again = games.run_analysis(name, "playout", 11, options={"max_moves": 40})
    assert again.line == out.line, "a seeded play-out replays exactly"
