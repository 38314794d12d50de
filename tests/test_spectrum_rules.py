"""Rules of the reference engine that the issue names, and Spectrum's contract adapter."""
import hashlib
import time

import pytest

from solver.errors import InputError
from solver.game import Limits, RandomPolicy, Result
from solver.playout import play_out, seat_rng
from solver.spectrum import contract
from solver.spectrum.contract import ENTRY, Spectrum, SpectrumState, reference_check
from solver.spectrum.notation import format_stash, parse_stash
from solver.spectrum.rules import EXCHANGE, Game, IllegalMove, Move, State, parse_move
from solver.spectrum.search import min_turns, reach, solve_seed, table_bits

GOALS = "orange/red/yellow lime/green/teal cyan/blue/purple"
MIN_TURNS_KEYS = {"verdict", "limit", "nodes", "seconds", "line", "turns", "lower_bound", "goals",
                  "proof", "iterations"}


def test_setup_supply_and_seeded_goals():
    st = Game(3, 42).new_state()
    assert all(st.bank(c * 3 + 1) == 1 and st.bank(c * 3) == 4 for c in range(12))
    assert st.goals == Game(3, 42).new_state().goals
    assert all(len(b) == 9 for b in st.bags)


def test_exchange_sizes_disjoint_and_value_kept():
    st = State.custom(parse_stash("red:SSMM"), [(5, 5, 5), (6, 6, 6), (7, 7, 7)], 1)
    moves = [m for m in st.legal_moves() if m.give == (2, 2, 0)]
    assert [str(m) for m in moves] == ["exchange S:red S:red M:red M:red -> L:orange L:orange"]


def test_taking_from_another_stash_only_when_bank_lacks():
    st = Game(4, 1).new_state()     # bank holds 0 mediums of every colour
    ups = [m for m in st.legal_moves() if m.kind != EXCHANGE]
    assert ups and all(not m.sources for m in ups)
    st.stashes[0][1 * 3 + 0] = 2
    moves = [m for m in st.legal_moves() if m.colour == 1 and m.give == (2, 0, 0)]
    assert moves and all(len(m.sources) == 1 for m in moves)   # the medium comes from a player


def test_conversion_reverses_direction_and_draws():
    st = State.custom(parse_stash("red:SL orange:SM"), [(0, 1, 0), (6, 6, 6), (7, 7, 7)], 1)
    before = list(st.bags[0])
    st.play("upconvert S:orange -> M:orange")
    # orange:MM now, red:SL: goal red/orange/red matched and converted
    assert st.direction == -1 and format_stash(st.stashes[0]) == "orange:M"
    assert st.goals[0] != (0, 1, 0) or st.bags[0] != before
    assert st.winner == 0


def test_bad_stash():
    with pytest.raises(InputError):
        parse_stash("red:SSSSS")


# -- the contract adapter -----------------------------------------------------
def _random_states(players, seeds, turns):
    """Contract states along seeded random games."""
    for seed in seeds:
        st = Spectrum(players).new_initial_state(seed)
        rng = seat_rng(seed, 7)
        for _ in range(turns):
            if st.is_terminal():
                break
            yield st
            moves = st.legal_moves()
            st.apply(moves[rng.below(len(moves))])


def test_contract_state_maps_onto_the_reference():
    st = Spectrum(2).new_initial_state(3)
    assert isinstance(st, SpectrumState) and st.num_players == 2
    assert st.current_player() == 0 and st.legal_moves() == Game(2, 3).new_state().legal_moves()
    st.apply(st.parse_move("exchange M:red -> S:orange S:orange"))
    assert st.current_player() == 1 and st.ref.turn == 1
    twin = st.clone()
    twin.apply(twin.legal_moves()[0])
    assert st.ref.turn == 1 and st.current_player() == 1 and twin.ref.turn == 2
    with pytest.raises(InputError):
        Spectrum(5)


def test_returns_and_winner_name_the_winning_seat():
    st = Spectrum(1).new_initial_state(10)
    for text in solve_seed(10).line:
        assert st.returns() == [0.0] and st.winner() is None
        st.apply_text(text)
    assert st.is_terminal() and st.returns() == [1.0] and st.winner() == 0
    out = play_out(Spectrum(2), [ENTRY.policies["solver"](Spectrum(2)), RandomPolicy()], seed=1,
                   max_moves=200)
    assert out.finished and out.winner == 0 and out.scores == [1.0, 0.0]


