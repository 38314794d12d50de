"""The proof search: the record's last positions, consistency along the record,
every technique against plain search, the exchange bound and its twin.

The kernel's techniques (``solver.cext.boundary.OPTIONS``) change how fast an
answer comes, never the answer: the differential tests switch them off one by
one and compare with the plain search and with the pure-Python reference.
"""
import functools
from pathlib import Path

import pytest

from solver.boundary.analyse import consistent
from solver.boundary.bound import evaluate, exchange_bound, move_delta
from solver.boundary.endgames import endgame
from solver.boundary.notation import format_move, format_position, parse_position
from solver.boundary.reference_search import reference_solve
from solver.boundary.replay import replay_text
from solver.boundary.rules import random_line
from solver.boundary.search import solve, solve_position
from solver.cext.boundary import DEFAULT_OPTS, OPTIONS, Board, improving_moves, is_legal, move_deltas
from solver.game import Limits
from solver.rng import SplitMix64

SEED_FILE = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "boundary.txt"   # ../shared beside the checkout
needs_record = pytest.mark.skipif(not SEED_FILE.exists(), reason="seeds/boundary.txt not present")

# plies before the final position -> (verdict for the side to move, plies to the end)
LAST_SIX = {0: ("lost", 4), 1: ("won", 5), 2: ("lost", 6), 3: ("won", 7), 4: ("lost", 8),
            5: ("won", 9)}


@functools.lru_cache(maxsize=None)
def _record_positions():
    return replay_text(SEED_FILE.read_text()).positions


@functools.lru_cache(maxsize=None)
def _proof(back):
    out = solve_position(_record_positions()[-1 - back], time_limit=60)
    return {"verdict": {"win": "won", "loss": "lost"}.get(out["result"], out["result"]),
            "plies": out["plies"]}


@needs_record
@pytest.mark.parametrize("back", sorted(LAST_SIX))
def test_the_last_six_positions_of_the_record(back):
    got = _proof(back)
    assert (got["verdict"], got["plies"]) == LAST_SIX[back]


@needs_record
def test_seven_plies_back_green_wins_in_11():
    # after Red's 18th move Green wins in 11 (about 1.5 CPU seconds with the order-2 cut,
    # 25 without), though Green's recorded reply leads to a position not lost within 12
    out = solve_position(_record_positions()[-8], time_limit=600)
    assert (out["result"], out["plies"]) == ("win", 11)
    after = solve_position(_record_positions()[-7], max_depth=12, time_limit=600)
    assert after["result"] == "unknown" and after["depth"] == 12
    assert consistent({"verdict": "won", "plies": 11}, {"verdict": "unknown"})


@needs_record
@pytest.mark.slow
def test_eight_plies_back_red_loses_in_12():
    # the deepest proof of the record (about 25 CPU seconds, the order-2 cut's): Red, to
    # move before its 18th move, loses in 12; its recorded move (d3-e2)(e4-f5) is a
    # longest defence (Green then wins in 11: the test above)
    out = solve_position(_record_positions()[-9], time_limit=1200)
    assert (out["result"], out["plies"]) == ("loss", 12)
    assert consistent({"verdict": "lost", "plies": 12}, {"verdict": "won", "plies": 11})


@needs_record
@pytest.mark.slow
def test_nine_plies_back_green_wins_in_13():
    # about 30 CPU seconds: Green, to move after Red's 17th move, wins in 13, and its
    # recorded reply (b3-b5) keeps the win (Red then loses in 12: the test above)
    out = solve_position(_record_positions()[-10], time_limit=1200)
    assert (out["result"], out["plies"]) == ("win", 13)
    assert out["best"] == "(b3-b5)"
    assert consistent({"verdict": "won", "plies": 13}, {"verdict": "lost", "plies": 12})


@needs_record
def test_answers_along_the_record_agree():
    answers = [_proof(back) for back in sorted(LAST_SIX, reverse=True)]   # in game order
    for before, after in zip(answers, answers[1:]):
        assert consistent(before, after), (before, after)
    # what consistent() demands, on answers that break it
    assert not consistent({"verdict": "won", "plies": 7}, {"verdict": "lost", "plies": 4})
    assert not consistent({"verdict": "lost", "plies": 5}, {"verdict": "won", "plies": 5})
    assert not consistent({"verdict": "lost", "plies": 6}, {"verdict": "draw", "plies": None})
    assert consistent({"verdict": "won", "plies": 3}, {"verdict": "won", "plies": 9})


