"""Proofs that a side never loses, over a projection of the board (docs/boundary.md,
"Projection proofs").

A whole-position holding set (:mod:`solver.boundary.holding`) must list every placement
of the attacker's free pieces.  Here the board is abstracted: a **region** R of squares
is kept exactly, every defender piece is kept (those outside R never move), and of
the attacker's pieces outside R only *which* they are (a bit set; the attacker's
stones by world).  The **concretisation** of an abstract state is every position
that agrees with it on R and on the defender's pieces and has the listed attacker
pieces somewhere else (squares outside R are *fog*).

- The attacker's moves are **over-approximated** (:meth:`Projection.attacker_moves`):
  anything a real move could do to R.  A fog square may hold anything, so it never
  blocks a path; an attacker piece in the fog may enter R on any square a straight
  line from a fog square reaches over empty squares of R; after a stone move the
  pyramid moves the stone's distance where that distance is known (a stone in the
  fog may have moved any distance), and the two-in-each-world rule is checked with
  every fogged pyramid counted in each world, so it refuses only moves that are
  illegal in every concretisation.  Giving the attacker more moves keeps the proof
  sound.
- The defender's moves are **under-approximated** (:meth:`Projection.defender_moves`):
  only moves whose every square (path, landing, the stone's too) lies in R, so that
  their legality (empty squares, stacking on the mover's own base, the top of a stack,
  two in each world: the defender's pieces are all known) is the same in every
  concretisation.
- The attacker wins only by completing both trees (a target base outside R is taken
  as complete) or by leaving the defender without a move.

:func:`prove_holding` explores every abstract state reachable from the root's
projection (all defender moves, all over-approximated attacker moves) and solves the
safety game by a retrograde pass: a state is lost if the attacker completes there,
if it is the defender's turn and every defender move leads to a lost state (or there
is none), or if it is the attacker's turn and some attacker move does.  If the root
is not lost, the defender's strategy (a move into a not-lost state at every
defender state) keeps every concrete play inside the concretisations of not-lost
states: the attacker never completes, the defender always has a move, so the game
ends in the defender's exchange or a third occurrence (a draw).
:func:`check_projection` re-checks a strategy with the reference rules alone.

>>> from solver.boundary.notation import parse_position
>>> drawn = parse_position("6/6/1Gm2Rm1/rGl2Rlg/gBm2Ymr/Rs+YsBl2YlGs+Bs r")
>>> out = prove_holding(drawn, 0, "a1 a2 a3 b1 b2 b3 b4 b5 b6 e1 e2 e3 e4 e5 e6 f1 f2 f3")
>>> out.verdict, out.held, check_projection(drawn, 0, out.region, out.strategy)
('holds', 4, True)
"""
from __future__ import annotations

import time
from array import array
from collections import deque
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Tuple, Union

from solver.boundary.rules import (BASES, N_SQUARES, WIN_STACKS, Move, Position, owner, ray,
                                   size, world)
from solver.errors import InputError

STONE = (12, 13)          # a cell's code for Red's / Green's stone
OUT_STONE = 12            # bit 12 + world: the attacker's stone of that world is in the fog

Cells = Tuple[Tuple[int, ...], ...]
State = Tuple[Cells, int, int]          # (R's contents in region order, fog bits, side)


def _lines() -> List[List[Tuple[int, Tuple[int, ...]]]]:
    """(k, squares) of every straight line of 1-5 steps from each square."""
    out = []
    for s in range(N_SQUARES):
        lines = []
        for d in range(8):
            for k in range(1, 6):
                line = ray(s, d, k)
                if line is None:
                    break
                lines.append((k, tuple(line)))
        out.append(lines)
    return out


LINES = _lines()
NEXT_TO = {s: [line[0] for k, line in LINES[s] if k == 1] for s in range(N_SQUARES)}


def parse_region(region: Union[str, Iterable[int]]) -> Tuple[int, ...]:
    """Squares from ``"a6 a5 b5"`` (spaces or commas) or from square numbers."""
    from solver.boundary.notation import parse_square
    if isinstance(region, str):
        squares = [parse_square(t) for t in region.replace(",", " ").split()]
    else:
        squares = [int(s) for s in region]
    if not squares:
        raise InputError("a projection needs at least one square in its region")
    return tuple(sorted(set(squares)))


