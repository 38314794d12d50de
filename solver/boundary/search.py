"""Drives the compiled solver and perft; turns their output into verdicts.

:func:`solve` is the endgame solver as the contract answers it (a
:class:`~solver.game.Result`): ``won`` in N plies with the fastest win,
``lost`` in N plies with the longest defence, ``draw`` when every line ends in
a win, a loss or a repetition and neither side can force a win, or
``unknown`` naming the limit that stopped it (``nodes``, ``time`` or
``memory``), always from the side to move's view.  :func:`solve_position` is
the kernel's own dict (``result`` win/loss/draw/unknown, ``limit`` depth/time/
nodes), kept for the kernel's tests.

>>> from solver.game import Limits
>>> from solver.boundary.notation import START
>>> r = solve(START, limits=Limits(node_limit=1000), max_depth=2)
>>> r.verdict, r.limit, r.fields["depth"], r.fields["max_depth"]
('unknown', 'nodes', 2, 2)
>>> solve_position(START, max_depth=2)["result"]
'unknown'
>>> perft_position(START, depth=2)["nodes"]
1820
"""
from __future__ import annotations

import time
from typing import Dict, List, Optional, Union

from solver.cext.boundary import Board, _solve_dfpn
from solver.boundary.notation import format_move, format_position, parse_position
from solver.boundary.rules import Position
from solver.errors import InputError
from solver.game import Limits, Result

MAX_DEPTH = 118
"""The deepest iteration the kernel takes (its MAXPLY - 2)."""
DEFAULT_DEPTH = 40
DEFAULT_TT_MB = 64
DEFAULT_LIMITS = Limits(node_limit=None, time_limit=60.0, table_mb=DEFAULT_TT_MB)
"""What :func:`solve` spends where the caller says nothing: 60 s, a 64 MiB table, no node limit."""

_VERDICT = {"win": "won", "loss": "lost", "draw": "draw", "unknown": "unknown"}


def _position(position: Union[str, Position]) -> Position:
    return parse_position(position) if isinstance(position, str) else position


DFPN_LEAF = 7
"""df-pn hands questions of at most this many plies to the alpha-beta search (measured
best of 0, 3, 5, 7 and 9 on the record: docs/boundary.md, "Proof-number search")."""
DFPN_EPS = 0.25


def _kernel_search(pos: Position, *, max_depth: int, node_limit: int, time_limit: float,
                   tt_mb: int, dfpn: bool = False) -> dict:
    """One run of the compiled iterative deepening (0 = no node or time limit), of
    alpha-beta questions or (``dfpn``) of df-pn questions, which never claim a draw."""
    if dfpn:
        return _solve_dfpn(Board.from_position(pos), max_depth, time_limit, node_limit,
                           max(tt_mb, 2), DFPN_LEAF, DFPN_EPS)
    return Board.from_position(pos).search(max_depth=max_depth, time_limit=time_limit,
                                           node_limit=node_limit, tt_mb=tt_mb)


