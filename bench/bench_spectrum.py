"""Spectrum benchmarks: compiled against pure-Python successor generation, and
the solitaire's minimum turns over a range of seeds.

    python -m pytest -q bench/bench_spectrum.py
    SPECTRUM_SEEDS=1000 python -m pytest -q bench/bench_spectrum.py -k sweep -s
"""
import os
import statistics
import time

from cext import spectrum as fast
from solver.spectrum import refsearch as ref
from solver.spectrum.rules import Game
from solver.spectrum.search import solve_seed

START = Game(1, 7).new_state()


def test_successors_compiled(benchmark):
    tree = fast.GoalTree(START.goals, START.bags, START.rng.state)
    benchmark(fast.count_successors, START.stashes[0], 1, tree, 0, 100)


def test_successors_reference(benchmark):
    tree = ref.GoalTreeRef(START.goals, START.bags, START.rng.state)
    benchmark(lambda: [ref.successors(START.stashes[0], 1, tree, 0) for _ in range(100)])


def test_min_turns_sweep():
    """Seeds 1..SPECTRUM_SEEDS (default 20): distribution, median and worst time."""
    n = int(os.environ.get("SPECTRUM_SEEDS", "20"))
    turns, times, unknown = {}, [], 0
    for seed in range(1, n + 1):
        t0 = time.perf_counter()
        row = solve_seed(seed, max_seconds=60.0)
        times.append(time.perf_counter() - t0)
        if row["verdict"] != "won":
            unknown += 1
        else:
            turns[row["turns"]] = turns.get(row["turns"], 0) + 1
    print(f"\nseeds 1-{n}: turns {dict(sorted(turns.items()))}, unknown {unknown}, "
          f"median {statistics.median(times):.3f} s, max {max(times):.3f} s")
