"""Run a batch on an existing Dask distributed cluster (optional extra ``[distributed]``).

Each task is one chunk of seeds and returns the same compact bytes as a local
worker (:func:`solver.chunk.run_chunk`).  The scheduler re-runs the tasks of a
worker that is lost (``distributed.scheduler.allowed-failures``), and
``retries`` re-runs a task that raised; a result that arrives twice is
harmless because the store ignores a repeated key.  Results stream back
through ``as_completed`` into the one SQLite writer.
"""
from __future__ import annotations

from typing import List, Optional

from solver.chunk import run_chunk
from solver.errors import InputError

RETRIES = 3
CONNECT_TIMEOUT = "10s"


class DaskExecutor:
    """The runner's executor interface over a ``distributed.Client``."""

    def __init__(self, spec, address: str, *, retries: int = RETRIES) -> None:
        try:
            from distributed import Client, as_completed
        except ImportError:
            raise InputError("--cluster needs Dask: pip install '.[distributed]'") from None
        try:
            self.client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise InputError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        self.spec, self.retries = spec, retries
        self.done = as_completed([], loop=self.client.loop, with_results=False)
        threads = sum(self.client.nthreads().values()) or 1
        self.capacity = 4 * threads        # tasks in flight: enough to keep every thread busy

    def submit(self, seeds: List[int]) -> None:
        future = self.client.submit(run_chunk, self.spec, seeds, pure=False, retries=self.retries)
        self.done.add(future)

    def next_result(self, timeout: float) -> Optional[bytes]:
        future = next(self.done)   # blocks until one completes
        try:
            return future.result()
        except (ModuleNotFoundError, RuntimeError) as exc:
            if isinstance(exc, ModuleNotFoundError) or "deserializ" in str(exc):
                raise InputError("the Dask scheduler or a worker cannot import this package: "
                                 "install it (pip install '.[distributed]') on every machine") from None
            raise

    def close(self, *, abort: bool = False) -> None:
        try:
            if abort:
                self.client.cancel(list(getattr(self.done, "futures", ())))
        finally:
            self.client.close()
