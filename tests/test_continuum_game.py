"""The full game as a contract state: balance rule, cards, jacks, policies (rules/continuum.md)."""
from collections import Counter

import pytest

from solver.continuum.cards import CANONICAL_DECK
from solver.continuum.codec import row_key
from solver.continuum.contract import ENTRY, reference_check
from solver.continuum.game import Continuum, ContinuumState, Stuck
from solver.continuum.notation import parse_row
from solver.continuum.options import balanced, card_options
from solver.continuum.pieces import opponent, pyramid_id
from solver.continuum.policy import DISTANCES, PuzzlePolicy
from solver.errors import InputError
from solver.game import RandomPolicy
from solver.games import run_analysis
from solver.playout import seat_rng


def run(seed, balance="turn", policies=(RandomPolicy(), RandomPolicy()), moves=150):
    """Play decision by decision; yields the state after each move."""
    state = ContinuumState(seed, balance=balance)
    rngs = [seat_rng(seed, 0), seat_rng(seed, 1)]
    for _ in range(moves):
        if state.is_terminal():
            return
        seat = state.current_player()
        state.apply(policies[seat].choose(state, rngs[seat]))
        yield state


def at_turn_start(state):
    return state.phase in ("play", "stuck") and state.plays == 0 and not state.took and state.moved < 0


@pytest.mark.parametrize("seed", range(6))
def test_three_per_side_at_every_turns_start_and_cards_conserved(seed):
    starts = 0
    for state in run(seed):
        cards = state.draw + state.discard + state.hands["A"] + state.hands["B"]
        assert Counter(cards) == Counter(CANONICAL_DECK)
        if at_turn_start(state):
            assert balanced(state.key)
            starts += 1
    assert starts >= 20


@pytest.mark.parametrize("seed", range(3))
def test_per_card_variant_keeps_the_balance_after_every_card(seed):
    for state in run(seed, balance="card"):
        if not state.is_terminal():
            assert balanced(state.key), state.log[-1]


def test_per_turn_reading_allows_an_unbalancing_switch_that_the_turn_undoes():
    row = parse_row("bL bM bS | rL rM | rS || gS | yL yM yS | gL gM")
    texts = {}
    for balance in ("turn", "card"):
        for final in (False, True):
            state = ContinuumState(1, balance=balance)
            state.key = row_key(row)
            state.hands["A"] = ["2h", "2d"]
            texts[balance, final] = {o.text() for o in state.options("A", -1, take_discard=False, final=final)}
    assert "2h: rS x gS" in texts["turn", False]          # 2d switches gS back this turn
    assert "2h: rS x gS" not in texts["turn", True]       # the last play must restore the balance
    assert "2h: rS x gS" not in texts["card", False]
    state = ContinuumState(1)
    state.key = row_key(row)
    state.hands["A"] = ["2h", "Qd"]                        # nothing could undo it
    assert "2h: rS x gS" not in {o.text() for o in state.options("A", -1, take_discard=False, final=False)}


def test_neither_the_top_discard_nor_a_jack_may_end_a_turn_unbalanced():
    """Taking the top discard does not count as a play, so even before the
    turn's last play it may unbalance the row only if a card in hand can
    restore it; a jack moves nothing, so it cannot end a turn on an unbalanced
    row.  (Both let a turn end with two pyramids on a side.)"""
    row = parse_row("bL bM bS | rL rM | rS || gS | yL yM yS | gL gM")
    state = ContinuumState(1)
    state.key, state.hands["A"], state.discard = row_key(row), ["Qd"], ["2h"]
    texts = {o.text() for o in state.options("A", -1, take_discard=True, final=True)}
    assert "2h (top discard): rS x gS" not in texts
    state.hands["A"] = ["2d"]                               # 2d can switch gS back
    texts = {o.text() for o in state.options("A", -1, take_discard=True, final=True)}
    assert "2h (top discard): rS x gS" in texts and "2d: rS x gS" not in texts
    unbalanced = parse_row("bL bM bS | rL rM | gS || rS | yL yM yS | gL gM")
    state.key, state.hands["A"] = row_key(unbalanced), ["Jd"]
    assert state.options("A", pyramid_id("gS"), take_discard=False, final=True) == []
    assert [o.text() for o in state.options("A", -1, take_discard=False, final=False)] == []
    state.key = row_key(row)
    assert [o.text() for o in state.options("A", -1, take_discard=False, final=True)] == \
        ["Jd: opponent passes next turn"]


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
        log = []
        for state in run(seed, moves=120):
            log = state.log
        for i, line in enumerate(log):
            if " plays J" in line:
                other = opponent(line[0])
                nxt = next((ln for ln in log[i + 1:] if ln.startswith(other) and " uses " not in ln), None)
                if nxt is not None:
                    assert nxt == f"{other} passes (jack)", (seed, line, nxt)
                    seen += 1
    assert seen >= 5


