"""`solve continuum`: the exchange puzzle's exact minimum, rows, deals and seeded play-outs.

Every command takes ``--json`` and prints one object whose keys are present
whatever the answer, with the context keys ``game``, ``variant`` and ``seed``
(null where they do not apply: the puzzle depends on neither).
"""
from __future__ import annotations

import click

from solver.cli.common import JSON_OPTION, SEED, add_play_command, emit_json, game_group
from solver.continuum.cards import shuffled_deck
from solver.continuum.contract import run_puzzle
from solver.continuum.game import BALANCES, Continuum
from solver.continuum.notation import parse_move, parse_row
from solver.continuum.pieces import PLAYERS, pyramid_name
from solver.continuum.render import render_plan, render_row
from solver.continuum.rules import is_won, start_row, three_per_side
from solver.continuum.search import DEFAULT_NODE_LIMIT, DEFAULT_TABLE_MB
from solver.errors import InputError
from solver.game import Limits, check_moves
from solver.rng import SplitMix64

LIMIT_WORDS = {"nodes": "the node limit (--node-limit)", "time": "the time limit (--time-limit)",
               "memory": "the state-table limit (--table-mb)"}


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
@click.option("--node-limit", type=click.IntRange(min=1), default=DEFAULT_NODE_LIMIT, show_default=True,
              help="Expansions before the answer is unknown.")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Seconds before the answer is unknown (default: none).")
@click.option("--table-mb", type=click.FloatRange(min=0, min_open=True), default=DEFAULT_TABLE_MB,
              show_default=True, help="MiB for the state table (28 bytes a slot, 2+ slots a row).")
@JSON_OPTION
def puzzle(player, row_text, cost, kings, max_step, node_limit, time_limit, table_mb, as_json):
    """Exact minimum pips (or moves) to exchange both trees; the opponent stands still.

    Verdict won (the minimum, proved by A*), lost (no exchange exists: every
    reachable row searched) or unknown (a limit stopped the search); exit 0 for
    each."""
    row = parse_row(row_text) if row_text is not None else start_row()
    res = run_puzzle(row, limits=Limits(node_limit, time_limit, table_mb), player=player.upper(),
                     cost=cost, kings=kings, max_step=max_step)
    f = res.fields
    if as_json:
        emit_json({"game": "continuum", "variant": None, "seed": None, **res.to_dict()})
        return
    click.echo(render_row(row))
    click.echo(f"row: {row.text()}")
    work = f"{f['states']} states, {res.nodes} expanded, {res.seconds:.3f} s"
    if res.verdict == "won":
        click.echo(render_plan(row, [parse_move(m) for m in res.line]))
        step = f", moves of at most {max_step} pips" if max_step < 6 else ""
        click.echo(f"verdict: won. Player {f['player']}: minimum {cost} = "
                   f"{f['pips'] if cost == 'pips' else f['moves']} "
                   f"(plan: {f['pips']} pips, {f['moves']} moves{step}; proved optimal by A*, {work})")
    elif res.verdict == "lost":
        click.echo(f"verdict: lost. Player {f['player']}: no exchange exists "
                   f"(all {f['states']} reachable rows searched)")
    else:
        click.echo(f"verdict: unknown. Player {f['player']}: {LIMIT_WORDS[res.limit]} stopped the search ({work})")


def _row_fields(row) -> dict:
    return {"row": row.text(),
            "stacks": [[[pyramid_name(p) for p in stack] for stack in side] for side in row.sides],
            "balanced": all(three_per_side(row, p) for p in PLAYERS),
            "won": next((p for p in PLAYERS if is_won(row, p)), None)}


@continuum.command()
@click.option("--row", "row_text", default=None, help="A row to show (default: the start, or game --seed's).")
@click.option("--seed", type=SEED, default=None, help="Show full game SEED after the --move's.")
@click.option("--move", "moves", multiple=True,
              help="With --seed: a move to play first, as `play` prints it (repeat, in order).")
@click.option("--variant", type=click.Choice(BALANCES), default=None,
              help="With --seed: the balance rule (default: turn).")
@JSON_OPTION
def show(row_text, seed, moves, variant, as_json):
    """A row drawn upright (West on the left, || the continuum), or a full game's position."""
    if row_text is not None and seed is not None:
        raise InputError("give --row or --seed, not both")
    if seed is None and (moves or variant):
        raise InputError("--move and --variant need --seed (a full game)")
    state = None
    if seed is not None:
        state = check_moves(Continuum(variant or "turn").new_initial_state(seed), list(moves))
        row = state.row
    else:
        row = parse_row(row_text) if row_text is not None else start_row()
    out = {"game": "continuum", "variant": (variant or "turn") if state else None, "seed": seed,
           **_row_fields(row), "to_move": None, "phase": None, "turns": None, "hands": None,
           "discard_top": None, "draw_left": None, "legal_moves": None, "winner": None}
    if state is not None:
        over = state.is_terminal()
        out.update(to_move=None if over else PLAYERS[state.current_player()], phase=state.phase,
                   turns=state.turns, hands=dict(state.hands),
                   discard_top=state.discard[-1] if state.discard else None, draw_left=len(state.draw),
                   legal_moves=[state.format_move(m) for m in state.legal_moves()], winner=state.won)
    if as_json:
        emit_json(out)
        return
    click.echo(render_row(row))
    click.echo(f"row: {out['row']}")
    click.echo(f"both players 3 per side: {'yes' if out['balanced'] else 'no'}; "
               f"won: {out['won'] or 'nobody'}")
    if state is not None:
        click.echo(f"turn {state.turns}; hands A {' '.join(state.hands['A']) or '-'}, "
                   f"B {' '.join(state.hands['B']) or '-'}; top discard {out['discard_top'] or '-'}; "
                   f"{out['draw_left']} to draw")
        if state.is_terminal():
            click.echo(f"{state.won} has won")
        else:
            click.echo(f"{out['to_move']} to {state.phase}; {len(out['legal_moves'])} legal moves:")
            for text in out["legal_moves"]:
                click.echo(f"  {text}")


@continuum.command()
@click.option("--seed", type=SEED, default=1, show_default=True, help="Game number.")
@JSON_OPTION
def deal(seed, as_json):
    """The shuffled deck of game SEED, top card first (rules/continuum.md)."""
    deck = shuffled_deck(SplitMix64(seed))
    if as_json:
        emit_json({"game": "continuum", "variant": None, "seed": seed, "deck": deck})
    else:
        click.echo(" ".join(deck))


add_play_command(continuum, "continuum")
