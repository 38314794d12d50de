"""Notation, melds, seeded deals and the meaning of deficiency."""
from __future__ import annotations

import doctest

import pytest

import solver.continental.analysis
import solver.continental.arrange
import solver.continental.contract
import solver.continental.deficiency
import solver.continental.game
import solver.continental.layoff
import solver.continental.notation
import solver.continental.policies
import solver.continental.render
import solver.continental.round
import solver.continental.rules
import solver.continental.search
from solver.cext import continental as fast
from solver.continental.arrange import best_arrangement
from solver.continental.notation import (
    JOKER, N_KINDS, Pack, format_card, format_hand, hand_from_cards, parse_card, parse_hand,
)
from solver.continental.rules import (
    ROUNDS, deal_hand, is_straight, is_trio, joker_stands_for,
)
from solver.continental.sample import random_play_hand
from solver.errors import InputError


@pytest.mark.parametrize("module", [
    solver.continental.notation, solver.continental.rules, solver.continental.deficiency,
    solver.continental.arrange, solver.continental.search, solver.continental.render,
    solver.continental.analysis, solver.continental.round, solver.continental.layoff,
    solver.continental.game, solver.continental.policies, solver.continental.contract,
])
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0


def test_every_card_round_trips():
    for c in range(N_KINDS):
        assert parse_card(format_card(c)) == c
    assert parse_card("10h") == parse_card("Th") and parse_card("x") == JOKER


@pytest.mark.parametrize("bad", ["1s", "Az", "", "Kss", "XX", "11h"])
def test_unknown_cards_are_input_errors(bad):
    with pytest.raises(InputError):
        parse_card(bad)


def test_copies_are_checked_against_the_pack():
    assert format_hand(parse_hand("Ks Ks X X X", pack=Pack(decks=2, jokers_per_deck=2))) == "Ks Ks X X X"
    with pytest.raises(InputError, match="3 copies of Ks"):
        parse_hand("Ks Ks Ks")
    assert parse_hand("Ks Ks Ks", pack=Pack(decks=3))[parse_card("Ks")] == 3
    with pytest.raises(InputError):
        parse_hand("X X X X X")


def test_deal_vectors():
    # rules/vectors.md
    want = {0: "Js Jd Td As Ah 8h 5h 2h 2h 3s 9s Qs Ad",
            1: "9d 2h Qh 7h 8s 2h 7c Jh 9h As X Th Kc",
            42: "Qh 7h 8c Ks 6c 3s 7s Js Th 6h Qc 4h 5d"}
    for seed, text in want.items():
        assert " ".join(format_card(c) for c in deal_hand(seed, 13)) == text
        assert [format_card(c) for c in fast.deal_hand(seed, 13)] == text.split()


def cards(text):
    return [parse_card(t) for t in text.split()]


def test_melds():
    assert is_trio(cards("Ks Ks Kh"))            # duplicates with two decks
    assert not is_trio(cards("Ks Kh"))
    assert not is_trio(cards("X X X"), joker_limit=False)  # needs a natural
    assert is_trio(cards("Ks X X"), joker_limit=False) and not is_trio(cards("Ks X X"))
    assert is_straight(cards("Js Qs Ks As 2s"))  # wraps through the ace
    assert is_straight(cards("Ks As 2s 3s"))
    assert not is_straight(cards("As 2s 3s 4h"))
    assert not is_straight(cards("As 2s 3s"))
    thirteen = cards("4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s 3s")
    assert is_straight(thirteen) and not is_straight(thirteen + cards("4s"))
    assert is_straight(cards("X 5h 6h X 8h"))
    assert not is_straight(cards("X X X 8h"), joker_limit=True)
    assert is_straight(cards("X X X 8h"), joker_limit=False)
    assert format_card(joker_stands_for(cards("Qh X Ah 2h"), 1)) == "Kh"


def test_contract_at_deficiency_zero_matches_the_arrangement_search():
    """Two independent searches: the kernel's deficiency 0 and an actual arrangement."""
    for rnd in range(1, 8):
        for seed in range(120):
            hand = random_play_hand(seed, rnd)
            d = fast.deficiency(hand, rnd)[0]
            arranged = best_arrangement(hand, rnd)
            assert (d == 0) == (arranged is not None), (rnd, format_hand(hand))
            if arranged:
                melds, left = arranged
                assert len(melds) == ROUNDS[rnd].trios + ROUNDS[rnd].straights
                assert all(is_trio(m) or is_straight(m) for m in melds)


