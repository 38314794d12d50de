"""The tail search: a second, complete try on the deals the main search leaves unknown.

The main search cuts a node when its relaxation (docs/pyramid.md, cut 1) shows
that no relaxed play places every tile, but it gives each node at most 32 tries
of a dragon's socket and, past that, does not cut.  On the deals it leaves
undecided that budget is what runs out, and the search then enumerates the
board's every arrangement (Continuous 394284: 20M nodes, no line past 11 tiles).
The tail search is the same kernel with the relaxation decided completely: a
memo of relaxed states that cannot finish (valid for every node of the deal), a
dragon tried first when nothing is free, and a budget of a million tries per
node (``cext/pyramid_tail.pxi``).  A ``won`` line is replayed by the checker as
every line of the kernel is; a ``lost`` is the same exhaustive search with a
relaxation that cuts only where the main one would, had it had the budget
(soundness: docs/pyramid.md, "The tail search").

>>> from solver.pyramid.deal import deal_from_seed
>>> r = settle(deal_from_seed(394284), variant="continuous", node_limit=1_000_000, time_limit=60)
>>> r.verdict, r.nodes < 100_000
('lost', True)
"""
from __future__ import annotations

from typing import Optional

from solver.pyramid.deal import Deal, deal_from_seed
from solver.pyramid.search import DEFAULT_TABLE_MB, SolveResult, solve
from solver.pyramid.tiles import N_KINDS

TAIL_FROM = 1_000_000
"""The analysis hands an unknown deal to the tail search only when the main
search spent at least this many nodes: below that the deal is not in the tail,
and a small limit was the caller's choice (a quick answer, unknown or not)."""


def settle(deal: Deal, *, variant: str = "continuous", node_limit: Optional[int] = None,
           time_limit: Optional[float] = None, table_mb: float = DEFAULT_TABLE_MB) -> SolveResult:
    """The tail search alone on ``deal``, under the limits given (None: none)."""
    return solve(deal, variant=variant, node_limit=node_limit, time_limit=time_limit,
                 table_mb=table_mb, tail=True)


def after_unknown(deal: Deal, first: SolveResult, *, variant: str, node_limit: Optional[int],
                  time_limit: Optional[float], table_mb: float) -> SolveResult:
    """The answer once the main search (``first``) ended unknown after at least
    :data:`TAIL_FROM` nodes (the callers check): the tail search's,
    under the same limits (its own budget: a deal may take twice the time limit),
    with ``nodes`` and ``seconds`` counting both searches.  Where the tail does
    not win, the longer of the two lines is kept (``longest_exact`` is the tail's)."""
    r = settle(deal, variant=variant, node_limit=node_limit, time_limit=time_limit, table_mb=table_mb)
    r.nodes += first.nodes
    r.seconds += first.seconds
    if r.verdict != "won" and first.deepest > r.deepest:
        r.deepest, r.best_line, r.best_source = first.deepest, first.best_line, first.best_source
    return r


def after_unknown_seed(seed: int, *, variant: str, node_limit: Optional[int], time_limit: Optional[float],
                       table_mb: float, nodes: int, seconds: float, deepest: int) -> SolveResult:
    """:func:`after_unknown` for a batch chunk's seed, where the main search's
    answer is only its figures (its line is not needed: only its length counts)."""
    first = SolveResult("unknown", variant, nodes=nodes, seconds=seconds, deepest=deepest, seed=seed)
    return after_unknown(deal_from_seed(seed), first, variant=variant, node_limit=node_limit,
                         time_limit=time_limit, table_mb=table_mb)


def finish_complete(relaxed, failed=None) -> bool:
    """The pure-Python twin of the tail's relaxation: the relaxed play of
    :func:`solver.pyramid.reference_search.can_finish_relaxed` (pass it as its
    ``finish``) decided with no budget, every reserve kind tried on a socket (no
    dragon first), failures remembered by (accept, reserve, stock) with the most
    sockets that failed.  Exponential in the worst case: for tests."""
    failed = {} if failed is None else failed
    relaxed.place_free()
    if len(relaxed.accept) == N_KINDS or not relaxed.reserve:
        return True
    if relaxed.sockets == 0:
        return False
    key = (frozenset(relaxed.accept), tuple(sorted(relaxed.reserve)), len(relaxed.stock))
    if failed.get(key, -1) >= relaxed.sockets:
        return False
    for kind in sorted(set(relaxed.reserve)):
        child = relaxed.copy()
        child.sockets -= 1
        child.place(kind)
        if finish_complete(child, failed):
            return True
    failed[key] = max(failed.get(key, -1), relaxed.sockets)
    return False
