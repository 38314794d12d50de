"""Docstring examples are documentation: they must run."""
import doctest
import importlib

import pytest

MODULES = [
    "solver.rng", "solver.pyramid", "solver.pyramid.tiles", "solver.pyramid.deal",
    "solver.pyramid.geometry", "solver.pyramid.rules", "solver.pyramid.check",
    "solver.pyramid.search", "solver.pyramid.render", "solver.pyramid.reference_search",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failed == 0
