"""The `solve` group itself: every game is listed, and failures never show a traceback."""
import click
from click.testing import CliRunner

from solver.cli.main import SolveGroup, solve


def test_every_game_and_the_batch_commands_are_listed():
    out = CliRunner().invoke(solve, ["--help"]).output
    for name in ("pyramid", "spectrum", "boundary", "continental", "continuum", "batch", "stats", "export", "plot"):
        assert name in out


def test_an_internal_error_is_one_line_exit_1(monkeypatch):
    @click.group(cls=SolveGroup)
    def group():
        pass

    @group.command()
    def boom():
        raise RuntimeError("worker died\nsecond line")

    monkeypatch.delenv("SOLVE_DEBUG", raising=False)
    result = CliRunner().invoke(group, ["boom"])
    assert result.exit_code == 1
    assert result.stderr.strip() == ("solve: internal error: RuntimeError: second line "
                                     "(set SOLVE_DEBUG=1 for the traceback)")
    assert "Traceback" not in result.output
