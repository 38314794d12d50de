"""Nothing lost, nothing wrong: every case of the bad-input contract's data-safety issue.

Each test here failed on the code before the fix (the issue's list): a command
that wrote over the database it read, a broken pipe that failed, workers left
behind by ``kill -9``, an explicit option ignored, a seed with leading zeros
refused, an error line echoing 100 KB of input, a huge seed range started
without a word, a Dask error with a traceback and a 20 s hang.
"""
import glob
import hashlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

import pytest
from click.testing import CliRunner

import solver
from solver.cli.main import solve
from solver.errors import InputError
from solver.store import ResultStore, Row

ROWS = 30_000


def digest(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def env():
    out = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.abspath(solver.__file__)))
    out["PYTHONPATH"] = root + os.pathsep + out.get("PYTHONPATH", "")
    out.pop("SOLVE_DEBUG", None)
    return out


def run(*args, stdin=None, cwd=None, process=False, timeout=120):
    """`solve ARGS`: in this process through Click's runner (fast), or in a real
    process with ``process=True`` (stderr exactly as the user sees it)."""
    if process:
        return subprocess.run([sys.executable, "-P", "-m", "solver.cli.main", *args], input=stdin, cwd=cwd,
                              env=env(), capture_output=True, timeout=timeout)
    here = os.getcwd()
    try:
        if cwd:
            os.chdir(cwd)
        r = CliRunner().invoke(solve, list(args), input=stdin)
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(args, r.exit_code, r.stdout_bytes, r.stderr_bytes)


def one_error_line(proc, *words):
    """Exit 2, one line `solve: error: ...` on stderr naming ``words``, no traceback."""
    err = proc.stderr.decode()
    assert proc.returncode == 2, (proc.returncode, err)
    assert err.startswith("solve: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for w in words:
        assert w in err, err
    return err


def make_db(path, n=ROWS):
    with ResultStore(str(path), create=True) as st:
        st.add([Row("pyramid", "continuous", "thoughtful", s, "won" if s % 9 else "lost", None,
                    144, 0.001 * (s % 7 + 1), '{"placed":144}') for s in range(1, n + 1)])
        st.commit()
    return str(path)


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    return make_db(tmp_path_factory.mktemp("db") / "results.sqlite")


@pytest.fixture
def db(database, tmp_path):
    """A fresh copy of a 30,000-row results database."""
    path = tmp_path / "results.sqlite"
    path.write_bytes(open(database, "rb").read())
    return str(path)


# -- never destroy data -----------------------------------------------------------
def test_export_over_its_own_database_is_refused_and_the_database_survives(db, tmp_path, row_count):
    before = digest(db)
    one_error_line(run("export", db, "--csv", db), "reads")
    os.symlink(db, tmp_path / "link.csv")
    one_error_line(run("export", db, "--csv", str(tmp_path / "link.csv")), "reads")
    other = make_db(tmp_path / "other.sqlite", 10)
    one_error_line(run("export", other, "--csv", db), "SQLite database")
    assert digest(db) == before and row_count(db) == ROWS


def test_plot_over_the_database_or_a_directory_is_refused(db, tmp_path, row_count):
    pytest.importorskip("matplotlib")
    before = digest(db)
    one_error_line(run("plot", db, "--out", db), "reads")
    (tmp_path / "somedir").mkdir()
    one_error_line(run("plot", db, "--out", str(tmp_path / "somedir")), "directory")
    one_error_line(run("plot", db, "--out", str(tmp_path / "chart")), "image format")
    assert not glob.glob(str(tmp_path / "somedir*.*")) and not glob.glob(str(tmp_path / "chart*"))
    assert digest(db) == before and row_count(db) == ROWS
    ok = run("plot", db, "--out", str(tmp_path / "chart.png"))
    assert ok.returncode == 0 and (tmp_path / "chart.png").read_bytes()[:4] == b"\x89PNG"
    assert os.listdir(tmp_path / "somedir") == [] and digest(db) == before


def test_a_picture_never_overwrites_the_file_it_was_drawn_from(tmp_path):
    deal = tmp_path / "deal.txt"
    deal.write_bytes(run("pyramid", "deal", "--seed", "42").stdout)
    before = deal.read_bytes()
    one_error_line(run("pyramid", "show", "--deal-file", str(deal), "--svg", str(deal)), "reads")
    one_error_line(run("pyramid", "show", "--deal-file", str(deal), "--svg",
                       str(tmp_path / "." / "deal.txt")), "reads")
    assert deal.read_bytes() == before
    record = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "seeds", "boundary.txt")
    if os.path.isfile(record):
        mine = tmp_path / "record.txt"
        mine.write_bytes(open(record, "rb").read())
        one_error_line(run("boundary", "show", "--record", str(mine), "--html", str(mine)), "reads")
        assert mine.read_bytes() == open(record, "rb").read()


