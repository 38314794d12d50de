"""Pictures of a Spectrum position: terminal text and SVG (pure functions returning str).

The twelve colours stand on a circle in their order (red at the top, then
clockwise); each player's stash sits on a ring of its own outside the circle,
one triangle per pyramid, its size by its height.  Beside it: the three
goals (small / medium / large colours), and, when a plan is given, its next
exchange, also drawn as an arrow across the circle.

>>> from solver.spectrum.rules import Game
>>> st = Game(players=1, seed=10).new_state()
>>> print(text(st).splitlines()[0])
Spectrum seed 10 · turn 0 · direction cw · P1 to move · value 24
"""
from __future__ import annotations

import math
from typing import List, Optional

from solver import svg as S
from solver.spectrum.notation import (COLOURS, N_COLOURS, SIZES, format_direction, format_goal,
                                      stash_value)
from solver.spectrum.rules import PASS, State, parse_move
from solver.term import paint

HEX = ("#e53935", "#fb8c00", "#fdd835", "#c0ca33", "#43a047", "#00897b",
       "#00bcd4", "#1e88e5", "#8e24aa", "#ec407a", "#ffffff", "#212121")
TERM = ("red", "bright_red", "yellow", "bright_yellow", "green", "cyan",
        "bright_cyan", "blue", "magenta", "bright_magenta", "white", "grey")
HEIGHT = (9, 14, 19)
"""Triangle height of a small, medium and large pyramid (pixels)."""
SIZE_WORDS = ("small", "medium", "large")


def caption(state: State) -> str:
    parts = [f"Spectrum seed {state.game.seed}", f"turn {state.turn}",
             f"direction {format_direction(state.direction)}"]
    if state.winner is not None:
        parts.append(f"P{state.winner + 1} has won")
    else:
        parts.append(f"P{state.to_move + 1} to move")
    if len(state.stashes) == 1:
        parts.append(f"value {stash_value(state.stashes[0])}")
    return " · ".join(parts)


def _pieces(stash, c: int) -> str:
    return "".join(SIZES[s] * stash[c * 3 + s] for s in range(3))


def text(state: State, *, next_move: Optional[str] = None, colour: bool = False) -> str:
    """The caption, the goals, then one line per colour in circle order: each
    player's pieces of it (``SSM``), the bank's small/medium/large count, and
    which goals show it (``2L``: goal 2's large)."""
    players = len(state.stashes)
    lines = [paint(caption(state), "bold", colour=colour),
             "goals  " + "  ".join(f"{i + 1}: {format_goal(g)}" for i, g in enumerate(state.goals))
             + "   (small/medium/large)"]
    heads = "".join(f"P{p + 1} ({stash_value(s)})".ljust(14) for p, s in enumerate(state.stashes))
    lines.append(f"{'colour':<8}{heads}{'bank':<8}goals (goal and size)")
    for c in range(N_COLOURS):
        cells = "".join((_pieces(s, c) or "·").ljust(14) for s in state.stashes)
        bank = "/".join(str(state.bank(c * 3 + k)) for k in range(3))
        wants = " ".join(f"{i + 1}{SIZES[k]}" for i, g in enumerate(state.goals) for k in range(3) if g[k] == c)
        name = paint(f"{COLOURS[c]:<8}", TERM[c], colour=colour)
        lines.append(f"{name}{cells}{bank:<8}{wants}".rstrip())
    if next_move is not None:
        lines.append(f"next   {paint(next_move, 'bold', colour=colour)}")
    elif players == 1 and state.winner is None:
        lines.append("next   (no plan given)")
    return "\n".join(lines)


def _angle(c: int) -> float:
    return math.radians(-90 + c * 360 / N_COLOURS)


def _tri(x: float, y: float, size: int, c: int, css: str, tip: str) -> str:
    h = HEIGHT[size]
    half = h * 0.45
    return S.polygon([(x, y - h), (x - half, y), (x + half, y)], fill=HEX[c], stroke="#333",
                     stroke_width=0.8, class_=css, tip=tip)


