"""Can ``K`` moves be played?  The early game as a SAT problem (CaDiCaL, via PySAT).

Every line of the deals the searches leave unknown dies within some 25 tiles, so
a deal is lost as soon as no legal sequence of ``K`` placements exists for one
``K``: a bounded planning question, which a CDCL solver answers completely.
:func:`reach` encodes it (below) and asks CaDiCaL 1.9.5 (``python-sat``); UNSAT
proves that no line places ``K`` tiles, so the deal is lost; SAT gives ``K``
moves, which are replayed by the reference rules before they are returned.

**The encoding is the rules** (rules/pyramid.md), over steps ``0..K-1`` (step
``t`` is the ``t+1``-th move) and the tiles ``0..K+7`` of the deal (the only
ones that can be in the reserves in ``K`` moves):

- ``f[p][t]``: position ``p`` is filled after step ``t`` (monotone in ``t``);
  exactly one position is new at each step, and the first is ``1e5``.
- ``x[i][p]``: tile ``i`` stands on ``p``; a filled position holds exactly one
  tile, a tile stands on at most one position, and tile ``i`` is not on a
  position filled before step ``i - 8`` (at step ``t`` the reserves hold tiles
  up to ``t + 8``: 9 reserve slots, refilled one per move).
- *Open:* a position above level 1 is filled only after the position below it
  and that position's four side neighbours.  A level-1 position (not the first)
  is filled only after a side neighbour, which its anchor gives.
- *Fit:* a filled position but the first has an *anchor* ``a[p][q]``: a side or
  below neighbour ``q`` filled at an earlier step whose kind fits ``p``'s.

Implied clauses, true of every line, which the solver could not find alone (a
count is a pigeonhole, exponential for resolution): ``u[i][t]``, tile ``i`` placed
by step ``t``, with exactly ``t + 1`` of the tiles drawn by then placed (a
totalizer); and, at the level of kinds, a tile placed at step ``t`` fits a kind
of which a tile was placed by ``t - 1`` (its anchor's), where the first tile of
a kind stands for the kind (same-kind tiles go down in drawing order, below).
Without them Continuous 324 (lost in 9 nodes by the search) is undecided by
CaDiCaL at 15 moves after 60 s; with the count 32 s; with both 0.6 s.
:meth:`Encoding._canonical_order` adds a partial-order reduction (independent
moves in a row in a fixed order), also sound.  The anchors' room
(:meth:`Encoding._anchor_tree`, :meth:`Encoding._hubs`): each tile's anchor
tile, at most 4 anchored a tile (5 on ``1e5`` or above level 1 with no side
filled before it), a full tile's neighbours all filled, and the tiles that fit
only one or two rare kinds needing their fifth places; with them and
:func:`reach_cubes` (a cube per first tile, one incremental solver), 764002 of
both variants has no line of 24 moves (docs/pyramid.md, "Counting in the
clauses").

Two choices prune only symmetric copies, so UNSAT still means "no line": tiles of
one kind play the same, and an earlier-drawn tile is available no later, so any
line can trade same-kind tiles until each kind is placed in drawing order (tile
``i`` placed by step ``t`` whenever a later tile ``j`` of its kind is); and the
rules do not depend on where a tile stands, only on which tiles touch, so a line
can be turned (8 symmetries of the square about ``e5``) so that its second move
is on ``1f5`` and then reflected through the ``e``-``f`` row so that its third
is not on rank 4 (both positions of the first two moves are fixed by that
reflection).  These two apply only from the empty board (no ``prefix`` beyond
the first move).  Kinds that fit the same kinds among the question's tiles are
one kind for the clauses (:func:`interchangeable`), and where the fit graph is
two-sided a tile's side and its position's colour agree (:meth:`Encoding._parity`):
Wild Dragons 559633 and 709556 and Continuous 764002, which took Kissat 59-473 s,
take it 7.5-30.7 s (docs/pyramid.md, "Interchangeable kinds and the checkerboard's
parity").
"""
from __future__ import annotations

import time
from itertools import combinations
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from solver.pyramid.deal import RESERVE_SLOTS, Deal
from solver.pyramid.geometry import ABOVE, BELOW, POSITIONS, SIDES, START, position_index
from solver.pyramid.rules import FIT, Move, PyramidGame
from solver.pyramid.tiles import TILES

SECOND = position_index("1f5")
RANK4 = (position_index("1e4"), position_index("1f4"))
CONFLICT_ROUND = 2_000
"""Conflicts between two readings of the clock (about 0.3-1 s on the hard deals)."""
SAT_UP_TO = 40
"""The SAT stage asks for at most this many moves: every line of the deals it is
for dies by 30 tiles, and past that the clauses only grow."""
MIN_QUESTION = 1.5
"""CPU seconds below which no new question is asked: writing and loading the
clauses of 24 moves (370,000) takes about 1 s, and cannot be interrupted."""
CUBE_CONFLICTS = 50_000
"""Conflicts a cube of :func:`reach_cubes` is given before it is split."""
FINISH_NODES = 100_000
"""Nodes of the exact search from a ``sat`` line, to try to win from there."""


def interchangeable(kinds: Sequence[int], fit) -> Dict[int, int]:
    """Each kind of ``kinds`` mapped to the least kind of its class of twins.

    Two kinds are twins when neither fits itself or the other and both fit the
    same kinds among ``kinds`` (the question's tiles): then a tile of one can
    stand for a tile of the other anywhere in a line, and every fit between the
    question's tiles is the same once each kind is replaced by its class's least
    (``fit[c(a)][c(b)] == fit[a][b]``).  So the clauses, built on the classes,
    are those of a deal with the same lines, whose tiles of a class are one kind:
    placed in drawing order like same-kind tiles, which prunes the symmetric
    copies of a line among, say, the sixteen tiles that fit only the dragons in
    Wild Dragons 559633 (docs/pyramid.md, "Interchangeable kinds and the
    checkerboard's parity").  Twinhood is
    an equivalence (its conditions carry over from ``a~b`` and ``b~c`` to
    ``a~c``), so the first class that takes a kind is its class.

    >>> from solver.pyramid.rules import FIT
    >>> from solver.pyramid.tiles import parse_tile
    >>> kd = lambda t: parse_tile(t).kind
    >>> merged = interchangeable([kd(t) for t in "6B 6C 8D RD 1C 2D".split()], FIT["wild-dragons"])
    >>> merged[kd("6C")] == merged[kd("8D")] == merged[kd("6B")], merged[kd("1C")] == kd("1C")
    (True, True)
    """
    present = sorted(set(kinds))
    classes: Dict[int, int] = {}
    for a in present:
        classes[a] = next((r for r in sorted(set(classes.values()))
                           if not fit[a][a] and not fit[r][r] and not fit[a][r]
                           and all(fit[a][c] == fit[r][c] for c in present if c not in (a, r))), a)
    return classes


