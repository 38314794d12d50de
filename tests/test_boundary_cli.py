"""The CLI: perft, show, playout, --json everywhere, one-line errors."""
import json
import os
import subprocess
import sys
import xml.dom.minidom
from pathlib import Path

from click.testing import CliRunner

import solver.cli.main
from solver.boundary.notation import START, format_position, parse_position

FINAL = "Gl+Gm+Gs1r2Rl/4Rm1/4gRs/2Ys3/g1YmBs2/Yl3rBl+Bm r"
HARD = "Gl1Ym3/2GsrYsg/r3RlRs/4Rm1/3Bs1Bm/Ylg1Gm1Bl r"     # the record, 12 plies before its end


def run(*args):
    return CliRunner().invoke(solver.cli.main.solve, ["boundary", *args])


def test_perft_json_and_divide():
    res = run("perft", "--depth", "3", "--json")
    out = json.loads(res.output)
    assert out["depth"] == 3 and out["nodes"] == 129094 and out["counts"] == [42, 1820, 129094]
    assert out["seconds"] >= 0
    res = run("perft", "--depth", "2", "--divide", "--json")
    div = json.loads(res.output)["divide"]
    assert len(div) == 42 and sum(div.values()) == 1820 and "(c3-a3)(a1-c3)" in div


def test_perft_reference_agrees_on_a_position():
    a = json.loads(run("perft", "--depth", "2", "--position", FINAL, "--json").output)
    b = json.loads(run("perft", "--depth", "2", "--position", FINAL, "--reference", "--json").output)
    assert a["counts"] == b["counts"]


def test_show_text_json_and_svg(tmp_path):
    res = run("show", "--position", FINAL)
    assert res.exit_code == 0 and "Red to move" in res.output and "Bl+Bm" in res.output
    svg = tmp_path / "final.svg"
    res = run("show", "--position", FINAL, "--svg", str(svg), "--json")
    out = json.loads(res.output)
    assert out["position"] == FINAL
    doc = xml.dom.minidom.parse(str(svg))
    assert len(doc.getElementsByTagName("polygon")) == 12
    assert len(doc.getElementsByTagName("circle")) == 4


def test_position_strings_round_trip():
    from solver.boundary.rules import random_line
    from solver.boundary.endgames import endgame
    for pos, _m in random_line(5, 80):
        assert parse_position(format_position(pos)) == pos
    for seed in range(30):
        s = format_position(endgame(seed))
        assert format_position(parse_position(s)) == s
    assert format_position(parse_position(START)) == START


def test_playout_json():
    out = json.loads(run("play", "--seed", "3", "--games", "2", "--max-moves", "30", "--json").output)
    assert out["games"] == 2 and out["unfinished"] == 2 and out["wins"] == [0, 0]
    one = json.loads(run("play", "--seed", "3", "--max-moves", "30", "--json").output)
    assert one["length"] == 30 and one["outcome"] == "unfinished" and one["winner"] is None


def test_errors_are_one_line_exit_2():
    for args in (["perft", "--depth", "2", "--position", "Rl/6 r"],
                 ["show", "--position", START.replace("2gr2", "2gr1r")],
                 ["perft", "--depth", "-1"],
                 ["replay", "/nonexistent/record.txt"]):
        res = run(*args)
        assert res.exit_code == 2, (args, res.output)
        assert res.output.startswith("solve: error:") and res.output.count("\n") == 1


