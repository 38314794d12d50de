"""Pictures of a position: terminal text and SVG, pure functions returning str.

Both carry what a player needs to follow a line: the four levels with file
and rank labels in the notation's own terms (``8C@2f3`` is level 2, file f,
rank 3), the reserves with their slot numbers, the open positions and the
legal targets marked, the last move highlighted, and a caption: variant,
deal, move number and, when given, the verdict.

>>> from solver.pyramid.deal import deal_from_seed
>>> from solver.pyramid.rules import PyramidGame, parse_move
>>> state = PyramidGame(deal_from_seed(42)).new_initial_state()
>>> state.apply(parse_move("9C@1e5"))
>>> print(text(state).splitlines()[0])
Continuous Pyramid · deal 42 · move 1 of 144 · last 9C@1e5
>>> print(text(state).splitlines()[1])
Level 1 (1 of 77)
>>> svg(state).startswith("<svg")
True
"""
from __future__ import annotations

from typing import List, Optional

from solver import svg as S
from solver.pyramid.deal import DEAL_SIZE
from solver.pyramid.geometry import FILES, LEVEL_SPAN, POSITIONS
from solver.pyramid.rules import Move, PyramidState
from solver.pyramid.tiles import TILES
from solver.term import paint

_AT = {(p.level, p.file, p.rank): p.index for p in POSITIONS}
LEVEL_SIZES = {1: 77, 2: 45, 3: 21, 4: 1}
VARIANT_NAMES = {"continuous": "Continuous Pyramid", "wild-dragons": "Pyramid of Wild Dragons"}

SUIT_COLOURS = {"B": "#2e7d32", "C": "#c62828", "D": "#1565c0"}
HONOUR_COLOURS = {27: "#546e7a", 28: "#ef6c00", 29: "#6a1b9a"}
SUIT_WORDS = {"B": "bamboos (B)", "C": "characters (C)", "D": "dots (D)"}
HONOUR_WORDS = {27: "winds (EW SW WW NW)", 28: "seasons (SP SU AU WI)", 29: "dragons (RD GD WD)"}
TERM_COLOURS = {"B": "green", "C": "red", "D": "blue", 27: "grey", 28: "yellow", 29: "magenta"}
LAST_COLOUR = "#d50000"
TARGET_FILL = "#c8e6c9"
OPEN_STROKE = "#2e7d32"

EMPTY, OPEN, TARGET = "··", "◦◦", "++"

STYLE = (f".tile rect,.reserve rect{{fill:#fffdf5;stroke:#9e9e9e;stroke-width:1}}"
         f".tile text,.reserve text{{text-anchor:middle;font-weight:bold}}"
         f".last rect{{stroke:{LAST_COLOUR};stroke-width:3}}"
         f".empty,.empty-slot{{fill:#eeeeee;stroke:#cfcfcf}}"
         f".target,.open{{stroke:{OPEN_STROKE};stroke-width:1.5;stroke-dasharray:3,2}}"
         f".target{{fill:{TARGET_FILL}}}.open{{fill:#eeeeee}}")
"""The tiles' and squares' looks: one style sheet instead of the same
attributes on each of 144 tiles (a replay holds 145 pictures)."""


def _last(state: PyramidState, last_move: Optional[Move]) -> Optional[Move]:
    return last_move if last_move is not None else (state.history[-1] if state.history else None)


def caption(state: PyramidState, *, verdict: Optional[str] = None, last_move: Optional[Move] = None) -> str:
    """``Continuous Pyramid · deal 42 · move 60 of 144 · won · last 8C@2f3``."""
    seed = state.game.deal.seed
    parts = [VARIANT_NAMES[state.game.variant], f"deal {seed}" if seed is not None else "given deal",
             f"move {state.placed} of {DEAL_SIZE}"]
    if verdict:
        parts.append(verdict)
    last = _last(state, last_move)
    if last is not None:
        parts.append(f"last {last}")
    return " · ".join(parts)


def _marks(state: PyramidState):
    """(open positions, legal targets): sets of position indices."""
    targets = {m.pos for m in state.legal_moves()}
    return set(state.open_positions()), targets


def _token_colour(face: int) -> str:
    tile = TILES[face]
    return TERM_COLOURS[tile.suit or tile.kind]


