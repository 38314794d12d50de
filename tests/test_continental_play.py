"""Play through the contract: conservation of cards, valid table, honest scores,
the shared play-out loop, reproducibility, and the contract's own checks."""
from __future__ import annotations

import json

import pytest

from solver.continental.contract import ENTRY, HARD_SEED, hard_instance, reference_check
from solver.continental.game import Continental, ContinentalState
from solver.continental.layoff import Meld, lay_off_spots
from solver.continental.notation import JOKER, N_KINDS, Pack, parse_card
from solver.continental.policies import GreedyPolicy
from solver.continental.round import CLAIM, PASS, TAKE, new_round
from solver.continental.rules import is_straight, is_trio
from solver.errors import InputError
from solver.game import Limits, RandomPolicy, State
from solver.playout import play_out, seat_rng


def seats(game, names):
    return [GreedyPolicy(game) if names[i % len(names)] == "greedy" else RandomPolicy()
            for i in range(game.players)]


def play_rounds(seed, players, names, *, check_every=0):
    """Play game ``seed`` to the end; return the finished RoundStates and the final state.

    With ``check_every`` N, :func:`reference_check` runs at every N-th position."""
    game = Continental(players=players)
    st = game.new_initial_state(seed)
    policies = seats(game, names)
    rngs = [seat_rng(seed, s) for s in range(players)]
    rounds, moves = [], 0
    while not st.is_terminal():
        if check_every and moves % check_every == 0:
            reference_check(st)
        r = st.round
        seat = st.current_player()
        st.apply(policies[seat].choose(st, rngs[seat]))
        moves += 1
        if st.round is not r or st.is_terminal():
            rounds.append(r)
    reference_check(st)
    return rounds, st


@pytest.mark.parametrize("players,names", [(2, ("greedy", "random")), (3, ("random",)),
                                           (4, ("greedy", "greedy", "random", "greedy"))])
def test_rounds_conserve_cards_and_keep_the_table_valid(players, names):
    pack = Pack()
    for seed in range(2):
        rounds, st = play_rounds(seed, players, names)
        assert [r.number for r in rounds] == list(range(1, 8))
        for r in rounds:
            total = sum(sum(p.hand) for p in r.players) + len(r.stock) + len(r.discard)
            total += sum(len(m.cards) for m in r.melds)
            assert total == pack.size - (1 if r.closer is not None else 0)
            for m in r.melds:
                assert (is_trio if m.kind == "trio" else is_straight)(m.cards), m
            if r.closer is not None:
                assert sum(r.players[r.closer].hand) == 0
                assert r.players[r.closer].down


def test_scores_are_the_points_left_and_returns_are_minus_the_totals():
    rounds, st = play_rounds(5, 3, ("greedy",))
    assert st.round_scores == [r.returns() for r in rounds]
    for scores, closer in zip(st.round_scores, st.closers):
        if closer is not None:
            assert scores[closer] == 0
    assert st.totals == [sum(s[i] for s in st.round_scores) for i in range(3)]
    assert st.returns() == [-float(t) for t in st.totals]
    low = min(st.totals)
    tops = [i for i, t in enumerate(st.totals) if t == low]
    assert st.winner() == (tops[0] if len(tops) == 1 else None)


def test_a_tie_for_the_lowest_total_has_no_winner():
    st = Continental(players=3).new_initial_state(0)
    st.number, st.round.phase, st.totals = 7, "over", [10, 40, 10]
    assert st.is_terminal() and st.winner() is None
    st.totals = [11, 40, 10]
    assert st.winner() == 2


def test_greedy_games_are_unchanged_by_the_contract():
    # Pinned from the engine before the contract (play.play_game, greedy seats draw no
    # randomness), so the rounds, deals and policy are the same game for game.
    game = Continental(players=2)
    out = play_out(game, seats(game, ("greedy",)), seed=0, max_moves=ENTRY.max_moves)
    assert out.finished and out.scores == [-365.0, -8.0] and out.winner == 1 and out.length == 504
    game = Continental(players=4)
    out = play_out(game, seats(game, ("greedy",)), seed=1, max_moves=ENTRY.max_moves)
    assert out.scores == [-189.0, -151.0, -200.0, -303.0] and out.length == 977


def test_playouts_through_the_registry_are_reproducible_and_greedy_beats_random():
    from solver.games import run_analysis
    a = run_analysis("continental", "playout", 11, options={"policies": ["greedy", "random"]})
    b = run_analysis("continental", "playout", 11, options={"policies": ["greedy", "random"]})
    assert a.line == b.line and a.scores == b.scores and a.finished
    assert a.to_dict()["verdict"] is None and a.winner in (0, 1)
    json.dumps(a.to_dict())
    wins = [0, 0]
    for seed in range(100, 112):
        out = run_analysis("continental", "playout", seed)     # defaults: greedy, random
        assert out.fields["policies"] == ["greedy", "random"]
        if out.winner is not None:
            wins[out.winner] += 1
    assert wins[0] > wins[1]
    # the record replays on a fresh state to the same totals
    st = Continental(players=2).new_initial_state(11)
    for text in a.line:
        st.apply(st.parse_move(text))
    assert st.is_terminal() and st.returns() == a.scores


