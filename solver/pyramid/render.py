"""Pictures of a position: terminal text and SVG, pure functions returning str.

>>> from solver.pyramid.deal import deal_from_seed
>>> from solver.pyramid.rules import PyramidGame, parse_move
>>> state = PyramidGame(deal_from_seed(42)).new_initial_state()
>>> state.apply(parse_move("9C@1e5"))
>>> print(text(state).splitlines()[0])
Level 1 (1 of 77)
>>> svg(state).startswith("<svg")
True
"""
from __future__ import annotations

from typing import Optional
from xml.sax.saxutils import escape

from solver.pyramid.geometry import FILES, LEVEL_SPAN, POSITIONS
from solver.pyramid.rules import Move, PyramidState
from solver.pyramid.tiles import TILES

_AT = {(p.level, p.file, p.rank): p.index for p in POSITIONS}
LEVEL_SIZES = {1: 77, 2: 45, 3: 21, 4: 1}


def _cell(state: PyramidState, index: Optional[int]) -> str:
    if index is None:
        return "  "
    face = state.board[index]
    return ".." if face is None else TILES[face].token


def text(state: PyramidState, *, last_move: Optional[Move] = None) -> str:
    """The four levels as grids (rank 9 on top), then the reserves and the stock.

    Empty positions are ``..``; squares a level does not have are blank; the
    last move, if given, is marked with ``*``.
    """
    lines = []
    for level in (1, 2, 3, 4):
        lo, hi = LEVEL_SPAN[level]
        filled = sum(1 for p in POSITIONS if p.level == level and state.board[p.index] is not None)
        lines.append(f"Level {level} ({filled} of {LEVEL_SIZES[level]})")
        for r in range(hi, lo - 1, -1):
            cells = []
            for f in range(lo, hi + 1):
                index = _AT.get((level, f, r))
                mark = "*" if last_move is not None and index == last_move.pos else " "
                cells.append(_cell(state, index) + mark)
            lines.append(f"  {r + 1} " + " ".join(cells).rstrip())
        lines.append("    " + " ".join(f"{FILES[f]}  " for f in range(lo, hi + 1)).rstrip())
    slots = " ".join(f"{i}:{TILES[f].token if f is not None else '--'}"
                     for i, f in enumerate(state.reserve, start=1))
    lines.append(f"Reserves  {slots}")
    lines.append(f"Stock     {state.stock_left()} tiles   Placed {state.placed} of 144")
    return "\n".join(lines)


SUIT_COLOURS = {"B": "#2e7d32", "C": "#c62828", "D": "#1565c0"}
HONOUR_COLOURS = {27: "#546e7a", 28: "#ef6c00", 29: "#6a1b9a"}


def _tile_colour(face: int) -> str:
    tile = TILES[face]
    return SUIT_COLOURS[tile.suit] if tile.suit else HONOUR_COLOURS[tile.kind]


def svg(state: PyramidState, *, cell: int = 28, last_move: Optional[Move] = None,
        title: Optional[str] = None) -> str:
    """An SVG picture: the four levels side by side, then the reserve slots.

    Suits and honours have their own colours; the last move is outlined.
    Built with the standard library only.
    """
    gap = cell
    widths = {level: (LEVEL_SPAN[level][1] - LEVEL_SPAN[level][0] + 1) * cell for level in (1, 2, 3, 4)}
    top = 40 if title else 16
    width = sum(widths.values()) + gap * 5
    height = top + 9 * cell + 28 + cell + 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
           f'<rect width="{width}" height="{height}" fill="#fafafa"/>']
    if title:
        out.append(f'<text x="{gap}" y="24" font-size="16" font-weight="bold">{escape(title)}</text>')
    x0 = gap
    for level in (1, 2, 3, 4):
        lo, hi = LEVEL_SPAN[level]
        out.append(f'<text x="{x0}" y="{top + 9 * cell + 20}" font-size="12">Level {level}</text>')
        for f in range(lo, hi + 1):
            for r in range(lo, hi + 1):
                index = _AT.get((level, f, r))
                if index is None:
                    continue
                x = x0 + (f - lo) * cell
                y = top + (8 - r) * cell   # squares keep their rank: levels sit centred
                out.append(_svg_tile(state.board[index], x, y, cell,
                                     last_move is not None and last_move.pos == index))
        x0 += widths[level] + gap
    y = top + 9 * cell + 36
    out.append(f'<text x="{gap}" y="{y + cell * 0.65:.0f}" font-size="12">Reserves</text>')
    for i, face in enumerate(state.reserve):
        out.append(_svg_tile(face, gap * 3 + i * (cell + 4), y, cell, False))
    out.append(f'<text x="{gap * 3 + 9 * (cell + 4) + 8}" y="{y + cell * 0.65:.0f}" font-size="12">'
               f'stock {state.stock_left()} · placed {state.placed} of 144</text>')
    out.append("</svg>")
    return "\n".join(out)


def _svg_tile(face: Optional[int], x: float, y: float, cell: int, marked: bool) -> str:
    stroke = ' stroke="#000" stroke-width="2.5"' if marked else ' stroke="#9e9e9e"'
    if face is None:
        return f'<rect x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" fill="#eeeeee"{stroke}/>'
    token = TILES[face].token
    return (f'<rect x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" rx="3" fill="#fffdf5"{stroke}/>'
            f'<text x="{x + (cell - 2) / 2}" y="{y + cell * 0.62:.1f}" font-size="{cell * 0.42:.0f}" '
            f'text-anchor="middle" fill="{_tile_colour(face)}">{token}</text>')
