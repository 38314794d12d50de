"""A distributed run fails cleanly: one line, within seconds, the stored rows kept.

(The unreachable and the silent scheduler are in test_data_safety.py; these
need a real cluster.)
"""
import threading
import time

import pytest

from solver.batch import run_batch
from solver.errors import InputError

distributed = pytest.importorskip("distributed")


def run_in_thread(**kw):
    box = {}

    def target():
        try:
            box["summary"] = run_batch(game="pyramid", analysis="blind:greedy", progress=False,
                                       commit_seconds=0.1, **kw)
        except BaseException as exc:            # noqa: BLE001 - the test inspects it
            box["error"] = exc
            box["when"] = time.monotonic()
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread, box


def test_a_scheduler_that_goes_away_mid_run_ends_it_with_the_rows_kept(tmp_path, row_count):
    db = str(tmp_path / "r.sqlite")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                       dashboard_address=None)
    thread, box = run_in_thread(db=db, ranges=[(1, 200_000)], chunk_size=10,
                                cluster=cluster.scheduler_address)
    end = time.time() + 60
    while time.time() < end and row_count(db) == 0:
        time.sleep(0.05)
    assert row_count(db) > 0
    gone = time.monotonic()
    cluster.close()
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert isinstance(box.get("error"), InputError), box
    assert "rerun to resume" in str(box["error"]) and "\n" not in str(box["error"])
    assert box["when"] - gone < 10
    kept = row_count(db)
    assert 0 < kept < 200_000


def test_a_worker_without_the_package_is_one_line(tmp_path):
    """A worker that cannot import `solver` (simulated by a preload that hides it) dies on
    its first task; the run ends with one line instead of waiting for a worker forever."""
    preload = tmp_path / "hide_solver.py"
    preload.write_text("import sys\nsys.modules['solver'] = None\n")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None, preload=[str(preload)]) as cluster:
        t0 = time.monotonic()
        with pytest.raises(InputError, match="cannot import this package|no worker"):
            run_batch(db=str(tmp_path / "r.sqlite"), game="pyramid", analysis="blind:greedy",
                      ranges=[(1, 50)], chunk_size=10, cluster=cluster.scheduler_address, progress=False)
        assert time.monotonic() - t0 < 30
