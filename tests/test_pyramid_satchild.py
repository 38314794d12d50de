"""The SAT question in a child process (sat.ask_in_child, solver/pyramid/satchild.py): Kissat's answers
against CaDiCaL's in this process, the operating system's CPU limit, a failing child,
and the deep stage that uses it proving and winning real deals."""
import pytest

from solver.pyramid.check import check_solution
from solver.pyramid.deal import deal_from_seed
from solver.pyramid.search import SolveResult
from solver.pyramid.tail import after_tail

pytest.importorskip("pysat")
from solver.pyramid.sat import ask_in_child as ask, reach  # noqa: E402
from solver.pyramid.satchild import cpu_now  # noqa: E402


@pytest.mark.parametrize("variant, seed, ks", [
    ("continuous", 324, (13, 14, 15, 16)),       # longest line 14
    ("wild-dragons", 200, (16, 17, 18)),         # longest line 17
    ("wild-dragons", 3, (14, 15)),               # longest line 14
    ("continuous", 1, (12, 20)),                 # won
    ("wild-dragons", 4, (12, 20)),               # won
])
def test_the_child_answers_as_cadical_does(variant, seed, ks):
    """Both solvers on the same clauses agree, sat and unsat; a sat line is the deal's
    (named and replayed by the reference rules: it has the k moves asked for)."""
    deal = deal_from_seed(seed)
    for k in ks:
        child, here = ask(deal, k, variant=variant, time_limit=60), reach(deal, k, variant=variant)
        assert child.status == here.status != "unknown", (seed, k)
        assert len(child.line) == (k if child.status == "sat" else 0)
        assert child.cpu_seconds > 0


def test_the_child_stops_at_its_cpu_limit_and_the_clock_counts_it():
    """A question Kissat needs a minute for (Wild Dragons 709556 at 25 moves) is stopped
    by the operating system at the limit: unknown, and the CPU seconds it used are on
    the clock the SAT stage keeps (cpu_now)."""
    before = cpu_now()
    r = ask(deal_from_seed(709556), 25, variant="wild-dragons", time_limit=2)
    assert r.status == "unknown" and r.line == []
    assert 1.5 < r.cpu_seconds < 4.5
    assert cpu_now() - before >= r.cpu_seconds


def test_a_failing_child_is_an_error_not_an_answer():
    with pytest.raises(RuntimeError, match="SAT child failed"):
        ask(deal_from_seed(324), 14, variant="continuous", time_limit=10, solver="no-such-solver")


def test_the_deep_stage_proves_and_wins_in_a_child():
    """The stage with its questions in the child: Continuous 324 told 13 is lost (no line
    of 15, Kissat's word), seed 1 told 10 is won from the solver's 11 moves (replayed)."""
    r = after_tail(deal_from_seed(324), SolveResult("unknown", "continuous", deepest=13, limit="time", seed=324),
                   variant="continuous", time_limit=30, conflict_limit=None, in_child=True)
    assert (r.verdict, r.limit, r.sat_k) == ("lost", None, 15) and "Kissat" in r.sat
    assert r.cpu_seconds > 0
    deal = deal_from_seed(1)
    r = after_tail(deal, SolveResult("unknown", "continuous", deepest=10, limit="time", seed=1),
                   variant="continuous", time_limit=30, conflict_limit=None, in_child=True)
    assert r.verdict == "won" and "first 11 moves" in r.sat
    assert check_solution(deal, r.line, variant="continuous").valid


def test_the_child_ends_when_its_parent_is_killed(tmp_path):
    """A batch worker killed by ``kill -9`` leaves no solver running: the child dies
    with its parent (PR_SET_PDEATHSIG), not at its CPU limit minutes later."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from solver.pyramid.satchild import _package_root

    script = (f"import sys; sys.path.insert(0, {_package_root()!r}); "     # this process's package
              "from solver.pyramid.sat import ask_in_child; from solver.pyramid.deal import deal_from_seed; "
              "ask_in_child(deal_from_seed(709556), 25, variant='wild-dragons', time_limit=120)")
    parent = subprocess.Popen([sys.executable, "-c", script], cwd=tmp_path)
    children = f"/proc/{parent.pid}/task/{parent.pid}/children"
    deadline = time.monotonic() + 30
    child = None
    while child is None and time.monotonic() < deadline:
        time.sleep(0.1)
        pids = open(children).read().split() if os.path.exists(children) else []
        child = int(pids[0]) if pids else None
    assert child is not None, "no child started"
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 5
    while os.path.exists(f"/proc/{child}") and time.monotonic() < deadline:
        try:                            # reaped by init once dead; a zombie counts as ended
            if open(f"/proc/{child}/stat").read().split(")")[1].split()[0] == "Z":
                break
        except FileNotFoundError:
            break
        time.sleep(0.05)
    else:
        if os.path.exists(f"/proc/{child}"):
            os.kill(child, signal.SIGKILL)
            pytest.fail("the child outlived its parent")


def test_the_child_imports_the_parents_package_whatever_its_folder(tmp_path, monkeypatch):
    """From a folder whose own ``solver/`` is not the package this process runs (as CI
    runs the installed package from the source tree, whose solver/ has no compiled
    kernels), the child still imports the parent's package."""
    (tmp_path / "solver").mkdir()
    (tmp_path / "solver" / "__init__.py").write_text("raise ImportError('the wrong solver package')\n")
    monkeypatch.chdir(tmp_path)
    assert ask(deal_from_seed(324), 15, variant="continuous", time_limit=30).status == "unsat"
