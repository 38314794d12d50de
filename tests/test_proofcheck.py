"""The DRAT checker (solver/proofcheck.py and its compiled twin cext/proofcheck.pyx) and
the SAT stage's unsat answers checked with it (solver/pyramid/satproof.py)."""
import json
import random

import pytest

from solver.proofcheck import binary, binary_steps, check

pysat = pytest.importorskip("pysat")


def _cadical(cnf, assumptions=()):
    """CaDiCaL's answer and its binary DRAT proof."""
    from pysat.solvers import Solver, pysolvers

    with Solver(name="cadical195", bootstrap_with=cnf, with_proof=True) as s:
        sat = s.solve(assumptions=list(assumptions))
        pysolvers.flushpr(s.solver.prfp)
        s.solver.prfile.seek(0)
        return sat, s.solver.prfile.read()


def _random_cnf(rnd):
    n = rnd.randint(4, 22)
    return [[rnd.choice((-1, 1)) * rnd.randint(1, n) for _ in range(rnd.choice((2, 3, 3, 4)))]
            for _ in range(int(n * rnd.uniform(3.0, 6.0)))]


def _both(cnf, steps):
    """The reference's and the twin's checks, which must agree step by step."""
    a, b = check(cnf, steps), check(cnf, steps, compiled=True)
    assert a.counts() == b.counts(), (cnf, a, b)
    return a


def test_the_twins_agree_on_cadicals_proofs_and_check_exactly_the_unsat_ones():
    rnd = random.Random(14)
    seen = {True: 0, False: 0}
    for _ in range(250):
        cnf = _random_cnf(rnd)
        sat, proof = _cadical(cnf)
        r = _both(cnf, [proof])
        assert r.checked == (not sat)
        seen[sat] += 1
    assert seen[True] > 30 and seen[False] > 30, seen


def test_a_missing_step_or_a_lemma_not_implied_is_rejected_and_never_proves_a_satisfiable_formula():
    """Every proof with one step left out, or with a clause of the formula left out (a
    weaker formula, the proof kept): the twins agree, and whatever they accept is unsat."""
    rnd = random.Random(7)
    rejected = accepted = 0
    for _ in range(60):
        cnf = _random_cnf(rnd)
        sat, proof = _cadical(cnf)
        steps = list(binary_steps(proof))
        if sat or len(steps) < 3:
            continue
        trials = [(cnf, steps[:i] + steps[i + 1:]) for i in range(len(steps)) if steps[i][0] == "a"]
        trials += [(cnf[:i] + cnf[i + 1:], steps) for i in range(len(cnf))]
        for formula, bad in trials:
            r = _both(formula, bad)
            if r.checked:
                assert not _cadical(formula)[0]
                accepted += 1
            else:
                rejected += 1
    assert rejected > 50 and accepted > 50, (rejected, accepted)


def test_never_checked_on_a_satisfiable_formula_whatever_the_steps():
    """Random lemmas and deletions ending in the empty clause, on satisfiable formulas."""
    rnd = random.Random(3)
    tried = 0
    while tried < 200:
        cnf = _random_cnf(rnd)
        if not _cadical(cnf)[0]:
            continue
        n = max(abs(l) for c in cnf for l in c)
        steps = [(rnd.choice("aad"), [rnd.choice((-1, 1)) * rnd.randint(1, n + 2) for _ in range(rnd.randint(0, 3))])
                 for _ in range(rnd.randint(1, 30))] + [("a", [])]
        assert not _both(cnf, steps).checked
        tried += 1


def test_a_lemma_neither_rup_nor_rat_is_named():
    r = _both([[1, 2], [-1, 2]], [("a", [-2]), ("a", [])])
    assert not r.checked and r.failed_step == 0 and "neither RUP nor RAT" in r.reason
    assert _both([[1, 2], [-1, 2], [1, -2], [-1, -2]], [("a", [1]), ("a", [])]).checked
    assert "without the empty clause" in _both([[1], [-1, 2]], [("a", [2])]).reason


def test_rat_lemmas_a_definition_on_a_new_variable():
    """x5 = x1 and x2 on a satisfiable formula: three RAT lemmas (none RUP), accepted and
    counted, and still no proof; with its pivot not first the first is rejected."""
    cnf = [[1, 2], [-1, 3]]
    r = _both(cnf, [("a", [-5, 1]), ("a", [-5, 2]), ("a", [5, -1, -2]), ("a", [])])
    assert r.rat == 3 and r.lemmas == 3 and r.failed_step == 3 and not r.checked
    assert r.first_rat == (0, [-5, 1])
    r = _both(cnf, [("a", [1, -5])])
    assert r.failed_step == 0 and r.rat == 0


