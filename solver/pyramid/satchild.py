"""A question asked of a function in a child process, under the operating system's CPU limit.

Kissat (through PySAT) is the faster solver on the hardest questions the SAT
stage meets (Wild Dragons 559633, no line of 23 moves: 473-533 s of CPU against
714-778 s for CaDiCaL's cubes; Continuous 764002 at 24: 87-96 s against 134-157 s),
but PySAT can neither interrupt it nor read its conflicts, so it cannot be held
to a deal's time limit in rounds as CaDiCaL is (:func:`solver.pyramid.sat.reach`).
:func:`run` calls it in a child process with ``RLIMIT_CPU`` set to the seconds
left: the kernel stops it at the limit, and the answer is then none.  The
question and the answer go as JSON through the child's standard input and
output (:func:`solver.pyramid.sat.ask_in_child` is the one user).

The CPU seconds the child used are read from ``RUSAGE_CHILDREN`` and counted in
:func:`cpu_now`, the clock the SAT stage keeps to a deal's limit with.  The child
dies with the thread that started it, so a batch worker killed even by
``kill -9`` leaves no solver running to its limit.
"""
from __future__ import annotations

import json
import math
import os
import resource
import subprocess
import sys
import time
from typing import Optional, Tuple

PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal a process gets when the thread that made it ends."""


def children_cpu() -> float:
    """CPU seconds (user and system) of this process's children that have ended."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def cpu_now() -> float:
    """This thread's CPU seconds plus those of the children it waited for: the
    clock of a SAT stage whose questions may run in a child."""
    return time.thread_time() + children_cpu()


def _child_setup(seconds: Optional[float]):
    """A ``preexec_fn`` for the child: killed when its parent ends, and its CPU
    limit (SIGXCPU at ``seconds``, SIGKILL a second later; None: none)."""
    import ctypes
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


def _package_root() -> str:
    """The folder this ``solver`` package was imported from, so that the child
    imports the same one (with its compiled kernels), whatever its working folder."""
    import solver
    return os.path.dirname(os.path.dirname(os.path.abspath(solver.__file__)))


def run(entry: str, question: dict, *, time_limit: Optional[float] = None) -> Tuple[Optional[dict], float]:
    """Call ``entry`` (``"module:function"``; the function reads ``question`` as
    JSON on its standard input and writes its answer as JSON) in a child process
    stopped after ``time_limit`` CPU seconds (None: no limit).  Returns the answer
    (None when a signal, the CPU limit's, ended the child) and the child's CPU
    seconds.  A child that fails otherwise raises :class:`RuntimeError`."""
    module, function = entry.split(":")
    code = (f"import sys; sys.path.insert(0, {_package_root()!r}); "
            f"from {module} import {function}; {function}()")
    before = children_cpu()
    done = subprocess.run([sys.executable, "-c", code], input=json.dumps(question), capture_output=True,
                          text=True, preexec_fn=_child_setup(time_limit))
    cpu = children_cpu() - before
    if done.returncode > 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise RuntimeError(f"the SAT child failed ({done.returncode}): {last}")
    return (json.loads(done.stdout) if done.returncode == 0 else None), cpu
