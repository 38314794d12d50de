"""The ``solve`` group: one subcommand group per game, registered below."""
from __future__ import annotations

import os
import sys

import click

from solver import __version__
from solver.errors import InputError


MAX_ERROR_CHARS = 300
"""An error line is at most this long: it quotes a short excerpt of the input, never all of it."""


def one_line(message: str, limit: int = MAX_ERROR_CHARS) -> str:
    """``message`` on one line, cut to ``limit`` characters."""
    line = " ".join(str(message).split())
    return line if len(line) <= limit else line[:limit - 3] + "..."


def _fail(message: str) -> None:
    click.echo(f"solve: error: {one_line(message)}", err=True)
    sys.exit(2)


def _quiet_broken_pipe() -> None:
    """The reader of stdout went away (``solve ... | head``): end quietly.
    stdout is pointed at /dev/null so that the exit's flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    sys.exit(0)


class _PipeClosed(Exception):
    """The reader of stdout went away."""


GAMES = {
    "pyramid": "solver.cli.pyramid",
    "spectrum": "solver.cli.spectrum",
    "boundary": "solver.cli.boundary",
    "continental": "solver.cli.continental",
    "continuum": "solver.cli.continuum",
}
"""One group per game, in the order `solve --help` lists them, and its module:
imported when the game is named (`solve pyramid batch` does not import the
other four games: 0.15 s of every start when Python compiles them afresh)."""


class SolveGroup(click.Group):
    """The top-level group: games in registration order, errors on one line.

    Every failure a user can cause (a usage error, a bad option value, an
    InputError raised by the library) ends as one line on stderr and exit 2.
    A game's group is imported when it is named (:data:`GAMES`); ``commands``
    imports them all (for the listing and the tests).
    """

    @property
    def commands(self):
        for name in GAMES:
            self._game(name)
        return self._commands

    @commands.setter
    def commands(self, value):
        self._commands = value

    def add_command(self, cmd, name=None):
        self._commands[name or cmd.name] = cmd

    def get_command(self, ctx, name):
        self._game(name)
        return self._commands.get(name)

    def list_commands(self, ctx):
        return list(GAMES) + [name for name in self._commands if name not in GAMES]

    def _game(self, name):
        """Import the group of game ``name`` (once), with the shared `batch` if it has none."""
        if name not in GAMES or name in self._commands:
            return
        import importlib
        group = getattr(importlib.import_module(GAMES[name]), name)
        if "batch" not in group.commands:
            from solver.cli import batch
            batch.add_batch_command(group, name)
        self._commands[name] = group

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except BrokenPipeError:      # before Click turns it into exit status 1
            raise _PipeClosed() from None

    def main(self, args=None, prog_name=None, **extra):
        from solver.files import forget_reads
        extra.pop("standalone_mode", None)
        forget_reads()
        try:
            rv = super().main(args, prog_name, standalone_mode=False, **extra)
        except InputError as exc:
            _fail(str(exc))
        except click.UsageError as exc:
            hint = f" (try '{exc.ctx.command_path} --help')" if exc.ctx else ""
            _fail(exc.format_message() + hint)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:
            click.echo("solve: interrupted", err=True)
            sys.exit(130)
        except (BrokenPipeError, _PipeClosed):
            _quiet_broken_pipe()
        except MemoryError:
            _fail("out of memory: ask for less (a smaller --table-mb, fewer seeds or games)")
        except Exception as exc:  # a bug, not bad input: one line unless debugging
            from solver.store import database_error
            err = database_error(exc, "")
            if err is not None:          # a locked, read-only or damaged database, a full disk
                _fail(str(err))
            if os.environ.get("SOLVE_DEBUG"):
                raise
            message = str(exc).strip().splitlines()[-1] if str(exc).strip() else ""
            click.echo(f"solve: internal error: {type(exc).__name__}: {one_line(message, 200)} "
                       "(set SOLVE_DEBUG=1 for the traceback)", err=True)
            sys.exit(1)
        try:
            sys.stdout.flush()
        except (BrokenPipeError, _PipeClosed):
            _quiet_broken_pipe()
        sys.exit(rv if isinstance(rv, int) else 0)


@click.group(cls=SolveGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="solve")
def solve():
    """Exact solvers and analysis for five little-known games.

    Each game is a subcommand; `solve GAME --help` shows what it answers.
    """


def _register() -> None:
    # The games' groups come when named (SolveGroup._game); the shared commands now.
    from solver.cli import batch  # the shared batch, stats, export and plot commands
    for command in batch.COMMANDS:
        solve.add_command(command)


_register()


def main(argv=None) -> None:
    """Entry point of the installed ``solve`` command."""
    solve.main(args=argv, prog_name="solve")


if __name__ == "__main__":
    main()
