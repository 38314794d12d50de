"""The hub lemma on every deal of a seed range, against a batch database's verdicts.

    python bench/pyramid_hub_scan.py VARIANT DB FIRST LAST

Opens ``DB`` read-only.  Prints each deal the lemma proves by its hub step, counts
those where a clause is step 4's (anchors) or step 5's (cuts), and prints
any deal it proves lost that is not stored ``lost`` (``DIFFERS``: a stored
``won`` there would be a bug; an ``unknown`` is a deal the searches left), then
the counts and the CPU seconds (docs/pyramid.md, "Sixty seconds of CPU, and
the hub lemma").  Exit status 1 when a stored ``won`` is proved lost.
"""
from __future__ import annotations

import sqlite3
import sys
import time

from solver.pyramid.deal import deal_from_seed
from solver.pyramid.hub import proves_lost


def main(argv) -> int:
    variant, db, first, last = argv[0], argv[1], int(argv[2]), int(argv[3])
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        stored = dict(con.execute("SELECT seed, verdict FROM results WHERE variant = ? AND seed BETWEEN ? AND ?",
                                  (variant, first, last)))
    proved = hub = anchors = cuts = won = 0
    t0 = time.process_time()
    for seed in range(first, last + 1):
        why = proves_lost(deal_from_seed(seed), variant=variant)
        if why is None:
            continue
        proved += 1
        anchors += "can stand" in why
        cuts += "parts that reach" in why
        if "fit only" in why:
            hub += 1
            print("hub", seed, stored.get(seed), why[:160], flush=True)
        if stored.get(seed) != "lost":
            won += stored.get(seed) == "won"
            print("DIFFERS", seed, stored.get(seed), why, flush=True)
    print(f"{variant} seeds {first}-{last}: proved lost {proved} (hub step {hub}, anchors {anchors}, cuts {cuts}), "
          f"stored won among them {won}, "
          f"stored lost {sum(v == 'lost' for v in stored.values())}; {time.process_time() - t0:.1f} s CPU")
    return 1 if won else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
