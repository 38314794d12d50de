"""The readable reference of the rules (rules/pyramid.md): the spec in code.

It is deliberately simple and slow: the compiled engine in ``cext/pyramid.pyx``
is tested against it, and the solution checker replays moves through it.
:class:`PyramidState` is also the game's state under the one contract
(:class:`solver.game.State`), and :class:`Pyramid` its :class:`solver.game.Game`.

>>> from solver.pyramid.deal import deal_from_seed
>>> state = PyramidGame(deal_from_seed(42)).new_initial_state()
>>> [str(m) for m in state.legal_moves()][:3]
['1B@1e5', '5B@1e5', '6C@1e5']
>>> state.apply(parse_move("GD@1e5"))
Traceback (most recent call last):
...
solver.pyramid.rules.IllegalMove: GD is not in the reserves
>>> state.apply(parse_move("9C@1e5")); str(state.history[-1]), state.slot_history[-1]
('9C@1e5', 2)
>>> state = Pyramid(variant="wild-dragons").new_initial_state(42)
>>> state.format_move(state.legal_moves()[0]), state.current_player(), state.returns()
('1B@1e5', 0, [0.0])
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from solver.errors import InputError
from solver.game import Game, State
from solver.pyramid.deal import DEAL_SIZE, RESERVE_SLOTS, Deal, deal_from_seed
from solver.pyramid.geometry import ABOVE, BELOW, POSITIONS, SIDES, START, position_index
from solver.pyramid.tiles import KIND_DRAGON, N_KINDS, TILES, kind_rank, kind_suit, parse_tile

VARIANTS = ("continuous", "wild-dragons")


class IllegalMove(InputError):
    """A move that the rules do not allow in the current state."""


def check_variant(variant: str) -> str:
    if variant not in VARIANTS:
        raise InputError(f"unknown variant {variant!r} (expected {' or '.join(VARIANTS)})")
    return variant


def kinds_fit(a: int, b: int, *, variant: str = "continuous") -> bool:
    """May a tile of kind ``a`` be placed against a tile of kind ``b``?

    >>> from solver.pyramid.tiles import parse_tile as t
    >>> kinds_fit(t("4D").kind, t("5B").kind), kinds_fit(t("4D").kind, t("5D").kind)
    (True, False)
    >>> kinds_fit(t("SP").kind, t("EW").kind), kinds_fit(t("SP").kind, t("EW").kind, variant="wild-dragons")
    (True, False)
    """
    if a == KIND_DRAGON or b == KIND_DRAGON:
        return True
    ra, rb = kind_rank(a), kind_rank(b)
    neighbours = abs(ra - rb) == 1 or (variant == "continuous" and {ra, rb} == {0, 10})
    if not neighbours:
        return False
    sa, sb = kind_suit(a), kind_suit(b)
    return sa is None or sb is None or sa != sb


FIT = {variant: tuple(tuple(kinds_fit(a, b, variant=variant) for b in range(N_KINDS)) for a in range(N_KINDS))
       for variant in VARIANTS}
"""``FIT[variant][a][b]``: kinds_fit tabulated, for replaying long lines quickly."""


@dataclass(frozen=True)
class Move:
    """Place the face ``tile`` (0-37) on position ``pos`` (0-143)."""

    tile: int
    pos: int

    def __str__(self) -> str:
        return f"{TILES[self.tile].token}@{POSITIONS[self.pos].name}"


def parse_move(text: str) -> Move:
    """A move written ``TILE@POS``, e.g. ``5D@1e4``; round-trips with ``str``.

    >>> str(parse_move(" 5d@1E4 "))
    '5D@1e4'
    """
    if not isinstance(text, str):
        raise InputError(f"a move must be text TILE@POS, not {type(text).__name__}")
    tile, sep, pos = text.strip().partition("@")
    if not sep:
        raise InputError(f"malformed move {text.strip()!r} (expected TILE@POS, e.g. 5D@1e4)")
    return Move(parse_tile(tile).face, position_index(pos))


@dataclass(frozen=True)
class PyramidGame:
    """The immutable part: a deal and a variant."""

    deal: Deal
    variant: str = "continuous"

    def __post_init__(self):
        check_variant(self.variant)

    def new_initial_state(self) -> "PyramidState":
        return PyramidState(self)


class Pyramid(Game):
    """The game under the one contract: a variant; ``new_initial_state(seed)``
    deals ``deal_from_seed(seed)``.  A solitaire (one seat)."""

    name = "pyramid"
    variants = VARIANTS

    def __init__(self, variant: str = "continuous") -> None:
        self.variant = check_variant(variant)

    @property
    def num_players(self) -> int:
        return 1

    def new_initial_state(self, seed: int) -> "PyramidState":
        return PyramidGame(deal_from_seed(seed), self.variant).new_initial_state()

    def params(self) -> Dict[str, Any]:
        return {"variant": self.variant}

    def __repr__(self) -> str:
        return f"Pyramid(variant={self.variant!r})"


@dataclass
class PyramidState(State):
    """A position in play: the board, the 9 reserve slots and the stock pointer.

    The reserve slots are numbered 1-9.  A played slot is refilled from the stock;
    when several slots hold the face a move names, the lowest-numbered one is taken
    (a display decision: the rules treat the reserve as a multiset).

    The contract (:class:`solver.game.State`): one seat (``current_player()`` is
    0); moves are :class:`Move` in canonical order (by position, then face);
    ``apply`` checks every move (:class:`IllegalMove`, an InputError);
    ``returns()`` is ``[1.0]`` for a won deal, else ``[0.0]``; moves are written
    ``TILE@POS`` (``format_move``/``parse_move``).
    """

    game: PyramidGame
    board: List[Optional[int]] = field(default_factory=lambda: [None] * DEAL_SIZE)
    reserve: List[Optional[int]] = field(default_factory=list)
    stock_next: int = RESERVE_SLOTS
    history: List[Move] = field(default_factory=list)
    slot_history: List[int] = field(default_factory=list)

    def __post_init__(self):
        if not self.reserve:
            self.reserve = list(self.game.deal.faces[:RESERVE_SLOTS])

    # -- queries ---------------------------------------------------------
    @property
    def placed(self) -> int:
        return len(self.history)

    def is_open(self, pos: int) -> bool:
        """Empty, and reachable: the start square on the empty board; on level 1
        a filled side neighbour; above level 1 the tile below and its four side
        neighbours all filled."""
        board = self.board
        if board[pos] is not None:
            return False
        if not self.history:
            return pos == START
        below = BELOW[pos]
        if below is None:
            return any(board[q] is not None for q in SIDES[pos])
        return board[below] is not None and all(board[q] is not None for q in SIDES[below])

    def open_positions(self) -> List[int]:
        return [p.index for p in POSITIONS if self.is_open(p.index)]

    def fit_neighbours(self, pos: int) -> List[int]:
        """Filled positions that a tile placed on ``pos`` may fit against."""
        near = list(SIDES[pos])
        if BELOW[pos] is not None:
            near.append(BELOW[pos])
        return [q for q in near if self.board[q] is not None]

    def why_illegal(self, move: Move) -> Optional[str]:
        """None if ``move`` is legal, else the reason in a few words."""
        if not isinstance(move, Move) or not (isinstance(move.tile, int) and 0 <= move.tile < len(TILES)
                                              and isinstance(move.pos, int) and 0 <= move.pos < DEAL_SIZE):
            return f"{repr(move)[:60]} is not a move (a tile on one of the 144 positions)"
        token, where = TILES[move.tile].token, POSITIONS[move.pos].name
        if move.tile not in self.reserve:
            return f"{token} is not in the reserves"
        if self.board[move.pos] is not None:
            return f"{where} is already filled"
        if not self.is_open(move.pos):
            return f"{where} is not open"
        if not self.history:
            return None
        fits = FIT[self.game.variant][TILES[move.tile].kind]
        if not any(fits[TILES[self.board[q]].kind] for q in self.fit_neighbours(move.pos)):
            return f"{token} fits no tile next to {where}"
        return None

    def legal_moves(self) -> List[Move]:
        """Every legal move, one per (reserve face, open position), sorted."""
        faces = sorted({f for f in self.reserve if f is not None})
        return [Move(f, p) for p in self.open_positions() for f in faces
                if self.why_illegal(Move(f, p)) is None]

    def is_won(self) -> bool:
        return self.placed == DEAL_SIZE

    def is_terminal(self) -> bool:
        return self.is_won() or not self.legal_moves()

    def returns(self) -> List[float]:
        """The one seat's return: ``[1.0]`` for a won game, else ``[0.0]`` (OpenSpiel's convention)."""
        return [1.0 if self.is_won() else 0.0]

    def current_player(self) -> int:
        return 0

    def format_move(self, move: Move) -> str:
        return str(move)

    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    # -- play ------------------------------------------------------------
    def apply(self, move: Move) -> None:
        """Play ``move``; raise IllegalMove (with the reason) if it is illegal."""
        reason = self.why_illegal(move)
        if reason is not None:
            raise IllegalMove(reason)
        slot = self.reserve.index(move.tile)
        self.board[move.pos] = move.tile
        deal = self.game.deal.faces
        if self.stock_next < DEAL_SIZE:
            self.reserve[slot] = deal[self.stock_next]
            self.stock_next += 1
        else:
            self.reserve[slot] = None
        self.history.append(move)
        self.slot_history.append(slot + 1)

    def clone(self) -> "PyramidState":
        return PyramidState(self.game, list(self.board), list(self.reserve), self.stock_next,
                            list(self.history), list(self.slot_history))

    def stock_left(self) -> int:
        return DEAL_SIZE - self.stock_next
