"""The tail search: a second, complete try on the deals the main search leaves unknown.

The main search cuts a node when its relaxation (docs/pyramid.md, cut 1) shows
that no relaxed play places every tile, but it gives each node at most 32 tries
of a dragon's socket and, past that, does not cut; and it lets a kind exposed
on one tile accept tiles for ever.  On the deals it leaves undecided the search
then enumerates the board's every arrangement (Continuous 394284: 20M nodes, no
line past 11 tiles).  The tail search is the same kernel with a tighter
relaxation decided completely (``cext/pyramid_tail.pxi``): exposed kinds with
little room give one placement per empty neighbour (pools), a memo of relaxed
states that cannot finish (valid for every node of the deal), a dragon first
when only sockets are left, a million choices per node.  A ``won`` line is
replayed by the checker as every line of the kernel is; soundness of a
``lost``: docs/pyramid.md, "The tail search".

>>> from solver.pyramid.deal import deal_from_seed
>>> r = settle(deal_from_seed(394284), variant="continuous", node_limit=1_000_000, time_limit=60)
>>> r.verdict, r.nodes < 100_000
('lost', True)
"""
from __future__ import annotations

import time
from typing import Optional

from solver.pyramid.deal import Deal, deal_from_seed
from solver.pyramid.hub import proves_lost
from solver.pyramid.search import DEFAULT_TABLE_MB, SolveResult, solve
from solver.pyramid.reference_search import empty_near
from solver.pyramid.rules import PyramidState, kinds_fit
from solver.pyramid.tiles import KIND_DRAGON, N_KINDS, TILES

TAIL_FROM = 100_000
"""The analysis hands an unknown deal to the tail search only when the main
search spent at least this many nodes: below that the deal is not in the tail,
and a small limit was the caller's choice (a quick answer, unknown or not).
100,000 rather than 1M: over seeds 1-100,000 a batch's first pass then costs
Continuous 8.9 s of CPU instead of 11.4 s (the same verdicts) and Wild Dragons
16.1 s instead of 20.5 s (4 deals left for the retry instead of 1)."""


MAIN_SHARE = 0.3
"""Of a deal's time limit (CPU seconds, for both searches together), the part
the main search may use; the tail search has what is left.  On the deals that
reach the tail the tail search is mostly far quicker (Continuous 442421: lost
in 5.7 s of CPU by the tail alone, undecided after 60 s by the main search;
710514: 9.3 s against 38.6 s), but not always (Wild Dragons 22784: won in
16.1 s by the main search, 33.8 s by the tail): 30% of 60 s covers that one
and leaves the tail 42 s (docs/pyramid.md, "Sixty seconds of CPU")."""


SAT_SHARE = 0.1
"""Of a deal's time limit, the part kept from the tail search for the SAT stage
(:mod:`solver.pyramid.sat`), on a deal whose longest line known is short
(:data:`SAT_DEEPEST`), under a time limit of at least :data:`SAT_FROM`."""
SAT_FROM = 120.0
"""The smallest time limit (CPU seconds) under which the tail search keeps
:data:`SAT_SHARE` for the SAT stage.  Not at the retry's 60 s: there the probe
(:data:`PROBE_SHARE`), which asks the solver first at every limit, has had the
solver's time, and the tail search keeps what it leaves.  Under a larger limit
the stage's 10% is the cheapest place to look for a longer line or a proof."""
PROBE_SHARE = 0.6
"""Of a deal's time limit, the most the SAT probe may use: the SAT stage
(:func:`after_tail`) asked right after the main search, before the tail search,
on a deal the main search left unknown on its time share with a short line
(:data:`SAT_DEEPEST`), each question asked of Kissat in a child process
(:func:`solver.pyramid.sat.ask_in_child`, held to the time left; it counts no
conflicts for us, so a node limit does not bound it).  With the twins and the
parity in the clauses it decides every deal that the million's first passes
leave to the 60-s retry but the three the main search wins: one move past the
main search's longest line, the lost deals in 0.9-29 s of Kissat's CPU (Wild
Dragons 559633 the slowest: 50.3 s for the whole deal), and a line of 29 that
the search wins from for Wild Dragons 721034.  Where it does not decide, the
tail search has what is left (docs/pyramid.md, "Interchangeable kinds and the
checkerboard's parity")."""
SAT_DEEPEST = 30
"""The SAT stage runs only where no line known places more tiles: past that its
clauses grow and every deal left unknown so far dies by 27 tiles."""
MAIN_MOST = 60.0
"""The most CPU seconds the main search gets, whatever the limit: no deal of the
million's retries needed more than 18 s of it (the tail search or the SAT stage
decides the rest), so under a large limit (a second retry's) the time goes to
those."""
DEEP_FROM = 600.0
"""From this time limit (CPU seconds), on a deal with a short line
(:data:`SAT_DEEPEST`), the SAT stage after the tail search is the **deep
stage**: the tail search gets :data:`DEEP_TAIL_SHARE` of the limit, and the
stage all that is left, asked of Kissat in a child process
(:mod:`solver.pyramid.satchild`).  The deals a 60-s retry leaves are short-lined
and lost, and Kissat proves them so in 69-473 s of CPU where the tail search
makes no progress (docs/pyramid.md, "A second retry: the deep SAT stage")."""
DEEP_TAIL_SHARE = 0.1
"""The tail search's share of the limit in the deep schedule (:data:`DEEP_FROM`):
more than the 60-s retry gave it (about 30-40 s)."""


