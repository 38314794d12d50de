"""The ``solver`` play policy: the first move of a minimum-turn plan.

Play-outs run through the one shared loop (:func:`solver.playout.play_out`);
the shared ``random`` policy (uniform over ``legal_moves()``) needs nothing
here.  ``solver`` plays the first move of a minimum-turn plan for its own
stash (the solitaire search: from the mover's side the supply is exactly 4
minus its own stash), takes missing pieces from the opponent with the lowest
stash value, and when its search runs over its budget plays the move whose
result has the least lower bound on the turns still needed.  With one legal
move, or when nothing matches the plan, it picks uniformly with the seat's
generator, as ``random`` does.

>>> from solver.spectrum.contract import Spectrum
>>> from solver.playout import seat_rng
>>> st = Spectrum(players=2).new_initial_state(1)
>>> st.format_move(SolverPolicy().choose(st, seat_rng(1, 0)))
'exchange M:yellow -> S:lime S:lime'
"""
from __future__ import annotations

from solver.game import Policy
from solver.spectrum.rules import Move

SOLVER_NODES = 200_000
"""The solver policy's node budget per move (its search stops earlier at 10 CPU seconds)."""
SOLVER_SECONDS = 10.0


class SolverPolicy(Policy):
    """Plays the first move of its own minimum-turn plan (see the module).

    ``nodes`` counts the search nodes of every move it chose (the shared loop
    adds them to the play-out's ``nodes``)."""

    name = "solver"

    def __init__(self, *, node_limit: int = SOLVER_NODES, time_limit: float = SOLVER_SECONDS):
        self.node_limit = node_limit
        self.time_limit = time_limit
        self.nodes = 0

    def choose(self, state, rng) -> Move:
        ref = getattr(state, "ref", state)      # the contract state or a rules.State
        moves = ref.legal_moves()
        if len(moves) > 1:
            from solver.spectrum.search import closest_move, first_move_of_plan
            planned, nodes = first_move_of_plan(ref, node_limit=self.node_limit,
                                                time_limit=self.time_limit)
            self.nodes += nodes
            if planned is None:
                planned = closest_move(ref)
            if planned is not None:
                first = str(planned)
                same = [m for m in moves
                        if str(Move(m.kind, m.colour, m.to_colour, m.give, m.receive)) == first]
                if same:
                    return min(same, key=lambda m: sum(ref.value(p) for _, p in m.sources))
        return moves[rng.below(len(moves))]


__all__ = ["SolverPolicy", "SOLVER_NODES"]
