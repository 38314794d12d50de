"""`solve pyramid`: Continuous Pyramid and Pyramid of Wild Dragons.

Thin over ``solver.pyramid`` and its contract adapter (``solver.pyramid.contract``):
options become keyword arguments, answers become text or one JSON object
whose keys are present whatever the answer.
"""
from __future__ import annotations

import json
from typing import Optional

import click

from solver.cli import pictures
from solver.cli.common import (JSON_OPTION, SEED, add_play_command, emit_json, progress_bar, read_text_file,
                               refuse_group_options)
from solver.errors import InputError
from solver.game import Limits, Result
from solver.pyramid import render
from solver.pyramid.check import check_solution, parse_solution_text, replay
from solver.pyramid.contract import THOUGHTFUL_LIMITS, thoughtful_answer
from solver.pyramid.deal import Deal, deal_from_seed, parse_deal
from solver.pyramid.geometry import POSITIONS
from solver.pyramid.rules import VARIANTS
from solver.pyramid.tiles import TILES

GAME = "pyramid"
VARIANT_NAMES = {"continuous": "Continuous Pyramid", "wild-dragons": "Pyramid of Wild Dragons"}


def deal_options(func):
    """Add --seed / --deal / --deal-file to a command."""
    options = [
        click.option("--seed", type=SEED, help="Deal number: an unsigned 64-bit integer."),
        click.option("--deal", "deal_text", metavar="TOKENS", help="The deal as 144 tokens, e.g. '5D 1B EW ...'."),
        click.option("--deal-file", type=click.Path(dir_okay=False), help="A file holding the 144 tokens."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def variant_option(default):
    return click.option("--variant", type=click.Choice(VARIANTS), default=default, show_default=default is not None,
                        help="continuous: winds and seasons are neighbours; wild-dragons: they are not "
                             "(default: continuous).")


def limit_options(func):
    """--node-limit / --time-limit / --table-mb: the search's Limits (default: the game's)."""
    options = [
        click.option("--node-limit", type=int, default=None,
                     help=f"Stop with 'unknown' after this many nodes [default: {THOUGHTFUL_LIMITS.node_limit:,}]."),
        click.option("--time-limit", type=float, default=None,
                     help=f"Stop with 'unknown' after this many seconds [default: {THOUGHTFUL_LIMITS.time_limit:g}]."),
        click.option("--table-mb", type=float, default=None,
                     help=f"Memory for the transposition table, in MiB [default: {THOUGHTFUL_LIMITS.table_mb:g}]."),
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


def context(deal, variant) -> dict:
    """The context keys every JSON answer starts with."""
    return {"game": GAME, "variant": variant, "seed": None if deal is None else deal.seed}


def describe(result: Result, deal: Deal, variant: str, *, proof: Optional[str] = None) -> str:
    """The human-readable report of a solve (``proof``: what proved it lost, when not the search)."""
    name = VARIANT_NAMES[variant]
    header = f"{name}, deal {deal.seed}" if deal.seed is not None else f"{name}, given deal"
    lines = [header, f"verdict: {result.verdict}"]
    fields = result.fields
    if result.verdict == "won":
        lines[-1] += " (solution replayed by the independent checker)"
        for number, (move, slot) in enumerate(zip(result.line, fields["slots"]), start=1):
            lines.append(f"{number:4d}. {move:8s} from reserve slot {slot}")
    elif result.verdict == "lost":
        lines[-1] += f" (proven by {proof or 'exhaustive search with sound cuts only'})"
    else:
        limit = {"nodes": "node limit", "time": "time limit", "memory": "memory limit"}[result.limit]
        lines[-1] += f" ({limit} reached; best line placed {fields['deepest']} tiles)"
    lines.append(f"nodes {result.nodes:,}  time {fields['search_seconds']:.3f} s  "
                 f"table peak {fields['table_entries']:,} entries of {fields['table_bytes'] / 2**20:.0f} MiB")
    return "\n".join(lines)


def check_proof_option(func):
    return click.option("--check-proof", is_flag=True, default=False,
                        help="A deal lost by the SAT stage: ask again with CaDiCaL's DRAT proof kept and "
                             "check it with the project's own checker (docs/pyramid.md, "
                             "\"The unsat answers, checked\").")(func)


def sat_proof_checked(deal: Deal, variant: str, search, wanted: bool):
    """``proof_checked``: None unless ``wanted`` and the deal was lost by the SAT
    stage; then whether CaDiCaL's proof of "no line places ``sat_k`` tiles" was
    checked (with the check, or None)."""
    if not wanted or search.sat_k is None:
        return None, None
    from solver.pyramid.satproof import check_lost
    _, report = check_lost(deal, search.sat_k, variant=variant)
    return report.checked, report


def solve_and_report(seed, deal_text, deal_file, variant, node_limit, time_limit, table_mb, as_json,
                     check_proof: bool = False) -> None:
    deal = load_deal(seed, deal_text, deal_file)
    variant = variant or "continuous"
    result, search = thoughtful_answer(deal, variant=variant, limits=Limits(node_limit, time_limit, table_mb))
    why = None
    if result.verdict == "lost":
        from solver.pyramid.why import why_lost
        why = (f"The SAT stage (docs/pyramid.md): {search.sat}." if search.sat
               else why_lost(deal, variant=variant, nodes=result.nodes, hub=search.hub))
    checked, report = sat_proof_checked(deal, variant, search, check_proof)
    if as_json:
        emit_json({**context(deal, variant), **result.to_dict(), "why": why, "proof_checked": checked})
    else:
        proof = ("the hub lemma, docs/pyramid.md" if search.hub else
                 "the SAT stage, docs/pyramid.md" if search.sat and result.verdict == "lost" else None)
        click.echo(describe(result, deal, variant, proof=proof))
        if why:
            click.echo(f"why: {why}")
        if report is not None:
            click.echo(f"proof: CaDiCaL's DRAT proof checked ({report.lemmas:,} lemmas, "
                       f"{report.deletions:,} deletions, {report.cpu_seconds:.1f} s)" if checked
                       else f"proof: NOT checked ({report.reason})")
    if checked is False:            # asked for and failed: "checked and invalid" (docs/json.md)
        raise click.exceptions.Exit(1)


@click.group(invoke_without_command=True)
@deal_options
@variant_option(None)
@limit_options
@check_proof_option
@JSON_OPTION
@click.pass_context
def pyramid(ctx, seed, deal_text, deal_file, variant, node_limit, time_limit, table_mb, check_proof, as_json):
    """Continuous Pyramid: is a deal winnable, and how?

    \b
    solve pyramid --seed 42                 verdict and the 144-move solution
    solve pyramid --seed 42 --json          the same as one JSON object
    solve pyramid deal --seed 42            the deal's 144 tokens
    solve pyramid verify --seed 42 sol.txt  check a solution
    solve pyramid show --seed 42 --moves 60 the pyramid after 60 moves
    solve pyramid play --seed 5 --policy lookahead   one blind game

    Options before a subcommand belong to `solve pyramid` itself (the solve);
    a subcommand takes its own after its name.
    """
    refuse_group_options(ctx, seed=seed, deal=deal_text, deal_file=deal_file, variant=variant,
                         node_limit=node_limit, time_limit=time_limit, table_mb=table_mb,
                         check_proof=check_proof, json=as_json)
    if ctx.invoked_subcommand is not None:
        return
    if seed is None and deal_text is None and deal_file is None:
        if any(v not in (None, False) for v in (variant, node_limit, time_limit, table_mb, check_proof, as_json)):
            raise InputError("no deal given: use --seed N, --deal TOKENS or --deal-file PATH")
        click.echo(ctx.get_help())
        return
    solve_and_report(seed, deal_text, deal_file, variant, node_limit, time_limit, table_mb, as_json, check_proof)


@pyramid.command("solve")
@deal_options
@variant_option("continuous")
@limit_options
@check_proof_option
@JSON_OPTION
def solve_command(seed, deal_text, deal_file, variant, node_limit, time_limit, table_mb, check_proof, as_json):
    """Decide a deal (the same as `solve pyramid --seed N`): won with the solution, lost, or unknown."""
    solve_and_report(seed, deal_text, deal_file, variant, node_limit, time_limit, table_mb, as_json, check_proof)


@pyramid.command()
@click.option("--seed", type=SEED, required=True, help="Deal number (unsigned 64-bit).")
@JSON_OPTION
def deal(seed, as_json):
    """Print the 144 tokens of a seeded deal, in deal order (the same for both variants)."""
    d = deal_from_seed(seed)
    if as_json:
        emit_json({**context(d, None), "deal": d.tokens()})
    else:
        click.echo(d.text())


@pyramid.command()
@deal_options
@variant_option(None)
@click.argument("solution_file", type=click.Path(dir_okay=False))
@JSON_OPTION
@click.pass_context
def verify(ctx, seed, deal_text, deal_file, variant, solution_file, as_json):
    """Check a solution: a move per line (TILE@POS) or the JSON of `solve pyramid --json`.

    Exit status 0: the moves are legal and win the deal; 1: they do not (the
    first illegal move is named); 2: bad input.  Without a deal, the JSON's
    seed and variant are used.
    """
    text = read_text_file(solution_file)
    moves = parse_solution_text(text)
    deal = load_deal(seed, deal_text, deal_file, required=False)
    if deal is None:
        deal, variant = _deal_from_solution_json(text, variant)
    variant = variant or "continuous"
    report = check_solution(deal, moves, variant=variant)
    if as_json:
        emit_json({**context(deal, variant), **report.to_dict()})
    elif report.valid:
        click.echo(f"valid: {report.moves_played} legal moves win the deal ({variant})")
    else:
        click.echo(f"invalid: {report.error}")
    ctx.exit(0 if report.valid else 1)


def _deal_from_solution_json(text: str, variant):
    """A JSON solution names its seed and variant; use them when no deal is given
    (a --variant given on the command line wins)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("seed"), int) and not isinstance(data["seed"], bool):
        named = data.get("variant")
        if variant is None and named is not None and named not in VARIANTS:
            raise InputError(f"the JSON solution names an unknown variant {str(named)[:40]!r}")
        return deal_from_seed(data["seed"]), variant or named
    raise InputError("no deal given: use --seed N, --deal TOKENS or --deal-file PATH")


@pyramid.command()
@deal_options
@variant_option("continuous")
@limit_options
@click.option("--moves", "count", type=click.IntRange(min=0), default=None,
              help="Draw the position after this many moves of the solution (default: all).")
@pictures.svg_option
@pictures.html_option("the solution (or the best line)")
@JSON_OPTION
def show(seed, deal_text, deal_file, variant, node_limit, time_limit, table_mb, count, svg_path, html_path, as_json):
    """Draw the pyramid after the first K moves of the solution.

    The picture has the four levels with their files and ranks, the reserves
    with their slots, the open positions and legal targets, the last move and
    a caption (variant, deal, move, verdict); --svg writes it as SVG, --html
    a step-through replay of the whole line.
    A deal that is not won is drawn along the line that placed the most tiles.
    --json prints the solve's answer with the drawn position: ``drawn`` (the
    moves drawn), ``last_move``, ``board`` (144 tokens or null, by position),
    ``positions`` (their names), ``reserves`` (slots 1-9), ``stock_left``, ``svg``, ``html``.
    """
    pictures.check_outputs(as_json=as_json, svg_path=svg_path, html_path=html_path)
    deal = load_deal(seed, deal_text, deal_file)
    result, raw = thoughtful_answer(deal, variant=variant, limits=Limits(node_limit, time_limit, table_mb))
    line = raw.moves if raw.verdict == "won" else raw.best_line
    if count is None:
        count = len(line)
    if count > len(line):
        kind = "solution" if raw.verdict == "won" else f"best line ({raw.verdict} deal)"
        raise InputError(f"--moves {count}: the {kind} has only {len(line)} moves")
    state = replay(deal, line[:count], variant=variant)
    last = line[count - 1] if count else None
    pictures.write(svg_path, render.svg(state, last_move=last, verdict=result.verdict))
    if html_path is not None:
        states = [replay(deal, [], variant=variant)]
        for move in line:
            states.append(states[-1].clone())
            states[-1].apply(move)
        pictures.write_replay(html_path, render.caption(states[-1], verdict=result.verdict),
                              lambda i: render.svg(states[i], verdict=result.verdict), [str(m) for m in line])
    if as_json:
        emit_json({**context(deal, variant), **result.to_dict(),
                   "picture": render.text(state, last_move=last, verdict=result.verdict),
                   "drawn": [str(m) for m in line[:count]], "last_move": None if last is None else str(last),
                   "board": [None if f is None else TILES[f].token for f in state.board],
                   "positions": [p.name for p in POSITIONS],
                   "reserves": [None if f is None else TILES[f].token for f in state.reserve],
                   "stock_left": state.stock_left(),
                   "svg": svg_path, "html": html_path})
        return
    if pictures.to_stdout(svg_path, html_path):
        return
    click.echo(render.text(state, last_move=last, verdict=result.verdict, colour=pictures.colour()))
    pictures.wrote(svg_path, "SVG")
    pictures.wrote(html_path, "replay")


@pyramid.command()
@deal_options
@variant_option("continuous")
@limit_options
@click.option("--moves", "moves_file", type=click.Path(dir_okay=False),
              help="The moves played so far: a file in the format `verify` reads (default: none).")
@click.option("--critical", is_flag=True,
              help="Also list the moves of a solution from there where no other choice keeps the deal winnable.")
@JSON_OPTION
def hint(seed, deal_text, deal_file, variant, node_limit, time_limit, table_mb, moves_file, critical, as_json):
    """Is the deal still winnable after the moves played, and which legal moves keep it so?

    Every legal move is decided by the exact search (each under the limits:
    default 2,000,000 nodes and 10 s per move).  Moves that differ only in
    which wind, season or dragon they take share one verdict.  --critical
    lists the solution's moves where only one choice keeps the deal winnable.
    """
    from solver.pyramid.hint import hint as decide
    from solver.pyramid.rules import parse_move
    deal = load_deal(seed, deal_text, deal_file)
    played = [parse_move(m) for m in parse_solution_text(read_text_file(moves_file))] if moves_file else []
    h = decide(deal, played, variant=variant, limits=Limits(node_limit, time_limit, table_mb), critical=critical)
    if as_json:
        emit_json({**context(deal, variant), **h.to_dict()})
        return
    where = f"deal {deal.seed}" if deal.seed is not None else "given deal"
    click.echo(f"{VARIANT_NAMES[variant]}, {where}, after {h.played} moves: {h.verdict}"
               + (f" ({h.limit} limit reached)" if h.limit else ""))
    for verdict, title in (("won", "keep it winnable"), ("lost", "lose"), ("unknown", "undecided")):
        chosen = [m["move"] for m in h.moves if m["verdict"] == verdict]
        if chosen:
            click.echo(f"{len(chosen)} of {len(h.moves)} legal moves {title}: {' '.join(chosen)}")
    if h.line:
        click.echo(f"a winning continuation ({len(h.line)} moves): {' '.join(h.line[:12])}"
                   + (" ..." if len(h.line) > 12 else ""))
    if h.critical is not None:
        click.echo(f"critical moves of that solution: {len(h.critical)}")
        for c in h.critical:
            why = ("the only legal choice" if c["forced"] else
                   f"{c['choices'] - 1} other choices, all lost" if c["critical"] else
                   f"{c['choices'] - 1} other choices: {c['lost']} lost, {c['unknown']} undecided")
            click.echo(f"{c['number']:4d}. {c['move']:8s} {why}")
    click.echo(f"nodes {h.nodes:,}  time {h.seconds:.3f} s")


@pyramid.command()
@click.argument("database", type=click.Path(dir_okay=False))
@variant_option("continuous")
@click.option("--count", type=click.IntRange(min=0), default=2000, show_default=True,
              help="Stored verdicts drawn at random (a fixed sample); rows that took over 1M nodes are added.")
@limit_options
@click.option("--progress/--no-progress", default=None,
              help="A progress bar on stderr (default: when stderr is a terminal).")
@JSON_OPTION
@click.pass_context
def recheck(ctx, database, variant, count, node_limit, time_limit, table_mb, progress, as_json):
    """Decide stored verdicts of a results database again, with the tail search.

    A check of a million-seed table: COUNT decided rows drawn at random, and
    every row that needed over 1M nodes, are decided again in this process by
    the tail search (a relaxation other than the one that stored most rows).
    A deal it cannot decide within the limits (default 20,000,000 nodes and
    60 s each) is counted undecided, never agreeing.  Exit status 1 when a
    stored verdict differs.  The database is only read.
    """
    from solver.pyramid.recheck import RECHECK_LIMITS, recheck as run
    limits = Limits(node_limit, time_limit, table_mb).or_defaults(**RECHECK_LIMITS.to_dict())
    with progress_bar(progress, desc=f"recheck {variant}", unit="deal") as tick:
        r = run(database, variant=variant, count=count, limits=limits, progress=tick)
    if as_json:
        emit_json({"game": GAME, "variant": variant, "seed": None, "database": database, **limits.to_dict(),
                   **r.to_dict()})
    else:
        click.echo(f"{VARIANT_NAMES[variant]}: {r.sampled} random and {r.hard} hard stored verdicts decided "
                   f"again by the tail search: {r.agree} agree, {len(r.differ)} differ, {r.undecided} undecided "
                   f"({r.cpu_seconds:.1f} s CPU)")
        for seed, stored, now in r.differ:
            click.echo(f"  seed {seed}: stored {stored}, now {now}")
    ctx.exit(0 if r.valid else 1)


add_play_command(pyramid, GAME)
