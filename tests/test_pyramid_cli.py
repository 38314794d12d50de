"""`solve pyramid` from the outside: output, JSON keys, exit codes, bad input."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import solver
from solver.cli.main import solve
from solver.pyramid.deal import deal_from_seed


def run(*args):
    return CliRunner().invoke(solve, list(args))


def one_line_error(result, needle):
    assert result.exit_code == 2, result.output
    err = result.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("solve: error:") and needle in err[0], result.stderr
    assert "Traceback" not in result.output


def test_help_lists_games_and_version():
    out = run("--help")
    assert out.exit_code == 0 and "pyramid" in out.output
    assert run("--version").output.startswith("solve, version")


def test_solve_seed_text():
    out = run("pyramid", "--seed", "42")
    assert out.exit_code == 0
    assert "verdict: won" in out.output and "144. " in out.output and "from reserve slot" in out.output
    assert "nodes" in out.output and "table peak" in out.output


JSON_KEYS = ["game", "variant", "seed", "verdict", "limit", "nodes", "seconds", "line",
             "placed", "deepest", "longest_exact", "slots", "table_entries", "table_bytes", "search_seconds", "why",
             "proof_checked"]


def test_solve_seed_json_keys():
    out = run("pyramid", "--seed", "42", "--variant", "wild-dragons", "--json")
    data = json.loads(out.output)
    assert list(data) == JSON_KEYS
    assert data["game"] == "pyramid" and data["seed"] == 42 and data["variant"] == "wild-dragons"
    assert data["verdict"] == "won" and data["limit"] is None and data["placed"] == 144
    assert len(data["line"]) == 144 and all("@" in m for m in data["line"])
    assert len(data["slots"]) == 144 and all(1 <= s <= 9 for s in data["slots"])
    assert json.loads(run("pyramid", "solve", "--seed", "42", "--variant", "wild-dragons", "--json").output)["line"] \
        == data["line"]


def test_json_keys_are_the_same_whatever_the_verdict():
    """Won, lost and unknown answers print the same keys (null where they do not apply)."""
    won = json.loads(run("pyramid", "--seed", "42", "--json").output)
    lost = json.loads(run("pyramid", "--seed", "12", "--json").output)
    unknown = json.loads(run("pyramid", "--seed", "7260", "--node-limit", "1000", "--json").output)
    assert list(won) == list(lost) == list(unknown) == JSON_KEYS
    assert lost["verdict"] == "lost" and lost["line"] == [] and lost["slots"] is None and lost["limit"] is None
    assert unknown["verdict"] == "unknown" and unknown["limit"] == "nodes" and unknown["nodes"] <= 1001
    assert unknown["line"] == [] and unknown["placed"] == unknown["deepest"] < 144


def test_lost_and_unknown_exit_zero():
    out = run("pyramid", "--seed", "12")
    assert out.exit_code == 0 and "verdict: lost" in out.output
    out = run("pyramid", "--seed", "7260", "--node-limit", "100")
    assert out.exit_code == 0 and "verdict: unknown (node limit reached" in out.output
    out = run("pyramid", "solve", "--seed", "7260", "--time-limit", "0.000001", "--json")   # the tail gets none
    assert out.exit_code == 0 and json.loads(out.output)["limit"] == "time"


@pytest.mark.parametrize("args", [
    ["pyramid", "--node-limit", "10", "show", "--seed", "7260"],      # the limit was dropped
    ["pyramid", "--json", "deal", "--seed", "1"],                      # printed text
    ["pyramid", "--seed", "7", "show"],
    ["pyramid", "--variant", "wild-dragons", "play", "--seed", "3"],
    ["pyramid", "--seed", "3", "play"],
    ["pyramid", "--deal-file", "x.txt", "verify", "--seed", "1", "sol.txt"],
    ["pyramid", "--table-mb", "8", "solve", "--seed", "1"],
    ["pyramid", "--time-limit", "1", "deal", "--seed", "1"],
])
def test_group_options_a_subcommand_would_ignore_are_refused(args):
    one_line_error(run(*args), "put it after the subcommand")


def test_group_options_after_the_subcommand_work():
    out = run("pyramid", "deal", "--seed", "1", "--json")
    assert out.exit_code == 0
    data = json.loads(out.output)
    assert list(data) == ["game", "variant", "seed", "deal"] and data["seed"] == 1 and len(data["deal"]) == 144
    shown = json.loads(run("pyramid", "show", "--seed", "7260", "--node-limit", "10", "--json").output)
    assert shown["verdict"] == "unknown" and shown["limit"] == "nodes" and shown["nodes"] <= 11


def test_old_limit_spellings_are_gone():
    for old in ("--max-nodes", "--nodes", "--tt-mb", "--max-seconds"):
        one_line_error(run("pyramid", "--seed", "1", old, "5"), "No such option")


@pytest.mark.parametrize("args,needle", [
    (["pyramid", "--seed", "1", "--node-limit", "0"], "node_limit must be"),
    (["pyramid", "--seed", "1", "--time-limit", "nan"], "time_limit must be"),
    (["pyramid", "--seed", "1", "--table-mb", "-1"], "table_mb must be"),
    (["pyramid", "--variant", "wild-dragons"], "no deal given"),
])
def test_bad_limits_and_options_without_a_deal(args, needle):
    one_line_error(run(*args), needle)


def test_explicit_deal_and_deal_file(tmp_path):
    text = deal_from_seed(42).text()
    by_text = json.loads(run("pyramid", "--deal", text, "--json").output)
    path = tmp_path / "deal.txt"
    path.write_text(text + "\n")
    by_file = json.loads(run("pyramid", "--deal-file", str(path), "--json").output)
    by_seed = json.loads(run("pyramid", "--seed", "42", "--json").output)
    assert by_text["line"] == by_file["line"] == by_seed["line"]
    assert by_text["seed"] is None and list(by_text) == JSON_KEYS


def test_deal_command_matches_vectors():
    out = run("pyramid", "deal", "--seed", "1")
    assert out.output.split()[:12] == "9B AU 8C 4C 4B 3C 1D 2D 7D SU SP 5C".split()
    assert len(out.output.split()) == 144


def test_verify_accepts_text_and_json_and_rejects_with_reason(tmp_path):
    text_file = tmp_path / "sol.txt"
    text_file.write_text(run("pyramid", "--seed", "42").output)
    json_file = tmp_path / "sol.json"
    json_file.write_text(run("pyramid", "--seed", "42", "--json").output)
    assert run("pyramid", "verify", "--seed", "42", str(text_file)).exit_code == 0
    assert run("pyramid", "verify", str(json_file)).exit_code == 0          # seed read from the JSON
    bad = run("pyramid", "verify", "--seed", "43", str(text_file))
    assert bad.exit_code == 1 and bad.output.startswith("invalid: move ")
    report = json.loads(run("pyramid", "verify", "--seed", "43", str(text_file), "--json").output)
    assert report["valid"] is False and report["error_move"] >= 1
    assert list(report) == ["game", "variant", "seed", "valid", "moves_played", "error", "error_move"]
    old = tmp_path / "old.json"                       # written before the contract: "moves"
    old.write_text(json.dumps({"seed": 42, "variant": "continuous", "moves": json.loads(json_file.read_text())["line"]}))
    assert run("pyramid", "verify", str(old)).exit_code == 0


def test_verify_uses_the_variant_of_the_json_solution(tmp_path):
    wild = tmp_path / "wild.json"
    wild.write_text(run("pyramid", "--seed", "1", "--variant", "wild-dragons", "--json").output)
    report = json.loads(run("pyramid", "verify", str(wild), "--json").output)
    assert report["variant"] == "wild-dragons" and report["seed"] == 1 and report["valid"]
    # deal 1's Continuous solution needs a wind next to a season: not a Wild Dragons solution
    data = json.loads(run("pyramid", "--seed", "1", "--json").output)
    cont = tmp_path / "cont.json"
    cont.write_text(json.dumps(dict(data, variant="wild-dragons")))
    assert run("pyramid", "verify", str(cont)).exit_code == 1
    assert run("pyramid", "verify", "--variant", "continuous", str(cont)).exit_code == 0


def test_show_draws_levels_and_writes_svg(tmp_path):
    svg = tmp_path / "p.svg"
    out = run("pyramid", "show", "--seed", "42", "--moves", "10", "--svg", str(svg))
    assert out.exit_code == 0
    for heading in ("Level 1 (", "Level 2 (", "Level 3 (", "Level 4 (", "Reserves", "Stock"):
        assert heading in out.output
    assert "Placed 10 of 144" in out.output
    assert svg.read_text().startswith("<svg") and "Level 4" in svg.read_text()
    one_line_error(run("pyramid", "show", "--seed", "42", "--moves", "200"), "only 144 moves")


def test_show_json():
    """`show` had no --json; now it prints the solve's answer with the drawn position,
    the same keys for a won and a lost deal."""
    won = json.loads(run("pyramid", "show", "--seed", "42", "--moves", "10", "--json").output)
    lost = json.loads(run("pyramid", "show", "--seed", "12", "--json").output)
    assert list(won) == list(lost) == JSON_KEYS[:-2] + ["picture", "drawn", "last_move", "board", "positions", "reserves",
                                                   "stock_left", "svg", "html"]
    assert won["drawn"] == won["line"][:10] and won["last_move"] == won["line"][9]
    assert sum(t is not None for t in won["board"]) == 10 and len(won["board"]) == len(won["positions"]) == 144
    assert won["board"][won["positions"].index("1e5")] == won["line"][0].split("@")[0]
    assert len(won["reserves"]) == 9 and won["stock_left"] == 125 and won["svg"] is None
    assert lost["verdict"] == "lost" and lost["line"] == [] and len(lost["drawn"]) == lost["deepest"]


@pytest.mark.parametrize("args,needle", [
    (["pyramid", "--seed", "-1"], "negative"),
    (["pyramid", "--seed", "18446744073709551616"], "64 bits"),
    (["pyramid", "--seed", "x"], "not an integer"),
    (["pyramid", "--seed", "1", "--variant", "easy"], "--variant"),
    (["pyramid", "--deal", "1B 2B 3B"], "3 tiles, expected 144"),
    (["pyramid", "--deal", "1B " * 143 + "1B"], "copies of 1B"),
    (["pyramid", "--deal", " ".join(deal_from_seed(1).tokens()[:-1] + ["QQ"])], "unknown tile 'QQ'"),
    (["pyramid", "--deal-file", "/nonexistent/deal.txt"], "cannot read"),
    (["pyramid", "--seed", "1", "--deal", "1B"], "only one of"),
    (["pyramid", "--bogus"], "No such option"),
    (["pyramid", "verify", "--seed", "1", "/nonexistent"], "cannot read"),
    (["pyramid", "deal"], "Missing option"),
])
def test_bad_input_is_one_line_exit_2(args, needle):
    one_line_error(run(*args), needle)


def test_missing_tile_is_named():
    tokens = deal_from_seed(1).tokens()
    tokens.remove("RD")
    one_line_error(run("pyramid", "--deal", " ".join(tokens)), "missing RD")


def test_corrupt_solution_json(tmp_path):
    path = tmp_path / "sol.json"
    path.write_text('{"moves": [1, 2')
    one_line_error(run("pyramid", "verify", "--seed", "1", str(path)), "not valid JSON")
    path.write_text("a deal's notes, not its solution\n")
    one_line_error(run("pyramid", "verify", "--seed", "1", str(path)), "no move")
    path.write_text("")
    assert run("pyramid", "verify", "--seed", "1", str(path)).exit_code == 1   # checked: no move wins nothing


def test_installed_entry_point_runs(tmp_path):
    """The `python -m solver.cli.main` path as a user runs it, outside the source tree."""
    root = str(Path(solver.__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=root)
    proc = subprocess.run([sys.executable, "-m", "solver.cli.main", "pyramid", "--seed", "1", "--json"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and json.loads(proc.stdout)["verdict"] == "won"
    bad = subprocess.run([sys.executable, "-m", "solver.cli.main", "pyramid", "--seed", "-5"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
