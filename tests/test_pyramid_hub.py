"""The hub lemma (solver/pyramid/hub.py): lost only where the searches find the deal lost,
its steps against brute force, and the analysis settling the deals it proves."""
import json
import random

import pytest

from solver.cext import pyramid as fast
from solver.game import Limits
from solver.pyramid.chunked import thoughtful_rows
from solver.pyramid.contract import solve_deal
from solver.pyramid.deal import deal_from_seed
from solver.pyramid.geometry import BELOW, POSITIONS, SIDES
from solver.pyramid.hub import proves_lost
from solver.pyramid.rules import FIT
from solver.pyramid.search import VARIANT_CODES, deal_kinds, solve
from solver.pyramid.tiles import kind_rank, parse_tile

VARIANTS = ("continuous", "wild-dragons")
# Neither search decides these in a minute of CPU (docs/pyramid.md); the lemma does.
PROVED = [("continuous", 594292), ("continuous", 642338), ("wild-dragons", 594292), ("wild-dragons", 642338)]


@pytest.mark.parametrize("variant,seed", PROVED)
def test_the_lemma_proves_the_deals_the_searches_drown_in(variant, seed):
    why = proves_lost(deal_from_seed(seed), variant=variant)
    assert why is not None and "fit only" in why and "7 even ranks" in why


@pytest.mark.parametrize("variant", VARIANTS)
def test_where_the_lemma_speaks_the_search_finds_the_deal_lost(variant):
    """Seeds 1-3,000: every deal the lemma proves lost is lost for the exact search, and
    every won deal is left alone (over seeds 1-1,000,000 against the stored verdicts:
    docs/pyramid.md)."""
    spoke, hubs = 0, 0
    for seed in range(1, 3001):
        why = proves_lost(deal_from_seed(seed), variant=variant)
        if why is None:
            continue
        spoke += 1
        hubs += "fit only" in why
        r = solve(deal_from_seed(seed), variant=variant, node_limit=2_000_000, time_limit=None, longest=False)
        assert r.verdict == "lost", (seed, r.verdict, why)
    assert spoke > 50 and (hubs > 0 or variant == "wild-dragons")


@pytest.mark.parametrize("variant,seed", [("continuous", 2935), ("continuous", 8491), ("continuous", 33036)])
def test_plain_exhaustive_search_agrees_where_the_hub_decides(variant, seed):
    """Deals the lemma proves by its hub step (5 or 7 tiles that fit one tile only):
    plain search with no cut at all finds them lost."""
    why = proves_lost(deal_from_seed(seed), variant=variant)
    assert why is not None and "fit only" in why
    plain = fast.solve_kinds(deal_kinds(deal_from_seed(seed)), variant=VARIANT_CODES[variant], cuts=False,
                             first_round=0, longest_budget=0, node_limit=5_000_000)
    assert plain["verdict"] == "lost"


# -- step 3 against brute force and the geometry ---------------------------------------
def _diamond(p):
    """The level-1 squares that must be filled before all four level-2 sides of ``p`` open."""
    need = set()
    for s in SIDES[p]:
        b = BELOW[s]
        need |= {b, *SIDES[b]}
    return need


def test_four_open_sides_on_level_2_need_the_diamond_of_13_squares_9_and_4():
    whole = [p for p in range(len(POSITIONS)) if POSITIONS[p].level == 2 and len(SIDES[p]) == 4]
    assert whole
    for p in whole:
        squares = _diamond(p)
        assert len(squares) == 13 and all(POSITIONS[q].level == 1 for q in squares)
        colours = sorted(sum((POSITIONS[q].file + POSITIONS[q].rank) % 2 == c for q in squares) for c in (0, 1))
        assert colours == [4, 9]


def _buildable(kinds, cells, fit, budget=20_000):
    """Can the tiles ``kinds`` fill the squares ``cells``, each (but the first) set beside a
    tile it fits?  (Any order, any first square: looser than the game.)  None past ``budget``."""
    seen, count = set(), [0]

    def go(filled, rest):
        if not rest:
            return True
        key = (frozenset(filled.items()), rest)
        if key in seen:
            return False
        count[0] += 1
        if count[0] > budget:
            raise TimeoutError
        for cell in cells:
            if cell in filled:
                continue
            near = [filled[(cell[0] + dx, cell[1] + dy)] for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if (cell[0] + dx, cell[1] + dy) in filled]
            if filled and not near:
                continue
            for k in sorted(set(rest)):
                if not filled or any(fit[k][u] for u in near):
                    left = list(rest)
                    left.remove(k)
                    if go({**filled, cell: k}, tuple(left)):
                        return True
        seen.add(key)
        return False

    try:
        return go({}, tuple(sorted(kinds)))
    except TimeoutError:
        return None


def _grown(cells, pool, fit, rnd):
    """Tiles for a filling grown at random, each beside a tile it fits (when one fits)."""
    filled = {cells[0]: rnd.choice(pool)}
    while len(filled) < len(cells):
        cell = rnd.choice([c for c in cells if c not in filled and any(
            (c[0] + dx, c[1] + dy) in filled for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))])
        near = [filled[(cell[0] + dx, cell[1] + dy)] for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if (cell[0] + dx, cell[1] + dy) in filled]
        filled[cell] = rnd.choice([k for k in pool if any(fit[k][u] for u in near)] or pool)
    return list(filled.values())


SHAPES = {"plus": [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)],
          "square": [(x, y) for x in range(3) for y in range(3)]}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_tiles_joined_by_fits_put_the_even_ranks_on_one_colour(shape):
    """The lemma's step 3 (no dragon; not both a wind and a season), by brute force on
    small shapes: a shape filled tile by tile, each beside a tile it fits, has as many
    even ranks as the squares of one of its colours."""
    cells = SHAPES[shape]
    sizes = {sum((x + y) % 2 == c for x, y in cells) for c in (0, 1)}
    rnd = random.Random(3)
    pool = [parse_tile(t).kind for t in "3B 4B 5B 3C 4C 5C 6C 4D 5D 6D 1B 2C EW".split()]
    built = refused = 0
    for variant in VARIANTS:
        fit = FIT[variant]
        for i in range(40):
            kinds = [rnd.choice(pool) for _ in cells] if i % 2 else _grown(cells, pool, fit, rnd)
            ok = _buildable(kinds, cells, fit)
            even = sum(kind_rank(k) % 2 == 0 for k in kinds)
            if ok:
                built += 1
                assert even in sizes, kinds
            elif ok is False and even not in sizes:
                refused += 1
    assert built > 3 and refused > 3


# -- the analysis: a deal reaching the tail is settled by the lemma ------------------------
def test_the_analysis_settles_a_hub_deal_and_both_paths_store_the_same_row():
    limits = Limits(node_limit=100_000, time_limit=60, table_mb=64)
    answer = solve_deal(deal_from_seed(594292), variant="continuous", limits=limits)
    assert (answer.verdict, answer.limit) == ("lost", None) and answer.fields["search_seconds"] < 10
    (row,) = thoughtful_rows([594292], variant="continuous", limits=limits)
    assert row[1:4] == [answer.verdict, answer.limit, answer.nodes]
    stored, fields = json.loads(row[5]), dict(answer.fields)
    stored.pop("search_seconds"), fields.pop("search_seconds")
    assert stored == fields
