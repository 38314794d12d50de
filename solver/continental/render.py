"""Terminal text for the analyser's answers (pure functions returning str).

>>> from solver.continental.notation import parse_hand
>>> from solver.continental.search import analyse_hand
>>> print(hand_text(analyse_hand(parse_hand("As 2s 3s 4s Kh Kd X 9c"), 2)))
round 2 (1 trio + 1 straight): meets the contract
  straight  As 2s 3s 4s
  trio      Kh Kd X
points left: 9
>>> from solver.game import Limits
>>> print(hand_text(analyse_hand(parse_hand("As 2s 3s 4s Kh Kd X 9c"), 2, limits=Limits(node_limit=1))))
round 2 (1 trio + 1 straight): unknown (node limit reached)
>>> from solver.continental.game import Continental
>>> print(state_text(Continental().new_initial_state(3)).splitlines()[0])
game 3, round 1 of 7 (2 trios), turn 1: seat 1 to take or pass
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from solver.continental.notation import JOKER, format_card, format_cards, hand_cards, parse_card
from solver.continental.rules import get_round
from solver.game import Limits, Result

LIMIT_WORDS = {"nodes": "node limit reached", "time": "time limit reached", "memory": "memory limit reached"}


def hand_text(result: Result) -> str:
    """The `solve` answer: arrangement and points left, or deficiency and outs, or unknown."""
    f = result.fields
    rnd = get_round(f["round"])
    head = f"round {rnd.number} ({rnd.contract}): "
    if result.verdict == "won":
        lines = [head + "meets the contract"]
        kinds = ["straight"] * rnd.straights + ["trio"] * rnd.trios  # the arrangement's order
        for kind, meld in zip(kinds, f["melds"]):
            lines.append(f"  {kind:<9} {' '.join(meld)}")
        lines.append(f"points left: {f['points_left']}")
        return "\n".join(lines)
    if result.verdict == "lost":
        return "\n".join([
            head + "does not meet the contract",
            f"deficiency: {f['deficiency']}",
            f"cards that lower it: {' '.join(f['improving']) or '(none)'}",
            f"points left: {f['points_left']}",
        ])
    lines = [head + f"unknown ({LIMIT_WORDS.get(result.limit, result.limit)})"]
    if f["deficiency"] == 0:
        lines.append("deficiency: 0 (it meets the contract; the fewest-points arrangement is not proven)")
    elif f["deficiency"] is not None:
        lines.append(f"deficiency: {f['deficiency']} (the cards that lower it are not proven)")
    return "\n".join(lines)


def lumped_span(rest: dict) -> str:
    """The deficiencies an odds result's ``rest`` row lumps together: ``3-6``, or ``>=2``
    when it runs to the top.

    >>> lumped_span({"deficiency_at_least": 3, "deficiency_at_most": 6}), lumped_span({"deficiency_at_least": 2})
    ('3-6', '>=2')
    """
    low = rest["deficiency_at_least"]
    return f"{low}-{rest['deficiency_at_most']}" if "deficiency_at_most" in rest else f">={low}"


def odds_text(result: Dict) -> str:
    lo, hi = result["ci95"]
    if result["method"] == "exact":
        p_line = f"P(meets) = {result['p_meets']:.6f} (exact, over all {result['deals']} hands)"
    else:
        p_line = (f"P(meets) = {result['p_meets']:.6f}, 95% CI [{lo:.6f}, {hi:.6f}] "
                  f"(monte-carlo, {result['deals']} deals from seed {result['seed']})")
    lines = [f"round {result['round']} ({result['contract']}), {result['cards']} cards, "
             f"{result['decks']} decks x {result['jokers_per_deck']} jokers, "
             f"joker limit {'on' if result['joker_limit'] else 'off'}", p_line,
             "deficiency distribution:"]
    total = result["deals"]
    rows = []
    for d, v in result["counts"].items():
        count = "" if result["method"] == "exact" else f"{v:>10}  "
        rows.append((int(d), f"  {d:>2}  {count}{v / total:8.4%}"))
    rest = result.get("rest")
    if rest:
        rows.append((rest["deficiency_at_least"],
                     f"  {lumped_span(rest):>3} {rest['share']:8.4%} (not counted one by one: {rest['hands']} hands)"))
    lines.extend(line for _, line in sorted(rows))
    return "\n".join(lines)


PHASE_WORDS = {"take": "to take or pass", "claim": "may claim the discard", "discard": "to discard",
               "over": "(the round is over)"}


def state_text(state) -> str:
    """A game in play: the round, each seat's hand and total, the table, the moves."""
    st = state.round
    rnd = get_round(st.number)
    if state.is_terminal():
        low = min(state.totals)
        tops = [i + 1 for i, t in enumerate(state.totals) if t == low]
        who = f"seat {tops[0]} wins" if len(tops) == 1 else "a tie for the lowest total"
        lines = [f"game {state.seed}: over after 7 rounds, {who}"]
    else:
        lines = [f"game {state.seed}, round {st.number} of 7 ({rnd.contract}), turn {st.turns}: "
                 f"seat {st.current_player() + 1} {PHASE_WORDS[st.phase]}"]
    for i, p in enumerate(st.players):
        mark = " (down)" if p.down else ""
        lines.append(f"  seat {i + 1}: total {state.totals[i]:>4}  {format_cards(hand_cards(p.hand))}{mark}")
    lines.append(f"  discard: {format_cards(st.discard[-1:]) or '(empty)'}   stock: {len(st.stock)} cards")
    for m in st.melds:
        lines.append(f"  {m.kind:<9} {format_cards(m.cards)}  (seat {m.owner + 1})")
    if not state.is_terminal():
        lines.append("  moves: " + " ".join(state.format_move(m) for m in state.legal_moves()))
    return "\n".join(lines)


