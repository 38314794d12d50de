"""Per-seed analyses for the shared batch runner.

>>> r = analyse_seed(0, analysis="puzzle", player="B")
>>> r["verdict"], r["pips"], r["moves"]
('solved', 30, 13)
"""
from __future__ import annotations

import time

from solver.continuum.game import DEFAULT_MAX_TURNS, play_game
from solver.continuum.rules import start_row
from solver.continuum.search import solve_puzzle
from solver.errors import InputError
from solver.rng import check_seed

ANALYSES = ("playout", "puzzle")


def analyse_seed(seed: int, *, analysis: str = "playout", policy_a: str = "puzzle",
                 policy_b: str = "puzzle", max_turns: int = DEFAULT_MAX_TURNS,
                 balance: str = "turn", player: str = "A", cost: str = "pips", **options) -> dict:
    """One JSON-serialisable record.

    ``playout``: game ``seed`` between the two policies; ``verdict`` is the
    outcome (``A wins``, ``B wins`` or ``unfinished``), with ``winner`` and
    ``turns``.  ``puzzle``: the exchange puzzle from the start position (the
    seed does not change it); ``verdict`` is solved / impossible / unknown.
    """
    check_seed(seed)
    t0 = time.perf_counter()
    if analysis == "playout":
        rec = play_game(seed, policies=(policy_a, policy_b), max_turns=max_turns, balance=balance)
        out = rec.to_json()
        out.pop("log")
        out.update(verdict=out["outcome"], nodes=rec.turns, seconds=time.perf_counter() - t0)
        return out
    if analysis == "puzzle":
        res = solve_puzzle(start_row(), player=player, cost=cost, **options)
        out = res.to_json(start_row())
        out.update(seed=seed, nodes=res.nodes, seconds=time.perf_counter() - t0)
        return out
    raise InputError(f"no such analysis: {analysis!r} (expected {', '.join(ANALYSES)})")
