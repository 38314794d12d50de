"""Pyramid under the one contract: the state, the notation, the analyses, their limits and keys."""
import pytest

from solver.errors import InputError
from solver.game import Game, Limits, State
from solver.games import get_analysis, get_game, make_game, run_analysis
from solver.pyramid import contract
from solver.pyramid.rules import IllegalMove, Move, Pyramid, PyramidState, parse_move
from solver.pyramid.search import DEFAULT_NODE_LIMIT, DEFAULT_TABLE_MB, DEFAULT_TIME_LIMIT
from solver.rng import SplitMix64

ANALYSES = ["thoughtful", "blind:greedy", "blind:lookahead"]
KEYS = ["verdict", "limit", "nodes", "seconds", "line", "placed", "deepest", "longest_exact", "slots", "table_entries",
        "table_bytes", "search_seconds"]


def test_the_registry_entry():
    entry = get_game("pyramid")
    assert entry is contract.ENTRY and entry.players == (1, 1)
    assert entry.variants == ("continuous", "wild-dragons") and entry.default_variant == "continuous"
    assert [a.name for a in entry.analyses] == ANALYSES             # the stored names stay valid
    assert set(entry.policies) == {"greedy", "lookahead"}
    game = make_game("pyramid", variant="wild-dragons")
    assert isinstance(game, Game) and game.num_players == 1 and game.variant == "wild-dragons"
    with pytest.raises(InputError):
        make_game("pyramid", variant="easy")
    with pytest.raises(InputError):
        make_game("pyramid", players=2)


def test_default_limits_are_the_searchs():
    assert get_analysis("pyramid", "thoughtful").default_limits == Limits(
        DEFAULT_NODE_LIMIT, DEFAULT_TIME_LIMIT, DEFAULT_TABLE_MB)
    assert get_analysis("pyramid", "blind:greedy").default_limits == Limits()


def test_state_is_the_reference_state():
    state = Pyramid().new_initial_state(42)
    assert isinstance(state, State) and isinstance(state, PyramidState)
    assert state.current_player() == 0 and not state.is_terminal() and state.returns() == [0.0]
    assert state.game.deal.seed == 42 and state.winner() is None


def test_notation_round_trips_and_bad_text_is_input_error():
    state = Pyramid().new_initial_state(7)
    rng = SplitMix64(7)
    for _ in range(60):
        moves = state.legal_moves()
        for m in moves:
            assert state.parse_move(state.format_move(m)) == m
        state.apply(moves[rng.below(len(moves))])
        if state.is_terminal():
            break
    for bad in ("", "5D", "5D@", "@1e5", "QQ@1e5", "5D@1a1", "5D@5e5", None, 17):
        with pytest.raises(InputError):
            state.parse_move(bad)


def test_illegal_moves_raise_input_error():
    state = Pyramid().new_initial_state(42)
    with pytest.raises(IllegalMove, match="not in the reserves"):
        state.apply(parse_move("GD@1e5"))
    with pytest.raises(InputError, match="not open"):
        state.apply(Move(state.reserve[0], 0))
    for junk in ("1B@1e5", (0, 76), Move(99, 0), Move(0, 500), Move(-1, 0), None):
        with pytest.raises(InputError):
            state.apply(junk)
    assert state.placed == 0                       # nothing was played


def test_clone_is_independent():
    state = Pyramid().new_initial_state(1)
    state.apply(state.legal_moves()[0])
    copy = state.clone()
    copy.apply(copy.legal_moves()[0])
    assert state.placed == 1 and copy.placed == 2
    assert state.board != copy.board and state.reserve is not copy.reserve


@pytest.mark.parametrize("variant", ["continuous", "wild-dragons"])
def test_reference_check_agrees_along_random_games(variant):
    game = Pyramid(variant)
    for seed in (1, 2, 3, 12):
        state = game.new_initial_state(seed)
        rng = SplitMix64(seed)
        contract.reference_check(state)
        while not state.is_terminal():
            moves = state.legal_moves()
            state.apply(moves[rng.below(len(moves))])
            contract.reference_check(state)


