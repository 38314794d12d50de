"""Continuous Pyramid under the one contract (:mod:`solver.game`).

- The game is :class:`~solver.pyramid.rules.Pyramid` (variant ``continuous`` or
  ``wild-dragons``; one seat); its state is the reference
  :class:`~solver.pyramid.rules.PyramidState`, moves ``TILE@POS``.
- Policies: ``greedy`` and ``lookahead``, the blind players of
  :mod:`solver.pyramid.blind` (the registry adds ``random``).
- Analyses (their names are the keys of stored results):

  - ``thoughtful``: the exact search, the whole deal known.  ``won`` (``line``:
    the 144 moves, replayed by the independent checker), ``lost`` (exhausted
    with sound cuts only) or ``unknown`` with the limit hit.  Limits map onto
    :func:`~solver.pyramid.search.solve`'s ``node_limit``, ``time_limit`` and
    ``table_mb`` (the transposition table's budget).
  - ``blind:greedy``, ``blind:lookahead``: the blind player plays the deal in
    the fast compiled loop (:func:`~solver.pyramid.blind.play`): ``won`` or
    ``lost``; ``line``: the moves made.  ``node_limit`` counts the moves made
    and the positions the player examined, ``time_limit`` the seconds; either
    makes the game ``unknown``.  Blind play keeps no table, so ``table_mb``
    bounds nothing there.

  Every answer has the same fields: ``placed`` (tiles on the pyramid at the
  end; for a search that did not win, its deepest line), ``deepest``,
  ``slots`` (the reserve slot 1-9 of each solution move, else None),
  ``table_entries``, ``table_bytes`` and ``search_seconds`` (None for blind
  play).

>>> r = ENTRY.analyses[0].run(42, game=Pyramid(), limits=THOUGHTFUL_LIMITS)
>>> r.verdict, len(r.line), r.line[0], r.fields["placed"]
('won', 144, '1B@1e5', 144)
>>> hard_instance(Limits(node_limit=1000)).limit
'nodes'
"""
from __future__ import annotations

import time
from typing import Optional, Tuple

from solver.cext.pyramid import Engine
from solver.errors import InputError
from solver.game import Analysis, GameEntry, Limits, Result
from solver.options import Option
from solver.pyramid.blind import Greedy, GreedyPolicy, Lookahead, LookaheadPolicy, play
from solver.pyramid.chunked import thoughtful_rows
from solver.pyramid.deal import Deal, deal_from_seed
from solver.pyramid.geometry import POSITIONS
from solver.pyramid.rules import VARIANTS, Pyramid, PyramidState, check_variant
from solver.pyramid.search import (DEFAULT_NODE_LIMIT, DEFAULT_TABLE_MB, DEFAULT_TIME_LIMIT, VARIANT_CODES,
                                   SolveResult, deal_kinds, faces_for_line, solve)
from solver.pyramid.tail import TAIL_FROM, after_unknown, goes_to_tail, main_time_limit
from solver.pyramid.tiles import TILES

THOUGHTFUL_LIMITS = Limits(DEFAULT_NODE_LIMIT, DEFAULT_TIME_LIMIT, DEFAULT_TABLE_MB)
"""The exact search's default limits: 20M nodes, 60 s, a 64 MiB table."""

BATCH_LIMITS = Limits(node_limit=TAIL_FROM)
"""A batch's first pass: 100,000 nodes (then the tail search, under the same
limits), 60 s and 64 MiB as above.  Deals the search has not decided by then
are the tail search's anyway; at 20M they cost the search up to 200 times
that first (docs/pyramid.md, "Throughput").  ``--retry-unknown`` with the
documented larger limits takes up what the first pass leaves."""

FIELDS = ("placed", "deepest", "longest_exact", "slots", "table_entries", "table_bytes", "search_seconds")
"""The game's own keys of every answer, whatever the verdict."""

HARD_SEED = 7260
"""A Continuous deal that is lost, proven only after about 120,000 nodes (a fraction of a second)."""


def make_game(*, variant: Optional[str] = None, players: int = 1) -> Pyramid:
    if players != 1:
        raise InputError(f"pyramid is a solitaire: 1 player, not {players!r}")
    return Pyramid(check_variant(variant or "continuous"))


# -- thoughtful: the exact search --------------------------------------------------
def solve_deal(deal: Deal, *, variant: str = "continuous", limits: Limits = Limits()) -> Result:
    """The exact search on ``deal`` as a :class:`~solver.game.Result` (limits not
    given take :data:`THOUGHTFUL_LIMITS`); ``seconds`` is the whole analysis,
    the checker's replay included, ``search_seconds`` the searches alone in CPU
    seconds (``time_limit`` counts those, for both searches together)."""
    return thoughtful_answer(deal, variant=variant, limits=limits)[0]


def thoughtful_answer(deal: Deal, *, variant: str = "continuous",
                      limits: Limits = Limits()) -> Tuple[Result, SolveResult]:
    """:func:`solve_deal` with the search's own :class:`~solver.pyramid.search.SolveResult`
    (moves as :class:`~solver.pyramid.rules.Move`, and ``best_line`` when not won)."""
    t0 = time.perf_counter()
    limits = limits.or_defaults(**THOUGHTFUL_LIMITS.to_dict())
    r = solve(deal, variant=variant, node_limit=limits.node_limit, time_limit=main_time_limit(limits.time_limit),
              table_mb=limits.table_mb)
    if goes_to_tail(r.verdict, r.nodes, r.limit):     # the tail search: its own nodes, the time left
        r = after_unknown(deal, r, variant=variant, node_limit=limits.node_limit,
                          time_limit=limits.time_limit, table_mb=limits.table_mb)
    if r.verdict != "won" and not r.longest_exact:
        longer_by_blind_play(deal, r, variant)
    won = r.verdict == "won"
    fields = {"placed": 144 if won else r.deepest, "deepest": 144 if won else r.deepest,
              "longest_exact": r.longest_exact, "slots": list(r.slots) if won else None,
              "table_entries": r.table_entries, "table_bytes": r.table_bytes,
              "search_seconds": round(r.cpu_seconds, 6)}
    return Result(r.verdict, r.limit, r.nodes, time.perf_counter() - t0, list(r.line), fields), r


