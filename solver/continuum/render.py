"""Terminal pictures of rows and plans (pure functions returning ``str``).

>>> print(render_row(parse_row("rL rM | bL bM bS rS || yL yM yS | gL gM gS")))
   rS
   bS    yS gS
rM bM    yM gM
rL bL || yL gL
"""
from __future__ import annotations

from typing import Iterable, List, Optional

from solver.continuum.notation import format_move, parse_row  # noqa: F401 (doctest)
from solver.continuum.pieces import PLAYERS, pyramid_name, value
from solver.continuum.rules import Move, Row, apply, is_won, three_per_side


def render_row(row: Row) -> str:
    """Stacks drawn upright, West end on the left; ``||`` marks the continuum."""
    height = max(len(st) for side in row.sides for st in side)
    return "\n".join(_line(row, level) for level in range(height - 1, -1, -1))


def _line(row: Row, level: int) -> str:
    def cells(side):
        return " ".join(pyramid_name(st[level]) if level < len(st) else "  " for st in side)
    gap = " || " if level == 0 else "    "
    return (cells(row.west) + gap + cells(row.east)).rstrip()


def move_pips(row: Row, move: Move) -> int:
    if move.kind == "king":
        return 0
    if move.kind == "switch":
        return value(move.pid) + value(move.other)
    return value(move.pid)


def render_plan(start: Row, plan: Iterable[Move]) -> str:
    """One numbered line per move: the move, its pips, and the row after it."""
    lines, row, total = [], start, 0
    for n, move in enumerate(plan, 1):
        pips = move_pips(row, move)
        total += pips
        row = apply(row, move)
        lines.append(f"{n:3d}. {format_move(move):9s} {pips} pip{'s' if pips != 1 else ' '}  "
                     f"(total {total:3d})  {row.text()}")
    return "\n".join(lines)


# -- pictures: the row with its trees, a game's hands (text and SVG) -----------------

HEX = {"r": "#d62728", "b": "#1f5fd6", "y": "#f2c200", "g": "#2ca02c"}
TERM = {"r": "red", "b": "blue", "y": "yellow", "g": "green"}
HALF = (0.2, 0.32, 0.44)
"""Half the base of a small, medium and large pyramid, as a share of a column."""
TREES = "A: red West→East, yellow East→West · B: blue West→East, green East→West"


def caption(row: Row, *, state=None, last_move: Optional[str] = None, title: Optional[str] = None) -> str:
    """``Continuum · game 3 · turn 4 · B to play · last ...`` (a bare row: ``Continuum row``)."""
    parts = [title or "Continuum"]
    if state is not None:
        parts.append(f"game {state.seed} ({state.balance} balance)")
        parts.append(f"turn {state.turns}")
        if state.is_terminal():
            parts.append(f"{state.won} has won")
        else:
            parts.append(f"{PLAYERS[state.current_player()]} to {state.phase}")
    else:
        won = [p for p in PLAYERS if is_won(row, p)]
        parts.append(f"{won[0]} has won" if won else "row")
    if last_move:
        parts.append(f"last {last_move}")
    return " · ".join(parts)


def text(row: Row, *, state=None, last_move: Optional[str] = None, moved: Iterable[int] = (),
         colour: bool = False, title: Optional[str] = None) -> str:
    """The caption, the row drawn upright (West on the left, ``||`` the
    continuum, the pyramids moved last marked ``*``), the trees' goals, each
    player's balance and, in a game, the hands, discard and draw pile."""
    from solver.term import paint
    moved = set(moved)
    height = max(len(st) for side in row.sides for st in side)

    def cell(pid: int) -> str:
        name = pyramid_name(pid)
        return paint(name, TERM[name[0]], *(("reverse",) if pid in moved else ()), colour=colour) + \
            ("*" if pid in moved else " ")

    def cells(side, level):
        return " ".join(cell(st[level]) if level < len(st) else "   " for st in side)

    lines = [paint(caption(row, state=state, last_move=last_move, title=title), "bold", colour=colour)]
    for level in range(height - 1, -1, -1):
        gap = " ┃ " if level == 0 else "   "
        lines.append((cells(row.west, level) + gap + cells(row.east, level)).rstrip())
    west_w = max(len(row.west) * 4 - 1, 4)
    lines.append("West".ljust(west_w) + " ┃ " + "East")
    lines.append("trees  " + TREES)
    lines.append("3 per side  " + "  ".join(f"{p}: {'yes' if three_per_side(row, p) else 'no'}" for p in PLAYERS))
    if state is not None:
        lines.append("hands  " + "  ".join(f"{p}: {' '.join(state.hands[p]) or '-'}" for p in PLAYERS)
                     + f"   discard {state.discard[-1] if state.discard else '-'}   draw {len(state.draw)}")
    return "\n".join(lines)


