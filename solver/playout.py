"""The one play-out loop: a game between policies, written once for every game.

Each seat draws its randomness from its own SplitMix64, seeded from the game's
seed and the seat (:func:`seat_rng`), so the game's own chance stream (the
deal, dice, goal draws) is untouched by the policies and a seeded play-out
replays exactly.

>>> from solver.game import RandomPolicy
>>> from solver.games import make_game
>>> game = make_game("boundary")
>>> out = play_out(game, [RandomPolicy(), RandomPolicy()], seed=1, max_moves=50)
>>> out.length <= 50, out.to_dict()["verdict"] is None
(True, True)
>>> play_out(game, [RandomPolicy(), RandomPolicy()], seed=1, max_moves=50).line == out.line
True
"""
from __future__ import annotations

import time
from typing import Callable, Optional, Sequence

from solver.errors import InputError
from solver.game import Game, Outcome, Policy
from solver.rng import MASK64, SplitMix64, check_seed

SEAT_SALT = 0xD1B54A32D192ED03


def seat_rng(seed: int, seat: int) -> SplitMix64:
    """The generator of ``seat`` (0-based) in game ``seed``."""
    return SplitMix64(seed ^ ((SEAT_SALT * (seat + 1)) & MASK64))


def play_out(game: Game, policies: Sequence[Policy], *, seed: int, max_moves: int,
             on_move: Optional[Callable] = None) -> Outcome:
    """Play game ``seed`` with one policy per seat until it ends or ``max_moves``
    moves have been made (then ``finished`` is False and there is no winner).

    ``on_move(state, move)`` is called before each move is applied (for logs)."""
    check_seed(seed)
    if len(policies) != game.num_players:
        raise InputError(f"{game.num_players} seats need {game.num_players} policies, got {len(policies)}")
    if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
        raise InputError(f"max_moves must be a positive whole number, not {max_moves!r}")
    t0 = time.perf_counter()
    state = game.new_initial_state(seed)
    rngs = [seat_rng(seed, s) for s in range(game.num_players)]
    line = []
    while not state.is_terminal() and len(line) < max_moves:
        seat = state.current_player()
        move = policies[seat].choose(state, rngs[seat])
        line.append(state.format_move(move))
        if on_move is not None:
            on_move(state, move)
        state.apply(move)
    finished = state.is_terminal()
    return Outcome(winner=state.winner() if finished else None,
                   scores=[float(x) for x in state.returns()] if finished else [0.0] * game.num_players,
                   finished=finished, length=len(line), line=line,
                   nodes=len(line) + sum(getattr(p, "nodes", 0) for p in {id(p): p for p in policies}.values()),
                   seconds=time.perf_counter() - t0)

