"""`solve batch`, `solve stats`, `solve export`, `solve plot`: the shared batch commands.

Every game plugs in through the registry (:mod:`solver.games`); these
commands are thin over :mod:`solver.batch`, :mod:`solver.stats`,
:mod:`solver.export` and :mod:`solver.plot`.
"""
from __future__ import annotations

import sys

import click

from solver.cli.common import emit_json, read_text_file
from solver.errors import InputError
from solver.files import check_output, describe, same_file
from solver.seeds import CONFIRM_ABOVE, check_size, normalise, parse_ranges, parse_seeds_file

DEFAULT_DB = "results.sqlite"


def seed_ranges(seeds, seeds_file):
    """The ranges named by --seeds and/or --seeds-file."""
    ranges = []
    if seeds:
        ranges += parse_ranges(seeds)
    if seeds_file:
        ranges += parse_seeds_file(read_text_file(seeds_file), name=seeds_file)
    if not ranges:
        raise InputError("name the seeds with --seeds (e.g. 1-100000) or --seeds-file")
    return normalise(ranges)


def batch_options(fn):
    """The options every form of `batch` shares (the game-specific form adds its own)."""
    opts = [
        click.option("--seeds", help="Seeds and ranges, e.g. 1-100000 or 1-10,50."),
        click.option("--seeds-file", type=click.Path(dir_okay=False),
                     help="A file with one seed or one range per line."),
        click.option("--workers", type=click.IntRange(min=1), default=None,
                     help="Worker processes (default: all cores)."),
        click.option("--db", default=DEFAULT_DB, show_default=True, help="The results database."),
        click.option("--node-limit", type=click.IntRange(min=1), default=None,
                     help="Per-deal node limit (default: the analysis's for a batch, else the game's)."),
        click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=None,
                     help="Per-deal time limit in seconds (default: the game's)."),
        click.option("--table-mb", type=click.FloatRange(min=0, min_open=True), default=None,
                     help="Per-deal table memory in MiB (default: the game's)."),
        click.option("--chunk-size", type=click.IntRange(min=1), default=None,
                     help="Seeds per task (default: automatic, at most 64)."),
        click.option("--cluster", metavar="tcp://HOST:PORT", default=None,
                     help="Run on an existing Dask scheduler instead of local workers."),
        click.option("--retry-unknown", is_flag=True,
                     help="Run the seeds stored as unknown again (e.g. with larger limits)."),
        click.option("--progress/--no-progress", default=None,
                     help="The progress bar (default: on when stderr is a terminal)."),
        click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object."),
        click.option("--filter", "verdict_filter", metavar="VERDICT", default=None,
                     help="Then list the seeds of the range stored with this verdict (e.g. won), one per line."),
        click.option("--yes", is_flag=True,
                     help=f"Run more than {CONFIRM_ABOVE:,} seeds (refused without it)."),
    ]
    for opt in reversed(opts):
        fn = opt(fn)
    return fn


def run_and_report(*, game, analysis, variant, seeds, seeds_file, workers, db, node_limit,
                   time_limit, table_mb, chunk_size, cluster, progress, as_json, retry_unknown=False,
                   option_pairs=(), yes=False, verdict_filter=None):
    from solver.batch import make_spec, run_batch
    from solver.games import get_analysis
    from solver.options import parse_pairs
    options = parse_pairs(option_pairs, get_analysis(game, analysis).options)
    make_spec(game=game, analysis=analysis, variant=variant, node_limit=node_limit,
              time_limit=time_limit, table_mb=table_mb, options=options)   # bad input before any seed is read
    if seeds_file and same_file(db, seeds_file):
        raise InputError(f"--db and --seeds-file name the same file ({describe(db)})")
    ranges = seed_ranges(seeds, seeds_file)
    check_size(ranges, yes=yes)
    summary = run_batch(db=db, game=game, analysis=analysis, variant=variant,
                        ranges=ranges, workers=workers,
                        chunk_size=chunk_size, node_limit=node_limit, time_limit=time_limit,
                        table_mb=table_mb, options=options, cluster=cluster, progress=progress,
                        retry_unknown=retry_unknown)
    listed = None
    if verdict_filter is not None and not summary.interrupted:
        listed = seeds_with_verdict(db, game, summary.variant, summary.analysis, ranges, verdict_filter)
    if as_json:
        out = summary.to_dict()
        if verdict_filter is not None:
            out.update(filter=verdict_filter, seeds=listed)
        emit_json(out)
    else:
        verdicts = ", ".join(f"{v} {c}" for v, c in sorted(summary.verdicts.items())) or "nothing new"
        click.echo(f"{game} {summary.variant} {summary.analysis}: {summary.requested} seeds, "
                   f"{summary.skipped} already stored, {summary.done} run ({verdicts}) "
                   f"in {summary.wall_seconds:.1f}s -> {db}")
        if listed is not None:
            click.echo(f"{len(listed)} seeds stored as {verdict_filter}:")
            click.echo("\n".join(str(seed) for seed in listed))
    if summary.interrupted:
        click.echo(f"solve: interrupted; {summary.done} results kept, rerun to resume", err=True)
        sys.exit(130)


