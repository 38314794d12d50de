"""Random hands reached by seeded random play (for differential tests and benchmarks).

A hand starts as the dealt hand of a seeded deal and then takes a few turns of
play: draw the next stock card, give up a card.  Half the turns keep a card
that lowers the deficiency when one exists, so the sample covers hands near the
contract (deficiency 0 and 1) as well as raw deals.
"""
from __future__ import annotations

from typing import List

from solver.cext import continental as fast
from solver.continental.notation import N_KINDS, Pack
from solver.continental.rules import ROUNDS, deal_order
from solver.rng import SplitMix64


def random_play_hand(seed: int, round_number: int, *, pack: Pack = Pack(),
                     joker_limit: bool = True) -> List[int]:
    rnd = ROUNDS[round_number]
    order = deal_order(seed, pack=pack)
    hand = [0] * N_KINDS
    for c in order[:rnd.cards]:
        hand[c] += 1
    rng = SplitMix64(seed ^ 0x5DEECE66D)
    turns = rng.below(12)
    for t in range(turns):
        drawn = order[rnd.cards + t]
        hand[drawn] += 1
        held = [c for c in range(N_KINDS) if hand[c]]
        if rng.below(2):
            # greedy: give up the card that leaves the lowest deficiency
            best = None
            for g in held:
                hand[g] -= 1
                d = fast.deficiency(hand, round_number, pack.decks, pack.jokers_per_deck,
                                    joker_limit)[0]
                hand[g] += 1
                if best is None or d < best[0]:
                    best = (d, g)
            hand[best[1]] -= 1
        else:
            hand[held[rng.below(len(held))]] -= 1
    return hand
