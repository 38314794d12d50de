"""Seeded random play-outs: the per-seed analysis the shared batch runner calls.

A play-out starts from the start position and draws every move with the
shared SplitMix64 seeded with the seed: ``next() mod n`` indexes the legal
moves in canonical order (:func:`canonical`).  It ends with a win, a player
without a move, a third repetition (a draw), or ``max_plies`` (unfinished).

>>> r = analyse_seed(1, max_plies=50)
>>> r["verdict"], r["plies"], r["final"] == analyse_seed(1, max_plies=50)["final"]
('unfinished', 50, True)
"""
from __future__ import annotations

import time
from collections import Counter
from typing import Iterator, List, Tuple

from solver.cext.boundary import Board
from solver.boundary.notation import format_position
from solver.boundary.rules import PLAYER_NAMES, Move, Position
from solver.errors import InputError
from solver.rng import SplitMix64, check_seed


def canonical(moves: List[Move]) -> List[Move]:
    """Moves sorted by (pyramid from, pyramid to, stone from, stone to), alone first."""
    return sorted(moves, key=lambda m: (m[2], m[3], -1 if m[0] is None else m[0],
                                        -1 if m[1] is None else m[1]))


def random_line(seed: int, plies: int) -> Iterator[Tuple[Position, Move]]:
    """(position, move drawn) along a seeded random game, in the reference engine."""
    rng = SplitMix64(check_seed(seed))
    pos = Position.start()
    for _ in range(plies):
        moves = canonical(pos.legal_moves())
        if not moves:
            return
        move = moves[rng.below(len(moves))]
        yield pos, move
        pos = pos.clone()
        pos.apply(move)


def playout(seed: int, *, max_plies: int = 1000) -> dict:
    """One seeded random game in the compiled engine."""
    rng = SplitMix64(check_seed(seed))
    pos = Position.start()
    board = Board.from_position(pos)
    seen = Counter([board.hash])
    verdict, nodes, plies = "unfinished", 0, 0
    for _ in range(max_plies):
        legal = canonical(board.legal_moves())
        nodes += 1
        if not legal:
            verdict = "red" if board.winner() == 0 else "green" if board.winner() == 1 \
                else PLAYER_NAMES[1 - board.side].lower()
            break
        move = legal[rng.below(len(legal))]
        board.push(move)
        plies += 1
        seen[board.hash] += 1
        if board.winner() is not None:
            verdict = PLAYER_NAMES[board.winner()].lower()
            break
        if seen[board.hash] >= 3:
            verdict = "draw"
            break
    final = Position(board.stacks(), board.stones(), board.side)
    return {"verdict": verdict, "plies": plies, "nodes": nodes,
            "final": format_position(final), "max_plies": max_plies}


def analyse_seed(seed: int, *, analysis: str = "playout", **options) -> dict:
    """The batch runner's entry point: a JSON-serialisable dict for one seed.

    ``analysis="playout"`` (the only one so far): ``verdict`` is the winner
    (``red``/``green``), ``draw`` (third repetition) or ``unfinished``; plus
    ``plies``, ``nodes`` (positions generated), ``seconds`` and ``final``.
    """
    if analysis != "playout":
        raise InputError(f"unknown analysis {analysis!r} (known: playout)")
    t0 = time.perf_counter()
    out = playout(seed, **options)
    out["seconds"] = round(time.perf_counter() - t0, 6)
    out["seed"] = seed
    out["analysis"] = analysis
    return out
