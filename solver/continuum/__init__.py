"""Continuum (rules/continuum.md): the row engine, the exchange puzzle, play-outs.

>>> from solver.continuum import start_row, parse_row
>>> parse_row(start_row().text()) == start_row()
True
"""
from solver.continuum.pieces import own_pyramids, pyramid_id, pyramid_name  # noqa: F401
from solver.continuum.rules import Move, Row, is_won, legal_moves, start_row  # noqa: F401
from solver.continuum.notation import format_move, format_row, parse_move, parse_row  # noqa: F401