def svg(row: Row, *, state=None, last_move: Optional[str] = None, moved: Iterable[int] = (),
        title: Optional[str] = None) -> str:
    """The row as SVG: one column per stack West to East (``<g class="stack">``),
    each pyramid a ``<polygon class="pyramid">`` sized by its value, the
    continuum as a gap, the pyramids moved last outlined, each player's trees
    in a legend, and in a game each player's hand (``<g class="card">``)."""
    from solver import svg as S
    moved = set(moved)
    col, lvl = 58, 30
    height_levels = max(len(st) for side in row.sides for st in side)
    gap = 46
    left, top = 20, 44
    n_w, n_e = len(row.west), len(row.east)
    head = caption(row, state=state, last_move=last_move, title=title)
    width = max(left * 2 + (n_w + n_e) * col + gap, 560, 40 + 8 * len(head))
    base = top + height_levels * lvl + 16
    body: List[str] = [S.text(left, 24, head, font_size=15,
                              font_weight="bold", fill=S.INK, class_="caption"),
                       S.rect(left + n_w * col + 4, top - 6, gap - 8, base - top + 12, fill="#b9a7ff",
                              opacity=0.5, tip="continuum", class_="continuum"),
                       S.line(left - 6, base + 2, left + (n_w + n_e) * col + gap + 6, base + 2, stroke="#555",
                              stroke_width=2)]
    for side_index, side in enumerate(row.sides):
        x0 = left + (n_w * col + gap if side_index else 0)
        for i, st in enumerate(side):
            cx = x0 + i * col + col / 2
            parts = []
            for level, pid in enumerate(st):
                name = pyramid_name(pid)
                half = col * HALF[pid % 3]
                foot = base - level * lvl
                hot = pid in moved
                parts.append(S.polygon([(cx, foot - lvl + 3), (cx - half, foot), (cx + half, foot)],
                                       fill=HEX[name[0]], stroke="#000" if hot else "#333",
                                       stroke_width=3 if hot else 1, class_="pyramid moved" if hot else "pyramid",
                                       tip=f"{name} ({value(pid)} pip{'s' if value(pid) > 1 else ''})"))
                parts.append(S.text(cx, foot - 5, name, font_size=10, text_anchor="middle",
                                    fill="#fff" if name[0] in "rbg" else "#222"))
            body.append(S.group(parts, class_="stack"))
    body.append(S.text(left, base + 20, "West end", font_size=12, fill=S.MUTED))
    body.append(S.text(left + (n_w + n_e) * col + gap, base + 20, "East end", font_size=12, fill=S.MUTED,
                       text_anchor="end"))
    y = base + 40
    legend = [(S.swatch(HEX["r"]), "red tree (A): West → East"), (S.swatch(HEX["y"]), "yellow tree (A): East → West"),
              (S.swatch(HEX["b"]), "blue tree (B): West → East"), (S.swatch(HEX["g"]), "green tree (B): East → West")]
    body += S.legend(left, y, legend)
    balance = [(S.swatch("#fff"), f"{p}: {'3 per side' if three_per_side(row, p) else 'not 3 per side'}")
               for p in PLAYERS]
    body += S.legend(left + 260, y, balance + [(S.swatch("#fff", stroke="#000", width=3), "moved last")])
    y += 4 * 16 + 10
    if state is not None:
        for p in PLAYERS:
            body.append(S.text(left, y + 20, f"{p}'s hand", font_size=12, fill=S.INK))
            for k, card in enumerate(state.hands[p]):
                x = left + 70 + k * 34
                ink = "#c62828" if card[-1:] in ("h", "d") else "#212121"
                body.append(S.group([S.rect(x, y, 30, 30, rx=3, fill="#fff", stroke="#757575"),
                                     S.text(x + 15, y + 20, card, font_size=12, text_anchor="middle", fill=ink)],
                                    class_="card"))
            y += 38
        body.append(S.text(left, y + 14, f"discard {state.discard[-1] if state.discard else '-'} · "
                                         f"draw pile {len(state.draw)} cards", font_size=12, fill=S.INK))
        y += 24
    return S.document(width, y + 6, body, title=row.text(), background="#fafafa")
