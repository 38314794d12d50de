"""Draw proofs by closed holding sets (``solver.boundary.holding``; docs/boundary.md,
"What 6 and 10-12 back are").

The holding set is built with the compiled generator (``Board.children``/``after``)
and re-checked with the reference rules alone (``check_holding``); the tests hold
the compiled helpers to the reference, prove the constructed draw from both sides,
and show that neither the builder nor the checker accepts a position that is lost.
"""
import pytest

from solver.boundary.endgames import endgame
from solver.boundary.holding import check_holding, holding_set
from solver.boundary.notation import parse_position
from solver.boundary.rules import canonical, random_line
from solver.cext.boundary import Board

DRAWN = "6/6/1Gm2Rm1/rGl2Rlg/gBm2Ymr/Rs+YsBl2YlGs+Bs r"
NEAR_MISS = "6/6/1Gm2Rm1/rGlYs1Rlg/gBm2Ymr/RsBl2YlGs+Bs r"        # Red wins in 3


def _mixed_positions():
    for seed in range(2):
        for i, (pos, _move) in enumerate(random_line(seed, 60)):
            if i % 10 == 5:
                yield pos
    for seed in range(8):
        yield endgame(seed)


def test_children_and_after_are_the_reference_moves():
    checked = 0
    for pos in _mixed_positions():
        board = Board.from_position(pos)
        kids = board.children()
        assert canonical([m for m, _k, _w in kids]) == canonical(pos.legal_moves())
        for move, key, won in kids:
            child = pos.play(move)
            assert key == child.key() and won == (child.winner() == pos.side)
            after = board.after(move)
            assert (after.hash, after.stacks(), after.stones(), after.side) == (
                child.key(), child.stacks, child.stones, child.side)
            checked += 1
        assert board.hash == pos.key()                       # ``after`` copied, not moved
    assert checked > 500


@pytest.mark.parametrize("side", ["r", "g"])
def test_the_constructed_draw_is_held_by_both_sides(side):
    pos = parse_position(DRAWN[:-1] + side)
    for defender in (0, 1):
        out = holding_set(pos, defender)
        assert (out.verdict, out.positions) == ("holds", 4)
        assert check_holding(pos, defender, out.strategy)


def test_a_lost_position_is_never_held():
    # Red wins in 3: Green's holding set must fail, and no strategy of Green's passes
    pos = parse_position(NEAR_MISS)
    out = holding_set(pos, 1, safety=5)
    assert out.verdict == "unknown" and out.limit == "strategy"
    # the checker alone: every one-move strategy of Green's along Red's winning line fails
    assert not check_holding(pos, 1, out.strategy)
    assert not check_holding(pos, 1, {})


def test_the_checker_rejects_a_wrong_move_and_a_missing_one():
    pos = parse_position(DRAWN)
    good = holding_set(pos, 0).strategy
    assert check_holding(pos, 0, good)
    assert not check_holding(pos, 0, {})
    key = pos.key()
    bad = dict(good)
    bad[key] = next(m for m in parse_position(NEAR_MISS).legal_moves()
                    if m not in pos.legal_moves())               # illegal here
    assert not check_holding(pos, 0, bad)


def test_the_position_limit_answers_unknown():
    # the record 6 plies back: Green has a hundred moves, the set overflows at once
    from pathlib import Path
    from solver.boundary.replay import replay_text
    here = Path(__file__).resolve()
    record = next((p / "shared" / "seeds" / "boundary.txt" for p in here.parents[1:4]
                   if (p / "shared" / "seeds" / "boundary.txt").exists()), None)
    if record is None:
        pytest.skip("the record is in ../shared beside the checkout")
    six = replay_text(record.read_text()).positions[-7]
    out = holding_set(six, 0, max_positions=500)
    assert out.verdict == "unknown" and out.limit in ("positions", "strategy")


def test_solve_proves_by_holding_sets_the_draw_its_search_cannot_reach():
    from solver.boundary.search import solve
    from solver.game import Limits
    shallow = solve(DRAWN, limits=Limits(time_limit=30), max_depth=3)
    assert shallow.verdict == "unknown" and shallow.fields["holding"] is None
    out = solve(DRAWN, limits=Limits(time_limit=30), max_depth=3, holding=100)
    assert out.verdict == "draw" and out.limit is None
    assert out.line == ["(e4-e6)"] and out.fields["holding"] == [4, 4]
    # a won position stays won, and an unknown that is a loss is not made a draw
    assert solve(NEAR_MISS, limits=Limits(time_limit=30), holding=100).verdict == "won"
    near = solve(NEAR_MISS, limits=Limits(time_limit=30), max_depth=2, holding=1000)
    assert near.verdict == "unknown" and near.fields["holding"] is None


def test_the_cli_takes_holding():
    import json
    from click.testing import CliRunner
    import solver.cli.main
    res = CliRunner().invoke(solver.cli.main.solve, ["boundary", "solve", "--position", DRAWN,
                                                     "--depth", "3", "--holding", "100", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert (out["verdict"], out["line"], out["holding"]) == ("draw", ["(e4-e6)"], [4, 4])