def test_deletions_honoured_except_of_a_reason_or_a_clause_not_held():
    cnf = [[1, 2], [-1, 2], [1, -2], [-1, -2, 3], [-3, 4]]
    # [1] is learned, then its reason-free copy of [1, 2] is dropped; [-1, -2, 3] is needed later
    r = _both(cnf, [("a", [1]), ("d", [2, 1]), ("d", [7, 8]), ("d", [1]), ("a", [3]), ("a", [4])])
    assert r.deletions == 1 and r.ignored == 2         # [7, 8] not held, [1] a reason
    # dropping a clause the refutation needs makes the proof fail
    r = _both([[1, 2], [-1, 2], [1, -2], [-1, -2]], [("d", [1, -2]), ("a", [1]), ("a", [])])
    assert r.deletions == 1 and not r.checked


def test_binary_drat_round_trips_and_the_twin_takes_any_split():
    rnd = random.Random(5)
    cnf = None
    while cnf is None:
        c = _random_cnf(rnd)
        sat, proof = _cadical(c)
        if not sat and len(proof) > 30:
            cnf = c
    assert binary(binary_steps(proof)) == proof
    whole = check(cnf, [proof], compiled=True)
    pieces = [proof[i:i + 1] for i in range(len(proof))]
    assert check(cnf, pieces, compiled=True).counts() == whole.counts() and whole.checked
    for compiled in (True, False):
        assert check([[1]], [binary([("a", [1, 2])])[:-1]], compiled=compiled).reason == "the proof ends inside a step"
        assert not check([[1], [-1]], [b"x\x00"], compiled=compiled).checked


# --- the SAT stage's proofs -------------------------------------------------------------

def test_a_lost_deal_checked_through_the_stage_both_checkers():
    """Continuous 324: no line places 15 tiles; the proof of the cubes, their negations
    where each was refuted, and the cover check out, the same step by step in both."""
    from solver.pyramid.deal import deal_from_seed
    from solver.pyramid.sat import reach_cubes
    from solver.pyramid.satproof import ProofTrace

    r = reach_cubes(deal_from_seed(324), 15, variant="continuous", proof=ProofTrace.of_encoding)
    assert r.status == "unsat" and len(r.proof.marks) >= 7
    fast, slow = r.proof.check(compiled=True), r.proof.check(compiled=False)
    assert fast.checked and fast.counts() == slow.counts() and fast.rat == 0
    assert not r.proof.covered          # CaDiCaL's own empty clause, after the fifth cube
    r.proof.close()


def test_a_proof_is_written_without_elimination_or_substitution(monkeypatch):
    """A solver that keeps a proof runs with ``PROOF_OPTIONS`` (a cube's assumption on a
    variable CaDiCaL eliminated or substituted restores clauses the checker cannot
    follow: Continuous 764002 at 24 moves); a caller's own option still wins, and a
    solver without a proof keeps CaDiCaL's defaults."""
    from pysat.solvers import Cadical195

    from solver.pyramid import sat

    seen = []
    monkeypatch.setattr(Cadical195, "configure", lambda self, options: seen.append(dict(options)))
    for options, with_proof in ((None, True), ({"elim": 1}, True), (None, False)):
        with sat._solver("cadical195", [[1, 2], [-1, 2]], options, with_proof=with_proof) as s:
            assert s.solve()
    assert seen == [{"elim": 0, "decompose": 0}, {"elim": 1, "decompose": 0}]


def _cubes_traced(cnf, cubes):
    """One incremental CaDiCaL over ``cubes`` (all unsat), its proof kept as the stage keeps it."""
    from pysat.solvers import Solver

    from solver.pyramid.satproof import ProofTrace

    with Solver(name="cadical195", bootstrap_with=cnf, with_proof=True) as s:
        trace = ProofTrace(s, cnf)
        for cube in cubes:
            assert s.solve(assumptions=cube) is False
            trace.mark(cube)
        return trace.keep()


