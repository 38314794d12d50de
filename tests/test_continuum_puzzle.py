"""The exchange puzzle: exact minimum, plans that replay, honest limits."""
import pytest

from solver.continuum.notation import parse_row
from solver.continuum.pieces import own_pyramids
from solver.continuum.rules import apply, is_won, legal_moves, start_row
from solver.continuum.search import solve_puzzle
from solver.errors import InputError
from solver.game import Limits


def replay(row, res, *, kings=False):
    own = own_pyramids(res.player)
    pips = 0
    for m in res.plan:
        legal = dict(legal_moves(row, own, kings=kings))
        assert m in legal, m.text()
        pips += legal[m]
        row = apply(row, m)
    return row, pips


@pytest.mark.parametrize("player", ["A", "B"])
def test_start_minimum_both_costs(player):
    by_pips = solve_puzzle(start_row(), player=player, cost="pips")
    by_moves = solve_puzzle(start_row(), player=player, cost="moves")
    assert by_pips.verdict == by_moves.verdict == "solved"
    # the minimum pips plan cannot use fewer pips than the minimum moves plan, and vice versa
    assert by_pips.pips <= by_moves.pips and by_moves.moves <= by_pips.moves
    for res in (by_pips, by_moves):
        end, pips = replay(start_row(), res)
        assert is_won(end, player) and pips == res.pips and len(res.plan) == res.moves
    # six pyramids must cross, each switch carries one each way: at least 6 switches
    assert by_moves.moves >= 6 and by_pips.pips >= 2 * (1 + 2 + 3)
    assert (by_pips.pips, by_moves.moves) == (30, 13)


def test_players_are_mirror_images():
    a = solve_puzzle(start_row(), player="A")
    b = solve_puzzle(start_row(), player="B")
    assert (a.pips, a.moves) == (b.pips, b.moves)


def test_kings_never_cost_more():
    plain = solve_puzzle(start_row(), player="A")
    kings = solve_puzzle(start_row(), player="A", kings=True)
    assert kings.verdict == "solved" and kings.pips <= plain.pips
    end, pips = replay(start_row(), kings, kings=True)
    assert is_won(end, "A") and pips == kings.pips


def test_already_won_costs_nothing():
    row = parse_row("yL yM yS | bL bM bS || rL rM rS | gL gM gS")
    res = solve_puzzle(row, player="A")
    assert (res.verdict, res.pips, res.moves, res.plan) == ("solved", 0, 0, [])
    assert res.to_result().verdict == "won"


@pytest.mark.parametrize("limits, name", [(Limits(node_limit=50), "nodes"), (Limits(node_limit=1000), "nodes"),
                                          (Limits(table_mb=0.01), "memory")])
def test_limits_give_unknown_never_a_negative(limits, name):
    res = solve_puzzle(start_row(), player="A", limits=limits)
    assert res.verdict == "unknown" and res.limit == name
    assert res.pips is None and res.plan == []
    assert res.to_result().to_dict()["verdict"] == "unknown"
    if name == "nodes":
        assert res.nodes == limits.node_limit


def test_the_time_limit_is_honoured():
    """The kernel has no clock: the driver runs it in rounds and reads the
    clock between them.  The moves-cost search needs ~50,000 expansions."""
    res = solve_puzzle(start_row(), player="A", cost="moves", limits=Limits(time_limit=0.001))
    assert (res.verdict, res.limit) == ("unknown", "time") and res.seconds < 0.5
    full = solve_puzzle(start_row(), player="A", cost="moves", limits=Limits(time_limit=60))
    assert (full.verdict, full.pips, full.moves) == ("solved", 30, 13)
    assert full.nodes == solve_puzzle(start_row(), player="A", cost="moves").nodes


def test_unbalanced_row_is_rejected():
    row = parse_row("rL rM rS | bL bM bS | yS || yL yM | gL gM gS")
    with pytest.raises(InputError, match="3 pyramids on each side"):
        solve_puzzle(row, player="A")
    assert solve_puzzle(row, player="B").verdict == "solved"
