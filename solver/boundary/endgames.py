"""Seeded endgame positions: one side's exchange nearly done, the rest scattered.

Used to build the solver's test set: the pure-Python reference proves each
position's result at small depth and the compiled solver must agree.  (Random
lines from the start are :func:`solver.boundary.rules.random_line`.)

>>> from solver.boundary.notation import format_position
>>> format_position(endgame(3)) == format_position(endgame(3))
True
"""
from __future__ import annotations

from solver.boundary.notation import check_position
from solver.boundary.rules import BASES, N_SQUARES, WIN_STACKS, Position, owner
from solver.errors import InputError
from solver.rng import SplitMix64, check_seed


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
