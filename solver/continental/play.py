"""Whole games of Continental between policies (the simulation of rules/continental.md).

A game is seven rounds.  Round k is dealt from deal number ``SplitMix64(seed)``'s
k-th output; policies draw their randomness from a second generator seeded with
the 8th output, so a game is reproducible from its seed.

A turn: the current player takes the top discard or the top stock card; if they
do not take the discard, the other players in turn order may claim it, and a
claimant also takes a penalty card from the stock.  The player may then go down
(the contract's combinations, once per round), and on later turns lay off cards
on any displayed combination (extending a straight at an end, adding to a trio)
or take a joker from a displayed straight by playing the card it stands for.
The turn ends with a discard; a player whose hand is then empty has closed, and
the others score the points left in their hands.

``Game`` holds the immutable parameters; ``RoundState`` is the mutable round with
``current_player()``, ``legal_actions()``, ``apply()``, ``is_terminal()``,
``clone()`` and ``returns()``; policies answer its decision points.

Decisions the rules leave open are listed in docs/continental.md; in short: a
claimant cannot close on their next turn; a round whose stock runs out ends with
nobody closing; only straight jokers can be taken back.

>>> r = play_game(3, players=2, policies=("greedy", "random"))
>>> r["verdict"] in ("seat-1", "seat-2"), len(r["round_scores"])
(True, 7)
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence

from solver.cext import continental as _fast
from solver.continental.arrange import search_arrangement
from solver.continental.notation import JOKER, N_KINDS, Pack, card_points
from solver.continental.rules import ROUNDS, deal_order, is_straight, is_trio, joker_stands_for
from solver.errors import InputError
from solver.rng import SplitMix64, check_seed

POLICIES = ("random", "greedy")
MAX_TURNS = 400  # per round; a safety net, reported if ever reached
PLAY_NODE_LIMIT = 200_000  # arrangement search per going down; past it, the best found is laid


@dataclass
class Meld:
    kind: str
    cards: List[int]
    owner: int


@dataclass
class Player:
    hand: List[int]
    down: bool = False
    penalty: bool = False  # claimed since their last turn: cannot close this turn


class Policy:
    """Decisions a player makes; the rules engine does the rest."""

    def __init__(self, rng: SplitMix64, pack: Pack, joker_limit: bool) -> None:
        self.rng, self.pack, self.joker_limit = rng, pack, joker_limit

    def deficiency(self, hand: Sequence[int], rnd: int) -> int:
        return _fast.deficiency(hand, rnd, self.pack.decks, self.pack.jokers_per_deck,
                                self.joker_limit)[0]

    def take_discard(self, st: RoundState, seat: int, card: int) -> bool:
        raise NotImplementedError

    def claim(self, st: RoundState, seat: int, card: int) -> bool:
        raise NotImplementedError

    def choose_discard(self, st: RoundState, seat: int) -> int:
        raise NotImplementedError


class RandomPolicy(Policy):
    """Coin flips: takes the discard half the time, claims a quarter, discards at random."""

    def take_discard(self, st, seat, card):
        return self.rng.below(2) == 0

    def claim(self, st, seat, card):
        return self.rng.below(4) == 0

    def choose_discard(self, st, seat):
        hand = st.players[seat].hand
        held = [c for c in range(N_KINDS) if hand[c]]
        return held[self.rng.below(len(held))]


class GreedyPolicy(Policy):
    """Deficiency-greedy: takes or claims a card only if it lowers the deficiency,
    discards the card whose loss keeps the deficiency lowest (ties: most points);
    once down, discards the card with the most points."""

    def _best_without(self, hand: List[int], rnd: int):
        best = None
        for g in range(N_KINDS):
            if hand[g]:
                hand[g] -= 1
                key = (self.deficiency(hand, rnd), -card_points(g))
                hand[g] += 1
                if best is None or key < best[0]:
                    best = (key, g)
        return best

    def _improves(self, st, seat, card, measure):
        """Would ``card`` lower the seat's deficiency, as ``measure`` scores the hand with it?"""
        p = st.players[seat]
        if p.down:
            return False
        before = self.deficiency(p.hand, st.number)
        p.hand[card] += 1
        after = measure(p.hand, st.number)
        p.hand[card] -= 1
        return after < before

    def take_discard(self, st, seat, card):
        # taking the discard means discarding afterwards: score the best hand without one card
        return self._improves(st, seat, card, lambda hand, rnd: self._best_without(hand, rnd)[0][0])

    def claim(self, st, seat, card):
        return self._improves(st, seat, card, self.deficiency)

    def choose_discard(self, st, seat):
        p = st.players[seat]
        if p.down:
            return max((c for c in range(N_KINDS) if p.hand[c]), key=card_points)
        return self._best_without(p.hand, st.number)[1]


