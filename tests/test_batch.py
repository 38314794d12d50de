"""The batch runner: local workers agree with one process, resume, limits, errors, CLI."""
import csv
import json
import os
import signal
import subprocess
import sys
import time
import sqlite3

import pytest
from click.testing import CliRunner

import solver
from solver.cli.main import solve
from solver.batch import run_batch
from solver.errors import InputError
from solver.seeds import parse_ranges
from solver.store import ResultStore


def analyse_seed(seed, analysis="thoughtful", **limits):
    """One seed answered directly through the registry (what a batch row must equal)."""
    from solver.batch import answer_row
    from solver.game import Limits
    return answer_row("pyramid", analysis, seed, variant="continuous", limits=Limits(**limits))


def stored(path, analysis="thoughtful", variant="continuous"):
    db = sqlite3.connect(path)
    rows = db.execute("SELECT seed, verdict, limit_hit, nodes FROM results WHERE analysis=? AND variant=? "
                      "ORDER BY seed", (analysis, variant)).fetchall()
    db.close()
    return rows


def test_workers_agree_with_one_process_and_with_the_analysis(tmp_path):
    one, two = str(tmp_path / "one.sqlite"), str(tmp_path / "two.sqlite")
    ranges = parse_ranges("1-60")
    s1 = run_batch(db=one, game="pyramid", analysis="thoughtful", ranges=ranges, workers=1,
                   node_limit=200_000, progress=False)
    s2 = run_batch(db=two, game="pyramid", analysis="thoughtful", ranges=ranges, workers=2,
                   chunk_size=7, node_limit=200_000, progress=False)
    assert s1.done == s2.done == 60 and s1.verdicts == s2.verdicts
    assert stored(one) == stored(two)
    for seed, verdict, limit, nodes in stored(one)[::10]:
        direct = analyse_seed(seed, node_limit=200_000)
        assert (verdict, limit, nodes) == (direct["verdict"], direct["limit"], direct["nodes"])


def test_resume_skips_what_is_stored(tmp_path):
    db = str(tmp_path / "r.sqlite")
    first = run_batch(db=db, game="pyramid", analysis="blind:greedy", ranges=parse_ranges("5-25"),
                      workers=1, progress=False)
    again = run_batch(db=db, game="pyramid", analysis="blind:greedy", ranges=parse_ranges("1-30"),
                      workers=2, progress=False)
    assert (first.done, again.skipped, again.done) == (21, 21, 9)
    assert [r[0] for r in stored(db, "blind:greedy")] == list(range(1, 31))
    other = run_batch(db=db, game="pyramid", analysis="blind:greedy", variant="wild-dragons",
                      ranges=parse_ranges("1-5"), workers=1, progress=False)
    assert other.skipped == 0 and other.done == 5      # the variant is part of the key


def test_a_limit_is_stored_as_unknown_with_its_name(tmp_path):
    db = str(tmp_path / "r.sqlite")
    run_batch(db=db, game="pyramid", analysis="thoughtful", ranges=parse_ranges("1-30"),
              workers=1, node_limit=20, progress=False)
    rows = stored(db)
    assert any(v == "unknown" for _, v, _, _ in rows)
    for seed, verdict, limit, nodes in rows:
        assert (limit == "nodes") == (verdict == "unknown")
        assert nodes <= 21


def test_a_time_limit_is_stored_as_unknown_with_its_name(tmp_path):
    db = str(tmp_path / "r.sqlite")
    hard = 7260                                 # continuous: lost, but only after 120k nodes (tens of ms)
    s = run_batch(db=db, game="pyramid", analysis="thoughtful", ranges=[(hard, hard), (1, 3)],
                  workers=1, time_limit=1e-6, progress=False)   # (the clock is read every 1024 nodes;
    # a larger limit leaves the tail search time, which loses 7260 in 83 nodes)
    rows = {seed: (v, limit) for seed, v, limit, _ in stored(db)}
    assert rows[hard] == ("unknown", "time")
    assert all(rows[seed][0] != "unknown" for seed in (1, 2, 3))
    assert s.verdicts["unknown"] == 1


