"""The square bound (solver/pyramid/squares.py, cext/pyramid_squares.pxi): the
compiled flow against its pure-Python twin, and its soundness: it never cuts a
position on a won line, nor one that plain search without cuts wins."""
import random

import pytest

from solver.cext import pyramid as fast
from solver.pyramid.deal import deal_from_seed
from solver.pyramid.geometry import position_index
from solver.pyramid.rules import FIT
from solver.pyramid.search import VARIANT_CODES, deal_kinds, solve
from solver.pyramid.squares import fifth_need, squares_short

VARIANTS = ("continuous", "wild-dragons")
HARD = [764002, 497452, 559633, 709556, 721034]     # the deals it was made for (docs/pyramid.md)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_compiled_bound_equals_its_twin(variant, pyramid_random_lines):
    cut = kept = 0
    for state, engine in pyramid_random_lines(variant, HARD + list(range(1, 6))):
        short = engine.squares_short()
        assert short == squares_short(state), (state.placed,)
        assert short == 0 or state.placed < short <= state.placed + 32
        cut += short != 0
        kept += short == 0
    assert cut > 0 and kept > 0


def test_a_fifth_needs_a_diamond_filled_under_four_empty_sides_over_a_tile_it_fits():
    fit = FIT["continuous"]
    one_b, two_c, two_b = 0, 10, 1                  # 2C fits 1B, 2B does not
    board = [None] * 144
    board[position_index("1e5")] = one_b
    need = fifth_need(board, fit)
    assert need[two_c] == 12 + 1 + 5                # over 1e5: 12 of its diamond empty, the tile, its five
    for name in ("1d5", "1f5", "1e4", "1e6", "1c5", "1g5", "1e3", "1e7", "1d4", "1d6", "1f4", "1f6"):
        board[position_index(name)] = one_b
    need = fifth_need(board, fit)
    assert need[two_c] == 6                         # the diamond full: the tile and its five
    assert need[two_b] > 6                          # 2B does not fit the 1B under 2e5 (nor under the others)
    board[position_index("2e4")] = one_b            # a side of 2e5 filled: 2e5 cannot hold five
    assert fifth_need(board, fit)[two_c] > 6


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_bound_never_cuts_a_position_on_a_won_line(variant):
    won = 0
    for seed in range(1, 301):
        kinds = deal_kinds(deal_from_seed(seed))
        r = fast.solve_kinds(kinds, variant=VARIANT_CODES[variant], node_limit=200_000, longest_budget=0)
        if r["verdict"] != "won":
            continue
        won += 1
        engine = fast.Engine(kinds, variant=VARIANT_CODES[variant])
        for kind, pos in r["moves"][:-1]:
            engine.make(kind, pos)
            assert engine.squares_short(144) == 0, (seed, engine.placed)
    assert won > 200


@pytest.mark.parametrize("variant", VARIANTS)
def test_where_the_bound_cuts_plain_search_finds_no_win(variant):
    """Plain search without any cut, from positions the bound cuts, late enough
    that it finishes; and from the positions before them, which it may win."""
    checked = 0
    for seed in range(1, 61):
        rnd = random.Random(seed)
        kinds = deal_kinds(deal_from_seed(seed))
        engine = fast.Engine(kinds, variant=VARIANT_CODES[variant])
        line = []
        while not engine.is_stuck() and engine.placed < 144:
            move = rnd.choice(engine.legal_moves())
            engine.make(*move)
            line.append(move)
            if engine.placed >= 100 and engine.squares_short(144):
                r = fast.solve_kinds(kinds, variant=VARIANT_CODES[variant], node_limit=300_000, cuts=False,
                                     longest_budget=0, prefix=line, first_round=0)
                assert r["verdict"] != "won", (seed, len(line))
                checked += r["verdict"] == "lost"
                break
    assert checked > 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_tail_search_gives_the_same_verdicts_with_and_without_the_bound(variant):
    old = fast.use_square_bound(True)
    try:
        for seed in range(1, 41):
            deal = deal_from_seed(seed)
            with_bound = solve(deal, variant=variant, node_limit=2_000_000, tail=True, longest=False)
            fast.use_square_bound(False)
            without = solve(deal, variant=variant, node_limit=2_000_000, tail=True, longest=False)
            fast.use_square_bound(True)
            assert with_bound.verdict == without.verdict != "unknown", seed
    finally:
        fast.use_square_bound(old)


def test_the_bound_is_asked_only_near_the_root():
    """``SQUARES_UPTO`` (12 placed) reaches the tail search: on Wild Dragons 28600
    the bound at every node cuts more nodes than near the root only, and both win."""
    deal = deal_from_seed(28600)
    old = fast.square_bound_upto(1000)
    try:
        assert old == 12
        everywhere = solve(deal, variant="wild-dragons", node_limit=2_000_000, tail=True, longest=False)
        fast.square_bound_upto(12)
        near_root = solve(deal, variant="wild-dragons", node_limit=2_000_000, tail=True, longest=False)
    finally:
        fast.square_bound_upto(old)
    assert everywhere.verdict == near_root.verdict == "won"
    assert everywhere.nodes < near_root.nodes