def main_time_limit(time_limit: Optional[float]) -> Optional[float]:
    """The main search's share of ``time_limit`` (None: no limit): :data:`MAIN_SHARE`,
    at most :data:`MAIN_MOST` seconds."""
    return min(time_limit * MAIN_SHARE, MAIN_MOST) if time_limit else time_limit


def deep(time_limit: Optional[float], deepest: int) -> bool:
    """Does the deep schedule (:data:`DEEP_FROM`) apply to a deal whose longest
    line known places ``deepest`` tiles?"""
    return bool(time_limit) and time_limit >= DEEP_FROM and deepest <= SAT_DEEPEST


def tail_time_limit(left: float, total: float, deepest: int) -> float:
    """The tail search's CPU seconds, of the ``left`` that the main search and the
    probe left under the limit ``total``, on a deal whose longest line known places
    ``deepest`` tiles: :data:`DEEP_TAIL_SHARE` of the limit in the deep schedule
    (:func:`deep`), else all but the SAT stage's :data:`SAT_SHARE` from
    :data:`SAT_FROM` on a short line (at least half of ``left``)."""
    if deep(total, deepest):
        return min(left, DEEP_TAIL_SHARE * total)
    keep = SAT_SHARE * total if deepest <= SAT_DEEPEST and total >= SAT_FROM else 0.0
    return max(left - keep, left / 2)


def probes(first: SolveResult, time_limit: Optional[float]) -> bool:
    """Does the SAT probe run after the main search's answer ``first``?  Under a
    time limit only, when the main search stopped on it (a node limit is a
    caller's quick answer: a batch's first pass never probes) with a line of at
    most :data:`SAT_DEEPEST` tiles, and when the probe's share is worth a question."""
    from solver.pyramid.sat import MIN_QUESTION

    return (bool(time_limit) and first.limit == "time" and first.deepest <= SAT_DEEPEST
            and PROBE_SHARE * time_limit >= MIN_QUESTION)


def goes_to_tail(verdict: str, nodes: int, limit: Optional[str]) -> bool:
    """Does an answer of the main search go on to the tail search?  When it
    ended unknown after at least :data:`TAIL_FROM` nodes, or on its share of
    the time limit (the rest of the time is the tail's)."""
    return verdict == "unknown" and (nodes >= TAIL_FROM or limit == "time")


def settle(deal: Deal, *, variant: str = "continuous", node_limit: Optional[int] = None,
           time_limit: Optional[float] = None, table_mb: float = DEFAULT_TABLE_MB) -> SolveResult:
    """The tail search alone on ``deal``, under the limits given (None: none)."""
    return solve(deal, variant=variant, node_limit=node_limit, time_limit=time_limit,
                 table_mb=table_mb, tail=True)