# -- pictures: a hand sorted and grouped, a table in play (text and SVG) ------------

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RED_SUITS = "hd"
PICTURE_LIMITS = Limits(node_limit=200_000)
"""Each hand a picture analyses gets this node budget (no time limit, so a
picture is a pure function of the state: the same state, the same picture)."""


def card_face(card: int) -> str:
    """``A♠``, ``10♥``-style faces for pictures (``X`` is ``★`` the joker)."""
    text = format_card(card)
    if text == "X":
        return "★"
    return text[0] + SUIT_SYMBOLS[text[1]]


def hand_analysis(hand, round_number: int, *, pack, joker_limit: bool = True) -> Optional[Result]:
    """The hand analysis a picture shows, or None for a hand smaller than the
    round's deal (a seat that went down)."""
    from solver.continental.search import analyse_hand
    if sum(hand) < get_round(round_number).cards:
        return None
    return analyse_hand(hand, round_number, pack=pack, joker_limit=joker_limit, limits=PICTURE_LIMITS)


def hand_groups(hand, result: Optional[Result]) -> List[Tuple[str, List[int]]]:
    """The hand sorted by suit and rank (jokers last), as (label, cards)
    groups: each meld of the best arrangement, then the rest."""
    cards = hand_cards(hand)
    groups: List[Tuple[str, List[int]]] = []
    if result is not None and result.verdict == "won":
        rnd = get_round(result.fields["round"])
        kinds = ["straight"] * rnd.straights + ["trio"] * rnd.trios
        rest = list(cards)
        for kind, meld in zip(kinds, result.fields["melds"]):
            picked = [parse_card(c) for c in meld]
            for c in picked:
                rest.remove(c)
            groups.append((kind, picked))
        if rest:
            groups.append(("left", rest))
        return groups
    return [("hand", cards)]


def hand_note(result: Optional[Result]) -> str:
    """What is written beside a hand: points left, or the deficiency."""
    if result is None:
        return "gone down"
    f = result.fields
    if result.verdict == "won":
        return f"meets the contract; points left {f['points_left']}"
    if result.verdict == "lost":
        n = len(f["improving"])
        return f"deficiency {f['deficiency']}; {n} kind{'s' if n != 1 else ''} of card lower it"
    return f"unknown ({LIMIT_WORDS.get(result.limit, result.limit)})"


def _hands(state) -> List[Tuple[int, object, Optional[Result]]]:
    st = state.round
    out = []
    for i, p in enumerate(st.players):
        result = None if p.down or state.is_terminal() else hand_analysis(
            p.hand, st.number, pack=state.game.pack, joker_limit=state.game.joker_limit)
        out.append((i, p, result))
    return out


def _caption(state) -> str:
    return state_text(state).splitlines()[0]


def text(state, *, colour: bool = False) -> str:
    """The table in play: the caption, then each seat's hand sorted by suit
    and rank with its best arrangement's melds grouped (``[straight ...]``)
    and the points left or the deficiency beside it; the table's melds, the
    discard and the stock."""
    from solver.term import paint
    st = state.round
    lines = [paint(_caption(state), "bold", colour=colour)]
    for i, p, result in _hands(state):
        mark = "  (down)" if p.down else ""
        lines.append(f"seat {i + 1}: total {state.totals[i]}, {sum(p.hand)} cards{mark}: {hand_note(result)}")
        lines.append("  " + _groups_text(p.hand, result, colour))
    for m in st.melds:
        lines.append(f"table  {m.kind:<9} {' '.join(_face(c, colour) for c in m.cards)}  (seat {m.owner + 1})")
    top = _face(st.discard[-1], colour) if st.discard else "(empty)"
    lines.append(f"discard {top}   stock {len(st.stock)} cards")
    return "\n".join(lines)


CARD_W, CARD_H = 30, 42


def _card(x: float, y: float, card: int, css: str) -> str:
    from solver import svg as S
    f = card_face(card)
    ink = "#c62828" if f[-1] in "♥♦" else ("#6a1b9a" if card == JOKER else "#212121")
    return S.group([S.rect(x, y, CARD_W, CARD_H, rx=3, fill="#fff", stroke="#757575", tip=format_card(card)),
                    S.text(x + CARD_W / 2, y + CARD_H * 0.62, f, font_size=13, text_anchor="middle", fill=ink,
                           font_weight="bold")], class_=css)


