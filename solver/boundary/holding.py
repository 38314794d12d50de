"""Draw proofs by a closed holding set (docs/boundary.md, "What 6 and 10-12 back are").

A *holding set* for a defender D is a set S of positions containing the root such
that no position of S is won by the attacker A, in every D-to-move position of S the
strategy names a legal move whose position is in S, and in every A-to-move position
of S every legal move of A leads to a position of S (or completes nothing and D's
exchange: D has won).  Then D never loses from the root, whatever the history
before it: A wins only by completing its exchange (no position of S is such a win)
or by leaving D without a move (D always has the strategy's move); every play that
follows the strategy stays in the finite set S, so either D completes its exchange or
a position occurs a third time (a draw, rules/boundary.md).  A holding set for each
side from the same root proves the root a **draw**.

:func:`holding_set` builds one: breadth-first over the positions reachable when D
plays its strategy and A plays every move, D's move chosen when a D-to-move position
is first met: a move to a position already in S first (it closes a cycle and adds
nothing), else the first in generation order after which A does not win within
``safety`` plies (the proof search's question).  There is no backtracking: a
D-to-move position with no such move, or more than ``max_positions`` positions,
answers ``unknown`` (the strategy failed, not D).  The enumeration uses the compiled
generator and 64-bit hashes; :func:`check_holding` re-checks the strategy with the
reference rules alone, keeping whole positions (no hash is trusted), so a collision
in the enumeration cannot make a false proof.

>>> from solver.boundary.notation import parse_position
>>> drawn = parse_position("6/6/1Gm2Rm1/rGl2Rlg/gBm2Ymr/Rs+YsBl2YlGs+Bs r")
>>> out = holding_set(drawn, 0)
>>> out.verdict, out.positions, check_holding(drawn, 0, out.strategy)
('holds', 4, True)
"""
from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterator, List, Optional, Tuple

from solver.boundary.rules import Move, Position
from solver.cext.boundary import Board

MATE = 10000


@dataclass
class Holding:
    """``verdict`` 'holds' (a closed set was built) or 'unknown' (``limit``: 'positions',
    'time' or 'strategy'); ``strategy`` maps the hash of each D-to-move position of S to
    D's move; ``positions`` counts S."""

    verdict: str
    defender: int
    positions: int
    strategy: Dict[int, Move] = field(default_factory=dict)
    limit: Optional[str] = None
    seconds: float = 0.0
    failed_at: Optional[Position] = None
    layers: List[int] = field(default_factory=list)   # new positions by plies from the root


def _attacker_wins_within(board: Board, plies: int) -> bool:
    """The side to move in ``board`` (the attacker) wins within ``plies`` (odd): the
    proof search's null-window question, answered only yes or not-proven."""
    if plies <= 0:
        return False
    out = board.search(max_depth=plies, tt_mb=1)
    return out["result"] == "win"


def holding_set(position: Position, defender: int, *, safety: int = 3,
                max_positions: int = 200_000, time_limit: float = 0.0) -> Holding:
    """A holding set for ``defender`` from ``position`` (module docstring)."""
    t0 = time.process_time()
    root = Board.from_position(position)
    attacker = 1 - defender
    if root.winner() == attacker:
        return Holding("unknown", defender, 0, limit="strategy", failed_at=position)
    seen = {root.hash}
    strategy: Dict[int, Move] = {}
    todo = deque([(root, 0)])
    layers = [1]

    def add(key, board, move, ply):
        seen.add(key)
        todo.append((board.after(move), ply + 1))
        if len(layers) <= ply + 1:
            layers.append(0)
        layers[ply + 1] += 1

    def stop(limit, at=None):
        return Holding("unknown", defender, len(seen), strategy, limit,
                       time.process_time() - t0, at, layers)

    while todo:
        if time_limit and time.process_time() - t0 > time_limit:
            return stop("time")
        board, ply = todo.popleft()
        if board.winner() is not None:          # the defender completed its exchange
            continue
        kids = board.children()
        if board.side == attacker:
            for move, key, won in kids:
                if won:
                    return stop("strategy", _position(board))
                if key not in seen:
                    add(key, board, move, ply)
        else:
            choice = next(((m, k) for m, k, won in kids if won or k in seen), None)
            if choice is None:
                for move, key, _won in kids:
                    if not _attacker_wins_within(board.after(move), safety):
                        choice = (move, key)
                        break
            if choice is None:
                return stop("strategy", _position(board))
            strategy[board.hash] = choice[0]
            if choice[1] not in seen:
                add(choice[1], board, choice[0], ply)
        if len(seen) > max_positions:
            return stop("positions")
    return Holding("holds", defender, len(seen), strategy, None, time.process_time() - t0,
                   None, layers)


def _position(board: Board) -> Position:
    return Position(board.stacks(), board.stones(), board.side)


class TooMany(Exception):
    """:func:`walk` passed its cap of positions."""


def walk(position: Position, defender: int, move_of: Callable[[Position], Optional[Move]],
         max_positions: int) -> Iterator[Tuple[Position, Optional[Move]]]:
    """Every position reachable from ``position`` when ``defender`` plays
    ``move_of(pos)`` and the attacker anything, by the reference rules, whole
    positions kept: ``(pos, the defender's move there or None)``.  A won position,
    or a defender's with no move or an illegal one, is yielded and not gone past;
    :class:`TooMany` is raised past ``max_positions``."""
    seen = {position}
    todo = deque([position])
    while todo:
        pos = todo.popleft()
        if pos.winner() is not None:
            yield pos, None
            continue
        if pos.side == defender:
            move = move_of(pos)
            yield pos, move
            if move is None or move not in pos.legal_moves():
                continue
            children = [pos.play(move)]
        else:
            yield pos, None
            children = [pos.play(m) for m in pos.legal_moves()]
        for child in children:
            if child not in seen:
                if len(seen) >= max_positions:
                    raise TooMany(max_positions)
                seen.add(child)
                todo.append(child)


def check_holding(position: Position, defender: int, strategy: Dict[int, Move],
                  max_positions: int = 1_000_000) -> bool:
    """The strategy keeps ``defender`` from losing from ``position``: by the reference
    rules alone, every position reachable when the defender plays ``strategy`` and the
    attacker anything is checked (whole positions kept: a hash only finds the move)."""
    try:
        for pos, move in walk(position, defender, lambda p: strategy.get(p.key()), max_positions):
            winner = pos.winner()
            if winner is not None and winner != defender:
                return False
            if winner is None and pos.side == defender and (move is None or move not in pos.legal_moves()):
                return False
    except TooMany:
        return False
    return True
