"""Boundary notation: squares, moves, position strings and the source's record.

Every parser has a formatter that it round-trips with.

Moves are written as in the source's record: a stone move then a pyramid move
``(c3-a3)(a1-c3)``, or a pyramid move alone ``(e1-e3)``.

>>> parse_move("(c3-a3)(a1-c3)")
(14, 12, 0, 14)
>>> format_move((None, None, 4, 16))
'(e1-e3)'

A position string lists ranks 6 down to 1, separated by ``/``; inside a rank,
files a to f.  A digit is a run of empty squares, ``r``/``g`` a Red/Green
stone, and a pyramid is its colour (``R`` red, ``Y`` yellow, ``G`` green, ``B``
blue) and size (``s``, ``m``, ``l``); a stack is its pyramids bottom to top
joined by ``+``.  After a space, ``r`` or ``g`` names the side to move.

>>> format_position(Position.start())
'Bl+Bm+Bs4Yl+Ym+Ys/6/2gr2/2rg2/6/Rl+Rm+Rs4Gl+Gm+Gs r'
>>> format_position(parse_position(START)) == START
True
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import List, Optional, Tuple

from solver.boundary.rules import (BASES, COLOUR_LETTERS, GREEN, N_PYRAMIDS, N_SQUARES,
                                   PLAYER_NAMES, RED, SIZE_LETTERS, Move, Position, owner,
                                   world)
from solver.errors import InputError

FILES = "abcdef"
STONE_LETTERS = "rg"
START = "Bl+Bm+Bs4Yl+Ym+Ys/6/2gr2/2rg2/6/Rl+Rm+Rs4Gl+Gm+Gs r"


def parse_square(text: str) -> int:
    """``"c3"`` -> 14.

    >>> parse_square("f6")
    35
    """
    t = text.strip().lower() if isinstance(text, str) else ""
    if len(t) != 2 or t[0] not in FILES or t[1] not in "123456":
        raise InputError(f"not a square: {text!r} (expected a1 to f6)")
    return (int(t[1]) - 1) * 6 + FILES.index(t[0])


def format_square(square: int) -> str:
    return f"{FILES[square % 6]}{square // 6 + 1}"


_MOVE_RE = re.compile(r"^\(([a-f][1-6])-([a-f][1-6])\)(?:\(([a-f][1-6])-([a-f][1-6])\))?$")


def parse_move(text: str) -> Move:
    """A move in record notation; says nothing about legality."""
    m = _MOVE_RE.match(text.strip().lower()) if isinstance(text, str) else None
    if m is None:
        raise InputError(f"not a move: {text!r} (expected e.g. (e1-e3) or (c3-a3)(a1-c3))")
    a, b, c, d = m.groups()
    if c is None:
        return (None, None, parse_square(a), parse_square(b))
    return (parse_square(a), parse_square(b), parse_square(c), parse_square(d))


def format_move(move: Move) -> str:
    s0, s1, p0, p1 = move
    pyr = f"({format_square(p0)}-{format_square(p1)})"
    return pyr if s0 is None else f"({format_square(s0)}-{format_square(s1)}){pyr}"


def format_pyramid(p: int) -> str:
    """``"Rl"`` for the large red pyramid."""
    return COLOUR_LETTERS[p // 3] + SIZE_LETTERS[p % 3]


def format_position(pos: Position) -> str:
    ranks = []
    for r in range(5, -1, -1):
        out, run = [], 0
        for f in range(6):
            s = r * 6 + f
            if pos.empty(s):
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            if s in pos.stones:
                out.append(STONE_LETTERS[pos.stones[s]])
            else:
                out.append("+".join(format_pyramid(p) for p in pos.stacks[s]))
        if run:
            out.append(str(run))
        ranks.append("".join(out))
    return "/".join(ranks) + " " + STONE_LETTERS[pos.side]


def parse_position(text: str) -> Position:
    """A position from its string; InputError names the first problem found.

    >>> parse_position("6/6/6/6/6/6 r")
    Traceback (most recent call last):
    ...
    solver.errors.InputError: position has 0 of the 12 pyramids (missing Rs, Rm, Rl, Ys, Ym...)
    """
    if not isinstance(text, str):
        raise InputError("a position must be text")
    parts = text.split()
    if len(parts) != 2 or parts[1] not in ("r", "g"):
        raise InputError(f"position must be '<ranks> r|g', got {text!r}")
    ranks = parts[0].split("/")
    if len(ranks) != 6:
        raise InputError(f"position must have 6 ranks separated by '/', got {len(ranks)}")
    stacks: List[List[int]] = [[] for _ in range(N_SQUARES)]
    stones = {}
    for i, rank_text in enumerate(ranks):
        r = 5 - i
        f, j = 0, 0
        while j < len(rank_text):
            ch = rank_text[j]
            if f >= 6:
                raise InputError(f"rank {r + 1} has more than 6 squares: {rank_text!r}")
            if ch in "123456":
                f += int(ch)
                j += 1
                continue
            s = r * 6 + f
            if ch in STONE_LETTERS:
                stones[s] = STONE_LETTERS.index(ch)
                j += 1
            elif ch in COLOUR_LETTERS:
                while True:
                    piece = rank_text[j:j + 2]
                    if len(piece) != 2 or piece[0] not in COLOUR_LETTERS or piece[1] not in SIZE_LETTERS:
                        raise InputError(f"bad pyramid {piece!r} on {format_square(s)} (expected e.g. Rl, Ym, Gs)")
                    stacks[s].append(COLOUR_LETTERS.index(piece[0]) * 3 + SIZE_LETTERS.index(piece[1]))
                    j += 2
                    if j < len(rank_text) and rank_text[j] == "+":
                        j += 1
                        continue
                    break
            else:
                raise InputError(f"unexpected {ch!r} in rank {r + 1}: {rank_text!r}")
            f += 1
        if f != 6:
            raise InputError(f"rank {r + 1} has {f} squares, expected 6: {rank_text!r}")
    pos = Position(stacks, stones, "rg".index(parts[1]))
    check_position(pos)
    return pos


def check_position(pos: Position) -> None:
    """Reject positions no game can reach: wrong piece counts or placements."""
    seen = sorted(p for st in pos.stacks for p in st)
    if seen != list(range(N_PYRAMIDS)):
        dup = sorted({format_pyramid(p) for p in seen if seen.count(p) > 1})
        if dup:
            raise InputError(f"position has pyramid {dup[0]} more than once")
        missing = [format_pyramid(p) for p in range(N_PYRAMIDS) if p not in seen]
        more = "..." if len(missing) > 5 else ""
        raise InputError(f"position has {len(seen)} of the 12 pyramids "
                         f"(missing {', '.join(missing[:5])}{more})")
    for player in (RED, GREEN):
        n = sum(1 for pl in pos.stones.values() if pl == player)
        if n != 2:
            raise InputError(f"{PLAYER_NAMES[player]} must have 2 stones, the position has {n}")
        wests = sum(1 for pl_s, pl in pos.stones.items() if pl == player and world(pl_s) == 0)
        if wests != 1:
            raise InputError(f"{PLAYER_NAMES[player]} must have one stone in each world")
        if min(pos.world_counts(player)) < 2:
            raise InputError(f"{PLAYER_NAMES[player]} has fewer than 2 pyramids in a world")
    for s, st in enumerate(pos.stacks):
        where = format_square(s)
        if len(st) > 1 and not any(s in b for b in BASES.values()):
            raise InputError(f"stack on {where}: pyramids stack only on bases")
        for player in (RED, GREEN):
            if s in BASES[1 - player] and (any(owner(p) == player for p in st)
                                           or pos.stones.get(s) == player):
                raise InputError(f"{PLAYER_NAMES[player]} piece on {where}, an opponent's base")
    if pos.has_won(pos.side):
        raise InputError(f"{PLAYER_NAMES[pos.side]} is to move but has already won")


# -- the source's record --------------------------------------------------

@dataclass(frozen=True)
class HalfMove:
    """One entry of a record: move number, side, and the text as written."""

    number: int
    side: int
    text: str

    def label(self) -> str:
        return f"{self.number}{'.' if self.side == RED else '...'} {self.text}"


_ENTRY_RE = re.compile(r"(?:^|\s)(\d+)\.\s")
_TOKEN_RE = re.compile(r"(?:\([^()\s]*\))+|\S+")


def parse_record(text: str) -> List[HalfMove]:
    """Half-moves of a numbered two-column record, in playing order.

    Lines without a move number (titles, the column header) are skipped; a
    line may hold two numbered entries, as the source prints them.

    >>> [h.label() for h in parse_record("1. (e1-e3)\\t(f1-f3)\\t2. resign")]
    ['1. (e1-e3)', '1... (f1-f3)', '2. resign']
    """
    if not isinstance(text, str):
        raise InputError("a record must be text")
    entries = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        starts = list(_ENTRY_RE.finditer(line))
        if not starts:
            if "(" in line and "-" in line and re.search(r"\([a-f][1-6]-", line):
                raise InputError(f"line {lineno}: moves without a move number: {line.strip()!r}")
            continue
        if line[:starts[0].start()].strip():
            raise InputError(f"line {lineno}: unexpected text before move {starts[0].group(1)}")
        for k, m in enumerate(starts):
            end = starts[k + 1].start() if k + 1 < len(starts) else len(line)
            number = int(m.group(1))
            tokens = _TOKEN_RE.findall(line[m.end():end])
            if not tokens or len(tokens) > 2:
                raise InputError(f"line {lineno}: move {number} must have one or two half-moves")
            if number in entries:
                raise InputError(f"line {lineno}: move number {number} appears twice")
            for tok in tokens:
                if tok.lower() != "resign":
                    parse_move(tok)
            entries[number] = (lineno, tokens)
    if not entries:
        raise InputError("the record holds no numbered moves")
    out: List[HalfMove] = []
    for number in range(1, max(entries) + 1):
        if number not in entries:
            raise InputError(f"the record skips move number {number}")
        _lineno, tokens = entries[number]
        for side, tok in enumerate(tokens):
            out.append(HalfMove(number, side, tok))
    ended = [i for i, h in enumerate(out) if h.text.lower() == "resign"]
    if ended and ended[0] != len(out) - 1:
        h = out[ended[0]]
        raise InputError(f"move {h.number} resigns but the record goes on")
    for i, h in enumerate(out[:-1]):
        if h.side == RED and len(entries[h.number][1]) == 1:
            raise InputError(f"move {h.number} has no Green half-move but the record goes on")
    return out


def format_record(halves: List[HalfMove]) -> str:
    """One numbered line per move, tab between the sides (parses back)."""
    lines = {}
    for h in halves:
        lines.setdefault(h.number, []).append(h.text)
    return "\n".join(f"{n}. " + "\t".join(ts) for n, ts in sorted(lines.items())) + "\n"
