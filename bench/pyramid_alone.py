"""Each search alone on given deals: verdict, nodes, CPU seconds of the process.

    python bench/pyramid_alone.py main|tail VARIANT SECONDS SEED...

The figures behind ``tail.MAIN_SHARE`` (docs/pyramid.md, "Sixty seconds of
CPU"): the main search or the tail search, 1e9 nodes, ``SECONDS`` of CPU, a
1 GiB table, no longest-line search.
"""
from __future__ import annotations

import resource
import sys
import time

from solver.pyramid.deal import deal_from_seed
from solver.pyramid.search import solve


def main(argv) -> None:
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