def fit_sides(kinds: Sequence[int], fit) -> Dict[int, int]:
    """The side (0 or 1) of each kind of ``kinds`` whose component of the fit graph
    (the kinds as vertices, an edge where two fit) is two-sided: every fit joins
    the two sides.  Kinds of a component with an odd cycle (a dragon fits itself;
    in Continuous the ranks' circle of 11) are left out.

    >>> from solver.pyramid.rules import FIT
    >>> from solver.pyramid.tiles import parse_tile
    >>> kd = lambda t: parse_tile(t).kind
    >>> sides = fit_sides([kd(t) for t in "9B SP 8D 7C 1C 2D RD".split()], FIT["wild-dragons"])
    >>> [sides.get(kd(t)) for t in "9B SP 8D 7C 1C 2D RD".split()]
    [None, None, None, None, None, None, None]
    >>> sides = fit_sides([kd(t) for t in "9B SP 8D 7C 1C 2D".split()], FIT["wild-dragons"])
    >>> [sides.get(kd(t)) for t in "9B SP 8D 7C 1C 2D".split()]
    [0, 1, 1, 0, 0, 1]
    """
    present = sorted(set(kinds))
    side: Dict[int, int] = {}
    two_sided: Dict[int, bool] = {}
    for root in present:
        if root in side:
            continue
        side[root], two_sided[root], members, stack = 0, True, [root], [root]
        while stack:
            a = stack.pop()
            for b in present:
                if not fit[a][b]:
                    continue
                if b not in side:
                    side[b] = 1 - side[a]
                    members.append(b)
                    stack.append(b)
                elif side[b] == side[a]:
                    two_sided[root] = False
        if not two_sided[root]:
            for a in members:
                side[a] = -1
    return {a: s for a, s in side.items() if s >= 0}


def colour(p: int) -> int:
    """The colour of position ``p`` on the pyramid's checkerboard (level, file and rank
    summed, modulo 2): adjacent positions, on a level or one above the other, differ."""
    q = POSITIONS[p]
    return (q.level + q.file + q.rank) % 2


def _requirements(p: int) -> set:
    """The positions that must be filled before ``p`` can open (above level 1)."""
    below = BELOW[p]
    if below is None:
        return set()
    need = {below, *SIDES[below]}
    for q in list(need):
        need |= _requirements(q)
    return need


def _earliest() -> List[int]:
    """A lower bound on the step at which each position can be filled: level 1
    its distance from ``1e5`` (the level-1 tiles stay joined by sides); above,
    after every position it needs (distinct positions, one per step)."""
    e = [0] * len(POSITIONS)
    start = POSITIONS[START]
    for p in POSITIONS:
        if p.level == 1:
            e[p.index] = abs(p.file - start.file) + abs(p.rank - start.rank)
        else:
            need = _requirements(p.index)
            e[p.index] = max(len(need), max(e[q] + 1 for q in need))
    return e


EARLIEST = _earliest()


@dataclass
class Reach:
    """The answer of :func:`reach`: ``status`` is ``sat`` (``line``: ``K`` legal
    moves from the deal's start, replayed), ``unsat`` (no line places ``K``
    tiles) or ``unknown`` (the time or conflict budget ran out)."""

    status: str
    k: int
    line: List[Move] = field(default_factory=list)
    cpu_seconds: float = 0.0
    variables: int = 0
    clauses: int = 0
    conflicts: int = 0
    proof: Optional[object] = None      # unsat, asked with a proof maker: a satproof.ProofTrace


