"""Boundary: the readable pure-Python reference of rules/boundary.md.

This module is the spec in code.  ``cext/boundary.pyx`` is the compiled twin;
``tests/test_boundary_fast_vs_reference.py`` holds the two together.

Squares are numbered ``rank * 6 + file`` (a1 = 0, f1 = 5, a6 = 30, f6 = 35).
Files a-c are the West world, d-f the East world.  A pyramid is a number
0-11: ``colour * 3 + size - 1`` with colours red, yellow (Red's trees), green,
blue (Green's trees) and sizes 1 small, 2 medium, 3 large.

A move is a tuple ``(stone_from, stone_to, pyr_from, pyr_to)``; the stone
squares are ``None`` for a pyramid move alone.

>>> pos = Position.start()
>>> len(pos.legal_moves())
42
>>> pos.play((14, 12, 0, 14)).stacks[14]      # (c3-a3)(a1-c3): the small red
[0]
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from solver.rng import SplitMix64

RED, GREEN = 0, 1
PLAYER_NAMES = ("Red", "Green")
COLOURS = ("red", "yellow", "green", "blue")
COLOUR_LETTERS = "RYGB"
SIZE_LETTERS = "sml"
N_PYRAMIDS = 12
N_SQUARES = 36
WEST, EAST = 0, 1

A1, F1, A6, F6 = 0, 5, 30, 35
BASES = {RED: (A1, F6), GREEN: (F1, A6)}
"""A player's two bases: the squares where that player's trees start."""

DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
"""(file step, rank step) for E, NE, N, NW, W, SW, S, SE."""

Move = Tuple[Optional[int], Optional[int], int, int]


def owner(pyramid: int) -> int:
    """Red owns red and yellow (0-5), Green owns green and blue (6-11)."""
    return pyramid // 6


def size(pyramid: int) -> int:
    return pyramid % 3 + 1


def colour(pyramid: int) -> int:
    return pyramid // 3


def world(square: int) -> int:
    """WEST for files a-c, EAST for files d-f."""
    return WEST if square % 6 < 3 else EAST


def tree(colour_index: int) -> List[int]:
    """A whole tree as a stack, bottom to top: large, medium, small."""
    return [colour_index * 3 + 2, colour_index * 3 + 1, colour_index * 3]


WIN_STACKS = {
    RED: {F6: tree(0), A1: tree(1)},     # red tree on f6, yellow tree on a1
    GREEN: {A6: tree(2), F1: tree(3)},   # green tree on a6, blue tree on f1
}


def ray(square: int, direction: int, steps: int) -> Optional[List[int]]:
    """The squares passed and reached by ``steps`` steps, or None off the board."""
    df, dr = DIRECTIONS[direction]
    f, r = square % 6, square // 6
    out = []
    for _ in range(steps):
        f, r = f + df, r + dr
        if not (0 <= f < 6 and 0 <= r < 6):
            return None
        out.append(r * 6 + f)
    return out


def _zobrist() -> Tuple[List[List[List[int]]], List[List[int]], int]:
    """Keys from the shared SplitMix64, seed 0x426F756E64617279 ("Boundary").

    Order: pyramid p, square s, stack level h (6 levels); then stone keys for
    player, square; then the side-to-move key.  The compiled engine draws the
    same numbers in the same order, so hashes agree bit for bit.
    """
    rng = SplitMix64(0x426F756E64617279)
    pyr = [[[rng.next() for _h in range(6)] for _s in range(N_SQUARES)] for _p in range(N_PYRAMIDS)]
    stone = [[rng.next() for _s in range(N_SQUARES)] for _pl in range(2)]
    return pyr, stone, rng.next()


ZOBRIST_PYRAMID, ZOBRIST_STONE, ZOBRIST_SIDE = _zobrist()


class Position:
    """A mutable position: stacks (bottom to top) per square, stones, side to move.

    ``stones[s]`` is the owner of the stone on square ``s``.  Nothing here
    validates a position; :mod:`solver.boundary.notation` does that on input.
    """

    __slots__ = ("stacks", "stones", "side")

    def __init__(self, stacks: List[List[int]], stones: Dict[int, int], side: int) -> None:
        self.stacks = stacks
        self.stones = stones
        self.side = side

    @classmethod
    def start(cls) -> "Position":
        stacks: List[List[int]] = [[] for _ in range(N_SQUARES)]
        stacks[A1], stacks[F6], stacks[F1], stacks[A6] = tree(0), tree(1), tree(2), tree(3)
        stones = {14: RED, 21: RED, 20: GREEN, 15: GREEN}   # c3, d4 / c4, d3
        return cls(stacks, stones, RED)

    def clone(self) -> "Position":
        return Position([list(s) for s in self.stacks], dict(self.stones), self.side)

    def __eq__(self, other) -> bool:
        return (isinstance(other, Position) and self.stacks == other.stacks
                and self.stones == other.stones and self.side == other.side)

    def __hash__(self) -> int:
        return self.key()

    def key(self) -> int:
        """The Zobrist hash (same value as the compiled engine's ``hash``)."""
        h = 0
        for s, stack in enumerate(self.stacks):
            for level, p in enumerate(stack):
                h ^= ZOBRIST_PYRAMID[p][s][level]
        for s, pl in self.stones.items():
            h ^= ZOBRIST_STONE[pl][s]
        if self.side == GREEN:
            h ^= ZOBRIST_SIDE
        return h

    # -- the rules ---------------------------------------------------------

    def empty(self, square: int) -> bool:
        return not self.stacks[square] and square not in self.stones

    def world_counts(self, player: int) -> List[int]:
        """How many of ``player``'s pyramids stand in West and in East."""
        counts = [0, 0]
        for s, stack in enumerate(self.stacks):
            counts[world(s)] += sum(1 for p in stack if owner(p) == player)
        return counts

    def can_land(self, square: int, player: int) -> bool:
        """A pyramid of ``player`` may end on ``square``: empty and not an opponent's
        base, or one of the player's own bases holding no stone (it stacks there)."""
        if square in BASES[1 - player]:
            return False
        if square in BASES[player]:
            return square not in self.stones
        return self.empty(square)

    def pyramid_targets(self, start: int, steps: int, *, may_cross: bool) -> List[int]:
        """Squares a top pyramid on ``start`` reaches in exactly ``steps`` steps."""
        player = owner(self.stacks[start][-1])
        out = []
        for d in range(8):
            line = ray(start, d, steps)
            if line is None:
                continue
            if not may_cross and any(world(s) != world(start) for s in line):
                continue
            if all(self.empty(s) for s in line[:-1]) and self.can_land(line[-1], player):
                out.append(line[-1])
        return out

    def stone_targets(self, start: int) -> List[int]:
        """(square, distance) pairs a stone on ``start`` can reach, inside its world."""
        player = self.stones[start]
        out = []
        for d in range(8):
            for steps in range(1, 6):
                line = ray(start, d, steps)
                if line is None or world(line[-1]) != world(start):
                    break
                if not self.empty(line[-1]):
                    break
                if line[-1] not in BASES[1 - player]:
                    out.append((line[-1], steps))
        return out

    def pseudo_moves(self) -> List[Move]:
        """Every move before the two-per-world rule is checked."""
        me = self.side
        tops = [s for s, st in enumerate(self.stacks) if st and owner(st[-1]) == me]
        moves: List[Move] = []
        for s in tops:
            for t in self.pyramid_targets(s, size(self.stacks[s][-1]), may_cross=False):
                moves.append((None, None, s, t))
        for s0 in sorted(sq for sq, pl in self.stones.items() if pl == me):
            for s1, steps in self.stone_targets(s0):
                self.stones[s1] = self.stones.pop(s0)        # the stone moves first
                for s in tops:
                    if world(s) == world(s0):
                        for t in self.pyramid_targets(s, steps, may_cross=True):
                            moves.append((s0, s1, s, t))
                self.stones[s0] = self.stones.pop(s1)
        return moves

    def legal_moves(self) -> List[Move]:
        """All legal moves of the side to move; none once the game is won."""
        if self.winner() is not None:
            return []
        return [m for m in self.pseudo_moves() if self._keeps_two_per_world(m)]

    def _keeps_two_per_world(self, move: Move) -> bool:
        counts = self.world_counts(self.side)
        _s0, _s1, p0, p1 = move
        counts[world(p0)] -= 1
        counts[world(p1)] += 1
        return min(counts) >= 2

    def apply(self, move: Move) -> None:
        """Play ``move`` in place (no legality check; see :meth:`play`)."""
        s0, s1, p0, p1 = move
        if s0 is not None:
            self.stones[s1] = self.stones.pop(s0)
        self.stacks[p1].append(self.stacks[p0].pop())
        self.side = 1 - self.side

    def play(self, move: Move) -> "Position":
        """A new position after a legal ``move``; ValueError if it is not legal."""
        if move not in self.legal_moves():
            raise ValueError(f"illegal move {move}")
        child = self.clone()
        child.apply(move)
        return child

    def has_won(self, player: int) -> bool:
        """Both of ``player``'s trees exchanged bases, each stacked L, M, S."""
        return all(self.stacks[s] == want for s, want in WIN_STACKS[player].items())

    def winner(self) -> Optional[int]:
        """The player who completed the exchange (the one who just moved), if any."""
        for player in (1 - self.side, self.side):
            if self.has_won(player):
                return player
        return None

    def is_terminal(self) -> bool:
        return self.winner() is not None or not self.legal_moves()

    def result(self) -> Optional[int]:
        """The winning player of a finished game (no move loses), else None."""
        w = self.winner()
        if w is not None:
            return w
        if not self.legal_moves():
            return 1 - self.side
        return None


def canonical(moves: List[Move]) -> List[Move]:
    """Moves in the canonical order: by (pyramid from, pyramid to, stone from,
    stone to), a pyramid move alone before the stone moves that end the same way.

    The contract state (:mod:`solver.boundary.contract`) lists its legal moves
    in this order, whichever generator made them.

    >>> canonical([(14, 12, 0, 14), (None, None, 0, 14), (None, None, 0, 6)])
    [(None, None, 0, 6), (None, None, 0, 14), (14, 12, 0, 14)]
    """
    return sorted(moves, key=lambda m: (m[2], m[3], -1 if m[0] is None else m[0],
                                        -1 if m[1] is None else m[1]))


def perft(pos: Position, depth: int) -> int:
    """Leaves at ``depth``: a won position has no children (rules/boundary.md).

    >>> [perft(Position.start(), d) for d in (1, 2)]
    [42, 1820]
    """
    if depth == 0:
        return 1
    total = 0
    for m in pos.legal_moves():
        child = pos.clone()
        child.apply(m)
        total += perft(child, depth - 1)
    return total


def divide(pos: Position, depth: int) -> List[Tuple[Move, int]]:
    """perft split by first move."""
    out = []
    for m in pos.legal_moves():
        child = pos.clone()
        child.apply(m)
        out.append((m, perft(child, depth - 1)))
    return out


def random_line(seed: int, plies: int):
    """(position, move drawn) along a seeded random game in the reference engine
    (``next() mod n`` over the canonical moves): the differential tests' positions."""
    from solver.rng import SplitMix64, check_seed
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
