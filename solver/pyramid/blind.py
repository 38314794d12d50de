"""Blind play: players that see only the pyramid and the 9 reserve tiles.

A blind player never sees the stock.  ``greedy`` judges a move by what is on
the table; ``lookahead`` also imagines the unseen tiles: it deals them in
random orders (the shared SplitMix64 and Fisher-Yates, seeded from the deal's
seed, so a game replays exactly), plays each candidate move in every imagined
world, follows it with a short greedy roll-out, and picks the move that placed
most tiles on average.  The real stock is only ever used to refill the
reserves after a move has been chosen.

Each player exists twice:

- :class:`Greedy` and :class:`Lookahead` drive the compiled engine in the fast
  loop :func:`play` (the ``blind:greedy`` and ``blind:lookahead`` analyses);
- :class:`GreedyPolicy` and :class:`LookaheadPolicy` are the same players as
  :class:`solver.game.Policy` on the reference state, so ``solve pyramid play
  --policy lookahead`` goes through the shared play-out loop
  (:func:`solver.playout.play_out`).  They make exactly the moves of the
  compiled loop (tests/test_pyramid_blind.py checks it).

>>> from solver.pyramid.deal import deal_from_seed
>>> game = play(deal_from_seed(1), Greedy())
>>> game.verdict in ("won", "lost"), game.placed == len(game.moves)
(True, True)
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple

from solver.cext import pyramid_blind as _fast
from solver.cext import pyramid as _kernel
from solver.cext.pyramid import Engine
from solver.cext.rng import shuffled_indices
from solver.errors import InputError
from solver.game import Policy
from solver.pyramid.deal import Deal
from solver.pyramid.geometry import POSITIONS
from solver.pyramid.rules import Move, check_variant
from solver.pyramid.search import VARIANT_CODES, deal_kinds
from solver.pyramid.tiles import KIND_DRAGON, N_KINDS, TILES
from solver.rng import MASK64, SplitMix64

KindMove = Tuple[int, int]        # (kind, position)
FULL_SET = [4] * 27 + [12, 12, 12]  # copies of each kind in the 144 tiles
LEVEL = [p.level for p in POSITIONS]
GOLDEN_GAMMA = 0x9E3779B97F4A7C15   # SplitMix64's step: n draws move the state by n * gamma
_fast.set_levels(LEVEL)


class OutOfBudget(Exception):
    """A blind player spent the node budget :func:`play` gave it."""


@dataclass
class BlindGame:
    """A blind game: ``verdict`` ``won``, ``lost`` (stuck) or ``unknown`` (a node
    or time limit stopped it; ``limit`` says which), the moves as (kind,
    position) and the positions examined (``nodes``: the moves made plus the
    positions the player looked at)."""

    policy: str
    verdict: str
    placed: int
    moves: List[KindMove] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    limit: Optional[str] = None


def quick_key(move: KindMove, places: Sequence[int]) -> Tuple[int, int, int]:
    """Dragons last (they fit anywhere: keep them for need), then the kind with
    the fewest places (play the tile that is about to lose its spot), then
    lower levels first (they open more positions)."""
    kind, pos = move
    return (kind == KIND_DRAGON, places[kind], LEVEL[pos])


def _places(moves: Sequence[KindMove]) -> List[int]:
    places = [0] * N_KINDS
    for kind, _ in moves:
        places[kind] += 1
    return places


def ranked(moves: Sequence[KindMove]) -> List[KindMove]:
    """Legal moves in the greedy order (stable: ties keep canonical order)."""
    places = _places(moves)
    return sorted(moves, key=lambda m: quick_key(m, places))


# -- the players of the compiled loop -------------------------------------------
class BlindPlayer:
    """A blind player on the compiled engine: ``start`` once per game, then
    ``choose(engine, moves)`` where ``moves`` (the engine's sorted (kind,
    position) pairs) has at least two entries.  ``nodes`` counts the positions
    it examined; past ``limit`` nodes it raises :class:`OutOfBudget`."""

    name = ""

    def __init__(self) -> None:
        self.nodes = 0
        self.limit: Optional[int] = None

    def start(self, deal: Deal, variant_code: int) -> None:
        self.nodes = 0

    def draws(self, n_moves: int) -> int:
        """How many numbers a decision among ``n_moves`` moves draws from the
        player's generator (0 for a player without one)."""
        return 0

    def skip(self, draws: int) -> None:
        """Move the player's generator on by ``draws`` numbers."""

    def _spend(self, nodes: int) -> None:
        self.nodes += nodes
        if self.limit is not None and self.nodes >= self.limit:
            raise OutOfBudget

    def choose(self, engine: Engine, moves: List[KindMove]) -> KindMove:  # pragma: no cover
        raise NotImplementedError


