"""Each search alone on given deals: verdict, nodes, CPU seconds of the process.

    python bench/pyramid_alone.py main|tail VARIANT SECONDS SEED... [--squares-upto=N]
    python bench/pyramid_alone.py cli ARGS... [--squares-upto=N]

The figures behind ``tail.MAIN_SHARE`` (docs/pyramid.md, "Sixty seconds of
CPU"): the main search or the tail search, 1e9 nodes, ``SECONDS`` of CPU, a
1 GiB table, no longest-line search.  ``--squares-upto=N``: the square bound
asked only with at most N tiles placed (1000: at every node), the figures of
"The square bound near the root only"; ``cli``: ``solve ARGS`` in this process
with that setting (a batch with ``--workers 1`` runs its chunks here too).
"""
from __future__ import annotations

import resource
import sys
import time

from solver.pyramid.deal import deal_from_seed
from solver.pyramid.search import solve


def main(argv) -> None:
    upto = [a for a in argv if a.startswith("--squares-upto=")]
    if upto:
        from solver.cext.pyramid import square_bound_upto
        square_bound_upto(int(upto[-1].split("=", 1)[1]))
        argv = [a for a in argv if a not in upto]
    if argv[0] == "cli":
        from solver.cli.main import main as solve_main
        sys.argv = ["solve"] + argv[1:]
        return solve_main()
    mode, variant, limit = argv[0], argv[1], float(argv[2])
    for seed in map(int, argv[3:]):
        c0, w0 = time.process_time(), time.perf_counter()
        r = solve(deal_from_seed(seed), variant=variant, node_limit=10 ** 9, time_limit=limit, table_mb=1024,
                  tail=mode == "tail", longest=False)
        print(mode, variant, seed, r.verdict, r.nodes, f"cpu {time.process_time() - c0:.1f}",
              f"wall {time.perf_counter() - w0:.1f}",
              f"rss {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}MB",
              f"load {open('/proc/loadavg').read().split()[0]}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
