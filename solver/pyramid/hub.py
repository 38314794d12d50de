"""The hub lemma: a short proof that some deals are lost, where the search drowns.

On Continuous 594292 and 642338 every line dies within 23 tiles, and neither search
refutes the millions of arrangements of the first 19 tiles in a minute
(docs/pyramid.md, "The hub lemma").  The reason is short:

1. **Phase.**  To draw the deal's tile ``b``, ``b - 8`` tiles must have been
   placed, all from tiles ``0..b-1``.  Every tile on the board fits a tile put
   down before it, so the board holds only tiles of the *closure* of the first
   tile: the tiles of ``0..b-1`` reached from it by fits (a dragon fits all).
   When the closure has fewer than ``b - 8`` tiles the deal cannot go on; when
   exactly ``b - 8``, the first ``b - 8`` moves place exactly the closure ``C``.
2. **Hub.**  If the tiles ``G`` of ``C`` (the first tile not among them) fit no
   tile of ``C`` but one, ``h`` (not the first tile), each is placed against ``h``, on a neighbour empty when
   ``h`` went down.  A tile on level 1 has then at most 4 (its parent is a
   side), a tile above at most 5 (its 4 sides and its top: the tile below is
   filled first).  So ``|G| >= 6`` is impossible, and ``|G| == 5`` puts ``h`` on
   level 2 or higher with all four sides and its top among ``G``.  The four sides
   open only over the 13-position diamond of level 1 around the square below
   ``h``; with ``h`` higher, or more on level 2, more tiles: at least 19 in all
   (24 for ``h`` on level 3).  So ``|C| < 19`` is impossible, and ``|C| == 19``
   puts exactly the 13 other tiles ``R`` of ``C`` on that diamond.
3. **Parity.**  Give a level-1 square the colour ``(file + rank) mod 2``.  Each
   tile of ``R`` but the first fits a side neighbour on the diamond placed
   before it (its top comes later), so ``R`` is joined by fits between adjacent
   squares.  A fit between suited tiles, or of a wind with a 1 or a season with
   a 9, joins ranks of different parity (a wind is rank 0, a season 10) on squares
   of different colour; so when ``R`` has no dragon and (in Continuous Pyramid,
   where they fit) not both a wind and a season, the rank's parity and the square's
   colour agree over the whole diamond up to one swap: the even-ranked tiles
   fill one colour.  The diamond has 9 squares of one colour and 4 of the other.
   Any other count of even ranks in ``R`` is impossible.

4. **Anchors.**  Each tile placed after the first goes beside a filled tile it
   fits: call one such tile its *anchor*.  The tiles a tile anchors stand on
   distinct neighbours of it that were empty when it went down: at most 5 for
   the first tile (4 sides and the top) and for a tile above level 1 (the tile
   below is filled), at most 4 for any other level-1 tile (it was open, so a side
   was filled).  A tile but the first that anchors 5 is above level 1 with its
   four sides and its top placed after it, so the 13 level-1 squares under those
   sides are filled too: 19 tiles on the board (step 2); two such tiles are not
   side by side (the later would have had a filled side), so they need their
   2 + 10 tiles above level 1 and 13 below: 25.  So when ``b - 8`` tiles are
   placed, the ``b - 9`` after the first are matched to anchors among the closure,
   each anchor taking at most 4 (the first tile 5), plus one more when ``b - 8 >= 19``
   and 5 each when ``b - 8 >= 25``.  A maximum matching (augmenting paths) that
   falls short of ``b - 9`` proves the line cannot get there: it lets any tile of
   the closure anchor, placed or not, so it is never smaller than the real one.  Dragons fit every
   tile, but each takes only its 4 or 5: this step is what speaks when a dragon
   comes early, where steps 1-3 see every tile reached.

5. **Cuts.**  A tile's anchor chain leads back to the first tile through fits.
   If removing one tile ``h`` of the closure splits the rest by fits into parts,
   each part without the first tile that has a tile on the board has one of them
   anchored by ``h`` (the chain leaves the part through ``h`` alone).  With ``s``
   tiles of the closure left off the board, leave off the smallest parts (and
   ``h``, if all of them fit in ``s`` with it): more parts left than ``h`` can
   anchor (step 4: 5 for the first tile or with 19 placed, else 4) is impossible.
   This is step 2's count of tiles that fit only ``h``, for parts of any size.

A deal is lost when every kind in the first reserve, as the first tile, fails
at some ``b`` by step 1's count or by steps 2-5.  :func:`proves_lost` says why, or
returns None (the lemma proves nothing: most deals).  Pure Python, run once on a
deal that reaches the tail search (up to about 30 ms); tested against
the search's verdicts (tests/test_pyramid_hub.py).

>>> from solver.pyramid.deal import deal_from_seed
>>> "5 that fit only 3B (tile 17)" in proves_lost(deal_from_seed(594292), variant="continuous")
True
>>> proves_lost(deal_from_seed(1), variant="continuous") is None
True
"""
from __future__ import annotations

