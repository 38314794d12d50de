"""The issue's must-hold items through `solve spectrum` (CliRunner)."""
import json

import pytest
from click.testing import CliRunner

from solver.cli.main import solve
from solver.spectrum.rules import Game, parse_move

GOALS = "orange/red/yellow lime/green/teal cyan/blue/purple"


def run(args):
    return CliRunner().invoke(solve, ["spectrum", *args])


def test_seed_json_has_the_keys_and_the_plan_wins():
    res = run(["--seed", "10", "--json"])
    assert res.exit_code == 0
    out = json.loads(res.output)
    assert out["seed"] == 10 and out["verdict"] == "won" and out["turns"] == 7
    st = Game(1, 10).new_state()
    for text in out["plan"]:
        st.play(text)
    assert st.winner == 0 and len(out["plan"]) == out["turns"]


def test_node_limit_gives_unknown_never_a_guess():
    res = run(["--seed", "3", "--max-nodes", "100", "--json"])
    out = json.loads(res.output)
    assert res.exit_code == 1 and out["verdict"] == "unknown" and out["limit"] == "nodes"
    assert out["turns"] is None


@pytest.mark.parametrize("args, words", [
    (["--stash", "bogus:M", "--goals", GOALS, "--target", "value<=6"], "unknown colour"),
    (["--stash", "red:MMMMM", "--goals", GOALS, "--target", "value<=6"], "impossible stash"),
    (["--stash", "red:M", "--goals", "red/blue", "--target", "value<=6"], "malformed goal"),
    (["--stash", "red:M", "--goals", GOALS, "--target", "value<=x"], "malformed condition"),
    (["--stash", "red:M", "--goals", GOALS, "--direction", "up", "--target", "value<=6"], "direction"),
])
def test_bad_input_is_one_line_and_exit_2(args, words):
    res = run(["reach", *args])
    assert res.exit_code == 2
    assert words in res.output and res.output.count("\n") == 1


def test_reach_found_and_unreachable_by_exhaustion():
    res = run(["reach", "--stash", "red:M orange:SL", "--goals", GOALS, "--target", "red:M orange:S yellow:SM",
               "--json"])
    out = json.loads(res.output)
    assert out["verdict"] == "reachable" and out["turns"] == 1
    assert out["plan"] == ["exchange L:orange -> S:yellow M:yellow"]
    # value 2 is already a win: the game is over, nothing else is reachable.
    res = run(["reach", "--stash", "orange:SS", "--goals", GOALS, "--target", "red:L", "--json"])
    out = json.loads(res.output)
    assert out["verdict"] == "unreachable" and "exhaustion" in out["proof"]


def test_play_prints_a_game_between_policies():
    res = run(["play", "--players", "2", "--seed", "5", "--policy", "random", "--max-turns", "30",
               "--json"])
    out = json.loads(res.output)
    assert res.exit_code == 0 and out["players"] == 2 and out["length"] <= 30
    assert all(line.startswith(("P1 ", "P2 ")) for line in out["moves"])


def test_move_text_round_trips():
    for m in Game(2, 3).new_state().legal_moves():
        assert str(parse_move(str(m))) == str(m)
