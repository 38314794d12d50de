"""`solve plot` draws a PNG with the two panels (needs the [plot] extra)."""
import pytest
from click.testing import CliRunner

from solver.cli.main import solve
from solver.batch import run_batch
from solver.seeds import parse_ranges

pytest.importorskip("matplotlib")


def test_plot_writes_a_png(tmp_path):
    db, out = str(tmp_path / "r.sqlite"), tmp_path / "chart.png"
    for analysis in ("thoughtful", "blind:greedy"):
        run_batch(db=db, game="pyramid", analysis=analysis, ranges=parse_ranges("1-20"), workers=1,
                  progress=False)
    r = CliRunner().invoke(solve, ["plot", db, "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 10_000


def test_plot_of_an_empty_selection_is_an_input_error(tmp_path):
    db = str(tmp_path / "r.sqlite")
    run_batch(db=db, game="pyramid", analysis="blind:greedy", ranges=[(1, 2)], workers=1, progress=False)
    r = CliRunner().invoke(solve, ["plot", db, "--out", str(tmp_path / "c.png"), "--game", "boundary"])
    assert r.exit_code == 2 and "no results" in r.output
