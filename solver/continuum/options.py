"""The ways to play one card: every row reachable by spending its exact value.

A card's whole value must be used, split over any one-space moves and border
switches whose pips sum to it; at most one opponent single moves per turn.
:func:`card_options` enumerates the end rows on 64-bit keys in compiled code
(``cext.continuum.spend``); :func:`reference_card_options` is its pure-Python twin on
:class:`Row` objects (the differential tests compare the two).

>>> from solver.continuum.rules import start_row
>>> from solver.continuum.codec import row_key
>>> fast = card_options(row_key(start_row()), "A", "2h")
>>> ref = reference_card_options(start_row(), "A", "2h")
>>> sorted((o.key, o.opp_used) for o in fast) == sorted((o.key, o.opp_used) for o in ref)
True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, FrozenSet, List, Tuple

from cext import continuum as _c
from solver.continuum.cards import card_values
from solver.continuum.codec import code_move, key_row, move_code, row_key
from solver.continuum.pieces import own_pyramids
from solver.continuum.rules import Move, Row, legal_moves, three_per_side
from solver.continuum.rules import apply as apply_move

MASK = {"A": 0, "B": 0}
for _p in "AB":
    for _i in own_pyramids(_p):
        MASK[_p] |= 1 << _i


@dataclass(frozen=True)
class Option:
    """Playing ``card`` (for ``value`` pips, or its effect) as the move codes
    ``codes``, ending at the row with key ``key``."""

    card: str
    value: int
    codes: Tuple[int, ...]
    key: int
    from_discard: bool = False
    opp_used: bool = False

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


def card_options(key: int, player: str, card: str, *, opp_used: bool = False,
                 from_discard: bool = False, need_balance: bool = True) -> List[Option]:
    """Distinct ways to play ``card`` from the row ``key`` (one per end row and
    opponent-move flag).  With ``need_balance`` only end rows where both players
    keep 3 pyramids per side."""
    own = MASK[player]
    if card[0] == "J":
        return [Option(card, 0, (), key, from_discard, opp_used)]
    found: Dict = {}
    if card[0] == "K":
        movable = own | (0 if opp_used else _c.side_masks(key)[1])
        for key2, _, code in _c.successors(key, movable, True):
            if code >> 8 == 3:
                foreign = (not (own >> ((code >> 4) & 15)) & 1) + (not (own >> (code & 15)) & 1)
                if foreign <= 1:
                    found.setdefault((key2, opp_used or foreign == 1), (code,))
    out = [Option(card, 0, codes, end, from_discard, used)
           for (end, used), codes in found.items() if not need_balance or balanced(end)]
    for v in card_values(card):
        out.extend(Option(card, v, codes, end, from_discard, used) for end, used, codes in
                   _c.spend(key, own, v, opp_used, MASK["A"], MASK["B"], need_balance))
    return out


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


def reference_card_options(row: Row, player: str, card: str, *, opp_used: bool = False,
                           from_discard: bool = False, need_balance: bool = True) -> List[Option]:
    """The pure-Python twin of :func:`card_options`, on rows."""
    if card[0] == "J":
        return [Option(card, 0, (), row_key(row), from_discard, opp_used)]
    own = own_pyramids(player)
    choices: List[Tuple[int, Dict]] = []
    if card[0] == "K":
        found: Dict = {}
        for m, _ in legal_moves(row, _movable(row, player, opp_used), kings=True):
            if m.kind == "king":
                foreign = (m.pid not in own) + (m.other not in own)
                if foreign <= 1:
                    found.setdefault((apply_move(row, m), opp_used or foreign == 1), (m,))
        choices.append((0, found))
    for v in card_values(card):
        spent: Dict = {}
        _spend(row, player, v, opp_used, spent, (), set())
        choices.append((v, spent))
    return [Option(card, v, tuple(move_code(m) for m in moves), row_key(end), from_discard, used)
            for v, table in choices for (end, used), moves in table.items()
            if not need_balance or (three_per_side(end, "A") and three_per_side(end, "B"))]
