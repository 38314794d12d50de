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


def _played_at_random(deal, variant, rnd, plies):
    """The position after up to ``plies`` random legal moves from the deal's start."""
    state = PyramidGame(deal, variant).new_initial_state()
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        state.apply(rnd.choice(moves))
    return state


def _agreement(variant, ways, seeds=range(1, 110)):
    """From positions a few moves before a short lost deal's lines die (a prefix played
    at random), each K's answer under each of ``ways`` (keyword arguments of ``reach``)
    against brute force's: the first disagreement raises (AssertionError)."""
    rnd = random.Random(14)
    checked = {"sat": 0, "unsat": 0}
    for seed, deepest in _lost_deals(variant, seeds):
        if deepest < 5:
            continue
        deal = deal_from_seed(seed)
        for _ in range(2):
            state = _played_at_random(deal, variant, rnd, rnd.randrange(2, max(3, deepest - 3)))
            m = len(state.history)
            more = _longest(state, 4, {})
            for k in range(m + 1, m + min(more + 1, 4) + 1):
                expect = "sat" if k - m <= more else "unsat"
                for way in ways:
                    r = reach(deal, k, variant=variant, prefix=state.history, **way)
                    assert r.status == expect, (seed, [str(x) for x in state.history], k, way)
                    if r.status == "sat":
                        assert _kinds(r.line[:m]) == _kinds(state.history)
                checked[expect] += 1
    return checked


def _agreement_midgame(variant, seeds=range(1, 13)):
    """From a position 6-11 random moves into any deal (won ones too, with dragons on
    the board: fit graphs with odd cycles), the answers for 1-3 more moves against brute
    force's: the first disagreement raises (AssertionError)."""
    rnd = random.Random(5)
    checked = 0
    for seed in seeds:
        deal = deal_from_seed(seed)
        state = _played_at_random(deal, variant, rnd, rnd.randrange(6, 12))
        m = len(state.history)
        more = _longest(state, 3, {})
        for k in range(m + 1, m + 4):
            expect = "sat" if k - m <= more else "unsat"
            assert reach(deal, k, variant=variant, prefix=state.history).status == expect, (seed, k)
            checked += 1
    return checked


ALL = dict(order=True, count=True, tree=True)


@pytest.mark.parametrize("variant", VARIANTS)
def test_reach_agrees_with_brute_force_from_random_positions(variant):
    """The solver's answer is brute force's (:func:`_agreement`) with all the redundant
    clauses (the counts, the order of independent moves, the anchor tree) and the two
    optional counts (the hubs' room, the square room), with the square room and the
    lexicographic order of moves, with neither, and with none of the redundant clauses."""
    ways = (dict(ALL, room=True, squares=True), dict(ALL, squares=True, lex=True), dict(ALL),
            dict(order=False, count=False, tree=False))
    checked = _agreement(variant, ways)
    assert checked["sat"] > 10 and checked["unsat"] > 3, checked


def test_the_agreement_catches_a_move_put_first_too_soon(monkeypatch):
    """The harness can fail on the order of moves too: with "playable at step ``t``"
    taking a tile drawn one step later (a deliberate bug, ``Encoding._lex_order``'s
    ``early``), some position that brute force plays on is answered ``unsat``."""
    from solver.pyramid import sat

    honest = sat.Encoding._lex_order
    monkeypatch.setattr(sat.Encoding, "_lex_order", lambda self, fixed: honest(self, fixed, early=1))
    with pytest.raises(AssertionError):
        _agreement("continuous", (dict(ALL, lex=True),))


def test_the_agreement_catches_a_square_room_one_too_small(monkeypatch):
    """The harness can fail: with the square room made one smaller than the squares
    around a tile (a deliberate bug, ``Encoding._square_room``'s ``spare``), some
    position that brute force plays on is answered ``unsat``."""
    from solver.pyramid import sat

    honest = sat.Encoding._square_room
    monkeypatch.setattr(sat.Encoding, "_square_room", lambda self, held: honest(self, held, spare=1))
    with pytest.raises(AssertionError):
        _agreement("continuous", (dict(ALL, squares=True),))


def _loose_twins(kinds, fit):
    """A deliberate bug for :func:`solver.pyramid.sat.interchangeable`: a kind joins the
    class of a kind that fits all it fits (one way only, not the same kinds)."""
    present = sorted(set(kinds))
    classes = {}
    for a in present:
        classes[a] = next((r for r in sorted(set(classes.values())) if not fit[a][r] and not fit[a][a]
                           and all(fit[r][c] or not fit[a][c] for c in present if c not in (a, r))), a)
    return classes


def test_the_agreement_catches_kinds_merged_that_are_not_twins(monkeypatch):
    """The harness can fail on the classes of interchangeable kinds: with a kind merged
    into one that merely fits more (:func:`_loose_twins`), some answer is not brute
    force's, or its line does not replay (the reference rules refuse a move)."""
    from solver.pyramid import sat
    from solver.pyramid.rules import IllegalMove

    monkeypatch.setattr(sat, "interchangeable", _loose_twins)
    with pytest.raises((AssertionError, IllegalMove)):
        _agreement("continuous", (dict(ALL),))


