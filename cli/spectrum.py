"""`solve spectrum`: the solitaire's minimum turns, positions, plans, reachability, play-outs.

Every command takes ``--json`` (one object whose keys are there whatever the
answer) and exits 0 for any answer, ``unknown`` included; ``verify`` exits 1
for a plan checked and found invalid; bad input exits 2.
"""
from __future__ import annotations

import json
import sys
from typing import List, Optional

import click

from solver.cli import pictures
from solver.cli.common import JSON_OPTION, SEED, add_play_command, emit_json, read_text_file, \
    refuse_group_options
from solver.errors import InputError
from solver.game import Limits
from solver.spectrum.notation import format_direction, format_goals, format_stash, stash_value
from solver.spectrum.rules import Game, parse_move
from solver.spectrum.search import DEFAULT_LIMITS, REACH_LIMITS


def _limit_options(defaults: Limits, nodes_are: str = "nodes"):
    """--node-limit, --time-limit and --table-mb (None when not given: the defaults apply)."""
    def deco(func):
        func = click.option("--table-mb", type=float, default=None,
                            help=f"Memory for the search's tables, MiB [default: {defaults.table_mb:g}].")(func)
        func = click.option("--time-limit", type=float, default=None,
                            help=f"Seconds before the answer is unknown [default: {defaults.time_limit:g}].")(func)
        func = click.option("--node-limit", type=int, default=None,
                            help=f"{nodes_are} before the answer is unknown [default: {defaults.node_limit}].")(func)
        return func
    return deco


def _context(seed) -> dict:
    from solver.games import variant_name
    return {"game": "spectrum", "variant": variant_name("spectrum", None), "seed": seed}


def _plan_lines(seed: int, line: List[str]) -> List[str]:
    """The plan replayed on the reference rules, one numbered line per turn,
    what each turn leaves after ``#`` (so `verify` reads the text back)."""
    st = Game(1, seed).new_state()
    out = []
    for number, text in enumerate(line, start=1):
        st.play(text)
        out.append(f"{number:3d}. {text:<45} # value {stash_value(st.stashes[0]):2d}  "
                   f"{format_direction(st.direction):<3}  {format_stash(st.stashes[0])}")
    return out


def _solve(seed: int, limits: Limits, as_json: bool) -> None:
    from solver.batch import answer_row
    row = answer_row("spectrum", "min-turns", seed, limits=limits)
    if as_json:
        emit_json(row)
        return
    click.echo(f"# spectrum seed {seed}: goals {row['goals']}")
    if row["verdict"] == "won":
        click.echo(f"# won: minimum {row['turns']} turns ({row['proof']}; {row['nodes']} nodes, "
                   f"{row['seconds']:.4f} s)")
        for text in _plan_lines(seed, row["line"]):
            click.echo(text)
    elif row["verdict"] == "lost":
        click.echo(f"# lost: {row['proof']} ({row['nodes']} nodes)")
    else:
        click.echo(f"# unknown: {row['limit']} limit hit after {row['nodes']} nodes "
                   f"(at least {row['lower_bound']} turns)")


@click.group(invoke_without_command=True)
@click.option("--seed", type=SEED, help="Solve the seeded 1-player solitaire (as `solve --seed`).")
@_limit_options(DEFAULT_LIMITS)
@JSON_OPTION
@click.pass_context
def spectrum(ctx, seed, node_limit, time_limit, table_mb, as_json):
    """Spectrum: minimum turns to win the seeded solitaire (IDA*, proven minimal),
    positions, plans, reachability and play-outs."""
    refuse_group_options(ctx, seed=seed, node_limit=node_limit, time_limit=time_limit,
                         table_mb=table_mb, json=as_json)
    if ctx.invoked_subcommand is not None:
        return
    if seed is None:
        if any(v not in (None, False) for v in (node_limit, time_limit, table_mb, as_json)):
            raise InputError("give --seed N (the solitaire to solve) or a subcommand")
        click.echo(ctx.get_help())
        return
    _solve(seed, Limits(node_limit, time_limit, table_mb), as_json)


