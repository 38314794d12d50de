"""The engine (bestmove), its policy in play-outs, and the analyse command."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import solver.cli.main
from solver.boundary.contract import Boundary, BoundaryState, EnginePolicy
from solver.boundary.endgames import endgame
from solver.boundary.engine import bestmove, score_text
from solver.boundary.notation import format_move, format_position
from solver.boundary.search import solve_position
from solver.cext.boundary import Board
from solver.games import run_analysis
from solver.rng import SplitMix64

RECORD = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "boundary.txt"   # ../shared beside the checkout
needs_record = pytest.mark.skipif(not RECORD.exists(), reason="seeds/boundary.txt not present")


def run(*args):
    return CliRunner().invoke(solver.cli.main.solve, ["boundary", *args])


def _random_positions(n):
    """``n`` positions from seeded random games (every 6th ply) and endgames, none over."""
    out = []
    seed = 0
    while len(out) < n:
        rng = SplitMix64(seed)
        state = Boundary().new_initial_state(0)
        for ply in range(60):
            moves = state.legal_moves()
            if not moves:
                break
            if ply % 6 == 5:
                out.append(state.position.clone())
            state.apply(moves[rng.below(len(moves))])
        pos = endgame(seed)
        if Board.from_position(pos).legal_moves():
            out.append(pos)
        seed += 1
    return out[:n]


def test_the_engine_never_plays_an_illegal_move():
    positions = _random_positions(1000)
    assert len({format_position(p) for p in positions}) > 900
    for pos in positions:
        out = bestmove(pos, max_depth=2)
        assert out.move_tuple in pos.legal_moves(), format_position(pos)
        assert out.move == format_move(out.move_tuple)
        assert out.depth == 2 or out.score_text.startswith("win in 1")    # a win in 1 stops at once
        assert [line.depth for line in out.lines] == list(range(1, out.depth + 1))


def _wins_in_3(limit):
    """Endgame positions the proof search proves won in exactly 3 plies."""
    found = []
    seed = 0
    while len(found) < limit and seed < 3000:
        pos = endgame(seed)
        seed += 1
        if Board.from_position(pos).winner() is not None:
            continue
        out = solve_position(pos, max_depth=3)
        if (out["result"], out["plies"]) == ("win", 3):
            found.append(pos)
    return found


def test_the_engine_finds_forced_wins_in_3_plies():
    positions = _wins_in_3(12)
    assert len(positions) >= 8
    for pos in positions:
        out = bestmove(pos, max_depth=5)
        assert out.score_text == "win in 3", format_position(pos)
        child = pos.clone()
        child.apply(out.move_tuple)
        after = solve_position(child, max_depth=2)        # the opponent: lost in 2
        assert (after["result"], after["plies"]) == ("loss", 2), format_position(pos)


def test_scores_and_lines():
    assert score_text(9997) == "win in 3" and score_text(-9996) == "loss in 4" and score_text(12) == "12"
    lines = []
    out = bestmove("Bl+Bm+Bs4Yl+Ym+Ys/6/2gr2/2rg2/6/Rl+Rm+Rs4Gl+Gm+Gs r", max_depth=3, on_depth=lines.append)
    assert [l.depth for l in lines] == [1, 2, 3] and out.depth == 3
    for line in lines:
        state = BoundaryState("Bl+Bm+Bs4Yl+Ym+Ys/6/2gr2/2rg2/6/Rl+Rm+Rs4Gl+Gm+Gs r")
        for text in line.pv:                               # a principal variation is playable
            state.apply(state.parse_move(text))
        assert 1 <= len(line.pv) <= line.depth and line.text().startswith(f"depth {line.depth} score ")


def test_bestmove_command():
    res = run("bestmove", "--position", "Bl+Bm+Bs4Rl+Rm/5Rs/2gr2/2rg2/6/Yl+Ym+Ys4Gl+Gm+Gs r",
              "--time-limit", "1")
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[0].startswith("depth 1 score win in 1")
    assert res.output.splitlines()[-1] == "bestmove (f5-f6)"
    out = json.loads(run("bestmove", "--depth", "3", "--json").output)
    assert out["depth"] == 3 and len(out["lines"]) == 3 and out["move"] == out["lines"][-1]["pv"][0]
    assert run("bestmove", "--position", "6/6 r").exit_code == 2


def test_engine_policy_replays_exactly():
    a = run_analysis("boundary", "playout", 1, options={"policies": "engine,random", "max_moves": 12})
    b = run_analysis("boundary", "playout", 1, options={"policies": "engine,random", "max_moves": 12})
    assert a.line == b.line and a.length == 12 and a.nodes > 12
    # the first move of each seat is drawn from the seat's generator
    first = {EnginePolicy().choose(Boundary().new_initial_state(0), SplitMix64(s)) for s in range(8)}
    assert len(first) > 1


@pytest.mark.slow
def test_engine_policy_beats_random(request):
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("slow: select with -m slow")
    a = run_analysis("boundary", "playout", 1, options={"policies": "engine,random", "max_moves": 200})
    assert a.finished and a.winner == 0
    state = Boundary().new_initial_state(1)
    for text in a.line:
        state.apply(state.parse_move(text))
    assert state.winner() == 0


@needs_record
def test_analyse_the_record(tmp_path):
    res = run("analyse", str(RECORD), "--last", "4", "--time-limit", "10", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    positions = out["positions"]
    assert len(positions) == 43 and positions[-1]["position"] == "Gl+Gm+Gs1r2Rl/4Rm1/4gRs/2Ys3/g1YmBs2/Yl3rBl+Bm r"
    got = [(p["verdict"], p["plies"]) for p in positions[-4:]]
    assert got == [("won", 7), ("lost", 6), ("won", 5), ("lost", 4)]
    assert out["consistent"] is True and out["proven_from"] == 39 and out["resigned"] == "red"
    assert out["turning_point"] is None             # Red was lost all through the proven range
    assert positions[-1]["best"] == "(e1-f2)(e5-f6)"
    text = run("analyse", str(RECORD), "--last", "2", "--time-limit", "5")
    assert text.exit_code == 0 and "Red loses in 4" in text.output and "consistent along the record: yes" in text.output
    bad = tmp_path / "bad.txt"
    bad.write_text("1. (e1-e3)\n")
    assert run("analyse", str(bad)).exit_code == 2


def test_turning_point_is_found_where_a_win_is_thrown_away(tmp_path):
    # a two-ply record: Red to move wins in 1 with (f5-f6) but plays elsewhere
    from solver.boundary.analyse import Ply, _turning_point
    before = Ply(0, None, None, "x", "red", "won", plies=1, best="(f5-f6)")
    after = Ply(1, "(a1-a2)", "1. (a1-a2)", "y", "green", "won", plies=3)
    tp = _turning_point([before, after])
    assert tp["ply"] == 1 and tp["mover"] == "red" and tp["better_move"] == "(f5-f6)"
    assert _turning_point([before, Ply(1, "(f5-f6)", "1. (f5-f6)", "z", "green", "lost", plies=0)]) is None


def test_shortened_defence_is_named_when_no_proven_change_of_hands():
    from solver.boundary.analyse import Ply, _shortened, _turning_point, not_lost_within
    before = Ply(36, "(x)", "18. (x)", "p", "red", "unknown", proof_depth=13, holds="(a1-a2)")
    after = Ply(37, "(b1-a2)(b5-a6)", "18... (b1-a2)(b5-a6)", "q", "green", "won", plies=9)
    assert not_lost_within(before) == 12 and _turning_point([before, after]) is None
    tp = _shortened([before, after])
    assert tp["ply"] == 37 and tp["basis"] == "depth" and tp["after"] == "Red loses in 10"
    assert tp["better_move"] == "(a1-a2)"
    before.proof_depth = 9              # not lost within 8 only: the move may have been forced
    assert _shortened([before, after]) is None
