"""Fuzz the whole command line: the bad-input contract, for every command and option.

The Click command tree is walked (so a new command or option is fuzzed from the
day it is added), and hypothesis builds argument lists for each command from
pools of plausible and malformed values: numbers out of range, junk text,
unicode, huge strings, missing and directory paths, corrupt, truncated and
foreign databases, binary and non-UTF-8 files, unknown options.  Every run
must keep the contract (README, "exit status"):

* exit status 0, 1 or 2 (130 with `solve: interrupted` when a prompt reads the end of input); on 2, exactly one line on stderr, ``solve: error: ...``,
  at most a few hundred characters; never a traceback, never ``internal error``;
* no file changed that the command only reads (inputs, databases read by
  stats/export/plot, any SQLite file named as an output), no temporary file
  left behind.

The default run tries a bounded number of examples per command (deterministic);
``pytest -m slow tests/test_cli_fuzz.py`` runs the larger random sweep.  The
number of distinct argument lists tried is printed by the last test (``-s``).
"""
import hashlib
import os
import pickle
import select
import shutil
import signal
import sqlite3
import sys
import time

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, reject, settings, strategies as st

from solver.cli.main import solve
from solver.store import ResultStore, Row

DEFAULT_EXAMPLES = 4            # per command, in the default run
SLOW_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", 150))   # per command, behind the slow marker
BUDGET_SECONDS = 8              # a run that outlasts this is killed, not judged (valid but long work)
MAX_ERROR_LINE = 400

TRIED = set()                   # distinct argument lists, for the report
SLOW = []                       # runs stopped by the budget


def commands():
    """(argv prefix, command) for every command of the tree, groups with options included."""
    out = []

    def walk(cmd, path):
        if path and (not isinstance(cmd, click.Group) or any(p.opts for p in cmd.params if not
                                                             getattr(p, "hidden", False))):
            out.append((tuple(path), cmd))
        if isinstance(cmd, click.Group):
            for name, sub in cmd.commands.items():
                walk(sub, path + [name])
    walk(solve, [])
    return out


COMMANDS = commands()


# -- the files a fuzzed command may be given -----------------------------------------
def _results_db(path):
    with ResultStore(str(path), create=True) as st_:
        st_.add([Row("pyramid", "continuous", "thoughtful", s, "won" if s % 5 else "lost", None, 144,
                     0.001 * s, '{"placed":144}') for s in range(1, 41)])
        st_.add([Row("boundary", "default", "playout", s, "finished", None, 0, 0.01,
                     '{"winner":0,"scores":[1,0],"length":10,"policies":["greedy","random"]}')
                 for s in range(1, 6)])
        st_.commit()


