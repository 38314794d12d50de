"""The SAT stage's figures (docs/pyramid.md, "The early game by SAT").

    python bench/pyramid_sat.py reach VARIANT SECONDS K[,K...] SEED...   # the solver alone
    python bench/pyramid_sat.py cubes VARIANT SECONDS K SEED...          # one question per first tile
    python bench/pyramid_sat.py deal VARIANT SEED...                     # the analysis, retry limits
    python bench/pyramid_sat.py cc VARIANT SECONDS K SEED... [--check]   # cube and conquer
    python bench/pyramid_sat.py finish VARIANT SECONDS K[,K...] SEED...  # a sat line, then the search
    python bench/pyramid_sat.py probe VARIANT SECONDS PLUS[,PLUS...] SEED... # main search, then SAT at deepest + PLUS
    python bench/pyramid_sat.py schedule SHARE VARIANT SEED...            # ``deal`` with tail.PROBE_SHARE = SHARE
    python bench/pyramid_sat.py cli SHARE ARGS...                         # ``solve ARGS`` in this process, likewise
    python bench/pyramid_sat.py kissat-cubes VARIANT K SEED...            # Kissat, one call per first-tile cube

``reach``: "can K moves be played?" with a fresh solver per question, SECONDS of
CPU each (0: no limit, one call: ``reach continuous 0 24 764002 --solver=kissat404``).  ``cubes``: the same question split by the kind of the first tile.
``cc``: :func:`reach_cubes`, one incremental solver, each cube printed; with
``--check`` an ``unsat`` answer's DRAT proof is kept and checked by the compiled
checker (:mod:`solver.pyramid.satproof`; ``--check=both``: the reference too),
with the proof's size, the checker's CPU seconds and the peak memory.
``finish``: for each K, a ``sat`` line handed to the exact search as its first
moves (1M nodes), a win replayed by the reference checker, as the stage does.
``probe``: the main search with the retry's limits and its share of 60 s, then
``reach_cubes`` for its deepest line + PLUS moves (SECONDS each), a ``sat``
line finished by the search as ``settle`` does: what an early SAT share buys.
``schedule``: ``deal`` with the probe's share set (0: no probe, the schedule
before it), printing what the SAT stage and the tail search were given and did.
``cli``: the command line in this process with the share set (a batch with
``--workers 1`` runs its chunks here too).
Options anywhere among the arguments: ``--solver=NAME`` (a PySAT solver),
``--NAME=INT`` (a CaDiCaL parameter, e.g. ``--stabilize=0``), ``--crowded`` (``cc``: split
on the crowded hubs' literals too), ``--room`` (``cc``, ``reach``: the hubs' room as counts),
``--squares`` (``cc``, ``reach``: the square room, a tile's anchored tiles at most the
squares around it empty when it went down), ``--rotate`` and ``--cube=N`` (``cc``: an
undecided cube goes to the back of the queue; N conflicts a cube at first), ``--no-order``
(``cc``, ``reach``: without the order of independent moves), ``--lex`` (``cc``, ``reach``:
the lexicographic order of moves instead), ``--no-twins`` (``cc``, ``reach``: each kind its
own, interchangeable kinds not merged), ``--no-parity`` (``cc``, ``reach``: without the
checkerboard's parity; both: the clauses before "Interchangeable kinds").
``deal``: the thoughtful analysis with the retry's limits (1e9 nodes, 60 s, 1 GiB),
as ``solve pyramid --seed N --node-limit 1000000000 --time-limit 60 --table-mb 1024``,
with what the SAT stage said.  CPU seconds of the process.
"""
from __future__ import annotations

import sys
import time

from solver.game import Limits
from solver.pyramid.contract import thoughtful_answer
from solver.pyramid.deal import deal_from_seed
from solver.pyramid.geometry import START
from solver.pyramid.rules import Move
from solver.pyramid.sat import reach, reach_cubes
from solver.pyramid.satproof import ProofTrace
from solver.pyramid.tiles import TILES


def _load() -> str:
    return open("/proc/loadavg").read().split()[0]


def _checked(r, how: str) -> None:
    """Check the proof of an ``unsat`` answer; print what the checkers found."""
    import resource

    print("  proof:", f"{r.proof.size:,} bytes of binary DRAT,", f"{len(r.proof.marks)} cubes refuted", flush=True)
    for compiled in (True, False) if how == "both" else (True,):
        c = r.proof.check(compiled=compiled)
        print("  checker", "compiled" if compiled else "reference", "checked" if c.checked else f"NOT checked: {c.reason}",
              f"lemmas {c.lemmas:,} (rat {c.rat}) deletions {c.deletions:,} ignored {c.ignored:,}",
              f"first rat {c.first_rat}" if c.rat else "", f"cpu {c.cpu_seconds:.1f}", f"arrays {c.memory_bytes / 2**20:.0f} MiB" if compiled else "",
              "the empty clause: " + ("the cover's" if r.proof.covered else "in CaDiCaL's proof"),
              f"peak rss {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB", f"load {_load()}",
              flush=True)
    r.proof.close()


