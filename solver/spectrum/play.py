"""Multiplayer play-outs between policies: ``random`` and ``solver``.

``random`` picks uniformly among the legal moves with its own SplitMix64,
seeded ``seed XOR (0xD1B54A32D192ED03 * seat)`` so the game's goal stream
stays one stream (a decision the rules page leaves open).  ``solver`` plays
the first move of a minimum-turn plan for its own stash (the solitaire
search: from the mover's side the supply is exactly 4 minus its own stash),
takes missing pieces from the opponent with the lowest stash value, and
when its search hits its node limit plays the move whose result has the
least lower bound on the turns still needed.
"""
from __future__ import annotations

from typing import List, Sequence

from solver.errors import InputError
from solver.rng import MASK64, SplitMix64, check_seed
from solver.spectrum.rules import Game, Move, State

POLICIES = ("random", "solver")
DEFAULT_MAX_TURNS = 200


def policy_rng(seed: int, seat: int) -> SplitMix64:
    return SplitMix64(seed ^ ((0xD1B54A32D192ED03 * (seat + 1)) & MASK64))


def choose(state: State, policy: str, rng: SplitMix64, *, max_nodes: int = 200_000) -> Move:
    """The move ``policy`` plays in ``state``."""
    moves = state.legal_moves()
    if policy == "solver" and len(moves) > 1:
        from solver.spectrum.search import closest_move, first_move_of_plan
        planned = first_move_of_plan(state, max_nodes=max_nodes, max_seconds=10.0)
        if planned is None:
            planned = closest_move(state)
        if planned is not None:
            first = str(planned)
            same = [m for m in moves if str(Move(m.kind, m.colour, m.to_colour, m.give, m.receive)) == first]
            if same:
                return min(same, key=lambda m: sum(state.value(p) for _, p in m.sources))
    return moves[rng.below(len(moves))]


def play_game(*, players: int, seed: int, policies: Sequence[str],
              max_turns: int = DEFAULT_MAX_TURNS, solver_nodes: int = 200_000) -> dict:
    """One game; ``policies`` has one entry per seat.  Returns the moves, the
    winner seat (1-based, or None if ``max_turns`` passed) and the length."""
    check_seed(seed)
    if len(policies) != players:
        raise InputError(f"{players} players need {players} policies, got {len(policies)}")
    for p in policies:
        if p not in POLICIES:
            raise InputError(f"unknown policy {p!r} (expected one of {', '.join(POLICIES)})")
    state = Game(players, seed).new_state()
    rngs = [policy_rng(seed, s) for s in range(players)]
    log: List[str] = []
    while not state.is_terminal() and state.turn < max_turns:
        seat = state.to_move
        move = choose(state, policies[seat], rngs[seat], max_nodes=solver_nodes)
        state.apply(move)
        log.append(f"P{seat + 1} {move}")
    winner = None if state.winner is None else state.winner + 1
    return {"seed": seed, "players": players, "policies": list(policies),
            "verdict": f"P{winner} wins" if winner else "unfinished", "winner": winner,
            "winner_policy": policies[winner - 1] if winner else None,
            "length": state.turn, "moves": log, "final": state.text()}