@spectrum.command("solve")
@click.option("--seed", type=SEED, required=True, help="The seeded 1-player solitaire.")
@_limit_options(DEFAULT_LIMITS)
@JSON_OPTION
def solve_command(seed, node_limit, time_limit, table_mb, as_json):
    """The solitaire's proven minimum turns and the plan (won), or unknown and the limit."""
    _solve(seed, Limits(node_limit, time_limit, table_mb), as_json)


def _split_moves(text: str) -> List[str]:
    """Moves separated by newlines or ';'; blank lines, '#' comments and a
    leading 'N.' number are dropped."""
    out = []
    for raw in text.splitlines():
        for t in raw.split("#", 1)[0].split(";"):
            head, dot, rest = t.partition(".")
            t = rest.strip() if dot and head.strip().isdigit() else t.strip()
            if t:
                out.append(t)
    return out


@spectrum.command()
@click.option("--seed", type=SEED, default=1, show_default=True, help="The game's seed (its goal draws).")
@click.option("--players", type=click.IntRange(1, 4), default=1, show_default=True)
@click.option("--moves", default="", help="Moves to play first, separated by ';'.")
@click.option("--plan", is_flag=True,
              help="Solve the solitaire from the drawn position and show the plan's next move (1 player).")
@_limit_options(DEFAULT_LIMITS)
@pictures.svg_option
@pictures.html_option("the plan (implies --plan)")
@JSON_OPTION
def show(seed, players, moves, plan, node_limit, time_limit, table_mb, svg_path, html_path, as_json):
    """A position: the goals, the direction, every stash, and the legal moves.

    The picture puts the twelve colours on a circle with each player's stash
    beside them, the goals, and with --plan the plan's next move; --html
    writes a step-through replay of the whole plan."""
    from solver.game import check_moves
    from solver.spectrum import render
    from solver.spectrum.contract import Spectrum
    from solver.spectrum.search import min_turns
    pictures.check_outputs(as_json=as_json, svg_path=svg_path, html_path=html_path)
    state = check_moves(Spectrum(players).new_initial_state(seed), _split_moves(moves))
    ref = state.ref
    legal = [state.format_move(m) for m in state.legal_moves()]
    plan = plan or html_path is not None
    line: Optional[List[str]] = None
    verdict = None
    if plan:
        if players != 1:
            raise InputError("--plan and --html are for the 1-player solitaire (--players 1)")
        if not ref.is_terminal():
            answer = min_turns(ref.clone(), limits=Limits(node_limit, time_limit, table_mb))
            verdict = answer.verdict
            line = list(answer.line) if answer.verdict == "won" else None
        else:
            line = []
    next_move = line[0] if line else None
    pictures.write(svg_path, render.svg(ref, next_move=next_move))
    if html_path is not None:
        if line is None:
            raise InputError(f"no plan to replay: the search answered {verdict}")
        states = [ref.clone()]
        for text in line:
            states.append(states[-1].clone())
            states[-1].play(text)
        pictures.write_replay(html_path, f"Spectrum seed {seed}: a {len(line)}-turn plan",
                              lambda i: render.svg(states[i], next_move=line[i] if i < len(line) else None), line)
    picture = render.text(ref, next_move=next_move)
    if as_json:
        out = _context(seed)
        out.update(players=players, turn=ref.turn, current_player=ref.to_move,
                   direction=format_direction(ref.direction), goals=format_goals(ref.goals),
                   stashes=[format_stash(s) for s in ref.stashes],
                   values=[stash_value(s) for s in ref.stashes],
                   finished=ref.is_terminal(), winner=ref.winner, legal_moves=legal,
                   picture=picture, svg=svg_path, html=html_path, plan=line, next_move=next_move)
        emit_json(out)
        return
    if pictures.to_stdout(svg_path, html_path):
        return
    click.echo(render.text(ref, next_move=next_move, colour=pictures.colour()))
    if ref.is_terminal():
        click.echo(f"P{ref.winner + 1} has won")
    else:
        click.echo(f"P{ref.to_move + 1} to move, {len(legal)} legal moves"
                   + (f"; the plan takes {len(line)} turns" if line else ""))
    if plan and line is None:
        click.echo(f"no plan: the search answered {verdict}")
    pictures.wrote(svg_path, "SVG")
    pictures.wrote(html_path, "replay")