def _kissat_cubes(variant: str, k: int, seeds, *, lex: bool) -> None:
    """"Can K moves be played?" split by the first tile's kind, as ``reach_cubes``
    splits it, each cube a unit clause for a fresh Kissat (it takes no assumptions):
    the CPU seconds of each cube and in all."""
    from pysat.solvers import Solver

    from solver.pyramid.deal import RESERVE_SLOTS
    from solver.pyramid.sat import Encoding
    from solver.pyramid.search import deal_kinds

    for seed in seeds:
        enc = Encoding(deal_kinds(deal_from_seed(seed)), k, variant=variant, lex=lex)
        kinds = list(dict.fromkeys(enc.kinds[:RESERVE_SLOTS]))
        total = 0.0
        for kind in kinds:
            t = time.process_time()
            with Solver(name="kissat404", bootstrap_with=enc.clauses + [[enc.x[enc.by_kind[kind][0], START]]]) as s:
                answer = s.solve()
            total += time.process_time() - t
            print(variant, seed, k, "first kind", kind, "sat" if answer else "unsat",
                  f"cpu {time.process_time() - t:.1f}", f"in all {total:.1f}", f"load {_load()}", flush=True)


def _options(argv):
    """The positional arguments, the solver's name and CaDiCaL's parameters."""
    rest, solver, options, extra = [], "cadical195", {}, {}
    for a in argv:
        if a.startswith("--solver="):
            solver = a.split("=", 1)[1]
        elif a in ("--crowded", "--room", "--squares", "--rotate", "--lex"):
            extra[a[2:]] = True
        elif a in ("--no-order", "--no-twins", "--no-parity"):
            extra[a[5:]] = False
        elif a.startswith("--cube="):
            extra["cube_conflicts"] = int(a.split("=", 1)[1])
        elif a.startswith("--"):
            name, value = a[2:].split("=")
            options[name] = int(value)
        else:
            rest.append(a)
    return rest, dict(solver=solver, options=options or None), extra


