"""Charts for people (optional extra ``[plot]``: matplotlib), as fit each question.

:func:`plot` draws one panel per question the database answers:

- exact analyses: the win rate by group (game, variant, analysis) with its 95%
  Wilson interval (widened by unknowns), and, per group, the time per seed split
  by verdict (won, lost, unknown each its own line, on a log scale);
- play-outs: the wins of each seat with intervals (never a 0% "win rate"), and
  the game length of each group;
- the histograms an analysis declares (Spectrum's minimum ``turns``);
- game-specific panels registered in :data:`GROUP_PANELS` (keyed by game and
  analysis name; Continental's deficiency distribution by round goes there).

Times are binned while they stream from the database, so memory stays bounded.
Every legend sits outside its axes (right of them), so it never covers the data.
"""
from __future__ import annotations

import math
import os
from typing import Callable, Dict, List, Optional, Tuple

from solver.errors import InputError
from solver.files import atomic_write, check_output, describe
from solver.stats import group_stats
from solver.store import ResultStore

BINS_PER_DECADE = 10
LOW_DECADE = -6          # 1 microsecond
MAX_GROUP_PANELS = 6
"""At most this many per-group panels of each kind (time by verdict, game length)."""
VERDICT_COLOURS = {"won": "tab:green", "lost": "tab:red", "draw": "tab:purple", "unknown": "tab:gray",
                   "finished": "tab:blue", "unfinished": "tab:gray"}

RATE_WORDS = {"continental": ": P(meets)"}
"""What an exact analysis's won means, where it is not a win: a Continental hand meets its contract."""

Key = Tuple[str, str, str]
Panel = Tuple[str, Callable]
"""(title, draw(ax)): one chart of the figure."""

GROUP_PANELS: Dict[Tuple[str, str], Callable[[ResultStore, Key, dict], List[Panel]]] = {}
"""Game-specific panels: ``(game, analysis name) -> panels(store, key, stats)``,
called once per stored group of that analysis (e.g. Continental's deficiency
distribution by round)."""


def log_histogram(store: ResultStore, key: Key, *, verdict: Optional[str] = None,
                  column: str = "seconds") -> Tuple[List[float], List[int]]:
    """Bin edges and counts of ``column`` (seconds or nodes), log-spaced; only
    the rows of ``verdict`` when given."""
    counts: Dict[int, int] = {}
    sql = f"SELECT {column} FROM results WHERE game=? AND variant=? AND analysis=?"
    args = tuple(key)
    if verdict is not None:
        sql += " AND verdict=?"
        args += (verdict,)
    for (value,) in store.db.execute(sql, args):
        b = math.floor(math.log10(max(value, 10.0 ** LOW_DECADE)) * BINS_PER_DECADE)
        counts[b] = counts.get(b, 0) + 1
    if not counts:
        return [], []
    lo, hi = min(counts), max(counts)
    edges = [10 ** (b / BINS_PER_DECADE) for b in range(lo, hi + 2)]
    return edges, [counts.get(b, 0) for b in range(lo, hi + 1)]


def field_counts(store: ResultStore, key: Key, name: str, *, verdict: Optional[str] = None) -> Dict[int, int]:
    """value -> rows for a whole-number field of the rows (e.g. ``length``);
    only the rows of ``verdict`` when given."""
    expr = f"json_extract(fields, '$.{name}')"
    extra, args = ("", tuple(key)) if verdict is None else (" AND verdict=?", tuple(key) + (verdict,))
    return dict(store.db.execute(
        f"SELECT {expr}, COUNT(*) FROM results WHERE game=? AND variant=? AND analysis=? "
        f"AND typeof({expr}) = 'integer'{extra} GROUP BY 1 ORDER BY 1", args))


def rate_bars(stats: dict, label: str) -> List[Tuple[str, float, float, float]]:
    """(label, rate, low, high) bars of one group, as fits its kind.

    >>> rate_bars({"kind": "exact", "win_rate": 0.5, "win_low": 0.4, "win_high": 0.6}, "g")
    [('g', 0.5, 0.4, 0.6)]
    >>> rate_bars({"kind": "playout", "policies": ["a", "b"], "win_rate": [0.7, 0.2],
    ...            "win_low": [0.6, 0.1], "win_high": [0.8, 0.3]}, "g")[1]
    ('g P2 b', 0.2, 0.1, 0.3)
    """
    if stats["kind"] == "playout":
        names = stats.get("policies") or []
        return [(f"{label} P{i + 1}" + (f" {names[i]}" if i < len(names) else ""), r or 0.0, lo, hi)
                for i, (r, lo, hi) in enumerate(zip(stats["win_rate"], stats["win_low"], stats["win_high"]))]
    if stats["win_rate"] is None:
        return []
    return [(label, stats["win_rate"], stats["win_low"], stats["win_high"])]


