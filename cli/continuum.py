"""`solve continuum`: the exchange puzzle's exact minimum, rows, deals and seeded play-outs.

Every command takes ``--json`` and prints one object whose keys are present
whatever the answer, with the context keys ``game``, ``variant`` and ``seed``
(null where they do not apply: the puzzle depends on neither).
"""
from __future__ import annotations

import click

from solver.cli import pictures
from solver.cli.common import JSON_OPTION, SEED, add_play_command, emit_json, game_group
from solver.continuum.cards import shuffled_deck
from solver.continuum.contract import run_puzzle
from solver.continuum.game import BALANCES, Continuum
from solver.continuum.notation import parse_move, parse_row
from solver.continuum.pieces import PLAYERS, pyramid_name
from solver.continuum import render
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
@click.option("--plan", is_flag=True,
              help="Solve the exchange puzzle from the row for --player and draw its plan (--html replays it).")
@click.option("--player", type=click.Choice(["A", "B"], case_sensitive=False), default="A", show_default=True,
              help="With --plan: whose trees exchange.")
@pictures.svg_option
@pictures.html_option("the --move's of a game, or the --plan")
@JSON_OPTION
def show(row_text, seed, moves, variant, plan, player, svg_path, html_path, as_json):
    """A row drawn upright (West on the left, || the continuum), or a full game's position.

    The picture shows the stacks West to East, the continuum, each player's
    trees and, in a game, the hands; --svg writes it as SVG; --html a
    step-through replay of a game's --move's or of the puzzle's --plan."""
    pictures.check_outputs(as_json=as_json, svg_path=svg_path, html_path=html_path)
    if plan and seed is not None:
        raise InputError("--plan solves the puzzle from a --row, not a game's position")
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
    frames, labels, moved_by = _show_line(row, state, seed, variant, moves, plan, player)
    last, moved = (labels[-1], moved_by[-1]) if labels and not plan else (None, ())
    pictures.write(svg_path, render.svg(row, state=state, last_move=last, moved=moved))
    if html_path is not None:
        if not labels:
            raise InputError("--html replays a line: give --seed N with --move's, or --plan")
        pictures.write_replay(html_path, render.caption(row, state=state, title="Continuum"),
                              lambda i: render.svg(frames[i][0], state=frames[i][1],
                                                   last_move=labels[i - 1] if i else None,
                                                   moved=moved_by[i - 1] if i else ()), labels)
    out.update(picture=render.text(row, state=state, last_move=last, moved=moved), svg=svg_path, html=html_path,
               plan=labels if plan else None)
    if as_json:
        emit_json(out)
        return
    if pictures.to_stdout(svg_path, html_path):
        return
    click.echo(render.text(row, state=state, last_move=last, moved=moved, colour=pictures.colour()))
    if plan:
        click.echo(f"the plan for player {player.upper()} (proved minimal in pips):")
        click.echo(render_plan(row, [parse_move(m) for m in labels]))
    click.echo(f"row: {out['row']}")
    if state is not None and not state.is_terminal():   # the picture has the hands, the turn, the winner
        click.echo(f"{len(out['legal_moves'])} legal moves:")
        for text in out["legal_moves"]:
            click.echo(f"  {text}")
    pictures.wrote(svg_path, "SVG")
    pictures.wrote(html_path, "replay")


def _show_line(row, state, seed, variant, moves, plan, player):
    """The positions along the line `show` draws: (frames, labels, moved pyramids):
    frames[i] = (row, game state or None) after i moves."""
    import re
    from solver.continuum.pieces import pyramid_id
    from solver.continuum.rules import apply
    if plan:
        res = run_puzzle(row, player=player.upper())
        if res.verdict != "won":
            raise InputError(f"no plan to draw: the puzzle answered {res.verdict}")
        frames, labels, moved = [(row, None)], [], []
        for text in res.line:
            move = parse_move(text)
            frames.append((apply(frames[-1][0], move), None))
            labels.append(text)
            moved.append({move.pid} | ({move.other} if move.other is not None else set()))
        return frames, labels, moved
    if state is None or not moves:
        return [(row, state)], [], []
    game = Continuum(variant or "turn").new_initial_state(seed)
    frames, labels, moved = [(game.row, game.clone())], [], []
    for text in moves:
        game = check_moves(game, [text])
        frames.append((game.row, game.clone()))
        labels.append(text)
        moved.append({pyramid_id(t) for t in re.findall(r"\b([rbyg][SML])", text)})
    return frames, labels, moved


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