def _sides_with_odd_cycles(kinds, fit):
    """A deliberate bug for :func:`solver.pyramid.sat.fit_sides`: a side for every kind,
    the first colouring found, odd cycles (a dragon fitting itself) ignored."""
    present = sorted(set(kinds))
    side = {}
    for root in present:
        if root not in side:
            side[root], stack = 0, [root]
            while stack:
                a = stack.pop()
                for b in present:
                    if fit[a][b] and b not in side:
                        side[b] = 1 - side[a]
                        stack.append(b)
    return side


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_agreement_catches_a_parity_where_the_fits_have_odd_cycles(variant, monkeypatch):
    """The harness can fail on the checkerboard's parity: with sides given to kinds whose
    component has an odd cycle (:func:`_sides_with_odd_cycles`), some position that brute
    force plays on is answered ``unsat``.  (The short lost deals of :func:`_agreement` have
    no such component among their questions' tiles: there the bug changes nothing.)"""
    from solver.pyramid import sat

    monkeypatch.setattr(sat, "fit_sides", _sides_with_odd_cycles)
    with pytest.raises(AssertionError):
        _agreement_midgame(variant)


@pytest.mark.parametrize("variant", VARIANTS)
def test_reach_agrees_with_brute_force_in_the_middle_of_any_deal(variant):
    """:func:`_agreement_midgame` holds: where dragons join the fits into odd cycles the
    parity gives no clause, and the twins' lines replay."""
    assert _agreement_midgame(variant) == 36


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
        if checked < 4:         # the lexicographic order of moves, after the board's symmetry
            assert reach(deal, deepest, variant=variant, lex=True).status == "sat", seed
            assert reach(deal, deepest + 1, variant=variant, lex=True).status == "unsat", seed
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("variant", VARIANTS)
def test_cubes_agree_with_the_exact_search(variant):
    """Cube and conquer (one conflict a cube, so that cubes are split on the hubs' literals
    where there are some, and asked again) answers as the exact search on lost deals: the longest line's
    length sat, one more unsat (on four of them also split on the crowded hubs, with the room
    count and the square room, an undecided cube sent to the back of the queue); and a won
    deal is never unsat."""
    checked = 0
    for seed, deepest in _lost_deals(variant, range(1, 120)):
        if deepest < 2:
            continue
        deal = deal_from_seed(seed)
        assert reach_cubes(deal, deepest, variant=variant, cube_conflicts=1).status == "sat", seed
        assert reach_cubes(deal, deepest + 1, variant=variant, cube_conflicts=1).status == "unsat", seed
        if checked < 4:         # the options that did not pay: crowded hubs, the counts, rotation
            for k, expect in ((deepest, "sat"), (deepest + 1, "unsat")):
                r = reach_cubes(deal, k, variant=variant, cube_conflicts=1, crowded=True, room=True,
                                squares=True, rotate=True)
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


def _schedule(monkeypatch, probe_spends=0.0, probe_decides=None):
    """after_unknown with the tail search and the SAT stage faked: what each was given
    (the tail its time limit; the stage its time and conflict limits), and the answers.
    The fake probe spends ``probe_spends`` CPU seconds and says ``probe_decides``."""
    from solver.pyramid import tail

    calls = []

    def fake_settle(deal, *, variant, node_limit, time_limit, table_mb):
        calls.append(("tail", time_limit))
        return SolveResult("unknown", variant, limit="time", cpu_seconds=time_limit, deepest=20)

    def fake_stage(deal, r, *, variant, time_limit, conflict_limit, in_child=False):
        calls.append(("sat", time_limit, conflict_limit) + (("in a child",) if in_child else ()))
        if not [c for c in calls if c[0] == "tail"]:       # the probe, before the tail
            r.cpu_seconds += probe_spends
            if probe_decides:
                r.verdict, r.limit = probe_decides, None
        return r

    monkeypatch.setattr(tail, "settle", fake_settle)
    monkeypatch.setattr(tail, "after_tail", fake_stage)
    return calls


def test_the_probe_comes_between_the_searches_and_the_tail_keeps_the_rest(monkeypatch):
    """At the retry's 60 s: the main search 18 s, the probe at most tail.PROBE_SHARE of
    the limit, asked in a child (Kissat), the tail search what is left,
    so the deal's one limit holds; no stage after the tail below tail.SAT_FROM.  From
    SAT_FROM the tail keeps SAT_SHARE for the stage too, on short lines only."""
    from solver.pyramid import tail

    deal = deal_from_seed(764002)
    for total, deepest, spends in ((60, 20, 5.0), (200, 20, 40.0), (200, 40, 0.0)):
        calls = _schedule(monkeypatch, probe_spends=spends)
        first = SolveResult("unknown", "continuous", limit="time", cpu_seconds=0.3 * total, deepest=deepest)
        r = tail.after_unknown(deal, first, variant="continuous", node_limit=10 ** 9, time_limit=total,
                               table_mb=64)
        assert r.cpu_seconds <= total + 1e-9
        if total == 60:
            assert calls == [("sat", pytest.approx(tail.PROBE_SHARE * 60), None, "in a child"),
                             ("tail", pytest.approx(42 - 5))]
        elif deepest == 20:
            assert calls == [("sat", pytest.approx(tail.PROBE_SHARE * 200), None, "in a child"),
                             ("tail", pytest.approx(100 - 20)),
                             ("sat", pytest.approx(20), 10 ** 9)]
        else:                           # a long line: neither the probe nor the stage
            assert calls == [("tail", pytest.approx(140))]


