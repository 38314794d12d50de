"""Order-2 threats: the pure-Python twin of the proof search's zone cut (``OPT_ZONE``).

Threat first handles the side not to move, Y, one move from completing its exchange.
One step further: Y two moves from it (exchange bound 2) may have a *plan*, a move after
which, were it Y's turn again, Y completes next move whatever the side to move X does
(X can neither land on a square every completing move needs empty nor complete its own
exchange).  A move ``x`` of X after which the plan is still legal and still leaves X
without a defence loses within 4 plies (``x``, the plan, any reply, the completion),
so at a node asking "does X lose within 4 or more?" the search lets ``x`` fail low
without searching it.  The search also leaves to the ordinary search every ``x`` after
which X's own bound is 1 (X might complete in reply to the plan), so the definition of
:func:`refutes` includes that rule.

Everything here is decided by playing the moves with the reference rules
(:mod:`solver.boundary.rules`, :func:`solver.boundary.bound.completing_paths`).  The
kernel plays ``x`` and the plan and asks threat first's question, except where the plan
prepares a completing move that needs no square empty (a small pyramid one step from
its place, nearly always the case): nothing can stop that one, so a move is refuted
unless it fills a square the plan needs or lowers X's bound below 2, and the kernel
generates only those.  ``tests/test_boundary_zone.py`` checks every move it refutes
against :func:`refutes`.
A move that lands on none of a completing move's needed squares leaves that completing
move legal (it only fills the squares it lands on), which is all :func:`defended` uses.
"""
from __future__ import annotations

from typing import List

from solver.boundary.bound import completing_paths, exchange_bound
from solver.boundary.rules import BASES, Move, Position


def _landed(move: Move) -> int:
    """The squares ``move`` fills: its pyramid's landing and its stone's, as a mask."""
    s0, s1, _p0, p1 = move
    return (1 << p1) | ((1 << s1) if s0 is not None else 0)


def defended(pos: Position) -> bool:
    """The side to move X can answer the other side Y's completion next move: Y has none,
    or X has a move landing on a needed square of every one of Y's completing moves, or
    a move completing X's own exchange."""
    paths = completing_paths(pos)
    if not paths:
        return True
    me = pos.side
    for m in pos.legal_moves():
        if all(_landed(m) & p for p in paths):
            return True
        if m[3] in BASES[me]:
            child = pos.clone()
            child.apply(m)
            if child.has_won(me):
                return True
    return False


def plans(pos: Position) -> List[Move]:
    """Y's plans at ``pos`` (Y the side not to move, with exchange bound 2): the moves of
    Y after which X, to move, is not :func:`defended`.  Empty unless Y's bound is 2."""
    if pos.winner() is not None or exchange_bound(pos, 1 - pos.side) != 2:
        return []
    turn = pos.clone()
    turn.side = 1 - pos.side
    out = []
    for m in turn.legal_moves():
        after = turn.clone()
        after.apply(m)
        if not defended(after):
            out.append(m)
    return out


def refutes(pos: Position, plan: Move, x: Move) -> bool:
    """After X's legal move ``x`` the plan is legal, X has not won, X's bound is at least
    2, and after the plan X is not :func:`defended`: ``x`` loses within 4 plies."""
    me = pos.side
    child = pos.clone()
    child.apply(x)
    if child.has_won(me) or exchange_bound(child, me) < 2:
        return False
    if plan not in child.legal_moves():
        return False
    child.apply(plan)
    return not defended(child)