def make_policy(name: str, rng: SplitMix64, pack: Pack, joker_limit: bool) -> Policy:
    if name == "random":
        return RandomPolicy(rng, pack, joker_limit)
    if name == "greedy":
        return GreedyPolicy(rng, pack, joker_limit)
    raise InputError(f"unknown policy {name!r} (expected one of {', '.join(POLICIES)})")


# ---- laying off ----------------------------------------------------------------

def lay_off_spots(meld: Meld, card: int, joker_limit: bool) -> List[List[int]]:
    """The new card lists of ``meld`` with ``card`` added (empty if it cannot go)."""
    cards = meld.cards
    if meld.kind == "trio":
        grown = cards + [card]
        return [grown] if is_trio(grown, joker_limit=joker_limit) else []
    out = []
    for grown in (cards + [card], [card] + cards):
        if is_straight(grown, joker_limit=joker_limit):
            out.append(grown)
    return out


def _lay_off_all(st: RoundState, seat: int, keep: int, joker_limit: bool) -> None:
    """Lay off cards (most points first) and win back straight jokers, keeping ``keep`` cards."""
    p = st.players[seat]
    changed = True
    while changed and sum(p.hand) > keep:
        changed = False
        for card in sorted((c for c in range(N_KINDS) if p.hand[c]), key=card_points, reverse=True):
            for meld in st.melds:
                spots = lay_off_spots(meld, card, joker_limit)
                if spots:
                    meld.cards = spots[0]
                    p.hand[card] -= 1
                    st.log.append(("layoff", seat, card))
                    changed = True
                    break
            if changed:
                break
            if card == JOKER:
                continue
            # take a joker from a straight by playing the card it stands for, if the
            # joker can then be laid off elsewhere
            for meld in st.melds:
                if meld.kind != "straight":
                    continue
                for i, c in enumerate(meld.cards):
                    if c == JOKER and joker_stands_for(meld.cards, i) == card:
                        others = [m for m in st.melds if m is not meld and lay_off_spots(m, JOKER, joker_limit)]
                        if others:
                            meld.cards[i] = card
                            p.hand[card] -= 1
                            st.log.append(("swap-joker", seat, card))
                            others[0].cards = lay_off_spots(others[0], JOKER, joker_limit)[0]
                            changed = True
                            break
                if changed:
                    break
            if changed:
                break


# ---- one round: an OpenSpiel-style state ------------------------------------------

TAKE, PASS, CLAIM = "take", "pass", "claim"


@dataclass(frozen=True)
class Game:
    """The immutable parameters of a game."""

    players: int = 2
    pack: Pack = Pack()
    joker_limit: bool = True

    def new_round(self, number: int, deal_seed: int, first: int) -> "RoundState":
        """Round ``number`` dealt from deal ``deal_seed``: seat i gets cards [i*k, (i+1)*k),
        the next card starts the discard pile, the rest is the stock."""
        rnd = ROUNDS[number]
        order = deal_order(deal_seed, pack=self.pack)
        players = []
        for i in range(self.players):
            hand = [0] * N_KINDS
            for c in order[i * rnd.cards:(i + 1) * rnd.cards]:
                hand[c] += 1
            players.append(Player(hand))
        rest = order[self.players * rnd.cards:]
        st = RoundState(self, number, players, stock=list(reversed(rest[1:])), discard=[rest[0]],
                        seat=first)
        st._start_turn()
        return st


@dataclass
class RoundState:
    """A round in play.  Decisions are asked of ``current_player()`` in three phases:

    * ``take``: the seat to play takes the top discard or passes (then draws);
    * ``claim``: after a pass, each other seat in turn order may claim the discard
      (taking a penalty card too);
    * ``discard``: the seat to play discards a card (an int).

    Drawing, going down (as soon as the contract can be shown, fewest points
    left, keeping a card to discard) and laying off are done by the rules.  The
    ``log`` is the round's history: (event, seat, card or None).
    """

    game: Game
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
        return self.phase == "over"

    def legal_actions(self) -> list:
        if self.phase == TAKE:
            return [TAKE, PASS]
        if self.phase == CLAIM:
            return [CLAIM, PASS]
        if self.phase == "discard":
            hand = self.players[self.seat].hand
            return [c for c in range(N_KINDS) if hand[c]]
        return []

    def apply(self, action) -> None:
        if action not in self.legal_actions():
            raise InputError(f"illegal action {action!r} in phase {self.phase}")
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

    def clone(self) -> "RoundState":
        return copy.deepcopy(self)

    def returns(self) -> List[int]:
        """Points left in each hand (the closer scores 0)."""
        return [0 if i == self.closer else sum(card_points(c) * k for c, k in enumerate(p.hand))
                for i, p in enumerate(self.players)]

    # -- the rules' own moves --------------------------------------------------
    def _start_turn(self) -> None:
        if self.turns >= MAX_TURNS:
            self.phase = "over"
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
            self.phase = "over"  # the stock is exhausted: nobody closes
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
            _lay_off_all(self, seat, keep, g.joker_limit)
        self.phase = "discard"

    def _discard(self, card: int) -> None:
        p = self.players[self.seat]
        p.hand[card] -= 1
        p.penalty = False
        if sum(p.hand) == 0:
            self.closer = self.seat  # the last card goes face down: the round is closed
            self.log.append(("close", self.seat, card))
            self.phase = "over"
            return
        self.discard.append(card)
        self.log.append(("discard", self.seat, card))
        self.seat = (self.seat + 1) % len(self.players)
        self._start_turn()


