"""Continuous Pyramid and Pyramid of Wild Dragons (rules/pyramid.md).

>>> from solver.pyramid import deal_from_seed, solve
>>> deal = deal_from_seed(42)
>>> deal.tokens()[:5]
['5B', '9C', '9C', 'WW', '6D']
"""
from solver.pyramid.tiles import Tile, TILES, parse_tile  # noqa: F401
from solver.pyramid.deal import Deal, deal_from_seed, parse_deal  # noqa: F401
