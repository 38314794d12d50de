"""The readable reference of Spectrum's rules (rules/spectrum.md): the spec in code.

Everything the compiled engine does (``cext/spectrum.pyx``) is checked against
this module on thousands of random states.  A :class:`Game` holds the fixed
parameters; a :class:`State` is one position and offers ``legal_moves()``,
``apply()``, ``play()``, ``is_terminal()`` and ``clone()``.

>>> st = Game(players=1, seed=1).new_state()
>>> format_stash(st.stashes[0])
'red:M orange:M yellow:M lime:M green:M teal:M cyan:M blue:M purple:M pink:M white:M black:M'
>>> st.play("exchange M:red -> S:orange S:orange")
>>> format_stash(st.stashes[0])[:30]
'orange:SSM yellow:M lime:M gre'
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple

from solver.errors import InputError
from solver.rng import SplitMix64, check_seed
from solver.spectrum.notation import (
    COLOURS, N_COLOURS, PER_KIND, SIZES, VALUES, Goal, check_goals, check_stash,
    format_goals, format_stash, parse_colour, parse_size, piece, pieces_text, stash_value,
)

WIN_VALUE = 6
EXCHANGE, UPCONVERT, PASS = 0, 1, 2


class IllegalMove(InputError):
    """A move the rules do not allow here (bad input: exit status 2 at the CLI)."""


@dataclass(frozen=True)
class Move:
    """One turn.  ``give``/``receive`` are (small, medium, large) counts; an
    upconversion gives one piece of ``colour`` and receives the next size.
    ``sources`` names, per piece taken from another player, ``(size, seat)``."""

    kind: int
    colour: int = 0
    to_colour: int = 0
    give: Tuple[int, int, int] = (0, 0, 0)
    receive: Tuple[int, int, int] = (0, 0, 0)
    sources: Tuple[Tuple[int, int], ...] = ()

    def code(self) -> int:
        """The integer the compiled engine uses for this move (sources left out)."""
        g, r = self.give, self.receive
        return (self.kind | self.colour << 2 | g[0] << 6 | g[1] << 9 | g[2] << 12
                | r[0] << 15 | r[1] << 18 | r[2] << 21 | self.to_colour << 24)

    @classmethod
    def from_code(cls, code: int) -> "Move":
        f = [(code >> sh) & 7 for sh in (6, 9, 12, 15, 18, 21)]
        return cls(code & 3, (code >> 2) & 15, (code >> 24) & 15, tuple(f[:3]), tuple(f[3:]))

    def __str__(self) -> str:
        if self.kind == PASS:
            return "pass"
        word = "exchange" if self.kind == EXCHANGE else "upconvert"
        text = (f"{word} {' '.join(pieces_text(self.give, self.colour))} -> "
                f"{' '.join(pieces_text(self.receive, self.to_colour))}")
        if self.sources:
            text += " [" + ", ".join(f"{piece(s, self.to_colour)} from P{p + 1}"
                                     for s, p in self.sources) + "]"
        return text


def parse_move(text: str) -> Move:
    """A move from its text (the inverse of ``str(move)``).

    >>> str(parse_move("exchange L:red -> S:orange M:orange"))
    'exchange L:red -> S:orange M:orange'
    >>> parse_move(str(Move(UPCONVERT, 3, 3, (1, 0, 0), (0, 1, 0), ((1, 2),)))).sources
    ((1, 2),)
    >>> parse_move("upconvert S:lime -> M:lime [M:red from P3]")
    Traceback (most recent call last):
    ...
    solver.errors.InputError: a source names a piece the move does not receive: 'upconvert S:lime -> M:lime [M:red from P3]'
    """
    if not isinstance(text, str):
        raise InputError("a move must be text")
    t = text.strip()
    if t.lower() == "pass":
        return Move(PASS)
    sources: List[Tuple[int, int]] = []
    if t.endswith("]") and "[" in t:
        t, _, src = t[:-1].partition("[")
        for part in src.split(","):
            what, sep, who = part.strip().partition(" from ")
            size, colon, colour = what.strip().partition(":")
            if (not sep or not colon or not who.strip().upper().startswith("P")
                    or not who.strip()[1:].isdigit() or int(who.strip()[1:]) < 1):
                raise InputError(f"malformed source {part.strip()!r} (expected e.g. S:red from P2)")
            sources.append((parse_size(size), parse_colour(colour), int(who.strip()[1:]) - 1))
    word, _, rest = t.strip().partition(" ")
    kind = {"exchange": EXCHANGE, "upconvert": UPCONVERT}.get(word.lower())
    left, arrow, right = rest.partition("->")
    if kind is None or not arrow:
        raise InputError(f"malformed move {text!r} (expected e.g. 'exchange M:red -> S:orange S:orange')")
    sides = []
    for side in (left, right):
        counts, colours = [0, 0, 0], set()
        for tok in side.split():
            s, sep, c = tok.partition(":")
            if not sep:
                raise InputError(f"malformed piece {tok!r} in move (expected e.g. M:red)")
            counts[parse_size(s)] += 1
            colours.add(parse_colour(c))
        if len(colours) != 1:
            raise InputError(f"each side of a move is a non-empty set of one colour: {text!r}")
        sides.append((colours.pop(), tuple(counts)))
    (colour, give), (to_colour, receive) = sides
    for size, src_colour, _ in sources:
        if src_colour != to_colour or not receive[size]:
            raise InputError(f"a source names a piece the move does not receive: {text!r}")
    return Move(kind, colour, to_colour, give, receive, tuple((s, p) for s, _, p in sources))


@dataclass(frozen=True)
class Game:
    """Fixed parameters: the number of players (1 = the solitaire) and the seed."""

    players: int = 1
    seed: int = 0

    def __post_init__(self):
        if not isinstance(self.players, int) or not 1 <= self.players <= 4:
            raise InputError(f"Spectrum takes 1 to 4 players, not {self.players!r}")
        check_seed(self.seed)

    def new_state(self) -> "State":
        """The seeded start: one medium of every colour each, three goals drawn."""
        stashes = [[1 if i % 3 == 1 else 0 for i in range(36)] for _ in range(self.players)]
        st = State(self, stashes, [list(range(N_COLOURS)) for _ in range(3)],
                   [(0, 0, 0)] * 3, 1, SplitMix64(self.seed))
        st.goals = [st._draw_goal() for _ in range(3)]
        return st


@dataclass
class State:
    """A position.  ``bank`` is implied: 4 of each kind minus every stash."""

    game: Game
    stashes: List[List[int]]
    bags: List[List[int]]
    goals: List[Goal]
    direction: int
    rng: SplitMix64
    to_move: int = 0
    turn: int = 0
    winner: Optional[int] = None
    history: List[Move] = field(default_factory=list)

    @classmethod
    def custom(cls, stash: Sequence[int], goals: Sequence[Goal], direction: int, *,
               seed: int = 0) -> "State":
        """A solitaire position: the bags hold every colour not on display, in
        index order, and the generator is SplitMix64(seed) (a documented decision)."""
        goals = check_goals(goals)
        bags = [[c for c in range(N_COLOURS) if c not in {g[s] for g in goals}] for s in range(3)]
        if direction not in (1, -1):
            raise InputError("direction is cw (+1) or ccw (-1)")
        return cls(Game(1, seed), [list(check_stash(stash))], bags, list(goals), direction,
                   SplitMix64(seed))

    # -- queries ---------------------------------------------------------
    def bank(self, kind: int) -> int:
        return PER_KIND - sum(s[kind] for s in self.stashes)

    def value(self, seat: Optional[int] = None) -> int:
        return stash_value(self.stashes[self.to_move if seat is None else seat])

    def is_terminal(self) -> bool:
        return self.winner is not None

    def clone(self) -> "State":
        rng = SplitMix64(0)
        rng.state = self.rng.state
        return State(self.game, [list(s) for s in self.stashes], [list(b) for b in self.bags],
                     list(self.goals), self.direction, rng, self.to_move, self.turn,
                     self.winner, list(self.history))

    def key(self) -> tuple:
        """Everything the future depends on (the history aside)."""
        return (tuple(map(tuple, self.stashes)), tuple(map(tuple, self.bags)),
                tuple(self.goals), self.direction, self.rng.state, self.to_move, self.winner)

    # -- moves -----------------------------------------------------------
    def _sourcings(self, colour: int, need: Sequence[int]) -> List[Tuple[Tuple[int, int], ...]]:
        """Every way to take ``need`` (per size) of ``colour``: the bank first,
        the shortfall from other players (the mover chooses whom); [] if short."""
        me = self.to_move
        others = [p for p in range(len(self.stashes)) if p != me]
        per_size = []
        for s in range(3):
            kind = colour * 3 + s
            short = need[s] - self.bank(kind)
            if short <= 0:
                per_size.append([()])
                continue
            ways = []
            for combo in itertools.combinations_with_replacement(others, short):
                if all(combo.count(p) <= self.stashes[p][kind] for p in set(combo)):
                    ways.append(tuple((s, p) for p in combo))
            if not ways:
                return []
            per_size.append(ways)
        return [sum(parts, ()) for parts in itertools.product(*per_size)]

    def legal_moves(self) -> List[Move]:
        """Every exchange and upconversion of the player to move; ``[pass]`` if none."""
        if self.winner is not None:
            return []
        mine = self.stashes[self.to_move]
        moves: List[Move] = []
        for c in range(N_COLOURS):
            have = mine[c * 3:c * 3 + 3]
            nxt = (c + self.direction) % N_COLOURS
            for give in itertools.product(*(range(n + 1) for n in have)):
                total = sum(g * v for g, v in zip(give, VALUES))
                if total == 0:
                    continue
                for receive in _receipts(total, give):
                    for src in self._sourcings(nxt, receive):
                        moves.append(Move(EXCHANGE, c, nxt, give, receive, src))
            for s in (0, 1):
                if have[s]:
                    need = [0, 0, 0]
                    need[s + 1] = 1
                    g = [0, 0, 0]
                    g[s] = 1
                    for src in self._sourcings(c, need):
                        moves.append(Move(UPCONVERT, c, c, tuple(g), tuple(need), src))
        return moves or [Move(PASS)]

    def apply(self, move: Move) -> None:
        """Play ``move`` for the player to move (InputError if illegal), then
        the goal check, the win check and the turn passes."""
        if not isinstance(move, Move) or move not in self.legal_moves():
            raise IllegalMove(f"illegal move: {str(move)[:80]}")
        mine = self.stashes[self.to_move]
        if move.kind != PASS:
            taken = {}
            for s, p in move.sources:
                taken[s] = taken.get(s, 0) + 1
                self.stashes[p][move.to_colour * 3 + s] -= 1
            for s in range(3):
                mine[move.colour * 3 + s] -= move.give[s]
                mine[move.to_colour * 3 + s] += move.receive[s]
        self._goal_check()
        self.history.append(move)
        self.turn += 1
        n = len(self.stashes)
        for k in range(n):
            seat = (self.to_move + k) % n
            if stash_value(self.stashes[seat]) <= WIN_VALUE:
                self.winner = seat
                break
        self.to_move = (self.to_move + 1) % n

    def play(self, text: str) -> None:
        """Apply a move given as text."""
        self.apply(parse_move(text))

    def _goal_check(self) -> None:
        mine = self.stashes[self.to_move]
        while True:
            matched = [i for i, g in enumerate(self.goals)
                       if all(mine[g[s] * 3 + s] for s in range(3))]
            if not matched:
                return
            i = matched[0]
            goal = self.goals[i]
            for s in range(3):
                mine[goal[s] * 3 + s] -= 1
                self.bags[s].append(goal[s])
            self.goals[i] = self._draw_goal()
            self.direction = -self.direction

    def _draw_goal(self) -> Goal:
        """Small, medium, large: each removes index ``next() mod n`` of its bag."""
        return tuple(self.bags[s].pop(self.rng.below(len(self.bags[s]))) for s in range(3))

    def text(self) -> str:
        lines = [f"turn {self.turn}, direction {'cw' if self.direction > 0 else 'ccw'}, "
                 f"goals {format_goals(self.goals)}"]
        for p, s in enumerate(self.stashes):
            lines.append(f"P{p + 1} ({stash_value(s):2d}): {format_stash(s)}")
        return "\n".join(lines)


def _receipts(total: int, give: Sequence[int]) -> List[Tuple[int, int, int]]:
    """(small, medium, large) counts worth ``total``, avoiding the sizes given,
    at most 4 of a size (the supply of one colour and size)."""
    out = []
    for rl in range(0 if give[2] else min(PER_KIND, total // 3), -1, -1):
        for rm in range(0 if give[1] else min(PER_KIND, (total - 3 * rl) // 2), -1, -1):
            rs = total - 3 * rl - 2 * rm
            if rs <= PER_KIND and not (rs and give[0]):
                out.append((rs, rm, rl))
    return out


__all__ = ["Game", "State", "Move", "IllegalMove", "parse_move", "COLOURS", "SIZES", "WIN_VALUE",
           "EXCHANGE", "UPCONVERT", "PASS", "format_stash", "format_goals"]
