"""Boundary under the one contract (solver.boundary.contract, solver.boundary.search.solve)."""
import pytest

from solver.cext.boundary import Board

from solver.boundary import contract
from solver.boundary.contract import (HARD_POSITION, REPETITIONS, Boundary, BoundaryState, GreedyPolicy,
                                      IllegalMove, hard_instance, reference_check)
from solver.boundary.endgames import endgame
from solver.boundary.notation import START, check_position, format_position, parse_position
from solver.boundary.rules import Position, canonical, random_line
from solver.boundary.search import solve
from solver.errors import InputError
from solver.game import LIMITS, VERDICTS, Limits, Result, State
from solver.rng import SplitMix64

FINAL = "Gl+Gm+Gs1r2Rl/4Rm1/4gRs/2Ys3/g1YmBs2/Yl3rBl+Bm r"
WIN_IN_1 = "Bl+Bm+Bs4Rl+Rm/5Rs/2gr2/2rg2/6/Yl+Ym+Ys4Gl+Gm+Gs r"      # (f5-f6) completes Red's exchange
BOXED = "3rBlYl+Ym+Ys/3gBsBm/6/6/gGmGl3/Rl+Rm+RsGsr3 r"            # Red to move has no move
SHUFFLE = ["(a1-b1)", "(f1-e1)", "(b1-a1)", "(e1-f1)"]               # back to the start position


def test_the_state_is_a_contract_state_over_the_reference():
    state = Boundary().new_initial_state(7)
    assert isinstance(state, State) and state.current_player() == 0
    assert str(state) == START and state.position == Position.start()
    assert state.legal_moves() == canonical(Position.start().legal_moves())
    assert len(state.legal_moves()) == 42 and not state.is_terminal()
    assert state.returns() == [0.0, 0.0] and state.winner() is None
    assert Boundary().num_players == 2


def test_notation_round_trips_for_every_legal_move_along_random_games():
    for pos, _move in random_line(3, 120):
        state = BoundaryState(pos)
        for m in state.legal_moves():
            assert state.parse_move(state.format_move(m)) == m
    for bad in ("", "(e1-e9)", "e1-e3", "(e1-e3)(", None):
        with pytest.raises(InputError):
            state.parse_move(bad)


def test_illegal_moves_raise_input_error_and_change_nothing():
    state = Boundary().new_initial_state(0)
    for move in [(None, None, 4, 16), (14, 12, 0, 30), (None, None, 0, 3), "junk", 5]:
        with pytest.raises(InputError):
            state.apply(move)
    assert issubclass(IllegalMove, InputError)
    with pytest.raises(IllegalMove, match="no pyramid of Red's on e1"):
        state.apply_text("(e1-e3)")
    assert str(state) == START and state.repetitions() == 1


def test_clone_is_independent():
    state = Boundary().new_initial_state(0)
    twin = state.clone()
    twin.apply_text("(c3-a3)(a1-c3)")
    assert str(state) == START and str(twin) != START
    assert state.legal_moves() == canonical(Position.start().legal_moves())
    state.apply_text("(a1-b1)")
    assert format_position(twin.position) == "Bl+Bm+Bs4Yl+Ym+Ys/6/2gr2/r1Rsg2/6/Rl+Rm4Gl+Gm+Gs g"


def test_third_repetition_is_a_draw():
    state = Boundary().new_initial_state(0)
    for text in SHUFFLE:
        state.apply_text(text)
    assert state.repetitions() == 2 and not state.is_terminal()
    for text in SHUFFLE[:3]:
        state.apply_text(text)
    assert not state.is_terminal()
    state.apply_text(SHUFFLE[3])
    assert state.repetitions() == REPETITIONS
    assert state.is_terminal() and state.legal_moves() == []
    assert state.returns() == [0.0, 0.0] and state.winner() is None
    with pytest.raises(IllegalMove, match="the game is over"):
        state.apply_text("(a1-b1)")
    reference_check(state)


def test_completing_the_exchange_wins_and_no_move_loses():
    state = BoundaryState(WIN_IN_1)
    state.apply_text("(f5-f6)")
    assert state.is_terminal() and state.winner() == 0 and state.returns() == [1.0, -1.0]
    assert state.legal_moves() == []
    boxed = BoundaryState(BOXED)
    assert boxed.legal_moves() == [] and boxed.is_terminal()
    assert boxed.winner() == 1 and boxed.returns() == [-1.0, 1.0]
    for s in (state, boxed):
        reference_check(s)


def test_reference_check_agrees_along_random_games_and_endgames():
    for seed in range(3):
        for pos, _move in random_line(seed, 100):
            reference_check(BoundaryState(pos))
    for seed in range(30):
        state = BoundaryState(endgame(seed))
        reference_check(state)
        for m in state.legal_moves():
            child = state.clone()
            child.apply(m)
            reference_check(child)


def test_reference_check_can_fail():
    state = Boundary().new_initial_state(0)
    state._moves = state._generated()[1:]          # a generator that forgets a move
    with pytest.raises(AssertionError):
        reference_check(state)


def _wins_at_once(pos: Position, move) -> bool:
    """Brute force in the reference: the move completes the exchange or leaves no move."""
    child = pos.clone()
    child.apply(move)
    return child.result() == pos.side


def _mover_won(board: Board, mover: int) -> bool:
    return board.winner() == mover or (board.winner() is None and board.count_moves() == 0)


