"""Continental's own policy: deficiency-greedy (the shared ``random`` is in solver.game).

A policy answers the round's decision points (see :mod:`solver.continental.round`);
going down and laying off are the rules engine's.

>>> from solver.continental.game import Continental
>>> from solver.rng import SplitMix64
>>> game = Continental(players=2)
>>> st = game.new_initial_state(3)
>>> st.format_move(GreedyPolicy(game).choose(st, SplitMix64(0)))
'take'
"""
from __future__ import annotations

from typing import List, Sequence

from solver.cext import continental as _fast
from solver.continental.notation import N_KINDS, card_points
from solver.continental.round import CLAIM, DISCARD, PASS, TAKE
from solver.game import Policy


class GreedyPolicy(Policy):
    """Takes or claims a card only if it lowers the deficiency; discards the card
    whose loss keeps the deficiency lowest (ties: most points); once down,
    discards the card with the most points.  It draws nothing from ``rng``.
    ``nodes`` counts the deficiency-search nodes it has spent."""

    name = "greedy"

    def __init__(self, game) -> None:
        self.game = game
        self.nodes = 0

    def deficiency(self, hand: Sequence[int], rnd: int) -> int:
        g = self.game
        d, nodes = _fast.deficiency(hand, rnd, g.pack.decks, g.pack.jokers_per_deck, g.joker_limit)
        self.nodes += nodes
        return d

    def _best_without(self, hand: List[int], rnd: int):
        """((deficiency, -points), card) of the best card to give up."""
        best = None
        for g in range(N_KINDS):
            if hand[g]:
                hand[g] -= 1
                key = (self.deficiency(hand, rnd), -card_points(g))
                hand[g] += 1
                if best is None or key < best[0]:
                    best = (key, g)
        return best

    def _improves(self, st, seat: int, card: int, measure) -> bool:
        """Would ``card`` lower the seat's deficiency, as ``measure`` scores the hand with it?"""
        p = st.players[seat]
        if p.down:
            return False
        before = self.deficiency(p.hand, st.number)
        hand = list(p.hand)
        hand[card] += 1
        return measure(hand, st.number) < before

    def choose(self, state, rng):
        st = state.round
        seat = st.current_player()
        if st.phase == TAKE:
            # taking the discard means discarding afterwards: score the best hand without one card
            better = self._improves(st, seat, st.discard[-1],
                                    lambda hand, rnd: self._best_without(hand, rnd)[0][0])
            return TAKE if better else PASS
        if st.phase == CLAIM:
            return CLAIM if self._improves(st, seat, st.discard[-1], self.deficiency) else PASS
        assert st.phase == DISCARD
        p = st.players[seat]
        if p.down:
            return max((c for c in range(N_KINDS) if p.hand[c]), key=card_points)
        return self._best_without(p.hand, st.number)[1]