from typing import List, Optional

from solver.pyramid.deal import RESERVE_SLOTS, Deal
from solver.pyramid.rules import FIT
from solver.pyramid.tiles import KIND_DRAGON, KIND_SEASON, KIND_WIND, TILES, kind_rank

DIAMOND = 13
"""Level-1 squares under a level-2 tile whose four sides are open: the square
below it and those within two steps of it (9 of its colour, 4 of the other)."""
HUB_CHILDREN = 5
"""The most tiles placed against one tile after it (its 4 sides and its top)."""
LEVEL1_CHILDREN = 4
"""The most tiles placed against a level-1 tile other than the first (one side was filled)."""
ONE_FIVE, ALL_FIVE = DIAMOND + 1 + HUB_CHILDREN, DIAMOND + 2 + 2 * HUB_CHILDREN
"""Tiles on the board before one tile (two tiles) but the first can have anchored 5 (step 4)."""
ANCHOR_UP_TO = 72
"""Step 4 is asked for ``b`` up to this (every line of the deals it speaks on dies by tile 45)."""


def _name(kind: int) -> str:
    return next(t.token for t in TILES if t.kind == kind)


class _Closure:
    """The tiles reached by fits from the first tile, among tiles ``0..b-1``,
    grown one tile ``b`` at a time."""

    def __init__(self, kinds: List[int], first: int, fit):
        self.kinds, self.fit = kinds, fit
        self.inside, self.have, self.rest, self.b = [first], {kinds[first]}, [], 0

    def _reaches(self, k: int) -> bool:
        return k == KIND_DRAGON or KIND_DRAGON in self.have or any(self.fit[k][u] for u in self.have)

    def grow_to(self, b: int) -> List[int]:
        while self.b < b:
            i, self.b = self.b, self.b + 1
            if i == self.inside[0]:
                continue
            if not self._reaches(self.kinds[i]):
                self.rest.append(i)
                continue
            todo = [i]
            while todo:
                j = todo.pop()
                self.inside.append(j)
                self.have.add(self.kinds[j])
                reached = [r for r in self.rest if self._reaches(self.kinds[r])]
                self.rest = [r for r in self.rest if r not in reached]
                todo.extend(reached)
        return self.inside


def _hub_parity(kinds: List[int], phase: List[int], first: int, fit, variant: str) -> Optional[str]:
    """Steps 2-3 on the tiles ``phase`` (indices), which the first ``len(phase)``
    moves must place, starting with tile ``first``: why that is impossible, or None."""
    if any(kinds[i] == KIND_DRAGON for i in phase) or len(phase) > DIAMOND + 1 + HUB_CHILDREN:
        return None
    for h in phase:
        if h == first:
            continue
        group = [t for t in phase if t not in (h, first) and fit[kinds[t]][kinds[h]]
                 and not any(fit[kinds[t]][kinds[u]] for u in phase if u not in (t, h))]
        if len(group) < HUB_CHILDREN:
            continue
        fits = f"{len(group)} that fit only {_name(kinds[h])} (tile {h})"
        if len(group) > HUB_CHILDREN:
            return f"{fits}: at most {HUB_CHILDREN} go against one tile"
        if len(phase) < DIAMOND + 1 + HUB_CHILDREN:
            return f"{fits}, which needs {DIAMOND} more on level 1 under it"
        rest = [kinds[t] for t in phase if t != h and t not in group]
        if variant == "continuous" and KIND_WIND in rest and KIND_SEASON in rest:
            continue
        even = sum(1 for k in rest if kind_rank(k) % 2 == 0)
        if even not in (4, 9):
            return (f"{fits}, so the other {DIAMOND} fill a diamond on level 1 (9 squares of one colour, "
                    f"4 of the other) with {even} even ranks")
    return None


class _Anchors:
    """Step 4's matching: tiles of the closure (not the first) to the anchors they fit,
    grown with the closure and kept maximum by augmenting paths."""

    def __init__(self, kinds: List[int], first: int, fit, cap: int):
        self.kinds, self.fit, self.first, self.cap = kinds, fit, first, cap
        self.tiles: List[int] = []
        self.load: dict = {}
        self.anchored: dict = {}

    def _fits(self, t: int, a: int) -> bool:
        k, u = self.kinds[t], self.kinds[a]
        return k == KIND_DRAGON or u == KIND_DRAGON or self.fit[k][u]

    def _augment(self, t: int, seen: set) -> bool:
        for a in self.tiles:
            if a == t or a in seen or not self._fits(t, a):
                continue
            seen.add(a)
            load = self.load[a]
            if len(load) < (HUB_CHILDREN if a == self.first else self.cap):
                load.append(t)
                self.anchored[t] = a
                return True
            for u in list(load):
                if self._augment(u, seen):
                    load.remove(u)
                    load.append(t)
                    self.anchored[t] = a
                    return True
        return False

    def matched(self, tiles: List[int]) -> int:
        """The maximum matching over ``tiles`` (a superset of the last call's)."""
        for t in tiles[len(self.tiles):]:
            self.tiles.append(t)
            self.load[t] = []
        for t in self.tiles:
            if t != self.first and t not in self.anchored:
                self._augment(t, set())
        return len(self.anchored)