def test_subprocess_entry_point(tmp_path):
    root = str(Path(solver.cli.main.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=root)
    res = subprocess.run([sys.executable, "-m", "solver.cli.main", "boundary", "perft", "--depth", "1",
                          "--json"], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["nodes"] == 42


WIN_IN_1 = "Bl+Bm+Bs4Rl+Rm/5Rs/2gr2/2rg2/6/Yl+Ym+Ys4Gl+Gm+Gs r"
CONTEXT = {"game": "boundary", "variant": None, "seed": None}


def test_solve_json_keys_are_the_same_whatever_the_verdict():
    answers = {}
    for args in (["--position", FINAL], ["--position", WIN_IN_1], ["--position", HARD, "--node-limit", "1000"],
                 ["--position", START, "--depth", "2"], ["--position", FINAL, "--time-limit", "0.001",
                                                         "--depth", "40"]):
        res = run("solve", *args, "--json")
        assert res.exit_code == 0, res.output          # unknown included
        out = json.loads(res.output)
        answers[out["verdict"] + "/" + str(out["limit"])] = out
    assert {"lost/None", "won/None", "unknown/nodes"} <= set(answers)
    keys = {tuple(out) for out in answers.values()}
    assert keys == {("game", "variant", "seed", "verdict", "limit", "nodes", "seconds", "line",
                     "plies", "depth", "max_depth", "position", "holding", "draw_by")}
    for out in answers.values():
        assert {k: out[k] for k in CONTEXT} == CONTEXT
        assert out["verdict"] in ("won", "lost", "draw", "unknown")
        assert out["limit"] in (None, "nodes", "time", "memory")
    assert answers["won/None"]["line"] == ["(f5-f6)"] and answers["won/None"]["plies"] == 1
    assert answers["unknown/nodes"]["plies"] is None and answers["unknown/nodes"]["line"] == []


def test_solve_text_unknown_exits_0():
    res = run("solve", "--position", HARD, "--node-limit", "1000")
    assert res.exit_code == 0 and res.output.startswith("unknown: no proof within the nodes limit")
    res = run("solve", "--position", HARD, "--depth", "3")        # the depth ran out, not a limit
    assert res.exit_code == 0 and res.output.startswith("unknown: no proof within 3 plies (the --depth asked")
    res = run("solve", "--position", FINAL)
    assert res.exit_code == 0 and res.output.startswith("lost: Red loses in 4 plies; longest defence (e1-f2)(e5-f6)")


def test_solve_with_dfpn():
    # the same verdict, distance and longest defence as the alpha-beta questions
    res = run("solve", "--position", FINAL, "--dfpn")
    assert res.exit_code == 0 and res.output.startswith("lost: Red loses in 4 plies; longest defence (e1-f2)(e5-f6)")
    out = json.loads(run("solve", "--position", HARD, "--dfpn", "--node-limit", "1000", "--json").output)
    assert out["verdict"] == "unknown" and out["limit"] == "nodes"


def test_old_limit_spellings_and_the_old_playout_are_refused():
    for args in (["solve", "--position", FINAL, "--nodes", "1000"],
                 ["solve", "--position", FINAL, "--tt-mb", "8"],
                 ["solve", "--position", FINAL, "--table-mb", "0.5"],
                 ["solve", "--position", FINAL, "--node-limit", "0"],
                 ["playout", "--seed", "3"],
                 ["play", "--max-plies", "30"]):
        res = run(*args)
        assert res.exit_code == 2, (args, res.output)
        assert res.output.startswith("solve: error:") and res.output.count("\n") == 1


def test_every_command_prints_one_json_object_with_the_context(tmp_path):
    record = tmp_path / "r.txt"
    record.write_text("1. (c3-a3)(a1-c3)\n")
    bad = tmp_path / "bad.txt"
    bad.write_text("1. (e1-e3)\n")
    replays = []
    for args, code in ((["replay", str(record)], 0), (["replay", str(bad)], 1),
                       (["perft", "--depth", "1"], 0), (["show"], 0), (["solve", "--position", WIN_IN_1], 0)):
        res = run(*args, "--json")
        assert res.exit_code == code, (args, res.output)
        out = json.loads(res.stdout)
        assert {k: out[k] for k in CONTEXT} == CONTEXT, args
        if args[0] == "replay":
            replays.append(out)
        if args[0] == "perft":
            assert out["divide"] is None               # the key is there without --divide
    assert list(replays[0]) == list(replays[1])
    assert replays[0]["legal"] and not replays[1]["legal"]


def test_play_uses_the_shared_loop():
    one = json.loads(run("play", "--seed", "4", "--policy", "greedy", "--policy", "random",
                         "--max-moves", "20", "--json").output)
    assert one["game"] == "boundary" and one["seed"] == 4 and one["analysis"] == "playout"
    assert one["verdict"] is None and one["winner"] is None and one["outcome"] == "unfinished"
    assert one["policies"] == ["greedy", "random"] and len(one["line"]) == 20
    again = json.loads(run("play", "--seed", "4", "--policy", "greedy", "--policy", "random",
                           "--max-moves", "20", "--json").output)
    assert again["line"] == one["line"]
    text = run("play", "--seed", "4", "--max-moves", "5")
    assert text.exit_code == 0 and "   5. " in text.output and "unfinished after 5 moves" in text.output
