"""Continuous Pyramid speed: compiled against the pure-Python reference, same run.

    python -m pytest bench/bench_pyramid.py -s              # everything below, seeds 1-1000
    PYRAMID_SWEEP=10000 python -m pytest bench/bench_pyramid.py -s -k sweep
    PYRAMID_DEALS=100000 python -m pytest bench/bench_pyramid.py -s -k deals_per_second
    PYRAMID_DEALS=100000 python -m pytest bench/bench_pyramid.py -s -k end_to_end   # with SQLite
    PYRAMID_DEALS=10000 python -m pytest bench/bench_pyramid.py -s -k longest_line

Ratios matter more than absolute times on a shared machine; each pair below
runs the same work both ways.
"""
import os
import random
import resource
import time

import pytest

from solver.cext import pyramid as fast
from solver.pyramid.deal import deal_from_seed
from solver.pyramid.reference_search import solve_reference
from solver.pyramid.rules import Move, PyramidGame
from solver.pyramid.search import VARIANT_CODES, deal_kinds, solve
from solver.pyramid.tiles import TILES

SWEEP = int(os.environ.get("PYRAMID_SWEEP", "1000"))
SOLVE_SEEDS = [1, 3, 4, 5, 8, 9]


def _positions():
    """(reference state, compiled engine) pairs at several depths of random play."""
    rnd = random.Random(5)
    pairs = []
    for seed in range(1, 30):
        deal = deal_from_seed(seed)
        state = PyramidGame(deal).new_initial_state()
        engine = fast.Engine(deal_kinds(deal))
        target = rnd.choice([10, 40, 80, 120])
        while state.placed < target:
            moves = sorted({(TILES[m.tile].kind, m.pos) for m in state.legal_moves()})
            if not moves:
                break
            kind, pos = rnd.choice(moves)
            state.apply(Move(next(f for f in state.reserve if f is not None and TILES[f].kind == kind), pos))
            engine.make(kind, pos)
        if state.placed > 1 and not state.is_terminal():
            pairs.append((state, engine))
    return pairs


POSITIONS = _positions()


def test_movegen_reference(benchmark):
    benchmark.extra_info["positions"] = len(POSITIONS)
    benchmark(lambda: [state.legal_moves() for state, _ in POSITIONS])


def test_movegen_compiled_wrapper(benchmark):
    """Through the Python wrapper: builds and sorts a list of tuples per call."""
    benchmark(lambda: [engine.legal_moves() for _, engine in POSITIONS])


def test_movegen_compiled_kernel(benchmark):
    """The C generator alone, 100 runs per position per round."""
    benchmark.extra_info["runs_per_position"] = 100
    benchmark(lambda: [engine.generate_repeatedly(100) for _, engine in POSITIONS])


@pytest.mark.parametrize("variant", sorted(VARIANT_CODES))
def test_solve_reference(benchmark, variant):
    """Full thoughtful solves of fixed seeds by the pure-Python twin."""
    deals = [deal_from_seed(s) for s in SOLVE_SEEDS]
    results = benchmark.pedantic(lambda: [solve_reference(d, variant=variant) for d in deals],
                                 rounds=2, iterations=1)
    benchmark.extra_info["nodes"] = sum(r.nodes for r in results)


@pytest.mark.parametrize("variant", sorted(VARIANT_CODES))
def test_solve_compiled(benchmark, variant):
    """The same solves, same nodes (no restarts), by the compiled search."""
    kinds = [deal_kinds(deal_from_seed(s)) for s in SOLVE_SEEDS]
    code = VARIANT_CODES[variant]
    results = benchmark(lambda: [fast.solve_kinds(k, variant=code, first_round=0) for k in kinds])
    benchmark.extra_info["nodes"] = sum(r["nodes"] for r in results)


