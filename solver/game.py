"""The one contract every game conforms to (OpenSpiel's Game/State split).

A :class:`Game` is immutable: its name, variant and parameters, and
``new_initial_state(seed)``.  A :class:`State` is one position in play; its
moves are checked (an illegal move raises :class:`~solver.errors.InputError`)
and written in the game's notation through ``format_move``/``parse_move``,
which round-trip.  A :class:`Policy` picks a move.  :class:`Limits` bound every
search of every game; an exact question answers a :class:`Result` (a verdict
from the side to move's view), a play-out an :class:`Outcome` (a winner seat
and scores, never a verdict).

Shared mechanisms (the play-out loop in :mod:`solver.playout`, the batch
runner, statistics, the CLI) are written once against these classes; each
game's adapter lives in ``solver/<game>/contract.py`` and is registered in
:mod:`solver.games`.

>>> Limits(node_limit=1000).node_limit
1000
>>> Limits(time_limit=float("nan"))
Traceback (most recent call last):
...
solver.errors.InputError: time_limit must be a finite number > 0, not nan
>>> Result("won", nodes=5, line=["1B@1e5"]).to_dict()["verdict"]
'won'
>>> Outcome(winner=None, scores=[0.0, 0.0], finished=True, length=3).to_dict()["verdict"] is None
True
"""
from __future__ import annotations

import abc
import math
import os
from dataclasses import dataclass, field
from typing import Any, ClassVar, Dict, List, Optional, Sequence, Tuple

from solver.errors import InputError

VERDICTS = ("won", "lost", "draw", "unknown")
"""An exact question's answers, from the side to move's (or the solitaire player's) view."""

LIMITS = ("nodes", "time", "memory")
"""What stopped a search that answers ``unknown``."""


# -- limits ------------------------------------------------------------------
MAX_NODES = 2 ** 63 - 1
"""Node counters are signed 64-bit in every kernel."""

MAX_SECONDS = 1e9
"""About 30 years: a longer time limit is a typing slip (and overflows clocks in C)."""

def _memory_mb() -> float:
    """Physical memory in MiB (a bound for table sizes); 64 GiB if unknown."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2 ** 20
    except (ValueError, OSError, AttributeError):
        return 65536.0


def check_positive(name: str, value, *, integer: bool = False):
    """``value`` as a finite positive number (an int if ``integer``), else InputError."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"{name} must be a number, not {value!r}")
    if integer and (not isinstance(value, int) and not float(value).is_integer()):
        raise InputError(f"{name} must be a whole number, not {value!r}")
    if not math.isfinite(value) or value <= 0:
        raise InputError(f"{name} must be a finite number > 0, not {value!r}")
    return int(value) if integer else float(value)


@dataclass(frozen=True)
class Limits:
    """What a search may spend: nodes, seconds and table memory (MiB).

    None means the game's default.  Every search of every game honours all three
    (a game whose search has no table takes ``table_mb`` as a bound on its state
    store).  Values are checked on construction: finite, positive, and a table
    no larger than the machine's memory.
    """

    node_limit: Optional[int] = None
    time_limit: Optional[float] = None
    table_mb: Optional[float] = None

    def __post_init__(self) -> None:
        if self.node_limit is not None:
            nodes = check_positive("node_limit", self.node_limit, integer=True)
            if nodes > MAX_NODES:
                raise InputError(f"node_limit must be at most {MAX_NODES} (a 64-bit counter)")
            object.__setattr__(self, "node_limit", nodes)
        if self.time_limit is not None:
            seconds = check_positive("time_limit", self.time_limit)
            if seconds > MAX_SECONDS:
                raise InputError(f"time_limit must be at most {MAX_SECONDS:.0e} seconds")
            object.__setattr__(self, "time_limit", seconds)
        if self.table_mb is not None:
            mb = check_positive("table_mb", self.table_mb)
            if mb > _memory_mb():
                raise InputError(f"table_mb {mb:g} is more than this machine's memory "
                                 f"({_memory_mb():.0f} MiB)")
            object.__setattr__(self, "table_mb", mb)

    def or_defaults(self, *, node_limit: Optional[int], time_limit: Optional[float],
                    table_mb: Optional[float]) -> "Limits":
        """These limits with the game's defaults where they are None."""
        return Limits(self.node_limit if self.node_limit is not None else node_limit,
                      self.time_limit if self.time_limit is not None else time_limit,
                      self.table_mb if self.table_mb is not None else table_mb)

    def to_dict(self) -> Dict[str, Any]:
        return {"node_limit": self.node_limit, "time_limit": self.time_limit, "table_mb": self.table_mb}