def after_unknown(deal: Deal, first: SolveResult, *, variant: str, node_limit: Optional[int],
                  time_limit: Optional[float], table_mb: float) -> SolveResult:
    """The answer once the main search (``first``, given
    :func:`main_time_limit`) ended so that :func:`goes_to_tail` (the callers
    check): lost when the hub lemma (:mod:`solver.pyramid.hub`) proves it, else
    the SAT probe's when it decides (:func:`probes`: at most :data:`PROBE_SHARE`
    of the time limit, Kissat in a child), else the tail
    search's, with its own node budget ``node_limit`` and the CPU seconds of
    ``time_limit`` that the main search and the probe left, so a deal takes at
    most ``time_limit`` CPU seconds in all; ``nodes``, ``seconds`` and
    ``cpu_seconds`` count all of them.  Where the tail does not win, the
    longer of the two lines is kept (``longest_exact`` is the tail's)."""
    why = proves_lost(deal, variant=variant)
    if why is not None:                   # the hub lemma (solver.pyramid.hub): lost, no search needed
        first.verdict, first.limit, first.hub = "lost", None, why
        return first
    total, deepest = time_limit, first.deepest          # the main search's line (the probe may lengthen it)
    short = deepest <= SAT_DEEPEST
    if time_limit:
        left = time_limit - first.cpu_seconds
        if left <= 0:                     # the main search used it all (it checks every 1,024 nodes)
            first.limit = "time"
            return first
        if probes(first, total):          # the SAT probe first (PROBE_SHARE), the tail the rest
            first = after_tail(deal, first, variant=variant, time_limit=min(PROBE_SHARE * total, left),
                               conflict_limit=None, in_child=True)
            left = time_limit - first.cpu_seconds
            if first.verdict != "unknown" or left <= 0:   # decided, or no time left (a question's
                return first                              # clauses are written uninterrupted)
        time_limit = tail_time_limit(left, total, deepest)
    r = settle(deal, variant=variant, node_limit=node_limit, time_limit=time_limit, table_mb=table_mb)
    r.nodes += first.nodes
    r.seconds += first.seconds
    r.cpu_seconds += first.cpu_seconds
    if r.verdict != "won" and first.deepest > r.deepest:
        r.deepest, r.best_line, r.best_source = first.deepest, first.best_line, first.best_source
    if r.verdict == "unknown" and r.limit == "time" and short and r.deepest <= SAT_DEEPEST \
            and (not total or total >= SAT_FROM):
        r = after_tail(deal, r, variant=variant, time_limit=total and total - r.cpu_seconds,
                       conflict_limit=node_limit, in_child=deep(total, r.deepest))
    return r


def after_tail(deal: Deal, r: SolveResult, *, variant: str, time_limit: Optional[float],
               conflict_limit: Optional[int], in_child: bool = False) -> SolveResult:
    """The SAT stage (:func:`solver.pyramid.sat.settle`) on a deal both searches
    left unknown (``r``) on the time limit (a node limit was the caller's choice
    of a quick answer: a batch's first pass), with the CPU seconds left and at most
    ``conflict_limit`` conflicts a question: ``lost`` when no line places some
    number of tiles (``sat`` says how many), ``won`` when the exact search wins
    after a line the solver found (the whole line replayed by the checker), else
    ``r`` with the solver's longer line if it found one.  ``in_child``: the
    questions go to Kissat in a child process (the deep stage, :data:`DEEP_FROM`),
    whose CPU seconds count in the deal's."""
    if time_limit is not None and time_limit <= 0:
        return r
    from solver.pyramid import sat
    from solver.pyramid.satchild import cpu_now

    t0, c0 = time.perf_counter(), cpu_now()
    verdict, last, won = sat.settle(deal, variant=variant, deepest=r.deepest, time_limit=time_limit,
                                    conflict_limit=conflict_limit, in_child=in_child)
    spent = cpu_now() - c0
    if verdict == "won":
        won.nodes += r.nodes
        won.seconds += r.seconds + time.perf_counter() - t0
        won.cpu_seconds = r.cpu_seconds + spent
        won.table_bytes = max(won.table_bytes, r.table_bytes)     # the searches' largest table
        won.sat = f"the exact search won after the solver's first {len(last.line)} moves"
        return won
    r.seconds += time.perf_counter() - t0
    r.cpu_seconds += spent
    if verdict == "lost":
        r.verdict, r.limit, r.sat_k = "lost", None, last.k
        r.sat = (f"no line places {last.k} tiles (Kissat: unsatisfiable, {last.cpu_seconds:.1f} s of CPU)"
                 if in_child else
                 f"no line places {last.k} tiles (CaDiCaL: unsatisfiable, {last.conflicts:,} conflicts, "
                 f"{last.variables:,} variables, {last.clauses:,} clauses)")
    elif last is not None and last.k > r.deepest:
        r.deepest, r.best_line, r.best_source = last.k, list(last.line), "sat"
    return r


