"""The compiled engine against the reference, on positions reached by seeded random play."""
from solver.cext import spectrum as fast
from solver.rng import SplitMix64
from solver.spectrum import refsearch as ref
from solver.spectrum.rules import Game, Move


def random_positions(n_games, turns, *, first_seed=1):
    """Solitaire states along seeded random games (moves chosen by SplitMix64)."""
    for seed in range(first_seed, first_seed + n_games):
        st = Game(1, seed).new_state()
        pick = SplitMix64(seed * 7919 + 1)
        for _ in range(turns):
            if st.is_terminal():
                break
            yield st
            moves = st.legal_moves()
            st.apply(moves[pick.below(len(moves))])


def test_successors_match_reference_rules():
    checked = 0
    for st in random_positions(20, 30):
        tree = fast.GoalTree(st.goals, st.bags, st.rng.state)
        got = fast.successors(st.stashes[0], st.direction, tree)
        want = []
        for move in st.legal_moves():
            nxt = st.clone()
            nxt.apply(move)
            want.append((move.code(), tuple(nxt.stashes[0]), nxt.direction, nxt.goals,
                         nxt.winner is not None))
        assert [g[0] for g in got] == [w[0] for w in want]
        for (code, stash, d, node, won), w in zip(got, want):
            assert (stash, d, tree.goals(node), won) == (w[1], w[2], [tuple(g) for g in w[3]], w[4])
            assert Move.from_code(code).code() == code
        checked += len(got)
    assert checked > 2000


def test_goal_tree_matches_reference_draws():
    for st in random_positions(20, 30):
        tree = fast.GoalTree(st.goals, st.bags, st.rng.state)
        rt = ref.GoalTreeRef(st.goals, st.bags, st.rng.state)
        path = [(0, 0)]
        for slot in (2, 0, 0, 1, 2):
            a, b = tree.py_child(path[-1][0], slot), rt.child(path[-1][1], slot)
            assert tree.goals(a) == [tuple(g) for g in rt.goals[b]]
            assert tree.bags(a) == rt.bags[b] and tree.rng_state(a) == rt.rng[b]
            path.append((a, b))


def test_lower_bound_and_hash_match_reference():
    seen = {}
    for st in random_positions(12, 25):
        tree = fast.GoalTree(st.goals, st.bags, st.rng.state)
        rt = ref.GoalTreeRef(st.goals, st.bags, st.rng.state)
        stash = tuple(st.stashes[0])
        assert fast.py_lower_bound(stash, st.direction, tree) == ref.lower_bound(stash, rt, 0, direction=st.direction)
        assert fast.unpack_words(*fast.pack(stash)) == stash
        h = fast.state_hash(stash, st.direction, 0)
        assert h == fast.state_hash(list(stash), st.direction, 0)
        seen.setdefault(h, set()).add((stash, st.direction))
    assert sum(len(v) for v in seen.values()) == len(seen)


def test_reference_successors_twin():
    for st in random_positions(10, 20, first_seed=500):
        tree = fast.GoalTree(st.goals, st.bags, st.rng.state)
        rt = ref.GoalTreeRef(st.goals, st.bags, st.rng.state)
        got = [(c, s, d, tree.goals(n), w) for c, s, d, n, w in
               fast.successors(st.stashes[0], st.direction, tree)]
        want = [(m.code(), s, d, [tuple(g) for g in rt.goals[n]], w) for m, s, d, n, w in
                ref.successors(st.stashes[0], st.direction, rt, 0)]
        assert got == want


