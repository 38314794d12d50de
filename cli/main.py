"""The ``solve`` group: one subcommand group per game, registered below."""
from __future__ import annotations

import sys

import click

from solver import __version__
from solver.errors import InputError


class BadInput(click.ClickException):
    """Bad input: one line on stderr, exit status 2, never a traceback."""

    exit_code = 2

    def show(self, file=None):
        click.echo(f"solve: error: {self.format_message()}", err=True)


class SolveGroup(click.Group):
    """Lists games in registration order and turns InputError into exit 2."""

    def list_commands(self, ctx):
        return list(self.commands)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except InputError as exc:
            raise BadInput(str(exc)) from None
        except BrokenPipeError:
            sys.stderr.close()
            ctx.exit(0)


@click.group(cls=SolveGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="solve")
def solve():
    """Exact solvers and analysis for five little-known games.

    Each game is a subcommand; `solve GAME --help` shows what it answers.
    """


def _register() -> None:
    # One line per game: each module defines a Click group or command.
    from cli import pyramid

    solve.add_command(pyramid.pyramid)


_register()


def main(argv=None) -> None:
    """Entry point of the installed ``solve`` command."""
    solve.main(args=argv, prog_name="solve")


if __name__ == "__main__":
    main()
