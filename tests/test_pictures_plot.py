"""`solve plot`: the panels fit the analyses stored, and no legend covers the data."""
import pytest

from solver.batch import run_batch
from solver.seeds import parse_ranges

pytest.importorskip("matplotlib")


@pytest.fixture(scope="module")
def figure(tmp_path_factory):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from solver.plot import figure as build
    from solver.store import ResultStore
    db = str(tmp_path_factory.mktemp("plot") / "r.sqlite")
    for game, analysis, seeds in (("spectrum", "min-turns", "1-12"), ("pyramid", "thoughtful", "1-12"),
                                  ("boundary", "playout", "1-4")):
        run_batch(db=db, game=game, analysis=analysis, ranges=parse_ranges(seeds), workers=1, progress=False)
    with ResultStore(db) as store:
        fig = build(store, store.groups(), title="test")
    fig.canvas.draw()
    yield fig
    plt.close(fig)


def titled(fig, title):
    return next(ax for ax in fig.axes if ax.get_title() == title)


def test_each_kind_of_analysis_gets_its_panels(figure):
    titles = [ax.get_title() for ax in figure.axes if ax.get_visible()]
    assert titles == ["Win rate by group (exact analyses)",
                      "pyramid continuous thoughtful: time per seed by verdict",
                      "spectrum min-turns: time per seed by verdict",
                      "Wins by seat (play-outs)",
                      "boundary playout: game length",
                      "spectrum min-turns: turns"]


def test_play_outs_are_never_drawn_as_win_rates(figure):
    exact = [t.get_text() for t in titled(figure, "Win rate by group (exact analyses)").get_yticklabels()]
    seats = [t.get_text() for t in titled(figure, "Wins by seat (play-outs)").get_yticklabels()]
    assert exact == ["pyramid continuous thoughtful (12)", "spectrum min-turns (12)"]
    assert seats == ["boundary playout (4) P1 random", "boundary playout (4) P2 random"]


def test_times_are_split_by_verdict(figure):
    ax = titled(figure, "pyramid continuous thoughtful: time per seed by verdict")
    labels = ax.get_legend_handles_labels()[1]
    assert [label.split()[0] for label in labels] == ["won", "lost"]
    assert sum(int(label.split("(")[1].rstrip(")")) for label in labels) == 12


def test_no_legend_covers_its_axes(figure):
    legends = [(ax, ax.get_legend()) for ax in figure.axes if ax.get_legend() is not None]
    assert legends
    renderer = figure.canvas.get_renderer()
    for ax, legend in legends:
        box, frame = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
        assert box.x0 >= frame.x1 - 1, ax.get_title()      # right of the axes, not over them
