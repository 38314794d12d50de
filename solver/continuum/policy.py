"""Policies for the full game: a random baseline and the puzzle-guided strong one.

A policy picks among the options the game computed (``choose``) and says what
to do when no card can be played (``stuck``).  Random choices use the game's
own generator, so a seeded game replays exactly.
"""
from __future__ import annotations

from typing import Dict, List, Tuple

from solver.continuum.codec import row_key
from solver.continuum.pieces import opponent
from solver.continuum.puzzle import bound
from solver.continuum.rules import Row
from solver.continuum.search import solve_puzzle
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


class PuzzlePolicy:
    """Follow the exchange puzzle's optimal plan (minimum pips, opponent frozen).

    Before each choice the policy solves the puzzle from the current row (node
    budget ``max_nodes``; a cache keyed by row).  An option that lands on the
    plan scores the plan's exact remaining pips; any other scores the puzzle's
    admissible bound plus one pip, so the plan wins ties.  Ties go to the option
    that leaves the opponent's bound highest, then to the first.
    """

    name = "puzzle"

    def __init__(self, *, max_nodes: int = 200_000, cache_size: int = 50_000) -> None:
        self.max_nodes = max_nodes
        self.cache_size = cache_size
        self.cache: Dict[Tuple[int, str], Dict[int, int]] = {}

    def remaining(self, row: Row, player: str) -> Dict[int, int]:
        """Row key -> exact remaining pips along the optimal plan from ``row``."""
        key = (row_key(row), player)
        if key not in self.cache:
            if len(self.cache) >= self.cache_size:
                self.cache.clear()
            res = solve_puzzle(row, player=player, max_nodes=self.max_nodes)
            table: Dict[int, int] = {}
            if res.verdict == "solved":
                left = res.pips
                table[key[0]] = left
                r = row
                for m, r2 in zip(res.plan, res.rows):
                    left -= _pips(m)
                    table[row_key(r2)] = left
            self.cache[key] = table
        return self.cache[key]

    def score(self, row: Row, player: str, plan: Dict[int, int]) -> Tuple[int, int]:
        k = row_key(row)
        mine = plan[k] if k in plan else bound(row, player, 0) + 1
        return mine, -bound(row, opponent(player), 0)

    def choose(self, game, player: str, options: List) -> int:
        plan = self.remaining(game.row, player)
        scores = [self.score(o.row, player, plan) for o in options]
        return min(range(len(options)), key=scores.__getitem__)

    def stuck(self, game, player: str) -> Tuple[str, int]:
        return ("discard", 0)                      # never lend a card to the opponent


def _pips(move) -> int:
    if move.kind == "king":
        return 0
    if move.kind == "switch":
        return move.pid % 3 + 1 + move.other % 3 + 1
    return move.pid % 3 + 1


def make_policy(name: str):
    if name == "random":
        return RandomPolicy()
    if name == "puzzle":
        return PuzzlePolicy()
    raise InputError(f"no such policy: {name!r} (expected {', '.join(POLICIES)})")
