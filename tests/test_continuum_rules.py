"""Movement rules and notation of the reference engine."""
import pytest
from hypothesis import given, settings, strategies as st

from solver.continuum.notation import format_move, format_row, parse_move, parse_row
from solver.continuum.pieces import own_pyramids
from solver.continuum.rules import apply, is_won, legal_moves, start_row, three_per_side
from solver.errors import InputError

ALL = frozenset(range(12))


def texts(row, movable=ALL, kings=False):
    return {format_move(m): c for m, c in legal_moves(row, movable, kings=kings)}


def test_start_row_and_round_trip():
    row = start_row()
    assert format_row(row) == "rL rM rS | bL bM bS || yL yM yS | gL gM gS"
    assert parse_row(format_row(row)) == row
    assert three_per_side(row, "A") and three_per_side(row, "B")
    assert not is_won(row, "A") and not is_won(row, "B")


def test_no_new_stack_at_the_border_but_at_the_outer_end():
    moves = texts(start_row())
    assert "bS>_" not in moves and "yS<_" not in moves      # continuum end
    assert "rS<_" in moves and "gS>_" in moves              # outer ends
    assert moves["rS>_"] == 1 and moves["bS<_"] == 1        # into the gap between two stacks


def test_single_cannot_form_a_new_stack_and_gap_closes():
    row = parse_row("rL | rM rS | bL bM bS || yL yM yS | gL gM gS")
    moves = texts(row)
    assert "rL<_" not in moves and "rL>_" not in moves
    after = apply(row, parse_move("rL>"))
    assert format_row(after) == "rM rS rL | bL bM bS || yL yM yS | gL gM gS"


def test_switch_costs_both_values_and_is_the_only_crossing():
    moves = texts(start_row())
    assert moves["bS x yS"] == 2
    row = parse_row("rL rM | bL bM bS rS || yL yM yS | gL gM gS")
    after = apply(row, parse_move("rS x yS"))
    assert format_row(after) == "rL rM | bL bM bS yS || yL yM rS | gL gM gS"


def test_kings_switch_neighbouring_singles_for_free():
    row = parse_row("rL | rM | rS || yS | bL bM bS | yL yM | gL gM gS")
    moves = texts(row, kings=True)
    assert moves["rL k rM"] == 0 and moves["rS k yS"] == 0
    assert "yS k bL" not in moves                          # bL is not single
    assert "rS k yS" not in texts(row, kings=False)


def test_opponent_pyramids_stand_still_in_the_puzzle():
    moves = texts(start_row(), own_pyramids("A"))
    assert all(m[:1] in "ry" for m in moves)
    assert "bS x yS" not in moves


@pytest.mark.parametrize("bad, word", [
    ("rL rM rS | bL bM bS | yL yM yS | gL gM gS", "continuum"),
    ("rL rM rS | bL bM bS || yL yM yS || gL gM gS", "continuum"),
    ("rL rM rX | bL bM bS || yL yM yS | gL gM gS", "no such pyramid"),
    ("rL rM rS | bL bM bS || yL yM yS | gL gM rS", "more than once"),
    ("rL rM rS | bL bM || yL yM yS | gL gM gS", "lacks bS"),
    ("rL rM rS | | bL bM bS || yL yM yS | gL gM gS", "empty stack"),
    ("", "empty"),
])
def test_bad_rows_name_the_problem(bad, word):
    with pytest.raises(InputError, match=word):
        parse_row(bad)


@pytest.mark.parametrize("bad", ["rS", "rS>>", "rS x rS", "qS>", "rS y yS"])
def test_bad_moves(bad):
    with pytest.raises(InputError):
        parse_move(bad)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 10**6), min_size=1, max_size=40))
def test_random_play_keeps_notation_round_trip_and_all_pyramids(choices):
    row = start_row()
    for c in choices:
        moves = legal_moves(row, ALL, kings=True)
        move, _ = moves[c % len(moves)]
        row = apply(row, move)
        assert parse_row(format_row(row)) == row
        assert parse_move(format_move(move)) == move
        assert sorted(p for side in row.sides for s in side for p in s) == list(range(12))
        assert row.west and row.east