def longer_by_blind_play(deal: Deal, r: SolveResult, variant: str) -> None:
    """Where the search's longest line is not proven the longest, the blind
    players (greedy and lookahead, as in the ``blind:*`` analyses) play the deal
    too, and the longest line is kept: ``placed`` is never below blind play."""
    for player in (Greedy(), Lookahead()):
        game = play(deal, player, variant=variant)
        if game.placed > r.deepest:
            r.best_line = faces_for_line(deal, game.moves)[0]
            r.deepest, r.best_source = game.placed, player.name


def run_thoughtful(seed: int, *, game: Pyramid, limits: Limits) -> Result:
    return solve_deal(deal_from_seed(seed), variant=game.variant, limits=limits)


def rows_thoughtful(seeds, *, game: Pyramid, limits: Limits):
    """A batch chunk's stored rows at once (:mod:`solver.pyramid.chunked`)."""
    return thoughtful_rows(seeds, variant=game.variant, limits=limits)


# -- blind play: the compiled loop -------------------------------------------------
def play_deal(deal: Deal, player, *, variant: str = "continuous", limits: Limits = Limits()) -> Result:
    """``player`` (a :class:`~solver.pyramid.blind.BlindPlayer`) plays ``deal`` blind."""
    t0 = time.perf_counter()
    g = play(deal, player, variant=variant, node_limit=limits.node_limit, time_limit=limits.time_limit)
    line = [str(m) for m in faces_for_line(deal, g.moves)[0]]
    fields = {"placed": g.placed, "deepest": g.placed, "longest_exact": None, "slots": None, "table_entries": None,
              "table_bytes": None, "search_seconds": None}
    return Result(g.verdict, g.limit, g.nodes, time.perf_counter() - t0, line, fields)


def run_blind_greedy(seed: int, *, game: Pyramid, limits: Limits) -> Result:
    return play_deal(deal_from_seed(seed), Greedy(), variant=game.variant, limits=limits)


def run_blind_lookahead(seed: int, *, game: Pyramid, limits: Limits, samples: int, width: int,
                        depth: int) -> Result:
    return play_deal(deal_from_seed(seed), Lookahead(samples=samples, width=width, depth=depth),
                     variant=game.variant, limits=limits)


LOOKAHEAD_OPTIONS = (
    Option("samples", int, 4, "Imagined orders of the unseen tiles per move.", low=1, high=1000),
    Option("width", int, 4, "Candidate moves scored (the greedy order's best).", low=1, high=200),
    Option("depth", int, 6, "Greedy roll-out length after each candidate.", low=0, high=144),
)

ENTRY = GameEntry(
    name="pyramid",
    title="Continuous Pyramid",
    make_game=make_game,
    variants=VARIANTS,
    default_variant="continuous",
    players=(1, 1),
    policies={"greedy": GreedyPolicy, "lookahead": LookaheadPolicy},
    default_policies=("greedy",),
    max_moves=144,
    analyses=(
        Analysis("thoughtful", "exact", run_thoughtful,
                 "Exact search, the whole deal known: won (with the 144 moves), lost (proven) or unknown.",
                 default_limits=THOUGHTFUL_LIMITS, rows=rows_thoughtful, batch_limits=BATCH_LIMITS),
        Analysis("blind:greedy", "exact", run_blind_greedy,
                 "The greedy blind player (sees only the pyramid and reserves) plays the deal: won or lost."),
        Analysis("blind:lookahead", "exact", run_blind_lookahead,
                 "The lookahead blind player (imagined stocks, greedy roll-outs) plays the deal: won or lost.",
                 options=LOOKAHEAD_OPTIONS),
    ),
)


# -- for the registry-wide tests (tests/test_game_contract.py) ---------------------
def hard_instance(limits: Limits) -> Result:
    """The exact search on deal :data:`HARD_SEED` (Continuous), under ``limits``."""
    return solve_deal(deal_from_seed(HARD_SEED), variant="continuous", limits=limits)


def reference_check(state: PyramidState) -> None:
    """Assert that the compiled engine, brought to ``state`` along its history,
    agrees with the reference state: the legal moves (as notation, each kind
    move named by every face of that kind in the reserves), the open positions,
    and whether the deal is won or over."""
    deal, variant = state.game.deal, state.game.variant
    engine = Engine(deal_kinds(deal), variant=VARIANT_CODES[variant])
    for move in state.history:
        engine.make(TILES[move.tile].kind, move.pos)
    faces = sorted({f for f in state.reserve if f is not None})
    compiled = sorted(f"{TILES[f].token}@{POSITIONS[p].name}"
                      for k, p in engine.legal_moves() for f in faces if TILES[f].kind == k)
    reference = sorted(state.format_move(m) for m in state.legal_moves())
    assert compiled == reference, (compiled, reference)
    assert engine.open_positions() == state.open_positions()
    assert engine.is_won() == state.is_won()
    assert (engine.is_won() or engine.is_stuck()) == state.is_terminal()