class Encoding:
    """The clauses of "``k`` moves can be played" for one deal and variant."""

    def __init__(self, kinds: Sequence[int], k: int, *, variant: str = "continuous",
                 prefix: Sequence[Tuple[int, int]] = (), order: bool = True,
                 count: bool = True, tree: bool = True, room: bool = False, squares: bool = False,
                 lex: bool = False, twins: bool = True, parity: bool = True):
        """``kinds``: the deal's kinds in order; ``prefix``: (kind, position)
        moves fixed as the first steps (they must be legal); ``room``: the hubs'
        room as a count (:meth:`_room`, with the tree only; off: it did not pay,
        docs/pyramid.md, "Faster proofs"); ``twins``: interchangeable kinds as
        one (:func:`interchangeable`), ``parity``: the checkerboard's parity
        (:meth:`_parity`); both off only to measure them."""
        from pysat.card import CardEnc, EncType
        from pysat.formula import IDPool

        fit = FIT[variant]
        n_tiles = min(len(kinds), k + RESERVE_SLOTS - 1)
        merged = interchangeable(kinds[:n_tiles], fit) if twins else {}
        self.deal_kinds = list(kinds)
        self.kinds = [merged.get(kd, kd) for kd in kinds]
        self.k, self.variant, self.room = k, variant, room
        self.squares = squares
        self.given_prefix = list(prefix)
        self.prefix = [(merged.get(kd, kd), p) for kd, p in prefix]
        self.split: List[int] = []
        self.crowded: List[int] = []
        self.pool = IDPool()
        self.clauses: List[List[int]] = []
        self.tiles = list(range(n_tiles))
        live = [p.index for p in POSITIONS if EARLIEST[p.index] < k]
        self.live = live
        var = self.pool.id
        add = self.clauses.append

        def f(p: int, t: int) -> Optional[int]:
            """The literal "p filled after step t", or None when it is false."""
            if t < EARLIEST[p] or t < 0:
                return None
            return var(("f", p, min(t, k - 1)))

        self.f = f
        for p in live:
            for t in range(EARLIEST[p], k - 1):
                add([-f(p, t), f(p, t + 1)])
        # exactly one new position a step
        self.new: Dict[Tuple[int, int], int] = {}
        for t in range(k):
            news = []
            for p in live:
                if t < EARLIEST[p]:
                    continue
                n = var(("n", p, t))
                self.new[p, t] = n
                before = f(p, t - 1)
                add([-n, f(p, t)])
                if before is not None:
                    add([-n, -before])
                    add([n, -f(p, t), before])
                else:
                    add([n, -f(p, t)])
                news.append(n)
            add(news)
            self._extend(CardEnc.atmost(news, 1, vpool=self.pool, encoding=EncType.seqcounter))
        add([f(START, 0)])
        # tiles on positions
        by_kind: Dict[int, List[int]] = {}
        for i in self.tiles:
            by_kind.setdefault(self.kinds[i], []).append(i)
        self.x = {(i, p): var(("x", i, p)) for i in self.tiles for p in live}
        for p in live:
            on = [self.x[i, p] for i in self.tiles]
            add([-f(p, k - 1)] + on)
            for lit in on:
                add([-lit, f(p, k - 1)])
            self._extend(CardEnc.atmost(on, 1, vpool=self.pool, encoding=EncType.seqcounter))
            for i in self.tiles:       # tile i reaches the reserves at step i - 8
                early = f(p, i - RESERVE_SLOTS)
                if early is not None:
                    add([-self.x[i, p], -early])
        for i in self.tiles:
            self._extend(CardEnc.atmost([self.x[i, p] for p in live], 1, vpool=self.pool,
                                        encoding=EncType.seqcounter))
        # u[i][t]: tile i placed by step t (none before it is drawn, at step i - 8)
        def u(i: int, t: int) -> Optional[int]:
            return var(("u", i, t)) if t >= i - RESERVE_SLOTS + 1 else None

        for i in self.tiles:
            for t in range(max(0, i - RESERVE_SLOTS + 1), k):
                add([-u(i, t)] + [self.x[i, p] for p in live])
                if t + 1 < k:
                    add([-u(i, t), u(i, t + 1)])
                for p in live:
                    if f(p, t) is not None:
                        add([-self.x[i, p], -f(p, t), u(i, t)])
                        add([-u(i, t), -self.x[i, p], f(p, t)])
                    else:
                        add([-u(i, t), -self.x[i, p]])
        # t + 1 tiles placed by step t, all drawn by then: the count the reserve keeps,
        # as a cardinality so that propagation sees it (pigeonholes defeat resolution)
        if count:
            for t in range(k):
                lits = [u(i, t) for i in self.tiles if u(i, t) is not None]
                self._extend(CardEnc.equals(lits, t + 1, vpool=self.pool, encoding=EncType.totalizer))
        # same-kind tiles in drawing order: j placed by step t => i placed by step t (i < j)
        for tiles in by_kind.values():
            for i, j in zip(tiles, tiles[1:]):
                for t in range(max(0, j - RESERVE_SLOTS + 1), k):
                    add([-u(j, t), u(i, t)])
        # implied, at the level of kinds: a tile placed at step t fits a kind placed
        # before t (its anchor's), and the first tile of a kind stands for the kind
        if count:
            first = {kd: tiles[0] for kd, tiles in by_kind.items()}
            for i in self.tiles:
                for t in range(max(1, i - RESERVE_SLOTS + 1), k):
                    prev = u(i, t - 1)
                    support = [u(first[kd], t - 1) for kd in by_kind if fit[self.kinds[i]][kd]]
                    add([-u(i, t)] + ([prev] if prev is not None else [])
                        + [s for s in support if s is not None])
        # the kind on a position
        present = sorted(by_kind)
        self.y = {}
        for p in live:
            for kd in present:
                y = var(("y", kd, p))
                self.y[kd, p] = y
                on = [self.x[i, p] for i in by_kind[kd]]
                add([-y] + on)
                for lit in on:
                    add([-lit, y])
        # openness above level 1
        for p in live:
            below = BELOW[p]
            if below is None:
                continue
            for q in (below, *SIDES[below]):
                for t in range(EARLIEST[p], k):
                    before = f(q, t - 1)
                    add([-f(p, t)] + ([before] if before is not None else []))
        # anchors: a neighbour filled earlier whose kind fits
        for p in live:
            if p == START:
                continue
            near = [q for q in (*SIDES[p], BELOW[p]) if q is not None and EARLIEST[q] < k]
            anchors = []
            for q in near:
                a = var(("a", p, q))
                anchors.append(a)
                for t in range(EARLIEST[p], k):
                    before = f(q, t - 1)
                    add([-a, -f(p, t)] + ([before] if before is not None else []))
                add([-a, f(q, k - 1)])
                for kd in present:
                    add([-a, -self.y[kd, p]] + [self.y[u, q] for u in present if fit[kd][u]])
            add([-f(p, k - 1)] + anchors)
        self.by_kind = by_kind
        if tree:
            self._anchor_tree(u, fit)
        if parity:
            self._parity(fit)
        turned = len(prefix) <= 1 and k >= 2     # the board's symmetry is broken below
        if order and lex:
            self._lex_order(3 if turned else len(prefix))
        elif order:
            self._canonical_order(3 if turned else len(prefix))
        # the prefix, as fixed steps (each kind's earliest unplaced tile)
        used = {kd: 0 for kd in by_kind}
        for t, (kd, p) in enumerate(self.prefix[:k]):
            i = by_kind[kd][used[kd]]
            used[kd] += 1
            add([self.new[p, t]])
            add([self.x[i, p]])
        if turned:
            add([self.new[SECOND, 1]])
            if k >= 3:
                for p in RANK4:
                    if (p, 2) in self.new:
                        add([-self.new[p, 2]])

    def _canonical_order(self, fixed: int) -> None:
        """Two moves in a row that could be played the other way round are
        played with the lower position first (partial-order reduction).

        Moves ``p`` at step ``t`` then ``q`` at ``t + 1`` can swap when ``q``'s
        tile was already in the reserves at ``t`` (it is not tile ``t + 9``),
        ``q`` is open without ``p`` (``p`` is not below ``q`` nor beside the
        position below it) and ``q`` fits a neighbour other than ``p``; the swap
        leaves every other step as it was.  Swapping such pairs with ``q < p``
        (bubble sort on the moves, tiles renamed by kind in drawing order) ends,
        so every line has a twin in which each such pair is dependent: the
        clause below, where ``a[q][p]`` stands for "``q`` needs ``p`` as its
        anchor" (it may be chosen more often: only weaker)."""
        add, k = self.clauses.append, self.k
        for t in range(max(fixed, 1), k - 1):
            release = t + 1 + RESERVE_SLOTS - 1      # the tile first in the reserves at step t + 1
            for p in self.live:
                np_ = self.new.get((p, t))
                if np_ is None:
                    continue
                for q in self.live:
                    if q >= p:
                        break
                    nq = self.new.get((q, t + 1))
                    if nq is None or p in _requirements(q):
                        continue
                    clause = [-np_, -nq]
                    if release in self.tiles:
                        clause.append(self.x[release, q])
                    a = self.pool.obj2id.get(("a", q, p))
                    if a:
                        clause.append(a)
                    add(clause)

    def _lex_order(self, fixed: int, early: int = 0) -> None:
        """A move that could have been played earlier is no smaller than the move
        played then (the lexicographic normal form of the order of moves; it
        implies :meth:`_canonical_order`'s pairs, which is the case of one step).

        ``D[q][t]``: ``q`` is filled after step ``t`` but was playable at ``t``: its
        tile drawn by then (index at most ``t + 8``), an anchor of it (``a[q][n]``)
        filled before ``t``, and above level 1 the position below and that
        position's sides filled before ``t``.  Then the position of step ``t`` is
        lower than ``q``.  Sound: moving such a ``q`` to step ``t`` keeps the line
        legal (the moves between stay open, anchored and in the reserves, one step
        later, the board after ``q``'s old step is the same) and makes the sequence
        of positions lexicographically smaller when ``q`` is the lower; so the
        least line of the ones that such moves join (tiles renamed by kind in
        drawing order, which keeps the positions) has no such ``q`` at any step
        from ``fixed`` on, and it is a model with ``a`` every fitting neighbour
        filled earlier and ``D`` the truth.  ``D`` is only forced true.  ``early``:
        steps by which a tile counts as drawn too soon (only the tests' deliberate
        bug: 1 is unsound, and the brute-force agreement must notice).
        """
        add, k, var, f = self.clauses.append, self.k, self.pool.id, self.f
        for t in range(max(fixed, 1), k - 1):
            for q in self.live:
                if q == START or f(q, k - 1) is None:
                    continue
                drawn = var(("L", q, t))
                for i in self.tiles:
                    if i <= t + RESERVE_SLOTS - 1 + early:
                        add([-self.x[i, q], drawn])
                anchored = var(("A", q, t))
                for n in (*SIDES[q], BELOW[q]):
                    a = None if n is None else self.pool.obj2id.get(("a", q, n))
                    before = None if n is None else f(n, t - 1)
                    if a and before is not None:
                        add([-a, -before, anchored])
                below = BELOW[q]
                needs = [] if below is None else [below, *SIDES[below]]
                befores = [f(r, t - 1) for r in needs]
                if any(b is None for b in befores):
                    continue                     # not open at t
                late = var(("D", q, t))
                now = f(q, t)
                add([-drawn, -anchored, -f(q, k - 1)] + [-b for b in befores]
                    + ([now] if now is not None else []) + [late])
                for p in self.live:
                    if p > q and (p, t) in self.new:
                        add([-late, -self.new[p, t]])

    def _anchor_tree(self, u, fit) -> None:
        """Each placed tile but the first has an anchor *tile*, and a tile anchors
        at most 4 others, 5 when it is the first or stands above level 1.

        ``b[i][j]``: tile ``i``'s anchor is tile ``j`` (their kinds fit; ``j``
        placed at an earlier step, on a side of ``i``'s position or below it).
        Sound: in a line, name for each tile one fitting neighbour filled before
        it (the rules demand one); the tiles so named to ``j`` stand on distinct
        neighbours of ``j``'s position that were empty when ``j`` went down: its
        4 sides and its top, less a filled side on level 1 (a level-1 position
        opens only beside a filled one), save ``1e5``, the first, which opens on
        an empty board.  The counts are the anchor tree's (docs/pyramid.md,
        steps 4-5 of the lemma), here tied to the squares, so that propagation
        sees a kind with too little room (Continuous 764002: nine tiles that fit
        only the one ``GD``).
        """
        add, k, var = self.clauses.append, self.k, self.pool.id
        last = k - 1
        upper = [p for p in self.live if POSITIONS[p].level > 1]
        # beside[p]: a side of p was filled before p (on level 1 always, but at 1e5)
        beside = {p: var(("beside", p)) for p in upper}
        for p in upper:
            for t in range(EARLIEST[p], k):
                for q in SIDES[p]:
                    before = self.f(q, t - 1)
                    if before is not None:
                        add([-self.new[p, t], -before, beside[p]])
        self.five: Dict[int, int] = {}
        self.anchors: Dict[int, int] = {}       # tile: how many tiles it may anchor
        first_of = self._may_be_first
        for i in self.tiles:
            placed = u(i, last)
            if placed is None:
                continue
            choices = []
            for j in self.tiles:
                if j == i or not fit[self.kinds[i]][self.kinds[j]] or u(j, last) is None:
                    continue
                b = var(("b", i, j))
                choices.append(b)
                for t in range(max(0, i - RESERVE_SLOTS + 1), k):
                    earlier = u(j, t - 1) if t >= 1 else None
                    add([-b, -u(i, t)] + ([earlier] if earlier is not None else []))
                add([-b, placed])
                for p in self.live:
                    near = [self.x[j, q] for q in (*SIDES[p], BELOW[p]) if q is not None and (j, q) in self.x]
                    add([-b, -self.x[i, p]] + near)
            add([-placed, self.x[i, START]] + choices)
        held: Dict[int, List[Optional[int]]] = {}      # tile: its counter of anchored tiles
        for j in self.tiles:
            anchored = [self.pool.obj2id[("b", i, j)] for i in self.tiles if ("b", i, j) in self.pool.obj2id]
            self.anchors[j] = len(anchored)
            if self.squares and anchored:
                held[j] = self._counts(anchored, min(len(anchored), 6))
            if len(anchored) < 4:
                continue
            # a full tile: all its neighbours that were empty when it went down are
            # filled (by the tiles it anchors), which the squares' clauses then follow
            counts = held.get(j) or self._counts(anchored, min(len(anchored), 6))
            four = counts[4]
            for p in self.live:
                if POSITIONS[p].level == 1 and p != START:
                    self._all_filled(four, j, p, (*SIDES[p], ABOVE[p]))
            if len(anchored) == 4:
                continue
            five = counts[5]
            for p in [START] + upper:
                self._all_filled(five, j, p, (*SIDES[p], ABOVE[p]))
            self.five[j] = five
            if len(anchored) > 5:
                add([-counts[6]])
            add([-five, self.x[j, START]] + [self.x[j, p] for p in upper])
            for p in upper:                 # a fifth only with all four sides empty
                add([-five, -self.x[j, p], -beside[p]])
        if self.squares:
            self._square_room(held)
        self._hubs(u, fit, first_of)

    def _square_room(self, held: Dict[int, List[Optional[int]]], spare: int = 0) -> None:
        """A tile anchors at most the squares around it that were empty when it
        went down and are filled later: the square bound's room of a square
        (docs/pyramid.md, "The square room as clauses").

        ``e[q][p]``: ``p`` is filled and its neighbour ``q`` (a side or the top)
        is not filled after it (before it, or never within the ``k`` moves);
        ``r[p][m]``: at least ``m`` such ``q``.  A tile ``j`` on ``p`` that
        anchors ``c`` tiles leaves at most ``n - c`` of ``p``'s ``n`` live
        neighbours so.  Sound: the tiles ``j`` anchors (``b[i][j]``) stand on
        distinct positions (one tile a position), each a side or the top of
        ``p`` (``b``'s position clause) and placed after ``j`` (``b``'s step
        clause); so each is a neighbour filled after ``p``.  ``e`` is only
        forced true (it appears negated in the bound), which a real line's
        truth satisfies.  The anchor tree's counts were 4 and 5 whatever the
        square; on level 1 a tile with two sides filled before it holds at most
        3, on an edge fewer: a pigeonhole resolution finds case by case.
        ``spare``: squares taken from every room (only the tests' deliberate bug: 1
        is unsound, and the brute-force agreement must notice).
        """
        add, k, var, f = self.clauses.append, self.k, self.pool.id, self.f
        live = set(self.live)
        for p in self.live:
            around = [q for q in (*SIDES[p], ABOVE[p]) if q is not None and q in live]
            lits = []
            for q in around:
                e = var(("e", q, p))
                lits.append(e)
                add([-f(p, k - 1), f(q, k - 1), e])            # never filled
                if q != ABOVE[p]:                                # filled before p
                    for t in range(EARLIEST[p], k):
                        before = f(q, t - 1)
                        if before is not None:
                            add([-self.new[p, t], -before, e])
            r = self._counts(lits, len(lits)) if lits else [None]
            for j, counts in held.items():
                if (j, p) not in self.x:
                    continue
                for c in range(1, len(counts)):
                    if counts[c] is None:
                        continue
                    m = len(around) - c + 1 - spare      # this many not filled after: room < c
                    add([-counts[c], -self.x[j, p]] + ([-r[m]] if m >= 1 else []))

    def _hubs(self, u, fit, first_of) -> None:
        """Room around rare kinds: the tiles that fit only the tiles of one or two
        kinds ``H`` (``D``, not of ``H``) are anchored by them, and at most
        ``|T| - K`` of the ``|T|`` tiles of the question stay unplaced, so the
        tiles of ``H`` anchor at least ``|D| - (|T| - K)`` tiles, one less when
        the first tile is of ``D`` (it needs no anchor).  Each anchors at most 4
        unless it holds 5 (``five``), so at least that many minus 4 a tile of
        ``H`` hold 5: a clause (or a count) over their ``five`` literals, guarded
        by "the first tile is of ``D``", which propagation uses at once where the
        sum of the loads would need a count.  The ``five`` literals so named are
        :attr:`split`, the cubes' splitting literals (:func:`reach_cubes`);
        :attr:`crowded`: the ``five`` literals of every hub whose ``D`` outnumbers
        four a holder, whatever ``K`` (more literals to split on).
        """
        kinds = sorted(self.by_kind)
        spare = len(self.tiles) - self.k
        partners = {i: {self.kinds[j] for j in self.tiles if j != i and fit[self.kinds[i]][self.kinds[j]]}
                    for i in self.tiles}
        for size in (1, 2):
            for hub in combinations(kinds, size):
                group = [i for i in self.tiles if self.kinds[i] not in hub and partners[i] <= set(hub)]
                holders = [j for kd in hub for j in self.by_kind[kd]]
                fives = [self.five[j] for j in holders if j in self.five]
                firsts = [self.x[i, START] for i in group if first_of(i)]
                extra = len(group) - spare - 4 * len(holders)
                self._some_true(fives, extra, firsts)          # the first not of D
                if firsts:
                    self._some_true(fives, extra - 1, [])
                if extra > 0:
                    self.split.extend(l for l in fives if l not in self.split)
                if self.room and len(group) >= 2:
                    self._room(u, group, holders, firsts)
                if len(group) > 4 * len(holders):
                    self.crowded.extend(l for l in fives if l not in self.crowded)

    def _room(self, u, group, holders, firsts: List[int]) -> None:
        """The hubs' room as a count, at every size of the question: the placed
        tiles of ``D`` (``group``, whose every partner is a tile of ``holders``),
        less one when the first tile is of ``D``, are at most what the placed
        holders anchor: 4 each, 5 with ``five`` (fewer where fewer may anchor
        it).  Sound: each placed tile of ``D`` but the first has an anchor tile,
        which fits it, so is a placed holder, and a tile anchors at most 4, or 5
        with its ``five`` literal true (forced by the counter).  :meth:`_hubs`
        states only the case where ``K`` forces fives; this count lets
        propagation see a holder unplaced or without its fifth, or tiles of
        ``D`` placed, at any point of the search (a pigeonhole, which the
        per-tile counters leave to resolution).  As a weighted ``atmost``: the
        placed tiles of ``D``, ``cap`` times "holder unplaced" and once "no
        fifth", at most the holders' full room."""
        from pysat.card import CardEnc, EncType

        last = self.k - 1
        lits = [u(i, last) for i in group if u(i, last) is not None]
        bound = 0
        for h in holders:
            placed = u(h, last)
            if placed is None:
                continue
            cap = min(4, self.anchors.get(h, 0))
            lits += [-placed] * cap
            bound += cap
            if h in self.five:
                lits.append(-self.five[h])
                bound += 1
        if len(lits) <= bound:
            return
        guard = list(firsts)
        for clause in CardEnc.atmost(lits, bound, vpool=self.pool, encoding=EncType.totalizer).clauses:
            self.clauses.append(clause + guard)            # the first tile not of D
        if guard and len(lits) > bound + 1:
            self._extend(CardEnc.atmost(lits, bound + 1, vpool=self.pool, encoding=EncType.totalizer))

    def _some_true(self, lits: List[int], n: int, unless: List[int]) -> None:
        """At least ``n`` of ``lits`` are true, unless one of ``unless`` is."""
        if n <= 0:
            return
        if n > len(lits):
            self.clauses.append(list(unless))
        elif n == 1:
            self.clauses.append(list(unless) + list(lits))
        else:               # not more than len - n of them false
            too_many_false = self._at_least([-l for l in lits], len(lits) - n + 1)
            self.clauses.append(list(unless) + [-too_many_false])

    def _parity(self, fit) -> None:
        """The checkerboard's parity: where the fit graph is two-sided (:func:`fit_sides`),
        a tile's side and its position's colour (:func:`colour`) agree up to one bit
        ``z``, the same for every tile placed.

        *Sound:* every placed tile but the first has an anchor, an adjacent position
        (a side or the one below) filled earlier whose tile fits it; adjacent positions
        differ in colour and fitting kinds of a two-sided component in side, so side
        plus colour is the same along the anchor, and the anchors join every placed
        tile to the first: all placed tiles are of the first one's component, and when
        it is two-sided they share side plus colour.  A tile of a component with an odd
        cycle (a dragon fits itself) gets no clause.  What it adds is a count CDCL
        cannot make: in Wild Dragons 709556 (no dragon among its first 33 tiles) the
        seasons' 9B must stand above level 1 on an 8D, and 9 of the 13 level-1 tiles
        that its four level-2 neighbours need are on the 8D's colour, so of its side;
        the question has only 8 (docs/pyramid.md, "Interchangeable kinds and the
        checkerboard's parity").
        """
        sides = fit_sides([self.kinds[i] for i in self.tiles], fit)
        z = self.pool.id(("parity",))
        for i in self.tiles:
            side = sides.get(self.kinds[i])
            if side is None:
                continue
            for p in self.live:
                self.clauses.append([-self.x[i, p], z if side ^ colour(p) else -z])

    def _all_filled(self, full: int, j: int, p: int, around) -> None:
        """``full`` and tile ``j`` on ``p``: every position of ``around`` is filled."""
        for q in around:
            filled = None if q is None else self.f(q, self.k - 1)
            self.clauses.append([-full, -self.x[j, p]] + ([filled] if filled is not None else []))

    def _may_be_first(self, i: int) -> bool:
        """Can tile ``i`` be the first tile placed (no anchor needed)?"""
        if self.prefix:
            return i == self.by_kind[self.prefix[0][0]][0]
        return i < RESERVE_SLOTS

    def _at_least(self, lits: Sequence[int], n: int) -> int:
        """A literal forced true when ``n`` of ``lits`` are (a sequential counter,
        one direction: enough for an upper bound on the count)."""
        return self._counts(lits, n)[n]

    def _counts(self, lits: Sequence[int], n: int) -> List[Optional[int]]:
        """``row[c]`` for ``c`` up to ``n``: a literal forced true when ``c`` of
        ``lits`` are; one counter serves every ``c`` (the anchor tree reads 4, 5
        and 6 on the same literals: three counters repeated the first's clauses)."""
        add, var = self.clauses.append, self.pool.id
        key = ("cnt", tuple(lits))
        row = [None] * (n + 1)          # row[c]: at least c of the literals so far
        for m, lit in enumerate(lits):
            new = [None] * (n + 1)
            for c in range(1, min(m + 1, n) + 1):
                new[c] = var(key + (m, c))
                if row[c] is not None:
                    add([-row[c], new[c]])
                if c == 1:
                    add([-lit, new[c]])
                elif row[c - 1] is not None:
                    add([-row[c - 1], -lit, new[c]])
            row = new
        return row

    def _extend(self, card) -> None:
        self.clauses.extend(card.clauses)

    def line(self, model: Sequence[int]) -> List[Tuple[int, int]]:
        """The (kind, position) moves of a satisfying assignment, in order, named
        by the deal's own kinds."""
        true = {lit for lit in model if lit > 0}
        placed = []
        for t in range(self.k):
            p = next(p for p in self.live if (p, t) in self.new and self.new[p, t] in true)
            placed.append((next(i for i in self.tiles if self.x[i, p] in true), p))
        return self._named(placed)

    def _named(self, placed: Sequence[Tuple[int, int]]) -> List[Tuple[int, int]]:
        """The (tile, position) steps of a line as (kind, position) moves of the deal.

        The prefix is named as it was given.  After it, a tile of a class of
        interchangeable kinds stands for the deal's tile of that class in the
        same rank of drawing order among those the given prefix left: the
        prefix here took each class's earliest tiles, which are drawn no later,
        so the deal's tile is in the reserves whenever the clauses' one is, and
        it fits the same tiles.  Without a prefix the tiles are the clauses' own.
        """
        n = len(self.given_prefix)
        taken = set()
        for kd, _ in self.given_prefix:
            taken.add(next(i for i in self.tiles if self.deal_kinds[i] == kd and i not in taken))
        used = {i for i, _ in placed[:n]}
        rename = {}
        for tiles in self.by_kind.values():
            rename.update(zip([i for i in tiles if i not in used], [i for i in tiles if i not in taken]))
        return self.given_prefix[:len(placed)] + [(self.deal_kinds[rename[i]], p) for i, p in placed[n:]]