def solve(position: Union[str, Position], *, limits: Optional[Limits] = None,
          max_depth: int = DEFAULT_DEPTH, dfpn: bool = False, holding: int = 0,
          projection: Optional[Dict[int, str]] = None,
          projection_states: int = 200_000) -> Result:
    """Prove the value of ``position`` for the side to move, within ``limits``.

    Limits (None parts take :data:`DEFAULT_LIMITS`): ``node_limit`` bounds the
    positions the kernel visits (checked every 1024 nodes), ``time_limit`` the
    wall time, ``table_mb`` the transposition table (the largest power-of-two
    table that fits, at least 1 MiB; a table that cannot be allocated answers
    ``unknown`` with limit ``memory``).  ``max_depth`` caps the iterative
    deepening; a search that completes that depth without a proof has used the
    work it was given and answers ``unknown`` with limit ``nodes`` (``depth``
    == ``max_depth`` says which).

    ``line``: for a win or a loss, the principal line in notation (the fastest
    win against the longest defence) to the end of the game, each move after
    the first found by solving the position it leads to within what is left of
    the limits (a limit hit there shortens the line, never the verdict); for a
    draw, the root move the proof found; else empty.  ``nodes`` counts all of
    those searches.  Fields: ``plies`` (to the end of the game, win or loss;
    else None), ``depth`` (the last depth completed), ``max_depth`` and
    ``position`` (the position string).

    ``dfpn``: the same questions answered by proof-number search (the root's and the
    line's); it proves wins and losses only, so a draw is answered unknown.

    ``holding``: where the search answers unknown, try a draw proof by closed holding
    sets of at most this many positions for each side (:mod:`solver.boundary.holding`,
    re-checked by the reference rules; outside the time limit: bounded by positions).
    A draw found so has ``line`` the side to move's holding move and field ``holding``
    the two sets' sizes (Red's, Green's); the field is None otherwise.

    ``projection``: {side: region}; where the search answers unknown, that side's half
    of the draw is tried by a projection proof over the region instead
    (:mod:`solver.boundary.projection`, at most ``projection_states`` abstract states,
    re-checked by ``check_projection``); a side without a region needs ``holding``.
    Field ``draw_by`` names each side's proof (``projection`` or ``holding``) of a draw
    found so, and ``holding`` then gives its set's size (held abstract states for a
    projection); None otherwise.
    """
    if isinstance(max_depth, bool) or not isinstance(max_depth, int) or not 1 <= max_depth <= MAX_DEPTH:
        raise InputError(f"depth must be a whole number from 1 to {MAX_DEPTH}, not {max_depth!r}")
    pos = _position(position)
    lim = (limits or Limits()).or_defaults(**DEFAULT_LIMITS.to_dict())
    if lim.table_mb < 1:
        raise InputError(f"the Boundary table needs table_mb >= 1, not {lim.table_mb:g}")
    tt_mb = int(lim.table_mb)
    t0 = time.perf_counter()
    deadline = t0 + lim.time_limit if lim.time_limit else None
    fields = {"plies": None, "depth": 0, "max_depth": max_depth, "position": format_position(pos),
              "holding": None, "draw_by": None}
    try:
        out = _kernel_search(pos, max_depth=max_depth, node_limit=lim.node_limit or 0,
                             time_limit=lim.time_limit or 0.0, tt_mb=tt_mb, dfpn=dfpn)
    except MemoryError:
        return Result("unknown", limit="memory", seconds=time.perf_counter() - t0, fields=fields)
    verdict = _VERDICT[out["result"]]
    nodes = int(out["nodes"])
    fields["depth"] = out["depth"]
    if verdict == "unknown":
        draw = _draw_proof(pos, holding, projection or {}, projection_states)
        if draw is not None:
            fields["holding"], fields["draw_by"] = draw[1], draw[2]
            return Result("draw", nodes=nodes, seconds=time.perf_counter() - t0,
                          line=[format_move(draw[0])], fields=fields)
        limit = {"nodes": "nodes", "time": "time", "depth": "nodes"}[out["limit"]]
        return Result("unknown", limit=limit, nodes=nodes, seconds=time.perf_counter() - t0,
                      fields=fields)
    fields["plies"] = out["plies"] if verdict in ("won", "lost") else None
    line: List[str] = []
    if out["best"] is not None:
        line.append(format_move(out["best"]))
        if verdict in ("won", "lost"):
            nodes += _extend_line(pos, out["best"], verdict, out["plies"], line, lim, tt_mb,
                                  nodes, deadline, max_depth, dfpn)
    return Result(verdict, nodes=nodes, seconds=time.perf_counter() - t0, line=line, fields=fields)


def _draw_proof(pos: Position, cap: int, projection: Dict[int, str], states: int):
    """(the side to move's holding move, [Red's set size, Green's], [Red's proof, Green's])
    when each side is proven never to lose: by a projection over its region in
    ``projection`` (re-checked by ``check_projection``), else by a closed holding set of
    at most ``cap`` positions (re-checked by ``check_holding``); else None.  The two
    halves together prove the draw (docs/boundary.md)."""
    from solver.boundary.holding import check_holding, holding_set
    from solver.boundary.projection import Projection, check_projection, prove_holding
    sizes, kinds, move = [], [], None
    for defender in (0, 1):
        if defender in projection:
            out = prove_holding(pos, defender, projection[defender], max_states=states)
            if out.verdict != "holds" or not check_projection(pos, defender, out.region,
                                                              out.strategy):
                return None
            sizes.append(out.held)
            kinds.append("projection")
            mine = out.strategy.get(Projection(pos, defender, out.region).project(pos))
        elif cap > 0:
            out = holding_set(pos, defender, max_positions=cap)
            if out.verdict != "holds" or not check_holding(pos, defender, out.strategy, cap + 1):
                return None
            sizes.append(out.positions)
            kinds.append("holding")
            mine = out.strategy.get(pos.key())
        else:
            return None
        if defender == pos.side:
            move = mine
    return (move, sizes, kinds) if move is not None else None


