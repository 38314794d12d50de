"""The exchange bound and the engine's evaluation: the pure-Python twins of
``exchange_lb`` and ``evaluate`` in ``cext/boundary_search.pxi``.

Every move moves exactly one pyramid, along a straight line.  So a player
needs at least one move for each of their pyramids that is not yet in its
place, and two for a pyramid that is not on a straight line (any of the 8
directions, any distance) to its target square, or that stands on its target
square out of place (it must leave and come back).  A pyramid is in its place
when it stands on its target square at its level with the right pyramids
below it (the tree is built large, medium, small from the bottom).  The sum
is :func:`exchange_bound`: the player completes the exchange no sooner than
that many of their own moves.

>>> from solver.boundary.rules import Position
>>> start = Position.start()
>>> exchange_bound(start, 0), exchange_bound(start, 1)
(6, 6)
>>> from solver.boundary.notation import parse_position
>>> final = parse_position("Gl+Gm+Gs1r2Rl/4Rm1/4gRs/2Ys3/g1YmBs2/Yl3rBl+Bm r")
>>> exchange_bound(final, 0), exchange_bound(final, 1)
(5, 2)
>>> evaluate(final)
-217
"""
from __future__ import annotations

from typing import Dict

from solver.boundary.rules import N_SQUARES, WIN_STACKS, Position, owner

TARGET: Dict[int, int] = {p: sq for pl in (0, 1) for sq, tree in WIN_STACKS[pl].items() for p in tree}
"""The square each pyramid must end on."""


def on_a_line(a: int, b: int) -> bool:
    """``b`` is reached from ``a`` by a straight line of 1 to 5 steps."""
    df, dr = b % 6 - a % 6, b // 6 - a // 6
    return a != b and (df == 0 or dr == 0 or abs(df) == abs(dr))


def _in_place(pos: Position, player: int) -> Dict[int, int]:
    """For each of ``player``'s target squares, how many pyramids at its bottom are in place."""
    out = {}
    for sq, want in WIN_STACKS[player].items():
        n = 0
        stack = pos.stacks[sq]
        while n < min(len(stack), 3) and stack[n] == want[n]:
            n += 1
        out[sq] = n
    return out


def pyramid_cost(pos: Position, square: int, level: int) -> int:
    """Fewest moves the pyramid on ``square`` at ``level`` needs to reach its place."""
    p = pos.stacks[square][level]
    target = TARGET[p]
    if square == target:
        return 0 if level < _in_place(pos, owner(p))[target] else 2
    return 1 if on_a_line(square, target) else 2


def exchange_bound(pos: Position, player: int) -> int:
    """Fewest moves ``player`` needs to complete the exchange (0 once complete)."""
    return sum(pyramid_cost(pos, s, h) for s in range(N_SQUARES)
               for h, p in enumerate(pos.stacks[s]) if owner(p) == player)


def move_delta(pos: Position, move) -> int:
    """How much ``move`` changes the mover's exchange bound (-1, 0 or more).  The proof
    search generates only the moves with a negative delta where the mover has no move
    to spare (the kernel's ``improving_moves``)."""
    child = pos.clone()
    child.apply(move)
    return exchange_bound(child, pos.side) - exchange_bound(pos, pos.side)


def blockers(pos: Position, player: int) -> int:
    """Pyramids standing above the part in place on ``player``'s target squares."""
    return sum(len(pos.stacks[sq]) - n for sq, n in _in_place(pos, player).items())


def blocked_lines(pos: Position, player: int) -> int:
    """``player``'s top pyramids one straight move from their target square whose line
    (the squares between) is not empty."""
    n = 0
    for s, stack in enumerate(pos.stacks):
        if stack and owner(stack[-1]) == player:
            t = TARGET[stack[-1]]
            if s != t and on_a_line(s, t) and any(not pos.empty(q) for q in between(s, t)):
                n += 1
    return n


def between(a: int, b: int) -> list:
    """The squares strictly between two squares on a straight line."""
    df, dr = b % 6 - a % 6, b // 6 - a // 6
    steps = max(abs(df), abs(dr))
    step = (df // steps if df else 0) + 6 * (dr // steps if dr else 0)
    return [a + step * k for k in range(1, steps)]


def work(pos: Position, player: int) -> int:
    """The engine's estimate of ``player``'s work left, in half moves: twice the exchange
    bound, twice the pyramids blocking a target square (the bound alone does not see
    clearing a base as progress: the pyramid that leaves stays one move from its own
    place), and one for every top pyramid on a blocked line to its target."""
    return 2 * (exchange_bound(pos, player) + blockers(pos, player)) + blocked_lines(pos, player)


def evaluate(pos: Position) -> int:
    """The engine's score of ``pos`` for the side to move X against the other side Y:
    ``50 * (work(Y) - work(X)) + 50 + moves(X) - moves(Y)``.  The side to move
    has a move in hand: the 50; the legal-move difference breaks ties towards freedom."""
    me = pos.side
    other = pos.clone()
    other.side = 1 - me
    return 50 * (work(pos, 1 - me) - work(pos, me)) + 50 + _count(pos) - _count(other)


def _count(pos: Position) -> int:
    """Legal moves of the side to move, whether or not a game is won (as the kernel counts)."""
    return sum(1 for m in pos.pseudo_moves() if pos._keeps_two_per_world(m))


def completing_paths(pos: Position) -> list:
    """For the side NOT to move (Y): for every legal move of Y that completes Y's
    exchange, the squares it needs empty (the stone's path and landing, the pyramid's
    path) as a bit mask; sorted.  (A move of the side to move that occupies none of one
    such mask leaves Y that win: the threat-first cut.)"""
    other = pos.clone()
    other.side = 1 - pos.side
    out = []
    for m in other.pseudo_moves():
        if not other._keeps_two_per_world(m):
            continue
        child = other.clone()
        child.apply(m)
        if not child.has_won(other.side):
            continue
        s0, s1, p0, p1 = m
        squares = between(p0, p1)
        if s0 is not None:
            squares += between(s0, s1) + [s1]
        out.append(sum(1 << q for q in set(squares)))
    return sorted(out)
