"""The order-2 threat cut (``OPT_ZONE``): the kernel against its pure-Python twin
(:mod:`solver.boundary.threats`), and the search with the cut against the search without.

The kernel refutes most defender moves without playing them (where the plan prepares a
completion nothing can stop); every move it refutes must be refuted by the twin, which
plays every move with the reference rules.  The search with the cut must give the same
verdicts and distances.
"""
import functools

import pytest

from solver.boundary import threats
from solver.boundary.bound import exchange_bound
from solver.boundary.endgames import endgame
from solver.boundary.notation import format_position
from solver.cext.boundary import DEFAULT_OPTS, OPTIONS, Board, order2_cut

ZONE = OPTIONS["zone"]


@functools.lru_cache(maxsize=None)
def _threatened(first, last, every):
    """Positions two plies into seeded endgames where the side not to move is two moves
    from its exchange (the positions the cut works on), every ``every``-th of them."""
    out = []
    for seed in range(first, last):
        pos = endgame(seed)
        for m in pos.legal_moves()[::7]:
            child = pos.clone()
            child.apply(m)
            for m2 in child.legal_moves()[::11]:
                grand = child.clone()
                grand.apply(m2)
                if (grand.winner() is None and exchange_bound(grand, 1 - grand.side) == 2
                        and grand.legal_moves()):
                    out.append(grand)
    return out[::every]


def _check_against_the_twin(positions):
    with_plan = refuted = static = twin_refuted = 0
    for pos in positions:
        plan, got, quiet = order2_cut(Board.from_position(pos))
        plans = threats.plans(pos)
        assert (plan is None) == (not plans), format_position(pos)
        if plan is None:
            assert got == [] and quiet == []
            continue
        with_plan += 1
        assert plan in plans, format_position(pos)
        want = [x for x in pos.legal_moves() if threats.refutes(pos, plan, x)]
        assert set(got) <= set(want), (format_position(pos), set(got) - set(want))
        assert set(quiet) <= set(got)
        refuted += len(got)
        static += len(quiet)
        twin_refuted += len(want)
    return with_plan, refuted, static, twin_refuted


def test_the_cut_refutes_only_what_the_reference_refutes():
    positions = _threatened(0, 12, 8)
    with_plan, refuted, static, twin_refuted = _check_against_the_twin(positions)
    assert len(positions) >= 10 and with_plan >= 3
    # the cut is conservative, not blind: it finds nearly all the twin's refutations,
    # most of them without playing them
    assert refuted >= 0.95 * twin_refuted and static >= refuted // 2 > 0


def test_the_plan_killer_is_taken_only_when_it_is_a_plan():
    # _plan2 tests the sibling's plan before generating Y's moves (its legality by the
    # narrowed generator): a plan is returned as it is, anything else is passed over
    positions = _threatened(0, 12, 4)
    kept = passed = 0
    for i, pos in enumerate(positions):
        plans = threats.plans(pos)
        turn = pos.clone()
        turn.side = 1 - pos.side
        others = [m for m in turn.legal_moves() if m not in plans][::9]
        foreign = positions[i - 1].legal_moves()[::13]
        for first in plans[-2:] + others + foreign:
            plan, _got, _quiet = order2_cut(Board.from_position(pos), first)
            assert (plan is None) == (not plans), format_position(pos)
            if plans:
                assert plan in plans, (format_position(pos), first)
                assert (plan == first) == (first in plans), (format_position(pos), first)
                kept += first in plans
                passed += first not in plans
    assert kept >= 3 and passed >= 20


@pytest.mark.slow
def test_the_cut_refutes_only_what_the_reference_refutes_many():
    with_plan, refuted, static, twin_refuted = _check_against_the_twin(_threatened(0, 60, 1)[::3])
    assert with_plan >= 30 and refuted >= 0.95 * twin_refuted and static > 0


def test_the_search_with_the_cut_keeps_the_answers(boundary_cut_keeps_answers):
    compared, decisive, cuts = boundary_cut_keeps_answers(ZONE, ("zone_cuts", "zone_groups"), range(80), 7, 300_000)
    assert compared >= 40 and decisive >= 15 and cuts > 300


@pytest.mark.slow
def test_the_search_with_the_cut_keeps_the_answers_deeper(boundary_cut_keeps_answers):
    compared, decisive, cuts = boundary_cut_keeps_answers(ZONE, ("zone_cuts", "zone_groups"), range(80, 280), 9, 2_000_000)
    assert compared >= 100 and decisive >= 40 and cuts > 10_000
