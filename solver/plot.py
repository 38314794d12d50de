"""Charts for people (optional extra ``[plot]``: matplotlib).

Two panels: the distribution of solve time per (variant, analysis) on a log
scale, and the rates that fit each group's kind with their 95% intervals: an
exact analysis's win rate, a play-out's wins by seat (never a 0% "win rate").
Times are binned while they stream from the database, so memory stays
bounded.  The legend sits outside the axes so that it never covers the data.
"""
from __future__ import annotations

import math
import os
from typing import Dict, List, Optional, Tuple

from solver.errors import InputError
from solver.files import atomic_write, check_output, describe
from solver.stats import group_stats
from solver.store import ResultStore

BINS_PER_DECADE = 10
LOW_DECADE = -6          # 1 microsecond


def log_histogram(store: ResultStore, key: Tuple[str, str, str]) -> Tuple[List[float], List[int]]:
    """Bin edges (seconds) and counts of the ``seconds`` column, log-spaced."""
    counts: Dict[int, int] = {}
    cur = store.db.execute("SELECT seconds FROM results WHERE game=? AND variant=? AND analysis=?", key)
    for (sec,) in cur:
        b = math.floor(math.log10(max(sec, 10.0 ** LOW_DECADE)) * BINS_PER_DECADE)
        counts[b] = counts.get(b, 0) + 1
    if not counts:
        return [], []
    lo, hi = min(counts), max(counts)
    edges = [10 ** (b / BINS_PER_DECADE) for b in range(lo, hi + 2)]
    return edges, [counts.get(b, 0) for b in range(lo, hi + 1)]


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
        fig, (ax_time, ax_rate) = plt.subplots(1, 2, figsize=(13, 5.5))
        labels, rates, errs = [], [], ([], [])
        for key in groups:
            edges, counts = log_histogram(store, key)
            label = " ".join(k for k in key if k != "default")
            total = sum(counts)
            ax_time.stairs([100 * c / total for c in counts], edges, label=f"{label} ({total} seeds)")
            for bar_label, rate, low, high in rate_bars(group_stats(store, *key, slowest=0), label):
                labels.append(bar_label)
                rates.append(100 * rate)
                errs[0].append(100 * max(0.0, rate - low))
                errs[1].append(100 * max(0.0, high - rate))
        ax_time.set_xscale("log")
        ax_time.set_xlabel("time per seed (seconds, log scale)")
        ax_time.set_ylabel("share of the group's seeds (%)")
        ax_time.set_title("Distribution of time per seed (search or blind game)")
        ax_time.legend(fontsize="small", loc="upper left", bbox_to_anchor=(0, -0.18), ncol=2, frameon=False)
        ax_rate.barh(range(len(labels)), rates, xerr=errs, capsize=4, color="tab:blue", alpha=0.8)
        for i, r in enumerate(rates):
            ax_rate.text(2, i, f"{r:.1f}%", va="center", color="white", fontweight="bold")
        ax_rate.set_yticks(range(len(labels)), labels)
        ax_rate.set_xlim(0, 100)
        ax_rate.set_xlabel("exact: win rate (% of decided seeds); play-out: wins of each seat (% of games)\n"
                           "whiskers: 95% Wilson interval (exact: widened by unknowns)")
        ax_rate.set_title("Win rates by group")
        fig.suptitle(f"Results in {db}")
        fig.tight_layout()
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
