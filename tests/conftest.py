"""Fixtures shared by several test files.

The suite runs with ``--import-mode=importlib``, so test files cannot import one another;
a helper they all need lives here as a fixture.
"""

import sqlite3
from pathlib import Path

import pytest


def _row_count(path):
    """Rows stored in a results database; 0 while it does not exist or cannot be read yet."""
    try:
        con = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True, timeout=5)
        try:
            return con.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        return 0


@pytest.fixture
def row_count():
    """``row_count(path)``: how many rows a results database holds (0 if not created yet)."""
    return _row_count


def _pyramid_random_lines(variant, seeds):
    """(state, engine) pairs along a random legal line of each deal (its own generator):
    the pure-Python rules and the compiled engine moved together, for twin tests."""
    import random
    from solver.cext import pyramid as fast
    from solver.pyramid.deal import deal_from_seed
    from solver.pyramid.rules import Move, PyramidGame
    from solver.pyramid.search import VARIANT_CODES, deal_kinds
    from solver.pyramid.tiles import TILES
    for seed in seeds:
        rnd = random.Random(seed)
        deal = deal_from_seed(seed)
        state = PyramidGame(deal, variant).new_initial_state()
        engine = fast.Engine(deal_kinds(deal), variant=VARIANT_CODES[variant])
        while True:
            moves = sorted({(TILES[m.tile].kind, m.pos) for m in state.legal_moves()})
            if not moves:
                break
            kind, pos = rnd.choice(moves)
            face = next(f for f in state.reserve if f is not None and TILES[f].kind == kind)
            state.apply(Move(face, pos))
            engine.make(kind, pos)
            yield state, engine


@pytest.fixture
def pyramid_random_lines():
    """``pyramid_random_lines(variant, seeds)``: (state, engine) pairs along random lines."""
    return _pyramid_random_lines
