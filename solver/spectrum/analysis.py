"""The entry point for the shared batch runner: one seed in, one JSON row out.

>>> row = analyse_seed(10)
>>> row["verdict"], row["turns"]
('won', 7)
"""
from __future__ import annotations

from solver.errors import InputError
from solver.spectrum.play import play_game
from solver.spectrum.search import solve_seed

ANALYSES = ("min-turns", "playout")


def analyse_seed(seed: int, *, analysis: str = "min-turns", **options) -> dict:
    """``min-turns``: the solitaire's proven minimum (``verdict`` won/unknown,
    ``turns``, ``plan``, ``nodes``, ``seconds``).  ``playout``: a game between
    policies (options ``players``, ``policies``); ``verdict`` is the outcome
    (``P1 wins``, ``P2 wins``, ... or ``unfinished``, so ``solve stats``
    counts wins by seat), ``winner`` the seat, ``length`` the turns."""
    if analysis == "min-turns":
        row = solve_seed(seed, **options)
        row.pop("turns_detail", None)
        return row
    if analysis == "playout":
        import time
        players = options.pop("players", 2)
        policies = options.pop("policies", ["solver"] + ["random"] * (players - 1))
        t0 = time.perf_counter()
        row = play_game(players=players, seed=seed, policies=policies, **options)
        row.pop("final", None)
        row.update(nodes=None, seconds=round(time.perf_counter() - t0, 4))
        return row
    raise InputError(f"unknown analysis {analysis!r} (expected one of {', '.join(ANALYSES)})")
