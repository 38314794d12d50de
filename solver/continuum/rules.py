"""The readable reference of Continuum's row (rules/continuum.md).

A :class:`Row` is two sides of stacks, each side read from West to East: the
West side runs from the West end to the continuum, the East side from the
continuum to the East end.  A stack is a tuple of pyramid ids, bottom first.
Moves are one space (onto a neighbouring stack, or into a gap / beyond the
outer end as a new stack), the border switch, and the king's switch of two
neighbouring singles.  The compiled twin is ``cext/continuum.pyx``.

>>> row = start_row()
>>> row.text()
'rL rM rS | bL bM bS || yL yM yS | gL gM gS'
>>> [m.text() for m, _ in legal_moves(row, own_pyramids("A"))]
['rS<_', 'rS>', 'rS>_', 'yS>', 'yS>_']
>>> row = row.play(Move("onto", pyramid_id("rS"), direction=+1))
>>> row.text()
'rL rM | bL bM bS rS || yL yM yS | gL gM gS'
>>> [(m.text(), c) for m, c in legal_moves(row, own_pyramids("A")) if m.kind == "switch"]
[('rS x yS', 2)]
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import FrozenSet, Iterable, List, Optional, Tuple

from solver.continuum.pieces import (
    EAST, GOAL_SIDE, N_PYRAMIDS, PLAYER_COLOURS, WEST, check_player, own_pyramids,
    pyramid_id, pyramid_name, value,
)
from solver.errors import InputError

Stack = Tuple[int, ...]
Side = Tuple[Stack, ...]

KINDS = ("onto", "gap", "switch", "king")


@dataclass(frozen=True)
class Move:
    """One move.  ``onto``/``gap`` move ``pid`` one space in ``direction`` (-1 West,
    +1 East), onto the neighbouring stack or as a new stack; ``switch`` and
    ``king`` exchange ``pid`` with ``other``."""

    kind: str
    pid: int
    other: Optional[int] = None
    direction: int = 0

    def text(self) -> str:
        """``rS>`` / ``rS<`` onto a neighbour, ``rS>_`` / ``rS<_`` as a new stack,
        ``rS x yS`` the border switch, ``rS k yS`` a king's switch
        (``notation.parse_move`` reads it back)."""
        name = pyramid_name(self.pid)
        if self.kind in ("switch", "king"):
            return f"{name} {'x' if self.kind == 'switch' else 'k'} {pyramid_name(self.other)}"
        arrow = ">" if self.direction > 0 else "<"
        return name + arrow + ("_" if self.kind == "gap" else "")

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True)
class Row:
    """The row: ``sides[WEST]`` and ``sides[EAST]``, each a tuple of stacks."""

    sides: Tuple[Side, Side]

    @property
    def west(self) -> Side:
        return self.sides[WEST]

    @property
    def east(self) -> Side:
        return self.sides[EAST]

    def text(self) -> str:
        """``rL rM rS | bL bM bS || ...``: stacks West to East, bottom first, the
        continuum ``||`` (``notation.parse_row`` reads it back)."""
        return " || ".join(
            " | ".join(" ".join(pyramid_name(p) for p in stack) for stack in side)
            for side in self.sides
        )

    def __str__(self) -> str:
        return self.text()

    def locate(self, pid: int) -> Tuple[int, int, int]:
        """``(side, stack index, height index)`` of a pyramid."""
        for s, side in enumerate(self.sides):
            for i, stack in enumerate(side):
                if pid in stack:
                    return s, i, stack.index(pid)
        raise InputError(f"{pyramid_name(pid)} is not in the row")

    def play(self, move: Move) -> "Row":
        """The row after ``move``; InputError if the move is illegal here."""
        if move not in {m for m, _ in legal_moves(self, frozenset(range(N_PYRAMIDS)), kings=True)}:
            raise InputError(f"illegal move here: {move.text()}")
        return apply(self, move)

    def border_tops(self) -> Tuple[int, int]:
        """The two border pyramids: top of the West side's last stack, top of the East side's first."""
        return self.west[-1][-1], self.east[0][-1]


def start_row() -> Row:
    """Red tree, blue tree | continuum | yellow tree, green tree; trees stacked L M S."""
    tree = lambda c: (c * 3 + 2, c * 3 + 1, c * 3)  # noqa: E731
    return Row(((tree(0), tree(1)), (tree(2), tree(3))))


def make_row(west: Iterable[Iterable[int]], east: Iterable[Iterable[int]]) -> Row:
    """A row from two lists of stacks; checks every pyramid appears exactly once."""
    sides = (tuple(tuple(s) for s in west), tuple(tuple(s) for s in east))
    seen: List[int] = []
    for side in sides:
        for stack in side:
            if not stack:
                raise InputError("a stack is empty: gaps close at once, so every stack holds a pyramid")
            seen.extend(stack)
    for pid in seen:
        if not 0 <= pid < N_PYRAMIDS:
            raise InputError(f"no such pyramid: {pid}")
    dup = sorted({pid for pid in seen if seen.count(pid) > 1})
    if dup:
        raise InputError(f"pyramid {pyramid_name(dup[0])} appears more than once")
    missing = [pyramid_name(p) for p in range(N_PYRAMIDS) if p not in seen]
    if missing:
        raise InputError(f"the row lacks {', '.join(missing)}: all 12 pyramids must stand in it")
    return Row(sides)


def count_on_side(row: Row, pids: FrozenSet[int], side: int) -> int:
    return sum(1 for stack in row.sides[side] for p in stack if p in pids)


def three_per_side(row: Row, player: str) -> bool:
    """The balance rule: ``player`` has exactly 3 of their pyramids on each side."""
    own = own_pyramids(player)
    return count_on_side(row, own, WEST) == 3 and count_on_side(row, own, EAST) == 3


def tree_home(row: Row, col: int) -> bool:
    """Is the tree of colour ``col`` reassembled (exactly L M S) on its goal side?"""
    return (col * 3 + 2, col * 3 + 1, col * 3) in row.sides[GOAL_SIDE[col]]


def is_won(row: Row, player: str) -> bool:
    """Both of ``player``'s trees have exchanged sides and stand reassembled."""
    return all(tree_home(row, c) for c in PLAYER_COLOURS[check_player(player)])