def _extend_line(pos: Position, first, verdict: str, plies: int, line: List[str], lim: Limits,
                 tt_mb: int, spent: int, deadline: Optional[float], max_depth: int,
                 dfpn: bool = False) -> int:
    """Append the rest of a proven line to ``line``; the nodes it took.

    Each position is searched past the plies left by twice the larger exchange
    bound (at most to the root's ``max_depth``): a win by leaving the opponent
    without a move is seen only once the horizon passes the exchange bound
    (docs/boundary.md, "A constructed draw").
    """
    child = pos.clone()
    child.apply(first)
    expect = "loss" if verdict == "won" else "win"     # the side to move after ``first``
    nodes = 0
    remaining = plies - 1
    while remaining > 0:
        node_budget = 0
        if lim.node_limit:
            node_budget = lim.node_limit - spent - nodes
            if node_budget <= 0:
                break
        time_budget = 0.0
        if deadline is not None:
            time_budget = deadline - time.perf_counter()
            if time_budget <= 0:
                break
        try:
            bounds = Board.from_position(child)
            depth = min(max_depth, remaining + 2 * max(bounds.exchange_bound(0),
                                                       bounds.exchange_bound(1)))
            sub = _kernel_search(child, max_depth=max(remaining, depth), node_limit=node_budget,
                                 time_limit=time_budget, tt_mb=tt_mb, dfpn=dfpn)
        except MemoryError:
            break
        nodes += int(sub["nodes"])
        if sub["result"] != expect or sub["plies"] != remaining or sub["best"] is None:
            break
        line.append(format_move(sub["best"]))
        child.apply(sub["best"])
        expect = "win" if expect == "loss" else "loss"
        remaining -= 1
    return nodes


def solve_position(position: Union[str, Position], *, max_depth: int = 40,
                   time_limit: float = 0.0, node_limit: int = 0,
                   tt_mb: int = DEFAULT_TT_MB) -> dict:
    """Iterative deepening up to ``max_depth`` plies within the limits.

    The transposition table takes at most ``tt_mb`` megabytes (default 64).
    """
    if not 1 <= max_depth <= MAX_DEPTH:
        raise InputError(f"depth must be between 1 and {MAX_DEPTH}, got {max_depth}")
    if time_limit < 0 or node_limit < 0:
        raise InputError("limits must not be negative")
    if not 1 <= tt_mb <= 1024:
        raise InputError(f"the table size must be 1 to 1024 MB, got {tt_mb}")
    pos = _position(position)
    t0 = time.perf_counter()
    out = Board.from_position(pos).search(max_depth=max_depth, time_limit=time_limit,
                                          node_limit=node_limit, tt_mb=tt_mb)
    out["seconds"] = round(time.perf_counter() - t0, 6)
    out["best"] = None if out["best"] is None else format_move(out["best"])
    out["hold"] = None if out.get("hold") is None else format_move(out["hold"])
    return out


def perft_position(position: Union[str, Position], *, depth: int, divide: bool = False,
                   reference: bool = False) -> dict:
    """Leaf counts for depths 1..``depth`` (compiled, or the pure-Python reference)."""
    if not 0 <= depth <= 12:
        raise InputError(f"perft depth must be between 0 and 12, got {depth}")
    pos = _position(position)
    from solver.boundary import rules
    counts = []
    t0 = time.perf_counter()
    board = Board.from_position(pos)
    for d in range(1, depth + 1):
        counts.append(rules.perft(pos, d) if reference else board.perft(d))
    seconds = time.perf_counter() - t0
    total = sum(counts)
    out = {"depth": depth, "nodes": counts[-1] if counts else 1, "counts": counts,
           "seconds": round(seconds, 6),
           "nodes_per_second": round(total / seconds) if seconds > 0 else None,
           "engine": "reference" if reference else "compiled", "bulk_leaves": not reference}
    if divide and depth >= 1:
        pairs = rules.divide(pos, depth) if reference else board.divide(depth)
        out["divide"] = {format_move(m): n for m, n in pairs}
    return out
