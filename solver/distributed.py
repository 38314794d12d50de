"""Run a batch on an existing Dask distributed cluster (optional extra ``[distributed]``).

Each task is one chunk of seeds and returns the same compact bytes as a local
worker (:func:`solver.chunk.run_chunk`).  The scheduler re-runs the tasks of a
worker that is lost (``distributed.scheduler.allowed-failures``), and
``retries`` re-runs a task that raised; a result that arrives twice is
harmless because the store ignores a repeated key.  Results stream back
through ``as_completed`` into the one SQLite writer.

Every failure of the cluster ends the run within seconds with one line (an
InputError, exit status 2) and the rows stored so far kept, so that rerunning
resumes: an address that is not one, a scheduler that cannot be reached or
does not answer within :data:`CONNECT_SECONDS`, a scheduler that goes away
mid-run (:data:`LOST_SECONDS` without it), a worker that cannot import this
package.
"""
from __future__ import annotations

import contextlib
import socket
import threading
import time
from typing import List, Optional

from solver.chunk import run_chunk
from solver.errors import InputError
from solver.files import excerpt

RETRIES = 3
CONNECT_SECONDS = 4.0       # to reach the scheduler and shake hands with it
LOST_SECONDS = 5.0          # without a scheduler mid-run before the run stops
CLOSE_SECONDS = 2.0


def check_address(address: str) -> Optional[tuple]:
    """``tcp://HOST:PORT`` (or another Dask protocol's address), else InputError;
    returns (host, port) for a TCP address."""
    from distributed.comm import parse_address
    from distributed.comm.addressing import parse_host_port
    shown = excerpt(address)
    try:
        scheme, location = parse_address(address, strict=False)
        if scheme in ("tcp", "tls"):
            host, port = parse_host_port(location)
            if not host or not 0 < int(port) < 65536:
                raise ValueError(location)
            return host, int(port)
    except (ValueError, TypeError):
        raise InputError(f"--cluster {shown} is not a scheduler address (e.g. tcp://HOST:8786)") from None
    return None


def probe(address: str, seconds: float) -> None:
    """A plain TCP connection first: a refused port or an unknown host fails at once."""
    where = check_address(address)
    if where is None:
        return
    try:
        socket.create_connection(where, timeout=seconds).close()
    except OSError as exc:
        reason = "no answer" if isinstance(exc, socket.timeout) else (exc.strerror or str(exc))
        raise InputError(f"cannot reach the Dask scheduler at {excerpt(address)}: {reason}") from None


def connect(address: str, *, seconds: Optional[float] = None):
    """A ``distributed.Client`` on ``address``, or InputError within ``seconds``.

    The client is built in a helper thread so that a peer that accepts the
    connection and never answers cannot hold the run; a client that failed
    half-way is marked closed, so its finaliser does not wait on it either."""
    from distributed import Client
    seconds = CONNECT_SECONDS if seconds is None else seconds
    probe(address, seconds)
    client = Client.__new__(Client)
    box: dict = {}

    def start() -> None:
        try:
            client.__init__(address, timeout=f"{seconds}s", set_as_default=False)
            box["ok"] = True
        except BaseException as exc:            # noqa: BLE001 - reported below, in one line
            box["error"] = exc

    thread = threading.Thread(target=start, name="dask-connect", daemon=True)
    thread.start()
    thread.join(seconds + 1.0)
    if box.get("ok"):
        return client
    _abandon(client)
    error = box.get("error")
    reason = f"no answer within {seconds:g} s" if error is None else \
        (str(error).strip().splitlines() or [type(error).__name__])[0]
    raise InputError(f"cannot reach the Dask scheduler at {excerpt(address)}: {reason}")


def _abandon(client) -> None:
    """Close a client without waiting on a scheduler that may never answer."""
    if getattr(client, "_Client__loop", None) is not None and getattr(client, "status", None) == "running":
        with contextlib.suppress(BaseException):
            client.close(timeout=CLOSE_SECONDS)
    with contextlib.suppress(BaseException):
        client.status = "closed"


class DaskExecutor:
    """The runner's executor interface over a ``distributed.Client``."""

    def __init__(self, spec, address: str, *, retries: int = RETRIES) -> None:
        try:
            from distributed import as_completed
        except ImportError:
            raise InputError("--cluster needs Dask: pip install '.[distributed]'") from None
        self.address = address
        self.client = connect(address)
        self.spec, self.retries = spec, retries
        self.done = as_completed([], loop=self.client.loop, with_results=False)
        try:
            threads = sum(self.client.nthreads().values()) or 1
        except Exception as exc:                # the scheduler went away already
            self.close(abort=True)
            raise InputError(f"the Dask scheduler at {excerpt(address)} stopped answering: {exc}") from None
        self.capacity = 4 * threads        # tasks in flight: enough to keep every thread busy
        self.lost_since: Optional[float] = None

    def submit(self, seeds: List[int]) -> None:
        self._check_scheduler()
        future = self.client.submit(run_chunk, self.spec, seeds, pure=False, retries=self.retries)
        self.done.add(future)

    def next_result(self, timeout: float) -> Optional[bytes]:
        """The next finished chunk, or None after ``timeout`` seconds without one."""
        end = time.monotonic() + timeout
        while not self.done.has_ready():
            self._check_scheduler()
            if time.monotonic() >= end:
                return None
            time.sleep(0.02)
        future = next(self.done)
        try:
            return future.result()
        except (ModuleNotFoundError, ImportError, RuntimeError) as exc:
            if isinstance(exc, ImportError) or "deserializ" in str(exc):
                raise InputError("the Dask scheduler or a worker cannot import this package: "
                                 "install it (pip install '.[distributed]') on every machine; "
                                 "the results stored so far are kept") from None
            raise
        except Exception as exc:
            if type(exc).__name__ in ("CancelledError", "FutureCancelledError", "CommClosedError",
                                      "KilledWorker"):
                raise InputError(f"the Dask cluster at {excerpt(self.address)} lost the task "
                                 f"({type(exc).__name__}); the results stored so far are kept: "
                                 "rerun to resume") from None
            raise

    def _check_scheduler(self) -> None:
        """A scheduler gone, or a cluster without a worker, for :data:`LOST_SECONDS`
        ends the run (rows kept)."""
        status = self.client.status
        workers = self._workers() if status == "running" else 0
        if status == "running" and workers:
            self.lost_since = None
            return
        now = time.monotonic()
        if self.lost_since is None:
            self.lost_since = now
        if status in ("closed", "closing", "failed") or now - self.lost_since > LOST_SECONDS:
            what = "has no worker left (a worker that cannot import this package ends: install it " \
                "with pip install '.[distributed]' on every machine)" if status == "running" else "went away"
            raise InputError(f"the Dask scheduler at {excerpt(self.address)} {what}; the results "
                             "stored so far are kept: rerun to resume")

    def _workers(self) -> int:
        try:
            return len(self.client.scheduler_info().get("workers", {}))
        except Exception:               # noqa: BLE001 - no answer counts as no worker
            return 0

    def close(self, *, abort: bool = False) -> None:
        try:
            if abort and self.client.status == "running":
                with contextlib.suppress(Exception):
                    self.client.cancel(list(getattr(self.done, "futures", ())))
        finally:
            _abandon(self.client)