def group_label(key: Key) -> str:
    return " ".join(k for k in key if k != "default")


def outside_legend(ax) -> None:
    """The legend right of the axes: it never covers the data."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False,
                  borderaxespad=0.0)


def _rate_panel(title: str, xlabel: str, bars: List[Tuple[str, float, float, float]], colour: str) -> Panel:
    def draw(ax):
        labels = [b[0] for b in bars]
        rates = [100 * b[1] for b in bars]
        errs = ([100 * max(0.0, b[1] - b[2]) for b in bars], [100 * max(0.0, b[3] - b[1]) for b in bars])
        ax.barh(range(len(bars)), rates, xerr=errs, capsize=4, color=colour, alpha=0.8)
        for i, (_, rate, _lo, high) in enumerate(bars):
            ax.text(100 * high, i, f"  {100 * rate:.{1 if high > 0.1 else 3}f}%", va="center", fontsize="small")
        ax.set_yticks(range(len(bars)), labels)
        ax.invert_yaxis()
        top = max(100 * b[3] for b in bars)
        # small rates (Continental's P(meets) is under 1% in round 1) get an axis they can be read on
        ax.set_xlim(0, 112 if top > 50 else max(1.0, top * 1.35))
        ax.set_xlabel(xlabel)
    return title, draw


def _time_by_verdict_panel(store: ResultStore, key: Key, stats: dict) -> Panel:
    verdicts = ("won", "lost", "draw", "unknown") if stats["kind"] == "exact" else ("finished", "unfinished")
    curves = []
    for v in verdicts:
        edges, counts = log_histogram(store, key, verdict=v)
        if counts:
            curves.append((v, edges, counts))

    def draw(ax):
        for v, edges, counts in curves:
            ax.stairs(counts, edges, label=f"{v} ({sum(counts)})", color=VERDICT_COLOURS[v], linewidth=1.8)
        ax.set_xscale("log")
        ax.set_xlabel("time per seed (seconds, log scale)")
        ax.set_ylabel("seeds")
        outside_legend(ax)
    return f"{group_label(key)}: time per seed by verdict", draw


def _histogram_panel(title: str, counts: Dict[int, int], xlabel: str, colour: str) -> Panel:
    def draw(ax):
        values = sorted(counts)
        ax.bar(values, [counts[v] for v in values], color=colour, alpha=0.85, width=0.8 if len(values) < 40 else 1.0)
        total = sum(counts.values())
        if len(values) <= 20:
            for v in values:
                ax.text(v, counts[v], f"{100 * counts[v] / total:.1f}%", ha="center", va="bottom",
                        fontsize="x-small")
            ax.set_xticks(values)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(f"seeds (of {total})")
        ax.margins(y=0.15)
    return title, draw


def _length_panel(key: Key, by_outcome: Dict[str, Dict[int, int]]) -> Panel:
    """Game lengths binned, finished and unfinished (the move cap) apart."""
    values = [v for counts in by_outcome.values() for v in counts]
    lo, hi = min(values), max(values)
    bins = max(1, min(40, hi - lo + 1))

    def draw(ax):
        data = [(v, list(c), list(c.values())) for v, c in by_outcome.items() if c]
        ax.hist([d[1] for d in data], bins=bins, range=(lo - 0.5, hi + 0.5), weights=[d[2] for d in data],
                stacked=True, color=[VERDICT_COLOURS[d[0]] for d in data],
                label=[f"{d[0]} ({sum(d[2])})" for d in data])
        ax.set_xlabel("moves played")
        ax.set_ylabel("games")
        outside_legend(ax)
    return f"{group_label(key)}: game length", draw


def panels(store: ResultStore, groups: List[Key]) -> List[Panel]:
    """The panels that fit the groups stored (see the module doc), in order."""
    stats = {key: group_stats(store, *key, slowest=0) for key in groups}
    exact = [k for k in groups if stats[k]["kind"] == "exact"]
    playout = [k for k in groups if stats[k]["kind"] == "playout"]
    out: List[Panel] = []
    bars = [b for k in exact for b in rate_bars(stats[k], f"{group_label(k)} ({stats[k]['seeds']})"
                                                   + RATE_WORDS.get(k[0], ""))]
    if bars:
        out.append(_rate_panel("Win rate by group (exact analyses)",
                               "win rate, % of decided seeds; whiskers: 95% Wilson interval (widened by unknowns)",
                               bars, "tab:blue"))
    for k in exact[:MAX_GROUP_PANELS]:
        out.append(_time_by_verdict_panel(store, k, stats[k]))
    bars = [b for k in playout for b in rate_bars(stats[k], f"{group_label(k)} ({stats[k]['seeds']})")]
    if bars:
        out.append(_rate_panel("Wins by seat (play-outs)", "wins, % of games; whiskers: 95% Wilson interval",
                               bars, "tab:orange"))
    for k in playout[:MAX_GROUP_PANELS]:
        by_outcome = {v: field_counts(store, k, "length", verdict=v) for v in ("finished", "unfinished")}
        if any(by_outcome.values()):
            out.append(_length_panel(k, by_outcome))
    for k in groups:
        for name in stats[k].get("fields", {}):
            if name == "length":
                continue
            counts = field_counts(store, k, name)
            if counts:
                out.append(_histogram_panel(f"{group_label(k)}: {name}", counts, name, "tab:green"))
        extra = GROUP_PANELS.get((k[0], k[2].split(" ", 1)[0]))
        if extra is not None:
            out.extend(extra(store, k, stats[k]))
    return out


def figure(store: ResultStore, groups: List[Key], *, title: str):
    """The matplotlib figure of :func:`panels`, two panels a row."""
    import matplotlib.pyplot as plt
    chosen = panels(store, groups)
    if not chosen:
        raise InputError("nothing to plot: no group has a rate, a time or a histogram")
    cols = 1 if len(chosen) == 1 else 2
    rows = math.ceil(len(chosen) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(8 * cols, 4.2 * rows), layout="constrained", squeeze=False)
    for ax, (name, draw) in zip(axes.flat, chosen):
        draw(ax)
        ax.set_title(name, fontsize="medium")
    for ax in list(axes.flat)[len(chosen):]:
        ax.set_visible(False)
    fig.suptitle(title)
    return fig


def plot(db: str, out: str, *, game: Optional[str] = None, variant: Optional[str] = None) -> int:
    """Draw the chart to ``out`` (format from the extension); return the number of groups."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError("plotting needs matplotlib: pip install '.[plot]'") from None
    with ResultStore(db) as store, store.guard():
        groups = store.groups(game=game, variant=variant)
        if not groups:
            raise InputError(f"{db} holds no results to plot")
        fig = figure(store, groups, title=f"Results in {db}")
        try:
            save_figure(fig, out, reads=(db,))
        finally:
            plt.close(fig)
        return len(groups)


