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
from solver.pyramid import hub
from solver.pyramid.geometry import ABOVE, BELOW, POSITIONS, SIDES
from solver.pyramid.hub import ALL_FIVE, ONE_FIVE, proves_lost
from solver.pyramid.rules import FIT
from solver.pyramid.search import VARIANT_CODES, deal_kinds, solve
from solver.pyramid.tiles import KIND_DRAGON, kind_rank, parse_tile

VARIANTS = ("continuous", "wild-dragons")
# Neither search decides these in a minute of CPU (docs/pyramid.md); the lemma does.
PROVED = [("continuous", 594292), ("continuous", 642338), ("wild-dragons", 594292), ("wild-dragons", 642338)]


@pytest.mark.parametrize("variant,seed", PROVED)
def test_the_lemma_proves_the_deals_the_searches_drown_in(variant, seed):
    why = proves_lost(deal_from_seed(seed), variant=variant)
    assert why is not None and "fit only" in why and "7 even ranks" in why


# Left unknown by both searches in 60 s of CPU; step 4 (anchors) proves them.
ANCHORED = [("continuous", 936952), ("wild-dragons", 125873), ("wild-dragons", 695813), ("wild-dragons", 777920)]


@pytest.mark.parametrize("variant,seed", ANCHORED)
def test_steps_4_and_5_prove_the_deals_with_an_early_dragon(variant, seed):
    why = proves_lost(deal_from_seed(seed), variant=variant)
    assert why is not None and "can stand" in why
    # With the first tile AU, 9B alone joins the 5 other seasons and the rest: 6 parts.
    assert ("6 parts that reach the first tile only through 9B" in why) == (seed == 695813)


@pytest.mark.parametrize("variant", VARIANTS)
def test_where_the_lemma_speaks_the_search_finds_the_deal_lost(variant):
    """Seeds 1-3,000: every deal the lemma proves lost is lost for the exact search, and
    every won deal is left alone (over seeds 1-1,000,000 against the stored verdicts:
    docs/pyramid.md)."""
    spoke, hubs, anchors = 0, 0, 0
    for seed in range(1, 3001):
        why = proves_lost(deal_from_seed(seed), variant=variant)
        if why is None:
            continue
        spoke += 1
        hubs += "fit only" in why
        anchors += "can stand" in why
        r = solve(deal_from_seed(seed), variant=variant, node_limit=2_000_000, time_limit=None, longest=False)
        assert r.verdict == "lost", (seed, r.verdict, why)
    assert spoke > 50 and (hubs > 0 or variant == "wild-dragons") and anchors > 0


@pytest.mark.parametrize("variant,seed", [("continuous", 2935), ("continuous", 8491), ("continuous", 33036)])
def test_plain_exhaustive_search_agrees_where_the_hub_decides(variant, seed, monkeypatch):
    """Deals the lemma proves by its hub step (5 or 7 tiles that fit one tile only; step 4
    off, which proves 33036 earlier): plain search with no cut at all finds them lost."""
    monkeypatch.setattr(hub, "ANCHOR_UP_TO", 0)
    why = proves_lost(deal_from_seed(seed), variant=variant)
    assert why is not None and "fit only" in why
    plain = fast.solve_kinds(deal_kinds(deal_from_seed(seed)), variant=VARIANT_CODES[variant], cuts=False,
                             first_round=0, longest_budget=0, node_limit=5_000_000)
    assert plain["verdict"] == "lost"


@pytest.mark.parametrize("variant,seed", [("continuous", 33036)])
def test_plain_exhaustive_search_agrees_where_the_anchors_decide(variant, seed):
    """Step 4 proves 33036 lost at 7 tiles placed: plain search with no cut finds it lost."""
    why = proves_lost(deal_from_seed(seed), variant=variant)
    assert why is not None and "can stand" in why and "fit only" not in why
    plain = fast.solve_kinds(deal_kinds(deal_from_seed(seed)), variant=VARIANT_CODES[variant], cuts=False,
                             first_round=0, longest_budget=0, node_limit=5_000_000)
    assert plain["verdict"] == "lost"


