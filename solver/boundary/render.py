"""Pictures of a position: terminal text and an SVG diagram (pure functions).

Both show the ranks 1-6 and files a-f, the continuum between c and d, the
stacks (bottom to top, sizes ``s m l``), the stones, the bases, the side to
move and, when given, the last move.

>>> from solver.boundary.rules import Position
>>> print(text(Position.start()).splitlines()[1])
6 Bl+Bm+Bs  .         .         ┃ .         .         Yl+Ym+Ys
"""
from __future__ import annotations

from typing import List, Optional

from solver import svg as S
from solver.boundary.notation import FILES, format_move, format_position, format_pyramid
from solver.boundary.rules import BASES, COLOURS, PLAYER_NAMES, Move, Position, colour, size
from solver.term import paint

CELL = 10
FILL = {0: "#d62728", 1: "#f2c200", 2: "#2ca02c", 3: "#1f5fd6"}
STONE_FILL = ("#8b0000", "#0b5d1e")
TERM_COLOURS = {0: "red", 1: "yellow", 2: "green", 3: "blue"}
SIZE_WORDS = ("small", "medium", "large")
HALF_WIDTH = (0.17, 0.29, 0.41)
"""Half the base of a small, medium and large pyramid, as a share of a square:
the three sizes differ by a third of a square, so they read at a glance."""
ARROW = "#222"


def caption(pos: Position, *, last_move: Optional[Move] = None, title: Optional[str] = None) -> str:
    """``Boundary · Red to move · last (c3-a3)(a1-c3)`` (``title`` replaces the first word)."""
    parts = [title or "Boundary"]
    winner = pos.winner()
    parts.append(f"{PLAYER_NAMES[winner]} has won" if winner is not None else f"{PLAYER_NAMES[pos.side]} to move")
    if last_move is not None:
        parts.append(f"last {format_move(last_move)}")
    return " · ".join(parts)


def _cell(pos: Position, s: int, colour_on: bool) -> str:
    if s in pos.stones:
        return "(" + "rg"[pos.stones[s]] + ")"
    if pos.stacks[s]:
        return "+".join(paint(format_pyramid(p), TERM_COLOURS[colour(p)], colour=colour_on) for p in pos.stacks[s])
    return "□" if any(s in b for b in BASES.values()) else "."


def _width(s: str) -> int:
    from solver.term import strip
    return len(strip(s))


def text(pos: Position, *, last_move: Optional[Move] = None, colour: bool = False,
         title: Optional[str] = None) -> str:
    """The caption, the board (rank 6 at the top, files below), then a key.

    ``┃`` is the continuum, ``(r)``/``(g)`` stones, ``□`` an empty base, a
    stack its pyramids bottom to top (``Rl+Rm+Rs``); the last move's end
    square is marked ``*``.
    """
    lines = [paint(caption(pos, last_move=last_move, title=title), "bold", colour=colour)]
    end = last_move[3] if last_move is not None else None
    for r in range(5, -1, -1):
        cells = []
        for f in range(6):
            s = r * 6 + f
            c = _cell(pos, s, colour) + ("*" if s == end else "")
            cells.append(c + " " * max(0, CELL - 1 - _width(c)))
        lines.append(f"{r + 1} " + " ".join(cells[:3]) + " ┃ " + " ".join(cells[3:]).rstrip())
    header = "  " + " ".join(c.ljust(CELL - 1) for c in FILES[:3]) + "   " + \
        " ".join(c.ljust(CELL - 1) for c in FILES[3:])
    lines.append(header.rstrip())
    lines.append("bases a1 f6 Red (trees red, yellow), f1 a6 Green (green, blue); ┃ continuum"
                 + ("; * last move" if end is not None else ""))
    return "\n".join(lines)


