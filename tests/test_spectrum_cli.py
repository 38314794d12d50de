"""The issue's must-hold items through `solve spectrum` (CliRunner)."""
import json

import pytest
from click.testing import CliRunner

from solver.cli.main import solve
from solver.spectrum.rules import Game, parse_move

GOALS = "orange/red/yellow lime/green/teal cyan/blue/purple"
SOLVE_KEYS = {"game", "variant", "analysis", "seed", "verdict", "limit", "nodes", "seconds", "line",
              "turns", "lower_bound", "goals", "proof", "iterations"}
REACH_KEYS = {"game", "variant", "seed", "verdict", "limit", "nodes", "seconds", "line", "stash",
              "goals", "direction", "target", "reachable", "turns", "states", "proof"}
BIG = ["reach", "--stash", "red:MMLL orange:SMLL yellow:ML green:LLL", "--goals", GOALS,
       "--target", "red:S"]


def run(args, input=None):
    return CliRunner().invoke(solve, ["spectrum", *args], input=input)


def test_seed_json_has_the_keys_and_the_plan_wins():
    res = run(["--seed", "10", "--json"])
    assert res.exit_code == 0
    out = json.loads(res.output)
    assert set(out) == SOLVE_KEYS
    assert out["game"] == "spectrum" and out["seed"] == 10 and out["verdict"] == "won" and out["turns"] == 7
    st = Game(1, 10).new_state()
    for text in out["line"]:
        st.play(text)
    assert st.winner == 0 and len(out["line"]) == out["turns"]
    again = json.loads(run(["solve", "--seed", "10", "--json"]).output)
    assert {k: v for k, v in again.items() if k != "seconds"} == {k: v for k, v in out.items() if k != "seconds"}


def test_node_limit_gives_unknown_with_the_same_keys_and_exit_0():
    """An unknown exited 1 before, and its JSON lacked the won answer's keys."""
    res = run(["--seed", "3", "--node-limit", "100", "--json"])
    out = json.loads(res.output)
    assert res.exit_code == 0 and out["verdict"] == "unknown" and out["limit"] == "nodes"
    assert out["turns"] is None and out["line"] == [] and set(out) == SOLVE_KEYS
    res = run(["solve", "--seed", "27", "--time-limit", "0.05"])
    assert res.exit_code == 0 and "unknown: time limit" in res.output


@pytest.mark.parametrize("args", [["--seed", "3", "--max-nodes", "100"], ["--seed", "3", "--max-seconds", "1"],
                                  ["--seed", "3", "--node-limit", "0"], ["--seed", "3", "--time-limit", "nan"],
                                  ["--seed", "3", "--table-mb", "-1"], ["--json"]])
def test_old_and_bad_limit_options_are_refused(args):
    res = run(args)
    assert res.exit_code == 2 and res.output.startswith("solve: error:") and res.output.count("\n") == 1


@pytest.mark.parametrize("args", [["--seed", "3", "play"], ["--json", "show"], ["--node-limit", "10", "reach"],
                                  ["--table-mb", "8", "solve", "--seed", "3"], ["--time-limit", "1", "verify"]])
def test_group_options_a_subcommand_would_ignore_are_refused(args):
    """`solve spectrum --seed 3 play` used to drop the seed and play seed 1."""
    res = run(args)
    assert res.exit_code == 2 and "belongs to `solve spectrum` itself" in res.output


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
    assert res.exit_code == 0 and set(out) == REACH_KEYS
    assert out["verdict"] == "won" and out["reachable"] is True and out["turns"] == 1
    assert out["line"] == ["exchange L:orange -> S:yellow M:yellow"]
    # value 2 is already a win: the game is over, nothing else is reachable.
    res = run(["reach", "--stash", "orange:SS", "--goals", GOALS, "--target", "red:L", "--json"])
    out = json.loads(res.output)
    assert out["verdict"] == "lost" and out["reachable"] is False and "exhaustion" in out["proof"]
    assert set(out) == REACH_KEYS


def test_reach_unknown_names_the_limit_and_exits_0():
    """`reach` exited 1 on unknown and took --max-states; now the limits are
    --node-limit/--time-limit/--table-mb."""
    res = run([*BIG, "--node-limit", "1000", "--json"])
    out = json.loads(res.output)
    assert res.exit_code == 0 and out["verdict"] == "unknown" and out["limit"] == "nodes"
    assert out["reachable"] is None and set(out) == REACH_KEYS
    assert run([*BIG, "--max-states", "1000"]).exit_code == 2


def test_play_is_the_shared_command():
    res = run(["play", "--players", "2", "--seed", "5", "--policy", "random", "--max-moves", "30", "--json"])
    out = json.loads(res.output)
    assert res.exit_code == 0 and out["game"] == "spectrum" and out["seed"] == 5
    assert out["verdict"] is None and out["length"] <= 30 and out["policies"] == ["random", "random"]
    for text in out["line"]:
        parse_move(text)
    res = run(["play", "--players", "2", "--seed", "1", "--policy", "solver", "--policy", "random"])
    assert res.exit_code == 0 and "P1 wins" in res.output
    assert run(["play", "--max-turns", "30"]).exit_code == 2


def test_show_prints_the_position_and_its_moves():
    res = run(["show", "--seed", "3", "--players", "2", "--moves", "exchange M:red -> S:orange S:orange", "--json"])
    out = json.loads(res.output)
    assert res.exit_code == 0 and out["seed"] == 3 and out["players"] == 2 and out["current_player"] == 1
    assert out["stashes"][0].startswith("orange:SSM") and out["values"] == [24, 24]
    assert len(out["legal_moves"]) == 24 and out["winner"] is None
    assert run(["show", "--moves", "exchange M:red -> S:orange M:orange"]).exit_code == 2


def test_verify_reads_the_solve_output_back():
    text = run(["--seed", "10"]).output
    assert run(["verify", "--seed", "10", "-"], input=text).exit_code == 0
    res = run(["verify", "--seed", "11", "-", "--json"], input=text)
    out = json.loads(res.output)
    assert res.exit_code == 1 and out["valid"] is False and "illegal move" in out["reason"]
    short = "\n".join(text.splitlines()[:4])
    res = run(["verify", "--seed", "10", "-"], input=short)
    assert res.exit_code == 1 and "not a win" in res.output
    assert run(["verify", "--seed", "10", "-"], input="swap M:red\n").exit_code == 2
    plan = run(["--seed", "10", "--json"]).output
    assert run(["verify", "--seed", "10", "-"], input=plan).exit_code == 0


def test_move_text_round_trips():
    for m in Game(2, 3).new_state().legal_moves():
        assert str(parse_move(str(m))) == str(m)