@needs_record
def test_each_recorded_move_in_the_proven_range_keeps_the_line():
    # Red loses in 2n at each of its turns: the winner's recorded moves were the fastest
    positions = _record_positions()
    for back in (1, 3):
        pos = positions[-1 - back]
        nxt = positions[-back]
        r = solve(pos, limits=Limits(time_limit=30))
        assert r.verdict == "won"
        after = solve(nxt, limits=Limits(time_limit=30))
        assert (after.verdict, after.fields["plies"]) == ("lost", r.fields["plies"] - 1)


def _endgames(n):
    out = []
    for seed in range(n):
        pos = endgame(seed)
        if Board.from_position(pos).winner() is None:
            out.append(pos)
    return out


def _answer(out):
    return out["result"], out["plies"]


@pytest.mark.parametrize("off", ["all", *sorted(OPTIONS)])
def test_each_technique_keeps_the_plain_answers(off):
    # plain iterative deepening (no option) against the default with one technique off
    opts = 0 if off == "all" else DEFAULT_OPTS & ~OPTIONS[off]
    checked = decisive = 0
    for pos in _plain_answers():
        got = Board.from_position(pos).search(max_depth=5, opts=opts)
        assert _answer(got) == _plain_answers()[pos], format_position(pos)
        checked += 1
        decisive += got["result"] in ("win", "loss")
    assert checked >= 25 and decisive >= 10


@functools.lru_cache(maxsize=None)
def _plain_answers():
    out = {}
    for pos in _endgames(60):
        plain = Board.from_position(pos).search(max_depth=5, opts=0, node_limit=200_000)
        if plain["result"] != "unknown" or plain["limit"] == "depth":
            out[pos] = _answer(plain)
    return out


@functools.lru_cache(maxsize=None)
def _reference(position, bound):
    return reference_solve(parse_position(position), max_depth=2, bound=bound)


def test_compiled_search_matches_the_reference_with_and_without_the_bound():
    # endgames chosen by what the compiled search answers at depth 2 (six decisive, three
    # not); the reference must give the same answers, with the bound and without
    chosen = {"decisive": [], "unknown": []}
    for pos in _endgames(120):
        got = Board.from_position(pos).search(max_depth=2)
        kind = "unknown" if got["result"] == "unknown" else "decisive"
        if len(chosen[kind]) < (6 if kind == "decisive" else 3):
            chosen[kind].append((pos, got))
    assert len(chosen["decisive"]) == 6 and len(chosen["unknown"]) == 3
    for pos, got in chosen["decisive"] + chosen["unknown"]:
        text = format_position(pos)
        ref = _reference(text, False)
        assert _answer(got) == _answer(ref), text
        assert _answer(_reference(text, True)) == _answer(ref), text
        if ref["result"] == "win":
            assert got["best"] in pos.legal_moves()


def test_bound_and_evaluation_twins_agree_on_random_positions():
    n = 0
    for seed in range(3):
        for pos, _move in random_line(seed, 110):
            board = Board.from_position(pos)
            for player in (0, 1):
                assert board.exchange_bound(player) == exchange_bound(pos, player)
            assert board.evaluate() == evaluate(pos)
            n += 1
    for seed in range(200):
        pos = endgame(seed)
        assert Board.from_position(pos).exchange_bound(pos.side) == exchange_bound(pos, pos.side)
    assert n >= 300


def test_the_bound_never_exceeds_a_proven_win():
    # a win in N plies for the side to move needs N >= 2 * bound - 1 (unless won by
    # leaving the opponent without a move, which the bound does not count)
    wins = 0
    for pos, (result, plies) in _plain_answers().items():     # the plain search, no bound
        if result == "win":
            wins += 1
            assert plies >= 2 * exchange_bound(pos, pos.side) - 1, format_position(pos)
        if result == "loss" and plies > 0:
            assert plies >= 2 * exchange_bound(pos, 1 - pos.side), format_position(pos)
    assert wins >= 5


