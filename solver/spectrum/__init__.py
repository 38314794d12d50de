"""Spectrum, Erik Dresner's currency-exchange race (rules/spectrum.md).

The reference rules are :mod:`solver.spectrum.rules`; the adapter to the one
contract (:mod:`solver.game`) is :mod:`solver.spectrum.contract`.

>>> from solver.spectrum import Game, format_goals
>>> format_goals(Game(players=1, seed=1).new_state().goals)
'teal/blue/cyan purple/purple/orange cyan/lime/red'
"""
from solver.spectrum.notation import format_goals, format_stash, parse_goals, parse_stash  # noqa: F401
from solver.spectrum.rules import Game, IllegalMove, Move, State, parse_move  # noqa: F401
