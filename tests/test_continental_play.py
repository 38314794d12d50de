"""Play-outs: conservation of cards, valid table, honest scores, reproducibility."""
from __future__ import annotations

import json

import pytest

from solver.continental.analysis import analyse_seed
from solver.continental.notation import JOKER, Pack
from solver.continental.play import (
    Meld, make_policy, lay_off_spots, play_game, play_many, play_round,
)
from solver.continental.rules import is_straight, is_trio
from solver.errors import InputError
from solver.rng import SplitMix64


@pytest.mark.parametrize("players,names", [(2, ("greedy", "random")), (3, ("random",)),
                                           (4, ("greedy", "greedy", "random", "greedy"))])
def test_rounds_conserve_cards_and_keep_the_table_valid(players, names):
    pack = Pack()
    for number in range(1, 8):
        for seed in range(3):
            rng = SplitMix64(seed)
            seats = [make_policy(names[i % len(names)], rng, pack, True) for i in range(players)]
            st = play_round(number, 1000 * number + seed, seats, 0, pack=pack, joker_limit=True)
            total = sum(sum(p.hand) for p in st.players) + len(st.stock) + len(st.discard)
            total += sum(len(m.cards) for m in st.melds)
            assert total == pack.size - (1 if st.closer is not None else 0)
            for m in st.melds:
                assert (is_trio if m.kind == "trio" else is_straight)(m.cards), m
            if st.closer is not None:
                assert sum(st.players[st.closer].hand) == 0
                assert st.players[st.closer].down


def test_games_are_reproducible_and_greedy_beats_random():
    a = play_game(11, players=2, policies=("greedy", "random"))
    b = play_game(11, players=2, policies=("greedy", "random"))
    assert a == b
    summary = play_many(12, seed=100, players=2, policies=("greedy", "random"))
    assert summary["win_rate"][0] > summary["win_rate"][1]
    assert abs(sum(summary["win_rate"]) - 1) < 1e-9
    json.dumps(summary)


def test_scores_are_the_points_left():
    r = play_game(5, players=3, policies=("greedy",))
    for scores, closer in zip(r["round_scores"], r["closers"]):
        if closer is not None:
            assert scores[closer - 1] == 0
    assert r["scores"] == [sum(s[i] for s in r["round_scores"]) for i in range(3)]


def test_lay_off_rules():
    straight = Meld("straight", [11, 12, 0, 1], 0)   # Qs Ks As 2s
    assert lay_off_spots(straight, 2, True) == [[11, 12, 0, 1, 2]]     # 3s at the top
    assert lay_off_spots(straight, 10, True) == [[10, 11, 12, 0, 1]]   # Js below
    assert lay_off_spots(straight, 13 + 2, True) == []                  # 3h: wrong suit
    trio = Meld("trio", [5, 18, JOKER], 0)             # 6s 6h X
    assert lay_off_spots(trio, 31, True) == [[5, 18, JOKER, 31]]
    assert lay_off_spots(trio, JOKER, True) == [[5, 18, JOKER, JOKER]]  # 2 jokers, 2 naturals
    full = Meld("trio", [5, 18, JOKER, JOKER], 0)
    assert lay_off_spots(full, JOKER, True) == []      # a third joker breaks the limit
    assert lay_off_spots(full, JOKER, False) == [[5, 18, JOKER, JOKER, JOKER]]


def test_bad_play_input():
    with pytest.raises(InputError):
        play_game(0, players=5)
    with pytest.raises(InputError):
        play_game(0, policies=("clever",))
    with pytest.raises(InputError):
        play_many(0)


def test_analyse_seed_play():
    r = analyse_seed(3, analysis="play", players=2, policies=("greedy", "random"))
    assert r["verdict"] in ("seat-1", "seat-2", "tie") and r["nodes"] > 0 and "seconds" in r
    json.dumps(r)


def _rounds(players=3, names=("greedy", "random", "greedy"), count=40):
    pack = Pack()
    for k in range(count):
        number = k % 7 + 1
        rng = SplitMix64(k)
        seats = [make_policy(names[i % len(names)], rng, pack, True) for i in range(players)]
        yield play_round(number, 555 + k, seats, k % players, pack=pack, joker_limit=True)


def test_event_log_follows_the_rules():
    closes = claims = 0
    for st in _rounds():
        claimed_since_turn = set()
        down = set()
        for action, seat, card in st.log:
            if action == "claim":
                claimed_since_turn.add(seat)
                claims += 1
            elif action in ("layoff", "swap-joker"):
                assert seat in down  # laying off only after going down, on a later turn
            elif action == "down":
                assert seat not in down  # once per round
                down.add(seat)
            elif action == "close":
                assert seat not in claimed_since_turn  # no closing after a penalty card
                closes += 1
            elif action == "discard":
                claimed_since_turn.discard(seat)
        if st.closer is not None:
            assert st.log[-1][0] == "close"
    assert closes > 10 and claims > 10  # the sample exercises both rules


def test_lay_off_only_on_a_later_turn():
    for st in _rounds(count=20):
        went_down_this_turn = None
        for action, seat, card in st.log:
            if action == "down":
                went_down_this_turn = seat
            elif action in ("discard", "close"):
                went_down_this_turn = None
            elif action in ("layoff", "swap-joker"):
                assert seat != went_down_this_turn


def test_round_state_interface():
    from solver.continental.play import CLAIM, PASS, TAKE, Game
    st = Game(players=3).new_round(2, 99, 0)
    assert not st.is_terminal() and st.current_player() == 0
    assert st.legal_actions() == [TAKE, PASS]
    with pytest.raises(InputError):
        st.apply("discard")
    twin = st.clone()
    st.apply(PASS)
    assert st.phase == "claim" and st.current_player() == 1 and st.legal_actions() == [CLAIM, PASS]
    assert twin.phase == "take" and twin.log == []  # the clone is independent
    st.apply(CLAIM)
    assert st.players[1].penalty and sum(st.players[1].hand) == 8 + 2
    assert st.phase == "discard" and st.current_player() == 0
    card = st.legal_actions()[0]
    st.apply(card)
    assert st.log[-1] == ("discard", 0, card) and st.current_player() == 1
    # play the clone out with fixed choices: always pass, discard the first card
    steps = 0
    while not twin.is_terminal():
        actions = twin.legal_actions()
        twin.apply(PASS if PASS in actions else actions[0])
        steps += 1
    assert steps > 10 and len(twin.returns()) == 3
