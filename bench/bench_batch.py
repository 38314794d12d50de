"""The batch runner's throughput: 1 worker against 2, and the runner's overhead.

    python -m pytest bench/bench_batch.py -s            # seeds 1-10000 (about a minute on 2 cores)
    BENCH_SEEDS=1-2000 python -m pytest bench/bench_batch.py -s

Overhead is the batch's wall time against the sum of the per-seed times the
analysis reports (deal, search and check included): what the runner costs
(hand-out, encoding, SQLite).  Parallel efficiency is the speed-up of 2
workers over 1, divided by 2.  Each batch runs once (``pedantic``): the
machine is shared and the batch is long enough to time on its own.
"""
import os
import resource
import time

import pytest

from solver.batch import run_batch
from solver.seeds import parse_ranges

SEEDS = os.environ.get("BENCH_SEEDS", "1-10000")
NODE_LIMIT = int(os.environ.get("BENCH_NODE_LIMIT", "1000000"))
RESULTS = {}


def cpu_seconds():
    """CPU time of this process and its reaped children (the workers)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run(tmp_path, workers):
    db = str(tmp_path / f"bench{workers}.sqlite")
    cpu0 = cpu_seconds()
    summary = run_batch(db=db, game="pyramid", analysis="thoughtful", ranges=parse_ranges(SEEDS),
                     workers=workers, node_limit=NODE_LIMIT, progress=False)
    summary.cpu = cpu_seconds() - cpu0
    return summary


@pytest.mark.parametrize("workers", [1, 2])
def test_batch_throughput(benchmark, tmp_path, workers):
    summary = benchmark.pedantic(run, args=(tmp_path, workers), rounds=1, iterations=1)
    RESULTS[workers] = summary
    overhead = summary.wall_seconds / summary.solve_seconds - 1
    benchmark.extra_info.update(seeds=summary.done, wall=summary.wall_seconds,
                                solve_seconds=summary.solve_seconds, overhead=overhead)
    line = (f"\n{workers} worker(s): {summary.done} seeds in {summary.wall_seconds:.2f}s, "
            f"{summary.done / summary.wall_seconds:.0f} seeds/s, sum of per-seed times "
            f"{summary.solve_seconds:.2f}s")
    if workers == 1:
        line += f", runner overhead {100 * overhead:.1f}%"
    line += f", {summary.cpu:.2f} cpu-s"
    if workers == 2 and 1 in RESULTS:
        speedup = RESULTS[1].wall_seconds / summary.wall_seconds
        cpu_ratio = RESULTS[1].cpu / summary.cpu
        benchmark.extra_info.update(speedup=speedup, efficiency=speedup / 2, cpu_efficiency=cpu_ratio)
        line += (f"; workers busy {summary.solve_seconds / (2 * summary.wall_seconds):.0%} of the wall time; "
                 f"speed-up {speedup:.2f}x, parallel efficiency {speedup / 2:.0%}; cpu-time efficiency "
                 f"(1-worker cpu / 2-worker cpu) {cpu_ratio:.0%}")
    print(line)


# -- the blind roll-out's hot pick: compiled against the reference key -------------
def _midgame_moves():
    from solver.cext.pyramid import Engine
    from solver.pyramid.deal import deal_from_seed
    from solver.pyramid.search import deal_kinds
    from solver.cext import pyramid_blind
    engine = Engine(deal_kinds(deal_from_seed(3)))
    for _ in range(60):
        moves = engine.legal_moves()
        engine.make(*pyramid_blind.quick_pick(moves))
    return engine.legal_moves()


@pytest.mark.parametrize("impl", ["compiled", "python"])
def test_quick_pick(benchmark, impl):
    from solver.cext import pyramid_blind
    from solver.pyramid.blind import _places, quick_key
    moves = _midgame_moves()
    if impl == "compiled":
        pick = benchmark(pyramid_blind.quick_pick, moves)
    else:
        pick = benchmark(lambda: min(moves, key=lambda m, p=_places(moves): quick_key(m, p)))
    places = _places(moves)
    assert pick == min(moves, key=lambda m: quick_key(m, places))


STORE_ROWS = 20_000


@pytest.mark.parametrize("how", ["Row each", "values"])
def test_store_rows(benchmark, tmp_path, how):
    """The runner's layer after the kernels, per row: a chunk's values into
    SQLite through a ``Row`` each (``ResultStore.add``, the runner before) or as
    they are (``add_values``, the runner now), with the verdict tally.  Rows
    shaped as a won Pyramid deal's (144 slots in the fields)."""
    from solver.batch import BatchSummary, _tally
    from solver.store import ResultStore, Row
    fields = '{"deepest":144,"longest_exact":true,"placed":144,"search_seconds":1.2e-05,"slots":[%s],' \
             '"table_bytes":67108864,"table_entries":150}' % ",".join(str(i % 28) for i in range(144))
    values = [[seed, "won", None, 150, 1.5e-05, fields] for seed in range(1, STORE_ROWS + 1)]
    chunks = [values[i:i + 64] for i in range(0, STORE_ROWS, 64)]
    runs, cpu = iter(range(1000)), []

    def store_all():
        t0 = time.process_time()
        summary = BatchSummary("pyramid", "continuous", "thoughtful")
        with ResultStore(str(tmp_path / f"s{next(runs)}.sqlite"), create=True) as st:
            for chunk in chunks:
                if how == "values":
                    st.add_values("pyramid", "continuous", "thoughtful", chunk)
                    _tally(summary, chunk)
                else:
                    rows = [Row("pyramid", "continuous", "thoughtful", *r) for r in chunk]
                    st.add(rows)
                    summary.done += len(rows)
                    for r in rows:
                        summary.verdicts[r.verdict] = summary.verdicts.get(r.verdict, 0) + 1
                        summary.solve_seconds += r.seconds
            st.commit()
        cpu.append(time.process_time() - t0)

    benchmark.pedantic(store_all, rounds=5, iterations=1)
    print(f"\n{how}: {sorted(cpu)[2] / STORE_ROWS * 1e6:.1f} us of CPU per row (median of 5; wall "
          f"{benchmark.stats.stats.median / STORE_ROWS * 1e6:.1f})")
