"""`solve continental`: contracts, deficiency, odds and play-outs of Continental."""
from __future__ import annotations

import click

from tqdm import tqdm

from solver.cli.common import SEED, emit_json, game_group, is_tty
from solver.continental.analysis import odds as run_odds
from solver.continental.notation import Pack, format_card, format_cards, hand_cards, hand_from_cards, parse_hand
from solver.continental.play import play_many
from solver.continental.render import hand_text, odds_text, play_text
from solver.continental.rules import deal_hand, get_round
from solver.continental.search import DEFAULT_NODE_LIMIT, analyse_hand, deficiency

ROUND = click.IntRange(1, 7)


def pack_options(f):
    """--decks, --jokers-per-deck and --joker-limit/--no-joker-limit."""
    f = click.option("--joker-limit/--no-joker-limit", default=True, show_default=True,
                     help="At most as many jokers as natural cards in a combination.")(f)
    f = click.option("--jokers-per-deck", type=int, default=2, show_default=True,
                     help="Jokers in each deck.")(f)
    f = click.option("--decks", type=int, default=2, show_default=True,
                     help="52-card decks in the pack.")(f)
    return f


JSON = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")


@game_group
def continental():
    """Continental rummy: contracts, deficiency, odds and play-outs."""


@continental.command()
@click.argument("cards", nargs=-1, required=True)
@click.option("--round", "round_number", type=ROUND, required=True, help="Round 1-7.")
@click.option("--node-limit", type=click.IntRange(min=1), default=DEFAULT_NODE_LIMIT,
              show_default=True, help="Combinations the arrangement search may place.")
@pack_options
@JSON
def hand(cards, round_number, node_limit, decks, jokers_per_deck, joker_limit, as_json):
    """Does a hand meet round R's contract?  Arrangement, points left, deficiency, outs.

    CARDS is one quoted string or several words: "As 2s 3s 4s Kh Kd X".
    """
    pack = Pack(decks=decks, jokers_per_deck=jokers_per_deck)
    h = parse_hand(" ".join(cards), pack=pack)
    report = analyse_hand(h, round_number, pack=pack, joker_limit=joker_limit,
                          node_limit=node_limit)
    if as_json:
        emit_json({
            "round": report["round"],
            "hand": [format_card(c) for c in hand_cards(h)],
            "meets": report["meets"],
            "deficiency": report["deficiency"],
            "melds": [[format_card(c) for c in m] for m in report["melds"]],
            "points_left": report["points_left"],
            "arrangement": report["arrangement"],
            "nodes": report["arrangement_nodes"],
            "improving": [format_card(c) for c in report["improving"]],
        })
    else:
        click.echo(hand_text(report))


@continental.command()
@click.option("--round", "round_number", type=ROUND, required=True, help="Round 1-7.")
@click.option("--deals", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Monte Carlo deals (deal numbers SEED .. SEED+N-1).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="First deal number.")
@click.option("--method", type=click.Choice(["auto", "exact", "monte-carlo"]), default="auto",
              show_default=True, help="auto: exact for rounds 1 and 4, else Monte Carlo.")
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Threads for Monte Carlo.")
@pack_options
@JSON
def odds(round_number, deals, seed, method, workers, decks, jokers_per_deck, joker_limit,
         as_json):
    """P(a dealt hand meets round R's contract) and the deficiency distribution."""
    pack = Pack(decks=decks, jokers_per_deck=jokers_per_deck)
    result = run_odds(round_number, deals=deals, seed=seed, pack=pack, joker_limit=joker_limit,
                      method=method, workers=workers)
    if as_json:
        emit_json(result)
    else:
        click.echo(odds_text(result))


@continental.command()
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True)
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True,
              help="Games with seeds SEED .. SEED+N-1.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="First game seed.")
@click.option("--policy", "policies", multiple=True, type=click.Choice(["random", "greedy"]),
              help="Policy per seat, repeated; seats cycle through the list "
                   "(default: greedy, random).")
@pack_options
@JSON
def play(players, games, seed, policies, decks, jokers_per_deck, joker_limit, as_json):
    """Whole seven-round games between policies: scores and win rates by seat."""
    pack = Pack(decks=decks, jokers_per_deck=jokers_per_deck)
    with tqdm(total=games, disable=not is_tty(), desc="games") as bar:
        summary = play_many(games, seed=seed, players=players,
                            policies=policies or ("greedy", "random"), pack=pack,
                            joker_limit=joker_limit, progress=bar.update)
    if as_json:
        emit_json(summary)
    else:
        click.echo(play_text(summary))


@continental.command()
@click.option("--seed", type=SEED, required=True, help="Deal number (unsigned 64-bit).")
@click.option("--round", "round_number", type=ROUND, required=True, help="Round 1-7.")
@pack_options
@JSON
def deal(seed, round_number, decks, jokers_per_deck, joker_limit, as_json):
    """The hand of deal SEED for round R (as odds deals it) and its deficiency."""
    pack = Pack(decks=decks, jokers_per_deck=jokers_per_deck)
    cards = deal_hand(seed, get_round(round_number).cards, pack=pack)
    d = deficiency(hand_from_cards(cards), round_number, pack=pack, joker_limit=joker_limit)
    if as_json:
        emit_json({"seed": seed, "round": round_number, "hand": [format_card(c) for c in cards],
                   "deficiency": d, "meets": d == 0})
    else:
        click.echo(f"{format_cards(cards)}\ndeficiency: {d}")