def test_max_moves_lets_every_game_finish():
    # a turn is at most take/pass, three claims and a discard, and a round at most 400 turns
    assert ENTRY.max_moves >= 7 * 400 * 5 and ENTRY.players == (2, 4)
    assert ENTRY.default_policies == ("greedy", "random") and "random" not in ENTRY.policies


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


def test_bad_game_parameters():
    with pytest.raises(InputError):
        Continental(players=5)
    with pytest.raises(InputError):
        Continental(players=4, decks=1, jokers_per_deck=0)   # 52 cards: too few for 4 x 13
    with pytest.raises(InputError):
        Continental(decks=0)
    with pytest.raises(InputError):
        Continental().new_initial_state(-1)


def _all_rounds(count=3):
    for seed in range(count):
        yield from play_rounds(555 + seed, 3, ("greedy", "random", "greedy"))[0]


def test_event_log_follows_the_rules():
    closes = claims = 0
    for st in _all_rounds():
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
    for st in _all_rounds(2):
        went_down_this_turn = None
        for action, seat, card in st.log:
            if action == "down":
                went_down_this_turn = seat
            elif action in ("discard", "close"):
                went_down_this_turn = None
            elif action in ("layoff", "swap-joker"):
                assert seat != went_down_this_turn


def test_round_state_interface():
    st = new_round(Continental(players=3), 2, 99, 0)
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
    steps = 0
    while not twin.is_terminal():
        actions = twin.legal_actions()
        twin.apply(PASS if PASS in actions else actions[0])
        steps += 1
    assert steps > 10 and len(twin.returns()) == 3


# ---- the contract's State ----------------------------------------------------------

def test_the_state_is_a_contract_state_and_its_moves_round_trip():
    game = ENTRY.make_game(variant=None, players=3)
    st = game.new_initial_state(9)
    assert isinstance(st, ContinentalState) and isinstance(st, State) and game.num_players == 3
    policies = seats(game, ("random",))
    rngs = [seat_rng(9, s) for s in range(3)]
    seen = set()
    for _ in range(600):
        if st.is_terminal():
            break
        for m in st.legal_moves():
            text = st.format_move(m)
            assert st.parse_move(text) == m and type(st.parse_move(text)) is type(m)
            seen.add(text)
        seat = st.current_player()
        st.apply(policies[seat].choose(st, rngs[seat]))
    assert {"take", "pass", "claim", "X"} <= seen and len(seen) > 40
    assert st.parse_move(" TAKE ") == "take" and st.parse_move("10h") == parse_card("Th")


@pytest.mark.parametrize("bad", ["", "Zz", "discard", "take it", "11h"])
def test_bad_move_text_is_input_error(bad):
    st = Continental().new_initial_state(1)
    with pytest.raises(InputError):
        st.parse_move(bad)


def test_illegal_moves_raise_input_error_and_change_nothing():
    st = Continental().new_initial_state(3)
    before = st.clone()
    for bad in ("claim", 5, True, None, "discard"):
        with pytest.raises(InputError):
            st.apply(bad)
    st.apply("pass")
    st.apply("pass")                      # seat 2 does not claim; seat 1 draws
    assert st.round.phase == "discard"
    held = set(st.legal_moves())
    missing = next(c for c in range(N_KINDS) if c not in held)
    for bad in (missing, True, "take", N_KINDS, -1):
        with pytest.raises(InputError):
            st.apply(bad)
    assert before.round.phase == "take" and before.round.log == []   # the clone is independent
    with pytest.raises(InputError, match="does not hold"):
        st.apply_text(st.format_move(missing))


def test_clone_is_independent_across_rounds():
    rounds, final = play_rounds(2, 2, ("greedy",))
    st = Continental().new_initial_state(2)
    policies = seats(st.game, ("greedy",))
    while st.number < 3:
        st.apply(policies[st.current_player()].choose(st, None))
    twin = st.clone()
    snapshot = (list(st.totals), st.number, [list(p.hand) for p in st.round.players], len(st.round.log))
    while not twin.is_terminal():
        twin.apply(policies[twin.current_player()].choose(twin, None))
    assert twin.totals == final.totals
    assert snapshot == (list(st.totals), st.number, [list(p.hand) for p in st.round.players],
                        len(st.round.log))
    with pytest.raises(InputError):
        twin.apply("take")               # the game is over


def test_reference_check_catches_a_broken_state():
    _, st = play_rounds(4, 2, ("greedy", "random"), check_every=25)
    broken = Continental().new_initial_state(4)
    broken.round.players[0].hand[0] += 1          # a card from nowhere
    with pytest.raises(AssertionError):
        reference_check(broken)


def test_hard_instance_stops_at_the_node_limit():
    assert HARD_SEED is not None
    r = hard_instance(Limits(node_limit=1000))
    assert (r.verdict, r.limit, r.nodes, r.fields["deficiency"]) == ("unknown", "nodes", 1000, None)
    full = hard_instance(Limits())
    assert full.verdict == "lost" and full.limit is None and full.nodes > 1000