def text(state: PyramidState, *, last_move: Optional[Move] = None, verdict: Optional[str] = None,
         colour: bool = False) -> str:
    """The caption, the four levels as grids (rank 9 on top, files below), a
    key to the marks, the reserves with their slots, and the stock.

    An empty position is ``··``, an open one ``◦◦``, a legal target ``++``;
    the last move's tile is followed by ``*``.  ``colour`` adds ANSI colours
    (suits and honours, targets, the last move) on top of the same text.
    """
    last = _last(state, last_move)
    opened, targets = _marks(state)
    lines = [paint(caption(state, verdict=verdict, last_move=last), "bold", colour=colour)]
    for level in (1, 2, 3, 4):
        lo, hi = LEVEL_SPAN[level]
        filled = sum(1 for p in POSITIONS if p.level == level and state.board[p.index] is not None)
        lines.append(f"Level {level} ({filled} of {LEVEL_SIZES[level]})")
        for r in range(hi, lo - 1, -1):
            cells = []
            for f in range(lo, hi + 1):
                index = _AT.get((level, f, r))
                cells.append(_cell(state, index, last, opened, targets, colour))
            lines.append(f"  {r + 1} " + " ".join(cells).rstrip())
        lines.append("    " + " ".join(f"{FILES[f]}  " for f in range(lo, hi + 1)).rstrip())
    lines.append(f"Marks     {EMPTY} empty  {OPEN} open  {paint(TARGET, 'green', colour=colour)} legal target"
                 "  * last move")
    slots = " ".join(f"{i}:{_token(f, colour) if f is not None else '--'}"
                     for i, f in enumerate(state.reserve, start=1))
    lines.append(f"Reserves  {slots}")
    lines.append(f"Stock     {state.stock_left()} tiles   Placed {state.placed} of {DEAL_SIZE}")
    return "\n".join(lines)


def _token(face: int, colour: bool) -> str:
    return paint(TILES[face].token, _token_colour(face), colour=colour)


def _cell(state, index, last, opened, targets, colour) -> str:
    if index is None:
        return "   "
    face = state.board[index]
    if face is None:
        if index in targets:
            return paint(TARGET, "green", colour=colour) + " "
        return (OPEN if index in opened else EMPTY) + " "
    if last is not None and index == last.pos:
        return paint(TILES[face].token, _token_colour(face), "reverse", colour=colour) + "*"
    return _token(face, colour) + " "


def _tile_colour(face: int) -> str:
    tile = TILES[face]
    return SUIT_COLOURS[tile.suit] if tile.suit else HONOUR_COLOURS[tile.kind]


