"""Continuum's adapter to the one contract (:mod:`solver.game`), for the registry.

- **Game**: :class:`~solver.continuum.game.Continuum`, two seats (A = 0 moves
  first); the variant is the balance rule's reading, ``turn`` (three per side
  at each turn's end, the default) or ``card`` (after every card).
- **State**: :class:`~solver.continuum.game.ContinuumState`, one decision at a
  time (a card option, ``discard CARD`` / ``pass`` when stuck, the opponent's
  use of a passer's card); chance stays in the game's SplitMix64(seed).
- **Policies**: ``puzzle`` (:class:`~solver.continuum.policy.PuzzlePolicy`)
  and the shared ``random``.
- **Analyses**: ``puzzle``, the exchange puzzle from the start row by exact A*
  (it does not depend on the seed); the shared ``playout`` is added by the
  registry.

>>> res = puzzle_analysis(1, game=ENTRY.make_game(variant="turn", players=2), limits=Limits(),
...                       player="B", cost="pips", kings=False, max_step=6)
>>> res.verdict, res.fields["pips"], res.fields["moves"], len(res.line)
('won', 30, 13, 13)
>>> hard_instance(Limits(node_limit=1000)).limit
'nodes'
"""
from __future__ import annotations

from typing import Optional

from solver.continuum.codec import key_row
from solver.continuum.game import BALANCES, Continuum, ContinuumState, Stuck
from solver.continuum.options import balanced, reference_card_options
from solver.continuum.pieces import PLAYERS, opponent
from solver.continuum.policy import PuzzlePolicy
from solver.continuum.puzzle import COSTS
from solver.continuum.rules import Row, is_won, start_row, three_per_side
from solver.continuum.search import DEFAULT_LIMITS, solve_puzzle
from solver.game import Analysis, GameEntry, Limits, Result
from solver.options import Option

#: the puzzle does not depend on the seed; its hard instance is the start row
HARD_SEED = None
#: a strong-vs-strong game is about 2 moves a turn; 5000 moves covers the
#: 1000-turn cap the game had before the shared loop (docs/continuum.md)
MAX_MOVES = 5000

PUZZLE_OPTIONS = (
    Option("player", str, "A", "Whose trees exchange (A: red+yellow, B: blue+green).", choices=PLAYERS),
    Option("cost", str, "pips", "Minimise pips (ties: fewer moves) or moves (ties: fewer pips).",
           choices=COSTS),
    Option("kings", bool, False, "Allow kings: switch two own neighbouring singles for 0 pips."),
    Option("max_step", int, 6, "Skip moves dearer than this many pips (5: what the card game can play).",
           low=1, high=6),
)


def make_game(*, variant: Optional[str] = None, players: Optional[int] = None) -> Continuum:
    return Continuum(variant or "turn")


def run_puzzle(row: Optional[Row] = None, *, limits: Optional[Limits] = None, player: str = "A",
               cost: str = "pips", kings: bool = False, max_step: int = 6) -> Result:
    """The exchange puzzle from ``row`` (default: the start) as a contract
    :class:`~solver.game.Result`: ``won`` with the optimal plan as ``line``,
    ``lost`` when no exchange exists (every reachable row searched), else
    ``unknown`` naming the limit.  Fields: player, cost, kings, max_step, row,
    pips, moves (the plan's totals; None unless won), states (rows stored)."""
    return solve_puzzle(row if row is not None else start_row(), player=player, cost=cost, kings=kings,
                        max_step=max_step, limits=limits).to_result()


def puzzle_analysis(seed: int, *, game, limits: Limits, player: str, cost: str, kings: bool,
                    max_step: int) -> Result:
    """The exchange puzzle from the start row (``seed`` is not used)."""
    return run_puzzle(limits=limits, player=player, cost=cost, kings=kings, max_step=max_step)


PUZZLE = Analysis(
    "puzzle", "exact", puzzle_analysis,
    "The exchange puzzle from the start row: minimum pips (or moves) to exchange both trees, "
    "proved by A* (won: solved; lost: impossible).",
    options=PUZZLE_OPTIONS, seeded=False, default_limits=DEFAULT_LIMITS)


def hard_instance(limits: Limits) -> Result:
    """The start-row puzzle (10,363 expansions by default): with
    ``node_limit=1000`` it answers unknown / nodes."""
    return run_puzzle(limits=limits)


def reference_options(state: ContinuumState) -> list:
    """The texts of the legal moves at ``state``, from the pure-Python card
    enumeration (:func:`~solver.continuum.options.reference_card_options` on
    rows) and the rules page's turn, instead of the compiled ``spend``."""
    row, player = key_row(state.key), state.turn_player
    if state.phase == "stuck":
        return [Stuck("discard", c).text() for c in dict.fromkeys(state.hands[player])] + ["pass"]
    if state.phase == "use":
        return [o.text() for c in dict.fromkeys(state.hands[player])
                for o in reference_card_options(row, opponent(player), c)]

    def both_balanced(r: Row) -> bool:
        return three_per_side(r, "A") and three_per_side(r, "B")

    hand = state.hands[player]
    per_card = state.balance == "card"
    final = state.plays + 1 == state.must
    cands = [o for c in dict.fromkeys(hand)
             for o in reference_card_options(row, player, c, opp=state.moved, need_balance=per_card or final)]
    top = state.discard[-1] if state.discard else None
    taken = []
    if not state.took and top is not None and top[0] not in "JQ" and hand:
        taken = reference_card_options(row, player, top, opp=state.moved, from_discard=True,
                                       need_balance=per_card)

    def restorable(o) -> bool:
        rest = list(hand)
        if not o.from_discard:
            rest.remove(o.card)
        return any(reference_card_options(o.row, player, c, opp=o.opp) for c in dict.fromkeys(rest))

    if not per_card:      # an earlier play (the top discard's always) must leave a way back
        if not final:
            cands = [o for o in cands if both_balanced(o.row) or restorable(o)]
        taken = [o for o in taken if both_balanced(o.row) or restorable(o)]
    return [o.text() for o in cands + taken]


def reference_check(state: ContinuumState) -> None:
    """Assert the contract state agrees with the pure-Python reference here:
    the legal moves (as notation, compared as sets, each written once) with
    :func:`reference_options`, the balance rule at a turn's first decision, and
    the end of the game with :func:`~solver.continuum.rules.is_won`."""
    row = key_row(state.key)
    if state.is_terminal():
        assert state.legal_moves() == []
        assert is_won(row, state.won), (state.won, row.text())
        return
    assert not (is_won(row, "A") or is_won(row, "B")), row.text()
    texts = [state.format_move(m) for m in state.legal_moves()]
    assert len(set(texts)) == len(texts), "two legal moves share a notation"
    ref = reference_options(state)
    assert sorted(texts) == sorted(ref), (state.phase, row.text(), sorted(set(texts) ^ set(ref))[:5])
    if state.phase in ("play", "stuck") and state.plays == 0 and not state.took and state.moved < 0:
        assert balanced(state.key), row.text()


ENTRY = GameEntry(
    name="continuum",
    title="Continuum",
    make_game=make_game,
    variants=BALANCES,
    default_variant="turn",
    players=(2, 2),
    policies={"puzzle": lambda game: PuzzlePolicy()},
    default_policies=("puzzle", "puzzle"),
    max_moves=MAX_MOVES,
    analyses=(PUZZLE,),
)
