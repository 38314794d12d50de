"""The compiled row (solver.cext.continuum) against the reference (solver.continuum)."""
import pytest

from solver.cext import continuum as C
from solver.continuum.codec import code_move, key_row, move_code, row_key
from solver.continuum.pieces import PLAYER_COLOURS, own_pyramids
from solver.continuum.puzzle import bound, reference_solve
from solver.continuum.rules import apply, is_won, legal_moves, start_row, successors
from solver.continuum.search import mask, solve_puzzle
from solver.rng import SplitMix64

ALL = frozenset(range(12))


def random_rows(seed, count, *, movable=ALL, kings=True, start=None):
    """Rows reached by seeded random play (any pyramid may move)."""
    rng = SplitMix64(seed)
    row = start or start_row()
    out = []
    for _ in range(count):
        moves = legal_moves(row, movable, kings=kings)
        move, _ = moves[rng.below(len(moves))]
        row = apply(row, move)
        out.append(row)
    return out


def test_key_round_trip_and_matches_compiled_encoding():
    for row in random_rows(1, 3000):
        key = row_key(row)
        assert key_row(key) == row
        assert C.encode_stacks(*row.sides) == key
        assert C.decode_key(key) == row.sides


@pytest.mark.parametrize("seed", [2, 3])
@pytest.mark.parametrize("kings", [False, True])
def test_successors_match_reference_in_order(seed, kings):
    for row in random_rows(seed, 1500):
        for movable in (ALL, own_pyramids("A"), own_pyramids("B")):
            ref = [(row_key(r2), c, move_code(m)) for m, c, r2 in successors(row, movable, kings=kings)]
            assert C.successors(row_key(row), mask(movable), kings) == ref


def test_codes_round_trip():
    for row in random_rows(4, 300):
        for m, _ in legal_moves(row, ALL, kings=True):
            assert code_move(move_code(m)) == m


def test_goal_and_bound_match_reference():
    for row in random_rows(5, 3000):
        key = row_key(row)
        for player in "AB":
            assert C.goal(key, mask(PLAYER_COLOURS[player])) == is_won(row, player)
            for mode in (0, 1, 2):
                assert C.bound(key, mask(own_pyramids(player)), mode) == bound(row, player, mode)


def won_row(player):
    """Both of the player's trees home; the opponent's trees where they start."""
    if player == "A":
        from solver.continuum.notation import parse_row
        return parse_row("yL yM yS | bL bM bS || rL rM rS | gL gM gS")
    from solver.continuum.notation import parse_row
    return parse_row("rL rM rS | gL gM gS || bL bM bS | yL yM yS")


@pytest.mark.parametrize("player", ["A", "B"])
@pytest.mark.parametrize("cost", ["pips", "moves"])
@pytest.mark.parametrize("kings", [False, True])
def test_search_matches_reference_near_the_goal(player, cost, kings):
    own = own_pyramids(player)
    rng = SplitMix64(77)
    compared = 0
    for trial in range(8):
        rows = random_rows(100 + trial, 2 + rng.below(5), movable=own, kings=kings,
                           start=won_row(player))
        row = rows[-1]
        try:
            ref = reference_solve(row, player=player, cost=cost, kings=kings, max_nodes=3_000)
        except RuntimeError:
            continue        # too far for the pure-Python twin in a quick test
        compared += 1
        fast = solve_puzzle(row, player=player, cost=cost, kings=kings)
        if ref is None:
            assert fast.verdict == "impossible"
            continue
        assert fast.verdict == "solved"
        assert (fast.pips, fast.moves) == ref[:2]
        # the compiled plan replays legally to a won row, with the reported totals
        r, pips = row, 0
        for m in fast.plan:
            legal = dict(legal_moves(r, own, kings=kings))
            assert m in legal
            pips += legal[m]
            r = apply(r, m)
        assert is_won(r, player) and pips == fast.pips and len(fast.plan) == fast.moves
    assert compared >= 4


# ----------------------------------------------------------- the full game's cards

from solver.continuum.options import MASK, card_options, reference_card_options  # noqa: E402
from solver.continuum.policy import entangled  # noqa: E402


def _opts(options):
    return [(o.key, o.opp, o.codes, o.value) for o in options]


@pytest.mark.parametrize("seed", [11, 12])
def test_card_options_match_reference_in_order(seed):
    """Compiled card enumeration against the Row-based twin on random rows."""
    rng = SplitMix64(seed)
    cards = ["As", "2h", "3d", "Kc", "Js"]
    compared = 0
    for row in random_rows(seed, 400, kings=False)[::2]:
        player = "AB"[rng.below(2)]
        card = cards[rng.below(len(cards))]
        theirs = [p for p in range(12) if p not in own_pyramids(player)]
        used, bal = rng.below(12), bool(rng.below(2))      # 6..11: none moved yet
        used = theirs[used] if used < 6 else -1
        fast = card_options(row_key(row), player, card, opp=used, need_balance=bal)
        ref = reference_card_options(row, player, card, opp=used, need_balance=bal)
        assert _opts(fast) == _opts(ref), (row.text(), player, card, used, bal)
        compared += len(ref)
    assert compared > 300


def test_card_options_five_pips_match_reference():
    for row in random_rows(13, 60, kings=False)[::3]:
        for player in "AB":
            fast = card_options(row_key(row), player, "5c", need_balance=False)
            ref = reference_card_options(row, player, "5c", need_balance=False)
            assert _opts(fast) == _opts(ref)
            for o in ref:       # each option replays legally and spends exactly 5 pips
                r, pips = row, 0
                for m in o.moves:
                    legal = dict(legal_moves(r, ALL))
                    pips += legal[m]
                    r = apply(r, m)
                assert pips == 5 and row_key(r) == o.key


def test_bound_with_movable_masks_matches_reference():
    for row in random_rows(14, 1500):
        key = row_key(row)
        for player in "AB":
            for movable in (ALL, frozenset(p for p in range(12) if (entangled(key, player) >> p) & 1)):
                assert C.bound(key, MASK[player], 0, mask(movable)) == bound(row, player, 0, movable)


@pytest.mark.parametrize("player", ["A", "B"])
def test_bound_is_admissible_and_max_step_matches_reference(player):
    """The bound never exceeds the exact remaining pips (found by the
    reference Dijkstra-like search with the same bound), with and without the
    game's 5-pip step limit; weighted A* stays within its factor."""
    own = own_pyramids(player)
    checked = 0
    for trial in range(10):
        row = random_rows(200 + trial, 3 + trial % 4, movable=own, kings=False, start=won_row(player))[-1]
        for step in (6, 5):
            try:
                ref = reference_solve(row, player=player, cost="pips", max_nodes=3_000, max_step=step)
            except RuntimeError:
                continue
            fast = solve_puzzle(row, player=player, max_step=step)
            if ref is None:
                assert fast.verdict == "impossible"
                continue
            checked += 1
            assert (fast.pips, fast.moves) == ref[:2]
            assert bound(row, player, 0) <= ref[0]
            status, _, pips, _, _, _, _ = C.astar(row_key(row), mask(own), mask(PLAYER_COLOURS[player]),
                                                0, False, False, 100_000, 100_000, step, None, 2)
            assert status == "found" and ref[0] <= pips <= 2 * ref[0]
    assert checked >= 6
