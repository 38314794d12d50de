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
from typing import Callable, List, Optional, Tuple

from solver.game import Limits
from solver.pyramid.deal import deal_from_seed
from solver.pyramid.search import solve
from solver.pyramid.rules import check_variant
from solver.store import ResultStore

SAMPLE_SEED = 20261126
"""The generator seed of the random sample (fixed: a rerun checks the same deals)."""

HARD_NODES = 1_000_000
"""Stored rows that needed more nodes than this are always rechecked."""

RECHECK_LIMITS = Limits(20_000_000, 60.0, 64)
"""Each deal's limits by default: a single deal's (docs/pyramid.md)."""


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

    @property
    def valid(self) -> bool:
        """No stored verdict differs from the one decided again."""
        return not self.differ

    def to_dict(self) -> dict:
        """The ``recheck`` keys of docs/json.md (without the context keys)."""
        return {"valid": self.valid, "sampled": self.sampled, "hard": self.hard, "agree": self.agree,
                "undecided": self.undecided,
                "differ": [{"seed": s, "stored": a, "now": b} for s, a, b in self.differ],
                "cpu_seconds": self.cpu_seconds}


def recheck(db: str, *, variant: str, count: int, limits: Limits = Limits(),
            progress: Optional[Callable[[int, int], None]] = None) -> Recheck:
    """Decide ``count`` random decided rows of ``db`` (and every one that took
    more than :data:`HARD_NODES` nodes) again with the tail search, under
    ``limits`` (:data:`RECHECK_LIMITS` where None).

    ``progress(done, total)`` is called after each deal (for a progress bar)."""
    check_variant(variant)
    limits = limits.or_defaults(**RECHECK_LIMITS.to_dict())
    with ResultStore(db) as store:
        rows = [r for r in store.rows(game="pyramid", variant=variant, analysis="thoughtful")
                if r.verdict in ("won", "lost")]
    stored = {r.seed: r.verdict for r in rows}
    sample = random.Random(SAMPLE_SEED).sample(sorted(stored), min(count, len(stored)))
    hard = sorted({r.seed for r in rows if r.nodes > HARD_NODES} - set(sample))
    out = Recheck(variant, sampled=len(sample), hard=len(hard))
    start = time.process_time()
    todo = sample + hard
    for done, seed in enumerate(todo, start=1):
        now = solve(deal_from_seed(seed), variant=variant, node_limit=limits.node_limit,
                    time_limit=limits.time_limit, table_mb=limits.table_mb, longest=False, tail=True).verdict
        if now == "unknown":
            out.undecided += 1
        elif now == stored[seed]:
            out.agree += 1
        else:
            out.differ.append((seed, stored[seed], now))
        if progress is not None:
            progress(done, len(todo))
    out.cpu_seconds = time.process_time() - start
    return out