def test_the_cubes_must_cover_the_question():
    """Cubes split on x1 then x2 (the cover: -x1 from the two halves, then the empty
    clause) check out; with the cube -x1 never asked, or the proof cut short, they do not."""
    from pysat.examples.genhard import PHP

    cnf = PHP(4).clauses
    cubes = [[1, 2], [1, -2], [-1]]
    for compiled in (True, False):
        trace = _cubes_traced(cnf, cubes)
        assert trace.check(compiled=compiled).checked
        trace.close()
        trace = _cubes_traced(cnf, cubes[:2])
        r = trace.check(compiled=compiled)
        assert not r.checked and "neither RUP nor RAT" in r.reason
        trace = _cubes_traced(cnf, cubes)
        cut = trace.marks[0][1]                 # the proof of the first cube only
        trace.marks, trace.size = [(c, min(at, cut)) for c, at in trace.marks], cut
        assert not trace.check(compiled=compiled).checked


def test_the_cover_lemmas_join_split_cubes():
    """All eight clauses on x1..x3 (unsat, but no unit propagates): each of the four cubes
    on x1, x2 is refuted by propagation, and the empty clause follows from their negations
    only through the cover's -x1 and x1 (CaDiCaL's own proofs above reach the empty clause
    before the cover is needed)."""
    from itertools import product

    from solver.pyramid.satproof import cover_lemmas

    cnf = [[a * 1, b * 2, c * 3] for a, b, c in product((1, -1), repeat=3)]
    cubes = [[1, 2], [1, -2], [-1, 2], [-1, -2]]
    negations = [("a", [-l for l in cube]) for cube in cubes]
    assert cover_lemmas(cubes) == [[1], [-1]]
    with_cover = negations + [("a", c) for c in cover_lemmas(cubes)] + [("a", [])]
    assert _both(cnf, with_cover).checked
    assert _both(cnf, negations + [("a", [])]).failed_step == 4


def test_a_satisfiable_question_is_never_checked():
    from solver.pyramid.deal import deal_from_seed
    from solver.pyramid.satproof import check_lost

    r, report = check_lost(deal_from_seed(324), 14, variant="continuous")
    assert r.status == "sat" and r.proof is None and not report.checked and "sat" in report.reason


def _stage_claims(monkeypatch, k):
    """The CLI's analysis stood in for: the SAT stage "proved" no line of ``k`` tiles on
    the deal asked (Continuous 324: 15 is unsat, 14 is sat)."""
    from solver.cli import pyramid as cli
    from solver.pyramid.contract import thoughtful_answer

    def staged(deal, *, variant, limits):
        result, search = thoughtful_answer(deal, variant=variant, limits=limits)
        search.sat, search.sat_k = f"no line places {k} tiles", k
        return result, search

    monkeypatch.setattr(cli, "thoughtful_answer", staged)


def _pyramid(*args):
    from click.testing import CliRunner

    from solver.cli.main import solve as main
    return CliRunner().invoke(main, ["pyramid", "--seed", "324", "--check-proof", *args])


def test_the_cli_checks_a_sat_stage_lost_answer(monkeypatch):
    """``--check-proof``: ``proof_checked`` true on a deal the stage proved lost (the
    analysis stood in for: Continuous 324 at 15 moves), null where no SAT proof is involved."""
    _stage_claims(monkeypatch, 15)
    out = _pyramid("--json")
    assert out.exit_code == 0 and json.loads(out.output)["proof_checked"] is True
    assert "proof: CaDiCaL's DRAT proof checked" in _pyramid().output
    monkeypatch.undo()
    out = _pyramid("--json")
    assert out.exit_code == 0 and json.loads(out.output)["proof_checked"] is None


def test_the_cli_exits_1_when_the_check_fails(monkeypatch):
    """A check asked for and failed is "checked and invalid": exit 1, ``proof_checked``
    false (the analysis stood in for, with a question that is sat: 14 moves on 324)."""
    _stage_claims(monkeypatch, 14)
    out = _pyramid("--json")
    assert out.exit_code == 1 and json.loads(out.output)["proof_checked"] is False
    text = _pyramid()
    assert text.exit_code == 1 and "proof: NOT checked" in text.output


@pytest.mark.slow
def test_wild_dragons_709556_lost_at_25_checked():
    """The stage's largest proof measured: 25 moves, ~460k conflicts (docs/pyramid.md)."""
    from solver.pyramid.deal import deal_from_seed
    from solver.pyramid.satproof import check_lost

    r, report = check_lost(deal_from_seed(709556), 25, variant="wild-dragons")
    assert r.status == "unsat" and report.checked, report
