"""The exchange puzzle's exact minimum, driven through the compiled A*.

:func:`solve_puzzle` returns a :class:`PuzzleResult` whose ``verdict`` is the
puzzle's own word: ``solved`` (with an optimal plan), ``impossible`` (every
reachable row was expanded: no exchange exists), or ``unknown`` (a limit ran
out; ``limit`` names it: ``nodes``, ``time`` or ``memory``).
:meth:`PuzzleResult.to_result` gives the contract's answer (won / lost /
unknown).  The reference twin is :mod:`solver.continuum.puzzle`.

>>> r = solve_puzzle(start_row(), player="A", cost="pips")
>>> r.verdict, r.pips, r.moves
('solved', 30, 13)
>>> r.to_result().verdict
'won'
>>> solve_puzzle(start_row(), player="A", limits=Limits(node_limit=1000)).limit
'nodes'
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import List, Optional

from solver.cext import continuum as _c
from solver.continuum.codec import code_move, key_row, row_key
from solver.continuum.pieces import PLAYER_COLOURS, check_player, own_pyramids, pyramid_name
from solver.continuum.puzzle import bound_mode, check_cost
from solver.continuum.rules import Move, Row, start_row, three_per_side
from solver.errors import InputError
from solver.game import Limits, Result

DEFAULT_NODE_LIMIT = 5_000_000
#: MiB for the state table: 2,097,152 rows (today's 2 million), 117 MiB
DEFAULT_TABLE_MB = 128
DEFAULT_LIMITS = Limits(node_limit=DEFAULT_NODE_LIMIT, table_mb=DEFAULT_TABLE_MB)
#: bytes a slot of the kernel's state table takes (key 8, cost 8, parent 4,
#: move 4, used-list 4); the table has a power of two of slots, at least 2 a row
SLOT_BYTES = 28
#: first node budget of the rounds run under a time limit
FIRST_ROUND = 5_000
#: the kernel's reasons to stop, in the contract's limit names
KERNEL_LIMITS = {"max_nodes": "nodes", "max_states": "memory", "heap": "memory"}


def mask(ids) -> int:
    m = 0
    for i in ids:
        m |= 1 << i
    return m


def table_states(table_mb: float) -> int:
    """Rows the state table may hold within ``table_mb`` MiB: the kernel's table
    has the smallest power of two of slots at least twice the rows, 28 bytes a
    slot.  (The open list grows apart from it, up to 16 entries a row.)

    >>> table_states(128)
    2097152
    """
    slots = 1
    while slots * 2 * SLOT_BYTES <= table_mb * 2 ** 20:
        slots *= 2
    return max(1, slots // 2)


@dataclass
class PuzzleResult:
    player: str
    cost: str
    kings: bool
    verdict: str                      # solved | impossible | unknown
    pips: Optional[int] = None
    moves: Optional[int] = None
    plan: List[Move] = field(default_factory=list)
    rows: List[Row] = field(default_factory=list)   # the row after each plan move
    nodes: int = 0
    states: int = 0
    limit: Optional[str] = None       # nodes | time | memory when unknown
    seconds: float = 0.0
    max_step: int = 6
    row: Optional[Row] = None         # the start row

    def fields(self) -> dict:
        """The puzzle's own keys, present whatever the verdict (None where they do not apply)."""
        return {"player": self.player, "cost": self.cost, "kings": self.kings, "max_step": self.max_step,
                "row": self.row.text() if self.row is not None else None,
                "pips": self.pips, "moves": self.moves, "states": self.states}

    def to_result(self) -> Result:
        """The contract's answer: ``won`` (solved: the minimum found and proved),
        ``lost`` (impossible: all reachable rows searched) or ``unknown`` with
        its limit; ``line`` is the plan."""
        verdict = {"solved": "won", "impossible": "lost"}.get(self.verdict, "unknown")
        return Result(verdict, limit=self.limit if verdict == "unknown" else None, nodes=self.nodes,
                      seconds=self.seconds, line=[m.text() for m in self.plan], fields=self.fields())


def check_puzzle_row(row: Row, player: str) -> None:
    if not three_per_side(row, player):
        raise InputError(f"player {player} must have exactly 3 pyramids on each side of the continuum")


def _astar(args, node_limit: int, max_states: int, time_limit: Optional[float], t0: float):
    """The kernel's A* under the limits.  The kernel has no clock: under a time
    limit it runs in rounds of growing node budgets (5,000, then doubling, each
    capped by what the last round's rate allows in the time left), and the
    clock is read between rounds.  A* is deterministic, so a round that ends
    answers exactly as one long search would; ``nodes`` is that last round's."""
    if time_limit is None:
        return _c.astar(*args[:6], node_limit, max_states, *args[6:])
    budget = min(node_limit, FIRST_ROUND)
    while True:
        started = time.perf_counter()
        out = _c.astar(*args[:6], budget, max_states, *args[6:])
        if out[0] != "limit" or out[1] != "max_nodes" or budget >= node_limit:
            return out
        now = time.perf_counter()
        left = t0 + time_limit - now
        fit = int(out[5] / max(now - started, 1e-6) * left)
        if left <= 0 or fit <= budget:
            return out[:1] + ("time",) + out[2:]
        budget = min(node_limit, 2 * budget, fit)


def solve_puzzle(row: Row, *, player: str, cost: str = "pips", kings: bool = False,
                 max_step: int = 6, limits: Optional[Limits] = None) -> PuzzleResult:
    """Minimum pips (or moves) for ``player`` to exchange both trees from ``row``.

    ``max_step`` skips moves dearer than that many pips: 5 gives the minimum
    the full game can play (no card is worth 6, so no large-large switch).
    ``limits``: ``node_limit`` caps the A*'s expansions, ``table_mb`` its state
    table (see :func:`table_states`), ``time_limit`` its wall time; None takes
    :data:`DEFAULT_LIMITS` (5 million expansions, 128 MiB, no time limit)."""
    player = check_player(player)
    check_cost(cost)
    check_puzzle_row(row, player)
    if isinstance(max_step, bool) or not isinstance(max_step, int) or not 1 <= max_step <= 6:
        raise InputError(f"max_step must be 1-6 (a move costs at most 6 pips), not {max_step!r}")
    limits = (limits or Limits()).or_defaults(**DEFAULT_LIMITS.to_dict())
    t0 = time.perf_counter()
    args = (row_key(row), mask(own_pyramids(player)), mask(PLAYER_COLOURS[player]),
            bound_mode(cost, kings), cost == "moves", kings, max_step)
    status, limit, pips, moves, path, nodes, states = _astar(
        args, limits.node_limit, table_states(limits.table_mb), limits.time_limit, t0)
    res = PuzzleResult(player, cost, kings, "unknown", max_step=max_step, nodes=nodes, states=states,
                       limit=KERNEL_LIMITS.get(limit, limit), row=row,
                       seconds=time.perf_counter() - t0)
    if status == "found":
        res.verdict, res.pips, res.moves = "solved", pips, moves
        res.plan = [code_move(c) for _, c in path]
        res.rows = [key_row(k) for k, _ in path]
    elif status == "exhausted":
        res.verdict = "impossible"
    return res


def describe_limit(res: PuzzleResult) -> str:
    return {"nodes": "the node limit", "memory": "the state-table limit (--table-mb)",
            "time": "the time limit"}.get(res.limit or "", "a limit")


__all__ = ["PuzzleResult", "solve_puzzle", "start_row", "pyramid_name"]
