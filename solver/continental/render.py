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

from typing import Dict

from solver.continental.notation import format_cards, hand_cards
from solver.continental.rules import get_round
from solver.game import Result

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
    total = sum(result["deficiency"].values())
    for d, v in result["deficiency"].items():
        share = v / total if total else 0.0
        count = "" if result["method"] == "exact" else f"{v:>10}  "
        lines.append(f"  {d:>2}  {count}{share:8.4%}")
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