def svg(state: PyramidState, *, cell: int = 28, last_move: Optional[Move] = None,
        verdict: Optional[str] = None, title: Optional[str] = None) -> str:
    """An SVG picture: the caption, the four levels side by side with their
    file and rank labels, the reserves with slot numbers, the stock, a legend.

    Elements carry classes a test or a style sheet can count: ``tile`` (a
    placed tile), ``empty``/``open``/``target`` (an empty position, plain,
    open, or a legal target), ``reserve`` (a tile in a slot), ``last``
    (the last move's tile), ``caption``, ``file``, ``rank``.  ``title``
    replaces the caption's text.  Standard library only.
    """
    last = _last(state, last_move)
    opened, targets = _marks(state)
    label_w = 16
    gap = cell
    widths = {level: max((LEVEL_SPAN[level][1] - LEVEL_SPAN[level][0] + 1) * cell, 4 * cell)
              for level in (1, 2, 3, 4)}
    top = 58
    width = sum(widths.values()) + (gap + label_w) * 4 + gap
    board_bottom = top + 9 * cell
    reserve_y = board_bottom + 52
    legend_y = reserve_y + cell + 22
    height = legend_y + 3 * 16 + 8
    body: List[str] = [S.text(gap, 24, title or caption(state, verdict=verdict, last_move=last),
                              font_size=16, font_weight="bold", class_="caption", fill=S.INK)]
    x0 = gap + label_w
    for level in (1, 2, 3, 4):
        lo, hi = LEVEL_SPAN[level]
        filled = sum(1 for p in POSITIONS if p.level == level and state.board[p.index] is not None)
        body.append(S.text(x0, top + (8 - hi) * cell - 8, f"Level {level}  ({filled} of {LEVEL_SIZES[level]})",
                           font_size=12, fill=S.INK, class_="level"))
        for r in range(lo, hi + 1):   # squares keep their rank: levels sit centred
            body.append(S.text(x0 - 4, top + (8 - r) * cell + cell * 0.6, r + 1, font_size=10,
                               text_anchor="end", fill=S.MUTED, class_="rank"))
        for f in range(lo, hi + 1):
            body.append(S.text(x0 + (f - lo) * cell + (cell - 2) / 2, board_bottom + 14 - (8 - hi) * cell,
                               FILES[f], font_size=10, text_anchor="middle", fill=S.MUTED, class_="file"))
            for r in range(lo, hi + 1):
                index = _AT.get((level, f, r))
                if index is None:
                    continue
                x = x0 + (f - lo) * cell
                y = top + (8 - r) * cell
                body.append(_square(state, index, x, y, cell, last, opened, targets))
        x0 += widths[level] + gap + label_w
    body.append(S.text(gap, reserve_y + cell * 0.65, "Reserves", font_size=12, fill=S.INK))
    rx0 = gap + 70
    for i, face in enumerate(state.reserve):
        x = rx0 + i * (cell + 6)
        body.append(S.text(x + (cell - 2) / 2, reserve_y - 5, i + 1, font_size=10, text_anchor="middle",
                           fill=S.MUTED, class_="slot"))
        body.append(_tile(face, x, y=reserve_y, cell=cell, css="reserve" if face is not None else "empty-slot",
                          tip=f"slot {i + 1}"))
    body.append(S.text(rx0 + 9 * (cell + 6) + 10, reserve_y + cell * 0.65,
                       f"stock {state.stock_left()} tiles · placed {state.placed} of {DEAL_SIZE}",
                       font_size=12, fill=S.INK, class_="stock"))
    body += _legend(gap, legend_y, width)
    return S.document(width, height, body, title=title or caption(state, verdict=verdict, last_move=last),
                      background="#fafafa", style=STYLE)


def _legend(x: float, y: float, width: float) -> List[str]:
    tiles = [(S.swatch("#fffdf5", stroke=SUIT_COLOURS[s], width=2), SUIT_WORDS[s]) for s in "BCD"]
    honours = [(S.swatch("#fffdf5", stroke=HONOUR_COLOURS[k], width=2), HONOUR_WORDS[k]) for k in (27, 28, 29)]
    marks = [(S.swatch(TARGET_FILL, stroke=OPEN_STROKE, dash="3,2"), "legal target"),
             (S.swatch("#eeeeee", stroke=OPEN_STROKE, dash="3,2"), "open, nothing fits"),
             (S.swatch("#fffdf5", stroke=LAST_COLOUR, width=3), "last move")]
    col = (width - 2 * x) / 3
    return S.legend(x, y, tiles) + S.legend(x + col, y, honours) + S.legend(x + 2 * col, y, marks)


def _square(state, index, x, y, cell, last, opened, targets) -> str:
    name = POSITIONS[index].name
    face = state.board[index]
    if face is not None:
        is_last = last is not None and last.pos == index
        return _tile(face, x, y, cell, css="tile last" if is_last else "tile", tip=name)
    if index in targets:
        return S.rect(x, y, cell - 2, cell - 2, rx=3, class_="target", tip=f"{name}: legal target")
    if index in opened:
        return S.rect(x, y, cell - 2, cell - 2, rx=3, class_="open", tip=f"{name}: open, nothing fits")
    return S.rect(x, y, cell - 2, cell - 2, class_="empty", tip=name)


def _tile(face: Optional[int], x: float, y: float, cell: int, *, css: str, tip: str) -> str:
    if face is None:
        return S.rect(x, y, cell - 2, cell - 2, class_=css, tip=tip)
    token = TILES[face].token
    return S.group([S.rect(x, y, cell - 2, cell - 2, rx=3, tip=f"{tip} {token}"),
                    S.text(x + (cell - 2) / 2, y + cell * 0.62, token, fill=_tile_colour(face))],
                   class_=css, font_size=round(cell * 0.42))