def test_deficiency_is_one_exchange_more_than_the_best_neighbour():
    """The definition: d(H) = 1 + min over one exchange (give g, draw c from the pack) of d."""
    pack = Pack()
    for rnd in range(1, 8):
        for seed in range(6 if rnd > 5 else 12):
            hand = list(random_play_hand(seed, rnd))
            d = fast.deficiency(hand, rnd)[0]
            if d == 0:
                continue
            best = 99
            for c in range(N_KINDS):
                if hand[c] >= pack.copies(c):
                    continue
                hand[c] += 1
                for g in range(N_KINDS):
                    if g != c and hand[g]:
                        hand[g] -= 1
                        best = min(best, fast.deficiency(hand, rnd)[0])
                        hand[g] += 1
                hand[c] -= 1
            assert d == 1 + best, (rnd, format_hand(hand))


def test_known_deficiencies():
    assert fast.deficiency(parse_hand("Ks Kh X 5d 5c 5c 9s"), 1)[0] == 0
    assert fast.deficiency(parse_hand("Ks Kh Kd X X 2c 9s"), 1)[0] == 1
    assert fast.deficiency(parse_hand("Ks Kh Kd X X 2c 9s"), 1, 2, 2, False)[0] == 0
    # three trios of kings need 9 kings; two decks hold 8: one must be a joker
    assert fast.deficiency(parse_hand("Ks Ks Kh Kh Kd Kd Kc Kc 2s 3s"), 4)[0] == 1
    # round 7: three straights wrapping through the ace, one joker
    assert fast.deficiency(parse_hand("Qs Ks As 2s Qh Kh Ah X 5d 6d 7d 8d 9c"), 7)[0] == 0


# ---- hypothesis: the kernel's "meets" against the arrangement search on edge cases ----

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402


@st.composite
def near_contract_hands(draw):
    """Hands built from combination-shaped pieces: many jokers, duplicates, wraps."""
    decks = draw(st.integers(1, 3))
    jpd = draw(st.integers(0, 3))
    pack = Pack(decks=decks, jokers_per_deck=jpd)
    rnd = draw(st.integers(1, 7))
    n = ROUNDS[rnd].cards + draw(st.integers(0, 1))
    hand = [0] * N_KINDS
    count = 0
    while count < n:
        piece = draw(st.sampled_from(["run", "rank", "joker", "any"]))
        if piece == "run":
            s, start, length = draw(st.integers(0, 3)), draw(st.integers(0, 12)), draw(st.integers(2, 13))
            cards_ = [s * 13 + (start + i) % 13 for i in range(length)]
        elif piece == "rank":
            r = draw(st.integers(0, 12))
            cards_ = [draw(st.integers(0, 3)) * 13 + r for _ in range(draw(st.integers(1, 4)))]
        elif piece == "joker":
            cards_ = [JOKER] * draw(st.integers(1, 3))
        else:
            cards_ = [draw(st.integers(0, 52))]
        for c in cards_:
            if count < n and hand[c] < pack.copies(c):
                hand[c] += 1
                count += 1
    return hand, rnd, pack, draw(st.booleans())


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow])
@given(near_contract_hands())
def test_hypothesis_meets_iff_an_arrangement_exists(case):
    hand, rnd, pack, limit = case
    d = fast.deficiency(hand, rnd, pack.decks, pack.jokers_per_deck, limit)[0]
    arranged = best_arrangement(hand, rnd, joker_limit=limit)
    assert (d == 0) == (arranged is not None)
    if arranged:
        for m in arranged[0]:
            assert is_trio(m, joker_limit=limit) or is_straight(m, joker_limit=limit)


def test_improving_cards_against_the_reference():
    from solver.continental.deficiency import deficiency as ref_deficiency
    from solver.continental.search import improving_cards
    pack = Pack()
    for rnd, seed in ((1, 3), (2, 4), (4, 5)):
        hand = list(random_play_hand(seed, rnd))
        base = ref_deficiency(hand, rnd)
        listed = set(improving_cards(hand, rnd))
        for c in range(N_KINDS):
            lowers = False
            if hand[c] < pack.copies(c):
                for g in range(N_KINDS):
                    if g != c and hand[g] and not lowers:
                        h = list(hand)
                        h[c] += 1
                        h[g] -= 1
                        lowers = lowers or ref_deficiency(h, rnd) < base
            assert (c in listed) == lowers, (rnd, format_card(c))


