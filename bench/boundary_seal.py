"""A prototype, measured and not built into the solver: one half of a draw by a seal
(docs/boundary.md, "A seal and a tempo: one half of a draw").

    python bench/boundary_seal.py lemma POSITION DEFENDER
    python bench/boundary_seal.py force POSITION DEFENDER PLIES NODES
    python bench/boundary_seal.py check POSITION DEFENDER GAMES PLIES [greedy]

``lemma``: the seal and, for each world, the attacker's most blockers and the most
blockers the tempo survives; ``force``: a defender strategy reaching a sealed position
within PLIES against every attacker move (DEFENDER 0 Red, 1 Green); ``check``: random
(or half greedy: the attacker's move that leaves the fewest tempo moves) attacker play
against the tempo, every tempo move checked legal by the reference rules.

A defender D never loses from a position where both of these hold:

1. **The seal.** D's pieces stand on the three squares beside a base T of the
   attacker A whose tree is not complete there.  Every straight line into or out of
   a corner passes one of its three neighbours and no piece jumps, so while those
   pieces stay nothing enters or leaves T: A's tree on T stays incomplete, and A
   never completes its exchange.
2. **A tempo A cannot stalemate.** In one world W, D's pyramids that are not in the
   seal (the *tempo pieces*) move inside W only, and every other D piece stays (an
   obstacle).  Whatever squares A's pieces fill in W, D has a move of a tempo piece
   to a configuration of the same kind: a safety game, solved here with A's pieces
   as *blockers* that may stand on any free squares of W after each move, which is
   more than A can do.  A's blockers in W are at most its stone there and its
   pyramids there that are not frozen in a sealed base; after each of its moves A
   keeps two pyramids in the other world, so at most ``6 - max(2, frozen in the other
   world) - frozen in W`` pyramids.

So D always has a legal move (the tempo's, legal in every position whose A pieces
in W fill at most that many squares) and A never completes: D never loses, whatever
the history before (the draw rule only ends games).  :func:`sealed` tests a
position; :func:`prove_seal` searches for a D strategy that forces such a position
(or D's exchange, or A without a move) within a number of plies against every A
move, and :func:`random_check` plays random (or greedy) A moves against the tempo
with the reference rules.

The East fortress of the record 6 back after Red's large fills f2:
``lemma 'Gl+Gm+Gs4Ym/2Ys1g1/4Rs1/2r3/1g2RmRl/Yl2BsrBl+Bm g' 0``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Optional, Tuple

from solver.boundary.notation import format_pyramid, format_square
from solver.boundary.rules import (BASES, WIN_STACKS, Move, Position, owner, ray, size,
                                   world)
from solver.cext.boundary import Board

WORLD_NAMES = ("West", "East")
NEIGHBOURS = {0: (1, 6, 7), 5: (4, 10, 11), 30: (24, 25, 31), 35: (28, 29, 34)}
"""The three squares beside each corner (a1, f1, a6, f6)."""

MAX_CONFIGURATIONS = 20_000

Config = Tuple[Tuple[int, Tuple[int, ...]], ...]   # (square, stack) of the tempo pieces


def _held_by(pos: Position, square: int, player: int) -> bool:
    """A piece of ``player`` stands on ``square`` (a stone, or a pyramid: off a base
    a square holds at most one)."""
    if pos.stones.get(square) == player:
        return True
    stack = pos.stacks[square]
    return bool(stack) and all(owner(p) == player for p in stack)


def seals(pos: Position, defender: int) -> List[int]:
    """The attacker's bases whose three neighbours all hold ``defender``'s pieces."""
    return [t for t in BASES[1 - defender]
            if all(_held_by(pos, s, defender) for s in NEIGHBOURS[t])]


def _config(pos: Position, defender: int, w: int, static: FrozenSet[int]) -> Config:
    """The tempo pieces of world ``w``: the defender's stacks there off ``static``."""
    return tuple((s, tuple(pos.stacks[s])) for s in range(36)
                 if world(s) == w and s not in static and pos.stacks[s]
                 and owner(pos.stacks[s][-1]) == defender)


