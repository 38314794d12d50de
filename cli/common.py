"""What every game's subcommands share: seed parsing, JSON output, errors.

Bad input raises :class:`solver.errors.InputError` anywhere below the CLI;
:func:`solver.cli.main.main` turns it into one line on stderr and exit status 2.
"""
from __future__ import annotations

import json
import sys
from typing import Any

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
    """Print one JSON object on stdout (the machine-readable form of a command)."""
    click.echo(json.dumps(obj, sort_keys=False))


def read_text_file(path: str) -> str:
    """Read a user-named file, turning I/O failures into InputError."""
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise InputError(f"cannot read {path}: {reason}") from None


def fail(message: str) -> "NoReturn":  # noqa: F821
    """Stop with a one-line error and exit status 2."""
    raise InputError(message)


def is_tty(stream=None) -> bool:
    stream = stream or sys.stderr
    return bool(getattr(stream, "isatty", lambda: False)())


def game_group(func):
    """A game's Click group, named after ``func``; `solve GAME` alone prints its help."""

    @click.group(name=func.__name__, invoke_without_command=True, help=func.__doc__)
    @click.pass_context
    def group(ctx):
        if ctx.invoked_subcommand is None:
            click.echo(ctx.get_help())

    return group