@pytest.mark.parametrize("variant", sorted(VARIANT_CODES))
def test_sweep(benchmark, variant):
    """Seeds 1..PYRAMID_SWEEP at the default limits, on one core: deals decided
    per second by the search, and end to end with the checker replaying every won line."""
    seeds = range(1, SWEEP + 1)
    summary = {}

    def run():
        counts = {"won": 0, "lost": 0, "unknown": 0}
        slowest = (0.0, None)
        search_seconds = 0.0
        start = time.perf_counter()
        for seed in seeds:
            result = solve(deal_from_seed(seed), variant=variant)
            counts[result.verdict] += 1
            search_seconds += result.seconds
            slowest = max(slowest, (result.seconds, seed))
        wall = time.perf_counter() - start
        summary.update(counts, deals=len(seeds), wall_seconds=round(wall, 2),
                       search_seconds=round(search_seconds, 2),
                       decided_per_second=round((counts["won"] + counts["lost"]) / search_seconds, 1),
                       end_to_end_per_second=round(len(seeds) / wall, 1),
                       slowest_seconds=round(slowest[0], 3), slowest_seed=slowest[1],
                       peak_rss_mib=round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1))

    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(summary)
    print(f"\n{variant} seeds 1-{SWEEP}: {summary}")


DEALS = int(os.environ.get("PYRAMID_DEALS", "2000"))
REFERENCE_DEALS = 10


@pytest.mark.parametrize("variant", sorted(VARIANT_CODES))
def test_deals_per_second(benchmark, variant):
    """Deals decided per second on one core, end to end as a batch worker answers
    them (deal, search, the compiled checker replaying every won line, the row's
    JSON; no SQLite), seeds 1..PYRAMID_DEALS; in the same run the pure-Python
    reference (reference search and reference checker) on seeds 1-10, and the
    two checkers alone on the same won lines.  On a shared machine the rates per
    CPU second (``process_time``) are the steadier figures."""
    from solver.batch import make_spec
    from solver.chunk import run_chunk
    from solver.pyramid.check import check_solution, name_and_check
    spec = make_spec(game="pyramid", analysis="thoughtful", variant=variant)    # the batch's limits
    summary = {}

    def run():
        start, cpu = time.perf_counter(), time.process_time()
        run_chunk(spec, range(1, DEALS + 1))
        compiled = DEALS / (time.perf_counter() - start)
        compiled_cpu = DEALS / (time.process_time() - cpu)
        start, cpu = time.perf_counter(), time.process_time()
        won = []
        for seed in range(1, REFERENCE_DEALS + 1):
            deal = deal_from_seed(seed)
            ref = solve_reference(deal, variant=variant)
            if ref.verdict == "won":
                assert check_solution(deal, ref.moves, variant=variant).valid
                won.append((deal, [(TILES[m.tile].kind, m.pos) for m in ref.moves], ref.moves))
        reference = REFERENCE_DEALS / (time.perf_counter() - start)
        reference_cpu = REFERENCE_DEALS / (time.process_time() - cpu)
        start = time.perf_counter()
        for _ in range(20):
            for deal, kind_line, _moves in won:
                assert name_and_check(deal, kind_line, variant=variant)[2].valid
        check_compiled = 20 * len(won) / (time.perf_counter() - start)
        start = time.perf_counter()
        for deal, _kinds, moves in won:
            assert check_solution(deal, moves, variant=variant).valid
        check_reference = len(won) / (time.perf_counter() - start)
        summary.update(deals=DEALS, deals_per_second=round(compiled), reference_deals_per_second=round(reference, 2),
                       ratio=round(compiled / reference), deals_per_cpu_second=round(compiled_cpu),
                       reference_deals_per_cpu_second=round(reference_cpu, 2), checks_per_second=round(check_compiled),
                       reference_checks_per_second=round(check_reference), check_ratio=round(check_compiled / check_reference))

    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(summary)
    print(f"\n{variant}: {summary}")


