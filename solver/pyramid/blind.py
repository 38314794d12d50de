"""Blind play: policies that see only the pyramid and the 9 reserve tiles.

A blind player never sees the stock.  ``greedy`` judges a move by what is on
the table; ``lookahead`` also imagines the unseen tiles: it deals them in
random orders (the shared SplitMix64 and Fisher-Yates, seeded from the deal's
seed, so a game replays exactly), plays each candidate move in every imagined world, follows
it with a short greedy roll-out, and picks the move that placed most tiles on
average.  The real stock is only ever used to refill the reserves after a
move has been chosen.

>>> from solver.pyramid.deal import deal_from_seed
>>> game = play(deal_from_seed(1), policy="greedy")
>>> game.verdict in ("won", "lost"), game.placed == len(game.moves)
(True, True)
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Sequence, Tuple

from solver.cext import pyramid_blind as _fast
from solver.cext.pyramid import Engine
from solver.cext.rng import shuffled_indices
from solver.errors import InputError
from solver.pyramid.deal import Deal
from solver.pyramid.geometry import POSITIONS
from solver.pyramid.search import VARIANT_CODES, deal_kinds
from solver.pyramid.tiles import KIND_DRAGON, N_KINDS
from solver.rng import SplitMix64

KindMove = Tuple[int, int]        # (kind, position)
FULL_SET = [4] * 27 + [12, 12, 12]  # copies of each kind in the 144 tiles
LEVEL = [p.level for p in POSITIONS]
_fast.set_levels(LEVEL)


@dataclass
class BlindGame:
    """A blind game: ``verdict`` ``won`` or ``lost`` (stuck), the moves as
    (kind, position) and the positions the policy examined (``nodes``)."""

    policy: str
    verdict: str
    placed: int
    moves: List[KindMove] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0


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


class Greedy:
    """The best move by :func:`quick_key`; among the moves of the chosen kind,
    the one that leaves the most open positions (board information only)."""

    name = "greedy"
    OPTIONS: Tuple[str, ...] = ()

    def __init__(self, *, seed: int = 0, **_ignored) -> None:
        self.nodes = 0

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
            self.nodes += 1
        return min(scored)[2]


class Lookahead:
    """Score the ``width`` best greedy candidates over ``samples`` imagined
    orders of the unseen tiles, each followed by a ``depth``-move roll-out."""

    name = "lookahead"
    OPTIONS: Tuple[str, ...] = ("samples", "width", "depth")

    def __init__(self, *, seed: int = 0, samples: int = 4, width: int = 4, depth: int = 6,
                 variant_code: int = 0, **_ignored) -> None:
        if samples < 1 or width < 1 or depth < 0:
            raise InputError("lookahead needs samples >= 1, width >= 1, depth >= 0")
        self.samples, self.width, self.depth = samples, width, depth
        self.variant_code = variant_code
        self.rng = SplitMix64(seed)
        self.nodes = 0

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
        self.nodes += examined
        return 1.0 + made + (self.depth if won else 0) - ((1.0 + self.depth) if stuck else 0)


POLICIES: Dict[str, Callable[..., object]] = {"greedy": Greedy, "lookahead": Lookahead}


def check_policy(name: str) -> str:
    if name not in POLICIES:
        raise InputError(f"unknown policy {name!r} (known: {', '.join(POLICIES)})")
    return name


def play(deal: Deal, *, policy: str = "greedy", variant: str = "continuous",
         **options) -> BlindGame:
    """Play ``deal`` blind with ``policy`` until it is won or no tile fits."""
    check_policy(policy)
    unknown = sorted(set(options) - set(POLICIES[policy].OPTIONS))
    if unknown:
        raise InputError(f"policy {policy} takes no option {unknown[0]!r}")
    if variant not in VARIANT_CODES:
        raise InputError(f"unknown variant {variant!r} (expected {' or '.join(VARIANT_CODES)})")
    t0 = time.perf_counter()
    code = VARIANT_CODES[variant]
    player = POLICIES[policy](seed=deal.seed or 0, variant_code=code, **options)
    engine = Engine(deal_kinds(deal), variant=code)
    history: List[KindMove] = []
    while True:
        moves = engine.legal_moves()
        if not moves:
            break
        move = moves[0] if len(moves) == 1 else player.choose(engine, moves)
        engine.make(*move)
        history.append(move)
    verdict = "won" if engine.is_won() else "lost"
    return BlindGame(policy, verdict, engine.placed, history, player.nodes + len(history),
                     time.perf_counter() - t0)


def face_moves(deal: Deal, game: BlindGame, *, variant: str = "continuous"):
    """The reference state after replaying ``game`` with its moves named by face.

    The replay goes through the reference rules, so it also checks the game.
    """
    from solver.pyramid.check import replay
    from solver.pyramid.search import faces_for_line
    moves, _ = faces_for_line(deal, game.moves)
    return replay(deal, moves, variant=variant)


def game_text(deal: Deal, game: BlindGame, *, variant: str = "continuous") -> str:
    """The game for a terminal: the moves, then the final pyramid (``render.text``)."""
    from solver.pyramid import render
    from solver.pyramid.tiles import TILES
    state = face_moves(deal, game, variant=variant)
    moves = [str(m) for m in state.history]
    lines = [f"seed {deal.seed} {variant}, policy {game.policy}: {game.verdict}, "
             f"{game.placed} of 144 tiles placed"]
    for i in range(0, len(moves), 12):
        lines.append(f"{i + 1:>4}. " + " ".join(moves[i:i + 12]))
    lines.append(render.text(state))
    if game.verdict == "lost":
        left = " ".join(TILES[f].token for f in state.reserve if f is not None)
        lines.append(f"stuck with reserves: {left}")
    return "\n".join(lines)
