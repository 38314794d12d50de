"""The thoughtful analysis for a whole chunk of a batch at once.

The same stored rows as answering each seed through
:func:`~solver.pyramid.contract.solve_deal` (verdict, limit, nodes and every
field but the times), at a fraction of the cost per deal: the search kernel
deals and decides the whole chunk in one call
(:func:`solver.cext.pyramid.solve_seeds`), and the separate compiled checker
deals each won seed again on its own and replays its line
(:func:`solver.cext.pyramid_check.check_seeds`) before the row is written.
A line the checker rejects is a :class:`~solver.pyramid.search.SolverBug`.
Where the longest line of a deal not won is not proven the longest, the blind
players (greedy and lookahead, compiled in the same kernel) play it too, as in
the per-seed path.

A row's ``seconds`` is the whole analysis as the kernels time it (the search,
then the checker's replay of a won line, or the longest-line search and any
blind play of a deal not won, on the wall clock); ``search_seconds`` the
search alone, in CPU seconds (what the time limit counts).

>>> from solver.pyramid.contract import THOUGHTFUL_LIMITS
>>> rows = thoughtful_rows([1, 2], variant="continuous", limits=THOUGHTFUL_LIMITS)
>>> [(r[0], r[1], r[3]) for r in rows]
[(1, 'won', 144), (2, 'lost', 9)]
"""
from __future__ import annotations

from typing import List, Sequence

from solver.cext import pyramid as _search
from solver.cext import pyramid_check as _checker
from solver.game import Limits
from solver.pyramid.search import VARIANT_CODES, SolverBug
from solver.pyramid.tail import after_unknown_seed, goes_to_tail, main_time_limit

_FIELDS = ('{"deepest":%d,"longest_exact":%s,"placed":%d,"search_seconds":%r,"slots":%s,'
           '"table_bytes":%d,"table_entries":%d}')
"""The row's fields as ``json.dumps(fields, separators=(",", ":"), sort_keys=True)`` writes them."""


def thoughtful_rows(seeds: Sequence[int], *, variant: str, limits: Limits) -> List[list]:
    """The stored columns (seed, verdict, limit, nodes, seconds, fields JSON) of
    each seed's thoughtful answer; ``limits`` are complete (defaults merged)."""
    code = VARIANT_CODES[variant]
    seeds = list(seeds)
    answers = _search.solve_seeds(seeds, variant=code, node_limit=int(limits.node_limit or 0),
                                  time_limit=float(main_time_limit(limits.time_limit) or 0.0),
                                  table_bytes=int(limits.table_mb * (1 << 20)))
    won = [i for i, a in enumerate(answers) if a[0] == "won"]
    checks = dict(zip(won, _checker.check_seeds([seeds[i] for i in won], [answers[i][8] for i in won], code)))
    rows = []
    for i, (seed, (verdict, limit, nodes, seconds, deepest, exact, entries, table_bytes, line, blind, extra, cpu)) \
            in enumerate(zip(seeds, answers)):
        slots = "null"
        if goes_to_tail(verdict, nodes, limit):   # the tail search (solver.pyramid.tail): the time left
            t = after_unknown_seed(seed, variant=variant, node_limit=limits.node_limit,
                                   time_limit=limits.time_limit, table_mb=limits.table_mb,
                                   nodes=nodes, seconds=seconds, deepest=deepest, cpu_seconds=cpu, limit=limit,
                                   table_entries=entries, table_bytes=table_bytes)
            verdict, limit, nodes, seconds, exact = t.verdict, t.limit, t.nodes, t.seconds, t.longest_exact
            cpu = t.cpu_seconds
            entries, table_bytes, deepest = t.table_entries, t.table_bytes, (144 if t.verdict == "won" else t.deepest)
            if verdict == "won":
                slots, extra = f"[{','.join(map(str, t.slots))}]", 0.0
            elif not exact and blind is not None:
                deepest = max(deepest, blind)
        elif verdict == "won":
            slots, error, extra = checks[i]
            if slots is None:
                raise SolverBug(f"the checker rejected the solver's line for seed {seed}: move {error[0]}: {error[1]}")
            slots = f"[{slots}]"
        elif blind is not None:
            deepest = max(deepest, blind)
        fields = _FIELDS % (deepest, "true" if exact else "false", deepest, round(cpu, 6), slots,
                            table_bytes, entries)
        rows.append([seed, verdict, limit, nodes, round(seconds + extra, 6), fields])
    return rows