def test_a_won_line_is_legal_and_ends_in_the_win():
    pos = _record_positions()[-4] if SEED_FILE.exists() else None
    if pos is None:
        pytest.skip("no record")
    r = solve(pos, limits=Limits(time_limit=30))
    assert r.verdict == "won" and len(r.line) == r.fields["plies"] == 7
    from solver.boundary.contract import BoundaryState
    state = BoundaryState(pos)
    for text in r.line:
        state.apply(state.parse_move(text))
    assert state.is_terminal() and state.winner() == pos.side


def test_a_stopped_search_is_unknown_never_a_guess():
    hard = _record_positions()[-13] if SEED_FILE.exists() else endgame(3)
    out = Board.from_position(hard).search(max_depth=40, node_limit=5000)
    assert out["result"] == "unknown" and out["limit"] == "nodes"
    out = Board.from_position(hard).search(max_depth=3)
    assert out["result"] == "unknown" and out["limit"] == "depth"


def _mixed_positions():
    # random lines from the start (midgames) and endgames (pyramids near their places)
    out = [pos for seed in range(2) for pos, _move in random_line(seed, 80)][::4]
    return out + _endgames(40)


def test_filtered_generation_is_the_legal_moves_filtered():
    # gen_filtered keeps, in generation order, the legal moves whose pyramid lands on a
    # square of land_ok[from square], or whose stone lands on a square of stone_ok
    rng = SplitMix64(7)
    kept = 0
    for pos in _mixed_positions():
        board = Board.from_position(pos)
        legal = board.legal_moves()
        land_ok = [rng.next() & ((1 << 36) - 1) & rng.next() for _ in range(36)]
        stone_ok = rng.next() & ((1 << 36) - 1) & rng.next()
        want = [m for m in legal if (land_ok[m[2]] >> m[3]) & 1
                or (m[0] is not None and (stone_ok >> m[1]) & 1)]
        got = board.filtered_moves(land_ok, stone_ok)
        assert got == want, format_position(pos)
        assert board.filtered_moves([(1 << 36) - 1] * 36, 0) == legal
        kept += len(got)
    assert kept > 100


def test_improving_moves_are_the_moves_that_lower_the_bound():
    # the moves generated where the mover has no move to spare: exactly those whose
    # move_delta (the reference bound after the move minus before) is negative
    some = 0
    for pos in _mixed_positions():
        want = [m for m in Board.from_position(pos).legal_moves() if move_delta(pos, m) < 0]
        assert improving_moves(Board.from_position(pos)) == want, format_position(pos)
        assert all(move_delta(pos, m) >= -1 for m in pos.legal_moves())
        some += len(want)
    assert some > 50


def test_remembered_moves_are_checked_by_the_rules():
    # staged search plays the table's move or a killer, found in another position, before
    # generating: it must be legal here exactly when the reference rules say so
    positions = _mixed_positions()
    legal_here = illegal = 0
    for i, pos in enumerate(positions):
        legal = set(pos.legal_moves())
        candidates = legal.union(*(positions[j].legal_moves() for j in (i - 1, i + 1)
                                   if 0 <= j < len(positions)))
        board = Board.from_position(pos)
        for m in sorted(candidates, key=repr):
            assert is_legal(board, m) == (m in legal), (format_position(pos), m)
        legal_here += len(legal)
        illegal += len(candidates - legal)
    assert legal_here > 500 and illegal > 500


def test_move_deltas_are_the_reference_bound_changes():
    # the search passes each child its bounds: the mover's is the parent's plus this delta,
    # so it must be exact (the reference bound after the move minus before), not a bound
    changed = 0
    for pos in _mixed_positions():
        other = exchange_bound(pos, 1 - pos.side)
        for m, delta in move_deltas(Board.from_position(pos)):
            assert delta == move_delta(pos, m), (format_position(pos), m)
            changed += delta != 0
            child = pos.clone()
            child.apply(m)
            assert exchange_bound(child, 1 - pos.side) == other   # the other side's: unchanged
    assert changed > 100