def _static(pos: Position, defender: int, sealed_bases: List[int]) -> FrozenSet[int]:
    """The squares whose defender pieces never move: the seals and the stones."""
    return frozenset(s for t in sealed_bases for s in NEIGHBOURS[t]) | frozenset(
        s for s, pl in pos.stones.items() if pl == defender)


def _blockers(pos: Position, defender: int, w: int, sealed_bases: List[int]) -> int:
    """The most squares of world ``w`` off its bases that the attacker's pieces can fill."""
    attacker = 1 - defender
    frozen = [0, 0]
    for t in sealed_bases:
        frozen[world(t)] += sum(1 for p in pos.stacks[t] if owner(p) == attacker)
    pyramids = 6 - max(2, frozen[1 - w]) - frozen[w]
    return 1 + max(0, pyramids)


@dataclass
class Tempo:
    """The safety game of one world: ``good`` the configurations from which the
    defender always has a move to another good one."""

    world: int
    blockers: int
    start: Config
    good: FrozenSet[Config]
    moves: Dict[Config, List[Tuple[FrozenSet[int], Tuple[int, int], Config]]]


def _tempo(pos: Position, defender: int, w: int, static: FrozenSet[int], blockers: int
           ) -> Optional[Tempo]:
    """Solve the safety game of world ``w`` (module docstring); None past the cap."""
    own_base = next(b for b in BASES[defender] if world(b) == w)
    their_base = next(b for b in BASES[1 - defender] if world(b) == w)
    base_open = own_base not in pos.stones
    start = _config(pos, defender, w, static)
    if not start:
        return None
    blocked = set(static) | {their_base}

    def successors(cfg: Config):
        stacks = dict(cfg)
        out = []
        for s, stack in cfg:
            k = size(stack[-1])
            for d in range(8):
                line = ray(s, d, k)
                if line is None or any(world(q) != w for q in line):
                    continue
                if any(q in blocked or q in stacks for q in line[:-1]):
                    continue
                t = line[-1]
                if t == own_base:
                    if not base_open:
                        continue
                elif t in blocked or t in stacks:
                    continue
                need = frozenset(q for q in line if q != own_base)
                after = dict(stacks)
                rest = stack[:-1]
                if rest:
                    after[s] = rest
                else:
                    del after[s]
                after[t] = after.get(t, ()) + (stack[-1],)
                out.append((need, (s, t), tuple(sorted(after.items()))))
        return out

    moves: Dict[Config, list] = {}
    todo = [start]
    while todo:
        cfg = todo.pop()
        if cfg in moves:
            continue
        moves[cfg] = successors(cfg)
        if len(moves) > MAX_CONFIGURATIONS:
            return None
        todo.extend(nxt for _n, _m, nxt in moves[cfg] if nxt not in moves)
    good = set(moves)
    changed = True
    while changed:
        changed = False
        for cfg in list(good):
            needs = [n for n, _m, nxt in moves[cfg] if nxt in good]
            if _hittable(needs, blockers):
                good.discard(cfg)
                changed = True
    if start not in good:
        return None
    return Tempo(w, blockers, start, frozenset(good), moves)


def _hittable(sets: List[FrozenSet[int]], budget: int) -> bool:
    """Some ``budget`` squares meet every set (so the blockers can stop every move)."""
    if not sets:
        return True
    if budget == 0:
        return False
    smallest = min(sets, key=len)
    if not smallest:
        return False
    return any(_hittable([s for s in sets if x not in s], budget - 1) for x in smallest)


@dataclass
class Seal:
    base: int
    tempo: Tempo
    static: FrozenSet[int]

    def describe(self) -> str:
        pieces = " ".join(format_pyramid(stack[-1]) for _s, stack in self.tempo.start)
        return (f"{format_square(self.base)} sealed by "
                + " ".join(format_square(s) for s in NEIGHBOURS[self.base])
                + f"; tempo in the {WORLD_NAMES[self.tempo.world]} ({pieces} against "
                f"{self.tempo.blockers} blockers, {len(self.tempo.moves)} configurations)")