def _anchor_bound(four: _Anchors, five: _Anchors, phase: List[int], placed: int) -> Optional[str]:
    """Step 4 with ``placed`` tiles on the board, all of ``phase``: why that is impossible, or None."""
    if placed >= ALL_FIVE:
        most = 1 + five.matched(phase)
    else:
        most = 1 + four.matched(phase) + (placed >= ONE_FIVE)
    if most >= placed:
        return None
    caps = "5 a tile" if placed >= ALL_FIVE else "4 a tile, 5 the first" + ("" if placed < ONE_FIVE else " and one more")
    return f"at most {most} can stand, anchored {caps}"


CUT_SLACK = 4
"""Step 5 is asked when at most this many tiles of the closure stay off the board."""


def _parts(kinds: List[int], phase: List[int], h: int, fit) -> List[List[int]]:
    """The parts of ``phase`` without tile ``h``, joined by fits (tiles of one kind do not
    fit one another unless dragons): built on kinds, at most 30."""
    count: dict = {}
    for t in phase:
        if t != h:
            count.setdefault(kinds[t], []).append(t)
    left, parts = set(count), []
    while left:
        todo = [left.pop()]
        group = list(todo)
        while todo:
            k = todo.pop()
            near = [u for u in left if k == KIND_DRAGON or u == KIND_DRAGON or fit[k][u]]
            left.difference_update(near)
            todo += near
            group += near
        if len(group) == 1 and group[0] != KIND_DRAGON:
            parts += [[t] for t in count[group[0]]]
        else:
            parts.append([t for k in group for t in count[k]])
    return parts


def _cut(kinds: List[int], phase: List[int], first: int, fit, placed: int) -> Optional[str]:
    """Step 5 with ``placed`` tiles on the board, all of ``phase``: why that is impossible, or None."""
    slack = len(phase) - placed
    if slack > CUT_SLACK:
        return None
    for k in sorted({kinds[t] for t in phase}):
        h = first if kinds[first] == k else next(t for t in phase if kinds[t] == k)
        sizes = sorted(len(p) for p in _parts(kinds, phase, h, fit) if first not in p)
        if h != first and 1 + sum(sizes) <= slack:
            continue
        room = HUB_CHILDREN if h == first or placed >= ONE_FIVE else LEVEL1_CHILDREN
        off = 0
        while sizes and off + sizes[0] <= slack:
            off += sizes.pop(0)
        if len(sizes) > room:
            return (f"{len(sizes)} parts that reach the first tile only through {_name(k)} (tile {h}), "
                    f"which anchors at most {room}")
    return None


def proves_lost(deal: Deal, *, variant: str) -> Optional[str]:
    """Why the lemma proves ``deal`` lost (one clause per first tile), or None."""
    kinds = [TILES[f].kind for f in deal.faces]
    fit = FIT[variant]
    reasons = []
    for kind in sorted(set(kinds[:RESERVE_SLOTS])):
        first = kinds.index(kind)
        closure = _Closure(kinds, first, fit)
        four, five = _Anchors(kinds, first, fit, LEVEL1_CHILDREN), _Anchors(kinds, first, fit, HUB_CHILDREN)
        for b in range(RESERVE_SLOTS + 1, len(kinds)):
            placed, phase = b - (RESERVE_SLOTS - 1), closure.grow_to(b)
            if len(phase) < placed:
                reasons.append(f"first {_name(kind)}: tiles 0-{b - 1} place at most {len(phase)}, "
                               f"{placed} are needed to draw tile {b}")
                break
            if len(phase) == placed:
                why = _hub_parity(kinds, phase, first, fit, variant)
                if why is not None:
                    reasons.append(f"first {_name(kind)}: tiles 0-{b - 1} place {placed} with {why}")
                    break
            if b <= ANCHOR_UP_TO:
                why = _anchor_bound(four, five, phase, placed) or _cut(kinds, phase, first, fit, placed)
                if why is not None:
                    reasons.append(f"first {_name(kind)}: {placed} placed to draw tile {b}, {why}")
                    break
        else:
            return None
    return "; ".join(reasons)