def seeds_with_verdict(db, game, variant, analysis, ranges, verdict):
    """The seeds inside ``ranges`` stored with ``verdict``, ascending."""
    from solver.store import ResultStore, _split_at_sign, decode_seed, encode_seed
    out = []
    with ResultStore(db) as store, store.guard():
        for lo, hi in _split_at_sign(ranges):
            out += [decode_seed(v) for (v,) in store.db.execute(
                "SELECT seed FROM results WHERE game=? AND variant=? AND analysis=? AND verdict=? "
                "AND seed BETWEEN ? AND ? ORDER BY seed",
                (game, variant, analysis, verdict, encode_seed(lo), encode_seed(hi)))]
    return sorted(out)


@click.command("batch")
@click.option("--game", required=True, help="The game (e.g. pyramid, boundary).")
@click.option("--analysis", required=True, help="The per-seed analysis (e.g. thoughtful, blind:greedy).")
@click.option("--variant", default=None, help="The game's variant (default: the game's default).")
@click.option("--option", "option_pairs", multiple=True, metavar="KEY=VALUE",
              help="An option of the game's analysis (repeatable), e.g. max_moves=200.")
@batch_options
def batch(game, analysis, variant, option_pairs, **kw):
    """Analyse every seed of a range into the results database (resumable).

    The stored analysis is its name followed by every option that differs from
    its default (e.g. `deal round=1`), so runs with other options never mix.
    """
    run_and_report(game=game, analysis=analysis, variant=variant, option_pairs=option_pairs, **kw)


def add_batch_command(group: click.Group, game: str) -> click.Command:
    """`solve GAME batch`: the shared batch command with the game fixed."""
    from solver.games import analyses, get_game
    entry = get_game(game)
    seeded = [a for a in analyses(game) if a.seeded]
    lines = [f"  {a.name:<16} {a.help.splitlines()[0] if a.help else ''}"
             + (f" Options: {', '.join(o.name for o in a.options)}." if a.options else "") for a in seeded]

    @group.command("batch")
    @click.option("--analysis", type=click.Choice([a.name for a in seeded]), default=seeded[0].name,
                  show_default=True, help="The per-seed analysis.")
    @click.option("--variant", type=click.Choice(entry.variants) if entry.variants else None,
                  default=None, hidden=not entry.variants,
                  help=f"The variant (default: {entry.default_variant}).")
    @click.option("--option", "option_pairs", multiple=True, metavar="KEY=VALUE",
                  help="An option of the analysis (repeatable).")
    @batch_options
    def game_batch(analysis, variant, option_pairs, **kw):
        run_and_report(game=game, analysis=analysis, variant=variant, option_pairs=option_pairs, **kw)

    game_batch.help = (f"{entry.title}: analyse every seed of a range into the results database "
                       "(resumable).\n\n\b\nAnalyses:\n" + "\n".join(lines))
    return game_batch


@click.command("stats")
@click.argument("db", type=click.Path(dir_okay=False))
@click.option("--game", default=None, help="Only this game.")
@click.option("--variant", default=None, help="Only this variant.")
@click.option("--slowest", type=click.IntRange(min=0), default=5, show_default=True,
              help="How many of the slowest seeds to list.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def stats(db, game, variant, slowest, as_json):
    """Counts, win rates with 95% Wilson intervals, time and node percentiles."""
    from solver.stats import format_report, summarise
    from solver.store import ResultStore
    with ResultStore(db) as store, store.guard():
        report = summarise(store, game=game, variant=variant, slowest=slowest)
    if as_json:
        emit_json(report)
    else:
        click.echo(format_report(report))


@click.command("export")
@click.argument("db", type=click.Path(dir_okay=False))
@click.option("--csv", "csv_path", required=True, help="The CSV file to write ('-' for stdout).")
@click.option("--game", default=None, help="Only this game.")
@click.option("--variant", default=None, help="Only this variant.")
@click.option("--analysis", default=None, help="Only this analysis.")
@click.option("--json", "as_json", is_flag=True, help="Print what was written as one JSON object (not with --csv -).")
def export(db, csv_path, game, variant, analysis, as_json):
    """Write one CSV row per stored seed (streamed)."""
    from solver.export import export_csv
    if as_json and csv_path == "-":
        raise InputError("--json and --csv - would both write to stdout: give --csv a file")
    n = export_csv(db, csv_path, game=game, variant=variant, analysis=analysis)
    if as_json:
        emit_json({"database": db, "csv": csv_path, "rows": n})
    elif csv_path != "-":
        click.echo(f"{n} rows -> {csv_path}", err=True)


@click.command("plot")
@click.argument("db", type=click.Path(dir_okay=False))
@click.option("--out", required=True, help="The image to write (e.g. chart.png, chart.svg).")
@click.option("--game", default=None, help="Only this game.")
@click.option("--variant", default=None, help="Only this variant.")
@click.option("--json", "as_json", is_flag=True, help="Print what was drawn as one JSON object.")
def plot(db, out, game, variant, as_json):
    """Chart the time distribution (log scale) and the win rates with intervals."""
    from solver.plot import plot as draw
    check_output(out, reads=(db,))
    n = draw(db, out, game=game, variant=variant)
    if as_json:
        emit_json({"database": db, "out": out, "groups": n})
    else:
        click.echo(f"{n} result groups -> {out}", err=True)


COMMANDS = (batch, stats, export, plot)