def test_a_kill_during_export_leaves_the_old_csv_whole(tmp_path):
    db = make_db(tmp_path / "big.sqlite", 200_000)
    before = digest(db)
    out = tmp_path / "out.csv"
    out.write_text("the old export\n")
    proc = subprocess.Popen([sys.executable, "-P", "-m", "solver.cli.main", "export", db, "--csv", str(out)],
                            env=env(), stderr=subprocess.PIPE)
    end = time.time() + 60
    while time.time() < end and proc.poll() is None and not glob.glob(str(tmp_path / ".out.csv.*")):
        time.sleep(0.005)
    assert proc.poll() is None, "the export ended before it could be killed"
    time.sleep(0.2)
    proc.kill()
    proc.wait(timeout=30)
    assert out.read_text() == "the old export\n"           # whole: the new file was never half-written over it
    assert digest(db) == before
    again = run("export", db, "--csv", str(out))
    assert again.returncode == 0 and sum(1 for _ in open(out)) == 200_001


def test_readers_never_change_a_byte_and_a_read_only_copy_reads(db, tmp_path, row_count):
    os.chmod(db, 0o444)
    before = digest(db)
    assert run("stats", db, "--json").returncode == 0
    assert run("export", db, "--csv", str(tmp_path / "o.csv")).returncode == 0
    assert digest(db) == before and row_count(db) == ROWS
    if os.geteuid() != 0:                          # root writes whatever the mode says
        one_error_line(run("pyramid", "batch", "--seeds", "40000-40010", "--db", db, "--workers", "1"),
                       "readonly")
        assert digest(db) == before


def test_a_locked_database_is_one_line_and_keeps_its_rows(db, monkeypatch, row_count):
    import solver.store
    monkeypatch.setattr(solver.store, "BUSY_SECONDS", 0.2)
    holder = sqlite3.connect(db)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        r = CliRunner().invoke(solve, ["pyramid", "batch", "--seeds", "40001-40003", "--db", db,
                                       "--workers", "1"])
    finally:
        holder.rollback()
        holder.close()
    assert r.exit_code == 2, r.output
    assert "locked" in r.output and "Traceback" not in r.output
    assert row_count(db) == ROWS


@pytest.mark.parametrize("message", ["database or disk is full", "attempt to write a readonly database"])
def test_a_full_disk_or_read_only_file_is_one_line_and_keeps_its_rows(db, monkeypatch, message, row_count):
    def fail(self, rows):
        raise sqlite3.OperationalError(message)
    monkeypatch.setattr(ResultStore, "_add", fail)
    r = CliRunner().invoke(solve, ["pyramid", "batch", "--seeds", "40001-40003", "--db", db, "--workers", "1"])
    assert r.exit_code == 2, r.output
    assert message in r.output and "Traceback" not in r.output
    assert row_count(db) == ROWS


