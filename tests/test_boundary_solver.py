"""The endgame solver against results proven by the pure-Python reference.

Each entry was derived with ``reference_solve(pos, max_depth=D)`` (plain
alpha-beta, no table; re-derived by the slow test below).  The record's final
position was proven a loss in 4 plies for Red by the reference at depth 4
(about 270 s, hence slow).
"""
import json

import pytest
from click.testing import CliRunner

import solver.cli.main
from solver.boundary.notation import format_move, parse_position
from solver.boundary.reference_search import reference_solve
from solver.boundary.search import solve_position

FINAL = "Gl+Gm+Gs1r2Rl/4Rm1/4gRs/2Ys3/g1YmBs2/Yl3rBl+Bm r"

# (position, depth the reference searched, result, plies, best move or None)
ENDGAMES = [
    ("Gl+Gm2Rm2/1Gsg1YmRs/YlYs4/6/r2g2/1Rl1r1Bl+Bm+Bs g", 2, "win", 1, "(b5-a6)"),
    ("Gl+Gm+Gs5/Rm3Yl1/1r1Rl2/2Ys1Rsr/1Ymgg1Bs/5Bl+Bm r", 2, "loss", 2, None),
    ("Gl+Gm+Gs3Rsr/5Ys/3g2/rYm1Rl2/g1Rm2Bs/4YlBl+Bm r", 2, "loss", 2, None),
    ("Gl+Gm+Gs4Yl/Rm5/1r1Rl1r/2Ys1Rs1/1Ymgg1Bs/5Bl+Bm g", 2, "win", 1, "(f2-f1)"),
    ("Gl+Gm+Gs3RsYs/4r1/3g2/rYm1Rl2/g1Rm2Bs/4YlBl+Bm g", 2, "win", 1, "(f2-f1)"),
    ("Bl+Bm+Bs4Rl+Rm/5Rs/2gr2/2rg2/6/Yl+Ym+Ys4Gl+Gm+Gs r", 2, "win", 1, "(f5-f6)"),
    ("Glr4/Ys5/3Rl1Rm/2Gs2g/Gm1gr2/1RsYm1YlBl+Bm+Bs g", 2, "unknown", None, None),
    ("Gl+Gm+Gs2g2/Yl1Rs1Rl1/r2Ys2/1Bs4/g2rRm1/1Ym3Bl+Bm r", 2, "unknown", None, None),
    ("gBm3Rl/1Glr1g1/6/Gs2Rm1r/Rs1Bl1Gm1/Yl+Ym+Ys3Bs1 g", 2, "unknown", None, None),
    (FINAL, 4, "loss", 4, "(e1-f2)(e5-f6)"),
]


@pytest.mark.parametrize("position, depth, result, plies, best", ENDGAMES)
def test_compiled_solver_matches_reference_results(position, depth, result, plies, best):
    out = solve_position(position, max_depth=depth, time_limit=30)
    assert out["result"] == result
    assert out["plies"] == plies
    if best is not None and result == "win":
        assert out["best"] == best
    if result == "loss" and plies > 2:
        assert out["best"] == best          # the longest defence, as the reference found


def test_final_position_red_resigned_a_lost_game():
    out = solve_position(FINAL, max_depth=12, time_limit=30)
    assert (out["result"], out["plies"]) == ("loss", 4)


@pytest.mark.parametrize("position", [e[0] for e in ENDGAMES[:6]])
def test_deeper_search_keeps_proven_results(position):
    shallow = solve_position(position, max_depth=2)
    deep = solve_position(position, max_depth=5, time_limit=20)
    assert (deep["result"], deep["plies"]) == (shallow["result"], shallow["plies"])


HARD = "Gl+Gm5/2Gsg1Rl/Ym1r2Rs/2Ys1Rm1/g2BsrBm/Yl4Bl r"   # the record, 6 plies before its end


def test_limits_give_unknown_not_a_guess():
    out = solve_position(HARD, max_depth=12, node_limit=2000)
    assert out["result"] == "unknown" and out["limit"] == "nodes"
    out = solve_position("Bl+Bm+Bs4Yl+Ym+Ys/6/2gr2/2rg2/6/Rl+Rm+Rs4Gl+Gm+Gs r", max_depth=3)
    assert out["result"] == "unknown" and out["limit"] == "depth"


def test_repetition_is_not_a_win():
    # From the start nobody can win within 6 plies, and shuffling a small pyramid
    # back and forth repeats positions: the solver must not call either a win.
    out = solve_position("Bl+Bm+Bs4Yl+Ym+Ys/6/2gr2/2rg2/6/Rl+Rm+Rs4Gl+Gm+Gs r", max_depth=4,
                         tt_mb=1)
    assert out["result"] == "unknown"


def test_solve_json_and_bad_input():
    runner = CliRunner()
    res = runner.invoke(solver.cli.main.solve, ["boundary", "solve", "--position", FINAL, "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["verdict"] == "lost" and out["plies"] == 4 and out["line"][0] == "(e1-f2)(e5-f6)"
    for bad in ["6/6/6 r", FINAL.replace("Yl3", "Yl+Yl2"), FINAL.replace(" r", " x"),
                FINAL.replace("Bl+Bm", "Bl+Bm+Bs")]:
        res = runner.invoke(solver.cli.main.solve, ["boundary", "solve", "--position", bad])
        assert res.exit_code == 2, (bad, res.output)
        assert res.output.startswith("solve: error: ") and res.output.count("\n") == 1


@pytest.mark.slow
@pytest.mark.parametrize("position, depth, result, plies, best", ENDGAMES)
def test_reference_rederives_the_table(request, position, depth, result, plies, best):
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("slow: select with -m slow")
    ref = reference_solve(parse_position(position), max_depth=depth)
    assert (ref["result"], ref["plies"]) == (result, plies)
    if best is not None:
        assert format_move(ref["best"]) == best


import functools  # noqa: E402  (appended with the test below)

from solver.cext.boundary import Board  # noqa: E402


@functools.lru_cache(maxsize=None)
def _reference_at_depth_2(position):
    return reference_solve(parse_position(position), max_depth=2)


@pytest.mark.parametrize("tt_entries", [1, 4, 64])
def test_tiny_table_collisions_keep_the_reference_answers(tt_entries):
    # With 1 to 64 entries nearly every probe lands on another position's
    # entry: only the stored full 64-bit key keeps them apart.  (Probing
    # without the key check answers FINAL "unknown" with 4 or 64 entries.)
    for position, _, _, _, _ in ENDGAMES[:9]:
        pos = parse_position(position)
        ref = _reference_at_depth_2(position)
        out = Board.from_position(pos).search(max_depth=2, tt_entries=tt_entries)
        assert out["tt_entries"] == tt_entries
        assert (out["result"], out["plies"]) == (ref["result"], ref["plies"]), position
        if ref["result"] == "win":
            assert out["best"] == ref["best"], position
        if out["best"] is not None:
            assert out["best"] in pos.legal_moves()
    # the record's final position, as the reference proved it at depth 4 (ENDGAMES)
    position, depth, result, plies, best = ENDGAMES[-1]
    out = Board.from_position(parse_position(position)).search(max_depth=depth + 2,
                                                               tt_entries=tt_entries)
    assert (out["result"], out["plies"], format_move(out["best"])) == (result, plies, best)