def test_reference_check_can_fail():
    state = Pyramid().new_initial_state(1)
    state.apply(state.legal_moves()[0])
    state.reserve = [None] * 9                     # a state the rules never make
    with pytest.raises(AssertionError):
        contract.reference_check(state)


def test_hard_instance_gives_unknown_nodes():
    assert contract.HARD_SEED == 7260
    r = contract.hard_instance(Limits(node_limit=1000))
    assert r.verdict == "unknown" and r.limit == "nodes" and r.nodes <= 1001
    # 7260 takes ~25 ms of the main search (the tail search loses it in 83 nodes): the main search
    # reads its clock every 1,024 nodes, by then the microsecond is spent and the tail gets no time
    r = contract.hard_instance(Limits(time_limit=1e-6, node_limit=10 ** 12))
    assert r.verdict == "unknown" and r.limit == "time"


@pytest.mark.parametrize("analysis", ANALYSES)
def test_every_answer_has_the_same_keys(analysis):
    """The answers of one analysis, and of all three, carry the same keys whatever the
    verdict (the blind analyses had no search_seconds or table_entries)."""
    seen = {}
    for seed, limits in ((42, None), (12, None), (7260, Limits(node_limit=50)), (1, Limits(node_limit=50))):
        r = run_analysis("pyramid", analysis, seed, limits=limits)
        seen[r.verdict] = list(r.to_dict())
    assert "unknown" in seen and len(seen) >= 2
    for keys in seen.values():
        assert keys == KEYS


def test_thoughtful_fields():
    won = run_analysis("pyramid", "thoughtful", 42)
    assert won.verdict == "won" and len(won.line) == 144 and len(won.fields["slots"]) == 144
    assert won.fields["placed"] == won.fields["deepest"] == 144 and won.fields["search_seconds"] <= won.seconds
    lost = run_analysis("pyramid", "thoughtful", 12)
    assert lost.verdict == "lost" and lost.line == [] and lost.fields["slots"] is None
    assert lost.fields["placed"] == lost.fields["deepest"] < 144
    blind = run_analysis("pyramid", "blind:greedy", 42)
    assert blind.fields["table_entries"] is None and blind.fields["search_seconds"] is None


def test_thoughtful_honours_each_limit():
    assert run_analysis("pyramid", "thoughtful", 7260, limits=Limits(node_limit=1000)).limit == "nodes"
    timed = run_analysis("pyramid", "thoughtful", 7260, limits=Limits(node_limit=10 ** 12, time_limit=1e-6))
    assert timed.limit == "time" and timed.fields["search_seconds"] < 1
    small = run_analysis("pyramid", "thoughtful", 95, limits=Limits(table_mb=0.01))
    assert small.verdict == "won" and small.fields["table_bytes"] <= 0.01 * 2 ** 20
    big = run_analysis("pyramid", "thoughtful", 95)
    assert big.fields["table_bytes"] > 0.01 * 2 ** 20


def test_the_variant_reaches_every_analysis():
    """Deal 1's Continuous solution uses a wind next to a season; Wild Dragons solves it another way."""
    for analysis in ANALYSES:
        a = run_analysis("pyramid", analysis, 1, variant="continuous")
        b = run_analysis("pyramid", analysis, 1, variant="wild-dragons")
        assert a.line != b.line, analysis


@pytest.mark.parametrize("analysis", ANALYSES)
def test_analyses_depend_on_the_seed(analysis):
    assert get_analysis("pyramid", analysis).seeded
    lines = {tuple(run_analysis("pyramid", analysis, seed).line) for seed in (1, 4, 5)}
    assert len(lines) == 3


def test_playout_analysis_through_the_registry():
    out = run_analysis("pyramid", "playout", 5, options={"policies": ["random"]})
    assert out.finished and out.fields["policies"] == ["random"] and len(out.scores) == 1
    again = run_analysis("pyramid", "playout", 5, options={"policies": ["random"]})
    assert again.line == out.line
    greedy = run_analysis("pyramid", "playout", 5)             # the default seat: greedy
    assert greedy.fields["policies"] == ["greedy"]
