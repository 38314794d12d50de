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


def _boundary_cut_keeps_answers(option, counters, seeds, max_depth, node_limit):
    """A Boundary search option (a bit of ``OPTIONS``) against the default search without
    it, on seeded endgames: every answer the search without it decides (or bounds by depth)
    is the same with it, verdict and distance.  Returns (compared, decisive, the sum of the
    named ``stats`` counters of the runs with it)."""
    from solver.boundary.endgames import endgame
    from solver.boundary.notation import format_position
    from solver.cext.boundary import DEFAULT_OPTS, Board
    cuts = compared = decisive = 0
    for seed in seeds:
        pos = endgame(seed)
        board = Board.from_position(pos)
        if board.winner() is not None:
            continue
        without = board.search(max_depth=max_depth, opts=DEFAULT_OPTS & ~option, node_limit=node_limit)
        if without["result"] == "unknown" and without["limit"] != "depth":
            continue
        got = board.search(max_depth=max_depth, opts=DEFAULT_OPTS | option, node_limit=4 * node_limit)
        assert (got["result"], got["plies"]) == (without["result"], without["plies"]), format_position(pos)
        cuts += sum(got["stats"][c] for c in counters)
        compared += 1
        decisive += got["result"] in ("win", "loss")
    return compared, decisive, cuts


@pytest.fixture
def boundary_cut_keeps_answers():
    """``boundary_cut_keeps_answers(option, counters, seeds, max_depth, node_limit)``."""
    return _boundary_cut_keeps_answers
