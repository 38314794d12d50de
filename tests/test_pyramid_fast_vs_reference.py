"""The compiled engine and search against the pure-Python reference."""
import random

import pytest

from solver.cext import pyramid as fast
from solver.pyramid.deal import deal_from_seed
from solver.pyramid.geometry import ABOVE, BELOW, POSITIONS, SIDES
from solver.pyramid.reference_search import (can_finish_relaxed, can_reach_relaxed, exposed_kinds, holes_matchable,
                                             solve_reference)
from solver.pyramid.rules import Move, PyramidGame, kinds_fit
from solver.pyramid.search import VARIANT_CODES, deal_kinds
from solver.pyramid.tiles import N_KINDS, TILES

VARIANTS = sorted(VARIANT_CODES)


def test_geometry_matches():
    for p, (level, f, r, sides, below) in enumerate(fast.geometry()):
        ref = POSITIONS[p]
        assert (level, f, r) == (ref.level, ref.file, ref.rank)
        assert sides == list(SIDES[p])
        assert (below if below >= 0 else None) == BELOW[p]


@pytest.mark.parametrize("variant", VARIANTS)
def test_fit_masks_match(variant):
    masks = fast.fit_masks(VARIANT_CODES[variant])
    for a in range(N_KINDS):
        for b in range(N_KINDS):
            assert bool(masks[b] >> a & 1) == kinds_fit(a, b, variant=variant)


def _kind_moves(state):
    return sorted({(TILES[m.tile].kind, m.pos) for m in state.legal_moves()})


def _play_both(state, engine, kind, pos):
    """The same move on both sides: the reference names a face of that kind."""
    face = next(f for f in state.reserve if f is not None and TILES[f].kind == kind)
    state.apply(Move(face, pos))
    engine.make(kind, pos)


def _random_walks(variant, seeds, rnd, *, until_placed=144):
    """Each deal of ``seeds`` played at random on both sides at once: yields
    (seed, state, engine, moves) at every position, then plays one of ``moves``."""
    for seed in seeds:
        deal = deal_from_seed(seed)
        state = PyramidGame(deal, variant).new_initial_state()
        engine = fast.Engine(deal_kinds(deal), variant=VARIANT_CODES[variant])
        while True:
            moves = _kind_moves(state)
            yield seed, state, engine, moves
            if not moves or state.placed > until_placed:
                break
            _play_both(state, engine, *rnd.choice(moves))


def _reserve_counts(state):
    counts = [0] * N_KINDS
    for face in state.reserve:
        if face is not None:
            counts[TILES[face].kind] += 1
    return counts


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_play_agrees_move_by_move(variant):
    """Thousands of positions: legal moves, every state after a move, the end."""
    rnd = random.Random(2024)
    positions = 0
    for seed in range(40):
        deal = deal_from_seed(seed)
        state = PyramidGame(deal, variant).new_initial_state()
        engine = fast.Engine(deal_kinds(deal), variant=VARIANT_CODES[variant])
        while True:
            moves = _kind_moves(state)
            assert engine.legal_moves() == moves
            assert engine.open_positions() == state.open_positions()
            assert engine.board() == [None if f is None else TILES[f].kind for f in state.board]
            assert engine.reserve() == _reserve_counts(state)
            assert engine.is_won() == state.is_won()
            assert engine.is_stuck() == (not state.is_won() and state.is_terminal())
            assert engine.consistent()
            positions += 1
            if not moves:
                break
            _play_both(state, engine, *rnd.choice(moves))
        # unmake walks all the way back to the start, consistently
        while engine.placed:
            engine.unmake()
            assert engine.consistent()
        assert engine.legal_moves() == _kind_moves(PyramidGame(deal, variant).new_initial_state())
    assert positions > 2000