def after_unknown_seed(seed: int, *, variant: str, node_limit: Optional[int], time_limit: Optional[float],
                       table_mb: float, nodes: int, seconds: float, deepest: int,
                       cpu_seconds: float, limit: Optional[str], table_entries: int = 0,
                       table_bytes: int = 0) -> SolveResult:
    """:func:`after_unknown` for a batch chunk's seed, where the main search's
    answer is only its figures (its line is not needed: only its length counts)."""
    first = SolveResult("unknown", variant, nodes=nodes, seconds=seconds, deepest=deepest, seed=seed,
                        cpu_seconds=cpu_seconds, limit=limit, table_entries=table_entries,
                        table_bytes=table_bytes)
    return after_unknown(deal_from_seed(seed), first, variant=variant, node_limit=node_limit,
                         time_limit=time_limit, table_mb=table_mb)



TAIL_POOL = 4
"""An exposed kind whose tiles have at most this many empty neighbours in all is
scarce in the tail's relaxation (``TAIL_POOL`` in ``cext/pyramid_tail.pxi``)."""


def can_finish_pooled(state: PyramidState, most: int = TAIL_POOL) -> bool:
    """The pure-Python twin of the tail's relaxation, from the reference state.

    A reserve tile goes down for free when it fits an exposed kind with more
    than ``most`` empty neighbours around its tiles, or a kind placed in the
    relaxed play; against a *scarce* exposed kind (1..``most`` empty neighbours)
    it uses one of them; against a dragon, one of the dragons' empty neighbours
    (5 more per dragon placed since).  Decided with no budget, every kind tried
    on every pool and on a socket (no dragon first), failures remembered by the
    whole state with the most sockets that failed.  Exponential in the worst
    case: for tests.
    """
    variant = state.game.variant
    room = [0] * N_KINDS
    for p, face in enumerate(state.board):
        if face is not None:
            room[TILES[face].kind] += empty_near(state, p)
    sockets = room[KIND_DRAGON]
    scarce = {k: room[k] for k in range(KIND_DRAGON) if 0 < room[k] <= most}
    accept = {k for k in range(N_KINDS)
              if any(room[u] > most and kinds_fit(k, u, variant=variant) for u in range(KIND_DRAGON))}
    reserve = [TILES[f].kind for f in state.reserve if f is not None]
    stock = [TILES[f].kind for f in state.game.deal.faces[state.stock_next:]]
    return _pooled_finish(variant, accept, scarce, sockets, reserve, stock, {})


def _pooled_finish(variant, accept, scarce, sockets, reserve, stock, failed) -> bool:
    accept, scarce, reserve, stock = set(accept), dict(scarce), list(reserve), list(stock)

    def place(kind):
        nonlocal sockets
        reserve.remove(kind)
        if kind == KIND_DRAGON:
            sockets += 5
        else:
            accept.update(k for k in range(N_KINDS) if kinds_fit(k, kind, variant=variant))
            scarce.pop(kind, None)
        if stock:
            reserve.append(stock.pop(0))

    while len(accept) < N_KINDS:
        ready = sorted(k for k in set(reserve) if k in accept)
        if not ready:
            break
        place(ready[0])
    if len(accept) == N_KINDS or not reserve:
        return True
    key = (frozenset(accept), tuple(sorted(scarce.items())), tuple(sorted(reserve)), len(stock))
    if failed.get(key, -1) >= sockets:
        return False
    for kind in sorted(set(reserve)):
        charges = [j for j in sorted(scarce) if scarce[j] > 0 and kinds_fit(kind, j, variant=variant)]
        for charge in charges + (["socket"] if sockets > 0 else []):
            pools = dict(scarce)
            if charge == "socket":
                left = sockets - 1
            else:
                pools[charge] -= 1
                left = sockets
            child_reserve = list(reserve)
            child_reserve.remove(kind)
            child_accept, child_stock = set(accept), list(stock)
            if kind == KIND_DRAGON:
                left += 5
            else:
                child_accept.update(k for k in range(N_KINDS) if kinds_fit(k, kind, variant=variant))
                pools.pop(kind, None)
            if child_stock:
                child_reserve.append(child_stock.pop(0))
            if _pooled_finish(variant, child_accept, pools, left, child_reserve, child_stock, failed):
                return True
    failed[key] = max(failed.get(key, -1), sockets)
    return False
