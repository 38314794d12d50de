"""The pure-Python twin of the compiled exact search, written from the rules.

Same depth-first search, same two sound cuts, same move ordering as
``cext/pyramid.pyx`` (without restarts), but over the readable reference state
and with an unbounded set of dead boards.  It is slow on purpose: the tests
compare its verdicts and lines with the compiled search, and ``bench/`` uses it
to measure the speed-up.

>>> from solver.pyramid.deal import deal_from_seed
>>> result = solve_reference(deal_from_seed(12))
>>> result.verdict, result.nodes
('lost', 9)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

from solver.pyramid.deal import DEAL_SIZE, RESERVE_SLOTS, Deal
from solver.pyramid.geometry import ABOVE, BELOW, SIDES
from solver.pyramid.rules import Move, PyramidGame, PyramidState, kinds_fit
from solver.pyramid.tiles import KIND_DRAGON, N_KINDS, TILES

HOLE_CHECK_FROM = 100


@dataclass
class ReferenceResult:
    verdict: str                     # won, lost or unknown (node limit)
    moves: List[Move] = field(default_factory=list)
    nodes: int = 0


def _kind(face: int) -> int:
    return TILES[face].kind


def remaining_kinds(state: PyramidState) -> Dict[int, int]:
    """Tiles not yet placed (reserve and stock), counted by kind."""
    counts: Dict[int, int] = {}
    for face in [f for f in state.reserve if f is not None] + list(state.game.deal.faces[state.stock_next:]):
        counts[_kind(face)] = counts.get(_kind(face), 0) + 1
    return counts


def exposed_kinds(state: PyramidState) -> Set[int]:
    """Kinds of filled tiles that still have an empty side or top neighbour:
    the only tiles a future tile can still be placed against."""
    board = state.board
    return {_kind(board[p]) for p in range(DEAL_SIZE) if board[p] is not None
            and any(board[q] is None for q in list(SIDES[p]) + ([ABOVE[p]] if ABOVE[p] is not None else []))}


def fits_any(kind: int, partners, variant: str) -> bool:
    return any(kinds_fit(kind, other, variant=variant) for other in partners)


DRAGON_SOCKETS = 5     # empty neighbours a newly placed tile can have (4 sides and the top)
RELAX_BRANCHES = 32    # choices the relaxation may try per node before it gives up (no cut)
ALL_KINDS = frozenset(range(N_KINDS))


def can_finish_relaxed(state: PyramidState) -> bool:
    """Could all tiles be placed if geometry mattered only around dragons?  (False: dead.)

    A reserve tile may go down whenever it fits a non-dragon tile that still
    has an empty side or top neighbour (as often as it likes; it then counts
    as such a tile itself), or against a dragon: one tile per empty neighbour
    of a dragon on the board, and 5 more per dragon placed since.  Every real
    move is a relaxed move, so a relaxed dead end is a real one.  Free
    placements go first; when they stall, each reserve kind is tried on a
    dragon's socket, at most 32 tries in all (then: no cut).
    """
    return can_reach_relaxed(state, DEAL_SIZE)


def can_reach_relaxed(state: PyramidState, target: int) -> bool:
    """Could a line from ``state`` (a tile on the board) place ``target`` tiles in all?
    (False: no line does.)  The relaxation of :func:`can_finish_relaxed`, asked
    for ``target`` tiles instead of all of them: every real line is a relaxed
    line.  The compiled longest-line search cuts a board where it shows that
    no line beats the deepest found."""
    variant = state.game.variant
    partners = {k for k in exposed_kinds(state) if k != KIND_DRAGON}
    accept = {k for k in range(N_KINDS) if fits_any(k, partners, variant)}
    reserve = sorted(_kind(f) for f in state.reserve if f is not None)
    stock = [_kind(f) for f in state.game.deal.faces[state.stock_next:]]
    return _Relaxed(variant, accept, dragon_sockets(state), reserve, stock).finish([RELAX_BRANCHES], target)


def dragon_sockets(state: PyramidState) -> int:
    """The empty side and top neighbours of the dragons on the board."""
    board = state.board
    return sum(board[q] is None for p in range(DEAL_SIZE) if board[p] is not None and _kind(board[p]) == KIND_DRAGON
               for q in list(SIDES[p]) + ([ABOVE[p]] if ABOVE[p] is not None else []))


class _Relaxed:
    """The relaxed play: kinds placeable at will, dragon sockets, reserve, stock."""

    def __init__(self, variant, accept, sockets, reserve, stock):
        self.variant, self.accept, self.sockets = variant, set(accept), sockets
        self.reserve, self.stock = list(reserve), list(stock)

    def copy(self) -> "_Relaxed":
        return _Relaxed(self.variant, self.accept, self.sockets, self.reserve, self.stock)

    def place(self, kind: int) -> None:
        self.reserve.remove(kind)
        if kind == KIND_DRAGON:
            self.sockets += DRAGON_SOCKETS
        else:
            self.accept |= {k for k in range(N_KINDS) if kinds_fit(k, kind, variant=self.variant)}
        if self.stock:
            self.reserve.append(self.stock.pop(0))

    def place_free(self) -> None:
        while self.accept != ALL_KINDS:
            ready = sorted(k for k in set(self.reserve) if k in self.accept)
            if not ready:
                return
            self.place(ready[0])

    def finish(self, budget: List[int], target: int = DEAL_SIZE) -> bool:
        """Can the relaxed play place ``target`` tiles in all (every tile by default)?"""
        self.place_free()
        if self.accept == ALL_KINDS or not self.reserve or DEAL_SIZE - len(self.reserve) - len(self.stock) >= target:
            return True
        if self.sockets == 0:
            return False
        for kind in sorted(set(self.reserve)):
            if budget[0] == 0:
                return True
            budget[0] -= 1
            child = self.copy()
            child.sockets -= 1
            child.place(kind)
            if child.finish(budget, target):
                return True
        return False


def holes_matchable(state: PyramidState) -> bool:
    """Can every empty position get its own remaining tile that could fit there?

    A position's candidates: kinds that fit a filled neighbour (side, or below),
    or, if a neighbour is still empty, anything that fits some remaining kind.
    Positions that accept every remaining kind are left out; the rest (up to
    32, in position order) must be matched to distinct tiles (Hall).
    """
    variant = state.game.variant
    remaining = remaining_kinds(state)
    reachable = {k for k in range(N_KINDS) if fits_any(k, remaining, variant)}
    restricted: List[Set[int]] = []
    for p in range(DEAL_SIZE):
        if state.board[p] is not None or len(restricted) == 32:
            continue
        near = list(SIDES[p]) + ([BELOW[p]] if BELOW[p] is not None else [])
        filled = [_kind(state.board[q]) for q in near if state.board[q] is not None]
        candidates = {k for k in remaining if fits_any(k, filled, variant)}
        if len(filled) < len(near):
            candidates |= reachable & set(remaining)
        if candidates == set(remaining):
            continue
        if not candidates:
            return False
        restricted.append(candidates)
    holder: Dict[int, List[int]] = {k: [] for k in remaining}

    def assign(i: int, seen: Set[int]) -> bool:
        for k in sorted(restricted[i]):
            if k in seen:
                continue
            seen.add(k)
            if len(holder[k]) < remaining[k]:
                holder[k].append(i)
                return True
            for slot, j in enumerate(holder[k]):
                if assign(j, seen):
                    holder[k][slot] = i
                    return True
        return False

    return all(assign(i, set()) for i in range(len(restricted)))


def empty_near(state: PyramidState, pos: int) -> int:
    near = list(SIDES[pos]) + ([ABOVE[pos]] if ABOVE[pos] is not None else [])
    return sum(1 for q in near if state.board[q] is None)


def ordered_moves(state: PyramidState) -> List[Tuple[int, int]]:
    """(kind, position) moves in the compiled search's order."""
    kinds = sorted({(m.pos, _kind(m.tile)) for m in state.legal_moves()})
    places: Dict[int, int] = {}
    for _, k in kinds:
        places[k] = places.get(k, 0) + 1
    return [(k, p) for p, k in sorted(kinds, key=lambda pk: (pk[1] == KIND_DRAGON, empty_near(state, pk[0]),
                                                            places[pk[1]], pk[0], pk[1]))]


