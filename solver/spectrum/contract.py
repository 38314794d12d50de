"""Spectrum's adapter to the one contract (:mod:`solver.game`), registered in :mod:`solver.games`.

:class:`SpectrumState` is a small adapter over the readable reference state
(:class:`solver.spectrum.rules.State`, kept as ``.ref``): the reference
keeps its public ``winner`` attribute (the seat that won, used by tests and
the kernel comparisons), which the contract's ``winner()`` method would
shadow, so the reference class cannot itself be a :class:`solver.game.State`.
Every rule stays in rules.py; the adapter only maps names:

- ``current_player()`` is ``ref.to_move`` (0-based); ``legal_moves()`` the
  reference's moves in its fixed order (``[pass]`` when there is no move);
  ``apply(move)`` is checked (an illegal move raises
  :class:`~solver.spectrum.rules.IllegalMove`, an InputError);
- ``returns()`` is 1 for the winning seat and 0 for the others (in the
  solitaire 1 once won); ``winner()`` the reference's ``winner``;
- ``format_move`` is ``str(move)`` (``exchange M:red -> S:orange S:orange``,
  pieces taken from a player ``[S:orange from P2]``) and ``parse_move`` its
  inverse :func:`solver.spectrum.rules.parse_move`.

The analysis is ``min-turns`` (the seeded solitaire's proven minimum, by the
compiled IDA*); the policies are the shared ``random`` and ``solver``
(:class:`solver.spectrum.play.SolverPolicy`).

>>> st = Spectrum(players=2).new_initial_state(3)
>>> st.current_player(), st.num_players, len(st.legal_moves())
(0, 2, 24)
>>> m = st.legal_moves()[0]
>>> st.parse_move(st.format_move(m)) == m
True
>>> st.apply(m); st.current_player()
1
>>> run_min_turns(10, game=Spectrum(), limits=DEFAULT_LIMITS).fields["turns"]
7
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from solver.errors import InputError
from solver.game import Analysis, Game, GameEntry, Limits, Result, State
from solver.spectrum import rules
from solver.spectrum.play import SolverPolicy
from solver.spectrum.search import DEFAULT_LIMITS, solve_seed

MAX_MOVES = 200
"""A play-out without a winner after 200 moves (one move is one turn) is unfinished."""


class SpectrumState(State):
    """A Spectrum position under the contract (see the module): ``ref`` is the
    reference :class:`solver.spectrum.rules.State`."""

    def __init__(self, ref: rules.State):
        self.ref = ref

    @property
    def num_players(self) -> int:
        return len(self.ref.stashes)

    def current_player(self) -> int:
        return self.ref.to_move

    def legal_moves(self) -> List[rules.Move]:
        return self.ref.legal_moves()

    def apply(self, move) -> None:
        self.ref.apply(move)

    def is_terminal(self) -> bool:
        return self.ref.is_terminal()

    def returns(self) -> List[float]:
        return [1.0 if self.ref.winner == seat else 0.0 for seat in range(self.num_players)]

    def winner(self) -> Optional[int]:
        return self.ref.winner

    def clone(self) -> "SpectrumState":
        return SpectrumState(self.ref.clone())

    def format_move(self, move) -> str:
        return str(move)

    def parse_move(self, text: str) -> rules.Move:
        return rules.parse_move(text)

    def __str__(self) -> str:
        return self.ref.text()


class Spectrum(Game):
    """Spectrum for ``players`` seats (1 = the solitaire); the seed draws the goals."""

    name = "spectrum"

    def __init__(self, players: int = 1):
        if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 4:
            raise InputError(f"Spectrum takes 1 to 4 players, not {players!r}")
        self.players = players

    @property
    def num_players(self) -> int:
        return self.players

    def new_initial_state(self, seed: int) -> SpectrumState:
        return SpectrumState(rules.Game(self.players, seed).new_state())

    def params(self) -> Dict[str, Any]:
        return {"players": self.players}


def make_game(*, variant: Optional[str] = None, players: Optional[int] = None) -> Spectrum:
    if variant is not None:
        raise InputError("spectrum has no variants")
    return Spectrum(players if players is not None else 1)


def run_min_turns(seed: int, *, game, limits: Limits) -> Result:
    """The seeded solitaire's proven minimum turns (whatever ``game``'s seats:
    the question is the 1-player game); see :func:`solver.spectrum.search.min_turns`."""
    return solve_seed(seed, limits=limits)


MIN_TURNS = Analysis(
    "min-turns", "exact", run_min_turns,
    "The seeded solitaire's minimum turns, proven (IDA*): verdict won (turns, the plan as line) "
    "or unknown (lower_bound).",
    histogram=("turns",), default_limits=DEFAULT_LIMITS)

ENTRY = GameEntry(
    name="spectrum",
    title="Spectrum",
    make_game=make_game,
    players=(1, 4),
    policies={"solver": lambda game: SolverPolicy()},
    default_policies=("solver",),
    max_moves=MAX_MOVES,
    analyses=(MIN_TURNS,),
)

# -- what the contract tests need -------------------------------------------
HARD_SEED = 27
"""The hardest seed of 1-10000 for min-turns (11 turns, 1.8M nodes)."""


def hard_instance(limits: Limits) -> Result:
    """min-turns on seed :data:`HARD_SEED` under ``limits`` (the defaults fill the rest)."""
    return solve_seed(HARD_SEED, limits=limits)


def reference_check(state: SpectrumState) -> None:
    """Assert that the compiled kernel agrees with the reference at ``state``:
    the mover's moves (as notation without the players pieces come from, in
    order, each once) and, for each, the mover's stash, the direction and the
    goals after it."""
    from solver.cext import spectrum as fast
    from solver.spectrum.search import tree_for
    ref = state.ref if isinstance(state, SpectrumState) else state
    moves = ref.legal_moves()
    if ref.is_terminal():
        assert moves == [], "a finished game offers no move"
        return
    seat = ref.to_move
    tree = tree_for(ref)
    got = fast.successors(ref.stashes[seat], ref.direction, tree)
    want: Dict[int, tuple] = {}
    for move in moves:
        if move.kind == rules.PASS:
            continue
        nxt = ref.clone()
        nxt.apply(move)
        after = (tuple(nxt.stashes[seat]), nxt.direction, [tuple(g) for g in nxt.goals])
        assert want.setdefault(move.code(), after) == after, f"{move}: sources change the result"
    assert [str(rules.Move.from_code(g[0])) for g in got] == \
        [str(rules.Move.from_code(c)) for c in want], "the kernel's moves differ from the reference's"
    for code, stash, direction, node, _won in got:
        assert (tuple(stash), direction, [tuple(g) for g in tree.goals(node)]) == want[code], \
            f"{rules.Move.from_code(code)}: the kernel's result differs from the reference's"
    assert (moves == [rules.Move(rules.PASS)]) == (not got)


__all__ = ["ENTRY", "Spectrum", "SpectrumState", "HARD_SEED", "hard_instance", "reference_check",
           "run_min_turns", "MAX_MOVES"]
