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


def test_solve_seed_json_keys():
    out = run("pyramid", "--seed", "42", "--variant", "wild-dragons", "--json")
    data = json.loads(out.output)
    assert {"seed", "variant", "verdict", "moves", "nodes", "seconds"} <= set(data)
    assert data["seed"] == 42 and data["variant"] == "wild-dragons" and data["verdict"] == "won"
    assert len(data["moves"]) == 144 and all("@" in m for m in data["moves"])


def test_lost_and_unknown_exit_zero():
    lost = json.loads(run("pyramid", "--seed", "12", "--json").output)
    assert lost["verdict"] == "lost" and lost["moves"] == []
    out = run("pyramid", "--seed", "7260", "--node-limit", "100")
    assert out.exit_code == 0 and "verdict: unknown (node limit reached" in out.output


def test_explicit_deal_and_deal_file(tmp_path):
    text = deal_from_seed(42).text()
    by_text = json.loads(run("pyramid", "--deal", text, "--json").output)
    path = tmp_path / "deal.txt"
    path.write_text(text + "\n")
    by_file = json.loads(run("pyramid", "--deal-file", str(path), "--json").output)
    by_seed = json.loads(run("pyramid", "--seed", "42", "--json").output)
    assert by_text["moves"] == by_file["moves"] == by_seed["moves"]
    assert by_text["seed"] is None


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


def test_show_draws_levels_and_writes_svg(tmp_path):
    svg = tmp_path / "p.svg"
    out = run("pyramid", "show", "--seed", "42", "--moves", "10", "--svg", str(svg))
    assert out.exit_code == 0
    for heading in ("Level 1 (", "Level 2 (", "Level 3 (", "Level 4 (", "Reserves", "Stock"):
        assert heading in out.output
    assert "Placed 10 of 144" in out.output
    assert svg.read_text().startswith("<svg") and "Level 4" in svg.read_text()
    one_line_error(run("pyramid", "show", "--seed", "42", "--moves", "200"), "only 144 moves")


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