def reach(deal: Deal, k: int, *, variant: str = "continuous", prefix: Sequence[Move] = (),
          time_limit: Optional[float] = None, conflict_limit: Optional[int] = None,
          solver: str = "cadical195", order: bool = True, count: bool = True,
          tree: bool = True, room: bool = False, squares: bool = False, lex: bool = False,
          twins: bool = True, parity: bool = True, options: Optional[Dict[str, int]] = None) -> Reach:
    """Is there a legal line of ``k`` moves (starting with ``prefix``)?

    ``time_limit``: CPU seconds of this thread (what the searches' limit counts),
    building the clauses included, checked between rounds of
    :data:`CONFLICT_ROUND` conflicts; ``conflict_limit``: the solver's conflicts
    (the budget that repeats exactly); None: no limit.  A ``sat`` line is
    replayed by the reference rules (an illegal one raises: the encoding would
    be wrong).  ``order``/``count``/``tree``: the redundant clauses (for the tests).
    ``options``: CaDiCaL's parameters (``configure``), for the figures.
    """
    from solver.pyramid.search import deal_kinds

    start = time.thread_time()
    kinds = deal_kinds(deal)
    pre = [(TILES[m.tile].kind, m.pos) for m in prefix]
    enc = Encoding(kinds, k, variant=variant, prefix=pre, order=order, count=count, tree=tree, room=room,
                   squares=squares, lex=lex, twins=twins, parity=parity)
    out = Reach("unknown", k, variables=enc.pool.top, clauses=len(enc.clauses))
    with _solver(solver, enc.clauses, options) as s:
        if time_limit is None and conflict_limit is None:
            answer = s.solve()
        else:
            answer = _solve_in_rounds(s, start, time_limit, conflict_limit)
        out.conflicts = _conflicts(s)
        if answer is not None:
            out.status = "sat" if answer else "unsat"
        if answer:
            out.line = _replayed(deal, variant, enc, s.get_model())
    out.cpu_seconds = time.thread_time() - start
    return out