def _allows_a_win_at_once(pos: Position, move) -> bool:
    """Brute force with make/unmake in the compiled engine (not its search):
    after ``move`` some reply completes the opponent's exchange or leaves no move."""
    board = Board.from_position(pos)
    board.push(move)
    opp = board.side
    for reply in board.legal_moves():
        board.push(reply)
        if _mover_won(board, opp):
            return True
        board.pop()
    return False


def _endgames_both_sides(seeds):
    """Each seeded endgame with either side to move (where that is a valid position)."""
    for seed in seeds:
        e = endgame(seed)
        for side in (0, 1):
            pos = Position(e.stacks, e.stones, side)
            try:
                check_position(pos)
            except InputError:
                continue
            yield seed, pos


def _quick_wins(pos: Position):
    board = Board.from_position(pos)
    out = []
    for m in canonical(board.legal_moves()):
        board.push(m)
        if _mover_won(board, pos.side):
            out.append(m)
        board.pop()
    return out


def test_greedy_takes_a_win_and_avoids_losing_at_once():
    cases = [(seed, pos, _quick_wins(pos)) for seed, pos in _endgames_both_sides(range(200))]
    threatened = {(seed, 1 - pos.side) for seed, pos, wins in cases if wins}
    took, avoided, checked = 0, 0, 0
    for seed, pos, quick in cases:
        state = BoundaryState(pos)
        if state.is_terminal():
            continue
        moves = state.legal_moves()
        choice = GreedyPolicy().choose(state, SplitMix64(seed))
        if quick or checked < 10:                       # the reference decides what wins
            assert [m for m in moves if _wins_at_once(pos, m)] == quick
        if quick:
            assert choice == quick[0]
            took += 1
        elif (seed, pos.side) in threatened or checked < 10:
            safe = [m for m in moves if not _allows_a_win_at_once(pos, m)]
            assert choice in (safe or moves)
            if safe and len(safe) < len(moves):       # a trap to avoid: never walks into it
                avoided += 1
                for k in range(10):
                    assert GreedyPolicy().choose(state, SplitMix64(1000 + k)) in safe
            checked += 1
    assert took >= 10 and avoided >= 3


def test_solve_speaks_the_contract():
    lost = solve(FINAL, limits=Limits(time_limit=60))
    assert (lost.verdict, lost.limit, lost.fields["plies"]) == ("lost", None, 4)
    assert lost.line[0] == "(e1-f2)(e5-f6)" and len(lost.line) == 4
    state = BoundaryState(FINAL)
    for text in lost.line:
        state.apply_text(text)
    assert state.is_terminal() and state.winner() == 1          # Green wins at the end of the line
    won = solve(WIN_IN_1)
    assert (won.verdict, won.fields["plies"], won.line) == ("won", 1, ["(f5-f6)"])
    unknown = solve(START, max_depth=3)
    assert unknown.verdict == "unknown" and unknown.limit == "nodes" and unknown.line == []
    assert unknown.fields["depth"] == unknown.fields["max_depth"] == 3
    for r in (lost, won, unknown):
        assert isinstance(r, Result) and r.verdict in VERDICTS and (r.limit is None or r.limit in LIMITS)
        assert set(r.fields) == {"plies", "depth", "max_depth", "position", "holding", "draw_by"}
        assert r.nodes > 0 and r.fields["position"] == format_position(parse_position(r.fields["position"]))


def test_solve_honours_every_limit():
    out = solve(HARD_POSITION, limits=Limits(node_limit=1000))
    assert (out.verdict, out.limit) == ("unknown", "nodes")
    out = solve(HARD_POSITION, limits=Limits(time_limit=0.2))
    assert (out.verdict, out.limit) == ("unknown", "time") and out.seconds < 5
    with pytest.raises(InputError):
        solve(FINAL, limits=Limits(table_mb=0.5))
    with pytest.raises(InputError):
        solve(FINAL, max_depth=0)


def test_hard_instance_with_a_node_limit_is_unknown():
    assert contract.HARD_SEED is None
    out = hard_instance(Limits(node_limit=1000))
    assert (out.verdict, out.limit) == ("unknown", "nodes")
    assert out.fields["position"] == HARD_POSITION


def test_entry_declares_the_game():
    entry = contract.ENTRY
    assert entry.name == "boundary" and entry.players == (2, 2) and entry.variants == ()
    assert entry.max_moves == 1000 and entry.analyses == ()
    assert "random" not in entry.policies and "greedy" in entry.policies
    game = entry.make_game(variant=None, players=2)
    assert isinstance(entry.policies["greedy"](game), GreedyPolicy)


def test_playout_through_the_registry_takes_limits_and_seeds_the_policies():
    from solver.games import run_analysis
    a = run_analysis("boundary", "playout", 5, limits=Limits(node_limit=1000),
                     options={"policies": ["greedy", "random"], "max_moves": 40})
    b = run_analysis("boundary", "playout", 5, options={"policies": "greedy,random", "max_moves": 40})
    c = run_analysis("boundary", "playout", 6, options={"policies": ["greedy", "random"], "max_moves": 40})
    assert a.line == b.line and a.line != c.line and a.length == 40
    row = a.to_dict()
    assert row["verdict"] is None and row["winner"] is None and row["outcome"] == "unfinished"
    assert row["policies"] == ["greedy", "random"]
    state = Boundary().new_initial_state(5)
    for text in a.line:
        state.apply_text(text)