def test_retry_unknown_replaces_only_unknown_rows(tmp_path):
    db = str(tmp_path / "r.sqlite")
    run_batch(db=db, game="pyramid", analysis="thoughtful", ranges=parse_ranges("1-30"),
              workers=1, node_limit=20, progress=False)
    first = {s: (v, n) for s, v, _, n in stored(db)}
    unknown = sorted(s for s, (v, _) in first.items() if v == "unknown")
    again = run_batch(db=db, game="pyramid", analysis="thoughtful", ranges=parse_ranges("1-30"),
                      workers=1, node_limit=200_000, progress=False)
    assert again.done == 0                             # without the flag, nothing reruns
    retry = run_batch(db=db, game="pyramid", analysis="thoughtful", ranges=parse_ranges("1-30"),
                      workers=1, node_limit=200_000, progress=False, retry_unknown=True)
    assert (retry.skipped, retry.done) == (30 - len(unknown), len(unknown))
    after = {s: (v, n) for s, v, _, n in stored(db)}
    assert len(after) == 30
    for s, (v, n) in first.items():
        if v != "unknown":
            assert after[s] == (v, n)                  # decided rows are never overwritten
        else:
            assert after[s][0] == analyse_seed(s, node_limit=200_000)["verdict"]


def test_generic_command_passes_game_options(tmp_path):
    db = str(tmp_path / "r.sqlite")
    r = CliRunner().invoke(solve, ["batch", "--game", "boundary", "--analysis", "playout", "--seeds", "3-4",
                                   "--option", "max_moves=12", "--db", db, "--workers", "1", "--json"])
    assert r.exit_code == 0, r.output
    with ResultStore(db) as st:
        rows = list(st.rows())
    assert [json.loads(row.fields)["length"] <= 12 for row in rows] == [True, True]
    assert {row.analysis for row in rows} == {"playout max_moves=12"}     # the option is in the key


def test_other_games_plug_in(tmp_path):
    db = str(tmp_path / "r.sqlite")
    s = run_batch(db=db, game="boundary", analysis="playout", ranges=parse_ranges("1-4"),
                  workers=1, options={"max_moves": 30}, progress=False)
    assert s.done == 4
    with ResultStore(db) as st:
        rows = list(st.rows(game="boundary"))
    assert [r.variant for r in rows] == ["default"] * 4
    assert json.loads(rows[0].fields)["length"] == 30
    assert rows[0].verdict == "unfinished"


@pytest.mark.parametrize("kw, message", [
    (dict(game="chess", analysis="thoughtful"), "unknown game"),
    (dict(game="pyramid", analysis="clever"), "unknown analysis"),
    (dict(game="pyramid", analysis="blind:psychic"), "unknown analysis"),
    (dict(game="boundary", analysis="playout", options={"max_moves": -5}), "at least 1"),
    (dict(game="boundary", analysis="playout", options={"policies": ["psychic"]}), "not one of"),
    (dict(game="continuum", analysis="puzzle"), "does not depend on the seed"),
    (dict(game="pyramid", analysis="thoughtful", variant="square"), "unknown variant"),
    (dict(game="boundary", analysis="playout", variant="x"), "no variants"),
])
def test_bad_parameters_are_input_errors(tmp_path, kw, message):
    with pytest.raises(InputError, match=message):
        run_batch(db=str(tmp_path / "r.sqlite"), ranges=[(1, 2)], workers=1, progress=False, **kw)


@pytest.mark.parametrize("args", [
    ["pyramid", "batch", "--seeds", "5-1", "--db", "r.sqlite"],
    ["pyramid", "batch", "--seeds", "1-x", "--db", "r.sqlite"],
    ["pyramid", "batch", "--db", "r.sqlite"],
    ["pyramid", "batch", "--seeds", "1-3", "--analysis", "blind:psychic", "--db", "r.sqlite"],
    ["pyramid", "batch", "--seeds", "1-3", "--db", "junk.sqlite"],
    ["batch", "--game", "nope", "--analysis", "x", "--seeds", "1", "--db", "r.sqlite"],
    ["batch", "--game", "boundary", "--analysis", "playout", "--seeds", "1", "--option", "max_moves=abc",
     "--db", "r.sqlite"],
    ["batch", "--game", "boundary", "--analysis", "playout", "--seeds", "1", "--option", "max_moves=-5",
     "--db", "r.sqlite"],
    ["batch", "--game", "continuum", "--analysis", "puzzle", "--seeds", "1-20", "--db", "r.sqlite"],
    ["pyramid", "batch", "--seeds", "1-3", "--time-limit", "nan", "--db", "r.sqlite"],
    ["stats", "missing.sqlite"],
    ["stats", "junk.sqlite"],
    ["export", "junk.sqlite", "--csv", "o.csv"],
    ["pyramid", "play", "--seed", "1", "--policy", "psychic"],
    ["batch", "--game", "boundary", "--analysis", "playout", "--seeds", "1", "--option", "oops",
     "--db", "r.sqlite"],
    ["batch", "--game", "pyramid", "--analysis", "blind:greedy", "--seeds", "1", "--option", "samples=2",
     "--db", "r.sqlite"],
])
def test_cli_bad_input_exits_2_without_traceback(tmp_path, args):
    (tmp_path / "junk.sqlite").write_text("not a database\n" * 50)
    args = [str(tmp_path / a) if a.endswith(".sqlite") else a for a in args]
    result = CliRunner().invoke(solve, args)
    assert result.exit_code == 2, result.output
    assert "error:" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "r.sqlite").exists()