def test_bfs_and_ida_agree_with_reference_near_the_end():
    """Positions 1-2 turns before the end of optimal plans: both searches, both engines."""
    compared = 0
    for seed in (1, 4, 10):
        start = Game(1, seed).new_state()
        plan = fast.ida_min_turns(start.stashes[0], start.direction,
                                  fast.GoalTree(start.goals, start.bags, start.rng.state))["plan"]
        for cut in (1, 2):
            st = start.clone()
            for code in plan[:len(plan) - cut]:
                st.apply(Move.from_code(code))
            stash = tuple(st.stashes[0])
            tree = fast.GoalTree(st.goals, st.bags, st.rng.state)
            rt = ref.GoalTreeRef(st.goals, st.bags, st.rng.state)
            fb = fast.bfs_reach(stash, st.direction, tree, value_max=6, max_turns=cut)
            rb = ref.bfs_reach(stash, st.direction, rt, value_max=6, max_turns=cut)
            assert (fb["status"], fb.get("turns")) == (rb["status"], rb.get("turns"))
            fi = fast.ida_min_turns(stash, st.direction, tree, max_turns=cut)
            ri = ref.ida_min_turns(stash, st.direction, rt, max_turns=cut)
            assert (fi["status"], fi.get("turns")) == (ri["status"], ri.get("turns")) == ("found", cut)
            assert fb["turns"] == cut
            compared += 1
    assert compared == 6


def _plan_positions(seed):
    """Every position along a minimum-turn plan, with the turns left."""
    start = Game(1, seed).new_state()
    res = fast.ida_min_turns(start.stashes[0], start.direction,
                             fast.GoalTree(start.goals, start.bags, start.rng.state))
    st = start.clone()
    for i, code in enumerate(res["plan"]):
        yield st.clone(), res["turns"] - i
        st.apply(Move.from_code(code))


def test_lower_bound_is_admissible_along_optimal_plans_and_matches_twin():
    """The bound never exceeds the turns an optimal plan still needs, and the
    two engines agree on it (positions of every value, down to the last turn)."""
    checked = 0
    for seed in (1, 2, 4, 5, 10, 12):
        for st, left in _plan_positions(seed):
            stash = tuple(st.stashes[0])
            tree = fast.GoalTree(st.goals, st.bags, st.rng.state)
            rt = ref.GoalTreeRef(st.goals, st.bags, st.rng.state)
            lb = fast.py_lower_bound(stash, st.direction, tree)
            assert lb == ref.lower_bound(stash, rt, 0, direction=st.direction)
            assert 1 <= lb <= left
            checked += 1
    assert checked >= 40


def test_commutation_pruning_keeps_the_minimum():
    """IDA* with commutation pruning (both engines) against plain BFS (no
    pruning at all) from positions three turns before the end."""
    for seed in (1, 4, 10):
        positions = list(_plan_positions(seed))
        st, left = positions[-3]
        stash = tuple(st.stashes[0])
        tree = fast.GoalTree(st.goals, st.bags, st.rng.state)
        rt = ref.GoalTreeRef(st.goals, st.bags, st.rng.state)
        bfs = fast.bfs_reach(stash, st.direction, tree, value_max=6, max_turns=left)
        fi = fast.ida_min_turns(stash, st.direction, tree, max_turns=left)
        ri = ref.ida_min_turns(stash, st.direction, rt, max_turns=left)
        assert bfs["turns"] == fi["turns"] == ri["turns"] == left


def test_tables_change_speed_not_answers():
    """The transposition table and the cache of static cuts only save work:
    tiny tables (constant collisions and evictions) and the default ones give
    the same minimum turns, equal to plain BFS four turns before the end."""
    for seed in (2, 5, 12):
        st = Game(1, seed).new_state()
        args = (tuple(st.stashes[0]), st.direction)
        turns = {bits: fast.ida_min_turns(*args, fast.GoalTree(st.goals, st.bags, st.rng.state),
                                          tt_bits=bits)["turns"] for bits in (4, 8, 20)}
        assert len(set(turns.values())) == 1, (seed, turns)
    st, left = list(_plan_positions(3))[-4]
    stash = tuple(st.stashes[0])
    tree = fast.GoalTree(st.goals, st.bags, st.rng.state)
    bfs = fast.bfs_reach(stash, st.direction, tree, value_max=6, max_turns=left)
    for bits in (4, 20):
        assert fast.ida_min_turns(stash, st.direction, tree, tt_bits=bits)["turns"] == bfs["turns"] == left
