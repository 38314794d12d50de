"""The SAT stage (solver/pyramid/sat.py): "can K moves be played?" against brute force and
the exact search, never lost on a won deal, and the stage after the tail search."""
import random

import pytest

from solver.pyramid.check import check_solution
from solver.pyramid.deal import deal_from_seed
from solver.pyramid.rules import Move, PyramidGame
from solver.pyramid.search import SolveResult, solve
from solver.pyramid.sat import reach, reach_cubes
from solver.pyramid.tail import after_tail
from solver.pyramid.tiles import TILES

pytest.importorskip("pysat")
VARIANTS = ("continuous", "wild-dragons")


def _longest(state, cap, dead):
    """Brute force: the most moves (up to ``cap``) some line plays from ``state``
    (moves by kind and position; ``dead`` remembers boards with their shortfall)."""
    if cap == 0:
        return 0
    key = (tuple(None if f is None else TILES[f].kind for f in state.board), cap)
    if key in dead:
        return dead[key]
    best = 0
    for kind, pos in sorted({(TILES[m.tile].kind, m.pos) for m in state.legal_moves()}):
        child = state.clone()
        child.apply(Move(next(f for f in state.reserve if f is not None and TILES[f].kind == kind), pos))
        best = max(best, 1 + _longest(child, cap - 1, dead))
        if best == cap:
            break
    dead[key] = best
    return best


def _kinds(moves):
    return [(TILES[x.tile].kind, x.pos) for x in moves]


def _lost_deals(variant, seeds):
    """Lost deals whose longest line the exact search proves (``longest_exact``)."""
    for seed in seeds:
        r = solve(deal_from_seed(seed), variant=variant, node_limit=2_000_000, time_limit=None)
        if r.verdict == "lost" and r.longest_exact:
            yield seed, r.deepest


@pytest.mark.parametrize("variant", VARIANTS)
def test_reach_agrees_with_brute_force_from_random_positions(variant):
    """From positions a few moves before a short lost deal's lines die (a prefix played
    at random), the solver's answer for each K is brute force's, with and without the
    redundant clauses (the counts, the order of independent moves, the anchor tree and
    the hubs' room), and with all but the hubs' room as a count."""
    rnd = random.Random(14)
    checked = {"sat": 0, "unsat": 0}
    for seed, deepest in _lost_deals(variant, range(1, 110)):
        if deepest < 5:
            continue
        deal = deal_from_seed(seed)
        for _ in range(2):
            state = PyramidGame(deal, variant).new_initial_state()
            for _ in range(rnd.randrange(2, max(3, deepest - 3))):
                moves = state.legal_moves()
                if not moves:
                    break
                state.apply(rnd.choice(moves))
            m = len(state.history)
            more = _longest(state, 4, {})
            for k in range(m + 1, m + min(more + 1, 4) + 1):
                expect = "sat" if k - m <= more else "unsat"
                for extra, room in ((True, True), (True, False), (False, False)):
                    r = reach(deal, k, variant=variant, prefix=state.history, order=extra, count=extra,
                              tree=extra, room=room)
                    assert r.status == expect, (seed, [str(x) for x in state.history], k, extra, room)
                    if r.status == "sat":
                        assert _kinds(r.line[:m]) == _kinds(state.history)
                checked[expect] += 1
    assert checked["sat"] > 10 and checked["unsat"] > 3, checked


@pytest.mark.parametrize("variant", VARIANTS)
def test_reach_agrees_with_the_exact_search_from_the_start(variant):
    """From the empty board (the board's symmetry broken), on lost deals the exact search
    proves the longest line of: its length is sat, one more unsat (on two of them by Kissat too)."""
    checked = 0
    for seed, deepest in _lost_deals(variant, range(1, 120)):
        if deepest < 2:
            continue
        deal = deal_from_seed(seed)
        assert reach(deal, deepest, variant=variant).status == "sat", seed
        assert reach(deal, deepest + 1, variant=variant).status == "unsat", seed
        if checked < 2:         # Kissat, one call (the bench's portfolio), the same answers
            assert reach(deal, deepest, variant=variant, solver="kissat404").status == "sat", seed
            assert reach(deal, deepest + 1, variant=variant, solver="kissat404").status == "unsat", seed
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("variant", VARIANTS)
def test_cubes_agree_with_the_exact_search(variant):
    """Cube and conquer (one conflict a cube, so that cubes are split on the hubs' literals
    where there are some, and asked again) answers as the exact search on lost deals: the longest line's
    length sat, one more unsat (on four of them also split on the crowded hubs, with the room
    count); and a won deal is never unsat."""
    checked = 0
    for seed, deepest in _lost_deals(variant, range(1, 120)):
        if deepest < 2:
            continue
        deal = deal_from_seed(seed)
        assert reach_cubes(deal, deepest, variant=variant, cube_conflicts=1).status == "sat", seed
        assert reach_cubes(deal, deepest + 1, variant=variant, cube_conflicts=1).status == "unsat", seed
        if checked < 4:         # the options that did not pay: split on crowded hubs, the room count
            for k, expect in ((deepest, "sat"), (deepest + 1, "unsat")):
                r = reach_cubes(deal, k, variant=variant, cube_conflicts=1, crowded=True, room=True)
                assert r.status == expect, (seed, k)
        checked += 1
    assert checked >= 5
    for seed in list(_won_seeds(variant, range(1, 9)))[:1]:
        assert reach_cubes(deal_from_seed(seed), 16, variant=variant, time_limit=10).status != "unsat", seed


