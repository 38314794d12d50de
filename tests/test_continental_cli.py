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


def test_hand_json_meets():
    r = run("hand", "--round", "2", "As 2s 3s 4s Kh Kd X 9c", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["meets"] is True and out["deficiency"] == 0 and out["points_left"] == 9
    assert sorted(map(sorted, out["melds"])) == sorted(map(sorted, [["As", "2s", "3s", "4s"], ["Kh", "Kd", "X"]]))


def test_hand_json_not_met_lists_the_improving_cards():
    r = run("hand", "--round", "1", "As", "2s", "3s", "4s", "Kh", "Kd", "X", "--json")
    out = json.loads(r.output)
    assert out["meets"] is False and out["deficiency"] == 2 and out["melds"] == []
    assert out["points_left"] == 20 + 2 + 3 + 4 + 10 + 10 + 50
    assert "Kc" in out["improving"] and "7c" not in out["improving"]


def test_joker_limit_switch_and_pack_options():
    args = ["hand", "--round", "1", "Ks Kh Kd X X 2c 9s", "--json"]
    assert json.loads(run(*args).output)["meets"] is False
    assert json.loads(run(*args, "--no-joker-limit").output)["meets"] is True
    r = run("hand", "--round", "1", "Ks Ks Ks 2c 2c 2c 9s", "--decks", "3", "--json")
    assert json.loads(r.output)["meets"] is True


def test_hand_text():
    r = run("hand", "--round", "2", "As 2s 3s 4s Kh Kd X 9c")
    assert r.exit_code == 0 and "meets the contract" in r.output and "points left: 9" in r.output


@pytest.mark.parametrize("args,fragment", [
    (["hand", "--round", "1", "As 2s 3s 4s Kh Kd Zz"], "unknown card"),
    (["hand", "--round", "1", "As As As 4s Kh Kd X"], "3 copies of As"),
    (["hand", "--round", "3", "As 2s 3s 4s Kh Kd X"], "deals 9 cards"),
    (["hand", "--round", "8", "As 2s 3s 4s Kh Kd X"], "round"),
    (["hand", "--round", "1", "As 2s 3s 4s Kh Kd X", "--decks", "0"], "decks"),
    (["odds", "--round", "2", "--method", "exact"], "exact counting"),
    (["odds", "--round", "2", "--deals", "0"], "deals"),
    (["play", "--players", "5"], "players"),
])
def test_bad_input_is_one_line_and_exit_2(args, fragment):
    r = run(*args)
    assert r.exit_code == 2
    assert fragment in r.output and "Traceback" not in r.output


def test_odds_json():
    r = run("odds", "--round", "3", "--deals", "400", "--seed", "7", "--json")
    out = json.loads(r.output)
    assert out["round"] == 3 and out["deals"] == 400 and out["method"] == "monte-carlo"
    assert sum(out["deficiency"].values()) == 400
    low, high = out["ci95"]
    assert low <= out["p_meets"] <= high
    exact = json.loads(run("odds", "--round", "4", "--json").output)
    assert exact["method"] == "exact" and abs(sum(exact["deficiency"].values()) - 1) < 1e-9


def test_play_json():
    r = run("play", "--players", "3", "--games", "2", "--policy", "greedy", "--policy", "random", "--json")
    out = json.loads(r.output)
    assert out["policies"] == ["greedy", "random", "greedy"] and len(out["win_rate"]) == 3


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
    limited = json.loads(run("hand", "--round", "7", hand, "--node-limit", "50", "--json").output)
    assert limited["meets"] is True and limited["arrangement"].startswith("unknown")
    assert limited["nodes"] == 50
    full = json.loads(run("hand", "--round", "7", hand, "--json").output)
    assert full["arrangement"] == "best" and full["points_left"] == 2


def test_deal_matches_the_vectors():
    out = json.loads(run("deal", "--seed", "42", "--round", "7", "--json").output)
    assert " ".join(out["hand"]) == "Qh 7h 8c Ks 6c 3s 7s Js Th 6h Qc 4h 5d"
    assert out["meets"] == (out["deficiency"] == 0)
    assert run("deal", "--seed", "-1", "--round", "7").exit_code == 2