@pytest.mark.parametrize("variant", sorted(VARIANT_CODES))
def test_batch_end_to_end(benchmark, variant, tmp_path):
    """``solve pyramid batch --seeds 1-PYRAMID_DEALS --workers 1`` as the runner does it
    (chunks through the kernel's ``solve_seeds`` and the checker's ``check_seeds``, rows
    into SQLite), against, in the same run, the per-seed path (one ``solve_deal`` per seed,
    the compiled search and checker behind the contract) on the first 1000 of those seeds
    and the pure-Python reference (reference search and checker) on seeds 1-10."""
    from solver.batch import run_batch
    from solver.chunk import Spec, row_values
    from solver.pyramid.check import check_solution
    from solver.seeds import parse_ranges
    summary = {}

    def run():
        start, cpu = time.perf_counter(), time.process_time()
        out = run_batch(db=str(tmp_path / "b.sqlite"), game="pyramid", analysis="thoughtful", variant=variant,
                        ranges=parse_ranges(f"1-{DEALS}"), workers=1, progress=False)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        per_seed_deals = min(DEALS, 1000)
        spec = Spec("pyramid", "thoughtful", variant, "thoughtful")
        start = time.process_time()
        for seed in range(1, per_seed_deals + 1):
            row_values(seed, spec.answer(seed))
        per_seed = per_seed_deals / (time.process_time() - start)
        start = time.process_time()
        for seed in range(1, REFERENCE_DEALS + 1):
            deal = deal_from_seed(seed)
            ref = solve_reference(deal, variant=variant)
            if ref.verdict == "won":
                assert check_solution(deal, ref.moves, variant=variant).valid
        reference = REFERENCE_DEALS / (time.process_time() - start)
        decided = out.verdicts.get("won", 0) + out.verdicts.get("lost", 0)
        summary.update(deals=DEALS, verdicts=out.verdicts, wall_seconds=round(wall, 2), cpu_seconds=round(cpu, 2),
                       decided_per_second=round(decided / wall), decided_per_cpu_second=round(decided / cpu),
                       per_seed_path_per_cpu_second=round(per_seed), reference_per_cpu_second=round(reference, 2),
                       ratio_to_reference=round(decided / cpu / reference), ratio_to_per_seed=round(decided / cpu / per_seed, 1),
                       load_average=round(os.getloadavg()[0], 1))

    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(summary)
    print(f"\n{variant}: {summary}")


@pytest.mark.parametrize("variant", sorted(VARIANT_CODES))
def test_longest_line(benchmark, variant):
    """The longest-line search of the lost deals among seeds 1..PYRAMID_DEALS, with
    its relaxation bound and without (same deals, same run): nodes, how many finish
    within the 4,000-node budget, and CPU seconds (the proof search, the same in
    both, included)."""
    code = VARIANT_CODES[variant]
    lost = [seed for seed, answer in zip(range(1, DEALS + 1), fast.solve_seeds(
        range(1, DEALS + 1), variant=code, node_limit=1_000_000, longest_budget=0, blind_players=False))
        if answer[0] == "lost"]
    summary = {"lost": len(lost)}

    def run():
        for bound in (False, True):
            nodes = exact = 0
            cpu = time.process_time()
            for seed in lost:
                r = fast.solve_kinds(fast.deal_kinds_of_seed(seed), variant=code, node_limit=1_000_000,
                                     longest_bound=bound)
                nodes += r["longest_nodes"]
                exact += r["longest_exact"]
            name = "bound" if bound else "plain"
            summary.update({f"{name}_nodes": nodes, f"{name}_exact": exact,
                            f"{name}_cpu_seconds": round(time.process_time() - cpu, 2)})

    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(summary)
    print(f"\n{variant}: {summary}")


BLIND_SEEDS = range(1, 11)


@pytest.mark.parametrize("policy", ["greedy", "lookahead"])
def test_blind_compiled_loop(benchmark, policy):
    """Blind games in the fast compiled loop (the blind:POLICY analyses)."""
    from solver.pyramid.blind import Greedy, Lookahead, play
    player = {"greedy": Greedy, "lookahead": Lookahead}[policy]
    deals = [deal_from_seed(s) for s in BLIND_SEEDS]
    games = benchmark.pedantic(lambda: [play(d, player()) for d in deals], rounds=2, iterations=1)
    benchmark.extra_info["won"] = sum(g.verdict == "won" for g in games)


@pytest.mark.parametrize("policy", ["greedy", "lookahead"])
def test_blind_shared_loop(benchmark, policy):
    """The same games through the contract: the Policy twin in solver.playout.play_out
    (the reference state's move generator dominates)."""
    from solver.games import make_policy
    from solver.playout import play_out
    from solver.pyramid.rules import Pyramid
    game = Pyramid()
    outs = benchmark.pedantic(lambda: [play_out(game, [make_policy("pyramid", policy, game)], seed=s, max_moves=144)
                                       for s in BLIND_SEEDS], rounds=2, iterations=1)
    benchmark.extra_info["won"] = sum(o.winner == 0 for o in outs)
