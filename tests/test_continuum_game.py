"""The full game: balance rule, cards, jacks, policies (rules/continuum.md)."""
from collections import Counter

import pytest

from solver.continuum.cards import CANONICAL_DECK
from solver.continuum.game import Game, play_game, play_turn, summarise, wilson
from solver.continuum.codec import row_key
from solver.continuum.notation import parse_row
from solver.continuum.options import balanced, card_options
from solver.continuum.pieces import pyramid_id
from solver.continuum.pieces import opponent
from solver.continuum.policy import DISTANCES, make_policy
from solver.errors import InputError


def run(seed, balance, policies=("random", "random"), turns=80):
    """Play turn by turn; yields (game, winner) after each turn."""
    game = Game(seed, balance=balance)
    pols = {"A": make_policy(policies[0]), "B": make_policy(policies[1])}
    player = "A"
    for _ in range(turns):
        winner = play_turn(game, player, pols)
        yield game, winner
        if winner:
            return
        player = opponent(player)


@pytest.mark.parametrize("seed", range(6))
def test_three_per_side_after_every_turn_and_cards_conserved(seed):
    for game, winner in run(seed, "turn"):
        cards = game.draw + game.discard + game.hands["A"] + game.hands["B"]
        assert Counter(cards) == Counter(CANONICAL_DECK)
        if not winner:
            assert balanced(game.key)


def test_per_turn_reading_allows_an_unbalancing_switch_that_the_turn_undoes():
    row = parse_row("bL bM bS | rL rM | rS || gS | yL yM yS | gL gM")
    texts = {}
    for balance in ("turn", "card"):
        for final in (False, True):
            game = Game(1, balance=balance)
            game.key = row_key(row)
            game.hands["A"] = ["2h", "2d"]
            texts[balance, final] = {o.text() for o in game.options("A", -1, take_discard=False, final=final)}
    assert "2h: rS x gS" in texts["turn", False]          # 2d switches gS back this turn
    assert "2h: rS x gS" not in texts["turn", True]       # the last play must restore the balance
    assert "2h: rS x gS" not in texts["card", False]
    game = Game(1)
    game.key = row_key(row)
    game.hands["A"] = ["2h", "Qd"]                         # nothing could undo it
    assert "2h: rS x gS" not in {o.text() for o in game.options("A", -1, take_discard=False, final=False)}


def test_the_opponents_single_may_move_again_but_no_other():
    row = parse_row("bL bM bS | rL rM | rS || gS | yL yM yS | gL gM")
    two = {o.text() for o in card_options(row_key(row), "A", "2h", opp=-1, need_balance=False)}
    assert "2h: rS x gS" in two
    moved = row_key(parse_row("bL bM bS | rL rM | gS || rS | yL yM yS | gL gM"))
    again = {o.text() for o in card_options(moved, "A", "2h", opp=pyramid_id("gS"), need_balance=False)}
    other = {o.text() for o in card_options(moved, "A", "2h", opp=pyramid_id("gM"), need_balance=False)}
    assert "2h: gS x rS" in again and "2h: gS x rS" not in other


def test_jack_skips_the_opponents_next_turn():
    seen = 0
    for seed in range(10):
        log = play_game(seed, policies=("random", "random"), max_turns=60).log
        for i, line in enumerate(log):
            if " plays J" in line:
                other = opponent(line[0])
                nxt = next((ln for ln in log[i + 1:] if ln.startswith(other) and " uses " not in ln), None)
                if nxt is not None:
                    assert nxt == f"{other} passes (jack)", (seed, line, nxt)
                    seen += 1
    assert seen >= 5


def test_games_replay_exactly_and_bad_options_are_refused():
    a = play_game(4, policies=("puzzle", "random"), max_turns=50)
    DISTANCES.plans.clear()                 # the plan cache never changes play
    b = play_game(4, policies=("puzzle", "random"), max_turns=50)
    assert a.log == b.log and a.winner == b.winner
    with pytest.raises(InputError):
        play_game(4, balance="never")
    with pytest.raises(InputError):
        play_game(4, policies=("puzzle", "nobody"))


@pytest.mark.parametrize("strong", ["A", "B"])
def test_strong_policy_beats_random_in_either_seat(strong):
    pols = ("puzzle", "random") if strong == "A" else ("random", "puzzle")
    recs = [play_game(s, policies=pols, max_turns=400) for s in range(6)]
    assert sum(r.winner == strong for r in recs) >= 5


def test_strong_vs_strong_games_finish():
    recs = [play_game(s, policies=("puzzle", "puzzle")) for s in range(12)]
    s = summarise(recs)
    assert s["unfinished"] <= 2 and s["length_median"] <= 100
    assert s["win_rate_A_95"][0] <= s["win_rate_A"] <= s["win_rate_A_95"][1]


def test_wilson_interval():
    lo, hi = wilson(8600, 10000)
    assert lo < 0.86 < hi and hi - lo < 0.015
    assert wilson(0, 10)[0] == 0.0