def board_key(state: PyramidState) -> Tuple:
    return tuple(None if f is None else _kind(f) for f in state.board)


def solve_reference(deal: Deal, *, variant: str = "continuous", node_limit: Optional[int] = None) -> ReferenceResult:
    """Decide a deal by depth-first search over the reference rules."""
    dead: Set[Tuple] = set()
    result = ReferenceResult("unknown")

    def search(state: PyramidState) -> Optional[bool]:
        if state.is_won():
            return True
        result.nodes += 1
        if node_limit and result.nodes > node_limit:
            return None
        key = board_key(state)
        if state.placed > 0 and key in dead:
            return False
        if state.placed > 0 and not (can_finish_relaxed(state) and
                                     (state.placed < HOLE_CHECK_FROM or holes_matchable(state))):
            dead.add(key)
            return False
        for kind, pos in ordered_moves(state):
            child = state.clone()
            face = next(f for f in child.reserve if f is not None and _kind(f) == kind)
            child.apply(Move(face, pos))
            outcome = search(child)
            if outcome is None:
                return None
            if outcome:
                result.moves.insert(0, child.history[-1])
                return True
        dead.add(key)
        return False

    import sys
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 1000))
    try:
        outcome = search(PyramidGame(deal, variant).new_initial_state())
    finally:
        sys.setrecursionlimit(limit)
    result.verdict = {True: "won", False: "lost", None: "unknown"}[outcome]
    return result
