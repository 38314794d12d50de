"""The same batch on a Dask LocalCluster gives the same rows as local workers."""
import sqlite3

import pytest

from solver.batch import run_batch
from solver.errors import InputError
from solver.seeds import parse_ranges

distributed = pytest.importorskip("distributed")


def rows(path):
    con = sqlite3.connect(path)
    out = con.execute("SELECT seed, verdict, nodes FROM results ORDER BY seed").fetchall()
    con.close()
    return out


def test_cluster_batch_matches_local(tmp_path):
    local, remote = str(tmp_path / "local.sqlite"), str(tmp_path / "dask.sqlite")
    ranges = parse_ranges("1-40")
    run_batch(db=local, game="pyramid", analysis="blind:greedy", ranges=ranges, workers=1, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        s = run_batch(db=remote, game="pyramid", analysis="blind:greedy", ranges=parse_ranges("1-25"),
                      cluster=cluster.scheduler_address, chunk_size=3, progress=False)
        assert s.done == 25
        s = run_batch(db=remote, game="pyramid", analysis="blind:greedy", ranges=ranges,
                      cluster=cluster.scheduler_address, chunk_size=4, progress=False)
        assert (s.skipped, s.done) == (25, 15)
    assert rows(remote) == rows(local)


def test_unreachable_scheduler_is_an_input_error(tmp_path, monkeypatch):
    import solver.distributed
    monkeypatch.setattr(solver.distributed, "CONNECT_SECONDS", 1.0)
    with pytest.raises(InputError, match="cannot reach"):
        run_batch(db=str(tmp_path / "r.sqlite"), game="pyramid", analysis="blind:greedy",
                  ranges=[(1, 2)], cluster="tcp://127.0.0.1:1", progress=False)


def test_a_lost_workers_chunks_are_run_again(tmp_path, row_count):
    """Kill a worker process mid-run: every seed still ends up stored exactly once."""
    import os
    import signal
    import threading
    import time

    db = str(tmp_path / "r.sqlite")
    n = 1200
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        box = {}
        runner = threading.Thread(target=lambda: box.update(s=run_batch(
            db=db, game="pyramid", analysis="blind:greedy", ranges=[(1, n)], chunk_size=10,
            cluster=cluster.scheduler_address, progress=False, commit_seconds=0.1)))
        runner.start()
        end = time.time() + 60
        while time.time() < end and row_count(db) == 0:
            time.sleep(0.05)
        nanny = next(iter(cluster.workers.values()))
        os.kill(nanny.process.process.pid, signal.SIGKILL)
        runner.join(timeout=120)
        assert not runner.is_alive()
    assert box["s"].done == n
    assert [r[0] for r in rows(db)] == list(range(1, n + 1))