def _hand_block(body: List[str], y: float, width: float, label: str, hand, result) -> Tuple[float, float]:
    """Draw one hand at ``y``: its label and note, then its groups of cards;
    return the next ``y`` and the picture's width so far."""
    from solver import svg as S
    body.append(S.text(16, y + 14, f"{label} · {hand_note(result)}", font_size=13, fill=S.INK, class_="seat"))
    x, y = 16, y + 24
    for group_label, cards in hand_groups(hand, result):
        meld = group_label in ("straight", "trio")
        w = len(cards) * (CARD_W + 2) + 6
        if meld:
            body.append(S.rect(x - 3, y - 3, w, CARD_H + 20, rx=5, fill="#e8f5e9", stroke="#2e7d32", class_="meld"))
        body.append(S.text(x, y + CARD_H + 13, group_label, font_size=11, fill="#2e7d32" if meld else S.MUTED))
        for k, c in enumerate(cards):
            body.append(_card(x + k * (CARD_W + 2), y, c, "card"))
        x += w + 8
        width = max(width, x + 16)
    return y + CARD_H + 30, width


def hand_svg(hand, round_number: int, *, pack=None, joker_limit: bool = True) -> str:
    """One hand as SVG: sorted by suit and rank, the best arrangement's melds
    grouped, the points left or the deficiency beside them."""
    from solver import svg as S
    from solver.continental.notation import Pack
    result = hand_analysis(hand, round_number, pack=pack or Pack(), joker_limit=joker_limit)
    rnd = get_round(round_number)
    head = f"Continental · round {rnd.number} ({rnd.contract}) · {sum(hand)} cards"
    body: List[str] = [S.text(16, 24, head, font_size=15, font_weight="bold", fill=S.INK, class_="caption")]
    y, width = _hand_block(body, 40, 420, "hand", hand, result)
    return S.document(width, y, body, title=head, background="#fafafa")


def hand_picture(hand, round_number: int, *, pack=None, joker_limit: bool = True, colour: bool = False) -> str:
    """One hand as terminal text: the caption, the note, the grouped cards."""
    from solver.continental.notation import Pack
    from solver.term import paint
    result = hand_analysis(hand, round_number, pack=pack or Pack(), joker_limit=joker_limit)
    rnd = get_round(round_number)
    lines = [paint(f"Continental · round {rnd.number} ({rnd.contract}) · {sum(hand)} cards", "bold",
                   colour=colour), hand_note(result), "  " + _groups_text(hand, result, colour)]
    return "\n".join(lines)


def _face(c: int, colour: bool) -> str:
    from solver.term import paint
    f = card_face(c)
    return paint(f, "red" if f[-1] in "♥♦" else ("magenta" if c == JOKER else "bold"), colour=colour)


def _groups_text(hand, result, colour: bool) -> str:
    parts = []
    for label, cards in hand_groups(hand, result):
        inner = " ".join(_face(c, colour) for c in cards)
        parts.append(f"[{label} {inner}]" if label in ("straight", "trio") else inner)
    return "  ".join(parts)


def svg(state) -> str:
    """The table as SVG: each seat's hand (``<g class="card">`` per card) sorted
    by suit and rank, melds of the best arrangement grouped under their kind,
    the points left or deficiency beside; the table's melds
    (``table-card``), the discard top (``discard``) and the stock."""
    from solver import svg as S
    st = state.round
    body: List[str] = [S.text(16, 24, _caption(state), font_size=15, font_weight="bold", fill=S.INK,
                              class_="caption")]
    y = 44
    width = 760
    for i, p, result in _hands(state):
        mark = " (down)" if p.down else ""
        y, width = _hand_block(body, y, width, f"seat {i + 1}{mark} · total {state.totals[i]}", p.hand, result)
    if st.melds:
        body.append(S.text(16, y + 14, "On the table", font_size=13, font_weight="bold", fill=S.INK))
        y += 24
        x = 16
        for m in st.melds:
            w = len(m.cards) * (CARD_W + 2) + 10
            if x + w > width - 16:
                x, y = 16, y + CARD_H + 26
            body.append(S.text(x, y + CARD_H + 13, f"{m.kind} (seat {m.owner + 1})", font_size=11, fill=S.MUTED))
            for k, c in enumerate(m.cards):
                body.append(_card(x + k * (CARD_W + 2), y, c, "table-card"))
            x += w
        y += CARD_H + 26
    body.append(S.text(16, y + 14, f"discard · stock {len(st.stock)} cards", font_size=13, fill=S.INK))
    if st.discard:
        body.append(_card(16, y + 22, st.discard[-1], "discard"))
    else:
        body.append(S.rect(16, y + 22, CARD_W, CARD_H, rx=3, fill="none", stroke="#bbb", stroke_dasharray="3,3"))
    height = y + 22 + CARD_H + 16
    return S.document(width, height, body, title=_caption(state), background="#fafafa")
