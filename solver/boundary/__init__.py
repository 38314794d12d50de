"""Boundary (rules/boundary.md): a two-player game of moving trees across a continuum.

>>> from solver.boundary import Position, format_position
>>> format_position(Position.start())
'Bl+Bm+Bs4Yl+Ym+Ys/6/2gr2/2rg2/6/Rl+Rm+Rs4Gl+Gm+Gs r'
"""
from solver.boundary.rules import Position, perft  # noqa: F401
from solver.boundary.notation import (format_move, format_position, parse_move,  # noqa: F401
                                      parse_position, parse_record)
