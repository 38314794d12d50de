"""Terminal text for the analyser's answers (pure functions returning str).

>>> from solver.continental.notation import parse_hand
>>> from solver.continental.search import analyse_hand
>>> print(hand_text(analyse_hand(parse_hand("As 2s 3s 4s Kh Kd X 9c"), 2)))
round 2 (1 trio + 1 straight): meets the contract
  straight  As 2s 3s 4s
  trio      Kh Kd X
points left: 9
"""
from __future__ import annotations

from typing import Dict

from solver.continental.notation import format_cards
from solver.continental.rules import get_round


def hand_text(report: Dict) -> str:
    rnd = get_round(report["round"])
    head = f"round {rnd.number} ({rnd.contract}): "
    if report["meets"]:
        lines = [head + "meets the contract"]
        kinds = ["straight"] * rnd.straights + ["trio"] * rnd.trios  # best_arrangement's order
        for kind, meld in zip(kinds, report["melds"]):
            lines.append(f"  {kind:<9} {format_cards(meld)}")
        lines.append(f"points left: {report['points_left']}")
        if report.get("arrangement", "best") != "best":
            lines.append(f"arrangement search: {report['arrangement']} (may not be the fewest points)")
        return "\n".join(lines)
    return "\n".join([
        head + "does not meet the contract",
        f"deficiency: {report['deficiency']}",
        f"cards that lower it: {format_cards(report['improving']) or '(none)'}",
        f"points left: {report['points_left']}",
    ])


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


def play_text(summary: Dict) -> str:
    lines = [f"{summary['games']} games from seed {summary['seed']}, "
             f"{summary['players']} players", "seat  policy   win rate  mean score"]
    for i, name in enumerate(summary["policies"]):
        lines.append(f"{i + 1:>4}  {name:<7} {summary['win_rate'][i]:>9.1%}  "
                     f"{summary['mean_score'][i]:>10.1f}")
    turns = " ".join(f"{t:.1f}" for t in summary["mean_round_turns"])
    lines.append(f"mean turns per round 1-7: {turns}")
    return "\n".join(lines)