class Projection:
    """The abstraction for one defender, region and root (the defender's pieces
    outside R are read from the root and stay there)."""

    def __init__(self, root: Position, defender: int, region: Iterable[int]) -> None:
        self.region = tuple(sorted(region))
        self.index = {s: i for i, s in enumerate(self.region)}
        self.defender, self.attacker = defender, 1 - defender
        self.dbases, self.abases = BASES[defender], BASES[1 - defender]
        inside = set(self.region)
        self.fixed = frozenset(s for s in range(N_SQUARES) if s not in inside and (
            any(owner(p) == defender for p in root.stacks[s]) or root.stones.get(s) == defender))
        self.fixed_counts = [0, 0]
        for s in self.fixed:
            self.fixed_counts[world(s)] += sum(1 for p in root.stacks[s] if owner(p) == defender)
        fog = [s for s in range(N_SQUARES)
               if s not in inside and s not in self.fixed and s not in self.dbases]
        # entries[t]: (start world, k, in-R squares passed, whole line in one world) of the
        # straight lines from a fog square to t in R
        self.entries: Dict[int, List[Tuple[int, int, Tuple[int, ...], bool]]] = {t: [] for t in self.region}
        for s in fog:
            for k, line in LINES[s]:
                t = line[-1]
                if t in inside and not any(x in self.fixed for x in line[:-1]):
                    passed = tuple(x for x in line[:-1] if x in inside)
                    one = all(world(x) == world(s) for x in line)
                    self.entries[t].append((world(s), k, passed, one))
        self.stone_code = STONE[self.attacker]
        self.dstone_code = STONE[defender]

    # -- states ------------------------------------------------------------

    def project(self, pos: Position) -> State:
        """The abstract state of a concrete position."""
        cells = tuple(_cell(pos, s) for s in self.region)
        fog = 0
        for s in range(N_SQUARES):
            if s in self.index:
                continue
            for p in pos.stacks[s]:
                if owner(p) == self.attacker:
                    fog |= 1 << p
            if pos.stones.get(s) == self.attacker:
                fog |= 1 << (OUT_STONE + world(s))
        return cells, fog, pos.side

    def attacker_won(self, cells: Cells) -> bool:
        """Both of the attacker's targets may be complete: one in R holds its tree; one
        outside R counts as complete unless a pyramid of its tree stands in R."""
        return _attacker_won(WIN_STACKS[self.attacker], self.index, cells)

    def defender_won(self, cells: Cells) -> bool:
        """Both of the defender's targets in R and complete."""
        for base, want in WIN_STACKS[self.defender].items():
            i = self.index.get(base)
            if i is None or list(cells[i]) != want:
                return False
        return True

    def wall(self, cells: Cells) -> int:
        """How many squares next to the attacker's incomplete target corners in R are
        occupied (the wall lemma: nothing enters a corner but over one of them)."""
        n = 0
        for base, want in WIN_STACKS[self.attacker].items():
            i = self.index.get(base)
            if i is not None and list(cells[i]) != want:
                n += sum(1 for s in NEXT_TO[base] if s in self.index and cells[self.index[s]])
        return n

    def _grid(self, cells) -> list:
        """Per square: R's contents, ``FULL`` for a fixed defender square, None for fog."""
        g: list = [None] * N_SQUARES
        for s in self.fixed:
            g[s] = FULL
        for s, c in zip(self.region, cells):
            g[s] = c
        return g

    # -- the attacker: over-approximated -----------------------------------

    def attacker_moves(self, cells: Cells, fog: int) -> set:
        """Every (cells, fog) that some legal attacker move makes of some concretisation
        of (cells, fog), and possibly more (module docstring)."""
        idx = self.index
        out = set()
        for w, cl, fg, ks in self._stone_options(list(cells), fog):
            g = self._grid(cl)
            fogged = [p for p in range(12) if fg >> p & 1]
            counts = [len(fogged)] * 2                  # fogged pyramids may be anywhere
            for s, c in zip(self.region, cl):
                counts[world(s)] += sum(1 for p in c if p < 12 and owner(p) == self.attacker)

            def keeps_two(frm: int, to: int) -> bool:
                """The two-in-each-world rule may hold after a move from world ``frm``
                (-1: the fog) to world ``to``."""
                return frm == to or frm < 0 or counts[frm] - 1 >= 2

            for i, st in enumerate(cl):                 # the attacker's tops in R
                if not st or st[-1] >= 12 or owner(st[-1]) != self.attacker:
                    continue
                s, p = self.region[i], st[-1]
                if w is not None and world(s) != w:
                    continue
                for k, line in LINES[s]:
                    if w is None and (k != size(p) or any(world(x) != world(s) for x in line)):
                        continue
                    t = line[-1]
                    if (w is not None and k not in ks) or not self._lands(g, t) or not all(
                            _clear(g[x]) for x in line[:-1]) or not keeps_two(world(s), world(t)):
                        continue
                    new = list(cl)
                    new[i] = st[:-1]
                    if t in idx:
                        new[idx[t]] = new[idx[t]] + (p,)
                        out.add((tuple(new), fg))
                    else:
                        out.add((tuple(new), fg | 1 << p))
            if not fogged:
                continue
            out.add((tuple(cl), fg))                    # a move inside the fog
            for t, starts in self.entries.items():
                if not self._lands(g, t):
                    continue
                reach = set()
                for ws, k, passed, one in starts:
                    if (one if w is None else ws == w and k in ks) and all(
                            not g[x] for x in passed):
                        reach.add(k)
                for p in fogged:
                    if (size(p) in reach) if w is None else reach:
                        new = list(cl)
                        new[idx[t]] = cl[idx[t]] + (p,)
                        out.add((tuple(new), fg & ~(1 << p)))
        return out

    def _stone_options(self, base: list, fog: int):
        """(the moved stone's world or None, cells, fog, the distances it may have
        moved) for no stone move and for every stone move the attacker may make."""
        idx = self.index
        yield None, base, fog, None
        for w in (0, 1):
            bit = 1 << (OUT_STONE + w)
            if fog & bit:
                yield w, base, fog, ALL_K                 # it moves inside the fog
                g = self._grid(base)
                for t, starts in self.entries.items():
                    if world(t) != w or base[idx[t]] or t in self.dbases:
                        continue
                    ks = frozenset(k for ws, k, passed, one in starts
                                   if ws == w and one and all(not g[x] for x in passed))
                    if ks:
                        new = list(base)
                        new[idx[t]] = (self.stone_code,)
                        yield w, new, fog & ~bit, ks
                continue
            i0 = next((i for i, c in enumerate(base)
                       if c == (self.stone_code,) and world(self.region[i]) == w), None)
            if i0 is None:
                continue                                # a root without that stone
            s0 = self.region[i0]
            left = list(base)
            left[i0] = ()
            g = self._grid(left)
            to_fog = set()
            for k, line in LINES[s0]:
                t = line[-1]
                if world(t) != w or t in self.dbases or not all(
                        _clear(g[x]) for x in line[:-1]):
                    continue
                if t in idx:
                    if not left[idx[t]]:
                        new = list(left)
                        new[idx[t]] = (self.stone_code,)
                        yield w, new, fog, frozenset((k,))
                elif t not in self.fixed:
                    to_fog.add(k)
            if to_fog:
                yield w, left, fog | bit, frozenset(to_fog)

    def _lands(self, g, t: int) -> bool:
        """An attacker pyramid may end on ``t`` in some concretisation."""
        if t in self.dbases:
            return False
        c = g[t]
        if c is None:
            return True
        if t in self.abases:
            return all(x < 12 and owner(x) == self.attacker for x in c)
        return not c

    # -- the defender: under-approximated ----------------------------------

    def defender_moves(self, cells: Cells) -> List[Tuple[Move, Cells]]:
        """The defender's moves that lie wholly in R (legal in every concretisation),
        with R's contents after each."""
        D, idx = self.defender, self.index
        counts = list(self.fixed_counts)
        for s, c in zip(self.region, cells):
            counts[world(s)] += sum(1 for p in c if p < 12 and owner(p) == D)
        out: List[Tuple[Move, Cells]] = []

        def pyramid(cl, s, k, cross, stone):
            st = cl[idx[s]]
            p = st[-1]
            for kk, line in LINES[s]:
                if kk != k or any(x not in idx for x in line):
                    continue
                if not cross and any(world(x) != world(s) for x in line):
                    continue
                if any(cl[idx[x]] for x in line[:-1]) or not self._dlands(cl, line[-1]):
                    continue
                t = line[-1]
                if world(t) != world(s) and counts[world(s)] - 1 < 2:
                    continue
                new = list(cl)
                new[idx[s]] = st[:-1]
                new[idx[t]] = new[idx[t]] + (p,)
                out.append(((stone[0], stone[1], s, t) if stone else (None, None, s, t),
                            tuple(new)))

        tops = [s for s, c in zip(self.region, cells) if c and c[-1] < 12 and owner(c[-1]) == D]
        for s in tops:
            pyramid(cells, s, size(cells[idx[s]][-1]), False, None)
        for i0, c in enumerate(cells):
            if c != (self.dstone_code,):
                continue
            s0 = self.region[i0]
            for k, line in LINES[s0]:
                t = line[-1]
                if (any(x not in idx or world(x) != world(s0) for x in line)
                        or any(cells[idx[x]] for x in line) or t in self.abases):
                    continue
                moved = list(cells)
                moved[i0], moved[idx[t]] = (), (self.dstone_code,)
                for s in tops:
                    if world(s) == world(s0):
                        pyramid(moved, s, k, True, (s0, t))
        return out

    def play_defender(self, cells: Cells, move: Move) -> Cells:
        """R's contents after a defender move that lies wholly in R."""
        s0, s1, p0, p1 = move
        new = list(cells)
        idx = self.index
        if s0 is not None:
            new[idx[s0]], new[idx[s1]] = (), (self.dstone_code,)
        top = new[idx[p0]][-1]
        new[idx[p0]] = new[idx[p0]][:-1]
        new[idx[p1]] = new[idx[p1]] + (top,)
        return tuple(new)

    def _dlands(self, cl, t: int) -> bool:
        if t in self.abases:
            return False
        c = cl[self.index[t]]
        if t in self.dbases:
            return all(x < 12 and owner(x) == self.defender for x in c)
        return not c


