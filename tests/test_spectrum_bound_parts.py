"""The parts of Spectrum's lower bound, each against a plain definition,
and the whole bound against exact breadth-first distances off the optimal line."""
import itertools
import random

import pytest

from solver.cext import spectrum as fast
from solver.spectrum import refsearch as ref
from solver.spectrum.rules import Game, Move

N = 12


def test_exchange_table_matches_the_rules_receipts():
    """Kernel table and twin agree with a direct search over the rules' own
    receipts (rules._receipts: every legal received set for a given set)."""
    from solver.spectrum.rules import _receipts
    rnd = random.Random(5)
    for _ in range(3000):
        deficit = tuple(rnd.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(3))
        stock = tuple(rnd.randrange(5) for _ in range(3))
        direct = False
        for give in itertools.product(*(range(n + 1) for n in stock)):
            total = give[0] + 2 * give[1] + 3 * give[2]
            if total and any(all(r[s] >= deficit[s] and r[s] <= 4 for s in range(3))
                             for r in _receipts(total, give)):
                direct = True
                break
        assert fast.py_exchange_makes(deficit, stock) == ref.exchange_makes(deficit, stock) == direct


def _valid_sources(mask, deficits):
    """Every run of consecutive source colours touches a deficit colour."""
    if mask == (1 << N) - 1:
        return bool(deficits)
    for c in range(N):
        if (mask >> c) & 1 and not (mask >> ((c - 1) % N)) & 1:      # a run starts at c
            end = c
            while (mask >> ((end + 1) % N)) & 1:
                end = (end + 1) % N
            run = {(c + i) % N for i in range((end - c) % N + 1)}
            touch = run | {(c - 1) % N, (end + 1) % N}
            if not touch & deficits:
                return False
    return True


def _flow_brute_force(residual, deficits):
    far = {c for c in range(N) if not ({c, (c - 1) % N, (c + 1) % N} & deficits)}
    fa, fc = [ref.INFEASIBLE] * 7, [ref.INFEASIBLE] * 7
    for mask in range(1 << N):
        if not _valid_sources(mask, deficits):
            continue
        kept = sum(residual[c] for c in range(N) if not (mask >> c) & 1)
        size = bin(mask).count("1")
        nfar = sum(1 for c in far if (mask >> c) & 1)
        for b in range(min(kept, 7), 7):
            if kept <= b:
                fa[b], fc[b] = min(fa[b], size), min(fc[b], nfar)
    return fa, fc


def test_flow_tables_match_brute_force_over_every_source_set():
    rnd = random.Random(11)
    for _ in range(60):
        residual = [rnd.choice((0, 0, 0, 1, 2, 3, 4)) for _ in range(N)]
        deficits = {c for c in range(N) if rnd.random() < 0.25}
        want = _flow_brute_force(residual, deficits)
        assert ref.flow_turns(residual, deficits) == want
        assert fast.py_flow_tables(residual, deficits) == want


def _sequences_of(st, rt):
    for j in range(1, ref.KCAP + 1):
        for req, _goals in ref._requirements(rt, 0, j):
            yield j, list(req)


def _random_positions(seeds, *, salt, fewest, most):
    """Unfinished solitaire positions a few random moves from each seeded start."""
    rnd = random.Random(salt)
    for seed in seeds:
        st = Game(1, seed).new_state()
        for _ in range(rnd.randrange(fewest, most)):
            st.apply(rnd.choice(st.legal_moves()))
            if st.is_terminal():
                break
        if not st.is_terminal():
            yield st


def test_leaf_evaluation_matches_twin_for_every_goal_sequence():
    """Leaf by leaf, not only the minimum over leaves."""
    compared = 0
    for st in _random_positions(range(1, 13), salt=3, fewest=2, most=10):
        stash = tuple(st.stashes[0])
        value = sum(stash[i] * (i % 3 + 1) for i in range(36))
        rt = ref.GoalTreeRef(st.goals, st.bags, st.rng.state)
        for j, req in _sequences_of(st, rt):
            for m in range(max(j, (value - 1) // 6), j + 2):
                for ups in (ref.UP_ANY, ref.UP_NONE, ref.UP_SOME):
                    got = fast.py_leaf_eval(stash, req, value, m, m - j, 6, ups)
                    assert got == ref.leaf_eval(stash, req, value, m, m - j, 6, ups), (stash, req, m, ups)
                    compared += 1
    assert compared > 6000


def test_bounds_for_each_kind_of_plan_match_twin_and_order():
    """Plans without upconversions, or with some, are fewer than all plans:
    their bounds are never below the bound for every plan."""
    for st in _random_positions(range(20, 32), salt=8, fewest=1, most=8):
        stash = tuple(st.stashes[0])
        tree = fast.GoalTree(st.goals, st.bags, st.rng.state)
        rt = ref.GoalTreeRef(st.goals, st.bags, st.rng.state)
        got = [fast.py_lower_bound(stash, st.direction, tree, 0, 6, ups) for ups in range(3)]
        want = [ref.lower_bound(stash, rt, 0, direction=st.direction, ups=ups) for ups in range(3)]
        assert got == want
        assert min(got[1], got[2]) >= got[0]


def _near_end_positions(seed, left):
    """The position ``left`` turns before the end of an optimal plan and every child of it."""
    start = Game(1, seed).new_state()
    res = fast.ida_min_turns(start.stashes[0], start.direction,
                             fast.GoalTree(start.goals, start.bags, start.rng.state))
    st = start.clone()
    for code in res["plan"][:res["turns"] - left]:
        st.apply(Move.from_code(code))
    yield st
    for move in st.legal_moves():
        child = st.clone()
        child.apply(move)
        if not child.is_terminal():
            yield child


@pytest.mark.parametrize("seed", [3, 9, 27])
def test_bound_never_exceeds_the_exact_distance_off_the_optimal_line(seed):
    """Admissibility where the new counts bite: positions three turns from the
    end and all their children, against breadth-first search (no bound used)."""
    checked = 0
    for st in _near_end_positions(seed, 3):
        stash = tuple(st.stashes[0])
        tree = fast.GoalTree(st.goals, st.bags, st.rng.state)
        lb = fast.py_lower_bound(stash, st.direction, tree)
        bfs = fast.bfs_reach(stash, st.direction, tree, value_max=6, max_turns=4,
                             max_states=3_000_000)
        if bfs["status"] == "found":          # (beyond 4 turns: nothing exact to compare with)
            assert lb <= bfs["turns"], (seed, stash, st.direction)
            checked += 1
    assert checked >= 8                       # exact distances, not just positions seen
