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