PROOF_OPTIONS = {"elim": 0, "decompose": 0}
"""CaDiCaL's options when it writes a proof to be checked: no variable elimination
and no substitution of equivalent literals.  A cube's assumption on a variable
that CaDiCaL had eliminated or substituted makes it restore the clauses it took
out, and those restored clauses enter the proof as lemmas that need not follow
from the clauses held (they were deleted): Continuous 764002's proof at 24 moves,
whose cubes split on the hubs' literals, failed the check at one lemma with both
on and with elimination alone off, and is checked with both off (1,815,340
lemmas; docs/pyramid.md, "The proofs of 764002 and 559633")."""


def _solver(name: str, clauses, options: Optional[Dict[str, int]], *, with_proof: bool = False):
    """A PySAT solver with the clauses, CaDiCaL's ``options`` set before they go in
    (``with_proof``: CaDiCaL writes its proof from the start, for :mod:`satproof`,
    with :data:`PROOF_OPTIONS` unless ``options`` says otherwise)."""
    from pysat.solvers import Solver

    s = Solver(name=name, with_proof=with_proof)
    if with_proof:
        options = {**PROOF_OPTIONS, **(options or {})}
    if options:
        s.solver.configure(dict(options))
    s.append_formula(clauses)
    return s


def _conflicts(s) -> int:
    """The solver's conflicts so far (0 for Kissat: PySAT exposes no statistics for it)."""
    try:
        return s.accum_stats().get("conflicts", 0)
    except NotImplementedError:
        return 0


