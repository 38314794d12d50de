"""The batch runner, written once for every game.

A game plugs in through the registry (:mod:`solver.games`): each of its
analyses answers one seed with a Result or an Outcome.  The runner splits the seeds not yet stored into chunks, hands
them out dynamically (a slow deal stalls one chunk, never the others) to
worker processes or a Dask cluster, and streams the compact replies into one
SQLite writer that commits in batches.  Rerunning the same command resumes.
"""
from __future__ import annotations

import math
import os
import queue
import signal
import sys
import time
from collections import deque
from dataclasses import asdict, dataclass, field
from operator import itemgetter
from typing import Dict, List, Optional, Sequence

from solver.chunk import Spec, decode_chunk, run_chunk
from solver.errors import InputError
from solver.seeds import Range, chunks, count, subtract
from solver.store import ResultStore


# -- the question ---------------------------------------------------------------
def make_spec(*, game: str, analysis: str, variant: Optional[str] = None,
              node_limit: Optional[int] = None, time_limit: Optional[float] = None,
              table_mb: Optional[float] = None, options: Optional[Dict[str, object]] = None,
              first_pass: bool = True) -> Spec:
    """Check a batch's parameters in the main process, before any work starts.

    The options are checked against the analysis's declared types; an analysis
    whose answer does not depend on the seed is refused (it would store the same
    row for every seed).  Limits are checked (finite, positive) and apply to
    every game's searches alike.  On a ``first_pass`` (not a retry of the
    unknown seeds) a limit not given is the analysis's ``batch_limits`` where it
    declares one; otherwise the analysis's default (filled in later).
    """
    from solver.game import Limits
    from solver.games import get_analysis, make_game, variant_name
    from solver.options import check_values, key_suffix
    spec = get_analysis(game, analysis)
    if not spec.seeded:
        raise InputError(f"{game} analysis {analysis!r} does not depend on the seed: "
                         f"ask it once (e.g. `solve {game} {analysis}`), not over a seed range")
    values = check_values(dict(options or {}), spec.options)
    make_game(game, variant=variant, players=values.get("players"))       # checks variant and seats
    limits = Limits(node_limit, time_limit, table_mb)
    if first_pass:
        limits = limits.or_defaults(**spec.batch_limits.to_dict())
    suffix = key_suffix(values, spec.options)
    given = {k: tuple(v) if isinstance(v, list) else v for k, v in (options or {}).items()}
    return Spec(game, analysis, variant_name(game, variant), f"{analysis} {suffix}" if suffix else analysis,
                tuple(sorted((k, given[k]) for k in given)),
                tuple((k, v) for k, v in limits.to_dict().items() if v is not None))


# -- answers as rows ------------------------------------------------------------
def answer_row(game: str, analysis: str, seed: int, *, variant=None, limits=None, options=None) -> dict:
    """One seed's answer as the JSON row every command prints (docs/json.md):
    the context (game, variant, analysis, seed) then the Result or Outcome."""
    from solver.games import get_game, run_analysis
    res = run_analysis(game, analysis, seed, variant=variant, limits=limits, options=options)
    row = {"game": game, "variant": variant or get_game(game).default_variant,   # null: no variants
           "analysis": analysis, "seed": seed}
    row.update(res.to_dict())
    return row


def seed_run(game: str, analysis: str, first: int, count: int, *, variant=None, limits=None,
             options=None, progress: Optional[bool] = None) -> List[dict]:
    """Rows for seeds ``first .. first+count-1`` in this process (the CLI's
    ``play --games N``); a bar on stderr when it is a terminal."""
    bar = _progress_bar(count, progress) if count > 1 else None
    rows = []
    for i in range(count):
        rows.append(answer_row(game, analysis, (first + i) & 0xFFFFFFFFFFFFFFFF, variant=variant,
                               limits=limits, options=options))
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    return rows


