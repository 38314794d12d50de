"""Continuous Pyramid and Pyramid of Wild Dragons (rules/pyramid.md).

The public API; the ``solve pyramid`` command is a thin layer over it.  The
game under the one contract of :mod:`solver.game` is :class:`Pyramid` (its
registry entry, analyses and policies: :mod:`solver.pyramid.contract`).

>>> from solver.pyramid import deal_from_seed, solve, check_solution, replay, render
>>> deal = deal_from_seed(42)
>>> deal.tokens()[:5]
['5B', '9C', '9C', 'WW', '6D']
>>> result = solve(deal, variant="continuous")
>>> result.verdict, len(result.moves), str(result.moves[0])
('won', 144, '1B@1e5')
>>> check_solution(deal, [str(m) for m in result.moves]).valid
True
>>> print(render.text(replay(deal, result.moves[:1])).splitlines()[-1])
Stock     134 tiles   Placed 1 of 144
"""
from solver.pyramid.tiles import Tile, TILES, parse_tile  # noqa: F401
from solver.pyramid.deal import Deal, deal_from_seed, parse_deal  # noqa: F401
from solver.pyramid.rules import (IllegalMove, Move, Pyramid, PyramidGame, PyramidState,  # noqa: F401
                                  VARIANTS, kinds_fit, parse_move)
from solver.pyramid.check import CheckReport, check_solution, replay  # noqa: F401
from solver.pyramid.search import SolveResult, solve  # noqa: F401
from solver.pyramid import render  # noqa: F401