def test_cli_batch_stats_export_round_trip(tmp_path):
    db, out = str(tmp_path / "r.sqlite"), str(tmp_path / "o.csv")
    (tmp_path / "seeds.txt").write_text("# a few\n1-6\n9\n")
    r = CliRunner().invoke(solve, ["pyramid", "batch", "--seeds-file", str(tmp_path / "seeds.txt"),
                                   "--db", db, "--workers", "1", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["done"] == 7
    r = CliRunner().invoke(solve, ["pyramid", "batch", "--seeds", "1-9", "--db", db, "--workers", "1",
                                   "--analysis", "blind:greedy"])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(solve, ["stats", db, "--json"])
    report = json.loads(r.output)
    assert {g["analysis"]: g["seeds"] for g in report["groups"]} == {"thoughtful": 7, "blind:greedy": 9}
    assert report["side_by_side"][0]["seeds"] == 7
    r = CliRunner().invoke(solve, ["export", db, "--csv", out])
    assert r.exit_code == 0
    with open(out, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 16
    assert list(rows[0]) == ["game", "variant", "analysis", "seed", "verdict", "limit", "nodes",
                             "seconds", "fields"]
    thoughtful = {int(r["seed"]): r for r in rows if r["analysis"] == "thoughtful"}
    assert sorted(thoughtful) == [1, 2, 3, 4, 5, 6, 9]
    assert thoughtful[1]["verdict"] == analyse_seed(1)["verdict"]
    assert json.loads(thoughtful[1]["fields"])["placed"] == analyse_seed(1)["placed"]


def subprocess_env():
    """PYTHONPATH naming the directory that holds the `solver` package under test."""
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.abspath(solver.__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return env


def interrupt_as_at_a_terminal():
    """A run started in the background of a shell without job control inherits SIGINT
    ignored, and Python then keeps it ignored: Ctrl-C is a terminal's signal, so the child
    gets the terminal's default back."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_batch(tmp_path, db, seeds, *extra, session=False):
    return subprocess.Popen(
        [sys.executable, "-m", "solver.cli.main", "pyramid", "batch", "--seeds", seeds, "--db", db,
         "--node-limit", "100000", "--chunk-size", "8", *extra],
        cwd=str(tmp_path), env=subprocess_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=session, preexec_fn=interrupt_as_at_a_terminal)


def wait_for_rows(proc, db, row_count, timeout=60):
    end = time.time() + timeout
    while time.time() < end and proc.poll() is None:
        if row_count(db) > 0:
            return True
        time.sleep(0.05)
    return False


def test_ctrl_c_stops_cleanly_and_keeps_results(tmp_path, row_count):
    db = str(tmp_path / "r.sqlite")
    # Two million seeds: a minute or more of work even for the fastest kernel, so the run
    # cannot end on its own between the first rows and the signal.
    proc = start_batch(tmp_path, db, "1-2000000", "--workers", "2", session=True)
    try:
        assert wait_for_rows(proc, db, row_count), proc.stderr.read().decode()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=180)   # generous: a loaded shared machine
    finally:                                       # a failed run leaves no batch behind
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err.decode()
    assert b"Traceback" not in err and b"interrupted" in err
    kept = row_count(db)
    assert 0 < kept < 2000000
    assert b"results kept" in err


def test_kill_9_then_rerun_stores_every_seed_exactly_once(tmp_path, row_count):
    # blind:lookahead costs a few ms a seed (greedy, compiled, now well under one): the run
    # outlasts the first commit (2 s) even on an idle machine, so the kill lands mid-run.
    db, n = str(tmp_path / "r.sqlite"), 4000
    greedy = ("--analysis", "blind:lookahead")
    proc = start_batch(tmp_path, db, f"1-{n}", "--workers", "2", *greedy, session=True)
    assert wait_for_rows(proc, db, row_count), proc.stderr.read().decode()
    os.killpg(proc.pid, signal.SIGKILL)            # the runner and its workers, mid-run
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read().decode()
    before = row_count(db)
    assert 0 < before < n, before
    again = start_batch(tmp_path, db, f"1-{n}", "--workers", "2", "--json", *greedy)
    out, err = again.communicate(timeout=120)
    assert again.returncode == 0, (again.returncode, err.decode())
    assert b"seed/s" not in err                    # no progress bar: stderr is not a terminal
    summary = json.loads(out)
    assert summary["skipped"] == before and summary["done"] == n - before
    con = sqlite3.connect(db)
    seeds = [s for (s,) in con.execute("SELECT seed FROM results ORDER BY seed")]
    con.close()
    assert seeds == list(range(1, n + 1))          # nothing lost, nothing duplicated


def test_progress_bar_on_request(tmp_path):
    args = ["pyramid", "batch", "--seeds", "1-20", "--db", str(tmp_path / "r.sqlite"), "--workers", "1",
            "--analysis", "blind:greedy"]
    shown = CliRunner().invoke(solve, args[:3] + ["21-40"] + args[4:] + ["--progress"])
    hidden = CliRunner().invoke(solve, args)
    assert shown.exit_code == hidden.exit_code == 0
    assert "20/20" in shown.output and "seed/s" in shown.output and "won" in shown.output
    assert "seed/s" not in hidden.output


@pytest.mark.slow
def test_sweep_two_workers_equal_direct_analysis(tmp_path):
    """A longer sweep: every stored row equals a direct call of the analysis."""
    db = str(tmp_path / "r.sqlite")
    for analysis in ("thoughtful", "blind:greedy"):
        run_batch(db=db, game="pyramid", analysis=analysis, ranges=parse_ranges("1-1500"), workers=2,
                  node_limit=100_000, progress=False)
        for seed, verdict, limit, nodes in stored(db, analysis):
            direct = analyse_seed(seed, analysis=analysis, node_limit=100_000)
            assert (verdict, limit, nodes) == (direct["verdict"], direct["limit"], direct["nodes"])


@pytest.mark.slow
def test_repeated_kill_9_at_random_moments(tmp_path):
    """Kill the run several times, at random moments (even before the first commit)."""
    import random
    db, n, rng = str(tmp_path / "r.sqlite"), 6000, random.Random(9)
    for _ in range(4):
        proc = start_batch(tmp_path, db, f"1-{n}", "--workers", "2", session=True)
        time.sleep(rng.uniform(0.2, 4.0))
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    again = start_batch(tmp_path, db, f"1-{n}", "--workers", "2", "--json")
    out, err = again.communicate(timeout=300)
    assert again.returncode == 0, err.decode()
    con = sqlite3.connect(db)
    seeds = [s for (s,) in con.execute("SELECT seed FROM results ORDER BY seed")]
    con.close()
    assert seeds == list(range(1, n + 1))


def test_options_that_change_the_answer_are_part_of_the_key(tmp_path):
    """A round-1 run after a default (round-7) run is not served the round-7 rows."""
    db = str(tmp_path / "r.sqlite")
    default = run_batch(db=db, game="continental", analysis="deal", ranges=[(1, 40)], workers=1, progress=False)
    round1 = run_batch(db=db, game="continental", analysis="deal", ranges=[(1, 40)], workers=1,
                       options={"round": 1}, progress=False)
    assert default.done == 40 and round1.skipped == 0 and round1.done == 40
    assert round1.analysis == "deal round=1"
    with ResultStore(db) as st:
        one = {r.seed: json.loads(r.fields)["round"] for r in st.rows(analysis="deal round=1")}
        seven = {r.seed: json.loads(r.fields)["round"] for r in st.rows(analysis="deal")}
    assert set(one.values()) == {1} and set(seven.values()) == {7}


def test_a_node_limit_is_honoured_by_every_game(tmp_path):
    """run_batch(node_limit=...) reaches every game's search (none ignores or rejects it)."""
    db = str(tmp_path / "r.sqlite")
    s = run_batch(db=db, game="spectrum", analysis="min-turns", ranges=[(27, 27)], workers=1,
                  node_limit=1000, progress=False)
    assert s.verdicts == {"unknown": 1}
    with ResultStore(db) as st:
        (row,) = st.rows()
    assert row.limit == "nodes"


def test_stats_count_playout_wins_by_seat(tmp_path):
    """Spectrum play-outs that P1 wins are counted as P1's wins, not as '0 won'."""
    db = str(tmp_path / "r.sqlite")
    run_batch(db=db, game="spectrum", analysis="playout", ranges=[(1, 6)], workers=1,
              options={"policies": ["solver", "random"], "players": 2, "max_moves": 200}, progress=False)
    from solver.stats import format_report, summarise
    with ResultStore(db) as st:
        report = summarise(st)
        winners = [json.loads(r.fields)["winner"] for r in st.rows()]
    (group,) = report["groups"]
    assert group["kind"] == "playout" and "won" not in group
    assert group["wins"][0] == winners.count(0) and group["wins"][1] == winners.count(1)
    assert sum(group["wins"]) + group["draws"] + group["unfinished"] == 6
    assert "rate 0.00%" not in format_report(report)
    assert report["side_by_side"] == []