def test_from_deep_from_the_stage_after_a_short_tail_has_the_rest_in_a_child(monkeypatch):
    """From tail.DEEP_FROM (a second retry's limits): the main search at most
    tail.MAIN_MOST, the probe as before, the tail search tail.DEEP_TAIL_SHARE of the limit,
    and the SAT stage everything left, asked in a child (Kissat); a long line: the tail all."""
    from solver.pyramid import tail

    deal = deal_from_seed(764002)
    total = 900.0
    assert tail.main_time_limit(total) == tail.MAIN_MOST < tail.MAIN_SHARE * total
    assert tail.main_time_limit(60) == pytest.approx(18)
    for deepest in (20, 40):
        calls = _schedule(monkeypatch, probe_spends=15.0)
        first = SolveResult("unknown", "continuous", limit="time", cpu_seconds=tail.MAIN_MOST, deepest=deepest)
        r = tail.after_unknown(deal, first, variant="continuous", node_limit=10 ** 9, time_limit=total,
                               table_mb=64)
        assert r.cpu_seconds <= total + 1e-9
        if deepest == 20:
            assert calls == [("sat", pytest.approx(tail.PROBE_SHARE * total), None, "in a child"),
                             ("tail", pytest.approx(tail.DEEP_TAIL_SHARE * total)),
                             ("sat", pytest.approx(total - 60 - 15 - 90), 10 ** 9, "in a child")]
        else:
            assert calls == [("tail", pytest.approx(total - 60))]


def test_the_probe_decides_alone_and_never_under_a_node_limit(monkeypatch):
    """A probe that decides ends the analysis (no tail search); a main search stopped on
    its node limit (a batch's first pass), or a limit too small for a question, gets no
    probe; the probe (Kissat, which counts no conflicts for us) is held to its time
    whatever the node limit; a probe that used the time up leaves the answer unknown on
    time, with no tail."""
    from solver.pyramid import tail

    deal = deal_from_seed(764002)

    def run(limit="time", total=60, nodes=10 ** 9, cpu=18.0, **kw):
        calls = _schedule(monkeypatch, **kw)
        first = SolveResult("unknown", "continuous", limit=limit, cpu_seconds=cpu, deepest=20)
        return tail.after_unknown(deal, first, variant="continuous", node_limit=nodes, time_limit=total,
                                  table_mb=64), calls

    for verdict in ("lost", "won"):
        r, calls = run(probe_decides=verdict, probe_spends=3.0)
        assert r.verdict == verdict and [c[0] for c in calls] == ["sat"] and r.cpu_seconds == 21.0
    r, calls = run(limit="nodes", total=60, cpu=0.5)
    assert [c[0] for c in calls] == ["tail"]
    r, calls = run(total=2, cpu=0.6)                    # 60% of 2 s < sat.MIN_QUESTION
    assert [c[0] for c in calls] == ["tail"]
    r, calls = run(nodes=1000)
    assert calls[0] == ("sat", pytest.approx(tail.PROBE_SHARE * 60), None, "in a child")
    r, calls = run(probe_spends=42.5)
    assert (r.verdict, r.limit) == ("unknown", "time") and [c[0] for c in calls] == ["sat"]


def test_the_real_probe_decides_short_deals_before_any_tail(monkeypatch):
    """The real probe, on deals as the main search would leave them on time with a short
    line: Continuous 324 (longest line 14), told 13: a line of 14, none of 15, so lost
    (the hub lemma, which also proves it, left out); seed 1 told 10: won from the
    solver's 11 moves, replayed by the checker.  No tail search; within the probe's share."""
    from solver.pyramid import tail

    monkeypatch.setattr(tail, "settle", lambda *a, **kw: pytest.fail("the tail ran"))
    monkeypatch.setattr(tail, "proves_lost", lambda deal, variant: None)
    for seed, deepest, verdict in ((324, 13, "lost"), (1, 10, "won")):
        first = SolveResult("unknown", "continuous", limit="time", cpu_seconds=3.0, deepest=deepest, seed=seed)
        r = tail.after_unknown(deal_from_seed(seed), first, variant="continuous", node_limit=10 ** 9,
                               time_limit=30, table_mb=64)
        assert (r.verdict, r.limit) == (verdict, None), seed
        assert 3.0 < r.cpu_seconds < 3.0 + tail.PROBE_SHARE * 30 + 0.5
    assert "no line places 15 tiles" in tail.after_unknown(
        deal_from_seed(324), SolveResult("unknown", "continuous", limit="time", cpu_seconds=3.0, deepest=13),
        variant="continuous", node_limit=10 ** 9, time_limit=30, table_mb=64).sat
    assert check_solution(deal_from_seed(1), r.line, variant="continuous").valid
