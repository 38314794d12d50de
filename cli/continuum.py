"""`solve continuum`: the exchange puzzle's exact minimum and seeded play-outs."""
from __future__ import annotations

import click
from tqdm import tqdm

from solver.cli.common import SEED, emit_json, game_group, is_tty
from solver.continuum.game import BALANCES, DEFAULT_MAX_TURNS, play_game, summarise
from solver.continuum.policy import POLICIES
from solver.continuum.notation import parse_row
from solver.continuum.render import render_plan, render_row
from solver.continuum.rules import start_row
from solver.continuum.search import DEFAULT_MAX_NODES, DEFAULT_MAX_STATES, describe_limit, solve_puzzle


@game_group
def continuum():
    """Continuum: exchange puzzle (exact minimum) and seeded full games."""


@continuum.command()
@click.option("--player", type=click.Choice(["A", "B"], case_sensitive=False), default="A",
              show_default=True, help="Whose trees exchange (A: red+yellow, B: blue+green).")
@click.option("--row", "row_text", default=None,
              help="Start row, e.g. 'rL rM rS | bL bM bS || yL yM yS | gL gM gS' (default: the start).")
@click.option("--cost", type=click.Choice(["pips", "moves"]), default="pips", show_default=True,
              help="Minimise pips (ties: fewer moves) or moves (ties: fewer pips).")
@click.option("--kings", is_flag=True, help="Allow kings: switch two own neighbouring singles for 0 pips.")
@click.option("--max-step", type=click.IntRange(1, 6), default=6, show_default=True,
              help="Skip moves dearer than this many pips (5: what the card game can play).")
@click.option("--max-nodes", type=click.IntRange(0), default=DEFAULT_MAX_NODES, show_default=True)
@click.option("--max-states", type=click.IntRange(1), default=DEFAULT_MAX_STATES, show_default=True,
              help="Size limit of the state table (about 64 bytes a state).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def puzzle(ctx, player, row_text, cost, kings, max_step, max_nodes, max_states, as_json):
    """Exact minimum pips (or moves) to exchange both trees; the opponent stands still."""
    row = parse_row(row_text) if row_text is not None else start_row()
    res = solve_puzzle(row, player=player.upper(), cost=cost, kings=kings,
                       max_nodes=max_nodes, max_states=max_states, max_step=max_step)
    if as_json:
        emit_json(res.to_json(row))
    else:
        click.echo(render_row(row))
        click.echo(f"row: {row.text()}")
        if res.verdict == "solved":
            click.echo(render_plan(row, res.plan))
            step = f", moves of at most {res.max_step} pips" if res.max_step < 6 else ""
            click.echo(f"player {res.player}: minimum {res.cost} = "
                       f"{res.pips if cost == 'pips' else res.moves} "
                       f"(plan: {res.pips} pips, {res.moves} moves{step}; proved optimal by A*, "
                       f"{res.states} states, {res.nodes} expanded)")
        elif res.verdict == "impossible":
            click.echo(f"player {res.player}: no exchange exists "
                       f"(all {res.states} reachable rows searched)")
        else:
            click.echo(f"player {res.player}: unknown, {describe_limit(res)} was hit "
                       f"({res.nodes} expanded, {res.states} states)")
    if res.verdict == "unknown":
        ctx.exit(1)


@continuum.command()
@click.option("--seed", type=SEED, default=0, show_default=True, help="Game number (first of --games).")
@click.option("--policy", "policy", default="puzzle", show_default=True,
              type=click.Choice(POLICIES), help="Policy of both seats (unless --policy-a/-b).")
@click.option("--policy-a", type=click.Choice(POLICIES), default=None, help="Policy of seat A (moves first).")
@click.option("--policy-b", type=click.Choice(POLICIES), default=None, help="Policy of seat B.")
@click.option("--games", type=click.IntRange(1), default=1, show_default=True,
              help="Play seeds seed, seed+1, ... and report win rate by seat and game length.")
@click.option("--max-turns", type=click.IntRange(1), default=DEFAULT_MAX_TURNS, show_default=True,
              help="A game still going after this many turns is 'unfinished'.")
@click.option("--balance", type=click.Choice(BALANCES), default="turn", show_default=True,
              help="Check three-per-side at the end of each turn (rules page) or after every card.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def play(seed, policy, policy_a, policy_b, games, max_turns, balance, as_json):
    """Play seeded full games between two policies and show them."""
    pols = (policy_a or policy, policy_b or policy)
    if games == 1:
        rec = play_game(seed, policies=pols, max_turns=max_turns, balance=balance)
        if as_json:
            emit_json(rec.to_json())
            return
        click.echo("\n".join(rec.log))
        click.echo(render_row(rec.final))
        click.echo(f"game {seed} ({pols[0]} vs {pols[1]}): "
                   f"{'unfinished' if rec.winner is None else rec.winner + ' wins'} after {rec.turns} turns")
        return
    seeds = [(seed + i) & ((1 << 64) - 1) for i in range(games)]
    records = [play_game(s, policies=pols, max_turns=max_turns, balance=balance)
               for s in tqdm(seeds, disable=not is_tty(), unit="game")]
    summary = summarise(records)
    if as_json:
        emit_json(summary)
    else:
        for k, v in summary.items():
            click.echo(f"{k}: {v}")
