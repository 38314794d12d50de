"""A SAT question asked in a child process, under the operating system's CPU limit.

Kissat (through PySAT) is the faster solver on the hardest questions the SAT
stage meets (Wild Dragons 559633, no line of 23 moves: 473-533 s of CPU against
714-778 s for CaDiCaL's cubes; Continuous 764002 at 24: 87-96 s against 134-157 s),
but PySAT can neither interrupt it nor read its conflicts, so it cannot be held
to a deal's time limit in rounds as CaDiCaL is (:func:`solver.pyramid.sat.reach`).
Here it runs in a child process with ``RLIMIT_CPU`` set to the seconds left:
the kernel stops it at the limit, and the answer is then ``unknown``.  The clauses
are :class:`solver.pyramid.sat.Encoding`'s defaults, so an ``unsat`` answer means
what :func:`~solver.pyramid.sat.reach`'s does (no line places ``K`` tiles), and
a ``sat`` line is replayed by the reference rules in the parent before it is used.

The child reads ``{"kinds", "k", "variant", "solver"}`` as JSON on its standard
input and writes ``{"status", "line"}``; ``python -m solver.pyramid.satchild``.
The CPU seconds it used (building the clauses included) are read from the
parent's ``RUSAGE_CHILDREN`` and counted in :func:`cpu_now`, the clock the SAT
stage keeps to a deal's limit with.
"""
from __future__ import annotations

import json
import math
import resource
import subprocess
import sys
import time
from typing import Optional

from solver.pyramid.deal import Deal

CHILD_SOLVER = "kissat404"
"""The solver :func:`ask` runs (a PySAT name)."""


def children_cpu() -> float:
    """CPU seconds (user and system) of this process's children that have ended."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def cpu_now() -> float:
    """This thread's CPU seconds plus those of the children it waited for: the
    clock of a SAT stage whose questions may run in a child."""
    return time.thread_time() + children_cpu()


PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal a process gets when the thread that made it ends."""


def _child_setup(seconds: Optional[float]):
    """A ``preexec_fn`` for the child: killed when its parent ends (a batch
    worker killed, even by ``kill -9``, leaves no solver running on), and its
    CPU limit (SIGXCPU at ``seconds``, SIGKILL a second later; None: none)."""
    import ctypes
    import os
    import signal

    parent = os.getpid()
    soft = None if seconds is None else max(1, math.ceil(seconds))

    def setup() -> None:
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:          # the parent died before the line above
            os._exit(1)
        if soft is not None:
            resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 1))
    return setup


def ask(deal: Deal, k: int, *, variant: str, time_limit: Optional[float] = None,
        solver: str = CHILD_SOLVER):
    """Is there a legal line of ``k`` moves?  :func:`solver.pyramid.sat.reach`'s
    question, asked of ``solver`` in a child process stopped after ``time_limit``
    CPU seconds (None: no limit).  Returns a :class:`~solver.pyramid.sat.Reach`
    (``conflicts`` 0: Kissat does not report them; ``variables`` and ``clauses``
    0: the clauses are the child's)."""
    from solver.pyramid.sat import Reach, replayed_line
    from solver.pyramid.search import deal_kinds

    before = children_cpu()
    question = json.dumps({"kinds": deal_kinds(deal), "k": k, "variant": variant, "solver": solver})
    done = subprocess.run([sys.executable, "-m", "solver.pyramid.satchild"], input=question,
                          capture_output=True, text=True, preexec_fn=_child_setup(time_limit))
    out = Reach("unknown", k, cpu_seconds=children_cpu() - before)
    if done.returncode == 0:
        answer = json.loads(done.stdout)
        out.status = answer["status"]
        if out.status == "sat":
            out.line = replayed_line(deal, variant, [tuple(m) for m in answer["line"]])
    elif done.returncode > 0:             # not a signal of the CPU limit: the child failed
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise RuntimeError(f"the SAT child failed ({done.returncode}): {last}")
    return out


def main() -> None:
    """The child: one question from standard input, its answer to standard output."""
    from pysat.solvers import Solver

    from solver.pyramid.sat import Encoding

    q = json.load(sys.stdin)
    enc = Encoding(q["kinds"], q["k"], variant=q["variant"])
    with Solver(name=q["solver"], bootstrap_with=enc.clauses) as s:
        answer = s.solve()
        line = enc.line(s.get_model()) if answer else []
    json.dump({"status": "sat" if answer else "unsat", "line": line}, sys.stdout)


if __name__ == "__main__":
    main()