def svg(state: State, *, next_move: Optional[str] = None) -> str:
    """The colour circle with every stash on its own ring, the goals, the side
    to move and direction, and the plan's next move (text and an arrow).

    Each pyramid of a stash is a ``<polygon class="piece">``; the goals'
    are ``goal-piece``; each colour's disc is a ``<circle class="colour">``.
    """
    players = len(state.stashes)
    ring0, ring_gap = 150, 34
    outer = ring0 + ring_gap * (players - 1) + 28
    cx = cy = outer + 14
    top = 40
    cy += top
    panel_x = 2 * outer + 50
    width = panel_x + 300
    height = max(2 * outer + top + 40, 420)
    body: List[str] = [S.arrow_marker("arrow", "#222"),
                       S.text(16, 24, caption(state), font_size=15, font_weight="bold", fill=S.INK,
                              class_="caption"),
                       S.circle(cx, cy, 112, fill="none", stroke="#ccc", stroke_width=1)]
    for p in range(players):
        body.append(S.circle(cx, cy, ring0 + ring_gap * p, fill="none", stroke="#e0e0e0", stroke_width=1,
                             stroke_dasharray="2,3"))
    for c in range(N_COLOURS):
        a = _angle(c)
        x, y = cx + 112 * math.cos(a), cy + 112 * math.sin(a)
        body.append(S.circle(round(x, 1), round(y, 1), 17, fill=HEX[c], stroke="#555", stroke_width=1,
                             class_="colour", tip=COLOURS[c]))
        lx, ly = cx + 80 * math.cos(a), cy + 80 * math.sin(a) + 4
        body.append(S.text(round(lx, 1), round(ly, 1), COLOURS[c], font_size=10, text_anchor="middle",
                           fill=S.INK, class_="colour-name"))
        for p, stash in enumerate(state.stashes):
            r = ring0 + ring_gap * p
            px, py = cx + r * math.cos(a), cy + r * math.sin(a) + 8
            pieces = [k for k in range(3) for _ in range(stash[c * 3 + k])]
            step = 11
            x0 = px - step * (len(pieces) - 1) / 2
            for i, k in enumerate(pieces):
                body.append(_tri(round(x0 + i * step, 1), round(py, 1), k, c, "piece",
                                 f"P{p + 1}: {SIZE_WORDS[k]} {COLOURS[c]}"))
    turn = "↻ cw" if state.direction > 0 else "↺ ccw"
    body.append(S.text(cx, cy - 4, turn, font_size=22, text_anchor="middle", fill=S.INK, class_="direction"))
    who = f"P{state.winner + 1} won" if state.winner is not None else f"P{state.to_move + 1} to move"
    body.append(S.text(cx, cy + 18, who, font_size=13, text_anchor="middle", fill=S.INK))
    for p in range(players):
        body.append(S.text(cx + 6, cy - ring0 - ring_gap * p + 22, f"P{p + 1}", font_size=10, fill=S.MUTED))
    y = top + 20
    body.append(S.text(panel_x, y, "Goals (small / medium / large)", font_size=13, font_weight="bold",
                       fill=S.INK))
    for i, goal in enumerate(state.goals):
        y += 34
        body.append(S.text(panel_x, y, f"{i + 1}.", font_size=12, fill=S.INK))
        for k in range(3):
            body.append(_tri(panel_x + 26 + k * 22, y + 2, k, goal[k], "goal-piece",
                             f"goal {i + 1}: {SIZE_WORDS[k]} {COLOURS[goal[k]]}"))
        body.append(S.text(panel_x + 96, y, format_goal(goal), font_size=11, fill=S.INK, class_="goal"))
    y += 40
    body.append(S.text(panel_x, y, "Stashes", font_size=13, font_weight="bold", fill=S.INK))
    for p, stash in enumerate(state.stashes):
        y += 18
        n = sum(stash)
        body.append(S.text(panel_x, y, f"P{p + 1}: {n} pyramid{'s' if n != 1 else ''}, value {stash_value(stash)}",
                           font_size=12, fill=S.INK))
    y += 32
    body.append(S.text(panel_x, y, "Next move of the plan", font_size=13, font_weight="bold", fill=S.INK))
    body.append(S.text(panel_x, y + 18, next_move if next_move is not None else "(no plan given)", font_size=11,
                       fill=S.INK, class_="next-move"))
    if next_move is not None:
        move = parse_move(next_move)
        if move.kind != PASS:
            a, b = _angle(move.colour), _angle(move.to_colour)
            r = 92
            if move.colour == move.to_colour:
                body.append(S.circle(round(cx + 112 * math.cos(a), 1), round(cy + 112 * math.sin(a), 1), 22,
                                     fill="none", stroke="#222", stroke_width=3, class_="next-arrow"))
            else:
                body.append(S.line(round(cx + r * math.cos(a), 1), round(cy + r * math.sin(a), 1),
                                   round(cx + r * math.cos(b), 1), round(cy + r * math.sin(b), 1),
                                   stroke="#222", stroke_width=3, marker_end="url(#arrow)", opacity=0.75,
                                   class_="next-arrow"))
    y += 50
    sizes = [(S.path(f"M6,{12 - HEIGHT[k] * 0.63:.1f} L{6 - HEIGHT[k] * 0.28:.1f},12 "
                     f"L{6 + HEIGHT[k] * 0.28:.1f},12 z", fill="#bbb", stroke="#333"), f"{SIZE_WORDS[k]} ({k + 1} pip"
              + ("s)" if k else ")")) for k in range(3)]
    body += S.legend(panel_x, y, sizes + [(S.line(0, 6, 12, 6, stroke="#222", stroke_width=2.5),
                                          "the plan's next move: from colour to colour")])
    height = max(height, y + 4 * 16 + 10)
    return S.document(width, height, body, title=caption(state), background="#fafafa")
