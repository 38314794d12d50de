"""The whole game of Continental (seven rounds) as the contract's Game and State.

:class:`Continental` holds the immutable parameters: seats (2-4), the pack
(``decks``, ``jokers_per_deck``) and the joker limit.  Its
``new_initial_state(seed)`` starts game ``seed``: round k is dealt from deal
number ``SplitMix64(seed)``'s k-th output (k = 1..7) and starts with seat
(k - 1) mod players.

:class:`ContinentalState` is the game in play: the current
:class:`~solver.continental.round.RoundState` and each seat's total.  Its moves
are the round's decisions, written ``take``, ``pass``, ``claim`` or a card to
discard (``Qh``, ``X``); when a round ends it is scored and the next one dealt;
after round 7 the game is over and ``returns()`` is minus each seat's total
points (the lowest total wins; a tie for it has no winner).

>>> game = Continental(players=2)
>>> st = game.new_initial_state(3)
>>> st.number, st.current_player(), [st.format_move(m) for m in st.legal_moves()]
(1, 0, ['take', 'pass'])
>>> st.apply(st.parse_move("pass")); st.round.phase
'claim'
>>> st.parse_move("Zz")
Traceback (most recent call last):
...
solver.errors.InputError: unknown card 'Zz' (expected e.g. As, Th, 7c or X)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from solver.continental.notation import Pack, format_card, parse_card
from solver.continental.round import CLAIM, PASS, TAKE, RoundState, new_round
from solver.errors import InputError
from solver.game import Game, State
from solver.rng import SplitMix64, check_seed

ROUND_COUNT = 7
WORDS = (TAKE, PASS, CLAIM)


@dataclass(frozen=True)
class Continental(Game):
    """A table of ``players`` (2-4) with a pack of ``decks`` decks of 52 cards and
    ``jokers_per_deck`` jokers each; ``joker_limit``: no combination holds more
    jokers than natural cards."""

    players: int = 2
    decks: int = 2
    jokers_per_deck: int = 2
    joker_limit: bool = True

    name = "continental"

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int) or not 2 <= self.players <= 4:
            raise InputError(f"players must be 2 to 4, not {self.players!r}")
        if not isinstance(self.joker_limit, bool):
            raise InputError(f"joker_limit must be true or false, not {self.joker_limit!r}")
        pack = Pack(decks=self.decks, jokers_per_deck=self.jokers_per_deck)
        need = self.players * 13 + 3   # round 7's hands, the first discard, a draw and a penalty card
        if pack.size < need:
            raise InputError(f"the pack of {pack.size} cards is too small for {self.players} players")

    @property
    def pack(self) -> Pack:
        return Pack(decks=self.decks, jokers_per_deck=self.jokers_per_deck)

    @property
    def num_players(self) -> int:
        return self.players

    def params(self) -> Dict[str, Any]:
        return {"players": self.players, "decks": self.decks, "jokers_per_deck": self.jokers_per_deck,
                "joker_limit": self.joker_limit}

    def new_initial_state(self, seed: int) -> "ContinentalState":
        check_seed(seed)
        rng = SplitMix64(seed)
        return ContinentalState(self, seed, [rng.next() for _ in range(ROUND_COUNT)])


class ContinentalState(State):
    """Game ``seed`` in play: ``round`` (the current RoundState, number
    ``number``), ``totals`` (points so far per seat) and per finished round its
    ``round_scores``, ``round_turns`` and ``closers`` (seat or None)."""

    def __init__(self, game: Continental, seed: int, deal_seeds: List[int], *, _blank: bool = False) -> None:
        self.game, self.seed, self.deal_seeds = game, seed, list(deal_seeds)
        if _blank:
            return
        self.totals = [0] * game.players
        self.round_scores: List[List[int]] = []
        self.round_turns: List[int] = []
        self.closers: List[Optional[int]] = []
        self.number = 1
        self.round: RoundState = new_round(game, 1, self.deal_seeds[0], 0)

    # -- the contract ------------------------------------------------------------
    def current_player(self) -> int:
        return self.round.current_player()

    def legal_moves(self) -> list:
        return [] if self.is_terminal() else self.round.legal_actions()

    def apply(self, move) -> None:
        if self.is_terminal():
            raise InputError("the game is over")
        self.round.apply(move)
        while self.round.is_terminal() and self.number < ROUND_COUNT:
            self._score_round()
            self.number += 1
            self.round = new_round(self.game, self.number, self.deal_seeds[self.number - 1],
                                   (self.number - 1) % self.game.players)
        if self.round.is_terminal() and len(self.round_scores) < ROUND_COUNT:
            self._score_round()

    def is_terminal(self) -> bool:
        return self.number == ROUND_COUNT and self.round.is_terminal()

    def returns(self) -> List[float]:
        """Minus each seat's total points (so far; final when terminal)."""
        return [float(-t) for t in self.totals]

    def clone(self) -> "ContinentalState":
        twin = ContinentalState(self.game, self.seed, self.deal_seeds, _blank=True)
        twin.totals = list(self.totals)
        twin.round_scores = [list(s) for s in self.round_scores]
        twin.round_turns = list(self.round_turns)
        twin.closers = list(self.closers)
        twin.number = self.number
        twin.round = self.round.clone()
        return twin

    def format_move(self, move) -> str:
        if isinstance(move, str) and move in WORDS:
            return move
        if isinstance(move, int) and not isinstance(move, bool) and 0 <= move <= 52:
            return format_card(move)
        raise InputError(f"not a Continental move: {move!r}")

    def parse_move(self, text: str):
        if not isinstance(text, str):
            raise InputError(f"a move is text (take, pass, claim or a card), not {text!r}")
        word = text.strip().lower()
        if word in WORDS:
            return word
        return parse_card(text)

    # -- helpers -----------------------------------------------------------------
    def _score_round(self) -> None:
        scores = self.round.returns()
        for i, s in enumerate(scores):
            self.totals[i] += s
        self.round_scores.append(scores)
        self.round_turns.append(self.round.turns)
        self.closers.append(self.round.closer)

    def summary(self) -> Dict[str, Any]:
        """The game so far as plain data: round, totals, per-round scores and turns."""
        return {"round": self.number, "totals": list(self.totals), "round_scores": [list(s) for s in self.round_scores],
                "round_turns": list(self.round_turns), "closers": list(self.closers)}