def test_notation_round_trips_every_legal_move_with_sources():
    """Every legal move, including pieces taken from named players, reads back."""
    with_sources = 0
    for st in _random_states(4, range(1, 6), 25):
        for m in st.legal_moves():
            assert st.parse_move(st.format_move(m)) == m
            with_sources += bool(m.sources)
    assert with_sources > 20


def test_a_source_of_another_colour_or_size_is_refused():
    """The old parser read only the size of a source: '[S:blue from P2]' on an
    orange receipt parsed as if it said orange."""
    good = "exchange M:red -> S:orange S:orange [S:orange from P2]"
    assert parse_move(good).sources == ((0, 1),)
    for bad in ("exchange M:red -> S:orange S:orange [S:blue from P2]",
                "exchange M:red -> S:orange S:orange [M:orange from P2]",
                "exchange M:red -> S:orange S:orange [S:orange from P0]"):
        with pytest.raises(InputError):
            parse_move(bad)


def test_illegal_moves_raise_input_error():
    st = Spectrum(2).new_initial_state(1)
    for move in (Move(EXCHANGE, 0, 1, (0, 1, 0), (0, 0, 1)),           # value not kept
                 parse_move("exchange M:red -> S:orange S:orange [S:orange from P2]"),  # bank has it
                 "exchange M:red -> S:orange S:orange"):                # text, not a move
        with pytest.raises(IllegalMove):
            st.apply(move)
    assert issubclass(IllegalMove, InputError)
    with pytest.raises(InputError):
        st.parse_move("swap M:red")


def test_reference_check_agrees_with_the_kernel_and_catches_a_difference():
    for players in (1, 3):
        for st in _random_states(players, range(1, 4), 15):
            reference_check(st)
    st = Spectrum(1).new_initial_state(2)
    st.ref.legal_moves = lambda: Game(1, 2).new_state().legal_moves()[1:]
    with pytest.raises(AssertionError):
        reference_check(st)


def test_entry_declares_the_game():
    assert ENTRY.name == "spectrum" and ENTRY.players == (1, 4) and ENTRY.max_moves == 200
    assert set(ENTRY.policies) == {"solver"} and ENTRY.default_policies == ("solver",)
    (analysis,) = ENTRY.analyses
    assert analysis.name == "min-turns" and analysis.kind == "exact" and analysis.seeded
    assert analysis.default_limits == Limits(100_000_000, 60.0, 192.0)
    assert ENTRY.make_game(variant=None, players=3).num_players == 3


# -- the min-turns analysis: one Result, the same keys, limits honoured --------
def test_min_turns_answers_a_result_with_the_same_keys_whatever_the_verdict():
    """The old JSON had 'plan', 'proof' and 'turns_detail' only when won and
    'limit', 'lower_bound' only when unknown."""
    won = ENTRY.analyses[0].run(10, game=Spectrum(), limits=ENTRY.analyses[0].default_limits)
    unknown = ENTRY.analyses[0].run(27, game=Spectrum(), limits=Limits(1000, 60.0, 192.0))
    assert isinstance(won, Result) and won.verdict == "won" and won.limit is None
    assert won.fields["turns"] == 7 == len(won.line) and won.fields["lower_bound"] == 7
    assert unknown.verdict == "unknown" and unknown.limit == "nodes" and unknown.line == []
    assert unknown.fields["turns"] is None and unknown.fields["proof"] is None
    assert set(won.to_dict()) == set(unknown.to_dict()) == MIN_TURNS_KEYS
    st = Game(1, 10).new_state()
    for text in won.line:
        st.play(text)
    assert st.winner == 0


def test_hard_instance_under_a_node_limit_is_unknown_nodes():
    res = contract.hard_instance(Limits(node_limit=1000))
    assert contract.HARD_SEED == 27
    assert res.verdict == "unknown" and res.limit == "nodes" and 1000 <= res.nodes < 2000


def test_time_and_table_limits_are_honoured():
    """The old analysis took max_nodes/max_seconds/tt_bits keywords and the
    batch's node_limit was refused; now Limits bound every search."""
    cpu = time.process_time()
    res = solve_seed(27, limits=Limits(time_limit=0.05))
    assert res.verdict == "unknown" and res.limit == "time" and time.process_time() - cpu < 1.0
    res = solve_seed(10, limits=Limits(table_mb=0.001))    # not even a 16-entry table fits
    assert res.verdict == "unknown" and res.limit == "memory" and res.nodes == 0
    assert solve_seed(10, limits=Limits(table_mb=1)).fields["turns"] == 7
    assert table_bits(192) == 20 and table_bits(1) == 12 and table_bits(0.001) is None