def svg(pos: Position, *, size: int = 480, last_move: Optional[Move] = None, title: Optional[str] = None) -> str:
    """An SVG diagram: ranks and files, the continuum as a band, bases
    outlined in their owner's colour, stacks as nested pyramids (largest at the
    bottom; sizes by width), stones as discs, the last move as arrows (the
    stone's dashed), a caption naming the side to move, and a legend.

    There is one ``<polygon>`` per pyramid and one ``<circle>`` per stone.
    """
    sq = size / 6.6
    gap = sq * 0.6
    left, top = 22.0, 34.0
    board_h = 6 * sq
    legend_y = top + board_h + 30
    height = legend_y + 4 * 16 + 6
    width = left + 6 * sq + gap + 10

    def corner(s: int):
        f, r = s % 6, s // 6
        return left + f * sq + (gap if f >= 3 else 0), top + (5 - r) * sq

    def centre(s: int):
        x, y = corner(s)
        return x + sq / 2, y + sq / 2

    body: List[str] = [S.arrow_marker("arrow", ARROW),
                       S.text(left, 22, caption(pos, last_move=last_move, title=title), font_size=15,
                              font_weight="bold", fill=S.INK, class_="caption"),
                       S.rect(left + 3 * sq, top, gap, board_h, fill="#b9a7ff", opacity=0.5, tip="continuum",
                              class_="continuum")]
    for s in range(36):
        f, r = s % 6, s // 6
        x, y = corner(s)
        shade = "#eee8d5" if (f + r) % 2 else "#d8cfb4"
        body.append(S.rect(x, y, sq, sq, fill=shade, class_="square"))
    for player, bases in BASES.items():
        for s in bases:
            x, y = corner(s)
            body.append(S.rect(x + 2, y + 2, sq - 4, sq - 4, fill="none", stroke=STONE_FILL[player],
                               stroke_width=3, class_="base", tip=f"{PLAYER_NAMES[player]}'s base"))
    for s in range(36):
        cx, cy = centre(s)
        if s in pos.stones:
            body.append(S.circle(cx, cy, sq * 0.22, fill=STONE_FILL[pos.stones[s]], class_="stone",
                                 tip=f"{PLAYER_NAMES[pos.stones[s]]} stone"))
        base_y = cy + sq * 0.36
        for level, p in enumerate(pos.stacks[s]):
            half = sq * HALF_WIDTH[size_index(p)]
            foot = base_y - level * sq * 0.07   # each pyramid of a stack a little higher
            apex = foot - half * 1.55
            body.append(S.polygon([(cx, apex), (cx - half, foot), (cx + half, foot)],
                                  fill=FILL[colour(p)], stroke="#222", stroke_width=1, class_="pyramid",
                                  tip=f"{format_pyramid(p)}: {COLOURS[colour(p)]} {SIZE_WORDS[size_index(p)]}"))
    for r in range(6):
        body.append(S.text(left - 8, top + (5 - r) * sq + sq / 2 + 5, r + 1, text_anchor="middle", font_size=14,
                           fill=S.INK, class_="rank"))
    for f in range(6):
        x = corner(f)[0] + sq / 2
        body.append(S.text(x, top + board_h + 18, FILES[f], text_anchor="middle", font_size=14, fill=S.INK,
                           class_="file"))
    if last_move is not None:
        s0, s1, p0, p1 = last_move
        if s0 is not None:
            body.append(_arrow(centre(s0), centre(s1), sq, dash="5,4"))
        body.append(_arrow(centre(p0), centre(p1), sq))
    body += _legend(left, legend_y, width)
    return S.document(round(width), round(height), body, title=format_position(pos), background="#fafafa")


def size_index(p: int) -> int:
    return size(p) - 1


def _arrow(a, b, sq, dash: Optional[str] = None) -> str:
    (x1, y1), (x2, y2) = a, b
    dx, dy = x2 - x1, y2 - y1
    d = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    shorten = sq * 0.3
    return S.line(round(x1 + dx / d * shorten, 1), round(y1 + dy / d * shorten, 1),
                  round(x2 - dx / d * shorten, 1), round(y2 - dy / d * shorten, 1),
                  stroke=ARROW, stroke_width=3, stroke_dasharray=dash, marker_end="url(#arrow)",
                  opacity=0.8, class_="last-move")


def _legend(x: float, y: float, width: float) -> List[str]:
    def tri(c: int, k: int) -> str:
        half = 6 * (k + 1) / 3
        return S.path(f"M6,{12 - half * 1.55:.1f} L{6 - half:.1f},12 L{6 + half:.1f},12 z", fill=FILL[c],
                      stroke="#222", stroke_width=0.8)
    trees = [(tri(0, 2), "red tree (Red)"), (tri(1, 2), "yellow tree (Red)"),
             (tri(2, 2), "green tree (Green)"), (tri(3, 2), "blue tree (Green)")]
    sizes = [(tri(3, 0) + "", "small (s): moves 1"), (tri(3, 1), "medium (m): moves 2"),
             (tri(3, 2), "large (l): moves 3")]
    marks = [(S.swatch("none", stroke=STONE_FILL[0], width=2.5), "Red's bases a1 f6"),
             (S.swatch("none", stroke=STONE_FILL[1], width=2.5), "Green's bases f1 a6"),
             (S.swatch("#b9a7ff", stroke="none"), "the continuum"),
             (S.line(0, 6, 12, 6, stroke=ARROW, stroke_width=2.5), "last move")]
    col = (width - x) / 3
    return S.legend(x, y, trees) + S.legend(x + col, y, sizes) + S.legend(x + 2 * col - 10, y, marks)