def find_seal(pos: Position, defender: int) -> Optional[Seal]:
    """The seal and tempo that prove ``defender`` never loses from ``pos``, or None."""
    if pos.winner() is not None:
        return None
    attacker = 1 - defender
    bases = seals(pos, defender)
    open_bases = [t for t in bases if pos.stacks[t] != WIN_STACKS[attacker][t]]
    if not open_bases:
        return None
    static = _static(pos, defender, bases)
    for w in (world(open_bases[0]), 1 - world(open_bases[0])):
        tempo = _tempo(pos, defender, w, static, _blockers(pos, defender, w, bases))
        if tempo is not None:
            return Seal(open_bases[0], tempo, static)
    return None


def sealed(pos: Position, defender: int) -> Optional[str]:
    """Why ``defender`` never loses from ``pos`` by a seal, or None (module docstring)."""
    found = find_seal(pos, defender)
    return None if found is None else found.describe()


@dataclass
class SealProof:
    """``verdict`` 'holds' or 'unknown' (``limit``: 'plies', 'nodes' or 'time');
    ``strategy`` maps the hash of each defender-to-move position of the proof to its
    move; ``plies`` the depth the proof needed; ``leaves`` the sealed positions met."""

    verdict: str
    defender: int
    plies: int
    nodes: int = 0
    strategy: Dict[int, Move] = field(default_factory=dict)
    limit: Optional[str] = None
    seconds: float = 0.0
    leaf: Optional[str] = None


class _Stop(Exception):
    pass