# -- executors: submit chunks, get replies as they complete -----------------------
class InlineExecutor:
    """One worker: the main process itself (no pickling, no start-up)."""

    def __init__(self, spec: Spec) -> None:
        self.spec, self.todo = spec, deque()
        self.capacity = 1

    def submit(self, seeds: List[int]) -> None:
        self.todo.append(seeds)

    def next_result(self, timeout: float):
        return self.spec.rows(self.todo.popleft())      # in process: no bytes to pack and unpack

    def close(self, *, abort: bool = False) -> None:
        self.todo.clear()


PARENT_POLL_SECONDS = 0.5


def _worker_init(parent: int) -> None:
    """A worker process's set-up: Ctrl-C is the parent's business, and the
    worker ends itself within a second when the parent is gone (killed by any
    signal, even ``kill -9``, which runs no clean-up in the parent)."""
    import threading
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent,), name="watch-parent", daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(3)          # orphaned: the runner that would store this chunk is gone


class PoolExecutor:
    """Worker processes; each gets a new chunk as soon as it hands one back.

    A worker that dies (killed, out of memory) breaks the pool and the run
    stops with the error instead of waiting forever for its chunk.
    """

    def __init__(self, spec: Spec, workers: int) -> None:
        from concurrent.futures import ProcessPoolExecutor
        self.spec = spec
        self.pool = ProcessPoolExecutor(workers, initializer=_worker_init, initargs=(os.getpid(),))
        self.replies: "queue.Queue" = queue.Queue()
        self.capacity = 2 * workers

    def submit(self, seeds: List[int]) -> None:
        self.pool.submit(run_chunk, self.spec, seeds).add_done_callback(self.replies.put)

    def next_result(self, timeout: float) -> Optional[bytes]:
        try:
            future = self.replies.get(timeout=timeout)
        except queue.Empty:
            return None
        return future.result()          # the worker's exception, if it raised one

    def close(self, *, abort: bool = False) -> None:
        if abort:   # do not wait for chunks in progress: they are not stored and will rerun
            for proc in list((getattr(self.pool, "_processes", None) or {}).values()):
                proc.terminate()
        self.pool.shutdown(wait=True, cancel_futures=abort)


# -- the runner ------------------------------------------------------------------
@dataclass
class BatchSummary:
    game: str
    variant: str
    analysis: str
    requested: int = 0
    skipped: int = 0            # already stored before this run
    done: int = 0               # stored by this run
    verdicts: Dict[str, int] = field(default_factory=dict)
    wall_seconds: float = 0.0
    solve_seconds: float = 0.0  # the sum of the per-seed times the analyses report
    interrupted: bool = False

    def to_dict(self) -> dict:
        return asdict(self)


MAX_CHUNK = 100_000
"""A chunk's seeds are one list in memory, and a chunk is the unit of work lost to a kill."""


def max_workers() -> int:
    """More worker processes than 4 per core only cost memory (each has its own tables)."""
    return 4 * (os.cpu_count() or 1)


