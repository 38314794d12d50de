"""The puzzle-guided strong policy of the full game.

A :class:`solver.game.Policy` picks one of ``state.legal_moves()`` at each
decision point of :class:`~solver.continuum.game.ContinuumState`: a card option
(its own turn, or a passer's card it may use), or what to discard when stuck.
The random baseline is the shared :class:`solver.game.RandomPolicy` (uniform
over the legal moves, drawn from the seat's own generator).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from solver.cext import continuum as _c
from solver.continuum.pieces import PLAYER_COLOURS, PLAYERS, opponent, own_pyramids
from solver.continuum.search import mask
from solver.game import Policy


def entangled(key: int, player: str) -> int:
    """The mask of the relaxed puzzle: own pyramids and every pyramid sharing a
    stack with one of them (so a buried pyramid of ours can be dug out)."""
    own = mask(own_pyramids(player))
    out = own
    for side in _c.decode_key(key):
        for stack in side:
            m = mask(stack)
            if m & own:
                out |= m
    return out


#: the largest card is worth 5 pips, so the game's plans skip 6-pip switches
GAME_MAX_STEP = 5
ALL = (1 << 12) - 1


class DistanceTable:
    """Plans of the exchange puzzle for the strong policy, keyed by ``(row
    key, player, level)`` in a bounded dict.

    Level 0 is the puzzle with the opponent frozen; level 1 lets the
    opponent's pyramids that share a stack with ours move too (a buried
    pyramid must be dug out); level 2 lets every pyramid move.  Moves cost at
    most 5 pips (no card is worth 6).  The compiled search is weighted A*
    (``weight`` 2: the plan costs at most twice the minimum, and needs a few
    hundred expansions instead of tens of thousands); ``weight=1`` makes it
    exact.  Levels 1 and 2 search larger spaces, add ``relaxed_extra`` to
    the weight and stop after ``relaxed_nodes`` expansions.  An entry is
    ``(cost, {row key: pips left})`` along the
    plan, or ``(None, {})`` when the search found nothing.  Every entry is a
    function of its key alone, so clearing the full table never changes play:
    a seeded game replays the same whatever ran before it.  An entry takes
    about 2 KB, so the default ``max_entries`` keeps the table near 40 MB."""

    def __init__(self, *, weight: int = 2, relaxed_extra: int = 2, max_entries: int = 20_000,
                 max_nodes: int = 20_000, relaxed_nodes: int = 3_000, max_states: int = 20_000) -> None:
        self.weight, self.relaxed_extra, self.max_entries = weight, relaxed_extra, max_entries
        self.max_nodes, self.relaxed_nodes, self.max_states = max_nodes, relaxed_nodes, max_states
        self.plans: Dict[Tuple[int, str, int], Tuple[Optional[int], Dict[int, int]]] = {}
        self.solves = 0

    def plan(self, key: int, player: str, level: int = 0) -> Tuple[Optional[int], Dict[int, int]]:
        """``(cost, {row key: pips left})`` of the plan from ``key``."""
        k = (key, player, level)
        if k not in self.plans:
            if len(self.plans) >= self.max_entries:
                self.plans.clear()
            self.solves += 1
            movable = (None, entangled(key, player), ALL)[level]
            status, _, pips, _, path, _, _ = _c.astar(
                key, mask(own_pyramids(player)), mask(PLAYER_COLOURS[player]), 0, False, False,
                self.relaxed_nodes if level else self.max_nodes, self.max_states, GAME_MAX_STEP, movable,
                self.weight + self.relaxed_extra * (level > 0))
            if status != "found":
                self.plans[k] = (None, {})
            else:
                left, rows = pips, {key: pips}
                for key2, code in path:
                    left -= code_pips(code)
                    rows[key2] = left
                self.plans[k] = (pips, rows)
        return self.plans[k]


def frozen_possible(key: int, player: str) -> bool:
    """False when the frozen puzzle surely has no answer: the player lacks 3
    pyramids per side (own switches keep the counts), or an opponent's pyramid
    lies on one of theirs (that pyramid can never move, and no tree stack may
    hold a foreign pyramid)."""
    own = mask(own_pyramids(player))
    west, _ = _c.side_masks(key)
    if bin(west & own).count("1") != 3:
        return False
    for side in _c.decode_key(key):
        for stack in side:
            seen_own = False
            for p in stack:
                if (own >> p) & 1:
                    seen_own = True
                elif seen_own:
                    return False
    return True


#: shared by every puzzle policy in the process (the start row's plan is reused)
DISTANCES = DistanceTable()


class PuzzlePolicy(Policy):
    """Follow the exchange puzzle's plan (moves of at most 5 pips, since no
    card is worth more); see :class:`DistanceTable`.

    Each choice plans from the current row with the opponent frozen; when the
    opponent blocks every exchange (one of their pyramids buries one of ours,
    or our balance is broken mid-turn) it plans at level 1, then 2.  An option
    ending on a row of that plan scores its remaining pips, so the policy plays
    as far along the plan as the card allows (leftover pips go on a step and
    back).  When no option reaches the plan, the ``fallback`` options with the
    lowest bound are planned too and the best is played.  A jack (the opponent
    loses a turn) scores as ``jack_bonus`` pips of progress.  Ties: the option
    leaving the opponent's bound highest, then the first.  When stuck it
    discards (queen first, then king, jack, then the lowest card), never passes.
    """

    name = "puzzle"

    def __init__(self, *, table: Optional[DistanceTable] = None, fallback: int = 2,
                 jack_bonus: int = 3) -> None:
        self.table = table if table is not None else DISTANCES
        self.fallback = fallback
        self.jack_bonus = jack_bonus

    def choose(self, state, rng):
        """The move to play at this decision point (``rng`` is not used: the
        policy is deterministic)."""
        moves = state.legal_moves()
        player = PLAYERS[state.current_player()]
        if state.phase == "stuck":
            return self.stuck(state, player)
        return moves[self.pick(state, player, moves)]

    def pick(self, game, player: str, options: List) -> int:
        """The index of the option to play among ``options``."""
        own, theirs = mask(own_pyramids(player)), mask(own_pyramids(opponent(player)))
        for level in range(0 if frozen_possible(game.key, player) else 1, 3):
            cost, rows = self.table.plan(game.key, player, level)
            if cost is not None:
                break
        movable = (None, entangled(game.key, player), ALL)[level]
        known = dict(rows)
        if cost is not None and not any(o.key in rows for o in options):
            ranked = sorted(set(o.key for o in options), key=lambda k: _c.bound(k, own, 0, movable))
            for k in ranked[:self.fallback]:
                c = self.table.plan(k, player, level)[0]
                if c is not None:
                    known[k] = c
        best, best_score = 0, None
        for i, o in enumerate(options):
            mine = known.get(o.key)
            if mine is None:
                mine = 1000 + _c.bound(o.key, own, 0, movable)
            if o.card[0] == "J":
                mine -= self.jack_bonus
            score = (mine, -_c.bound(o.key, theirs, 0))
            if best_score is None or score < best_score:
                best, best_score = i, score
        return best

    def stuck(self, state, player: str):
        """Discard (queen first, then king, jack, ace, 2 ... 5, joker); never pass."""
        from solver.continuum.game import Stuck
        hand = state.hands[player]
        order = "QKJA2345X"
        return Stuck("discard", min(hand, key=lambda c: order.index(c[0])))


def code_pips(code: int) -> int:
    """Pips of a compiled move code (kind << 8 | pid << 4 | low)."""
    kind, pid, low = code >> 8, (code >> 4) & 15, code & 15
    if kind == 3:
        return 0
    if kind == 2:
        return pid % 3 + 1 + low % 3 + 1
    return pid % 3 + 1