@spectrum.command()
@click.option("--seed", type=SEED, required=True, help="The seeded solitaire the plan is for.")
@click.argument("plan_file", metavar="FILE")
@JSON_OPTION
@click.pass_context
def verify(ctx, seed, plan_file, as_json):
    """Check a solitaire plan: FILE ('-' for stdin) holds one move per line
    (numbers and '#' comments are skipped, so `solve spectrum --seed N` output
    works) or the JSON of `--json` (its "line").  Exit 0 if the plan is legal
    and wins, 1 if not."""
    text = sys.stdin.read() if plan_file == "-" else read_text_file(plan_file)
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict):
        moves = data.get("line")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise InputError(f"{plan_file}: a JSON plan needs a \"line\" list of moves")
    else:
        moves = _split_moves(text)
    parsed = []
    for number, m in enumerate(moves, start=1):
        try:
            parsed.append(parse_move(m))
        except InputError as exc:
            raise InputError(f"move {number} ({m[:40]}): {exc}") from None
    st = Game(1, seed).new_state()
    reason: Optional[str] = None
    played = 0
    for number, move in enumerate(parsed, start=1):
        if st.is_terminal():
            reason = f"move {number}: the game was already won after turn {played}"
            break
        try:
            st.apply(move)
        except InputError as exc:
            reason = f"move {number}: {exc}"
            break
        played += 1
    if reason is None and not st.is_terminal():
        reason = f"the plan ends at value {stash_value(st.stashes[0])}, not a win (6 or less)"
    out = _context(seed)
    out.update(valid=reason is None, turns=played, value=stash_value(st.stashes[0]), reason=reason)
    if as_json:
        emit_json(out)
    elif reason is None:
        click.echo(f"valid: the plan wins seed {seed} in {played} turns")
    else:
        click.echo(f"invalid: {reason}")
    if reason is not None:
        ctx.exit(1)


@spectrum.command()
@click.option("--stash", required=True, help="e.g. 'red:SM orange:L' or 'M:red S:orange'.")
@click.option("--goals", required=True, help="Three small/medium/large goals, e.g. 'red/blue/teal ...'.")
@click.option("--direction", default="cw", show_default=True, help="cw or ccw.")
@click.option("--target", required=True, help="A stash, or a condition such as 'value<=6'.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Generator for future goals.")
@_limit_options(REACH_LIMITS, "Positions stored")
@JSON_OPTION
def reach(stash, goals, direction, target, seed, node_limit, time_limit, table_mb, as_json):
    """Can a target stash (or condition) be reached, in how many turns, and how?
    won: reachable (the fewest turns); lost: unreachable (every reachable
    position visited); unknown: a limit stopped the search."""
    from solver.spectrum.search import reach as reach_query
    res = reach_query(stash, goals, direction, target, seed=seed,
                      limits=Limits(node_limit, time_limit, table_mb))
    out = _context(seed)
    out.update(res.to_dict())
    if as_json:
        emit_json(out)
        return
    click.echo(f"{out['stash']} ({out['direction']}, goals {out['goals']}) -> {out['target']}")
    if res.verdict == "won":
        click.echo(f"won: reachable in {out['turns']} turns ({out['states']} positions)")
        for number, text in enumerate(res.line, start=1):
            click.echo(f"{number:3d}. {text}")
    elif res.verdict == "lost":
        click.echo(f"lost: unreachable, {out['proof']}")
    else:
        click.echo(f"unknown: {res.limit} limit hit ({res.nodes} positions stored)")


add_play_command(spectrum, "spectrum")