def default_chunk_size(todo: int, workers: int) -> int:
    """Small enough to balance (about 16 chunks per worker), at most 64 seeds."""
    return max(1, min(64, todo // max(1, 16 * workers)))


def run_batch(*, db: str, game: str, analysis: str, ranges: Sequence[Range],
              variant: Optional[str] = None, workers: Optional[int] = None,
              chunk_size: Optional[int] = None, node_limit: Optional[int] = None,
              time_limit: Optional[float] = None, table_mb: Optional[float] = None,
              options: Optional[dict] = None,
              cluster: Optional[str] = None, progress: Optional[bool] = None,
              retry_unknown: bool = False, commit_rows: int = 5000,
              commit_seconds: float = 2.0) -> BatchSummary:
    """Analyse every seed of ``ranges`` not yet in ``db``; return a summary.

    Ctrl-C (KeyboardInterrupt) stops the run: what is done is committed and the
    summary says ``interrupted``.  ``progress`` None means: a bar if stderr is a TTY.
    ``retry_unknown`` runs the seeds stored as ``unknown`` again (with new limits).
    """
    spec = make_spec(game=game, analysis=analysis, variant=variant, node_limit=node_limit,
                     time_limit=time_limit, table_mb=table_mb, options=options, first_pass=not retry_unknown)
    workers = workers or os.cpu_count() or 1
    if workers < 1:
        raise InputError("--workers must be at least 1")
    if workers > max_workers():
        raise InputError(f"--workers {workers} is more than {max_workers()} (4 per core of this machine)")
    if chunk_size is not None and not 1 <= chunk_size <= MAX_CHUNK:
        raise InputError(f"--chunk-size must be between 1 and {MAX_CHUNK:,}")
    t0 = time.perf_counter()
    summary = BatchSummary(game, spec.variant, spec.key, requested=count(ranges))
    remote = None
    if cluster:                  # an unreachable cluster fails before the database is touched
        from solver.distributed import DaskExecutor
        remote = DaskExecutor(spec, cluster)
    try:
        return _run(summary, spec, db, ranges, remote, workers, chunk_size, progress, retry_unknown,
                    commit_rows, commit_seconds, t0)
    finally:
        if remote is not None:
            remote.close(abort=True)


def _run(summary, spec, db, ranges, remote, workers, chunk_size, progress, retry_unknown,
         commit_rows, commit_seconds, t0) -> BatchSummary:
    game = spec.game
    with ResultStore(db, create=True) as store:
        missing = subtract(list(ranges), store.stored_seeds(game, spec.variant, spec.key, ranges,
                                                            decided_only=retry_unknown))
        todo = count(missing)
        summary.skipped = summary.requested - todo
        if todo == 0:
            summary.wall_seconds = time.perf_counter() - t0
            return summary
        size = chunk_size or default_chunk_size(todo, workers)
        if remote is not None:
            executor = remote
        elif workers == 1:
            executor = InlineExecutor(spec)
        else:
            executor = PoolExecutor(spec, min(workers, -(-todo // size)))
        bar = _progress_bar(todo, progress)
        pending, last_commit, in_flight = 0, time.monotonic(), 0
        feed = chunks(missing, size=size)
        aborted = True
        try:
            for seeds in feed:
                executor.submit(seeds)
                in_flight += 1
                if in_flight >= executor.capacity:
                    break
            while in_flight:
                blob = executor.next_result(0.25)
                if blob is None:
                    continue
                in_flight -= 1
                nxt = next(feed, None)
                if nxt is not None:
                    executor.submit(nxt)
                    in_flight += 1
                rows = decode_chunk(blob)
                store.add_values(game, spec.variant, spec.key, rows)
                pending += len(rows)
                _tally(summary, rows)
                if bar is not None:
                    bar.update(len(rows))
                    if "won" in summary.verdicts:
                        won = summary.verdicts["won"]
                        bar.set_postfix_str(f"won {won / summary.done:.1%}", refresh=False)
                if pending >= commit_rows or time.monotonic() - last_commit >= commit_seconds:
                    store.commit()
                    pending, last_commit = 0, time.monotonic()
            aborted = False
        except KeyboardInterrupt:
            summary.interrupted = True
        finally:
            store.commit()
            executor.close(abort=aborted)
            if bar is not None:
                bar.close()
            summary.wall_seconds = time.perf_counter() - t0
    return summary


def _tally(summary: BatchSummary, rows: List[list]) -> None:
    """Count a chunk's rows (seed, verdict, limit, nodes, seconds, fields) by verdict."""
    verdicts = summary.verdicts
    for verdict in map(itemgetter(1), rows):
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
    summary.solve_seconds += math.fsum(map(itemgetter(4), rows))
    summary.done += len(rows)


def _progress_bar(total: int, progress: Optional[bool]):
    """tqdm on stderr, off unless stderr is a terminal (or ``progress`` forces it)."""
    if progress is None:
        progress = sys.stderr.isatty()
    if not progress:
        return None
    from tqdm import tqdm
    return tqdm(total=total, unit="seed", file=sys.stderr, dynamic_ncols=True, smoothing=0.05)

