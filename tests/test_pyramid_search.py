"""The exact solver: honest verdicts, verified solutions, limits, memory bound."""
import pytest

from solver.cext import pyramid as fast
from solver.pyramid.check import check_solution
from solver.pyramid.deal import deal_from_seed
from solver.pyramid.search import VARIANT_CODES, deal_kinds, solve

VARIANTS = sorted(VARIANT_CODES)
HARD_LOST = 7260    # continuous: lost, but only after 120k nodes


@pytest.mark.parametrize("variant", VARIANTS)
def test_won_solutions_replay_and_win(variant):
    won = 0
    for seed in range(1, 31):
        result = solve(deal_from_seed(seed), variant=variant)
        assert result.verdict in ("won", "lost")
        if result.verdict == "won":
            won += 1
            assert len(result.moves) == 144 and len(result.slots) == 144
            assert check_solution(deal_from_seed(seed), [str(m) for m in result.moves], variant=variant).valid
            assert all(1 <= s <= 9 for s in result.slots)
        else:
            assert result.moves == []
    assert 10 < won < 30


@pytest.mark.parametrize("variant", VARIANTS)
def test_lost_verdicts_agree_with_plain_exhaustive_search(variant):
    """The two relaxation cuts never turn a won deal into a lost one: where a
    search with no cuts (and no restarts) finishes, it reaches the same verdict."""
    compared = 0
    for seed in range(1, 200):
        kinds = deal_kinds(deal_from_seed(seed))
        with_cuts = fast.solve_kinds(kinds, variant=VARIANT_CODES[variant])
        if with_cuts["verdict"] != "lost":
            continue
        plain = fast.solve_kinds(kinds, variant=VARIANT_CODES[variant], cuts=False, first_round=0,
                                 node_limit=100_000)
        if plain["verdict"] != "unknown":
            assert plain["verdict"] == "lost", seed
            compared += 1
    assert compared >= 15


def test_node_limit_gives_unknown_never_lost():
    result = solve(deal_from_seed(HARD_LOST), node_limit=2000)
    assert result.verdict == "unknown" and result.limit == "nodes"
    assert result.nodes <= 2001 and result.moves == []


def test_time_limit_gives_unknown():
    result = solve(deal_from_seed(HARD_LOST), node_limit=0, time_limit=0.002)   # it takes ~25 ms
    assert result.verdict == "unknown" and result.limit == "time"
    assert result.seconds < 1.0


def test_restarts_do_not_change_verdicts():
    for seed in range(1, 40):
        kinds = deal_kinds(deal_from_seed(seed))
        a = fast.solve_kinds(kinds, variant=1)
        b = fast.solve_kinds(kinds, variant=1, first_round=0)
        assert a["verdict"] == b["verdict"], seed


@pytest.mark.parametrize("table_mb", [0, 0.01, 1])
def test_table_is_bounded_and_optional(table_mb):
    result = solve(deal_from_seed(95), table_mb=table_mb)
    assert result.verdict == "won"
    assert result.table_bytes <= table_mb * 2**20
    assert result.table_entries * 98 <= result.table_bytes


def test_hard_deal_with_table_stays_exact():
    """A deal needing many nodes: the verdict is proven and the table stays in its bound."""
    result = solve(deal_from_seed(6058), table_mb=16)
    assert result.verdict == "lost" and result.table_bytes <= 16 * 2**20


def test_tampered_solution_is_rejected():
    deal = deal_from_seed(42)
    moves = [str(m) for m in solve(deal).moves]
    moves[10], moves[11] = moves[11], moves[10]
    bad = moves[:9] + ["5D@4e5"] + moves[10:]
    report = check_solution(deal, bad)
    assert not report.valid and report.error_index == 10 and "5D@4e5" in report.error
    short = check_solution(deal, [str(m) for m in solve(deal).moves][:100])
    assert not short.valid and "stops after 100 moves" in short.error


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_cuts_never_fire_on_a_winning_line(variant):
    """Every position along a won line can still be won: neither relaxation (the
    dragons' sockets counted, or the hole matching) may call it dead.  The lines
    are the blind players' wins, found without the cuts."""
    from solver.pyramid.blind import Greedy, Lookahead, play
    checked = 0
    for seed in range(1, 45):
        deal = deal_from_seed(seed)
        for player in (Greedy(), Lookahead()):
            game = play(deal, player, variant=variant)
            if game.verdict != "won":
                continue
            engine = fast.Engine(deal_kinds(deal), variant=VARIANT_CODES[variant])
            for kind, pos in game.moves[:-1]:
                engine.make(kind, pos)
                assert engine.can_finish_relaxed() and engine.holes_matchable(), (seed, engine.placed)
                checked += 1
    assert checked > 5_000
