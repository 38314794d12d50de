"""Re-decide stored thoughtful verdicts with the tail search, to catch a verdict that changed.

A million-seed table is built by the main search (and by the tail search only
on the deals the main search leaves to it, docs/pyramid.md).  The tail search
cuts with a different, tighter relaxation, so deciding a stored deal again with
it, in a fresh process and under other limits, is a check that shares the
least with the run that stored the row.  A random sample is drawn with a fixed
generator (the same sample every time), and every stored row that needed many
nodes is added, since the hard deals are where a wrong cut would show.  A
sample deal the tail cannot decide within the limits counts as undecided,
never as agreeing.

>>> import os, tempfile
>>> from solver.store import ResultStore, Row
>>> path = os.path.join(tempfile.mkdtemp(), "r.sqlite")
>>> with ResultStore(path, create=True) as st:
...     st.add([Row("pyramid", "continuous", "thoughtful", 12, "lost", None, 9, 0.0, "{}")])
...     st.commit()
>>> recheck(path, variant="continuous", count=1).agree
1
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from solver.pyramid.deal import deal_from_seed
from solver.pyramid.search import solve
from solver.pyramid.rules import check_variant
from solver.store import ResultStore

SAMPLE_SEED = 20261126
"""The generator seed of the random sample (fixed: a rerun checks the same deals)."""

HARD_NODES = 1_000_000
"""Stored rows that needed more nodes than this are always rechecked."""


@dataclass
class Recheck:
    """How many rechecked deals agree, differ or stay undecided, and which differ."""

    variant: str
    sampled: int = 0
    hard: int = 0
    agree: int = 0
    undecided: int = 0
    differ: List[Tuple[int, str, str]] = field(default_factory=list)  # (seed, stored, now)
    cpu_seconds: float = 0.0


def recheck(db: str, *, variant: str, count: int, node_limit: Optional[int] = 20_000_000,
            time_limit: Optional[float] = 60.0, table_mb: float = 64) -> Recheck:
    """Decide ``count`` random decided rows of ``db`` (and every one that took
    more than :data:`HARD_NODES` nodes) again with the tail search."""
    check_variant(variant)
    with ResultStore(db) as store:
        rows = [r for r in store.rows(game="pyramid", variant=variant, analysis="thoughtful")
                if r.verdict in ("won", "lost")]
    stored = {r.seed: r.verdict for r in rows}
    sample = random.Random(SAMPLE_SEED).sample(sorted(stored), min(count, len(stored)))
    hard = sorted({r.seed for r in rows if r.nodes > HARD_NODES} - set(sample))
    out = Recheck(variant, sampled=len(sample), hard=len(hard))
    start = time.process_time()
    for seed in sample + hard:
        now = solve(deal_from_seed(seed), variant=variant, node_limit=node_limit, time_limit=time_limit,
                    table_mb=table_mb, longest=False, tail=True).verdict
        if now == "unknown":
            out.undecided += 1
        elif now == stored[seed]:
            out.agree += 1
        else:
            out.differ.append((seed, stored[seed], now))
    out.cpu_seconds = time.process_time() - start
    return out


def main(argv=None) -> int:
    """``python -m solver.pyramid.recheck DB VARIANT COUNT``: one line, exit 1 if any differ."""
    import sys

    from solver.errors import InputError
    args = sys.argv[1:] if argv is None else argv
    try:
        if len(args) != 3 or not args[2].isdigit():
            raise InputError("usage: python -m solver.pyramid.recheck DB VARIANT COUNT")
        r = recheck(args[0], variant=args[1], count=int(args[2]))
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{r.variant}: {r.sampled} random and {r.hard} hard stored verdicts decided again by the tail "
          f"search: {r.agree} agree, {len(r.differ)} differ, {r.undecided} undecided "
          f"({r.cpu_seconds:.1f} s CPU)" + "".join(f"\n  {s}: stored {a}, now {b}" for s, a, b in r.differ))
    return 1 if r.differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