def _won_seeds(variant, seeds):
    for seed in seeds:
        if solve(deal_from_seed(seed), variant=variant, node_limit=2_000_000, time_limit=None,
                 longest=False).verdict == "won":
            yield seed


@pytest.mark.parametrize("variant", VARIANTS)
def test_never_unsat_on_a_won_deal(variant):
    """A won deal plays every K: 16 and 20 moves (near where the deals left die); the
    sweep over 3,000 won deals is under ``-m slow``."""
    for seed in list(_won_seeds(variant, range(1, 9)))[:1]:
        for k in (16, 20):
            r = reach(deal_from_seed(seed), k, variant=variant, time_limit=10)
            assert r.status != "unsat", (seed, k)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_never_unsat_on_a_won_deal_sweep(variant):
    for seed in _won_seeds(variant, range(1, 3001)):
        r = reach(deal_from_seed(seed), 24, variant=variant, time_limit=30)
        assert r.status != "unsat", seed


def test_the_stage_after_the_tail_proves_and_wins():
    """A deal left unknown with a short line: lost when no line is one longer (Continuous
    324, longest line 14), and won from the solver's line when the search finishes it
    (seed 1, told its longest line is 10: the whole line replayed by the reference checker)."""
    deal = deal_from_seed(324)
    r = after_tail(deal, SolveResult("unknown", "continuous", deepest=13, limit="time", seed=324),
                   variant="continuous", time_limit=30, conflict_limit=None)
    assert r.verdict == "lost" and r.limit is None and "no line places 15 tiles" in r.sat
    deal = deal_from_seed(1)
    r = after_tail(deal, SolveResult("unknown", "continuous", deepest=10, limit="time", seed=1),
                   variant="continuous", time_limit=30, conflict_limit=None)
    assert r.verdict == "won" and len(r.line) == 144 and "first 11 moves" in r.sat
    assert check_solution(deal, r.line, variant="continuous").valid
    nothing = SolveResult("unknown", "continuous", deepest=13, limit="time", seed=324)
    assert after_tail(deal_from_seed(324), nothing, variant="continuous", time_limit=0,
                      conflict_limit=None).verdict == "unknown"


def test_the_tail_keeps_time_for_the_stage_only_under_a_large_limit(monkeypatch):
    """At the retry's 60 s the tail search has all the time the main search left and no
    stage runs; from tail.SAT_FROM it keeps tail.SAT_SHARE for the stage, on short lines only."""
    from solver.pyramid import tail

    given, staged = [], []

    def fake_settle(deal, *, variant, node_limit, time_limit, table_mb):
        given.append(time_limit)
        return SolveResult("unknown", variant, limit="time", cpu_seconds=time_limit, deepest=20)

    monkeypatch.setattr(tail, "settle", fake_settle)
    monkeypatch.setattr(tail, "after_tail", lambda deal, r, **kw: staged.append(kw["time_limit"]) or r)
    deal = deal_from_seed(764002)
    for total, deepest in ((60, 20), (200, 20), (200, 40)):
        first = SolveResult("unknown", "continuous", limit="time", cpu_seconds=0.3 * total, deepest=deepest)
        tail.after_unknown(deal, first, variant="continuous", node_limit=10 ** 9, time_limit=total, table_mb=64)
    assert given == pytest.approx([42, 140 - 20, 140])
    assert staged == pytest.approx([20])
