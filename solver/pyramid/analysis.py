"""Per-seed Pyramid analyses for the shared batch runner.

- ``thoughtful``: the exact search (the whole deal known): ``won``, ``lost``
  or ``unknown`` with the limit hit.
- ``blind:NAME``: the blind policy NAME (see :mod:`solver.pyramid.blind`)
  plays the deal: ``won`` or ``lost``.

>>> r = analyse_seed(1, analysis="thoughtful")
>>> r["verdict"], r["placed"]
('won', 144)
>>> analyse_seed(1, analysis="blind:greedy")["verdict"] in ("won", "lost")
True
"""
from __future__ import annotations

import time

from solver.errors import InputError
from solver.pyramid.blind import POLICIES, check_policy, play
from solver.pyramid.deal import deal_from_seed
from solver.pyramid.rules import VARIANTS, check_variant  # noqa: F401  (VARIANTS: read by the runner)
from solver.pyramid.search import DEFAULT_NODE_LIMIT, DEFAULT_TABLE_MB, DEFAULT_TIME_LIMIT, solve

DEFAULT_VARIANT = "continuous"
ANALYSES = ("thoughtful",) + tuple(f"blind:{name}" for name in POLICIES)


def check_options(*, analysis: str, variant: str = DEFAULT_VARIANT, **options) -> None:
    """Raise InputError for an unknown analysis, policy, variant or option."""
    check_variant(variant)
    if analysis == "thoughtful":
        allowed = ("node_limit", "time_limit", "table_mb")
    elif analysis.startswith("blind:"):
        policy = POLICIES[check_policy(analysis[len("blind:"):])]
        allowed = policy.OPTIONS + ("node_limit", "time_limit")
    else:
        raise InputError(f"unknown analysis {analysis!r} (known: thoughtful, blind:NAME "
                         f"with NAME one of {', '.join(POLICIES)})")
    for key in options:
        if key not in allowed:
            raise InputError(f"analysis {analysis} takes no option {key!r}")


def analyse_seed(seed: int, *, analysis: str = "thoughtful", variant: str = DEFAULT_VARIANT,
                 node_limit: int = DEFAULT_NODE_LIMIT, time_limit: float = DEFAULT_TIME_LIMIT,
                 table_mb: float = DEFAULT_TABLE_MB, **options) -> dict:
    """One seed: ``verdict``, ``limit``, ``nodes``, ``seconds`` (wall time of the
    whole analysis, deal and checks included) and ``placed`` (tiles on the
    pyramid at the end; for an exhausted search the deepest line)."""
    t0 = time.perf_counter()
    check_options(analysis=analysis, variant=variant, **options)
    deal = deal_from_seed(seed)
    if analysis == "thoughtful":
        r = solve(deal, variant=variant, node_limit=node_limit, time_limit=time_limit, table_mb=table_mb)
        out = {"verdict": r.verdict, "limit": r.limit, "nodes": r.nodes,
               "placed": r.deepest if r.verdict != "won" else 144,
               "search_seconds": round(r.seconds, 6), "table_entries": r.table_entries}
    else:
        # Blind play always finishes (at most 144 moves); the limits do not apply.
        game = play(deal, policy=analysis[len("blind:"):], variant=variant, **options)
        out = {"verdict": game.verdict, "limit": None, "nodes": game.nodes, "placed": game.placed}
    out.update(seed=seed, variant=variant, analysis=analysis,
               seconds=round(time.perf_counter() - t0, 6))
    return out