def _solve_out(*args):
    r = CliRunner().invoke(solve, list(args))
    assert r.exit_code == 0, r.output
    return r.stdout


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A folder of inputs (valid, damaged, foreign) and a folder for outputs."""
    root = tmp_path_factory.mktemp("fuzz")
    inp, out = root / "in", root / "out"
    inp.mkdir()
    out.mkdir()
    _results_db(inp / "results.sqlite")
    good = (inp / "results.sqlite").read_bytes()
    damaged = bytearray(good)
    for i in range(1200, len(damaged), 97):
        damaged[i] ^= 0x5A
    (inp / "damaged.sqlite").write_bytes(bytes(damaged))
    (inp / "truncated.sqlite").write_bytes(good[:3000])
    con = sqlite3.connect(str(inp / "foreign.sqlite"))
    con.execute("CREATE TABLE results (a, b)")
    con.execute("INSERT INTO results VALUES (1, 2)")
    con.commit()
    con.close()
    (inp / "junk.bin").write_bytes(bytes(range(256)) * 40)
    (inp / "latin1.txt").write_bytes("café 1-3 WW@1e5 As 2s\n".encode("latin-1"))
    (inp / "empty.txt").write_bytes(b"")
    (inp / "huge.txt").write_text("5B 9C " * 20_000)
    (inp / "seeds.txt").write_text("# seeds\n1-3\n007\n")
    (inp / "deal.txt").write_text(_solve_out("pyramid", "deal", "--seed", "42"))
    (inp / "pyramid-solution.txt").write_text(_solve_out("pyramid", "--seed", "42"))
    (inp / "pyramid-solution.json").write_text(_solve_out("pyramid", "--seed", "42", "--json"))
    (inp / "spectrum-plan.txt").write_text(_solve_out("spectrum", "--seed", "10"))
    record = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "seeds", "boundary.txt")
    if os.path.isfile(record):
        shutil.copy(record, inp / "boundary-record.txt")
    (inp / "continental-moves.txt").write_text("pass\npass\n")
    (inp / "adir").mkdir()
    return root


def snapshot(root):
    """path -> sha256 of every file under ``root``."""
    out = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as fh:
                out[path] = hashlib.sha256(fh.read()).hexdigest()
    return out


# -- values ---------------------------------------------------------------------
NUMBERS_BAD = ["0", "-1", "-0", "1.5", "1e3", "nan", "inf", "-inf", "1e309", "1e300", "99999999999999999999999",
               "9223372036854775808", "2147483648", "65536",
               "18446744073709551616", "0x10", "", " ", "١٢", "1_000", "9" * 5000, "abc", "--", "3 4"]
NUMBERS_OK = ["1", "2", "3", "007"]
FLOATS_OK = ["0.5", "1", "2.5"]
SEEDS = ["1", "42", "007", "0x2A", "-1", "18446744073709551615", "18446744073709551616", "", "x",
         "1-3", "9" * 300]
JUNK = ["", " ", "x", "-", "--", "--help", "ÿ\u202e\u200b", "🂡🂱", "\x7f", "a" * 100_000, "%s%n",
        "$(echo hi)", "'; DROP TABLE results; --", "\\", "\t\n", "null", "{}", "[]", "1-3", "0-18446744073709551615",
        "5-1", "1-x", "1,,2", "max_moves=5", "round=9", "oops", "players=99", "policies=psychic",
        "As 2s 3s 4s Kh Kd X", "As As As As As As As As As", "Zz", "WW@1e5", "WW@9z9",
        "Gl+Gm+Gs1r2Rl/4Rm1/4gRs/2Ys3/g1YmBs2/Yl3rBl+Bm r", "Rl/////", "red:SM blue:LL", "value<=6",
        "cw", "sideways", "yL | bL bM bS | yM yS || rL rM rS | gL gM gS", "||||", "notaurl",
        "tcp://127.0.0.1:1", "won", "continuous", "wild-dragons", "default", "thoughtful", "pyramid",
        "chess"]
INPUT_FILES = ["results.sqlite", "damaged.sqlite", "truncated.sqlite", "foreign.sqlite", "junk.bin",
               "latin1.txt", "empty.txt", "huge.txt", "seeds.txt", "deal.txt", "pyramid-solution.txt",
               "pyramid-solution.json", "spectrum-plan.txt", "boundary-record.txt",
               "continental-moves.txt", "adir", "missing.txt", "missing/dir/x.txt"]
OUTPUT_FILES = ["out.csv", "out.png", "out.svg", "out.html", "out.sqlite", "chart", "adir", "missing/x.csv",
                "-"]
OUTPUT_OPTIONS = {"--csv", "--out", "--svg", "--html", "--db"}
FILE_NAMES = {"plan_file", "file", "record", "solution_file", "moves_file", "db"}


def is_output(param):
    return isinstance(param, click.Option) and any(o in OUTPUT_OPTIONS for o in param.opts)


def is_file(param):
    return isinstance(param.type, click.Path) or param.name in FILE_NAMES or is_output(param)


GOOD_STRINGS = {                 # plausible values by option name (the rest get junk only)
    "seeds": ["1-3", "5", "007", "1,4"], "deal": [None], "position": [
        "Gl+Gm+Gs1r2Rl/4Rm1/4gRs/2Ys3/g1YmBs2/Yl3rBl+Bm r",
        "Bl+Bm+Bs4Yl+Ym+Ys/6/2gr2/2rg2/6/Rl+Rm+Rs4Gl+Gm+Gs r"],
    "option_pairs": ["max_moves=5", "round=1", "policies=greedy,random", "samples=2"],
    "stash": ["red:M orange:SL"], "goals": ["orange/red/yellow lime/green/teal cyan/blue/purple"],
    "direction": ["cw", "ccw"], "target": ["value<=6"], "moves": ["pass pass", "1"],
    "row": ["yL | bL bM bS | yM yS || rL rM rS | gL gM gS"], "game": ["pyramid", "boundary", "spectrum"],
    "analysis": ["thoughtful", "playout", "blind:greedy", "deal"], "variant": ["continuous", "default"],
    "cards": ["As", "2s", "3s", "4s", "Kh", "Kd", "X"], "filter": ["won", "lost"], "hand": ["As 2s 3s 4s"],
    "move": ["1"], "cluster": ["tcp://127.0.0.1:1"],
}


def good_values(param, root):
    """Values a user would plausibly give, so that a run gets past parsing."""
    t = param.type
    inp, out = os.path.join(root, "in"), os.path.join(root, "out")
    if is_output(param):
        return [os.path.join(out, n) for n in OUTPUT_FILES[:5]]
    if is_file(param):
        return [os.path.join(inp, n) for n in INPUT_FILES[:15]]
    if isinstance(t, click.Choice):
        return list(t.choices)
    if isinstance(t, (click.types.IntParamType, click.IntRange)):
        return NUMBERS_OK
    if isinstance(t, (click.types.FloatParamType, click.FloatRange)):
        return FLOATS_OK
    if type(t).__name__ == "SeedType":
        return SEEDS[:4]
    values = GOOD_STRINGS.get(param.name)
    if values == [None]:                # the deal: 144 tokens
        return [open(os.path.join(inp, "deal.txt")).read().strip()]
    return values or JUNK


def bad_values(param, root):
    t = param.type
    inp, out = os.path.join(root, "in"), os.path.join(root, "out")
    if is_output(param):
        return [os.path.join(out, n) for n in OUTPUT_FILES[4:]] + [os.path.join(inp, n) for n in INPUT_FILES]
    if is_file(param):
        return [os.path.join(inp, n) for n in INPUT_FILES[15:]] + [os.path.join(inp, n) for n in INPUT_FILES[:9]] \
            + ["-", ""]
    if isinstance(t, click.Choice):
        return ["nope", "", "CONTINUOUS", "ÿ"]
    if isinstance(t, (click.types.IntParamType, click.IntRange, click.types.FloatParamType, click.FloatRange)):
        return NUMBERS_BAD
    if type(t).__name__ == "SeedType":
        return SEEDS[4:]
    return JUNK + SEEDS


def value_strategy(param, root):
    """Mostly plausible values, a malformed one a third of the time."""
    good, bad = good_values(param, root), bad_values(param, root)
    return st.one_of(st.sampled_from(good), st.sampled_from(good), st.sampled_from(bad),
                     st.text(max_size=30).filter(lambda s: "\x00" not in s) if param.type is click.STRING
                     else st.sampled_from(bad))


@st.composite
def argv(draw, prefix, cmd, root):
    """One argument list for ``cmd``: a random subset of its options and arguments."""
    args = list(prefix)
    for param in cmd.params:
        if getattr(param, "hidden", False) or param.name in ("help", "version"):
            continue
        if not draw(st.booleans()) and not (param.required and draw(st.integers(0, 4)) > 0):
            continue
        if isinstance(param, click.Argument):
            n = param.nargs if param.nargs > 0 else draw(st.integers(1, 3))
            args += [draw(value_strategy(param, root)) for _ in range(n)]
            continue
        opt = draw(st.sampled_from([o for o in param.opts if o.startswith("--")] or param.opts))
        if param.is_flag:
            flags = [o for o in param.opts + param.secondary_opts if o.startswith("--")]
            args.append(draw(st.sampled_from(flags or [opt])))
            continue
        for _ in range(draw(st.integers(1, 2)) if param.multiple else 1):
            args += [opt, draw(value_strategy(param, root))]
    extra = draw(st.sampled_from([None, None, None, "--bogus", "stray", "--json", "-"]))
    if extra:
        args.insert(draw(st.integers(len(prefix), len(args))), extra)
    return args


# -- the contract -------------------------------------------------------------------
def reads_and_writes(cmd, args, cwd):
    """The paths this argument list names as inputs and as outputs (run from ``cwd``)."""
    by_opt = {o: p for p in cmd.params for o in p.opts + p.secondary_opts}
    reads, writes = set(), set()
    i = 0
    while i < len(args):
        a, p = args[i], by_opt.get(args[i])
        if p is not None and not p.is_flag and i + 1 < len(args):
            if is_output(p):
                writes.add(os.path.normpath(os.path.join(cwd, args[i + 1])))
            elif is_file(p):
                reads.add(os.path.normpath(os.path.join(cwd, args[i + 1])))
            i += 2
            continue
        if os.path.isabs(a):
            reads.add(a)                 # a positional path: read
        i += 1
    return reads, writes


def invoke(args, cwd):
    """Run ``solve ARGS`` in a forked child (everything is imported already, so a fork
    costs milliseconds); a child that outlasts the budget is killed, so a long but
    valid computation in a compiled loop cannot hold the sweep.  None if killed."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:                                   # the child: run, report, never return
        try:
            os.close(read_end)
            os.chdir(cwd)
            r = CliRunner().invoke(solve, args)
            exc = r.exception
            exc = None if exc is None or isinstance(exc, SystemExit) else repr(exc)
            with os.fdopen(write_end, "wb") as fh:
                pickle.dump((r.exit_code, r.stdout, r.stderr, exc), fh)
        finally:
            os._exit(0)
    os.close(write_end)
    data, end = b"", time.monotonic() + BUDGET_SECONDS
    with os.fdopen(read_end, "rb") as fh:
        while True:
            left = end - time.monotonic()
            if left <= 0 or not select.select([fh], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return None
            chunk = os.read(fh.fileno(), 1 << 16)
            if not chunk:
                break
            data += chunk
    os.waitpid(pid, 0)
    if not data:
        return Outcome(-1, "", "the child died without an answer", None)
    return Outcome(*pickle.loads(data))


class Outcome:
    def __init__(self, exit_code, stdout, stderr, exception):
        self.exit_code, self.stdout, self.stderr, self.exception = exit_code, stdout, stderr, exception


def check_contract(cmd, args, root):
    inp = os.path.join(root, "in")
    before = snapshot(root)
    saved = {p: open(p, "rb").read() for p in before}
    result = invoke(args, os.path.join(root, "out"))
    after = snapshot(root)
    try:
        if result is None:
            SLOW.append(args)
            reject()
        TRIED.add(tuple(args))
        shown = " ".join(a if len(a) < 60 else a[:60] + "..." for a in args)
        err, out = result.stderr, result.stdout
        assert result.exception is None, f"{shown}: raised {result.exception}"
        if result.exit_code == 130:          # a prompt that read the end of input: interrupted
            assert err.strip() == "solve: interrupted", f"{shown}: exit 130: {err[-300:]}"
        else:
            assert result.exit_code in (0, 1, 2), f"{shown}: exit {result.exit_code}: {err[-300:]}"
        assert "Traceback" not in err + out, f"{shown}: traceback: {err[-500:]}"
        assert "internal error" not in err, f"{shown}: {err[-300:]}"
        if result.exit_code == 2:
            lines = err.splitlines()
            assert len(lines) == 1 and lines[0].startswith("solve: error: "), f"{shown}: stderr {err[:500]!r}"
            assert len(lines[0]) <= MAX_ERROR_LINE, f"{shown}: error line of {len(lines[0])} characters"
        reads, writes = reads_and_writes(cmd, args, os.path.join(root, "out"))
        for path, digest in before.items():
            if after.get(path) == digest:
                continue
            base = path[:-4] if path.endswith(("-wal", "-shm")) else path
            batch_db = base.endswith("results.sqlite") and "batch" in args and (
                base in writes or "--db" not in args and not base.startswith(inp))   # --db or its default
            allowed = base in writes and base not in reads and not saved[path].startswith(b"SQLite format 3") \
                or batch_db or not base.startswith(inp) and base not in reads and base not in writes \
                and "--db" not in args and "batch" in args
            assert allowed, f"{shown}: changed {path}, which it only reads"
        for path in after:
            assert not os.path.basename(path).endswith(".tmp"), f"{shown}: left {path} behind"
    finally:
        for path, data in saved.items():            # restore the inputs for the next example
            if after.get(path) != before[path]:
                with open(path, "wb") as fh:
                    fh.write(data)
        for path in set(after) - set(before):
            if path.startswith(inp):
                os.remove(path)


def fuzz(files, prefix, cmd, examples, derandomize):
    @settings(max_examples=examples, deadline=None, database=None, derandomize=derandomize,
              suppress_health_check=list(HealthCheck))
    @given(args=argv(prefix, cmd, str(files)))
    def run(args):
        check_contract(cmd, args, str(files))
    run()


IDS = [" ".join(p) for p, _ in COMMANDS]


@pytest.mark.parametrize("prefix, cmd", COMMANDS, ids=IDS)
def test_fuzz_command(files, prefix, cmd):
    fuzz(files, prefix, cmd, DEFAULT_EXAMPLES, derandomize=True)


@pytest.mark.slow
@pytest.mark.parametrize("prefix, cmd", COMMANDS, ids=IDS)
def test_fuzz_command_sweep(files, prefix, cmd):
    fuzz(files, prefix, cmd, SLOW_EXAMPLES, derandomize=False)


@pytest.fixture(scope="module", autouse=True)
def report():
    """How many distinct argument lists the fuzzer tried (printed at the end of the module)."""
    yield
    if TRIED:
        print(f"\ncli fuzz: {len(TRIED)} distinct inputs over {len(COMMANDS)} commands, "
              f"{len(SLOW)} stopped by the {BUDGET_SECONDS} s budget", file=sys.__stderr__)


def test_every_command_is_fuzzed():
    assert len(COMMANDS) >= 30 and ("export",) in [p for p, _ in COMMANDS]
