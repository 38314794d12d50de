"""The order-3 threat cut (``OPT_ZONE3``): the kernel against its pure-Python twin
(:mod:`solver.boundary.threats`), the refuted moves against the search without the cut,
and the search with the cut against the search without.

Every move the kernel refutes must be refuted by the twin, which plays the move, the
threat's first move and every plan with the reference rules, and must lose within 6
plies by the search that does not use the cut.
"""
import functools

import pytest

from solver.boundary import threats
from solver.boundary.bound import exchange_bound
from solver.boundary.endgames import endgame
from solver.boundary.notation import format_position
from solver.cext.boundary import DEFAULT_OPTS, OPTIONS, Board, order3_cut

ZONE3 = OPTIONS["zone3"]


@functools.lru_cache(maxsize=None)
def _threatened(first, last):
    """Positions of seeded endgames and their children where the side not to move is three
    moves from its exchange and the side to move at least three (where the cut looks)."""
    out = []
    for seed in range(first, last):
        pos = endgame(seed)
        for cand in [pos] + [pos.play(m) for m in pos.legal_moves()[::9]]:
            if (cand.winner() is None and exchange_bound(cand, 1 - cand.side) == 3
                    and exchange_bound(cand, cand.side) >= 3 and cand.legal_moves()):
                out.append(cand)
    return out


def _check(positions, every):
    """Kernel against twin on ``positions``: the same threats found, and every ``every``-th
    refuted move (and one not refuted) checked by the twin and by the search without the
    cut.  Returns (positions with a threat, moves refuted, moves checked)."""
    with_threat = refuted = checked = 0
    for pos in positions:
        m1, got = order3_cut(Board.from_position(pos))
        turn = pos.clone()
        turn.side = 1 - pos.side
        twin = [m for m in turn.legal_moves() if exchange_bound(turn.play(m), turn.side) == 2
                and threats.threat3(pos, m)]
        assert (m1 is None) == (not twin), format_position(pos)
        if m1 is None:
            assert got == []
            continue
        with_threat += 1
        assert m1 in twin, format_position(pos)
        refuted += len(got)
        for x in got[::every]:
            assert threats.refutes3(pos, m1, x), (format_position(pos), x)
            lost = Board.from_position(pos.play(x)).search(max_depth=5, opts=DEFAULT_OPTS & ~ZONE3)
            assert lost["result"] == "win" and lost["plies"] <= 5, (format_position(pos), x, lost)
            checked += 1
    return with_threat, refuted, checked


def _with_threat(positions, without):
    """The positions where the kernel finds a threat, and ``without`` of the others."""
    found = [p for p in positions if order3_cut(Board.from_position(p))[0] is not None]
    return found + [p for p in positions if p not in found][:without]


def test_the_cut_refutes_only_what_the_twin_and_the_search_refute():
    with_threat, refuted, checked = _check(_with_threat(_threatened(0, 120), 10), 20)
    assert with_threat >= 10 and refuted >= 500 and checked >= 50


@pytest.mark.slow
def test_the_cut_refutes_only_what_the_twin_and_the_search_refute_many():
    with_threat, refuted, checked = _check(_with_threat(_threatened(120, 400), 40), 5)
    assert with_threat >= 20 and checked >= 200


def test_the_cut_is_not_blind():
    # a move filling a square of the threat's first move is never refuted, nor one
    # bringing the defender within two moves of its own exchange
    for pos in _with_threat(_threatened(0, 120), 0):
        board = Board.from_position(pos)
        m1, got = order3_cut(board)
        if m1 is None:
            continue
        need1 = threats.needs(m1, 1 - pos.side)
        for x in got:
            s0, s1, _p0, p1 = x
            assert not ((1 << p1) | ((1 << s1) if s0 is not None else 0)) & need1
            assert exchange_bound(pos.play(x), pos.side) >= 3


def test_the_search_with_the_cut_keeps_the_answers(boundary_cut_keeps_answers):
    compared, decisive, cuts = boundary_cut_keeps_answers(ZONE3, ("zone3_cuts", "zone3_threats"), range(80), 7, 300_000)
    assert compared >= 40 and decisive >= 15 and cuts > 0


@pytest.mark.slow
def test_the_search_with_the_cut_keeps_the_answers_deeper(boundary_cut_keeps_answers):
    compared, decisive, cuts = boundary_cut_keeps_answers(ZONE3, ("zone3_cuts", "zone3_threats"), range(80, 280), 9, 2_000_000)
    assert compared >= 100 and decisive >= 40 and cuts > 100
