"""Spectrum benchmarks: compiled against pure-Python successor generation, and
the solitaire's minimum turns over a range of seeds.

    python -m pytest -q bench/bench_spectrum.py
    SPECTRUM_SEEDS=1000 SPECTRUM_SWEEP_OUT=sweep.txt python -m pytest -q bench/bench_spectrum.py -k sweep -s
    python -m pytest -q bench/bench_spectrum.py -k hard -s     # seeds 27, 95, 438
"""
import os
import statistics
import time

from solver.cext import spectrum as fast
from solver.spectrum import refsearch as ref
from solver.spectrum.rules import Game
from solver.game import Limits
from solver.spectrum.search import solve_seed

START = Game(1, 7).new_state()


def test_successors_compiled(benchmark):
    tree = fast.GoalTree(START.goals, START.bags, START.rng.state)
    benchmark(fast.count_successors, START.stashes[0], 1, tree, 0, 100)


def test_successors_reference(benchmark):
    tree = ref.GoalTreeRef(START.goals, START.bags, START.rng.state)
    benchmark(lambda: [ref.successors(START.stashes[0], 1, tree, 0) for _ in range(100)])


def _three_before_end(seed=1):
    """A solitaire position three turns before the end of a minimum plan."""
    from solver.spectrum.rules import Move
    st = Game(1, seed).new_state()
    plan = fast.ida_min_turns(st.stashes[0], 1, fast.GoalTree(st.goals, st.bags, st.rng.state))["plan"]
    for code in plan[:-3]:
        st.apply(Move.from_code(code))
    return st


END = _three_before_end()


def test_ida_compiled(benchmark):
    benchmark(lambda: fast.ida_min_turns(END.stashes[0], END.direction,
                                         fast.GoalTree(END.goals, END.bags, END.rng.state),
                                         max_turns=3))


def test_ida_reference(benchmark):
    benchmark.pedantic(lambda: ref.ida_min_turns(END.stashes[0], END.direction,
                                                 ref.GoalTreeRef(END.goals, END.bags, END.rng.state),
                                                 max_turns=3), rounds=3)


def sweep(first, last, *, max_seconds=60.0, out=None):
    """Solve seeds ``first..last``; return (turns histogram, unknown count,
    wall times, CPU times).  The machine is shared, so CPU time is the
    figure that compares across runs."""
    turns, times, cpu, unknown = {}, [], [], 0
    for seed in range(first, last + 1):
        t0, c0 = time.perf_counter(), time.process_time()
        row = solve_seed(seed, limits=Limits(time_limit=max_seconds)).to_dict()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        if row["verdict"] != "won":
            unknown += 1
        else:
            turns[row["turns"]] = turns.get(row["turns"], 0) + 1
        if out:
            out.write(f"{seed} {row['verdict']} {row['turns']} {row['nodes']} {times[-1]:.3f}"
                      f" {cpu[-1]:.3f}\n")
            out.flush()
    return turns, unknown, times, cpu


def test_min_turns_sweep():
    """Seeds SPECTRUM_FIRST..SPECTRUM_SEEDS (default 1..100): the distribution of
    minimum turns, unknowns, median and worst time.  SPECTRUM_SWEEP_OUT names a
    file for one line per seed (seed verdict turns nodes wall-seconds cpu-seconds)."""
    first = int(os.environ.get("SPECTRUM_FIRST", "1"))
    n = int(os.environ.get("SPECTRUM_SEEDS", "100"))
    limit = float(os.environ.get("SPECTRUM_MAX_SECONDS", "60"))
    path = os.environ.get("SPECTRUM_SWEEP_OUT")
    with open(path, "w") if path else open(os.devnull, "w") as out:
        turns, unknown, times, cpu = sweep(first, n, max_seconds=limit, out=out)
    print(f"\nseeds {first}-{n}: turns {dict(sorted(turns.items()))}, unknown {unknown}, "
          f"wall median {statistics.median(times):.3f} s, max {max(times):.3f} s; "
          f"CPU median {statistics.median(cpu):.3f} s, max {max(cpu):.3f} s")


def test_hard_seeds():
    """The seeds that were slowest (27: 11 turns; 95 and 438: 10): CPU seconds,
    nodes, and how many of them the pass without upconversions took."""
    for seed in (27, 95, 438):
        c0 = time.process_time()
        row = solve_seed(seed).to_dict()
        cpu = time.process_time() - c0
        first = sum(it["nodes_without_upconversions"] or 0 for it in row["iterations"])
        print(f"\nseed {seed}: {row['verdict']} in {row['turns']} turns, {cpu:.2f} CPU s, "
              f"{row['nodes']} nodes ({first} without upconversions)")
        assert row["verdict"] == "won"