def image_format(fig, out: str) -> str:
    """The image format named by ``out``'s extension (``-``: PNG on stdout);
    a name without a known extension is refused rather than written elsewhere."""
    if out == "-":
        return "png"
    ext = os.path.splitext(out)[1].lower().lstrip(".")
    known = fig.canvas.get_supported_filetypes()
    if ext not in known:
        raise InputError(f"cannot tell the image format of {describe(out)}: end the name in one of "
                         + ", ".join("." + k for k in sorted(known)))
    return ext


def save_figure(fig, out: str, *, reads=()) -> None:
    """Write ``fig`` to exactly ``out`` through a temporary file beside it
    (:func:`solver.files.atomic_write`): a failed draw leaves the old image whole."""
    check_output(out, reads=reads)
    fmt = image_format(fig, out)
    try:
        with atomic_write(out, mode="wb", reads=reads) as fh:
            fig.savefig(fh, format=fmt, dpi=110)
    except ValueError as exc:
        raise InputError(f"cannot write {describe(out)}: {exc}") from None


def deficiency_by_round(results: List[dict], out: str) -> None:
    """Continental's deficiency distribution by round, from ``solve continental odds --json``
    objects (one per round; exact or Monte Carlo): the share of hands at each deficiency,
    one line per round, on a log scale (P(meets) is the share at 0)."""
    from solver.continental.render import lumped_span
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError("plotting needs matplotlib: pip install '.[plot]'") from None
    if not results:
        raise InputError("nothing to plot: no odds results")
    fig, ax = plt.subplots(figsize=(8, 4.5), layout="constrained")
    for r in sorted(results, key=lambda r: r["round"]):
        counts = {int(d): n for d, n in r["counts"].items()}
        total = r.get("deals") or sum(counts.values())
        ds = sorted(counts)
        tag = "exact" if r["method"] == "exact" else f"{r['deals']:,} deals"
        if r.get("rest"):
            tag += f", deficiency {lumped_span(r['rest'])} not drawn"
        xs, ys = [], []
        for d in ds:                       # a lumped middle (round 6) breaks the line
            if xs and d > xs[-1] + 1:
                xs.append(float("nan"))
                ys.append(float("nan"))
            xs.append(d)
            ys.append(counts[d] / total)
        ax.plot(xs, ys, marker="o", label=f"round {r['round']}: {r['contract']} ({tag})")
    ax.set_yscale("log")
    ax.set_xlabel("deficiency (cards to exchange before the contract is met)")
    ax.set_ylabel("share of dealt hands")
    ax.grid(True, which="major", alpha=0.3)
    outside_legend(ax)
    first = results[0]
    fig.suptitle(f"Continental: deficiency of a dealt hand by round "
                 f"({first['decks']} decks x {first['jokers_per_deck']} jokers)")
    try:
        save_figure(fig, out)
    finally:
        plt.close(fig)
