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
from typing import Dict, FrozenSet, List, Optional, Tuple

from solver.continuum.cards import card_values, roll, shuffled_deck
from solver.continuum.pieces import check_player, opponent, own_pyramids
from solver.continuum.rules import Move, Row, is_won, legal_moves, start_row, three_per_side
from solver.continuum.rules import apply as apply_move
from solver.errors import InputError
from solver.rng import SplitMix64, check_seed

DEFAULT_MAX_TURNS = 1000


@dataclass(frozen=True)
class Option:
    """Playing ``card`` (for ``value`` pips, or its effect) as ``moves``, ending at ``row``."""

    card: str
    value: int
    moves: Tuple[Move, ...]
    row: Row
    from_discard: bool = False
    opp_used: bool = False

    def text(self) -> str:
        src = " (top discard)" if self.from_discard else ""
        val = f"={self.value}" if self.card == "X" else ""
        body = " ".join(m.text() for m in self.moves) or ("opponent passes next turn" if self.card[0] == "J" else "-")
        return f"{self.card}{val}{src}: {body}"


def _movable(row: Row, player: str, opp_used: bool) -> FrozenSet[int]:
    """Own pyramids, plus the opponent's single pyramids unless one moved this turn."""
    own = own_pyramids(player)
    if opp_used:
        return own
    singles = {st[0] for side in row.sides for st in side if len(st) == 1}
    return own | (singles - own)


def _spend(row: Row, player: str, pips: int, opp_used: bool, out: Dict, path: Tuple[Move, ...],
           seen: set) -> None:
    """Every row reachable by spending exactly ``pips`` on one-space moves and switches."""
    if (row, pips, opp_used) in seen:
        return
    seen.add((row, pips, opp_used))
    if pips == 0:
        out.setdefault((row, opp_used), path)
        return
    own = own_pyramids(player)
    for m, c in legal_moves(row, _movable(row, player, opp_used)):
        if c > pips:
            continue
        movers = (m.pid,) if m.other is None else (m.pid, m.other)
        foreign = sum(1 for p in movers if p not in own)
        if foreign > 1:
            continue
        _spend(apply_move(row, m), player, pips - c, opp_used or foreign == 1, out, path + (m,), seen)


def card_options(row: Row, player: str, card: str, *, opp_used: bool = False,
                 from_discard: bool = False) -> List[Option]:
    """Distinct legal ways to play ``card``; the balance rule is checked after the card."""
    found: Dict = {}
    values = card_values(card)
    out: List[Option] = []
    if card[0] == "J":
        return [Option(card, 0, (), row, from_discard, opp_used)]
    if card[0] == "K":
        own = own_pyramids(player)
        for m, _ in legal_moves(row, _movable(row, player, opp_used), kings=True):
            if m.kind == "king":
                foreign = (m.pid not in own) + (m.other not in own)
                if foreign <= 1:
                    found.setdefault((apply_move(row, m), opp_used or foreign == 1), (m,))
        values = (0,)
    for v in values:
        if card[0] == "K":
            items = found.items()
        else:
            spent: Dict = {}
            _spend(row, player, v, opp_used, spent, (), set())
            items = spent.items()
        for (end, used), moves in items:
            if three_per_side(end, "A") and three_per_side(end, "B"):
                out.append(Option(card, v, moves, end, from_discard, used))
    return out


@dataclass
class GameRecord:
    seed: int
    policies: Tuple[str, str]
    winner: Optional[str]          # None: unfinished within max_turns
    turns: int
    final: Row
    log: List[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"seed": self.seed, "policies": list(self.policies), "winner": self.winner,
                "outcome": "unfinished" if self.winner is None else f"{self.winner} wins",
                "turns": self.turns, "final_row": self.final.text(), "log": self.log}


class Game:
    """The mutable state of one game: row, hands, piles, pending jack skips."""

    def __init__(self, seed: int) -> None:
        self.rng = SplitMix64(check_seed(seed))
        self.draw = shuffled_deck(self.rng)      # draw from the front
        self.discard: List[str] = []             # top is the last
        self.hands: Dict[str, List[str]] = {"A": [], "B": []}
        self.skip = {"A": False, "B": False}
        self.row = start_row()
        self.log: List[str] = []

    def draw_cards(self, player: str, n: int) -> None:
        for _ in range(n):
            if not self.draw:
                self.draw, self.discard = self.discard, []   # turned over: oldest discard first
            if not self.draw:
                return
            self.hands[player].append(self.draw.pop(0))

    def options(self, player: str, opp_used: bool, *, take_discard: bool) -> List[Option]:
        opts: List[Option] = []
        for card in dict.fromkeys(self.hands[player]):
            opts.extend(card_options(self.row, player, card, opp_used=opp_used))
        top = self.discard[-1] if self.discard else None
        if take_discard and top is not None and top[0] not in "JQ" and self.hands[player]:
            opts.extend(card_options(self.row, player, top, opp_used=opp_used, from_discard=True))
        return opts

    def play_option(self, player: str, opt: Option) -> None:
        if opt.from_discard:
            self.discard.pop()
        else:
            self.hands[player].remove(opt.card)
        self.discard.append(opt.card)
        self.row = opt.row
        if opt.card[0] == "J":
            self.skip[opponent(player)] = True
        self.log.append(f"{player} plays {opt.text()}")

    def winner(self, mover: str) -> Optional[str]:
        for p in (mover, opponent(mover)):
            if is_won(self.row, p):
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
    plays, opp_used, took = 0, False, False
    while plays < must and game.hands[player]:
        opts = game.options(player, opp_used, take_discard=not took)
        if opts:
            opt = opts[policies[player].choose(game, player, opts)]
            game.play_option(player, opt)
            opp_used = opt.opp_used
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
        lent = [(c, o) for c in dict.fromkeys(game.hands[player])
                for o in card_options(game.row, opp, c)]
        if lent:
            card, _ = lent[0]
            opts = [o for _, o in lent]
            opt = opts[policies[opp].choose(game, opp, opts)]
            game.hands[player].remove(opt.card)
            game.discard.append(opt.card)
            game.row = opt.row
            if opt.card[0] == "J":
                game.skip[player] = True
            game.log.append(f"{opp} uses {player}'s {opt.text()}")
            w = game.winner(opp)
            if w:
                return w
        break
    return None


def play_game(seed: int, *, policies: Tuple[str, str] = ("puzzle", "puzzle"),
              max_turns: int = DEFAULT_MAX_TURNS) -> GameRecord:
    """Play game ``seed`` between two named policies (A first); see policy.py."""
    from solver.continuum.policy import make_policy
    if max_turns < 1:
        raise InputError("max_turns must be at least 1")
    game = Game(seed)
    pols = {"A": make_policy(policies[0]), "B": make_policy(policies[1])}
    player, winner, turns = "A", None, 0
    while turns < max_turns:
        turns += 1
        winner = play_turn(game, player, pols)
        if winner:
            break
        player = opponent(player)
    return GameRecord(seed, tuple(policies), winner, turns, game.row, game.log)


def summarise(records: List[GameRecord]) -> dict:
    """Win rate by seat and the distribution of game length (turns) of finished games."""
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
        "length_min": lengths[0] if lengths else None, "length_median": pct(0.5),
        "length_p90": pct(0.9), "length_max": lengths[-1] if lengths else None,
    }