def main(argv) -> None:
    check = next((a.partition("=")[2] or "compiled" for a in argv if a.startswith("--check")), None)
    argv, how, extra = _options([a for a in argv if not a.startswith("--check")])
    mode, variant = argv[0], argv[1]
    if mode in ("schedule", "cli"):
        from solver.pyramid import tail
        tail.PROBE_SHARE = float(argv[1])
        if mode == "cli":
            from solver.cli.main import main as solve_main
            sys.argv = ["solve"] + argv[2:]
            return solve_main()
        _traced(tail)
        return main(["deal"] + argv[2:])
    if mode == "deal":
        for seed in map(int, argv[2:]):
            c0 = time.process_time()
            res, r = thoughtful_answer(deal_from_seed(seed), variant=variant,
                                       limits=Limits(node_limit=10 ** 9, time_limit=60, table_mb=1024))
            print(variant, seed, res.verdict, res.limit, res.nodes, f"search_seconds {res.fields['search_seconds']:.1f}",
                  f"cpu {time.process_time() - c0:.1f}", f"deepest {r.deepest} ({r.best_source})",
                  f"sat: {r.sat}", f"load {_load()}", flush=True)
        return
    if mode == "kissat-cubes":
        _kissat_cubes(variant, int(argv[2]), list(map(int, argv[3:])), lex=extra.get("lex", False))
        return
    seconds = float(argv[2]) or None        # 0: no limit (one solve call, as Kissat needs)
    if mode == "probe":
        _probe(variant, seconds, [int(p) for p in argv[3].split(",")], list(map(int, argv[4:])))
        return
    if mode == "reach":
        for seed in map(int, argv[4:]):
            for k in map(int, argv[3].split(",")):
                r = reach(deal_from_seed(seed), k, variant=variant, time_limit=seconds, **how,
                          **{n: v for n, v in extra.items() if n in ("room", "squares", "order", "lex", "twins", "parity")})
                print(variant, seed, k, r.status, f"cpu {r.cpu_seconds:.1f}", f"conflicts {r.conflicts}",
                      f"vars {r.variables} clauses {r.clauses}", " ".join(map(str, r.line)),
                      f"load {_load()}", flush=True)
        return
    if mode == "finish":
        from solver.pyramid.check import check_solution
        from solver.pyramid.search import solve
        for seed in map(int, argv[4:]):
            deal, c0 = deal_from_seed(seed), time.process_time()
            for k in map(int, argv[3].split(",")):
                r = reach(deal, k, variant=variant, time_limit=seconds)
                print(variant, seed, k, r.status, f"cpu {time.process_time() - c0:.1f}", flush=True)
                if r.status != "sat":
                    break
                t = solve(deal, variant=variant, after=r.line, node_limit=10 ** 6, longest=False)
                report = check_solution(deal, [str(m) for m in t.moves], variant=variant) if t.verdict == "won" else None
                print("  the search from its line:", t.verdict, f"nodes {t.nodes}",
                      f"checker {'valid, ' + str(report.moves_played) + ' moves' if report and report.valid else '-'}",
                      f"cpu {time.process_time() - c0:.1f}", f"load {_load()}", flush=True)
                if t.verdict == "won":
                    break
        return
    k = int(argv[3])
    if mode == "cc":
        for seed in map(int, argv[4:]):
            c0 = time.process_time()
            log = lambda cube, answer, conflicts: print(  # noqa: E731
                "  cube", cube, answer, conflicts, f"cpu {time.process_time() - c0:.1f}", flush=True)
            r = reach_cubes(deal_from_seed(seed), k, variant=variant, time_limit=seconds, log=log, **how, **extra,
                            proof=ProofTrace.of_encoding if check is not None else None)
            print(variant, seed, k, r.status, f"cpu {r.cpu_seconds:.1f}", f"conflicts {r.conflicts}",
                  f"vars {r.variables} clauses {r.clauses}", " ".join(map(str, r.line)), f"load {_load()}", flush=True)
            if r.proof is not None:
                _checked(r, check)
        return
    for seed in map(int, argv[4:]):
        deal, seen = deal_from_seed(seed), set()
        for face in deal.faces[:9]:
            if TILES[face].kind in seen:
                continue
            seen.add(TILES[face].kind)
            r = reach(deal, k, variant=variant, prefix=[Move(face, START)], time_limit=seconds)
            print(variant, seed, k, TILES[face].token, r.status, f"cpu {r.cpu_seconds:.1f}",
                  f"conflicts {r.conflicts}", flush=True)


def _traced(tail) -> None:
    """Print each call of the SAT stage and of the tail search: what it was given, what it did."""
    stage, settle = tail.after_tail, tail.settle

    def traced_stage(deal, r, **kw):
        c0, before = time.process_time(), r.deepest
        out = stage(deal, r, **kw)
        print(f"   sat stage: given {kw['time_limit']:.1f} s, {kw['conflict_limit']} conflicts; deepest {before} ->"
              f" {out.deepest}; {out.verdict}; {time.process_time() - c0:.1f} s; {out.sat}", flush=True)
        return out

    def traced_settle(deal, **kw):
        c0 = time.process_time()
        out = settle(deal, **kw)
        print(f"   tail: given {kw['time_limit']:.1f} s; {out.verdict} {out.limit}; {time.process_time() - c0:.1f} s;"
              f" {out.nodes} nodes", flush=True)
        return out

    tail.after_tail, tail.settle = traced_stage, traced_settle


def _probe(variant: str, seconds: float, pluses, seeds) -> None:
    from solver.pyramid.search import solve
    from solver.pyramid.tail import main_time_limit

    for seed in seeds:
        deal, c0 = deal_from_seed(seed), time.process_time()
        m = solve(deal, variant=variant, node_limit=10 ** 9, time_limit=main_time_limit(60), table_mb=1024)
        print(variant, seed, "main", m.verdict, m.limit, m.nodes, f"deepest {m.deepest}",
              f"cpu {m.cpu_seconds:.1f}", f"load {_load()}", flush=True)
        if m.verdict != "unknown":
            continue
        for plus in pluses:
            c1 = time.process_time()
            r = reach_cubes(deal, m.deepest + plus, variant=variant, time_limit=seconds)
            print("  ", m.deepest + plus, r.status, f"cpu {time.process_time() - c1:.1f}",
                  f"conflicts {r.conflicts}", f"vars {r.variables} clauses {r.clauses}", flush=True)
            if r.status == "sat":
                t = solve(deal, variant=variant, after=r.line, node_limit=100_000, longest=False)
                print("     the search from its line:", t.verdict, f"nodes {t.nodes}",
                      f"cpu {time.process_time() - c1:.1f}", f"load {_load()}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