@pytest.mark.parametrize("name", ["", ":memory:", "-"])
def test_results_are_never_kept_nowhere(tmp_path, name):
    """SQLite would take '' and ':memory:' as a database deleted at exit: the run's rows lost."""
    one_error_line(run("pyramid", "batch", "--seeds", "1-3", "--db", name, "--workers", "1", cwd=str(tmp_path)),
                   "file")


def test_db_and_seeds_file_cannot_be_the_same_file(tmp_path):
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("1-3\n")
    one_error_line(run("pyramid", "batch", "--seeds-file", str(seeds), "--db", str(seeds)), "same file")
    assert seeds.read_text() == "1-3\n"


# -- Unix conveniences ---------------------------------------------------------
def test_a_broken_pipe_ends_quietly(db):
    proc = subprocess.Popen([sys.executable, "-P", "-m", "solver.cli.main", "export", db, "--csv", "-"],
                            env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline().startswith(b"game,variant")
    proc.stdout.close()                                # `| head -1`
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0, err
    assert err == b""


def test_dash_reads_standard_input(tmp_path):
    solution = run("pyramid", "--seed", "42").stdout
    ok = run("pyramid", "verify", "--seed", "42", "-", stdin=solution)
    assert ok.returncode == 0 and b"valid" in ok.stdout, ok.stderr
    deal = run("pyramid", "deal", "--seed", "42").stdout
    won = run("pyramid", "--deal-file", "-", "--json", stdin=deal)
    assert won.returncode == 0 and json.loads(won.stdout)["verdict"] == "won", won.stderr
    db = str(tmp_path / "r.sqlite")
    batch = run("pyramid", "batch", "--seeds-file", "-", "--db", db, "--workers", "1", "--json",
                stdin=b"# two seeds\n5\n7\n")
    assert batch.returncode == 0 and json.loads(batch.stdout)["done"] == 2, batch.stderr


# -- error lines: capped, one line ---------------------------------------------------
def test_error_lines_quote_a_short_excerpt(tmp_path):
    huge = "5B " * 35_000                                  # ~100 KB
    for args in (["pyramid", "--deal", huge], ["pyramid", "--seed", huge],
                 ["pyramid", "batch", "--seeds", "x" * 100_000, "--db", str(tmp_path / "r.sqlite")],
                 ["continental", "hand", "--round", "1", "Zz " * 30_000]):
        err = one_error_line(run(*args))
        assert len(err) < 400, len(err)
    junk = tmp_path / "deal.txt"
    junk.write_text("\n".join(["QQ"] * 50_000))
    assert len(one_error_line(run("pyramid", "--deal-file", str(junk)))) < 400


# -- limits ---------------------------------------------------------------------
@pytest.mark.parametrize("args, words", [
    (["pyramid", "--seed", "1", "--table-mb", "1000000000"], ["memory"]),
    (["pyramid", "--seed", "1", "--time-limit", "nan"], ["time"]),
    (["pyramid", "--seed", "1", "--time-limit", "inf"], ["time"]),
    (["pyramid", "--seed", "1", "--time-limit", "-1"], ["time"]),
    (["pyramid", "--seed", "1", "--node-limit", "0"], ["node"]),
    (["pyramid", "batch", "--seeds", "1-3", "--time-limit", "nan", "--db", "r.sqlite"], ["time"]),
    (["pyramid", "batch", "--seeds", "1-3", "--table-mb", "1e300", "--db", "r.sqlite"], ["table"]),
    (["pyramid", "batch", "--seeds", "1-3", "--workers", "100000", "--db", "r.sqlite"], ["workers"]),
    (["pyramid", "batch", "--seeds", "1-3", "--chunk-size", "1000000000", "--db", "r.sqlite"], ["chunk"]),
    (["boundary", "play", "--games", "10000000000"], ["games"]),
])
def test_limits_are_finite_positive_and_fit(tmp_path, args, words):
    one_error_line(run(*args, cwd=str(tmp_path)), *words)
    assert not (tmp_path / "r.sqlite").exists()


def test_a_huge_seed_range_asks_for_yes(tmp_path):
    from solver.seeds import CONFIRM_ABOVE, check_size
    db = tmp_path / "r.sqlite"
    one_error_line(run("pyramid", "batch", "--seeds", "0-18446744073709551615", "--db", str(db)), "--yes")
    one_error_line(run("pyramid", "batch", "--seeds", f"1-{CONFIRM_ABOVE + 1}", "--db", str(db)), "--yes")
    assert not db.exists()
    assert check_size([(1, CONFIRM_ABOVE + 1)], yes=True) == CONFIRM_ABOVE + 1
    with pytest.raises(InputError, match="--yes"):
        check_size([(1, CONFIRM_ABOVE + 1)])


def test_seeds_with_leading_zeros_are_decimal(tmp_path):
    assert run("pyramid", "deal", "--seed", "007").stdout == run("pyramid", "deal", "--seed", "7").stdout
    db = str(tmp_path / "r.sqlite")
    r = run("pyramid", "batch", "--seeds", "010-020", "--db", db, "--workers", "1", "--analysis",
            "blind:greedy", "--json")
    assert r.returncode == 0, r.stderr
    con = sqlite3.connect(db)
    assert [s for (s,) in con.execute("SELECT seed FROM results ORDER BY seed")] == list(range(10, 21))
    con.close()


# -- explicit options win; unknown values are never numbers ---------------------------
def test_an_explicit_variant_wins_over_the_solution_file(tmp_path):
    sol = tmp_path / "sol.json"
    sol.write_bytes(run("pyramid", "--seed", "42", "--json").stdout)
    assert run("pyramid", "verify", str(sol)).returncode == 0
    wild = run("pyramid", "verify", "--variant", "wild-dragons", str(sol), "--json")
    assert wild.returncode == 1, wild.stdout               # the same moves break under Wild Dragons
    assert json.loads(wild.stdout)["variant"] == "wild-dragons"


def solution_lines(tmp_path, edit):
    lines = run("pyramid", "--seed", "42").stdout.decode().splitlines()
    path = tmp_path / "sol.txt"
    path.write_text("\n".join(edit(lines)) + "\n")
    return str(path)


def test_a_numbered_line_that_is_not_a_move_is_bad_input(tmp_path):
    def insert_hello(lines):
        i = next(i for i, l in enumerate(lines) if l.strip().startswith("1. "))
        return lines[:i + 1] + ["   2. hello"] + lines[i + 1:]
    one_error_line(run("pyramid", "verify", "--seed", "42", solution_lines(tmp_path, insert_hello)),
                   "line 4", "hello")


def test_a_malformed_move_is_bad_input_naming_its_line(tmp_path):
    def spoil(lines):
        return ["   3. WW@9z9" if l.strip().startswith("3. ") else l for l in lines]
    one_error_line(run("pyramid", "verify", "--seed", "42", solution_lines(tmp_path, spoil)),
                   "line 5", "WW@9z9")


def test_the_right_move_number_is_blamed(tmp_path):
    def drop_five(lines):
        return [l for l in lines if not l.strip().startswith("5. ")]
    one_error_line(run("pyramid", "verify", "--seed", "42", solution_lines(tmp_path, drop_five)),
                   "numbered '6'", "move 5")
    def swap(lines):                                      # numbering intact, moves out of order
        a = next(i for i, l in enumerate(lines) if l.strip().startswith("7. "))
        lines[a], lines[a + 1] = lines[a].replace("7.", "8.", 1), lines[a + 1].replace("8.", "7.", 1)
        lines[a], lines[a + 1] = lines[a + 1], lines[a]
        return lines
    r = run("pyramid", "verify", "--seed", "42", solution_lines(tmp_path, swap), "--json")
    report = json.loads(r.stdout)
    assert r.returncode in (0, 1) and (report["valid"] or report["error_move"] in (7, 8))


def test_an_unknown_hand_value_is_never_printed_as_a_number():
    hand = "As 2s 3s 4s 5h 6h 7h 8h 9d Td Jd Qd Kc"           # meets round 7
    for limit in ("1", "2", "5"):
        r = run("continental", "hand", "--round", "7", hand, "--node-limit", limit, "--json")
        out = json.loads(r.stdout)
        if out["verdict"] == "unknown":
            assert out["points_left"] is None and out["melds"] is None
        text = run("continental", "hand", "--round", "7", hand, "--node-limit", limit).stdout.decode()
        assert ("points left" in text) == ("straight " in text), text


# -- no orphans ------------------------------------------------------------------
def children(pid):
    out = []
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            fields = open(stat).read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.split("/")[2]))
    return out


