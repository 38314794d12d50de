"""The ways to play one card: every row reachable by spending its exact value.

A card's whole value must be used, split over any one-space moves and border
switches whose pips sum to it.  One of the opponent's single pyramids may move
per turn (one pyramid, possibly several steps, while it stays single).
:func:`card_options` enumerates the end rows on 64-bit keys in compiled code
(``solver.cext.continuum.spend``); :func:`reference_card_options` is its pure-Python twin on
:class:`Row` objects (the differential tests compare the two).

>>> from solver.continuum.rules import start_row
>>> from solver.continuum.codec import row_key
>>> fast = card_options(row_key(start_row()), "A", "2h")
>>> ref = reference_card_options(start_row(), "A", "2h")
>>> [(o.key, o.opp, o.codes) for o in fast] == [(o.key, o.opp, o.codes) for o in ref]
True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, FrozenSet, List, Tuple

from solver.cext import continuum as _c
from solver.continuum.cards import card_values
from solver.continuum.codec import code_move, key_row, move_code, row_key
from solver.continuum.pieces import own_pyramids
from solver.continuum.rules import Move, Row, legal_moves, three_per_side
from solver.continuum.rules import apply as apply_move

ALL = (1 << 12) - 1
MASK = {"A": 0, "B": 0}
for _p in "AB":
    for _i in own_pyramids(_p):
        MASK[_p] |= 1 << _i


@dataclass(frozen=True)
class Option:
    """Playing ``card`` (for ``value`` pips, or its effect) as the move codes
    ``codes``, ending at the row with key ``key``; ``opp`` is the opponent's
    pyramid moved this turn so far (-1: none)."""

    card: str
    value: int
    codes: Tuple[int, ...]
    key: int
    from_discard: bool = False
    opp: int = -1

    @property
    def row(self) -> Row:
        return key_row(self.key)

    @property
    def moves(self) -> Tuple[Move, ...]:
        return tuple(code_move(c) for c in self.codes)

    def text(self) -> str:
        src = " (top discard)" if self.from_discard else ""
        val = f"={self.value}" if self.card == "X" else ""
        body = " ".join(m.text() for m in self.moves) or (
            "opponent passes next turn" if self.card[0] == "J" else "-")
        return f"{self.card}{val}{src}: {body}"


def balanced(key: int) -> bool:
    """Both players have exactly 3 of their pyramids on each side."""
    west, _ = _c.side_masks(key)
    return bin(west & MASK["A"]).count("1") == 3 and bin(west & MASK["B"]).count("1") == 3


def card_options(key: int, player: str, card: str, *, opp: int = -1,
                 from_discard: bool = False, need_balance: bool = True) -> List[Option]:
    """Distinct ways to play ``card`` from the row ``key`` (one per end row and
    opponent pyramid moved).  ``opp``: the opponent's pyramid already moved
    this turn (-1 none); only it, while single, may move again.  With
    ``need_balance`` only end rows where both players keep 3 per side."""
    own = MASK[player]
    if card[0] == "J":     # moves nothing: playable where the row already meets the balance
        return [Option(card, 0, (), key, from_discard, opp)] if not need_balance or balanced(key) else []
    out: List[Option] = []
    if card[0] == "K":
        found: Dict = {}
        movable = own | (_c.side_masks(key)[1] & (ALL if opp < 0 else 1 << opp))
        for key2, _, code in _c.successors(key, movable, True):
            nopp = _c.move_opp(own, code, opp)
            if code >> 8 == 3 and nopp != -2:
                found.setdefault((key2, nopp), (code,))
        out = [Option(card, 0, codes, end, from_discard, o)
               for (end, o), codes in found.items() if not need_balance or balanced(end)]
    for v in card_values(card):
        out.extend(Option(card, v, codes, end, from_discard, o) for end, o, codes in
                   _c.spend(key, own, v, opp, MASK["A"], MASK["B"], need_balance))
    return out


def _movable(row: Row, player: str, opp: int) -> FrozenSet[int]:
    """Own pyramids, plus the opponent's singles if none moved this turn, or
    the one that moved if it is still single."""
    own = own_pyramids(player)
    singles = {st[0] for side in row.sides for st in side if len(st) == 1} - own
    return own | (singles if opp < 0 else singles & {opp})


def _after(own: FrozenSet[int], move: Move, opp: int) -> int:
    """The opponent's pyramid moved this turn after ``move``; -2 if not allowed."""
    movers = (move.pid,) if move.other is None else (move.pid, move.other)
    foreign = [p for p in movers if p not in own]
    if not foreign:
        return opp
    if len(foreign) > 1 or (opp >= 0 and foreign[0] != opp):
        return -2
    return foreign[0]


def _spend(row: Row, player: str, pips: int, opp: int, out: Dict, path: Tuple[Move, ...],
           seen: set) -> None:
    """Every row reachable by spending exactly ``pips`` on one-space moves and switches."""
    if (row, pips, opp) in seen:
        return
    seen.add((row, pips, opp))
    if pips == 0:
        out.setdefault((row, opp), path)
        return
    own = own_pyramids(player)
    for m, c in legal_moves(row, _movable(row, player, opp)):
        nopp = _after(own, m, opp)
        if c > pips or nopp == -2:
            continue
        _spend(apply_move(row, m), player, pips - c, nopp, out, path + (m,), seen)


def reference_card_options(row: Row, player: str, card: str, *, opp: int = -1,
                           from_discard: bool = False, need_balance: bool = True) -> List[Option]:
    """The pure-Python twin of :func:`card_options`, on rows."""
    if card[0] == "J":
        ok = not need_balance or (three_per_side(row, "A") and three_per_side(row, "B"))
        return [Option(card, 0, (), row_key(row), from_discard, opp)] if ok else []
    own = own_pyramids(player)
    choices: List[Tuple[int, Dict]] = []
    if card[0] == "K":
        found: Dict = {}
        for m, _ in legal_moves(row, _movable(row, player, opp), kings=True):
            nopp = _after(own, m, opp)
            if m.kind == "king" and nopp != -2:
                found.setdefault((apply_move(row, m), nopp), (m,))
        choices.append((0, found))
    for v in card_values(card):
        spent: Dict = {}
        _spend(row, player, v, opp, spent, (), set())
        choices.append((v, spent))
    return [Option(card, v, tuple(move_code(m) for m in moves), row_key(end), from_discard, o)
            for v, table in choices for (end, o), moves in table.items()
            if not need_balance or (three_per_side(end, "A") and three_per_side(end, "B"))]