@pytest.mark.parametrize("seed, turns", [(1, 7), (3, 8), (9, 9), (13, 9), (20, 9), (26, 7)])
def test_minimums_are_unchanged(seed, turns):
    assert solve_seed(seed).fields["turns"] == turns


def test_a_won_stash_takes_zero_turns():
    # value 1 already wins: the minimum is 0 turns, the plan empty
    st = State.custom(parse_stash("red:S"), [(5, 5, 5), (6, 6, 6), (7, 7, 7)], 1)
    assert min_turns(st).fields["turns"] == 0


# -- reach ----------------------------------------------------------------------
def test_reach_verdicts_and_the_reachable_field():
    res = reach("red:M orange:SL", GOALS, "cw", "red:M orange:S yellow:SM")
    assert res.verdict == "won" and res.fields["reachable"] is True and res.fields["turns"] == 1
    assert res.line == ["exchange L:orange -> S:yellow M:yellow"]
    res = reach("orange:SS", GOALS, "cw", "red:L")
    assert res.verdict == "lost" and res.fields["reachable"] is False and "exhaustion" in res.fields["proof"]
    big = ("red:MMLL orange:SMLL yellow:ML green:LLL", GOALS, "cw", "red:S")
    res = reach(*big, limits=Limits(node_limit=1000))
    assert res.verdict == "unknown" and res.limit == "nodes" and res.nodes == 1000
    assert res.fields["reachable"] is None
    res = reach(*big, limits=Limits(table_mb=0.5))
    assert res.verdict == "unknown" and res.limit == "memory"
    cpu = time.process_time()
    res = reach(*big, limits=Limits(time_limit=0.2))
    assert res.verdict == "unknown" and res.limit == "time" and time.process_time() - cpu < 1.0


# -- play-outs through the shared loop -----------------------------------------
# Recorded from the old loop (solver.spectrum.play.play_game, solver budget
# 200 000 nodes) before it was deleted: length, winner (0-based) and the
# sha256 of the moves joined by newlines.
OLD_LOOP = [
    (2, 1, ["solver", "random"], 13, 0, "080a30addc89feb9"),
    (2, 2, ["random", "random"], 200, None, "3a1e24e20f1d84cd"),
    (3, 5, ["random", "solver", "random"], 20, 1, "c687b0b4c1127678"),
    (4, 7, ["random"] * 4, 200, None, "abef08bd433c12b9"),
    (2, 184, ["solver", "solver"], 21, 0, "8daded47266f7cdb"),
]


@pytest.mark.parametrize("players, seed, policies, length, winner, sha", OLD_LOOP)
def test_shared_loop_replays_the_old_play_outs(players, seed, policies, length, winner, sha):
    game = Spectrum(players)
    seats = [ENTRY.policies[p](game) if p in ENTRY.policies else RandomPolicy() for p in policies]
    out = play_out(game, seats, seed=seed, max_moves=ENTRY.max_moves)
    assert (out.length, out.winner) == (length, winner)
    assert hashlib.sha256("\n".join(out.line).encode()).hexdigest()[:16] == sha
    assert out.finished == (winner is not None)


def test_solver_policy_over_budget_steps_by_the_bound_and_still_wins():
    """With a one-node budget every search fails; the fallback is the move
    whose result has the least lower bound, which still finishes games
    (a random fallback once wandered for 200 turns on seed 184)."""
    from solver.spectrum.play import SolverPolicy
    from solver.spectrum.search import closest_move
    game = Spectrum(2)
    for seed in (184, 7, 8):
        out = play_out(game, [SolverPolicy(node_limit=1), RandomPolicy()], seed=seed, max_moves=200)
        assert out.winner == 0
    st = Game(1, 10).new_state()
    move = closest_move(st)
    assert move is not None and move in st.legal_moves()


def test_solver_policy_counts_its_nodes():
    from solver.spectrum.play import SolverPolicy
    policy = SolverPolicy()
    out = play_out(Spectrum(1), [policy], seed=10, max_moves=200)
    assert out.finished and out.winner == 0 and policy.nodes > 0
    assert out.nodes == out.length + policy.nodes
