"""Policies for the full game: a random baseline and the puzzle-guided strong one.

A policy picks among the options the game computed (``choose``) and says what
to do when no card can be played (``stuck``).  Random choices use the game's
own generator, so a seeded game replays exactly.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from cext import continuum as _c
from solver.continuum.pieces import PLAYER_COLOURS, opponent, own_pyramids
from solver.continuum.search import mask
from solver.errors import InputError

POLICIES = ("random", "puzzle")


class RandomPolicy:
    name = "random"

    def choose(self, game, player: str, options: List) -> int:
        return game.rng.below(len(options))

    def stuck(self, game, player: str) -> Tuple[str, int]:
        hand = game.hands[player]
        k = game.rng.below(len(hand) + 1)          # one of the cards, or pass
        return ("pass", -1) if k == len(hand) else ("discard", k)


#: the largest card is worth 5 pips, so the game's plans skip 6-pip switches
GAME_MAX_STEP = 5


class DistanceTable:
    """Exact remaining pips of the exchange puzzle (opponent frozen, moves of
    at most 5 pips), keyed by ``(row key, player)``, in a bounded dict.

    One compiled A* from a row gives the exact distance of every row on its
    optimal plan (a suffix of an optimal plan is optimal), so those are stored
    too.  When the table is full it is cleared; an unsolved row (a limit hit)
    is stored as ``None``."""

    def __init__(self, *, max_entries: int = 200_000, max_nodes: int = 100_000,
                 max_states: int = 100_000) -> None:
        self.max_entries, self.max_nodes, self.max_states = max_entries, max_nodes, max_states
        self.table: Dict[Tuple[int, str], Optional[int]] = {}
        self.plans: Dict[Tuple[int, str], List[int]] = {}
        self.solves = 0

    def plan(self, key: int, player: str) -> List[int]:
        """The row keys along an optimal plan from ``key`` (``key`` first), or []."""
        k = (key, player)
        if k not in self.plans:
            if len(self.table) >= self.max_entries:
                self.table.clear()
                self.plans.clear()
            self.solves += 1
            status, _, pips, _, path, _, _ = _c.astar(
                key, mask(own_pyramids(player)), mask(PLAYER_COLOURS[player]), 0, False, False,
                self.max_nodes, self.max_states, GAME_MAX_STEP)
            if status != "found":
                self.table[k] = None
                self.plans[k] = []
                return []
            keys, left = [key], pips
            self.table[k] = left
            for key2, code in path:
                left -= code_pips(code)
                self.table[(key2, player)] = left
                keys.append(key2)
            self.plans[k] = keys
        return self.plans[k]

    def distance(self, key: int, player: str) -> Optional[int]:
        if (key, player) not in self.table:
            self.plan(key, player)
        return self.table[(key, player)]


#: shared by every puzzle policy in the process (the start row's plan is reused)
DISTANCES = DistanceTable()


class PuzzlePolicy:
    """Follow the exchange puzzle's optimal plan (opponent frozen, moves of at
    most 5 pips since no card is worth more).

    Each choice solves the puzzle from the current row (cached, see
    :class:`DistanceTable`).  An option ending on a row of that plan scores its
    exact remaining pips, so the policy plays as far along the plan as the card
    allows (wasting leftover pips on a step and back when needed).  When no
    option reaches the plan, the ``fallback`` options with the lowest bound are
    solved exactly and the best is played.  A jack (the opponent loses a turn)
    scores as ``jack_bonus`` pips of progress.  Ties: the option leaving the
    opponent's bound highest, then the first.  When stuck it discards (queen
    first, then king, jack, then the lowest card), never passes.
    """

    name = "puzzle"

    def __init__(self, *, table: Optional[DistanceTable] = None, fallback: int = 2,
                 jack_bonus: int = 3) -> None:
        self.table = table if table is not None else DISTANCES
        self.fallback = fallback
        self.jack_bonus = jack_bonus

    def choose(self, game, player: str, options: List) -> int:
        opp = opponent(player)
        plan = self.table.plan(game.key, player)
        on_plan = {k: i for i, k in enumerate(plan)}
        d0 = self.table.distance(game.key, player)
        own, theirs = mask(own_pyramids(player)), mask(own_pyramids(opp))
        best, best_score = 0, None
        reached = [o for o in options if o.key in on_plan]
        if not reached and d0 is not None:
            ranked = sorted(set(o.key for o in options), key=lambda k: _c.bound(k, own, 0))
            for k in ranked[:self.fallback]:
                self.table.distance(k, player)
        for i, o in enumerate(options):
            d = self.table.table.get((o.key, player))
            mine = d if d is not None else 1000 + _c.bound(o.key, own, 0)
            if o.card[0] == "J":
                mine -= self.jack_bonus
            score = (mine, -_c.bound(o.key, theirs, 0))
            if best_score is None or score < best_score:
                best, best_score = i, score
        return best

    def stuck(self, game, player: str) -> Tuple[str, int]:
        hand = game.hands[player]
        order = "QKJA2345X"
        return ("discard", min(range(len(hand)), key=lambda i: order.index(hand[i][0])))


def code_pips(code: int) -> int:
    """Pips of a compiled move code (kind << 8 | pid << 4 | low)."""
    kind, pid, low = code >> 8, (code >> 4) & 15, code & 15
    if kind == 3:
        return 0
    if kind == 2:
        return pid % 3 + 1 + low % 3 + 1
    return pid % 3 + 1


def make_policy(name: str):
    if name == "random":
        return RandomPolicy()
    if name == "puzzle":
        return PuzzlePolicy()
    raise InputError(f"no such policy: {name!r} (expected {', '.join(POLICIES)})")
