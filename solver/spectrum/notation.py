"""Notation for Spectrum: colours, pieces, stashes, goals and moves.

A *piece* is ``SIZE:colour`` (``S``, ``M``, ``L`` = value 1, 2, 3).  A *stash*
is written colour by colour, sizes as letters: ``red:SM blue:LL`` (the empty
stash is ``-``); the parser also takes piece tokens such as ``M:red``.  A *goal*
is ``small/medium/large`` colours, e.g. ``red/blue/teal``; goals are separated
by commas or spaces.  Stashes are 36 counts, index ``colour * 3 + size``.

>>> s = parse_stash("M:red S:orange S:orange")
>>> format_stash(s)
'red:M orange:SS'
>>> parse_stash(format_stash(s)) == s
True
>>> format_goals(parse_goals("red/blue/teal, Pink/white/black,lime/red/red"))
'red/blue/teal pink/white/black lime/red/red'
"""
from __future__ import annotations

from typing import List, Sequence, Tuple

from solver.errors import InputError

COLOURS: Tuple[str, ...] = (
    "red", "orange", "yellow", "lime", "green", "teal",
    "cyan", "blue", "purple", "pink", "white", "black",
)
N_COLOURS = 12
SIZES = "SML"
VALUES = (1, 2, 3)
PER_KIND = 4
"""Pyramids of one colour and size outside the bags and goals (bank + stashes)."""

Stash = Tuple[int, ...]
Goal = Tuple[int, int, int]

_COLOUR_INDEX = {name: i for i, name in enumerate(COLOURS)}


def parse_colour(text: str) -> int:
    """The index of a colour name (case-insensitive)."""
    idx = _COLOUR_INDEX.get(text.strip().lower()) if isinstance(text, str) else None
    if idx is None:
        raise InputError(f"unknown colour {text!r} (expected one of {', '.join(COLOURS)})")
    return idx


def parse_size(text: str) -> int:
    """0, 1, 2 for ``S``, ``M``, ``L`` (case-insensitive)."""
    t = text.strip().upper()
    if len(t) != 1 or t not in SIZES:
        raise InputError(f"unknown size {text!r} (expected S, M or L)")
    return SIZES.index(t)


def piece(size: int, colour: int) -> str:
    """``M:red`` for (1, 0)."""
    return f"{SIZES[size]}:{COLOURS[colour]}"


def stash_value(stash: Sequence[int]) -> int:
    """Total points: 1 per small, 2 per medium, 3 per large."""
    return sum(n * VALUES[i % 3] for i, n in enumerate(stash))


def check_stash(counts: Sequence[int]) -> Stash:
    """Return the stash as a tuple, or raise InputError if it cannot exist."""
    if len(counts) != 36:
        raise InputError("a stash has 36 counts (12 colours x 3 sizes)")
    for i, n in enumerate(counts):
        if n < 0 or n > PER_KIND:
            raise InputError(
                f"impossible stash: {n} x {piece(i % 3, i // 3)} (at most {PER_KIND} exist)"
            )
    return tuple(counts)


def parse_stash(text: str) -> Stash:
    """A stash from ``red:SM blue:L`` or ``M:red S:blue`` tokens; ``-`` is empty."""
    if not isinstance(text, str):
        raise InputError("a stash must be text, e.g. 'red:SM blue:L'")
    counts = [0] * 36
    tokens = text.replace(",", " ").split()
    if tokens == ["-"]:
        tokens = []
    for tok in tokens:
        left, sep, right = tok.partition(":")
        if not sep or not left or not right:
            raise InputError(f"malformed stash token {tok!r} (expected e.g. red:SM or M:red)")
        if left.lower() in _COLOUR_INDEX:
            colour, sizes = parse_colour(left), right
        else:
            colour, sizes = parse_colour(right), left
        for ch in sizes:
            counts[colour * 3 + parse_size(ch)] += 1
    return check_stash(counts)


def format_stash(stash: Sequence[int]) -> str:
    """The canonical text of a stash (parses back with parse_stash)."""
    parts = []
    for c in range(N_COLOURS):
        letters = "".join(SIZES[s] * stash[c * 3 + s] for s in range(3))
        if letters:
            parts.append(f"{COLOURS[c]}:{letters}")
    return " ".join(parts) if parts else "-"


def parse_goal(text: str) -> Goal:
    """A goal from ``small/medium/large`` colour names."""
    parts = text.strip().split("/") if isinstance(text, str) else []
    if len(parts) != 3:
        raise InputError(f"malformed goal {text!r} (expected small/medium/large, e.g. red/blue/teal)")
    return tuple(parse_colour(p) for p in parts)  # type: ignore[return-value]


def format_goal(goal: Goal) -> str:
    return "/".join(COLOURS[c] for c in goal)


def check_goals(goals: Sequence[Goal]) -> Tuple[Goal, ...]:
    """Three goals whose smalls, mediums and larges come from the bags without repeats."""
    if len(goals) != 3:
        raise InputError(f"there are 3 goals on display, not {len(goals)}")
    for size in range(3):
        colours = [g[size] for g in goals]
        if len(set(colours)) != 3:
            raise InputError(
                f"impossible goals: two {SIZES[size]} goals of one colour (each bag holds one per colour)"
            )
    return tuple(tuple(g) for g in goals)  # type: ignore[return-value]


def parse_goals(text: str) -> Tuple[Goal, ...]:
    """Three goals separated by commas or spaces."""
    if not isinstance(text, str):
        raise InputError("goals must be text, e.g. 'red/blue/teal orange/lime/pink cyan/white/black'")
    return check_goals([parse_goal(t) for t in text.replace(",", " ").split()])


def format_goals(goals: Sequence[Goal]) -> str:
    return " ".join(format_goal(g) for g in goals)


def parse_direction(text: str) -> int:
    """+1 for ``cw``, -1 for ``ccw``."""
    t = text.strip().lower() if isinstance(text, str) else ""
    if t == "cw":
        return 1
    if t == "ccw":
        return -1
    raise InputError(f"unknown direction {text!r} (expected cw or ccw)")


def format_direction(direction: int) -> str:
    return "cw" if direction > 0 else "ccw"


def pieces_text(counts: Sequence[int], colour: int) -> List[str]:
    """``[S:red, S:red]`` for counts ``(2, 0, 0)`` of red."""
    return [piece(s, colour) for s in range(3) for _ in range(counts[s])]
