"""Seeded test positions: random lines from the start, and endgames where one
side's exchange is nearly done and the rest is scattered.

Used to build the test sets: the pure-Python reference proves each endgame's
result at small depth and the compiled solver must agree; the compiled move
generator must agree with the reference along the random lines.

>>> from solver.boundary.notation import format_position
>>> format_position(endgame(3)) == format_position(endgame(3))
True
>>> len(list(random_line(1, 5)))
5
"""
from __future__ import annotations

from typing import Iterator, Tuple

from solver.boundary.notation import check_position
from solver.boundary.rules import BASES, N_SQUARES, WIN_STACKS, Move, Position, canonical, owner
from solver.errors import InputError
from solver.rng import SplitMix64, check_seed


def random_line(seed: int, plies: int) -> Iterator[Tuple[Position, Move]]:
    """(position, move drawn) along a seeded random game, in the reference engine:
    ``SplitMix64(seed).below(n)`` indexes the legal moves in canonical order.
    It stops early at a position without a move (repetitions are not checked)."""
    rng = SplitMix64(check_seed(seed))
    pos = Position.start()
    for _ in range(plies):
        moves = canonical(pos.legal_moves())
        if not moves:
            return
        move = moves[rng.below(len(moves))]
        yield pos, move
        pos = pos.clone()
        pos.apply(move)


def endgame(seed: int) -> Position:
    """A legal-looking position drawn with SplitMix64(seed) (retries until valid).

    One player (the "hero") has both trees on their target bases except the
    top one or two pyramids of one tree, which stand on random squares; the
    other player's pyramids and all stones are placed at random.
    """
    rng = SplitMix64(check_seed(seed))
    while True:
        hero = rng.below(2)
        stacks = [[] for _ in range(N_SQUARES)]
        loose = []
        for sq, want in WIN_STACKS[hero].items():
            stacks[sq] = list(want)
        target = list(WIN_STACKS[hero])[rng.below(2)]
        for _ in range(1 + rng.below(2)):
            loose.append(stacks[target].pop())
        loose += [p for p in range(12) if owner(p) != hero]
        forbidden = set(BASES[0]) | set(BASES[1])
        for p in loose:
            free = [s for s in range(N_SQUARES) if not stacks[s] and s not in forbidden]
            stacks[free[rng.below(len(free))]].append(p)
        stones = {}
        for pl in (0, 1):
            for w in (0, 1):
                free = [s for s in range(N_SQUARES) if not stacks[s] and s not in stones
                        and (s % 6 < 3) == (w == 0) and s not in BASES[1 - pl]]
                stones[free[rng.below(len(free))]] = pl
        pos = Position(stacks, stones, rng.below(2))
        try:
            check_position(pos)
        except InputError:
            continue
        return pos
