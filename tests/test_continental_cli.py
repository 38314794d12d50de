"""`solve continental`: output, --json keys, and one-line errors with exit 2."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import solver.cli.main


def run(*args):
    return CliRunner().invoke(solver.cli.main.solve, ["continental", *args])


HAND_KEYS = {"game", "variant", "seed", "verdict", "limit", "nodes", "seconds", "line", "round",
             "contract", "hand", "deficiency", "melds", "points_left", "improving"}


def test_hand_json_meets():
    r = run("hand", "--round", "2", "As 2s 3s 4s Kh Kd X 9c", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert set(out) == HAND_KEYS and out["game"] == "continental" and out["seed"] is None
    assert out["verdict"] == "won" and out["limit"] is None
    assert out["deficiency"] == 0 and out["points_left"] == 9 and out["improving"] is None
    assert sorted(map(sorted, out["melds"])) == sorted(map(sorted, [["As", "2s", "3s", "4s"], ["Kh", "Kd", "X"]]))


def test_hand_json_not_met_lists_the_improving_cards():
    r = run("hand", "--round", "1", "As", "2s", "3s", "4s", "Kh", "Kd", "X", "--json")
    out = json.loads(r.output)
    assert set(out) == HAND_KEYS
    assert out["verdict"] == "lost" and out["deficiency"] == 2 and out["melds"] is None
    assert out["points_left"] == 20 + 2 + 3 + 4 + 10 + 10 + 50
    assert "Kc" in out["improving"] and "7c" not in out["improving"]


def test_joker_limit_switch_and_pack_options():
    args = ["hand", "--round", "1", "Ks Kh Kd X X 2c 9s", "--json"]
    assert json.loads(run(*args).output)["verdict"] == "lost"
    assert json.loads(run(*args, "--no-joker-limit").output)["verdict"] == "won"
    r = run("hand", "--round", "1", "Ks Ks Ks 2c 2c 2c 9s", "--decks", "3", "--json")
    assert json.loads(r.output)["verdict"] == "won"


def test_hand_text():
    r = run("hand", "--round", "2", "As 2s 3s 4s Kh Kd X 9c")
    assert r.exit_code == 0 and "meets the contract" in r.output and "points left: 9" in r.output


STRAIGHTS = "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks"


def test_a_node_limit_gives_unknown_never_meets_or_a_number():
    # Before the contract, `hand --node-limit 1` printed "meets the contract" with no
    # melds and "points left: 104" (the whole hand), and the JSON said meets: true.
    r = run("hand", "--round", "7", STRAIGHTS, "--node-limit", "1")
    assert r.exit_code == 0, r.output
    assert "unknown" in r.output and "node limit" in r.output
    assert "meets" not in r.output and "104" not in r.output and "points left" not in r.output
    out = json.loads(run("hand", "--round", "7", STRAIGHTS, "--node-limit", "1", "--json").output)
    assert set(out) == HAND_KEYS
    assert (out["verdict"], out["limit"], out["nodes"]) == ("unknown", "nodes", 1)
    assert out["deficiency"] is None and out["melds"] is None and out["points_left"] is None
    assert out["improving"] is None and "meets" not in out
    full = json.loads(run("hand", "--round", "7", STRAIGHTS, "--json").output)
    assert full["verdict"] == "won" and full["points_left"] == 0


def test_a_time_limit_gives_unknown_time():
    out = json.loads(run("hand", "--round", "7", STRAIGHTS, "--time-limit", "1e-9", "--json").output)
    assert (out["verdict"], out["limit"]) == ("unknown", "time")


def test_hand_of_a_seeded_deal():
    out = json.loads(run("hand", "--round", "7", "--seed", "42", "--json").output)
    assert out["seed"] == 42 and " ".join(out["hand"]) == "3s 7s Js Ks 4h 6h 7h Th Qh 5d 6c 8c Qc"
    assert out["verdict"] == "lost" and out["deficiency"] == 5
    assert run("hand", "--round", "7").exit_code == 2                       # neither
    assert run("hand", "--round", "7", "--seed", "1", STRAIGHTS).exit_code == 2   # both


@pytest.mark.parametrize("args,fragment", [
    (["hand", "--round", "1", "As 2s 3s 4s Kh Kd Zz"], "unknown card"),
    (["hand", "--round", "1", "As As As 4s Kh Kd X"], "3 copies of As"),
    (["hand", "--round", "3", "As 2s 3s 4s Kh Kd X"], "deals 9 cards"),
    (["hand", "--round", "8", "As 2s 3s 4s Kh Kd X"], "round"),
    (["hand", "--round", "1", "As 2s 3s 4s Kh Kd X", "--decks", "0"], "decks"),
    (["odds", "--round", "6", "--decks", "3", "--method", "exact"], "exact odds of round 6"),
    (["odds", "--round", "5", "--jokers-per-deck", "3", "--method", "exact"], "--method monte-carlo"),
    (["odds", "--round", "2", "--deals", "0"], "deals"),
    (["play", "--players", "5"], "players"),
    (["hand", "--round", "1", "As 2s 3s 4s Kh Kd X", "--node-limit", "0"], "node_limit"),
    (["hand", "--round", "1", "As 2s 3s 4s Kh Kd X", "--time-limit", "nan"], "time_limit"),
    (["deal", "--seed", "1", "--table-mb", "-1"], "table_mb"),
    (["show", "--seed", "3", "--moves", "claim"], "take or pass"),
    (["show", "--seed", "3", "--moves", "pass pass Zz"], "unknown card"),
    (["verify", "--seed", "3", "/nonexistent/record.txt"], "cannot read"),
])
def test_bad_input_is_one_line_and_exit_2(args, fragment):
    r = run(*args)
    assert r.exit_code == 2
    assert fragment in r.output and "Traceback" not in r.output


def test_odds_json():
    r = run("odds", "--round", "3", "--deals", "400", "--seed", "7", "--method", "monte-carlo", "--json")
    out = json.loads(r.output)
    assert out["round"] == 3 and out["deals"] == 400 and out["method"] == "monte-carlo"
    assert sum(out["deficiency"].values()) == 400
    low, high = out["ci95"]
    assert low <= out["p_meets"] <= high
    exact = json.loads(run("odds", "--round", "4", "--json").output)
    assert exact["method"] == "exact" and abs(sum(exact["deficiency"].values()) - 1) < 1e-9


def test_odds_progress_goes_to_stderr_and_leaves_the_json_alone():
    shown = run("odds", "--round", "4", "--json", "--progress")
    quiet = run("odds", "--round", "4", "--json", "--no-progress")
    assert shown.exit_code == quiet.exit_code == 0
    assert "round 4" in shown.stderr and quiet.stderr == ""
    assert json.loads(shown.stdout)["counts"] == json.loads(quiet.stdout)["counts"]


def test_play_json_goes_through_the_shared_loop():
    r = run("play", "--players", "3", "--seed", "2", "--policy", "greedy", "--policy", "random",
            "--policy", "greedy", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["policies"] == ["greedy", "random", "greedy"] and len(out["scores"]) == 3
    assert out["verdict"] is None and out["winner"] in (0, 1, 2, None) and out["outcome"] == "finished"
    many = json.loads(run("play", "--seed", "1", "--games", "3", "--json").output)
    assert many["games"] == 3 and len(many["win_rate"]) == 2


def test_verify_a_play_record(tmp_path):
    record = tmp_path / "game.json"
    record.write_text(run("play", "--seed", "3", "--json").output)
    ok = run("verify", "--seed", "3", str(record), "--json")
    assert ok.exit_code == 0, ok.output
    out = json.loads(ok.output)
    assert out["valid"] is True and out["error"] is None and out["finished"] is True
    assert out["moves_played"] == len(json.loads(record.read_text())["line"])
    bad = run("verify", "--seed", "4", str(record), "--json")       # another deal: a card not held
    assert bad.exit_code == 1
    out = json.loads(bad.output)
    assert out["valid"] is False and "does not hold" in out["error"] and out["moves_played"] >= 1
    text = tmp_path / "moves.txt"
    text.write_text("1. pass\n2. pass\n")
    r = run("verify", "--seed", "3", str(text))
    assert r.exit_code == 0 and "valid: 2 moves" in r.output


def test_show_json_keys_and_moves():
    keys = None
    for moves in ("", "pass", "pass pass"):
        r = run("show", "--seed", "3", "--moves", moves, "--json")
        assert r.exit_code == 0, r.output
        out = json.loads(r.output)
        keys = keys or set(out)
        assert set(out) == keys and {"game", "variant", "seed", "picture", "svg"} <= keys
        assert out["game"] == "continental" and out["seed"] == 3 and out["round"] == 1
    assert out["phase"] == "discard" and out["legal"] == out["hands"][0] and out["to_move"] == 0
    assert "seat 1 to discard" in run("show", "--seed", "3", "--moves", "pass pass").output


def test_subprocess_error_is_one_line(tmp_path):
    # wherever `cli` was imported from (installed or the source tree), run that copy
    root = Path(solver.cli.main.__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=str(root))
    p = subprocess.run([sys.executable, "-m", "solver.cli.main", "continental", "hand", "--round", "1", "Qq"],
                       cwd=tmp_path, capture_output=True, text=True, env=env)
    assert p.returncode == 2
    assert p.stderr.strip().count("\n") == 0 and p.stderr.startswith("solve: error:")


def test_arrangement_node_limit_says_unknown():
    hand = "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks X 2h"
    limited = json.loads(run("hand", "--round", "7", hand, "--node-limit", "100", "--json").output)
    # the deficiency search finishes (0: the hand meets the contract), the arrangement search does not
    assert (limited["verdict"], limited["limit"], limited["deficiency"]) == ("unknown", "nodes", 0)
    assert limited["melds"] is None and limited["points_left"] is None and limited["nodes"] > 100
    text = run("hand", "--round", "7", hand, "--node-limit", "100").output
    assert "unknown (node limit reached)" in text and "points left" not in text
    full = json.loads(run("hand", "--round", "7", hand, "--json").output)
    assert full["verdict"] == "won" and full["points_left"] == 2


def test_deal_matches_the_vectors():
    r = run("deal", "--seed", "42", "--round", "7", "--json")
    assert r.exit_code == 0
    out = json.loads(r.output)
    assert " ".join(out["hand"]) == "Qh 7h 8c Ks 6c 3s 7s Js Th 6h Qc 4h 5d"
    assert out["verdict"] == ("won" if out["deficiency"] == 0 else "lost") and out["deficiency"] == 5
    assert {"game", "variant", "seed", "verdict", "limit", "nodes", "seconds", "line", "round"} <= set(out)
    assert run("deal", "--seed", "-1", "--round", "7").exit_code == 2


def test_deal_honours_the_node_limit():
    from solver.continental.contract import HARD_SEED
    r = run("deal", "--seed", str(HARD_SEED), "--node-limit", "1000", "--json")
    assert r.exit_code == 0                      # unknown is an answer
    out = json.loads(r.output)
    assert (out["verdict"], out["limit"], out["deficiency"], out["nodes"]) == ("unknown", "nodes", None, 1000)
    assert "deficiency: unknown" in run("deal", "--seed", str(HARD_SEED), "--node-limit", "1000").output


def test_no_old_option_spellings():
    for cmd in ("hand", "deal"):
        for old in ("--max-nodes", "--nodes", "--tt-mb", "--max-seconds"):
            assert run(cmd, "--round", "7", "--seed", "1", old, "5").exit_code == 2


def test_group_json_and_refused_group_options():
    out = json.loads(run("--json").output)
    assert out["game"] == "continental" and "hand" in out["commands"] and "deal" in out["analyses"]
    assert "greedy" in out["policies"]
    # a group option that the subcommand would ignore is refused, never dropped
    r = run("--json", "deal", "--seed", "1")
    assert r.exit_code == 2 and "--json" in r.output
    assert "Usage" in run().output


def test_every_command_takes_json_and_unknown_exits_0():
    group = solver.cli.main.solve.commands["continental"]
    for name, cmd in group.commands.items():
        assert any("--json" in p.opts for p in cmd.params), name
    for args in (["hand", "--round", "7", STRAIGHTS, "--node-limit", "1"],
                 ["deal", "--seed", "1874", "--node-limit", "1000"]):
        assert run(*args).exit_code == 0
        assert run(*args, "--json").exit_code == 0
