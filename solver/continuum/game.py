"""The full game: hands, dice, the turn structure, and seeded play-outs.

One SplitMix64(seed) drives the game: first the deck's shuffle, then every die
and every random policy choice in the order they happen.  Player A sits first.
Every option a policy may choose is computed here; a policy only picks.

>>> rec = play_game(7, policies=("random", "random"), max_turns=40)
>>> rec.winner in ("A", "B", None), rec.turns > 0
(True, True)
>>> play_game(7, policies=("random", "random"), max_turns=40).log == rec.log
True
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from solver.cext import continuum as _c
from solver.continuum.cards import roll, shuffled_deck
from solver.continuum.codec import key_row, row_key
from solver.continuum.options import Option, balanced, card_options
from solver.continuum.pieces import PLAYER_COLOURS, opponent
from solver.continuum.rules import Row, start_row
from solver.errors import InputError
from solver.rng import SplitMix64, check_seed

DEFAULT_MAX_TURNS = 1000
#: when the three-per-side rule is checked: at the end of each turn (the rules
#: page's reading) or after every card (stricter)
BALANCES = ("turn", "card")
GOAL_MASK = {p: sum(1 << c for c in PLAYER_COLOURS[p]) for p in "AB"}


@dataclass
class GameRecord:
    seed: int
    policies: Tuple[str, str]
    balance: str
    winner: Optional[str]          # None: unfinished within max_turns
    turns: int
    final: Row
    log: List[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"seed": self.seed, "policies": list(self.policies), "balance": self.balance,
                "winner": self.winner,
                "outcome": "unfinished" if self.winner is None else f"{self.winner} wins",
                "turns": self.turns, "final_row": self.final.text(), "log": self.log}


class Game:
    """The mutable state of one game: row, hands, piles, pending jack skips."""

    def __init__(self, seed: int, *, balance: str = "turn") -> None:
        if balance not in BALANCES:
            raise InputError(f"no such balance rule: {balance!r} (expected turn or card)")
        self.balance = balance
        self.rng = SplitMix64(check_seed(seed))
        self.draw = shuffled_deck(self.rng)      # draw from the front
        self.discard: List[str] = []             # top is the last
        self.hands: Dict[str, List[str]] = {"A": [], "B": []}
        self.skip = {"A": False, "B": False}
        self.key = row_key(start_row())
        self.log: List[str] = []

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
        """Every legal way to play a card now.  ``final``: this play ends the
        turn, so (with the per-turn balance rule) it must leave both players 3
        per side; an earlier play may unbalance the row only if another card
        still in hand can then restore the balance."""
        hand = self.hands[player]
        per_card = self.balance == "card"
        cands: List[Option] = []
        for card in dict.fromkeys(hand):
            cands.extend(card_options(self.key, player, card, opp=opp,
                                      need_balance=per_card or final))
        top = self.discard[-1] if self.discard else None
        if take_discard and top is not None and top[0] not in "JQ" and hand:
            cands.extend(card_options(self.key, player, top, opp=opp, from_discard=True,
                                      need_balance=per_card))
        if per_card or final:
            return cands
        return [o for o in cands if balanced(o.key) or self._restorable(player, o)]

    def _restorable(self, player: str, opt: Option) -> bool:
        rest = list(self.hands[player])
        if not opt.from_discard:
            rest.remove(opt.card)
        return any(card_options(opt.key, player, c, opp=opt.opp, need_balance=True)
                   for c in dict.fromkeys(rest))

    def play_option(self, player: str, opt: Option) -> None:
        if opt.from_discard:
            self.discard.pop()
        else:
            self.hands[player].remove(opt.card)
        self.discard.append(opt.card)
        self.key = opt.key
        if opt.card[0] == "J":
            self.skip[opponent(player)] = True
        self.log.append(f"{player} plays {opt.text()}")

    def winner(self, mover: str) -> Optional[str]:
        for p in (mover, opponent(mover)):
            if _c.goal(self.key, GOAL_MASK[p]):
                return p
        return None


def play_turn(game: Game, player: str, policies: Dict) -> Optional[str]:
    """One turn of ``player``; returns the winner if the game ended."""
    opp = opponent(player)
    if game.skip[player]:
        game.skip[player] = False
        game.log.append(f"{player} passes (jack)")
        return None
    if not game.hands[player]:
        d1, d2 = roll(game.rng), roll(game.rng)
        game.draw_cards(player, max(d1, d2))
        must = min(d1, d2, len(game.hands[player]))
        game.log.append(f"{player} rolls {d1} {d2}: draws to {len(game.hands[player])}, plays {must}")
    else:
        must = 1
    plays, moved, took = 0, -1, False      # moved: the opponent's pyramid moved this turn
    while plays < must and game.hands[player]:
        opts = game.options(player, moved, take_discard=not took, final=plays + 1 == must)
        if opts:
            opt = opts[policies[player].choose(game, player, opts)]
            game.play_option(player, opt)
            moved = opt.opp
            if opt.from_discard:
                took = True
            else:
                plays += 1
            w = game.winner(player)
            if w:
                return w
            continue
        action, idx = policies[player].stuck(game, player)
        if action == "discard":
            card = game.hands[player].pop(idx)
            game.discard.append(card)
            game.log.append(f"{player} discards {card}")
            plays += 1
            continue
        game.log.append(f"{player} passes")
        opts = [o for c in dict.fromkeys(game.hands[player]) for o in card_options(game.key, opp, c)]
        if opts:
            opt = opts[policies[opp].choose(game, opp, opts)]
            game.hands[player].remove(opt.card)
            game.discard.append(opt.card)
            game.key = opt.key
            if opt.card[0] == "J":
                game.skip[player] = True
            game.log.append(f"{opp} uses {player}'s {opt.text()}")
            w = game.winner(opp)
            if w:
                return w
        break
    return None


def play_game(seed: int, *, policies: Tuple[str, str] = ("puzzle", "puzzle"),
              max_turns: int = DEFAULT_MAX_TURNS, balance: str = "turn") -> GameRecord:
    """Play game ``seed`` between two named policies (A first); see policy.py."""
    from solver.continuum.policy import make_policy
    if max_turns < 1:
        raise InputError("max_turns must be at least 1")
    game = Game(seed, balance=balance)
    pols = {"A": make_policy(policies[0]), "B": make_policy(policies[1])}
    player, winner, turns = "A", None, 0
    while turns < max_turns:
        turns += 1
        winner = play_turn(game, player, pols)
        if winner:
            break
        player = opponent(player)
    return GameRecord(seed, tuple(policies), balance, winner, turns, game.row, game.log)


def wilson(k: int, n: int, z: float = 1.96) -> Tuple[float, float]:
    """The Wilson score interval (95 % by default) of a proportion k/n.

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    """
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return (max(0.0, mid - half), min(1.0, mid + half))


def summarise(records: List[GameRecord]) -> dict:
    """Win rate by seat (with 95 % Wilson intervals) and the distribution of
    game length in turns over the finished games."""
    n = len(records)
    lengths = sorted(r.turns for r in records if r.winner)
    wins = {p: sum(1 for r in records if r.winner == p) for p in ("A", "B")}

    def pct(q):
        return lengths[min(len(lengths) - 1, int(q * len(lengths)))] if lengths else None
    return {
        "games": n, "policies": list(records[0].policies) if records else [],
        "first_seed": records[0].seed if records else None,
        "wins_A": wins["A"], "wins_B": wins["B"], "unfinished": n - wins["A"] - wins["B"],
        "win_rate_A": wins["A"] / n if n else None, "win_rate_B": wins["B"] / n if n else None,
        "win_rate_A_95": [round(x, 4) for x in wilson(wins["A"], n)],
        "win_rate_B_95": [round(x, 4) for x in wilson(wins["B"], n)],
        "length_min": lengths[0] if lengths else None, "length_p10": pct(0.1),
        "length_p25": pct(0.25), "length_median": pct(0.5), "length_p75": pct(0.75),
        "length_p90": pct(0.9), "length_p99": pct(0.99), "length_max": lengths[-1] if lengths else None,
        "length_mean": round(sum(lengths) / len(lengths), 2) if lengths else None,
    }