# -- step 4: the anchors' capacities from the geometry, the matching against brute force --
def _support(p):
    """The positions filled whenever ``p`` is: ``p``, and for a position above level 1 the
    tile below and that tile's four sides (which open it), recursively."""
    need, todo = set(), [p]
    while todo:
        q = todo.pop()
        if q in need:
            continue
        need.add(q)
        if BELOW[q] is not None:
            todo += [BELOW[q], *SIDES[BELOW[q]]]
    return need


def test_a_tile_that_anchors_five_needs_19_tiles_on_the_board_and_two_need_25():
    """A tile but the first anchors 5 only on its 4 sides and its top, all empty when it
    went down: so it is above level 1, and two of them are not side by side."""
    hubs = [p for p in range(len(POSITIONS))
            if POSITIONS[p].level >= 2 and len(SIDES[p]) == 4 and ABOVE[p] is not None]
    board = {p: set().union(*(_support(q) for q in (p, ABOVE[p], *SIDES[p]))) for p in hubs}
    assert hubs and min(len(b) for b in board.values()) == ONE_FIVE
    pairs = [len(board[p] | board[q]) for p in hubs for q in hubs if p < q and q not in SIDES[p]]
    assert min(pairs) >= ALL_FIVE
    assert all(len(SIDES[p]) <= 4 for p in range(len(POSITIONS)) if POSITIONS[p].level == 1)


def _largest_tree(kinds, first, fit, cap):
    """The most tiles of ``kinds`` set down one at a time from tile ``first``, each against
    an earlier one it fits with room left (``cap``, the first 5): brute force."""
    best, seen = [1], set()

    def grow(loads):
        key = tuple(sorted(loads.items()))
        if key in seen:
            return
        seen.add(key)
        best[0] = max(best[0], len(loads))
        for t in range(len(kinds)):
            if t in loads:
                continue
            for a, load in loads.items():
                room = 5 if a == first else cap
                if load < room and (KIND_DRAGON in (kinds[t], kinds[a]) or fit[kinds[t]][kinds[a]]):
                    grow({**loads, a: load + 1, t: 0})
    grow({first: 0})
    return best[0]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_anchor_matching_bounds_every_tree_of_anchors(variant):
    """1 + the maximum matching is never below the largest tree (it is a relaxation), and
    is below the tiles given on some draws (the step can speak)."""
    rnd, fit = random.Random(5), FIT[variant]
    pool = [parse_tile(t).kind for t in "1B 2C 3B 3D 5C 6B 9D SP EW RD".split()]
    tight = 0
    for _ in range(60):
        kinds = [rnd.choice(pool) for _ in range(rnd.randint(5, 9))]
        for cap in (1, 2, 4):
            tree = _largest_tree(kinds, 0, fit, cap)
            bound = 1 + hub._Anchors(kinds, 0, fit, cap).matched(list(range(len(kinds))))
            assert bound >= tree, (kinds, cap)
            tight += bound < len(kinds)
    assert tight > 10


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_cut_that_proves_too_few_is_never_beaten_by_a_tree(variant):
    """Step 5 against brute force: where it says ``placed`` of the tiles cannot stand
    (4 a tile, 5 the first), no tree of anchors holds that many; and it does speak."""
    rnd, fit = random.Random(7), FIT[variant]
    pool = [parse_tile(t).kind for t in "1B 2C 3B 3D 9B 9D SP AU EW 8C".split()]
    spoke = 0
    for _ in range(300):
        kinds = [rnd.choice(pool) for _ in range(rnd.randint(6, 10))]
        tiles = list(range(len(kinds)))
        tree = _largest_tree(kinds, 0, fit, hub.LEVEL1_CHILDREN)
        for slack in range(3):
            if hub._cut(kinds, tiles, 0, fit, len(kinds) - slack) is not None:
                spoke += 1
                assert tree < len(kinds) - slack, (kinds, slack)
    assert spoke > 10


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