FULL = (99,)
ALL_K = frozenset(range(1, 6))


def _attacker_won(targets, index, cells) -> bool:
    for base, want in targets.items():
        i = index.get(base)
        if i is not None:
            if list(cells[i]) != want:
                return False
        elif any(p in want for c in cells for p in c):
            return False
    return True


def _clear(c) -> bool:
    """A square a piece may pass in some concretisation (fog or empty)."""
    return c is None or not c


def _cell(pos: Position, s: int) -> Tuple[int, ...]:
    if s in pos.stones:
        return (STONE[pos.stones[s]],)
    return tuple(pos.stacks[s])


@dataclass
class ProjectionProof:
    """``verdict`` 'holds' (the root's projection is not lost: the defender never
    loses) or 'unknown' (``limit`` 'lost' when the abstract game is lost for the
    defender, 'states' or 'time' when the exploration was cut); ``strategy`` maps each
    not-lost defender state to its move; ``states`` counts the states explored,
    ``held`` the not-lost ones."""

    verdict: str
    defender: int
    region: Tuple[int, ...]
    states: int
    held: int = 0
    strategy: Dict[State, Move] = field(default_factory=dict)
    limit: Optional[str] = None
    seconds: float = 0.0


def prove_holding(position: Position, defender: int, region, *, max_states: int = 200_000,
                  time_limit: float = 0.0) -> ProjectionProof:
    """Solve the abstract safety game from ``position``'s projection, on the fly.

    The defender's moves at a state are ordered (moves into states already in the
    strategy's set first: they close cycles; then moves that leave no fewer of the
    squares next to the attacker's incomplete target corners occupied: the wall lemma;
    then generation order) and only the current choice
    is explored; every attacker move is.  A state is marked lost only when the attacker
    completes there, some attacker move leads to a lost state, or every defender move
    does (then the next choice is tried): the attractor of the attacker's wins, so a
    lost mark is never wrong.  When nothing is left to explore and the root is not
    lost, the states reachable under the choices form a closed set (re-checked here,
    and independently by :func:`check_projection`).
    """
    t0 = time.process_time()
    region = parse_region(region)
    proj = Projection(position, defender, region)
    attacker = 1 - defender
    ids: Dict[State, int] = {}
    states: List[State] = []
    parents: List[List[int]] = []
    moves: List[Optional[List[Move]]] = []       # a defender's, in the order tried
    kids: List[Optional[List[int]]] = []
    choice = array("i")                  # the index of a defender's current move ...
    chosen = array("i")                  # ... and the id of its state
    bad = bytearray()
    queued = bytearray()
    todo: deque = deque()

    def intern(st: State) -> int:
        i = ids.get(st)
        if i is None:
            i = ids[st] = len(states)
            states.append(st)
            parents.append([])
            moves.append(None)
            kids.append(None)
            choice.append(0)
            chosen.append(-1)
            bad.append(0)
            queued.append(0)
        return i

    def push(j: int) -> None:
        if not queued[j]:
            queued[j] = 1
            todo.append(j)

    def choose(i: int) -> bool:
        """Defender state i's first move whose state is not lost; False if none."""
        ms, c = moves[i], choice[i]
        cells, fog, _side = states[i]
        while c < len(ms):
            st = (proj.play_defender(cells, ms[c]), fog, attacker)
            j = ids.get(st)
            if j is None or not bad[j]:
                break
            c += 1
        choice[i] = c
        if c == len(ms):
            return False
        j = intern(st)
        chosen[i] = j
        parents[j].append(i)
        push(j)
        return True

    def mark(i: int) -> None:
        bad[i] = 1
        stack = [i]
        while stack:
            j = stack.pop()
            for p in parents[j]:
                if bad[p]:
                    continue
                if states[p][2] == attacker:
                    bad[p] = 1
                    stack.append(p)
                elif chosen[p] == j and not choose(p):
                    bad[p] = 1
                    stack.append(p)

    def stop(limit):
        return ProjectionProof("unknown", defender, region, len(states), 0, {}, limit,
                               time.process_time() - t0)

    root = intern(proj.project(position))
    if position.winner() == attacker:
        return stop("lost")
    push(root)
    while todo and not bad[root]:
        if time_limit and time.process_time() - t0 > time_limit:
            return stop("time")
        if len(states) > max_states:
            return stop("states")
        i = todo.popleft()
        if bad[i]:
            continue
        cells, fog, side = states[i]
        if proj.defender_won(cells):
            kids[i] = []
            moves[i] = []
            continue
        if side == attacker:
            after = proj.attacker_moves(cells, fog)
            if any(proj.attacker_won(c) for c, _f in after):
                mark(i)
                continue
            row = [intern((c, f, defender)) for c, f in after]
            kids[i] = row
            for j in row:
                parents[j].append(i)
            if any(bad[j] for j in row):
                mark(i)
                continue
            for j in row:
                push(j)
        else:
            found = [(m, (c, fog, attacker)) for m, c in proj.defender_moves(cells)]
            wall = proj.wall(cells)

            def rank(n):
                j = ids.get(found[n][1])
                return (j is None or not queued[j], proj.wall(found[n][1][0]) < wall, n)
            moves[i] = [found[n][0] for n in sorted(range(len(found)), key=rank)]
            if not choose(i):
                mark(i)
    if bad[root]:
        return ProjectionProof("unknown", defender, region, len(states), 0, {}, "lost",
                               time.process_time() - t0)
    strategy: Dict[State, Move] = {}
    seen = {root}
    walk = deque([root])
    while walk:
        i = walk.popleft()
        assert not bad[i] and (kids[i] is not None or moves[i] is not None)
        if states[i][2] == defender:
            if not moves[i]:
                continue                                # the defender has won
            m, j = moves[i][choice[i]], chosen[i]
            strategy[states[i]] = m
            nxt = [j]
        else:
            nxt = kids[i]
        for j in nxt:
            if j not in seen:
                seen.add(j)
                walk.append(j)
    return ProjectionProof("holds", defender, region, len(states), len(seen), strategy, None,
                           time.process_time() - t0)


