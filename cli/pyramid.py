"""`solve pyramid`: Continuous Pyramid and Pyramid of Wild Dragons.

Thin over ``solver.pyramid``: options become keyword arguments, results become
text or one JSON object.
"""
from __future__ import annotations

import functools
import json

import click

from solver.cli.common import SEED, emit_json, read_text_file
from solver.errors import InputError
from solver.pyramid import render
from solver.pyramid.check import check_solution, parse_solution_text, replay
from solver.pyramid.deal import Deal, deal_from_seed, parse_deal
from solver.pyramid.rules import VARIANTS
from solver.pyramid.search import (DEFAULT_NODE_LIMIT, DEFAULT_TABLE_MB, DEFAULT_TIME_LIMIT,
                                   SolveResult, solve)

VARIANT_NAMES = {"continuous": "Continuous Pyramid", "wild-dragons": "Pyramid of Wild Dragons"}


def deal_source(func):
    """Add --seed / --deal / --deal-file and --variant to a command."""
    options = [
        click.option("--seed", type=SEED, help="Deal number: an unsigned 64-bit integer."),
        click.option("--deal", "deal_text", metavar="TOKENS", help="The deal as 144 tokens, e.g. '5D 1B EW ...'."),
        click.option("--deal-file", type=click.Path(dir_okay=False), help="A file holding the 144 tokens."),
        click.option("--variant", type=click.Choice(VARIANTS), default="continuous", show_default=True,
                     help="continuous: winds and seasons are neighbours; wild-dragons: they are not."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def search_limits(func):
    options = [
        click.option("--node-limit", type=click.IntRange(min=0), default=DEFAULT_NODE_LIMIT, show_default=True,
                     help="Stop with 'unknown' after this many nodes (0: no limit)."),
        click.option("--time-limit", type=click.FloatRange(min=0), default=DEFAULT_TIME_LIMIT, show_default=True,
                     help="Stop with 'unknown' after this many seconds (0: no limit)."),
        click.option("--table-mb", type=click.FloatRange(min=0), default=DEFAULT_TABLE_MB, show_default=True,
                     help="Memory for the transposition table, in MiB."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def load_deal(seed, deal_text, deal_file, *, required: bool = True):
    """Exactly one deal source, as a Deal (or None when optional and absent)."""
    given = [name for name, value in (("--seed", seed), ("--deal", deal_text), ("--deal-file", deal_file))
             if value is not None]
    if len(given) > 1:
        raise InputError(f"give only one of {', '.join(given)}")
    if not given:
        if required:
            raise InputError("no deal given: use --seed N, --deal TOKENS or --deal-file PATH")
        return None
    if seed is not None:
        return deal_from_seed(seed)
    if deal_text is not None:
        return parse_deal(deal_text)
    return parse_deal(read_text_file(deal_file))


def describe(result: SolveResult, deal: Deal) -> str:
    """The human-readable report of a solve."""
    name = VARIANT_NAMES[result.variant]
    header = f"{name}, deal {deal.seed}" if deal.seed is not None else f"{name}, given deal"
    lines = [header, f"verdict: {result.verdict}"]
    if result.verdict == "won":
        lines[-1] += " (solution replayed by the independent checker)"
        for number, (move, slot) in enumerate(zip(result.moves, result.slots), start=1):
            lines.append(f"{number:4d}. {str(move):8s} from reserve slot {slot}")
    elif result.verdict == "lost":
        lines[-1] += " (proven by exhaustive search with sound cuts only)"
    else:
        limit = {"nodes": "node limit", "time": "time limit"}.get(result.limit, result.limit)
        lines[-1] += f" ({limit} reached; best line placed {result.deepest} tiles)"
    lines.append(f"nodes {result.nodes:,}  time {result.seconds:.3f} s  "
                 f"table peak {result.table_entries:,} entries of {result.table_bytes / 2**20:.0f} MiB")
    return "\n".join(lines)


@click.group(invoke_without_command=True)
@deal_source
@search_limits
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def pyramid(ctx, seed, deal_text, deal_file, variant, node_limit, time_limit, table_mb, as_json):
    """Continuous Pyramid: is a deal winnable, and how?

    \b
    solve pyramid --seed 42                 verdict and the 144-move solution
    solve pyramid --seed 42 --json          the same as one JSON object
    solve pyramid deal --seed 42            the deal's 144 tokens
    solve pyramid verify --seed 42 sol.txt  check a solution
    solve pyramid show --seed 42 --moves 60 the pyramid after 60 moves
    """
    if ctx.invoked_subcommand is not None:
        return
    deal = load_deal(seed, deal_text, deal_file, required=False)
    if deal is None:
        click.echo(ctx.get_help())
        return
    result = solve(deal, variant=variant, node_limit=node_limit, time_limit=time_limit, table_mb=table_mb)
    if as_json:
        emit_json(result.to_dict())
    else:
        click.echo(describe(result, deal))


@pyramid.command()
@click.option("--seed", type=SEED, required=True, help="Deal number (unsigned 64-bit).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def deal(seed, as_json):
    """Print the 144 tokens of a seeded deal, in deal order."""
    d = deal_from_seed(seed)
    if as_json:
        emit_json({"seed": seed, "deal": d.tokens()})
    else:
        click.echo(d.text())


@pyramid.command()
@deal_source
@click.argument("solution_file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def verify(ctx, seed, deal_text, deal_file, variant, solution_file, as_json):
    """Check a solution: a move per line (TILE@POS) or the JSON of `solve pyramid --json`.

    Exit status 0: the moves are legal and win the deal; 1: they do not (the
    first illegal move is named); 2: bad input.
    """
    text = read_text_file(solution_file)
    moves = parse_solution_text(text)
    deal = load_deal(seed, deal_text, deal_file, required=False)
    if deal is None:
        deal, variant = _deal_from_solution_json(text, variant)
    report = check_solution(deal, moves, variant=variant)
    if as_json:
        emit_json({"seed": deal.seed, "variant": variant, **report.to_dict()})
    elif report.valid:
        click.echo(f"valid: {report.moves_played} legal moves win the deal ({variant})")
    else:
        click.echo(f"invalid: {report.error}")
    ctx.exit(0 if report.valid else 1)


def _deal_from_solution_json(text: str, variant: str):
    """A JSON solution names its seed and variant; use them when no deal is given."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("seed"), int):
        return deal_from_seed(data["seed"]), data.get("variant", variant)
    raise InputError("no deal given: use --seed N, --deal TOKENS or --deal-file PATH")


@pyramid.command()
@deal_source
@search_limits
@click.option("--moves", "count", type=click.IntRange(min=0), default=None,
              help="Draw the position after this many moves of the solution (default: all).")
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False), help="Also write an SVG picture here.")
@click.pass_context
def show(ctx, seed, deal_text, deal_file, variant, node_limit, time_limit, table_mb, count, svg_path):
    """Draw the pyramid after the first K moves of the solution.

    A deal that is not won is drawn along the line that placed the most tiles.
    """
    deal = load_deal(seed, deal_text, deal_file)
    result = solve(deal, variant=variant, node_limit=node_limit, time_limit=time_limit, table_mb=table_mb)
    line = result.moves if result.verdict == "won" else result.best_line
    if count is None:
        count = len(line)
    if count > len(line):
        kind = "solution" if result.verdict == "won" else f"best line ({result.verdict} deal)"
        raise InputError(f"--moves {count}: the {kind} has only {len(line)} moves")
    state = replay(deal, line[:count], variant=variant)
    last = line[count - 1] if count else None
    click.echo(f"{VARIANT_NAMES[variant]}, deal {deal.seed if deal.seed is not None else '(given)'}: "
               f"{result.verdict}; after {count} moves" + (f", last {last}" if last else ""))
    click.echo(render.text(state, last_move=last))
    if svg_path:
        title = f"{VARIANT_NAMES[variant]} deal {deal.seed if deal.seed is not None else ''} after {count} moves"
        try:
            with open(svg_path, "w", encoding="utf-8") as fh:
                fh.write(render.svg(state, last_move=last, title=title))
        except OSError as exc:
            raise InputError(f"cannot write {svg_path}: {exc.strerror}") from None
        click.echo(f"wrote {svg_path}")


from solver.cli.pyramid_play import batch, play  # noqa: E402  (issue 3: blind play and batch)
pyramid.add_command(play)
pyramid.add_command(batch)
