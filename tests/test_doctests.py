"""Docstring examples are documentation: they must run.

The modules are found by walking the installed package, not from a hand-kept
list, so a new module's examples are tested from the day it is written.
"""
import doctest
import importlib
import pkgutil

import pytest

SKIP = ("solver.cli.main",)          # importing it registers the CLI; it has no examples


def all_modules():
    """Every module of the package; solver.cli and solver.cext are walked from
    their own paths too (in an editable install they live outside solver/)."""
    names = set()
    for root in ("solver", "solver.cli", "solver.cext"):
        package = importlib.import_module(root)
        names.add(root)
        for info in pkgutil.walk_packages(package.__path__, prefix=root + "."):
            names.add(info.name)
    return sorted(n for n in names if n not in SKIP)


@pytest.mark.parametrize("name", all_modules())
def test_doctests(name):
    module = importlib.import_module(name)
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0


def test_the_walk_finds_every_package():
    found = set(all_modules())
    for name in ("solver.game", "solver.games", "solver.options", "solver.playout", "solver.stats",
                 "solver.cli.common", "solver.pyramid.rules", "solver.boundary.rules"):
        assert name in found