def decide(policy: "Policy", st: RoundState):
    """The policy's action at the state's decision point."""
    seat = st.current_player()
    if st.phase == TAKE:
        return TAKE if policy.take_discard(st, seat, st.discard[-1]) else PASS
    if st.phase == CLAIM:
        return CLAIM if policy.claim(st, seat, st.discard[-1]) else PASS
    return policy.choose_discard(st, seat)


def play_round(number: int, deal_seed: int, policies: Sequence["Policy"], first: int, *,
               pack: Pack, joker_limit: bool) -> RoundState:
    """Play one round to the end with one policy per seat."""
    st = Game(len(policies), pack, joker_limit).new_round(number, deal_seed, first)
    while not st.is_terminal():
        st.apply(decide(policies[st.current_player()], st))
    return st


def play_game(seed: int, *, players: int = 2, policies: Sequence[str] = ("greedy", "random"),
              pack: Pack = Pack(), joker_limit: bool = True) -> Dict:
    """Seven rounds; the lowest total wins.  Returns scores, winners and round lengths."""
    check_seed(seed)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise InputError(f"players must be 2 to 4, not {players!r}")
    if not policies:
        raise InputError("name at least one policy")
    names = [policies[i % len(policies)] for i in range(players)]
    rng = SplitMix64(seed)
    deal_seeds = [rng.next() for _ in range(7)]
    policy_rng = SplitMix64(rng.next())
    seats = [make_policy(name, policy_rng, pack, joker_limit) for name in names]
    need = players * 13 + 1
    if pack.size < need + 2:
        raise InputError(f"the pack of {pack.size} cards is too small for {players} players")
    totals = [0] * players
    round_scores, round_turns, closers = [], [], []
    for number in range(1, 8):
        st = play_round(number, deal_seeds[number - 1], seats, (number - 1) % players,
                        pack=pack, joker_limit=joker_limit)
        scores = st.returns()
        for i in range(players):
            totals[i] += scores[i]
        round_scores.append(scores)
        round_turns.append(st.turns)
        closers.append(None if st.closer is None else st.closer + 1)
    low = min(totals)
    winners = [i + 1 for i in range(players) if totals[i] == low]
    return {
        "verdict": f"seat-{winners[0]}" if len(winners) == 1 else "tie",
        "winners": winners,
        "policies": names,
        "scores": totals,
        "round_scores": round_scores,
        "round_turns": round_turns,
        "closers": closers,
        "nodes": sum(round_turns),
    }


def play_many(games: int, *, seed: int = 0, players: int = 2,
              policies: Sequence[str] = ("greedy", "random"), pack: Pack = Pack(),
              joker_limit: bool = True, progress=None) -> Dict:
    """Games ``seed .. seed+games-1``: mean scores, win rates (ties split) and round lengths."""
    check_seed(seed)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise InputError(f"games must be a positive integer, not {games!r}")
    wins = [0.0] * players
    totals = [0] * players
    turns = [0] * 7
    closed = [0] * 7
    names: List[str] = []
    for g in range(games):
        r = play_game((seed + g) & 0xFFFFFFFFFFFFFFFF, players=players, policies=policies,
                      pack=pack, joker_limit=joker_limit)
        names = r["policies"]
        for w in r["winners"]:
            wins[w - 1] += 1 / len(r["winners"])
        for i, s in enumerate(r["scores"]):
            totals[i] += s
        for k in range(7):
            turns[k] += r["round_turns"][k]
            closed[k] += r["closers"][k] is not None
        if progress:
            progress(1)
    return {
        "games": games, "seed": seed, "players": players, "policies": names,
        "decks": pack.decks, "jokers_per_deck": pack.jokers_per_deck, "joker_limit": joker_limit,
        "win_rate": [w / games for w in wins],
        "mean_score": [t / games for t in totals],
        "mean_round_turns": [t / games for t in turns],
        "closed_rate": [c / games for c in closed],
    }