def _out_of_budget(s, start: float, time_limit: Optional[float], conflict_limit: Optional[int]) -> bool:
    """The CPU seconds of this thread since ``start``, or the solver's conflicts, are used up."""
    return ((time_limit is not None and time.thread_time() - start >= time_limit)
            or (conflict_limit is not None and _conflicts(s) >= conflict_limit))


def _solve_in_rounds(s, start: float, time_limit: Optional[float], conflict_limit: Optional[int], *,
                     assumptions: Sequence[int] = (), budget: Optional[int] = None) -> Optional[bool]:
    """The solver's answer, in rounds of :data:`CONFLICT_ROUND` conflicts with
    the clock read between them; None when the budget (:func:`_out_of_budget`,
    or this call's ``budget`` of conflicts) runs out first."""
    before = _conflicts(s)
    while budget is None or _conflicts(s) - before < budget:
        if _out_of_budget(s, start, time_limit, conflict_limit):
            return None
        s.conf_budget(CONFLICT_ROUND if conflict_limit is None
                      else min(CONFLICT_ROUND, conflict_limit - _conflicts(s)))
        answer = s.solve_limited(assumptions=list(assumptions))
        if answer is not None:
            return answer
    return None


def _replayed(deal: Deal, variant: str, enc: Encoding, model) -> List[Move]:
    """The moves of a satisfying assignment, named and replayed by the reference
    rules (an illegal one raises: the encoding would be wrong)."""
    return replayed_line(deal, variant, enc.line(model))