def _replace(side: Side, i: int, stacks: Tuple[Stack, ...]) -> Side:
    return side[:i] + stacks + side[i + 1:]


def apply(row: Row, move: Move) -> Row:
    """The row after a move already known to be legal (no checks)."""
    sides = list(row.sides)
    if move.kind in ("switch", "king"):
        a, b = row.locate(move.pid), row.locate(move.other)
        for (s, i, h), new in ((a, move.other), (b, move.pid)):
            stack = list(sides[s][i])
            stack[h] = new
            sides[s] = _replace(sides[s], i, (tuple(stack),))
        return Row(tuple(sides))
    s, i, _ = row.locate(move.pid)
    side = sides[s]
    rest = side[i][:-1]
    d = move.direction
    if move.kind == "onto":
        j = i + d
        target = side[j] + (move.pid,)
        lo, hi = min(i, j), max(i, j)
        pair = (rest, target) if d > 0 else (target, rest)
        new = side[:lo] + tuple(st for st in pair if st) + side[hi + 1:]
    else:  # gap: a new stack next to stack i, which keeps at least one pyramid
        pair = (rest, (move.pid,)) if d > 0 else ((move.pid,), rest)
        new = _replace(side, i, pair)
    sides[s] = new
    return Row(tuple(sides))


def legal_moves(row: Row, movable: FrozenSet[int], *, kings: bool = False) -> List[Tuple[Move, int]]:
    """Every legal ``(move, pips)`` whose moving pyramids are all in ``movable``.

    Order: for each side West then East, each stack West to East, its top's
    moves (onto West, gap West, onto East, gap East); then the switch; then
    king switches (same-side neighbours West to East, then the border pair).
    A new stack never forms at the continuum end of a side.
    """
    out: List[Tuple[Move, int]] = []
    for s, side in enumerate(row.sides):
        n = len(side)
        for i, stack in enumerate(side):
            p = stack[-1]
            if p not in movable:
                continue
            v = value(p)
            for d in (-1, 1):
                j = i + d
                if 0 <= j < n:
                    out.append((Move("onto", p, direction=d), v))
                    if len(stack) > 1:
                        out.append((Move("gap", p, direction=d), v))
                elif len(stack) > 1 and ((s == WEST and d < 0) or (s == EAST and d > 0)):
                    out.append((Move("gap", p, direction=d), v))
    w, e = row.border_tops()
    if w in movable and e in movable:
        out.append((Move("switch", w, e), value(w) + value(e)))
    if kings:
        for s, side in enumerate(row.sides):
            for i in range(len(side) - 1):
                a, b = side[i], side[i + 1]
                if len(a) == 1 and len(b) == 1 and a[0] in movable and b[0] in movable:
                    out.append((Move("king", a[0], b[0]), 0))
        a, b = row.west[-1], row.east[0]
        if len(a) == 1 and len(b) == 1 and a[0] in movable and b[0] in movable:
            out.append((Move("king", a[0], b[0]), 0))
    return out


def successors(row: Row, movable: FrozenSet[int], *, kings: bool = False) -> List[Tuple[Move, int, Row]]:
    """``(move, pips, row after)`` for every legal move."""
    return [(m, c, apply(row, m)) for m, c in legal_moves(row, movable, kings=kings)]
