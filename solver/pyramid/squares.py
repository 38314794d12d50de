"""The square bound: the hub lemma's anchors at a node, where the squares are known.

The lemma's step 4 (:mod:`solver.pyramid.hub`) counts, at the start of a deal,
how many tiles the anchors can hold, and cannot see where the tiles stand: on
Continuous 764002 the best tree of anchors holds exactly the 24 tiles needed,
while every line dies by 24 (docs/pyramid.md, "Steps 4 and 5").  At a node of
the search the placed tiles stand on known squares, and the count can be made
per square:

To have ``T`` tiles on the board, the ``T - placed`` still to go down all come
from the tiles dealt before index ``T + 8`` (the reserve now and the stock up to
there).  Each goes on an empty square beside a filled tile it fits, its
*anchor*.  If the anchor is on the board now, charge the tile to its square: an
empty square with a filled side or a filled square below whose tile it fits,
and no two tiles share a square.  Otherwise the anchor is a tile placed after
the node, and charge the tile to it: the tiles it anchors stand on its
neighbours empty when it went down, at most 4 (one side was filled: it was open
on level 1, or the tile below it is filled), 5 only above level 1 with four
empty sides, which needs 19 tiles on the board for one such tile and 25 for two
(hub.py, step 4).  Every line that reaches ``T`` tiles so charges each new tile
to a distinct square or to an anchor within its room: a matching of
``T - placed`` tiles.  The maximum matching lets any candidate tile anchor,
placed or not: it is only larger.  Smaller than ``T - placed``: no line from the
node reaches ``T`` tiles, and as the deal needs 144, the node is dead.  Three
things no real line does are left out of the matching:

- *Reach.*  A new tile's chain of anchors leads back to the board through
  candidates; a kind not reached from the kinds the empty squares take, by fits
  among the candidate kinds, never goes down (no cycle of anchors out of nothing).
- *The first tile of a kind* has no tile of its kind in its chain.  When its kind
  fits no kind reached without it, its anchor is on the board: it stands on a
  square that takes it now and anchors at most that square's empty neighbours now.
- *The fifth.*  A tile anchoring 5 stands on an empty square ``x`` above level 1
  whose four sides and top are empty now; its own anchor is the tile below ``x``
  (filled now with a kind it fits, or empty now); the 13 squares one level down
  under its sides are filled first.  So from 19 tiles on the board one tile may be
  charged to a *fifth* place, if it fits a candidate of a kind that may hold five
  by then (:func:`fifth_need`, and its first tile not held to the squares of now
  unless one has five empty neighbours); from 25 every anchor holds 5.

This module is the readable twin of ``cext/pyramid_squares.pxi`` (a flow by
kind there, a matching tile by tile here); the tests hold them to the same
answer.  The tail search asks it at every node (docs/pyramid.md, "The square
bound").
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from solver.pyramid.deal import DEAL_SIZE, RESERVE_SLOTS
from solver.pyramid.geometry import ABOVE, BELOW, POSITIONS, SIDES
from solver.pyramid.hub import ALL_FIVE, HUB_CHILDREN, LEVEL1_CHILDREN, ONE_FIVE
from solver.pyramid.rules import FIT, PyramidState
from solver.pyramid.tiles import KIND_DRAGON, N_KINDS, TILES

SQUARES_AHEAD = 32
"""``T`` is asked up to ``placed`` + this (``SQUARES_AHEAD`` in the .pxi): the lines it
is for die within 24 tiles, asking less is sound, and each step costs (about 5 us of
CPU a node at 10 steps, 8 at 32)."""


def fifth_need(board, fit) -> List[int]:
    """Per kind ``u``: tiles still to place before a tile of kind ``u`` placed after
    the node can have anchored five.  It stands on an empty square above level 1
    with four sides and a top, all empty now (its five); its own anchor is the tile
    below, filled now with a kind ``u`` fits, or empty now; and the 13 squares one
    level down under its sides are filled first.  The fewest, over such squares,
    of those squares still empty + the tile + its five; 1000 when there is none."""
    need = [1000] * N_KINDS
    for x in POSITIONS:
        i = x.index
        if BELOW[i] is None or ABOVE[i] is None or len(SIDES[i]) < 4 or board[i] is not None:
            continue
        if board[ABOVE[i]] is not None or any(board[q] is not None for q in SIDES[i]):
            continue
        diamond = [q for q in POSITIONS if q.level == x.level - 1
                   and abs(q.file - x.file) + abs(q.rank - x.rank) <= 2]
        tiles = sum(board[q.index] is None for q in diamond) + 1 + HUB_CHILDREN
        below = board[BELOW[i]]
        for u in range(N_KINDS):
            if below is None or _fits(fit, u, below):
                need[u] = min(need[u], tiles)
    return need


def _fits(fit, k: int, u: int) -> bool:
    return k == KIND_DRAGON or u == KIND_DRAGON or fit[k][u]


def squares_short(state: PyramidState, ahead: int = SQUARES_AHEAD) -> int:
    """The fewest tiles in all (``placed`` < T <= ``placed + ahead``, at most 144)
    that no line from ``state`` can have on the board, or 0 when the bound rules
    none out.  ``state`` has a tile on the board."""
    fit = FIT[state.game.variant]
    board = [None if f is None else TILES[f].kind for f in state.board]
    placed = state.placed
    squares: List[set] = []
    frontier = set()                        # kinds some empty square takes now
    square_room: Dict[int, int] = {}       # kind -> the most empty neighbours of a square that takes it
    for q in range(DEAL_SIZE):
        near = [board[n] for n in list(SIDES[q]) + ([BELOW[q]] if BELOW[q] is not None else [])]
        if board[q] is None and any(k is not None for k in near):
            squares.append({k for k in near if k is not None})
            empty = sum(board[n] is None for n in list(SIDES[q]) + ([ABOVE[q]] if ABOVE[q] is not None else []))
            for k in range(N_KINDS):
                if any(_fits(fit, k, u) for u in squares[-1]):
                    frontier.add(k)
                    square_room[k] = max(square_room.get(k, 0), empty)
    tiles = [TILES[f].kind for f in state.reserve if f is not None]
    deal = [TILES[f].kind for f in state.game.deal.faces]
    need5 = fifth_need(board, fit)
    anchored: Dict[int, Tuple[str, int]] = {}       # tile -> its square or its anchor tile
    load: Dict[Tuple[str, int], List[int]] = {}

    def closure(kinds: set) -> set:
        """The kinds of ``kinds`` reached from the squares by fits."""
        reach = {k for k in kinds if k in frontier}
        while True:
            more = {k for k in kinds - reach if any(_fits(fit, k, v) for v in reach)}
            if not more:
                return reach
            reach |= more

    def fresh(u: int) -> bool:
        """Can the first tile of kind ``u`` stand beside a tile placed after the node?"""
        return any(_fits(fit, u, v) for v in closure(set(tiles) - {u}))

    def may_hold_five(u: int, T: int) -> bool:
        """Can a tile of kind ``u`` anchor five by ``T`` tiles: with its square's diamond
        filled by then, and not the first of its kind, or the first beside a tile placed
        since, or on a square with five empty neighbours now."""
        return T - placed >= need5[u] and (tiles.count(u) >= 2 or fresh(u) or square_room.get(u, 0) >= HUB_CHILDREN)

    def room(where: Tuple[str, int], per_anchor: int, five: int, reach: set) -> int:
        if where[0] == "tile":         # the anchor tile: where can it stand?
            a = where[1]
            u = tiles[a]
            if tiles.index(u) == a and not fresh(u):
                return min(per_anchor, square_room.get(u, 0))   # the first of its kind: on a square now
            return per_anchor
        return {"square": 1, "fifth": five}[where[0]]

    def augment(t: int, seen: set, per_anchor: int, five: int, reach: set, T: int) -> bool:
        k = tiles[t]
        if k not in reach:
            return False
        options = [("square", i) for i, near in enumerate(squares) if any(_fits(fit, k, u) for u in near)]
        anchors = [("tile", a) for a, u in enumerate(tiles) if a != t and u in reach and _fits(fit, k, u)]
        options += anchors + ([("fifth", 0)] if any(may_hold_five(tiles[a], T) for _, a in anchors) else [])
        for where in options:
            if where in seen:
                continue
            seen.add(where)
            held = load.setdefault(where, [])
            if len(held) < room(where, per_anchor, five, reach):
                held.append(t)
                anchored[t] = where
                return True
            for u in list(held):
                if augment(u, seen, per_anchor, five, reach, T):
                    held.remove(u)
                    held.append(t)
                    anchored[t] = where
                    return True
        return False

    for T in range(placed + 1, min(DEAL_SIZE, placed + ahead) + 1):
        if RESERVE_SLOTS + placed <= T + RESERVE_SLOTS - 2 < DEAL_SIZE:
            tiles.append(deal[T + RESERVE_SLOTS - 2])        # drawn before the T-th tile goes down
        per_anchor = HUB_CHILDREN if T >= ALL_FIVE else LEVEL1_CHILDREN
        five = int(T >= ONE_FIVE)          # kept from ALL_FIVE on (generous there): rooms never shrink
        reach = closure(set(tiles))
        for t in range(len(tiles)):
            if t not in anchored:
                augment(t, set(), per_anchor, five, reach, T)
        if len(anchored) < T - placed:
            return T
    return 0
