"""What every game's subcommands share: seed parsing, JSON output, errors.

Bad input raises :class:`solver.errors.InputError` anywhere below the CLI;
:func:`solver.cli.main.main` turns it into one line on stderr and exit status 2.
"""
from __future__ import annotations

import contextlib
import json
import sys
from typing import Any, Callable, Iterator, Optional

import click

from solver.errors import InputError
from solver.rng import parse_seed


class SeedType(click.ParamType):
    """An unsigned 64-bit seed; anything else is a usage error (exit 2)."""

    name = "SEED"

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        try:
            return parse_seed(value)
        except InputError as exc:
            self.fail(str(exc), param, ctx)


SEED = SeedType()


def emit_json(obj: Any) -> None:
    """Print one JSON object on stdout (the machine-readable form of a command;
    its schema is in docs/json.md and solver/schemas/)."""
    click.echo(json.dumps(obj, sort_keys=False))


JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/json.md).")


def refuse_group_options(ctx: click.Context, **given) -> None:
    """A group option that the invoked subcommand would ignore is refused (exit 2),
    never dropped: ``given`` maps option names to the values the group received
    (None or False when not given)."""
    if ctx.invoked_subcommand is None:
        return
    used = [name for name, value in given.items() if value not in (None, False, ())]
    if used:
        names = ", ".join("--" + n.replace("_", "-") for n in used)
        raise InputError(f"{names} belongs to `{ctx.command_path}` itself, not to its "
                         f"`{ctx.invoked_subcommand}` subcommand: put it after the subcommand")


MAX_GAMES = 1_000_000
"""`play --games N` keeps every game in memory; a larger sweep is a batch (stored, resumable)."""


def add_play_command(group: click.Group, game_name: str) -> click.Command:
    """`solve GAME play`: seeded games between policies through the shared loop
    (one game shown move by move, or --games N summarised by seat)."""
    from solver.games import get_game, policy_names

    entry = get_game(game_name)
    lo, hi = entry.players

    @group.command("play")
    @click.option("--seed", type=SEED, default=1, show_default=True, help="Game number (the first, with --games).")
    @click.option("--games", type=click.IntRange(1, MAX_GAMES), default=1, show_default=True,
                  help=f"Play seeds SEED .. SEED+N-1 and report wins by seat (at most {MAX_GAMES:,}; "
                       "`solve GAME batch --analysis playout` stores more).")
    @click.option("--policy", "policies", multiple=True, type=click.Choice(policy_names(game_name)),
                  help=f"Policy per seat, repeated (one: every seat); default: {', '.join(entry.default_policies)}.")
    @click.option("--players", type=click.IntRange(lo, hi), default=lo, show_default=True,
                  help="Seats at the table.", hidden=hi == lo)
    @click.option("--variant", type=click.Choice(entry.variants) if entry.variants else None,
                  default=entry.default_variant, hidden=not entry.variants, help="The game's variant.")
    @click.option("--max-moves", type=click.IntRange(min=1), default=entry.max_moves, show_default=True,
                  help="Moves before a game is unfinished.")
    @JSON_OPTION
    def play(seed, games, policies, players, variant, max_moves, as_json):
        from solver.batch import seed_run
        from solver.stats import format_playouts, playout_summary
        options = {"policies": list(policies) or list(entry.default_policies), "max_moves": max_moves}
        if hi > lo:
            options["players"] = players
        rows = seed_run(game_name, "playout", seed, games, variant=variant, options=options)
        if games == 1:
            out = rows[0]
            if as_json:
                emit_json(out)
                return
            for number, move in enumerate(out["line"], start=1):
                click.echo(f"{number:4d}. {move}")
            winner = "no winner" if out["winner"] is None else f"P{out['winner'] + 1} wins"
            click.echo(f"{game_name} game {seed} ({', '.join(out['policies'])}): {winner}, "
                       f"{out['outcome']} after {out['length']} moves; scores {out['scores']}")
            return
        summary = playout_summary(rows)
        summary.update(game=game_name, variant=variant, first_seed=seed)
        if as_json:
            emit_json(summary)
        else:
            click.echo(format_playouts(summary))

    play.__doc__ = f"Seeded {entry.title} games between policies: the moves, or wins by seat."
    play.help = play.__doc__
    return play


def read_text_file(path: str) -> str:
    """Read a user-named file (``-``: standard input), I/O failures as InputError."""
    from solver.files import read_text
    return read_text(path)


def fail(message: str) -> "NoReturn":  # noqa: F821
    """Stop with a one-line error and exit status 2."""
    raise InputError(message)


def is_tty(stream=None) -> bool:
    stream = stream or sys.stderr
    return bool(getattr(stream, "isatty", lambda: False)())


@contextlib.contextmanager
def progress_bar(enabled: Optional[bool], *, desc: str, unit: str) -> Iterator[Optional[Callable[[int, int], None]]]:
    """A bar on stderr, given to long work as a ``progress(done, total)`` callback.

    ``enabled`` None means "when stderr is a terminal" (so a pipe or a log stays
    clean); off, the callback is None.
    """
    if not (enabled or (enabled is None and is_tty())):
        yield None
        return
    from tqdm import tqdm
    bar = tqdm(total=1, unit=unit, file=sys.stderr, dynamic_ncols=True, desc=desc)

    def tick(done: int, total: int) -> None:
        bar.total = total
        bar.update(done - bar.n)

    try:
        yield tick
    finally:
        bar.close()


def game_group(func):
    """A game's Click group, named after ``func``; `solve GAME` alone prints its help."""

    @click.group(name=func.__name__, invoke_without_command=True, help=func.__doc__)
    @click.pass_context
    def group(ctx):
        if ctx.invoked_subcommand is None:
            click.echo(ctx.get_help())

    return group