# -- the independent check ------------------------------------------------------

def check_projection(position: Position, defender: int, region, strategy: Dict[State, Move],
                     *, max_states: int = 100_000, explain: Optional[list] = None) -> bool:
    """The strategy keeps ``defender`` from losing from ``position``, re-checked with the
    reference rules alone (``Position.stone_targets``/``pyramid_targets``/``legal_moves``).

    Every abstract state reachable under the strategy is visited.  At a defender state
    the strategy's move must be legal in the **blocked witness** (R, the defender's
    pieces, and an attacker stone on every fog square: a move legal there is legal in
    every concretisation, for blockers only remove moves); at an attacker state every
    move of a **witness** (R, the defender's pieces, and at most one fogged pyramid and
    one fogged stone on fog squares, other fogged pieces removed: every real move
    involves at most one pyramid and one stone, and removing pieces only empties paths;
    the two-in-each-world rule is applied with every removed pyramid counted in each
    world) is played and projected.  No attacker exchange may be complete (a target outside R
    counts as complete).  False at the first failure (its reason appended to
    ``explain``) or past ``max_states``.
    """
    region = parse_region(region)
    inside = set(region)
    attacker = 1 - defender
    fixed = {s: (list(position.stacks[s]), position.stones.get(s)) for s in range(N_SQUARES)
             if s not in inside and (any(owner(p) == defender for p in position.stacks[s])
                                     or position.stones.get(s) == defender)}
    fog_squares = [s for s in range(N_SQUARES)
                   if s not in inside and s not in fixed and s not in BASES[defender]]

    def project(pos: Position) -> State:
        cells = tuple(_cell(pos, s) for s in region)
        there = {p for s in region for p in pos.stacks[s]}
        fog = sum(1 << p for p in range(12) if owner(p) == attacker and p not in there)
        for w in (0, 1):
            if not any(pos.stones.get(s) == attacker and world(s) == w for s in region):
                fog |= 1 << (OUT_STONE + w)
        return cells, fog, pos.side

    def witness(state: State, extra: Dict[int, list], stones: Dict[int, int]) -> Position:
        cells, _fog, side = state
        stacks: List[List[int]] = [[] for _ in range(N_SQUARES)]
        st: Dict[int, int] = dict(stones)
        for s, c in zip(region, cells):
            if c and c[0] >= 12:
                st[s] = c[0] - 12
            else:
                stacks[s] = list(c)
        for s, (stack, stone) in fixed.items():
            stacks[s] = list(stack)
            if stone is not None:
                st[s] = stone
        for s, stack in extra.items():
            stacks[s] = list(stack)
        return Position(stacks, st, side)

    def won(pos: Position) -> bool:
        """Both attacker targets complete, or outside R with none of the tree in R."""
        return all(pos.stacks[b] == want if b in inside else
                   not any(p in want for s in region for p in pos.stacks[s])
                   for b, want in WIN_STACKS[attacker].items())

    def attacker_children(state: State) -> Iterable[Position]:
        _cells, fog, _side = state
        pyramids = [p for p in range(12) if fog >> p & 1]
        fog_stones = [w for w in (0, 1) if fog >> (OUT_STONE + w) & 1]
        n = len(pyramids)

        def played(pos: Position, spare: int, keep) -> Iterable[Position]:
            """The witness's moves ``keep`` accepts, played; the two-in-each-world rule
            with ``spare`` removed pyramids counted in each world (they may be there)."""
            for m in pos.pseudo_moves():
                if keep(m):
                    child = pos.clone()
                    child.apply(m)
                    counts = child.world_counts(attacker)
                    if min(counts) + spare >= 2:
                        yield child

        yield from played(witness(state, {}, {}), n, lambda m: True)
        for w in fog_stones:                      # a fogged stone (with R's pyramids)
            for s1 in fog_squares:
                if world(s1) == w:
                    yield from played(witness(state, {}, {s1: attacker}), n,
                                      lambda m: m[0] == s1)
        for p in pyramids:                         # a fogged pyramid (with R's stones)
            for s in fog_squares:
                yield from played(witness(state, {s: [p]}, {}), n - 1, lambda m: m[2] == s)
                for w in fog_stones:               # ... and a fogged stone of its world
                    if world(s) != w:
                        continue
                    for s1 in fog_squares:
                        if world(s1) == w and s1 != s:
                            yield from played(witness(state, {s: [p]}, {s1: attacker}), n - 1,
                                              lambda m: m[0] == s1 and m[2] == s)

    def fail(why: str) -> bool:
        if explain is not None:
            explain.append(why)
        return False

    if position.winner() == attacker:
        return fail("the attacker has already won")
    seen = {project(position)}
    todo = deque([project(position)])
    while todo:
        state = todo.popleft()
        cells, _fog, side = state
        if all(cells[region.index(b)] == tuple(want) if b in inside else False
               for b, want in WIN_STACKS[defender].items()):
            continue                                  # the defender has won
        if side == defender:
            move = strategy.get(state)
            if move is None:
                return fail(f"no move at {state}")
            blocked = witness(state, {}, {})
            for s in range(N_SQUARES):                # a blocker on every square of the fog
                if s not in inside and s not in fixed:
                    blocked.stones[s] = attacker
            if move not in blocked.legal_moves():
                return fail(f"{move} is not legal in the blocked witness of {state}")
            child = blocked.clone()
            child.apply(move)
            if any(child.stacks[s] != blocked.stacks[s] or child.stones.get(s) != blocked.stones.get(s)
                   for s in range(N_SQUARES) if s not in inside):
                return fail(f"{move} leaves the region at {state}")
            children = [(project(child)[0], state[1], attacker)]
        else:
            children = []
            for child in attacker_children(state):
                if won(child):
                    return fail(f"the attacker may complete from {state}")
                children.append(project(child))
        for c in children:
            if c not in seen:
                if len(seen) >= max_states:
                    return fail("past max_states")
                seen.add(c)
                todo.append(c)
    return True