def prove_seal(position: Position, defender: int, *, max_plies: int = 5,
               node_limit: int = 2_000_000, time_limit: float = 0.0) -> SealProof:
    """A strategy for ``defender`` that reaches a sealed position (:func:`find_seal`),
    its own exchange, or the attacker without a move, within ``max_plies`` plies against
    every attacker move, by iterative deepening; the attacker completing first, or the
    defender without a move, fails a line."""
    t0 = time.process_time()
    attacker = 1 - defender
    lemma: Dict[int, Optional[str]] = {}
    proved: Dict[int, int] = {}       # hash -> fewest plies proven
    failed: Dict[int, int] = {}       # hash -> most plies refuted
    strategy: Dict[int, Move] = {}
    nodes = 0
    first_leaf: List[str] = []

    def leaf(board: Board) -> Optional[str]:
        key = board.hash
        if key not in lemma:
            found = find_seal(Position(board.stacks(), board.stones(), board.side), defender)
            lemma[key] = None if found is None else found.describe()
        return lemma[key]

    def holds(board: Board, plies: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > node_limit or (time_limit and nodes % 1024 == 0
                                  and time.process_time() - t0 > time_limit):
            raise _Stop("nodes" if nodes > node_limit else "time")
        key = board.hash
        if proved.get(key, 1 << 30) <= plies:
            return True
        if failed.get(key, -1) >= plies:
            return False
        won = board.winner()
        if won is not None:
            ok = won == defender
        elif (why := leaf(board)) is not None:
            ok = True
            if not first_leaf:
                first_leaf.append(why)
        elif plies == 0:
            ok = False
        else:
            kids = board.children()
            if board.side == attacker:
                ok = not any(w for _m, _k, w in kids) and all(
                    holds(board.after(m), plies - 1) for m, _k, _w in kids)
            else:
                ok = False
                for m, _k, w in sorted(kids, key=lambda c: not c[2]):
                    if w or holds(board.after(m), plies - 1):
                        strategy[key] = m
                        ok = True
                        break
        if ok:
            proved[key] = min(plies, proved.get(key, 1 << 30))
        else:
            failed[key] = max(plies, failed.get(key, -1))
        return ok

    root = Board.from_position(position)
    try:
        for plies in range(max_plies + 1):
            if holds(root, plies):
                return SealProof("holds", defender, plies, nodes, strategy, None,
                                 time.process_time() - t0, first_leaf[0] if first_leaf else None)
    except _Stop as stop:
        return SealProof("unknown", defender, plies, nodes, limit=str(stop),
                         seconds=time.process_time() - t0)
    return SealProof("unknown", defender, max_plies, nodes, limit="plies",
                     seconds=time.process_time() - t0)


def tempo_move(pos: Position, found: Seal) -> Optional[Move]:
    """The tempo's move in ``pos`` (defender to move): a move of a tempo piece whose
    squares are empty now and whose configuration is good, or None (the lemma broken)."""
    cfg = _config(pos, pos.side, found.tempo.world, found.static)
    if cfg not in found.tempo.good:
        return None
    for need, (s, t), nxt in found.tempo.moves[cfg]:
        if nxt in found.tempo.good and all(pos.empty(q) for q in need):
            return (None, None, s, t)
    return None


def _tempo_freedom(pos: Position, found: Seal) -> int:
    """How many tempo moves are open now (the attacker's greedy play minimises it)."""
    cfg = _config(pos, 1 - pos.side, found.tempo.world, found.static)
    return sum(1 for need, _m, _n in found.tempo.moves.get(cfg, ())
               if all(pos.empty(q) for q in need))


def random_check(position: Position, defender: int, *, games: int, plies: int,
                 seed: int = 1, greedy: bool = False) -> Tuple[int, int]:
    """Random attacker play against the tempo from a sealed ``position``: every tempo
    move must be legal by the reference rules and the attacker must never complete.
    Returns (games, plies played); raises AssertionError on a failure."""
    from solver.rng import SplitMix64
    found = find_seal(position, defender)
    assert found is not None, "not sealed"
    rng = SplitMix64(seed)
    played = 0
    for _game in range(games):
        pos = position.clone()
        for _ply in range(plies):
            if pos.side == defender:
                move = tempo_move(pos, found)
                assert move is not None and move in pos.legal_moves(), "no tempo move"
            else:
                moves = pos.legal_moves()
                assert moves, "the attacker has no move"   # then the defender wins: stop
                if greedy and rng.next() % 2:
                    move = min(moves, key=lambda m: (_tempo_freedom(pos.play(m), found),
                                                     rng.next()))
                else:
                    move = moves[rng.next() % len(moves)]
            pos.apply(move)
            played += 1
            assert pos.winner() != 1 - defender, "the attacker completed"
    return games, played


def _king_core(k: int) -> int:
    """Squares of one whole 3-file world left after peeling every square with fewer
    than ``k`` king-move neighbours left (the k-core)."""
    left = {(f, r) for f in range(3) for r in range(6)}
    while True:
        thin = {(f, r) for f, r in left if sum((f + df, r + dr) in left for df in (-1, 0, 1)
                                               for dr in (-1, 0, 1) if df or dr) < k}
        if not thin:
            return len(left)
        left -= thin


def _thresholds(pos: Position, defender: int) -> None:
    print(f"a whole world's king-move cores: 3-core {_king_core(3)} squares, "
          f"4-core {_king_core(4)}")
    bases = seals(pos, defender)
    print("sealed bases:", " ".join(format_square(t) for t in bases) or "none")
    print("lemma:", sealed(pos, defender))
    static = _static(pos, defender, bases)
    for w in (0, 1):
        survives = [b for b in range(8) if _tempo(pos, defender, w, static, b) is not None]
        print(f"{WORLD_NAMES[w]}: the attacker's blockers at most "
              f"{_blockers(pos, defender, w, bases)}; the tempo survives "
              f"{max(survives) if survives else 'none (no tempo piece or none at 0)'}")


def main():
    import sys
    from solver.boundary.notation import parse_position
    mode, pos, defender = sys.argv[1], parse_position(sys.argv[2]), int(sys.argv[3])
    t = time.process_time()
    if mode == "lemma":
        _thresholds(pos, defender)
    elif mode == "force":
        out = prove_seal(pos, defender, max_plies=int(sys.argv[4]), node_limit=int(sys.argv[5]))
        print(f"{out.verdict} {out.limit or ''} plies {out.plies} nodes {out.nodes} "
              f"leaf: {out.leaf}")
    else:
        games, played = random_check(pos, defender, games=int(sys.argv[4]),
                                     plies=int(sys.argv[5]), greedy="greedy" in sys.argv[6:])
        print(f"{games} games, {played} plies: the tempo always moved, the attacker never "
              f"completed")
    print(f"{time.process_time() - t:.1f} CPU s")


if __name__ == "__main__":
    main()