# -- answers -----------------------------------------------------------------
@dataclass
class Result:
    """The answer to an exact question.

    ``verdict`` is one of :data:`VERDICTS`; ``limit`` (one of :data:`LIMITS`) is
    set exactly when the verdict is ``unknown`` because a limit stopped the
    search.  ``line`` is the solution, plan or principal line in the game's
    move notation (empty when there is none).  ``fields`` are the game's own
    keys; they are always present (None when they do not apply).
    """

    verdict: str
    limit: Optional[str] = None
    nodes: int = 0
    seconds: float = 0.0
    line: List[str] = field(default_factory=list)
    fields: Dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict {self.verdict!r} is not one of {VERDICTS}")
        if self.limit is not None and self.limit not in LIMITS:
            raise ValueError(f"limit {self.limit!r} is not one of {LIMITS}")
        if (self.limit is not None) != (self.verdict == "unknown"):
            raise ValueError(f"verdict {self.verdict} with limit {self.limit}: a limit goes with unknown")

    def to_dict(self) -> Dict[str, Any]:
        out = {"verdict": self.verdict, "limit": self.limit, "nodes": int(self.nodes),
               "seconds": round(float(self.seconds), 6), "line": list(self.line)}
        out.update(self.fields)
        return out


@dataclass
class Outcome:
    """How a play-out ended: the ``winner`` seat (0-based, or None for a draw or
    an unfinished game) and each seat's ``scores``.  ``finished`` is False when
    the move cap stopped the game.  It carries no verdict."""

    winner: Optional[int]
    scores: List[float]
    finished: bool
    length: int
    line: List[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    fields: Dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> Dict[str, Any]:
        out = {"verdict": None, "limit": None, "outcome": "finished" if self.finished else "unfinished",
               "winner": self.winner, "scores": list(self.scores), "length": self.length,
               "nodes": int(self.nodes), "seconds": round(float(self.seconds), 6),
               "line": list(self.line)}
        out.update(self.fields)
        return out


# -- games, states and policies -----------------------------------------------
class State(abc.ABC):
    """A position in play.  Subclasses hold the game's readable reference rules."""

    @abc.abstractmethod
    def current_player(self) -> int:
        """The seat to move (0-based; 0 in a solitaire)."""

    @abc.abstractmethod
    def legal_moves(self) -> list:
        """Every legal move, in a fixed (canonical) order."""

    @abc.abstractmethod
    def apply(self, move) -> None:
        """Play ``move``; an illegal move raises InputError naming the reason."""

    @abc.abstractmethod
    def is_terminal(self) -> bool:
        """True when the game is over (no move is asked for)."""

    @abc.abstractmethod
    def returns(self) -> List[float]:
        """Each seat's score (OpenSpiel's returns); meaningful when terminal."""

    @abc.abstractmethod
    def clone(self) -> "State":
        """An independent copy: playing on it never changes this state."""

    @abc.abstractmethod
    def format_move(self, move) -> str:
        """The move in the game's notation; ``parse_move`` reads it back."""

    @abc.abstractmethod
    def parse_move(self, text: str):
        """A move from its notation (InputError if it does not parse)."""

    def winner(self) -> Optional[int]:
        """The seat that won a finished game, or None (draw, or not over).

        The default reads ``returns()``: the one seat with the highest score,
        and in a solitaire seat 0 when its return is positive."""
        if not self.is_terminal():
            return None
        scores = self.returns()
        if len(scores) == 1:
            return 0 if scores[0] > 0 else None
        best = max(scores)
        tops = [i for i, s in enumerate(scores) if s == best]
        return tops[0] if len(tops) == 1 else None

    def apply_text(self, text: str) -> None:
        """Parse and play one move written in notation."""
        self.apply(self.parse_move(text))


class Game(abc.ABC):
    """A game with fixed parameters; immutable once made."""

    name: ClassVar[str] = ""
    variants: ClassVar[Tuple[str, ...]] = ()

    @property
    @abc.abstractmethod
    def num_players(self) -> int:
        """Seats at the table (1 for a solitaire)."""

    @abc.abstractmethod
    def new_initial_state(self, seed: int) -> State:
        """The start of game ``seed`` (a deal, a shuffle; ignored where nothing is random)."""

    def params(self) -> Dict[str, Any]:
        """The parameters that make this game what it is (for reports)."""
        return {}


class Policy(abc.ABC):
    """A way to play: ``choose(state, rng)`` returns one of ``state.legal_moves()``.

    ``rng`` is the seat's own SplitMix64 (see :func:`solver.playout.seat_rng`),
    so a seeded play-out replays exactly.
    """

    name: ClassVar[str] = ""

    @abc.abstractmethod
    def choose(self, state: State, rng) -> Any:
        """The move to play in ``state`` (never called on a terminal state)."""


class RandomPolicy(Policy):
    """Uniform over the legal moves, drawn with ``rng.below`` (written once for every game)."""

    name = "random"

    def choose(self, state: State, rng) -> Any:
        moves = state.legal_moves()
        return moves[rng.below(len(moves))]


def check_moves(state: State, texts: Sequence[str]) -> State:
    """Play moves given in notation on a clone; InputError names the first bad one."""
    state = state.clone()
    for number, text in enumerate(texts, start=1):
        try:
            state.apply_text(text)
        except InputError as exc:
            raise InputError(f"move {number} ({str(text)[:40]}): {exc}") from None
    return state


# -- what a game declares to the registry ------------------------------------
ANALYSIS_KINDS = ("exact", "playout")
"""``exact``: answers a :class:`Result` (won/lost/draw/unknown); ``playout``: an :class:`Outcome`."""


@dataclass(frozen=True)
class Analysis:
    """A per-seed question a game answers, with its declared options.

    ``run(seed, *, game, limits, **options)`` returns a :class:`Result` (kind
    ``exact``) or an :class:`Outcome` (kind ``playout``).  ``seeded`` is False
    when the answer does not depend on the seed (it is then refused over a
    seed range).  ``histogram`` names whole-number fields whose distribution
    the statistics show (e.g. Spectrum's minimum ``turns``).  ``default_limits``
    are the limits used where the caller gives none; ``batch_limits`` those a
    batch asks with first where its caller gives none (a smaller first pass over
    many seeds, whose ``unknown`` seeds ``--retry-unknown`` takes up with
    larger limits; the batch stores them in its question).  ``rows``, optional,
    answers a whole chunk of a batch at once: ``rows(seeds, *, game, limits,
    **options)`` returns each seed's stored columns (seed, verdict, limit,
    nodes, seconds, fields JSON), the same as ``run`` for each seed gives
    through :func:`solver.chunk.row_values`, times aside (a test of the game's
    must hold them together).
    """

    name: str
    kind: str
    run: Any
    help: str
    options: Tuple[Any, ...] = ()
    seeded: bool = True
    histogram: Tuple[str, ...] = ()
    default_limits: Limits = Limits()
    rows: Any = None
    batch_limits: Limits = Limits()

    def __post_init__(self) -> None:
        if self.kind not in ANALYSIS_KINDS:
            raise ValueError(f"analysis kind {self.kind!r} is not one of {ANALYSIS_KINDS}")


@dataclass(frozen=True)
class GameEntry:
    """A game as the registry knows it: how to make it, its analyses and policies.

    ``make_game(variant=..., players=...)`` builds the immutable :class:`Game`;
    ``players`` is the (fewest, most) seats it takes; ``policies`` maps a
    policy name to a factory ``factory(game) -> Policy`` (the one policy
    registry: :mod:`solver.games` adds the shared ``random``);
    ``default_policies`` seats a play-out when none are named; ``max_moves`` caps
    a play-out.  ``analyses`` are the game's own; every game with policies also
    offers the shared ``playout`` (:func:`solver.games.playout_analysis`).
    """

    name: str
    title: str
    make_game: Any
    variants: Tuple[str, ...] = ()
    default_variant: Optional[str] = None
    players: Tuple[int, int] = (1, 1)
    policies: Dict[str, Any] = field(default_factory=dict)
    default_policies: Tuple[str, ...] = ("random",)
    max_moves: int = 1000
    analyses: Tuple[Analysis, ...] = ()
