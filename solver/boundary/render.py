"""Pictures of a position: terminal text and an SVG diagram (pure functions).

>>> from solver.boundary.rules import Position
>>> print(text(Position.start()).splitlines()[1])
6 Bl+Bm+Bs .        .        | .        .        Yl+Ym+Ys
"""
from __future__ import annotations

from xml.sax.saxutils import escape

from solver.boundary.notation import FILES, format_position, format_pyramid
from solver.boundary.rules import BASES, PLAYER_NAMES, Position

CELL = 9
FILL = {0: "#d62728", 1: "#f2c200", 2: "#2ca02c", 3: "#1f5fd6"}
STONE_FILL = ("#8b0000", "#0b5d1e")


def _cell(pos: Position, s: int) -> str:
    if s in pos.stones:
        return "(" + "rg"[pos.stones[s]] + ")"
    if pos.stacks[s]:
        return "+".join(format_pyramid(p) for p in pos.stacks[s])
    return "."


def text(pos: Position) -> str:
    """The board, rank 6 at the top; ``|`` is the continuum, ``(r)``/``(g)`` stones."""
    lines = [f"  {PLAYER_NAMES[pos.side]} to move"]
    for r in range(5, -1, -1):
        cells = [_cell(pos, r * 6 + f).ljust(CELL - 1) for f in range(6)]
        lines.append(f"{r + 1} " + " ".join(cells[:3]) + " | " + " ".join(cells[3:]).rstrip())
    header = "  " + " ".join(c.ljust(CELL - 1) for c in FILES[:3]) + "   " + \
        " ".join(c.ljust(CELL - 1) for c in FILES[3:])
    lines.append(header.rstrip())
    return "\n".join(lines)


def svg(pos: Position, *, size: int = 480) -> str:
    """An SVG diagram: pyramids by colour and size (stacks nested, largest at the
    bottom), stones as discs, bases outlined, the continuum as a band."""
    sq = size / 6.6
    gap = sq * 0.6
    margin = 0.0
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{round(sq * 6 + 24)}" '
             f'viewBox="0 0 {size} {round(sq * 6 + 24)}">',
             f'<title>{escape(format_position(pos))}</title>',
             f'<rect x="{3 * sq:.1f}" y="0" width="{gap:.1f}" height="{6 * sq:.1f}" '
             f'fill="#b9a7ff" opacity="0.5"><title>continuum</title></rect>']
    for s in range(36):
        f, r = s % 6, s // 6
        x = margin + f * sq + (gap if f >= 3 else 0)
        y = (5 - r) * sq
        shade = "#eee8d5" if (f + r) % 2 else "#d8cfb4"
        stroke = ""
        for pl, bases in BASES.items():
            if s in bases:
                stroke = f' stroke="{STONE_FILL[pl]}" stroke-width="3"'
        parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{sq:.1f}" height="{sq:.1f}" fill="{shade}"{stroke}/>')
        cx, cy = x + sq / 2, y + sq / 2
        if s in pos.stones:
            parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{sq * 0.22:.1f}" '
                         f'fill="{STONE_FILL[pos.stones[s]]}"><title>{PLAYER_NAMES[pos.stones[s]]} stone</title></circle>')
        for level, p in enumerate(pos.stacks[s]):
            half = sq * (0.16 + 0.1 * (p % 3)) - level * 1.5
            top, base = cy - half, cy + half * 0.8
            parts.append(f'<polygon points="{cx:.1f},{top:.1f} {cx - half:.1f},{base:.1f} '
                         f'{cx + half:.1f},{base:.1f}" fill="{FILL[p // 3]}" stroke="#222" '
                         f'stroke-width="1"><title>{format_pyramid(p)}</title></polygon>')
    for f in range(6):
        x = f * sq + (gap if f >= 3 else 0) + sq / 2
        parts.append(f'<text x="{x:.1f}" y="{6 * sq + 18:.1f}" text-anchor="middle" '
                     f'font-family="sans-serif" font-size="14">{FILES[f]}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
