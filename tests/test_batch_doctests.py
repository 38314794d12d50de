"""The doctests of the batch modules are examples that must stay true."""
import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["solver.seeds", "solver.store", "solver.stats",
                                  "solver.pyramid.analysis", "solver.pyramid.blind"])
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
