"""The compiled kernel against the pure-Python reference, on many random hands."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from solver.cext import continental as fast
from solver.continental.deficiency import deficiency_search
from solver.continental.notation import JOKER, N_KINDS, Pack, make_card
from solver.continental.rules import ROUNDS, deal_hand
from solver.continental.sample import random_play_hand

# hands per round in the default run: the reference is slower on the straight rounds
COUNTS = {1: 1200, 2: 300, 3: 250, 4: 800, 5: 200, 6: 120, 7: 100}


def both(hand, rnd, pack=Pack(), limit=True):
    ref = deficiency_search(hand, rnd, pack=pack, joker_limit=limit)
    got = fast.deficiency(hand, rnd, pack.decks, pack.jokers_per_deck, limit)
    return ref, tuple(got)


@pytest.mark.parametrize("rnd", range(1, 8))
def test_random_play_hands_agree(rnd):
    lowest = 99
    for seed in range(COUNTS[rnd]):
        hand = random_play_hand(seed, rnd)
        ref, got = both(hand, rnd)
        assert ref == got, (seed, rnd, hand)
        lowest = min(lowest, ref[0])
    assert lowest <= 1  # the sample reaches hands at or next to the contract


@pytest.mark.parametrize("decks,jpd,limit", [(2, 3, True), (3, 2, False), (1, 0, True), (2, 2, False)])
def test_other_packs_and_switch_agree(decks, jpd, limit):
    pack = Pack(decks=decks, jokers_per_deck=jpd)
    for rnd in range(1, 8):
        for seed in range(25 if rnd < 6 else 8):
            hand = random_play_hand(seed, rnd, pack=pack, joker_limit=limit)
            assert both(hand, rnd, pack, limit)[0] == both(hand, rnd, pack, limit)[1], (seed, rnd)


def test_compiled_deal_matches_reference():
    for seed in (0, 1, 42, 2**64 - 1, 12345):
        for decks, jpd in ((2, 2), (3, 3)):
            pack = Pack(decks=decks, jokers_per_deck=jpd)
            assert fast.deal_hand(seed, 13, decks, jpd) == deal_hand(seed, 13, pack=pack)


def test_odds_histogram_is_the_per_deal_deficiency():
    for rnd in (1, 2, 7):
        hist = fast.odds_histogram(rnd, 1000, 40)
        want = [0] * len(hist)
        for k in range(40):
            h = [0] * N_KINDS
            for c in deal_hand(1000 + k, ROUNDS[rnd].cards):
                h[c] += 1
            want[fast.deficiency(h, rnd)[0]] += 1
        assert hist == want


# ---- hypothesis: many jokers, duplicates, wraps through the ace, long straights ----

def _hand_strategy(max_decks=3):
    @st.composite
    def build(draw):
        decks = draw(st.integers(1, max_decks))
        jpd = draw(st.integers(0, 3))
        rnd = draw(st.integers(1, 7))
        n = ROUNDS[rnd].cards + draw(st.integers(0, 2))
        hand = [0] * N_KINDS
        style = draw(st.sampled_from(["jokers", "duplicates", "wrap", "long", "mixed"]))
        suit = draw(st.integers(0, 3))
        pool = []
        if style == "jokers":
            pool = [JOKER] * (decks * jpd)
        elif style == "wrap":
            pool = [make_card(suit, r) for r in (10, 11, 12, 0, 1, 2)] * decks
        elif style == "long":
            pool = [make_card(suit, r) for r in range(13)]
        elif style == "duplicates":
            r = draw(st.integers(0, 12))
            pool = [make_card(s, r) for s in range(4)] * decks
        extra = draw(st.lists(st.integers(0, 52), min_size=n, max_size=n))
        cards = draw(st.permutations(pool)) if pool else []
        count = 0
        for c in list(cards) + extra:
            if count == n:
                break
            cap = decks * jpd if c == JOKER else decks
            if hand[c] < cap:
                hand[c] += 1
                count += 1
        limit = draw(st.booleans())
        return hand, rnd, Pack(decks=decks, jokers_per_deck=jpd), limit
    return build()


@settings(max_examples=150, deadline=None)
@given(_hand_strategy())
def test_hypothesis_edge_cases_agree(case):
    hand, rnd, pack, limit = case
    ref, got = both(hand, rnd, pack, limit)
    assert ref == got


@pytest.mark.slow
@pytest.mark.parametrize("rnd", range(1, 8))
def test_many_more_hands_agree(rnd, request):
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("a long sweep: select with -m slow")
    for seed in range(10_000, 10_000 + 5 * COUNTS[rnd]):
        hand = random_play_hand(seed, rnd)
        ref, got = both(hand, rnd)
        assert ref == got, (seed, rnd, hand)


def test_batch_kernel_matches_single_calls():
    hands = [random_play_hand(seed, 5) for seed in range(200)]
    rows = memoryview(bytearray(b"".join(bytes(h) for h in hands))).cast("B", (200, 53))
    assert fast.deficiency_batch(rows, 5) == [fast.deficiency(h, 5)[0] for h in hands]
