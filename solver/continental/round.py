"""One round of Continental in play: deal, take or draw, claims, going down, discard.

A turn: the current player takes the top discard or passes and draws the top
stock card; after a pass, the other players in turn order may claim the
discard, and a claimant also takes a penalty card from the stock.  The player
then goes down (the contract's combinations, once per round) as soon as the
hand shows the contract, and on later turns lays off cards (see
:mod:`solver.continental.layoff`).  The turn ends with a discard; a player
whose hand is then empty has closed, and the others score the points left in
their hands.

The rules engine does drawing, going down and laying off itself; a player
decides only at three points (``phase``): ``take`` (take or pass), ``claim``
(claim or pass) and ``discard`` (a card).  The whole seven-round game, the
contract's State, is :class:`solver.continental.game.ContinentalState`.

Decisions the rules leave open are in docs/continental.md: a claimant cannot
close on their next turn; a round whose stock runs out ends with nobody
closing; only straight jokers can be taken back.

>>> from solver.continental.game import Continental
>>> st = new_round(Continental(players=3), 2, 99, 0)
>>> st.current_player(), st.legal_actions()
(0, ['take', 'pass'])
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional

from solver.cext import continental as _fast
from solver.continental.arrange import search_arrangement
from solver.continental.layoff import Meld, lay_off_all
from solver.continental.notation import N_KINDS, card_points, format_card
from solver.continental.rules import ROUNDS, deal_order
from solver.errors import InputError

TAKE, PASS, CLAIM, DISCARD, OVER = "take", "pass", "claim", "discard", "over"
MAX_TURNS = 400  # per round; a safety net, never reached in the tests
PLAY_NODE_LIMIT = 200_000  # arrangement search per going down; past it, the best found is laid


@dataclass
class Player:
    hand: List[int]
    down: bool = False
    penalty: bool = False  # claimed since their last turn: cannot close this turn

    def copy(self) -> "Player":
        return Player(list(self.hand), self.down, self.penalty)


def new_round(game, number: int, deal_seed: int, first: int) -> "RoundState":
    """Round ``number`` of ``game`` (its ``players``, ``pack`` and ``joker_limit``)
    dealt from deal ``deal_seed``: seat i gets cards [i*k, (i+1)*k), the next
    card starts the discard pile, the rest is the stock; seat ``first`` starts."""
    rnd = ROUNDS[number]
    order = deal_order(deal_seed, pack=game.pack)
    players = []
    for i in range(game.players):
        hand = [0] * N_KINDS
        for c in order[i * rnd.cards:(i + 1) * rnd.cards]:
            hand[c] += 1
        players.append(Player(hand))
    rest = order[game.players * rnd.cards:]
    st = RoundState(game, number, players, stock=list(reversed(rest[1:])), discard=[rest[0]], seat=first)
    st._start_turn()
    return st


@dataclass
class RoundState:
    """A round in play.  Decisions are asked of ``current_player()`` in three phases:

    * ``take``: the seat to play takes the top discard or passes (then draws);
    * ``claim``: after a pass, each other seat in turn order may claim the discard
      (taking a penalty card too);
    * ``discard``: the seat to play discards a card (an int).

    The ``log`` is the round's history: (event, seat, card or None).
    """

    game: object
    number: int
    players: List[Player]
    stock: List[int]          # top is the end of the list
    discard: List[int]        # top is the end of the list
    seat: int = 0             # whose turn it is
    phase: str = TAKE
    claimants: List[int] = field(default_factory=list)
    melds: List[Meld] = field(default_factory=list)
    turns: int = 0
    closer: Optional[int] = None
    can_close: bool = True
    log: List[tuple] = field(default_factory=list)

    # -- the interface ---------------------------------------------------------
    def current_player(self) -> int:
        return self.claimants[0] if self.phase == CLAIM else self.seat

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list:
        """``take``/``pass``, ``claim``/``pass``, or the cards in hand (ascending)."""
        if self.phase == TAKE:
            return [TAKE, PASS]
        if self.phase == CLAIM:
            return [CLAIM, PASS]
        if self.phase == DISCARD:
            hand = self.players[self.seat].hand
            return [c for c in range(N_KINDS) if hand[c]]
        return []

    def is_legal(self, action) -> bool:
        if self.phase == DISCARD:
            return (isinstance(action, int) and not isinstance(action, bool)
                    and 0 <= action < N_KINDS and self.players[self.seat].hand[action] > 0)
        return isinstance(action, str) and action in self.legal_actions()

    def apply(self, action) -> None:
        if not self.is_legal(action):
            raise InputError(self._why_illegal(action))
        if self.phase == TAKE:
            if action == TAKE:
                top = self.discard.pop()
                self.players[self.seat].hand[top] += 1
                self.log.append((TAKE, self.seat, top))
                self._after_draw()
            else:
                n = len(self.players)
                self.claimants = [(self.seat + k) % n for k in range(1, n)] if len(self.stock) >= 2 else []
                self.phase = CLAIM
                self._next_claimant()
        elif self.phase == CLAIM:
            q = self.claimants.pop(0)
            if action == CLAIM:
                top = self.discard.pop()
                self.players[q].hand[top] += 1
                self.players[q].hand[self.stock.pop()] += 1  # the penalty card
                self.players[q].penalty = True
                self.log.append((CLAIM, q, top))
                self.claimants = []
            self._next_claimant()
        else:
            self._discard(action)

    def _why_illegal(self, action) -> str:
        seat = f"seat {self.current_player() + 1}"
        if self.phase == OVER:
            return "the round is over"
        if self.phase == DISCARD:
            if isinstance(action, int) and not isinstance(action, bool) and 0 <= action < N_KINDS:
                return f"{seat} does not hold {format_card(action)} to discard"
            return f"{seat} must discard a card, not {action!r}"
        return f"{seat} must answer {' or '.join(self.legal_actions())}, not {action!r}"

    def clone(self) -> "RoundState":
        return RoundState(self.game, self.number, [p.copy() for p in self.players], list(self.stock),
                          list(self.discard), self.seat, self.phase, list(self.claimants),
                          [m.copy() for m in self.melds], self.turns, self.closer, self.can_close,
                          list(self.log))

    def returns(self) -> List[int]:
        """Points left in each hand (the closer scores 0)."""
        return [0 if i == self.closer else sum(card_points(c) * k for c, k in enumerate(p.hand))
                for i, p in enumerate(self.players)]

    # -- the rules' own moves --------------------------------------------------
    def _start_turn(self) -> None:
        if self.turns >= MAX_TURNS:
            self.phase = OVER
            return
        self.turns += 1
        self.can_close = not self.players[self.seat].penalty
        if self.discard:
            self.phase = TAKE
        else:
            self._draw()

    def _next_claimant(self) -> None:
        if not self.claimants:
            self._draw()

    def _draw(self) -> None:
        if not self.stock:
            self.phase = OVER  # the stock is exhausted: nobody closes
            return
        self.players[self.seat].hand[self.stock.pop()] += 1
        self.log.append(("draw", self.seat, None))
        self._after_draw()

    def _after_draw(self) -> None:
        g, p, seat = self.game, self.players[self.seat], self.seat
        keep = 1 if self.can_close else 2
        if not p.down:
            if _fast.deficiency(p.hand, self.number, g.pack.decks, g.pack.jokers_per_deck,
                                g.joker_limit)[0] == 0:
                found = search_arrangement(p.hand, self.number, joker_limit=g.joker_limit,
                                           max_cards=sum(p.hand) - keep,
                                           node_limit=PLAY_NODE_LIMIT)
                if found.melds is not None:
                    rnd = ROUNDS[self.number]
                    kinds = ["straight"] * rnd.straights + ["trio"] * rnd.trios
                    for kind, cards in zip(kinds, found.melds):
                        self.melds.append(Meld(kind, list(cards), seat))
                        for c in cards:
                            p.hand[c] -= 1
                    p.down = True
                    self.log.append(("down", seat, None))
        elif self.melds:
            lay_off_all(p.hand, self.melds, seat, keep, g.joker_limit, self.log)
        self.phase = DISCARD

    def _discard(self, card: int) -> None:
        p = self.players[self.seat]
        p.hand[card] -= 1
        p.penalty = False
        if sum(p.hand) == 0:
            self.closer = self.seat  # the last card goes face down: the round is closed
            self.log.append(("close", self.seat, card))
            self.phase = OVER
            return
        self.discard.append(card)
        self.log.append(("discard", self.seat, card))
        self.seat = (self.seat + 1) % len(self.players)
        self._start_turn()
