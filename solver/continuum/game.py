"""The full game as a contract state machine: hands, dice, the turn structure.

:class:`ContinuumState` is a :class:`solver.game.State` whose decision points
are the choices inside a turn (rules/continuum.md):

- ``play``: play one of the computed card options (a card from the hand, or
  the top discard once a turn), moves such as ``2h: rS x gS``;
- ``stuck``: no card can be played, so ``discard CARD`` or ``pass``;
- ``use``: the opponent of a player who passed plays one of the passer's
  cards (its options are written like ``play``'s).

``current_player()`` is the seat (A = 0, B = 1) that decides now.  ``apply``
plays one choice and runs the rules' own steps (dice and draws, jack skips,
the end of a turn, the win check after every card) up to the next decision
or the end.  Chance (the shuffle, then every die) comes from one
SplitMix64(seed), so the game's stream does not depend on the policies; a
policy draws from its seat's own generator (:func:`solver.playout.seat_rng`).

>>> state = Continuum().new_initial_state(7)
>>> state.current_player(), state.phase
(0, 'play')
>>> move = state.legal_moves()[0]
>>> state.parse_move(state.format_move(move)) == move
True
>>> state.apply(move); state.turns >= 1
True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Union

from solver.cext import continuum as _c
from solver.continuum.cards import roll, shuffled_deck
from solver.continuum.codec import key_row, row_key
from solver.continuum.options import Option, balanced, card_options
from solver.continuum.pieces import PLAYER_COLOURS, PLAYERS, opponent
from solver.continuum.rules import Row, start_row
from solver.errors import InputError
from solver.game import Game, State
from solver.rng import SplitMix64, check_seed

#: when the three-per-side rule is checked: at the end of each turn (the rules
#: page's reading) or after every card (stricter); the game's variants
BALANCES = ("turn", "card")
GOAL_MASK = {p: sum(1 << c for c in PLAYER_COLOURS[p]) for p in "AB"}
PHASES = ("play", "stuck", "use", "over")


@dataclass(frozen=True)
class Stuck:
    """What a player who can play no card does: ``discard`` ``card``, or ``pass``."""

    action: str
    card: Optional[str] = None

    def text(self) -> str:
        return "pass" if self.action == "pass" else f"discard {self.card}"


Move = Union[Option, Stuck]
PASS = Stuck("pass")


class ContinuumState(State):
    """One game in play: row (as its 64-bit key), hands, piles, jack skips, and
    where the current turn stands (``turn_player``, ``must`` plays, ``plays``
    made, the opponent's pyramid ``moved`` this turn, ``took`` the discard)."""

    def __init__(self, seed: int = 0, *, balance: str = "turn") -> None:
        if balance not in BALANCES:
            raise InputError(f"no such balance rule: {str(balance)[:40]!r} (expected turn or card)")
        self.seed = check_seed(seed)
        self.balance = balance
        self.rng = SplitMix64(seed)
        self.draw = shuffled_deck(self.rng)      # draw from the front
        self.discard: List[str] = []             # top is the last
        self.hands: Dict[str, List[str]] = {"A": [], "B": []}
        self.skip = {"A": False, "B": False}
        self.key = row_key(start_row())
        self.log: List[str] = []
        self.turn_player = "A"                   # seat A moves first
        self.turns = 0                           # turns begun (both players' counted)
        self.must = self.plays = 0
        self.moved = -1                          # the opponent's pyramid moved this turn
        self.took = False
        self.won: Optional[str] = None
        self.phase = "start"
        self._moves: List[Move] = []
        self._advance()

    # -- the row and the card options -------------------------------------
    @property
    def row(self) -> Row:
        return key_row(self.key)

    def draw_cards(self, player: str, n: int) -> None:
        for _ in range(n):
            if not self.draw:
                self.draw, self.discard = self.discard, []   # turned over: oldest discard first
            if not self.draw:
                return
            self.hands[player].append(self.draw.pop(0))

    def options(self, player: str, opp: int, *, take_discard: bool, final: bool) -> List[Option]:
        """Every legal way to play a card now, the hand's cards (in hand order)
        then the top discard's.  ``final``: this play from the hand ends the
        turn, so (with the per-turn balance rule) it must leave both players 3
        per side; an earlier play may unbalance the row only if another card
        still in hand can then restore the balance.  Taking the top discard is
        never the turn's last play (it does not count), so it is such an
        earlier play even when ``final``."""
        hand = self.hands[player]
        per_card = self.balance == "card"
        cands: List[Option] = []
        for card in dict.fromkeys(hand):
            cands.extend(card_options(self.key, player, card, opp=opp,
                                      need_balance=per_card or final))
        top = self.discard[-1] if self.discard else None
        taken: List[Option] = []
        if take_discard and top is not None and top[0] not in "JQ" and hand:
            taken = card_options(self.key, player, top, opp=opp, from_discard=True,
                                 need_balance=per_card)
        if not per_card:
            if not final:
                cands = [o for o in cands if balanced(o.key) or self._restorable(player, o)]
            taken = [o for o in taken if balanced(o.key) or self._restorable(player, o)]
        return cands + taken

    def _restorable(self, player: str, opt: Option) -> bool:
        rest = list(self.hands[player])
        if not opt.from_discard:
            rest.remove(opt.card)
        return any(card_options(opt.key, player, c, opp=opt.opp, need_balance=True)
                   for c in dict.fromkeys(rest))

    def use_options(self) -> List[Option]:
        """The ways the opponent may play one of the passer's cards."""
        player = self.turn_player
        return [o for c in dict.fromkeys(self.hands[player])
                for o in card_options(self.key, opponent(player), c)]

    def _winner_after(self, mover: str) -> Optional[str]:
        """After a card of ``mover``: the mover's win is checked first, then the opponent's."""
        for p in (mover, opponent(mover)):
            if _c.goal(self.key, GOAL_MASK[p]):
                return p
        return None

    # -- the turn, run up to the next decision ------------------------------
    def _advance(self) -> None:
        """Run the rules' own steps until a player must decide or the game ends."""
        while True:
            player = self.turn_player
            if self.phase == "start":
                self.turns += 1
                if self.skip[player]:
                    self.skip[player] = False
                    self.log.append(f"{player} passes (jack)")
                    self.turn_player = opponent(player)
                    continue
                if not self.hands[player]:
                    d1, d2 = roll(self.rng), roll(self.rng)
                    self.draw_cards(player, max(d1, d2))
                    self.must = min(d1, d2, len(self.hands[player]))
                    self.log.append(f"{player} rolls {d1} {d2}: draws to {len(self.hands[player])}, "
                                    f"plays {self.must}")
                else:
                    self.must = 1
                self.plays, self.moved, self.took = 0, -1, False
                self.phase = "turn"
            if self.plays < self.must and self.hands[player]:
                opts = self.options(player, self.moved, take_discard=not self.took,
                                    final=self.plays + 1 == self.must)
                if opts:
                    self.phase, self._moves = "play", opts
                else:
                    self.phase = "stuck"
                    self._moves = [Stuck("discard", c) for c in dict.fromkeys(self.hands[player])] + [PASS]
                return
            self._end_turn()

    def _end_turn(self) -> None:
        self.turn_player = opponent(self.turn_player)
        self.phase = "start"

    def _finish(self, winner: str) -> None:
        self.won, self.phase, self._moves = winner, "over", []

    # -- the contract -------------------------------------------------------
    def current_player(self) -> int:
        """The seat deciding now: the turn's player, or its opponent in ``use``."""
        player = opponent(self.turn_player) if self.phase == "use" else self.turn_player
        return PLAYERS.index(player)

    def legal_moves(self) -> List[Move]:
        """``play``/``use``: the card options (cards in hand order, each card's
        end rows in the kernel's order, then the top discard's); ``stuck``: a
        discard of each distinct card in hand order, then ``pass``."""
        return list(self._moves)

    def apply(self, move: Move) -> None:
        if self.won is not None:
            raise InputError("the game is over: no move can be played")
        if move not in self._moves:
            raise InputError(f"illegal move here: {self._text(move)[:60]}")
        player = self.turn_player
        if self.phase == "play":
            if move.from_discard:
                self.discard.pop()
            else:
                self.hands[player].remove(move.card)
            self.discard.append(move.card)
            self.key = move.key
            if move.card[0] == "J":
                self.skip[opponent(player)] = True
            self.log.append(f"{player} plays {move.text()}")
            self.moved = move.opp
            if move.from_discard:
                self.took = True
            else:
                self.plays += 1
            winner = self._winner_after(player)
            if winner:
                self._finish(winner)
                return
        elif self.phase == "stuck":
            if move.action == "discard":
                self.hands[player].remove(move.card)
                self.discard.append(move.card)
                self.log.append(f"{player} discards {move.card}")
                self.plays += 1
            else:
                self.log.append(f"{player} passes")
                opts = self.use_options()
                if opts:
                    self.phase, self._moves = "use", opts
                    return
                self._end_turn()
        else:  # use: the opponent plays one of the passer's cards; the passer's turn ends
            opp = opponent(player)
            self.hands[player].remove(move.card)
            self.discard.append(move.card)
            self.key = move.key
            if move.card[0] == "J":
                self.skip[player] = True
            self.log.append(f"{opp} uses {player}'s {move.text()}")
            winner = self._winner_after(opp)
            if winner:
                self._finish(winner)
                return
            self._end_turn()
        self._advance()

    def is_terminal(self) -> bool:
        return self.won is not None

    def returns(self) -> List[float]:
        """+1 for the winner, -1 for the loser; 0 each while the game goes on."""
        if self.won is None:
            return [0.0, 0.0]
        return [1.0 if p == self.won else -1.0 for p in PLAYERS]

    def clone(self) -> "ContinuumState":
        new = object.__new__(ContinuumState)
        new.__dict__.update(self.__dict__)
        new.rng = SplitMix64(0)
        new.rng.state = self.rng.state
        new.draw, new.discard, new.log = list(self.draw), list(self.discard), list(self.log)
        new.hands = {p: list(h) for p, h in self.hands.items()}
        new.skip = dict(self.skip)
        new._moves = list(self._moves)
        return new

    @staticmethod
    def _text(move) -> str:
        if isinstance(move, (Option, Stuck)):
            return move.text()
        return repr(move)

    def format_move(self, move: Move) -> str:
        """``2h: rS x gS``, ``X=3 (top discard): rS> rS<``, ``Jd: opponent passes
        next turn``, ``Kd: rS k yS``; ``discard Qh``; ``pass``."""
        if not isinstance(move, (Option, Stuck)):
            raise InputError(f"not a Continuum move: {move!r}"[:80])
        return move.text()

    def parse_move(self, text: str) -> Move:
        """The legal move written ``text`` (spaces collapsed); InputError if none."""
        if not isinstance(text, str):
            raise InputError(f"not a move: {text!r}"[:80])
        want = " ".join(text.split())
        move = self._moves_by_text().get(want)
        if move is not None:
            return move
        if self.won is not None:
            raise InputError("the game is over: no move can be played")
        hint = {"play": "a card option such as '2h: rS>'", "use": "one of the passer's card options",
                "stuck": "'discard CARD' or 'pass'"}[self.phase]
        raise InputError(f"not a legal move here: {want[:60]!r} (expected {hint})")

    def _moves_by_text(self) -> Dict[str, Move]:
        """The legal moves by their text, built once per position (``_moves`` is
        always replaced, never changed in place), so that parsing is not quadratic
        in a position with a thousand options; the first of equal texts wins."""
        if getattr(self, "_index_of", None) is not self._moves:
            index: Dict[str, Move] = {}
            for move in self._moves:
                index.setdefault(move.text(), move)
            self._index, self._index_of = index, self._moves
        return self._index

    def winner(self) -> Optional[int]:
        return None if self.won is None else PLAYERS.index(self.won)


class Continuum(Game):
    """Continuum for two (A = seat 0 moves first); the variant is the balance
    rule's reading: ``turn`` (three per side at each turn's end) or ``card``."""

    name = "continuum"
    variants = BALANCES

    def __init__(self, variant: str = "turn") -> None:
        if variant not in BALANCES:
            raise InputError(f"no such balance rule: {str(variant)[:40]!r} (expected turn or card)")
        self.variant = variant

    @property
    def num_players(self) -> int:
        return 2

    def new_initial_state(self, seed: int) -> ContinuumState:
        return ContinuumState(seed, balance=self.variant)

    def params(self) -> dict:
        return {"balance": self.variant}