class Greedy(BlindPlayer):
    """The best move by :func:`quick_key`; among the moves of the chosen kind,
    the one that leaves the most open positions (board information only)."""

    name = "greedy"

    def choose(self, engine: Engine, moves: List[KindMove]) -> KindMove:
        places = _places(moves)
        order = sorted(moves, key=lambda m: quick_key(m, places))
        best = order[0]
        head = quick_key(best, places)[:2]
        same = [m for m in order if quick_key(m, places)[:2] == head]
        if len(same) == 1:
            return best
        scored = []
        for i, (k, p) in enumerate(same):
            engine.make(k, p)
            scored.append((-len(engine.open_positions()), i, (k, p)))
            engine.unmake()
            self._spend(1)
        return min(scored)[2]


class Lookahead(BlindPlayer):
    """Score the ``width`` best greedy candidates over ``samples`` imagined
    orders of the unseen tiles, each followed by a ``depth``-move roll-out.

    The imagined orders come from one SplitMix64 per game, seeded with the
    deal's seed (0 for a deal given as tokens)."""

    name = "lookahead"

    def __init__(self, *, samples: int = 4, width: int = 4, depth: int = 6) -> None:
        super().__init__()
        for name, value, low in (("samples", samples, 1), ("width", width, 1), ("depth", depth, 0)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise InputError(f"lookahead needs {name} >= {low}, not {value!r}")
        self.samples, self.width, self.depth = samples, width, depth
        self.variant_code = 0
        self.rng = SplitMix64(0)

    def start(self, deal: Deal, variant_code: int) -> None:
        super().start(deal, variant_code)
        self.variant_code = variant_code
        self.rng = SplitMix64(deal.seed or 0)

    def draws(self, n_moves: int) -> int:
        return self.samples if min(n_moves, self.width) > 1 else 0

    def skip(self, draws: int) -> None:
        self.rng.state = (self.rng.state + draws * GOLDEN_GAMMA) & MASK64

    def choose(self, engine: Engine, moves: List[KindMove]) -> KindMove:
        cands = ranked(moves)[:self.width]
        if len(cands) == 1:
            return cands[0]
        board, counts = engine.board(), engine.reserve()
        reserve = [k for k in range(N_KINDS) for _ in range(counts[k])]
        unseen = list(FULL_SET)
        for k in board:
            if k is not None:
                unseen[k] -= 1
        for k in reserve:
            unseen[k] -= 1
        pool = [k for k in range(N_KINDS) for _ in range(unseen[k])]
        totals = [0.0] * len(cands)
        for _ in range(self.samples):
            stock = [pool[i] for i in shuffled_indices(len(pool), self.rng.next())]
            world = Engine.from_position(board, reserve, stock, variant=self.variant_code)
            for i, (k, p) in enumerate(cands):
                world.make(k, p)
                totals[i] += self._rollout(world)
                world.unmake()
        best = max(range(len(cands)), key=lambda i: (totals[i], -i))
        return cands[best]

    def _rollout(self, world: Engine) -> float:
        """Tiles placed by a quick greedy roll-out; a win adds ``depth``, being
        stuck inside the horizon (a lost world) takes ``depth + 1`` off."""
        made, won, stuck, examined = _fast.rollout(world, self.depth)
        self._spend(examined)
        return 1.0 + made + (self.depth if won else 0) - ((1.0 + self.depth) if stuck else 0)


def play(deal: Deal, player: BlindPlayer, *, variant: str = "continuous",
         node_limit: Optional[int] = None, time_limit: Optional[float] = None) -> BlindGame:
    """Play ``deal`` blind with ``player`` until it is won or no tile fits: the
    fast compiled loop.

    ``node_limit`` bounds the nodes (moves made plus positions the player
    examined; checked within a roll-out of the limit) and ``time_limit`` the
    seconds (checked before each move); either ends the game ``unknown``.
    None means no limit.  Blind play keeps no table.  :class:`Greedy` and
    :class:`Lookahead` play their whole game in the kernel
    (``solver.cext.pyramid.play_blind``, the same moves and nodes as
    :func:`play_steps`); other players go through :func:`play_steps`.
    """
    if not isinstance(player, BlindPlayer):
        raise InputError(f"not a blind player: {player!r}")
    check_variant(variant)
    if type(player) not in (Greedy, Lookahead):
        return play_steps(deal, player, variant=variant, node_limit=node_limit, time_limit=time_limit)
    player.start(deal, VARIANT_CODES[variant])
    options = {"samples": player.samples, "width": player.width, "depth": player.depth,
               "rng_seed": deal.seed or 0} if isinstance(player, Lookahead) else {}
    verdict, moves, nodes, limit, seconds = _kernel.play_blind(
        deal_kinds(deal), variant=VARIANT_CODES[variant], policy=int(isinstance(player, Lookahead)),
        node_limit=-1 if node_limit is None else node_limit, time_limit=time_limit or 0.0, **options)
    player.nodes = nodes - len(moves)
    return BlindGame(player.name, verdict, len(moves), moves, nodes, seconds, limit)


def play_steps(deal: Deal, player: BlindPlayer, *, variant: str = "continuous",
               node_limit: Optional[int] = None, time_limit: Optional[float] = None) -> BlindGame:
    """:func:`play` one decision at a time: the player's Python ``choose`` on
    the compiled engine (the readable twin of the compiled players)."""
    if not isinstance(player, BlindPlayer):
        raise InputError(f"not a blind player: {player!r}")
    check_variant(variant)
    t0 = time.perf_counter()
    code = VARIANT_CODES[variant]
    player.start(deal, code)
    engine = Engine(deal_kinds(deal), variant=code)
    history: List[KindMove] = []
    limit = None
    while True:
        moves = engine.legal_moves()
        if not moves:
            break
        if node_limit is not None and player.nodes + len(history) >= node_limit:
            limit = "nodes"
            break
        if time_limit is not None and time.perf_counter() - t0 >= time_limit:
            limit = "time"
            break
        if len(moves) == 1:
            move = moves[0]
        else:
            player.limit = None if node_limit is None else node_limit - len(history)
            try:
                move = player.choose(engine, moves)
            except OutOfBudget:
                limit = "nodes"
                break
        engine.make(*move)
        history.append(move)
    verdict = "unknown" if limit else ("won" if len(history) == 144 else "lost")
    return BlindGame(player.name, verdict, len(history), history, player.nodes + len(history),
                     time.perf_counter() - t0, limit)


def face_moves(deal: Deal, game: BlindGame, *, variant: str = "continuous"):
    """The reference state after replaying ``game`` with its moves named by face.

    The replay goes through the reference rules, so it also checks the game.
    """
    from solver.pyramid.check import replay
    from solver.pyramid.search import faces_for_line
    moves, _ = faces_for_line(deal, game.moves)
    return replay(deal, moves, variant=variant)


# -- the same players under the contract ------------------------------------------
class BlindPolicy(Policy):
    """A blind player as a :class:`solver.game.Policy` on the reference state.

    ``choose(state, rng)`` runs the compiled player on an engine brought to
    ``state`` and names the chosen (kind, position) by the face in the
    lowest-numbered reserve slot of that kind (as the compiled loop's lines are
    named).  The seat's ``rng`` is not used: the lookahead's imagined worlds
    are seeded from the deal's seed, as in the compiled loop, and its
    generator stands where that loop's would at this state (moved on by the
    draws of every earlier decision along the state's history), so the choice
    depends on the state alone and a play-out makes the compiled loop's game.
    """

    name = ""

    def __init__(self, player: BlindPlayer) -> None:
        self.player = player
        self.nodes = 0
        self._key = None
        self._engine: Optional[Engine] = None
        self._line: List[KindMove] = []
        self._draws = 0

    def _engine_at(self, state) -> Engine:
        deal, variant = state.game.deal, state.game.variant
        key = (deal.faces, deal.seed, variant)
        line = [(TILES[m.tile].kind, m.pos) for m in state.history]
        if key != self._key or line[:len(self._line)] != self._line:
            self._key, self._line, self._draws = key, [], 0
            self._engine = Engine(deal_kinds(deal), variant=VARIANT_CODES[variant])
        for move in line[len(self._line):]:
            n = len(self._engine.legal_moves())
            if n > 1:
                self._draws += self.player.draws(n)
            self._engine.make(*move)
            self._line.append(move)
        return self._engine

    def choose(self, state, rng) -> Move:
        engine = self._engine_at(state)
        moves = engine.legal_moves()
        if not moves:
            raise InputError("no legal move: the game is over")
        if len(moves) == 1:
            kind, pos = moves[0]
        else:
            self.player.start(state.game.deal, VARIANT_CODES[state.game.variant])
            self.player.skip(self._draws)
            kind, pos = self.player.choose(engine, moves)
            self.nodes += self.player.nodes
        face = next(f for f in state.reserve if f is not None and TILES[f].kind == kind)
        return Move(face, pos)


class GreedyPolicy(BlindPolicy):
    """The greedy blind player (:class:`Greedy`) as a Policy."""

    name = "greedy"

    def __init__(self, game=None) -> None:
        super().__init__(Greedy())


class LookaheadPolicy(BlindPolicy):
    """The lookahead blind player (:class:`Lookahead`, default options) as a Policy."""

    name = "lookahead"

    def __init__(self, game=None, *, samples: int = 4, width: int = 4, depth: int = 6) -> None:
        super().__init__(Lookahead(samples=samples, width=width, depth=depth))