@pytest.mark.parametrize("variant", VARIANTS)
def test_relaxation_cuts_agree_on_random_positions(variant):
    rnd = random.Random(7)
    checked = 0
    for _, state, engine, _ in _random_walks(variant, range(40, 52), rnd):
        if state.placed:
            counts = [0] * N_KINDS
            for p in range(144):
                near = list(SIDES[p]) + ([ABOVE[p]] if ABOVE[p] is not None else [])
                if state.board[p] is not None and any(state.board[q] is None for q in near):
                    counts[TILES[state.board[p]].kind] += 1
            assert engine.exposed() == counts
            assert {k for k in range(N_KINDS) if counts[k]} == exposed_kinds(state)
            assert engine.can_finish_relaxed() == can_finish_relaxed(state)
            if state.placed >= 60 and rnd.random() < 0.5:
                assert engine.holes_matchable() == holes_matchable(state)
                checked += 1
    assert checked > 50


@pytest.mark.parametrize("variant", VARIANTS)
def test_from_position_rebuilds_the_same_state(variant):
    rnd = random.Random(11)
    for seed in range(60, 80):
        kinds = deal_kinds(deal_from_seed(seed))
        engine = fast.Engine(kinds, variant=VARIANT_CODES[variant])
        for _ in range(rnd.randrange(1, 140)):
            moves = engine.legal_moves()
            if not moves:
                break
            engine.make(*rnd.choice(moves))
        reserve = [k for k, c in enumerate(engine.reserve()) for _ in range(c)]
        copy = fast.Engine.from_position(engine.board(), reserve, kinds[9 + engine.placed:],
                                         variant=VARIANT_CODES[variant])
        assert copy.legal_moves() == engine.legal_moves()
        assert copy.key() == engine.key() and copy.consistent()


@pytest.mark.parametrize("variant", VARIANTS)
def test_searches_agree_on_verdicts_lines_and_nodes(variant):
    """Without restarts the compiled search visits exactly the reference's nodes."""
    for seed in range(1, 13):
        deal = deal_from_seed(seed)
        ref = solve_reference(deal, variant=variant, node_limit=5000)
        raw = fast.solve_kinds(deal_kinds(deal), variant=VARIANT_CODES[variant], first_round=0)
        assert ref.verdict == raw["verdict"]
        assert ref.nodes == raw["nodes"]
        assert [(TILES[m.tile].kind, m.pos) for m in ref.moves] == raw["moves"]


def test_symmetries_map_the_pyramid_onto_itself():
    """Each of the 8 maps keeps levels and turns side neighbours into side neighbours."""
    maps = fast.symmetries()
    assert len({tuple(m) for m in maps}) == 8
    for m in maps:
        assert sorted(m) == list(range(144))
        for p in range(144):
            assert POSITIONS[m[p]].level == POSITIONS[p].level
            assert sorted(m[q] for q in SIDES[p]) == sorted(SIDES[m[p]])
            assert (BELOW[p] is None and BELOW[m[p]] is None) or m[BELOW[p]] == BELOW[m[p]]


def test_symmetric_deals_have_symmetric_verdicts():
    """Mirroring a winning line gives a legal winning line on the same deal."""
    maps = fast.symmetries()
    deal = deal_from_seed(42)
    raw = fast.solve_kinds(deal_kinds(deal))
    for m in maps[1:]:
        engine = fast.Engine(deal_kinds(deal))
        for kind, pos in raw["moves"]:
            engine.make(kind, m[pos])
        assert engine.is_won()


@pytest.mark.parametrize("variant", VARIANTS)
def test_longest_line_bound_agrees_on_random_positions(variant):
    """The longest-line search's bound (the relaxation asked for a number of
    tiles) against its pure-Python twin, for targets around the deal's depth."""
    rnd = random.Random(13)
    answers = set()
    for seed, state, engine, _ in _random_walks(variant, range(1, 41), rnd, until_placed=30):
        if state.placed:
            for target in {state.placed + 1, state.placed + 2, state.placed + 5, state.placed + 20, 144}:
                fast_answer = engine.can_reach_relaxed(min(target, 144))
                assert fast_answer == can_reach_relaxed(state, min(target, 144)), (seed, state.placed, target)
                answers.add(fast_answer)
            assert engine.can_reach_relaxed(144) == engine.can_finish_relaxed()
    assert answers == {True, False}