def replayed_line(deal: Deal, variant: str, line: Sequence[Tuple[int, int]]) -> List[Move]:
    """The (kind, position) moves of a solver's line, named and replayed by the
    reference rules (an illegal one raises: the encoding would be wrong)."""
    from solver.pyramid.search import faces_for_line

    moves, _ = faces_for_line(deal, line)
    state = PyramidGame(deal, variant).new_initial_state()
    for m in moves:
        state.apply(m)
    return moves


CHILD_SOLVER = "kissat404"
"""The solver :func:`ask_in_child` runs (a PySAT name): Kissat 4.0.4."""
CHILD_LEX = True
"""The child's clauses have the lexicographic order of moves (:meth:`Encoding._lex_order`):
with the twins and the parity, Kissat proves the retry's hardest questions in 7.5-30.7 s
with it and 8.3-46.0 s without (docs/pyramid.md, "Interchangeable kinds and the
checkerboard's parity")."""


def ask_in_child(deal: Deal, k: int, *, variant: str, time_limit: Optional[float] = None,
                 solver: str = CHILD_SOLVER) -> Reach:
    """:func:`reach`'s question (the default clauses, with :data:`CHILD_LEX`) asked
    of ``solver`` in one call, in a child process stopped after ``time_limit`` CPU seconds (None: no
    limit; :mod:`solver.pyramid.satchild`).  ``conflicts``, ``variables`` and
    ``clauses`` are 0: Kissat reports no conflicts, and the clauses are the
    child's.  A ``sat`` line is replayed by the reference rules here."""
    from solver.pyramid.satchild import run
    from solver.pyramid.search import deal_kinds

    question = {"kinds": deal_kinds(deal), "k": k, "variant": variant, "solver": solver}
    answer, cpu = run("solver.pyramid.sat:answer_in_child", question, time_limit=time_limit)
    out = Reach("unknown", k, cpu_seconds=cpu)
    if answer is not None:
        out.status = answer["status"]
        if out.status == "sat":
            out.line = replayed_line(deal, variant, [tuple(m) for m in answer["line"]])
    return out


def answer_in_child() -> None:
    """The child of :func:`ask_in_child`: the question from standard input, the
    answer (``status``, and a ``sat`` line's (kind, position) moves) to standard output."""
    import json
    import sys

    from pysat.solvers import Solver

    q = json.load(sys.stdin)
    enc = Encoding(q["kinds"], q["k"], variant=q["variant"], lex=CHILD_LEX)
    with Solver(name=q["solver"], bootstrap_with=enc.clauses) as s:
        answer = s.solve()
        line = enc.line(s.get_model()) if answer else []
    json.dump({"status": "sat" if answer else "unsat", "line": line}, sys.stdout)