def test_decisions_belong_to_the_right_seat():
    """A stuck player chooses discard/pass; after a pass the opponent uses the passer's card."""
    phases = Counter()
    for seed in range(8):
        for state in run(seed, moves=200):
            if state.is_terminal():
                break
            phases[state.phase] += 1
            seat = "AB"[state.current_player()]
            if state.phase == "use":
                assert seat == opponent(state.turn_player)
                assert all(o.card in state.hands[state.turn_player] for o in state.legal_moves())
            else:
                assert seat == state.turn_player
            if state.phase == "stuck":
                moves = state.legal_moves()
                assert moves[-1] == Stuck("pass") and all(m.action == "discard" for m in moves[:-1])
    assert phases["play"] and phases["stuck"] and phases["use"]


def test_chance_is_the_games_own_stream_whatever_the_policies():
    """The deck and the first roll come from SplitMix64(seed), not from the seats."""
    a = ContinuumState(11)
    b = next(run(11))
    assert a.log[0] == b.log[0] and a.log[0].startswith("A rolls")
    assert ContinuumState(11).draw == ContinuumState(11).draw != ContinuumState(12).draw


def test_contract_state_agrees_with_the_reference_along_random_games():
    checked = 0
    for seed in (0, 1):
        state = ContinuumState(seed)
        reference_check(state)
        for state in run(seed, moves=25):
            reference_check(state)
            checked += 1
    assert checked >= 40


def test_notation_round_trips_and_illegal_moves_are_refused():
    state = ContinuumState(5)
    for move in state.legal_moves():
        assert state.parse_move(state.format_move(move)) == move
    other = ContinuumState(6)
    foreign = next(m for m in other.legal_moves() if m not in state.legal_moves())
    with pytest.raises(InputError):
        state.apply(foreign)
    with pytest.raises(InputError):
        state.apply_text("9z: rS>")
    with pytest.raises(InputError):
        state.apply_text("pass")                # not stuck
    with pytest.raises(InputError):
        state.parse_move(None)


def test_clones_are_independent():
    state = ContinuumState(3)
    copy = state.clone()
    before = (state.key, list(state.hands["A"]), list(state.draw), state.rng.state, len(state.log))
    for _ in range(10):
        copy.apply(copy.legal_moves()[0])
    assert (state.key, state.hands["A"], state.draw, state.rng.state, len(state.log)) == before
    assert state.clone().legal_moves() == state.legal_moves()


def test_games_replay_exactly_and_bad_options_are_refused():
    opts = {"policies": ["puzzle", "random"], "max_moves": 80}
    a = run_analysis("continuum", "playout", 4, options=opts)
    DISTANCES.plans.clear()                 # the plan cache never changes play
    b = run_analysis("continuum", "playout", 4, options=opts)
    assert a.line == b.line and a.winner == b.winner
    with pytest.raises(InputError):
        run_analysis("continuum", "playout", 4, variant="never")
    with pytest.raises(InputError):
        run_analysis("continuum", "playout", 4, options={"policies": ["puzzle", "nobody"]})
    with pytest.raises(InputError):
        Continuum("never")


@pytest.mark.parametrize("strong", [0, 1])
def test_strong_policy_beats_random_in_either_seat(strong):
    pols = ["puzzle", "random"] if strong == 0 else ["random", "puzzle"]
    outs = [run_analysis("continuum", "playout", s, options={"policies": pols, "max_moves": 800})
            for s in range(6)]
    assert sum(o.winner == strong for o in outs) >= 5


def test_strong_vs_strong_games_finish_and_match_the_turn_loop():
    """Seeded strong games (the puzzle policy draws nothing) are the games the
    old turn loop played: seed 1 is A's win in 29 moves (17 turns)."""
    outs = [run_analysis("continuum", "playout", s) for s in range(12)]
    assert sum(not o.finished for o in outs) <= 2
    lengths = sorted(o.length for o in outs if o.finished)
    assert lengths[len(lengths) // 2] <= 160
    state = Continuum().new_initial_state(1)
    for text in outs[1].line:
        state.apply_text(text)
    assert (state.winner(), state.turns, outs[1].length) == (0, 17, 29)


def test_entry_declares_the_game():
    assert ENTRY.players == (2, 2) and ENTRY.variants == ("turn", "card") and ENTRY.default_variant == "turn"
    assert ENTRY.default_policies == ("puzzle", "puzzle") and isinstance(ENTRY.policies["puzzle"](None), PuzzlePolicy)
    assert "random" not in ENTRY.policies and ENTRY.max_moves >= 2000
