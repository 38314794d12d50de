"""The attacker's last two moves (``OPT_FINISH2``): the kernel's ``_finish2`` against its
pure-Python twin (:func:`solver.boundary.threats.finish2`, every move played with the
reference rules), its wins against the search without it, and the search with it against
the search without.
"""
import functools

import pytest

from solver.boundary import threats
from solver.boundary.bound import exchange_bound
from solver.boundary.endgames import endgame
from solver.boundary.notation import format_position
from solver.cext.boundary import DEFAULT_OPTS, OPTIONS, Board, finish2

FINISH2 = OPTIONS["finish2"]


@functools.lru_cache(maxsize=None)
def _two_short(first, last):
    """Positions of seeded endgames and their children and grandchildren where the side to
    move is two moves from its exchange and the other side at least two (where it applies)."""
    out = []
    for seed in range(first, last):
        pos = endgame(seed)
        layer = [pos]
        for _ in range(2):
            layer = [c for p in layer if p.winner() is None for c in [p.play(m) for m in p.legal_moves()[::13]]]
            for cand in [pos] + layer:
                if (cand.winner() is None and exchange_bound(cand, cand.side) == 2
                        and exchange_bound(cand, 1 - cand.side) >= 2 and cand.legal_moves()):
                    out.append(cand)
    return list({format_position(p): p for p in out}.values())


def _check(positions, search_every):
    """Kernel against twin on every position; each ``search_every``-th one also against the
    search without the option at depth 3.  Returns (positions, wins, searched)."""
    wins = searched = 0
    for i, pos in enumerate(positions):
        board = Board.from_position(pos)
        plies, move = finish2(board)
        twin = threats.finish2(pos)
        assert (plies == 0) == (not twin), format_position(pos)
        if plies:
            wins += 1
            assert twin[move] == plies, (format_position(pos), move)
            assert move == next(m for m in board.legal_moves() if m in twin)   # the first
        if i % search_every == 0:
            out = board.search(max_depth=3, opts=DEFAULT_OPTS & ~FINISH2)
            assert (out["result"] == "win") == bool(plies), format_position(pos)
            searched += 1
    return len(positions), wins, searched


def test_finish2_matches_the_twin_and_the_search():
    n, wins, searched = _check(_two_short(0, 15), 4)
    assert n >= 60 and wins >= 20 and n - wins >= 20 and searched >= 15


@pytest.mark.slow
def test_finish2_matches_the_twin_and_the_search_many():
    n, wins, searched = _check(_two_short(15, 120), 2)
    assert n >= 300 and wins >= 40


def test_finish2_does_not_apply_elsewhere():
    for pos in _two_short(0, 15):
        other = pos.clone()
        other.side = 1 - pos.side
        if exchange_bound(other, other.side) != 2 or exchange_bound(other, pos.side) < 2:
            assert finish2(Board.from_position(other)) == (None, None)


def test_the_search_with_finish2_keeps_the_answers(boundary_cut_keeps_answers):
    compared, decisive, cuts = boundary_cut_keeps_answers(FINISH2, ("finish2_nodes",), range(80), 7, 300_000)
    assert compared >= 40 and decisive >= 15 and cuts > 0


@pytest.mark.slow
def test_the_search_with_finish2_keeps_the_answers_deeper(boundary_cut_keeps_answers):
    compared, decisive, cuts = boundary_cut_keeps_answers(FINISH2, ("finish2_nodes",), range(80, 280), 9, 2_000_000)
    assert compared >= 100 and decisive >= 40 and cuts > 100
