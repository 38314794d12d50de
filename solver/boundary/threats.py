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

Order 3 (``OPT_ZONE3``): Y three moves from its exchange may have a move m1 after which,
were it Y's turn again, Y has *plans* (moves to bound 1 after which a completing move
needs no square empty) that no single move of X can all stop (:func:`unhittable`: a
move fills at most two squares).  A move ``x`` of X that leaves m1 legal and still such a
threat, and X's bound at 3 or more, loses within 6 plies (:func:`refutes3`); the kernel's
``order3_cut`` must refute only such moves.
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


# -- order 3 (``OPT_ZONE3``) ---------------------------------------------------------------

def needs(move: Move, player: int) -> int:
    """The squares ``move`` of ``player`` needs free (its stone's path and landing, its
    pyramid's path and landing), ``player``'s bases left out: the other side never lands
    there, so only the others can be filled to make ``move`` illegal."""
    from solver.boundary.bound import between
    s0, s1, p0, p1 = move
    squares = set(between(p0, p1)) | {p1}
    if s0 is not None:
        squares |= set(between(s0, s1)) | {s1}
    return sum(1 << q for q in squares if q not in BASES[player])


def robust_plans(pos: Position) -> List[int]:
    """The side to move Y, exchange bound 2: for each move of Y after which Y's bound is 1
    and Y has a completing move needing no square empty (nothing can stop it), the squares
    the move needs (:func:`needs`)."""
    y = pos.side
    out = []
    for m in pos.legal_moves():
        after = pos.clone()
        after.apply(m)
        if exchange_bound(after, y) == 1 and 0 in completing_paths(after):
            out.append(needs(m, y))
    return out


def unhittable(plans: List[int]) -> bool:
    """At least one plan, and no move (it fills at most two squares: its pyramid's and its
    stone's landing) meets every plan's squares: no two squares do."""
    if not plans:
        return False
    if 0 in plans:
        return True
    squares = [q for q in range(36) if any(p >> q & 1 for p in plans)]
    for i, a in enumerate(squares):
        for b in squares[i:]:
            pair = (1 << a) | (1 << b)
            if all(p & pair for p in plans):
                return False
    return True


def threat3(pos: Position, m1: Move) -> bool:
    """With the side to move X, Y's move ``m1`` (legal for Y here) is an order-3 threat: after
    it Y's bound is 2 and, were it Y's turn again, Y's :func:`robust_plans` are
    :func:`unhittable`."""
    turn = pos.clone()
    turn.side = 1 - pos.side
    turn.apply(m1)
    if exchange_bound(turn, 1 - pos.side) != 2:
        return False
    turn.side = 1 - pos.side
    return unhittable(robust_plans(turn))


def refutes3(pos: Position, m1: Move, x: Move) -> bool:
    """After X's legal move ``x``: X's bound is at least 3 (X cannot complete in its next two
    moves), Y's ``m1`` is legal and is still an order-3 threat (:func:`threat3`, in the
    position after ``x``).  Then ``x`` loses within 6 plies: after m1 and any reply of X a
    plan is left (X's move fills at most two squares), and after it nothing stops the
    completion."""
    child = pos.clone()
    child.apply(x)                               # Y to move
    if exchange_bound(child, pos.side) < 3 or m1 not in child.legal_moves():
        return False
    child.side = pos.side                        # threat3 takes X to move
    return threat3(child, m1)