def reach_cubes(deal: Deal, k: int, *, variant: str = "continuous", time_limit: Optional[float] = None,
                conflict_limit: Optional[int] = None, cube_conflicts: int = CUBE_CONFLICTS,
                solver: str = "cadical195", log=None, options: Optional[Dict[str, int]] = None,
                crowded: bool = False, room: bool = False, squares: bool = False, rotate: bool = False,
                order: bool = True, lex: bool = False, twins: bool = True, parity: bool = True,
                proof=None) -> Reach:
    """:func:`reach` by cube and conquer on one incremental solver (its learned
    clauses serve every cube): a cube per kind of the first tile (the first tile
    of a kind placed is its earliest, by the drawing order, so "tile ``i`` on
    ``1e5``" for the earliest tile of each kind in the first reserve covers every
    line), each given ``cube_conflicts``; one left undecided is split on the next
    of :attr:`Encoding.split` (a hub's tile anchors five, and not), and when
    those are used up is asked again with twice the conflicts.  ``unsat`` only
    when every cube is: the cubes of a split cover both of its cases.
    ``time_limit``, ``conflict_limit``: as :func:`reach`'s, for all the cubes.
    ``log``: called with (cube, answer, conflicts) for the figures.
    ``crowded``: split also on :attr:`Encoding.crowded`, after :attr:`Encoding.split`;
    ``room``: :meth:`Encoding._room`'s counts (both off by default: they did not pay);
    ``squares``: :meth:`Encoding._square_room`'s (off: it did not pay either).
    ``rotate``: a cube left undecided goes to the back of the queue (the others
    are asked first, their learned clauses then serve it), not straight back in.
    ``order``: :meth:`Encoding._canonical_order` (off only for the figures);
    ``lex``: :meth:`Encoding._lex_order` instead.
    ``proof``: None, or a maker of a proof trace called with the solver and the
    encoding (``satproof.ProofTrace.of_encoding``): CaDiCaL then writes its proof,
    and an ``unsat`` answer keeps the trace in ``proof`` (:mod:`solver.pyramid.satproof`
    checks it).
    """
    from solver.pyramid.search import deal_kinds

    start = time.thread_time()
    enc = Encoding(deal_kinds(deal), k, variant=variant, room=room, squares=squares, order=order, lex=lex,
                   twins=twins, parity=parity)
    out = Reach("unknown", k, variables=enc.pool.top, clauses=len(enc.clauses))
    seen, queue = set(), []
    split = enc.split + ([l for l in enc.crowded if l not in enc.split] if crowded else [])
    for i in range(min(RESERVE_SLOTS, len(enc.kinds))):
        kind = enc.kinds[i]
        if kind not in seen:
            seen.add(kind)
            queue.append(([enc.x[enc.by_kind[kind][0], START]], cube_conflicts))
    with _solver(solver, enc.clauses, options, with_proof=proof is not None) as s:
        trace = proof and proof(s, enc)
        while queue:
            cube, budget = queue.pop(0)
            before = _conflicts(s)
            answer = _solve_in_rounds(s, start, time_limit, conflict_limit, assumptions=cube, budget=budget)
            out.conflicts = _conflicts(s)
            if answer is None and _out_of_budget(s, start, time_limit, conflict_limit):
                out.cpu_seconds = time.thread_time() - start
                return out
            if log is not None:
                log(cube, answer, out.conflicts - before)
            if trace is not None and answer is False:
                trace.mark(cube)
            if answer:
                out.status, out.line = "sat", _replayed(deal, variant, enc, s.get_model())
                break
            if answer is None:
                used = {abs(l) for l in cube}
                nxt = next((l for l in split if l not in used), None)
                if nxt is None and rotate:
                    queue.append((cube, 2 * budget))
                elif nxt is None:
                    queue.insert(0, (cube, 2 * budget))
                else:
                    queue[:0] = [(cube + [nxt], budget), (cube + [-nxt], budget)]
        else:
            out.status = "unsat"
            out.proof = trace and trace.keep()
    out.cpu_seconds = time.thread_time() - start
    return out


def settle(deal: Deal, *, variant: str, deepest: int, time_limit: Optional[float],
           conflict_limit: Optional[int] = None, finish_nodes: int = FINISH_NODES,
           in_child: bool = False) -> Tuple[str, Optional[Reach], list]:
    """The SAT stage: ask :func:`reach_cubes` for ``deepest + 1`` moves, then one more
    after each ``sat``, until an answer is ``unsat`` (the deal is lost) or the
    budget (CPU seconds of this thread and of its children, and conflicts for each
    question) runs out.  ``in_child``: ask Kissat in a child process instead
    (:func:`ask_in_child`: the same clauses, one call a question, held to the
    time left by the operating system; no conflict budget).

    Returns ``(verdict, last, won_line)``: ``lost`` with the ``unsat`` answer;
    ``won`` when the exact search, given a ``sat`` line as its first moves and
    ``finish_nodes`` nodes, wins from there (its 144 moves, replayed by the
    checker); else ``unknown`` with the longest ``sat`` answer (or None).
    """
    from solver.pyramid.satchild import cpu_now
    from solver.pyramid.search import solve

    start = cpu_now()
    best: Optional[Reach] = None
    k = max(deepest + 1, 2)
    while k <= SAT_UP_TO:
        left = None if time_limit is None else time_limit - (cpu_now() - start)
        if left is not None and left < MIN_QUESTION:
            break
        if in_child:
            r = ask_in_child(deal, k, variant=variant, time_limit=left)
        else:
            r = reach_cubes(deal, k, variant=variant, time_limit=left, conflict_limit=conflict_limit)
        if r.status == "unsat":
            return "lost", r, []
        if r.status != "sat":
            break
        best = r
        left = None if time_limit is None else time_limit - (cpu_now() - start)
        if left is not None and left <= 0:
            break
        tried = solve(deal, variant=variant, after=r.line, node_limit=finish_nodes,
                      time_limit=left if left is not None else 0, longest=False)
        if tried.verdict == "won":
            return "won", best, tried
        k += 1
    return "unknown", best, []