def _is_straight_set(cards, limit):
    """A multiset forms a straight iff some circular window of its size holds its naturals."""
    naturals = [c for c in cards if c != JOKER]
    jokers = len(cards) - len(naturals)
    if not 4 <= len(cards) <= 13 or not naturals or (limit and jokers > len(naturals)):
        return False
    if len({c // 13 for c in naturals}) != 1 or len({c % 13 for c in naturals}) != len(naturals):
        return False
    ranks = {c % 13 for c in naturals}
    return any(all((r - a) % 13 < len(cards) for r in ranks) for a in range(13))


def test_arrangement_is_the_fewest_points_by_brute_force():
    """Rounds 1 and 2: every assignment of cards to the contract's combinations, by brute force."""
    from itertools import product
    from solver.continental.notation import card_points, hand_cards
    checked = 0
    for rnd in (1, 2):
        kinds = ["straight"] * ROUNDS[rnd].straights + ["trio"] * ROUNDS[rnd].trios
        for seed in range(400):
            hand = random_play_hand(seed, rnd)
            arranged = best_arrangement(hand, rnd)
            if arranged is None:
                continue
            cards_ = hand_cards(hand)
            best = None
            for assign in product(range(len(kinds) + 1), repeat=len(cards_)):
                groups = [[c for c, a in zip(cards_, assign) if a == k] for k in range(len(kinds))]
                ok = all(is_trio(g) if kind == "trio" else _is_straight_set(g, True)
                         for kind, g in zip(kinds, groups))
                if ok:
                    left = sum(card_points(c) for c, a in zip(cards_, assign) if a == len(kinds))
                    best = left if best is None else min(best, left)
            assert best == arranged[1], (rnd, format_hand(hand))
            checked += 1
    assert checked >= 10


# ---- the exact analyses of the contract: deal and hand ---------------------------

def test_deal_analysis_takes_its_declared_options():
    # `batch --option round=1` used to be served round-7 rows: round is a declared, typed
    # option, part of the stored key, and the analysis deals the round's own hand.
    from solver.games import get_analysis, run_analysis
    from solver.options import key_suffix, parse_pairs
    spec = get_analysis("continental", "deal")
    assert spec.seeded and spec.kind == "exact"
    assert {o.name for o in spec.options} == {"round", "decks", "jokers_per_deck", "joker_limit"}
    assert parse_pairs(["round=1"], spec.options) == {"round": 1}
    assert key_suffix({"round": 1}, spec.options) == "round=1" and key_suffix({"round": 7}, spec.options) == ""
    for bad in (["round=8"], ["round=0"], ["round=x"], ["decks=9"], ["joker_limit=maybe"]):
        with pytest.raises(InputError):
            parse_pairs(bad, spec.options)
    one = run_analysis("continental", "deal", 5, options={"round": 1})
    seven = run_analysis("continental", "deal", 5)
    assert one.fields["round"] == 1 and len(one.fields["hand"]) == 7
    assert seven.fields["round"] == 7 and len(seven.fields["hand"]) == 13
    assert one.fields["hand"] == seven.fields["hand"][:7]      # the same deal, its first cards


def test_deal_analysis_verdicts_are_the_deficiency():
    from solver.games import run_analysis
    verdicts = set()
    for seed in list(range(30)) + [114, 453]:      # 114 and 453 meet round 1's contract
        r = run_analysis("continental", "deal", seed, options={"round": 1})
        hand = hand_from_cards(deal_hand(seed, 7))
        d = fast.deficiency(hand, 1)[0]
        assert r.fields["deficiency"] == d and r.verdict == ("won" if d == 0 else "lost")
        assert set(r.to_dict()) == {"verdict", "limit", "nodes", "seconds", "line", "round", "hand", "deficiency"}
        verdicts.add(r.verdict)
    assert verdicts == {"won", "lost"}
    r = run_analysis("continental", "deal", 3, options={"round": 1, "decks": 3, "jokers_per_deck": 0,
                                                         "joker_limit": False})
    pack = Pack(decks=3, jokers_per_deck=0)
    assert r.fields["deficiency"] == fast.deficiency(hand_from_cards(deal_hand(3, 7, pack=pack)), 1, 3, 0, False)[0]


def test_every_analysis_honours_the_node_limit():
    # run_batch(..., node_limit=1000) used to be ignored by Continental.
    from solver.batch import answer_row
    from solver.continental.contract import HARD_SEED
    from solver.game import Limits
    from solver.games import run_analysis
    for name in ("deal", "hand"):
        r = run_analysis("continental", name, HARD_SEED, limits=Limits(node_limit=1000))
        assert (r.verdict, r.limit, r.fields["deficiency"]) == ("unknown", "nodes", None), name
        assert r.nodes == 1000
        t = run_analysis("continental", name, HARD_SEED, limits=Limits(time_limit=1e-9))
        assert (t.verdict, t.limit) == ("unknown", "time"), name
    row = answer_row("continental", "deal", HARD_SEED, limits=Limits(node_limit=1000))
    assert row["verdict"] == "unknown" and row["limit"] == "nodes"
    full = run_analysis("continental", "deal", HARD_SEED)
    assert full.verdict == "lost" and full.fields["deficiency"] == 6 and full.nodes == 75995


def test_run_batch_stores_unknown_under_a_node_limit(tmp_path):
    from solver.batch import run_batch
    from solver.continental.contract import HARD_SEED
    from solver.seeds import parse_range
    summary = run_batch(db=str(tmp_path / "r.sqlite"), game="continental", analysis="deal",
                        ranges=[parse_range(f"{HARD_SEED}-{HARD_SEED}")], workers=1, node_limit=1000,
                        progress=False)
    assert summary.done == 1 and summary.verdicts == {"unknown": 1}


def test_hand_analysis_keys_and_words_whatever_the_verdict():
    from solver.continental.search import FIELDS, analyse_hand
    from solver.game import Limits
    cases = [("As 2s 3s 4s Kh Kd X 9c", 2, Limits(), "won"),
             ("As 2s 3s 4s Kh Kd 7c 9d", 2, Limits(), "lost"),
             ("As 2s 3s 4s Kh Kd X 9c", 2, Limits(node_limit=1), "unknown")]
    for text, rnd, limits, verdict in cases:
        r = analyse_hand(parse_hand(text), rnd, limits=limits)
        assert r.verdict == verdict and set(r.fields) == set(FIELDS)
        assert (r.limit is None) == (verdict != "unknown")
        if verdict == "unknown":
            assert r.limit == "nodes" and r.fields["points_left"] is None and r.fields["melds"] is None


def test_limited_deficiency_agrees_with_the_full_search():
    from solver.continental.search import limited_deficiency
    pack = Pack()
    for rnd in (1, 4, 7):
        for seed in range(40):
            hand = random_play_hand(seed, rnd)
            d, nodes = fast.deficiency(hand, rnd)
            assert limited_deficiency(hand, rnd, pack=pack, joker_limit=True) == (d, nodes, None)
            if nodes > 1:
                got, spent, stopped = limited_deficiency(hand, rnd, pack=pack, joker_limit=True,
                                                         node_limit=nodes - 1)
                # stopped one node short: unknown, unless an arrangement costing 0 was reached
                assert spent == nodes - 1
                assert (got, stopped) == ((0, None) if d == 0 and got == 0 else (None, "nodes"))
            assert limited_deficiency(hand, rnd, pack=pack, joker_limit=True, node_limit=nodes) == (d, nodes, None)


def test_hand_analysis_under_a_time_limit_restarts_the_arrangement_search_honestly():
    # the arrangement search has no clock: under a time limit it runs with doubling node
    # budgets, so it needs more nodes than one unlimited run but finds the same answer
    from solver.continental.search import analyse_hand
    from solver.game import Limits
    hand = parse_hand("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks X 2h")
    plain = analyse_hand(hand, 7, limits=Limits())
    timed = analyse_hand(hand, 7, limits=Limits(time_limit=600))
    assert plain.verdict == timed.verdict == "won" and plain.fields == timed.fields
    assert timed.nodes > plain.nodes
    capped = analyse_hand(hand, 7, limits=Limits(time_limit=600, node_limit=5000))
    assert (capped.verdict, capped.limit, capped.fields["deficiency"]) == ("unknown", "nodes", 0)