def alive(pid):
    try:
        state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_kill_9_of_the_runner_ends_its_workers(tmp_path):
    db = str(tmp_path / "r.sqlite")
    proc = subprocess.Popen([sys.executable, "-P", "-m", "solver.cli.main", "pyramid", "batch", "--seeds",
                             "1-1000000", "--workers", "2", "--analysis", "blind:greedy", "--db", db,
                             "--chunk-size", "8"], env=env(), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    end = time.time() + 60
    workers = []
    while time.time() < end and len(workers) < 2:
        workers = [p for p in children(proc.pid) if alive(p)]
        time.sleep(0.1)
    assert len(workers) == 2, workers
    time.sleep(0.5)
    proc.send_signal(signal.SIGKILL)                       # the runner only: no clean-up runs in it
    proc.wait(timeout=30)
    end = time.time() + 10
    while time.time() < end and any(alive(p) for p in workers):
        time.sleep(0.1)
    left = [p for p in workers if alive(p)]
    for p in left:
        os.kill(p, signal.SIGKILL)
    assert left == [], "workers outlived the runner"


# -- a distributed run fails cleanly ---------------------------------------------------
def _within_seconds_of_start_up():
    """The allowance for a failing cluster run: the scheduler's connect timeout plus
    what starting a process that imports Dask costs now (seconds on a loaded
    machine), with a margin; a run that waited for Dask's own 30 s timeout fails."""
    from solver.distributed import CONNECT_SECONDS
    t0 = time.time()
    subprocess.run([sys.executable, "-c", "import distributed, solver.cli.main"], check=True,
                   cwd=tempfile.gettempdir())             # the installed package, not the checkout
    return CONNECT_SECONDS + 2 * (time.time() - t0) + 4


def test_an_unreachable_scheduler_is_one_line_within_seconds(tmp_path):
    pytest.importorskip("distributed")
    db = tmp_path / "r.sqlite"
    allowed = _within_seconds_of_start_up()
    for address, process in (("notaurl", True), ("tcp://127.0.0.1:1", False)):
        t0 = time.time()                  # in a real process: no finaliser waits at exit either
        one_error_line(run("pyramid", "batch", "--seeds", "1-3", "--cluster", address, "--db", str(db),
                           process=process), "scheduler")
        assert time.time() - t0 < allowed
    assert not db.exists()


def test_a_silent_scheduler_is_one_line_within_seconds(tmp_path):
    pytest.importorskip("distributed")
    allowed = _within_seconds_of_start_up()
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    accepted = []
    stop = threading.Event()

    def accept():                        # accept and never answer
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except OSError:
                pass
    threading.Thread(target=accept, daemon=True).start()
    try:
        t0 = time.time()
        one_error_line(run("pyramid", "batch", "--seeds", "1-3", "--cluster",
                           f"tcp://127.0.0.1:{server.getsockname()[1]}", "--db", str(tmp_path / "r.sqlite"),
                           process=True), "scheduler")
        assert time.time() - t0 < allowed
    finally:
        stop.set()
        server.close()
