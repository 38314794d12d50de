"""Statistics over a results database: counts, Wilson intervals, percentiles.

Everything is computed in SQL or over one sorted cursor, so a million rows
need no large memory.

>>> lo, hi = wilson(80, 100)
>>> round(lo, 4), round(hi, 4)
(0.7112, 0.8666)
>>> wilson(0, 0)
(0.0, 1.0)
>>> win_interval(won=70, lost=20, unknown=10)   # unknowns lost below, won above
(0.6042, 0.8666)
>>> nearest_rank([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90)
9
"""
from __future__ import annotations

import json
import math
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from solver.store import ResultStore, decode_seed

Z95 = 1.959963984540054
PERCENTILES = (("median", 50), ("p90", 90), ("p99", 99), ("max", 100))


def wilson(k: int, n: int, *, z: float = Z95) -> Tuple[float, float]:
    """The Wilson score interval of a proportion ``k/n`` (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if k == 0 else max(0.0, centre - half)   # exact at the edges, no rounding dust
    hi = 1.0 if k == n else min(1.0, centre + half)
    return lo, hi


def win_interval(*, won: int, lost: int, unknown: int) -> Tuple[float, float]:
    """95% interval of the win rate, honest about unknowns: the lower bound
    counts them as lost, the upper as won (rounded to 4 places)."""
    n = won + lost + unknown
    return round(wilson(won, n)[0], 4), round(wilson(won + unknown, n)[1], 4)


def nearest_rank(sorted_values: Sequence[float], pct: float):
    """The nearest-rank percentile of an ascending list."""
    n = len(sorted_values)
    return sorted_values[rank_index(n, pct)]


def rank_index(n: int, pct: float) -> int:
    return max(0, min(n - 1, math.ceil(pct / 100 * n) - 1))


def streamed_percentiles(values: Iterable[float], n: int) -> Dict[str, float]:
    """Percentiles of ``n`` ascending values read once from an iterator."""
    wanted = [(rank_index(n, pct), name) for name, pct in PERCENTILES]
    out: Dict[str, float] = {}
    for i, v in enumerate(values):
        for idx, name in wanted:
            if idx == i:
                out[name] = v
        if len(out) == len(PERCENTILES):
            break
    return {name: out.get(name) for name, _ in PERCENTILES}


HISTOGRAM_MAX = 15                         # distinct values shown one by one


def field_summary(store: ResultStore, key: Tuple[str, str, str], name: str) -> dict:
    """The distribution of a whole-number field of the rows (e.g. Spectrum's
    minimum ``turns``): value -> count when there are few distinct values,
    else percentiles.  Empty when no row has the field."""
    expr = f"json_extract(fields, '$.{name}')"
    where = f"WHERE game=? AND variant=? AND analysis=? AND typeof({expr}) = 'integer'"
    counts = store.db.execute(
        f"SELECT {expr}, COUNT(*) FROM results {where} GROUP BY 1 ORDER BY 1", key).fetchall()
    if not counts:
        return {}
    if len(counts) <= HISTOGRAM_MAX:
        return {"histogram": {str(v): c for v, c in counts}}
    n = sum(c for _, c in counts)
    cur = store.db.execute(f"SELECT {expr} FROM results {where} ORDER BY 1", key)
    return {"percentiles": streamed_percentiles((r[0] for r in cur), n)}


def analysis_kind(game: str, analysis: str) -> Tuple[str, Tuple[str, ...]]:
    """(kind, histogram fields) of a stored analysis key (``deal round=1`` is
    the analysis ``deal``), from the registry; a game or analysis this version
    does not know is read as exact."""
    from solver.errors import InputError
    from solver.games import get_analysis
    try:
        spec = get_analysis(game, analysis.split(" ", 1)[0])
    except InputError:
        return "exact", ()
    return spec.kind, tuple(spec.histogram) + (("length",) if spec.kind == "playout" else ())


def group_stats(store: ResultStore, game: str, variant: str, analysis: str, *, slowest: int = 5) -> dict:
    """One group's figures, as fit its kind: an exact analysis gets its verdict
    counts and win rate with interval; a play-out its wins by seat with
    intervals, draws and unfinished games.  Both: time and node percentiles,
    the histograms the analysis declares, the slowest seeds."""
    key = (game, variant, analysis)
    where = "WHERE game=? AND variant=? AND analysis=?"
    kind, histogram = analysis_kind(game, analysis)
    out = {"game": game, "variant": variant, "analysis": analysis, "kind": kind}
    out.update(playout_group(store, key) if kind == "playout" else exact_group(store, key))
    n = out["seeds"]
    for column in ("seconds", "nodes"):
        cur = store.db.execute(f"SELECT {column} FROM results {where} ORDER BY {column}", key)
        out[column] = streamed_percentiles((r[0] for r in cur), n) if n else {}
    out["difficulty"] = difficulty(store, key)
    out["fields"] = {name: field_summary(store, key, name) for name in histogram}
    out["fields"] = {k: v for k, v in out["fields"].items() if v}
    out["slowest"] = [
        {"seed": decode_seed(s), "seconds": sec, "nodes": nodes, "verdict": v}
        for s, sec, nodes, v in store.db.execute(
            f"SELECT seed, seconds, nodes, verdict FROM results {where} ORDER BY seconds DESC LIMIT ?",
            key + (slowest,))]
    return out


def difficulty(store: ResultStore, key: Tuple[str, str, str]) -> Dict[str, Dict[str, int]]:
    """The difficulty distribution: seeds by the decade of the nodes their
    answer needed (``"1e2"``: 100-999 nodes; ``"1e0"``: 0-9), then by verdict."""
    out: Dict[str, Dict[str, int]] = {}
    for digits, verdict, count in store.db.execute(
            "SELECT length(CAST(nodes AS TEXT)), verdict, count(*) FROM results "
            "WHERE game=? AND variant=? AND analysis=? GROUP BY 1, 2 ORDER BY 1, 2", key):
        out.setdefault(f"1e{digits - 1}", {})[verdict] = count
    return out


def _draws_or_losses(no_winner: int, seats: int) -> dict:
    """A finished game without a winner is a draw between players, but a loss
    when one player plays alone (a solitaire has no one to draw with)."""
    if seats == 1:
        return {"draws": 0, "losses": no_winner}
    return {"draws": no_winner}


def playout_group(store: ResultStore, key: Tuple[str, str, str]) -> dict:
    """Wins by seat (with 95% Wilson intervals), draws and unfinished games."""
    where = "WHERE game=? AND variant=? AND analysis=?"
    n = store.db.execute(f"SELECT COUNT(*) FROM results {where}", key).fetchone()[0]
    by_winner = dict(store.db.execute(
        f"SELECT json_extract(fields, '$.winner'), COUNT(*) FROM results {where} "
        "AND verdict='finished' GROUP BY 1", key))
    finished = sum(by_winner.values())
    seats = store.db.execute(
        f"SELECT MAX(json_array_length(json_extract(fields, '$.scores'))) FROM results {where}", key).fetchone()[0]
    seats = max([seats or 0] + [w + 1 for w in by_winner if w is not None])
    wins = [by_winner.get(s, 0) for s in range(seats)]
    policies = store.db.execute(f"SELECT json_extract(fields, '$.policies') FROM results {where} LIMIT 1",
                                key).fetchone()
    return {"seeds": n, "policies": json.loads(policies[0]) if policies and policies[0] else [],
            "wins": wins, "win_rate": [round(w / n, 4) if n else None for w in wins],
            "win_low": [round(wilson(w, n)[0], 4) for w in wins],
            "win_high": [round(wilson(w, n)[1], 4) for w in wins],
            **_draws_or_losses(by_winner.get(None, 0), seats), "unfinished": n - finished}


def exact_group(store: ResultStore, key: Tuple[str, str, str]) -> dict:
    """Verdict counts, the limits hit, and the win rate with its interval."""
    where = "WHERE game=? AND variant=? AND analysis=?"
    counts = dict(store.db.execute(f"SELECT verdict, COUNT(*) FROM results {where} GROUP BY verdict", key))
    n = sum(counts.values())
    won, lost, draw, unknown = (counts.get(v, 0) for v in ("won", "lost", "draw", "unknown"))
    decided = won + lost + draw
    lo, hi = win_interval(won=won, lost=lost + draw, unknown=unknown)
    limits = dict(store.db.execute(
        f"SELECT limit_hit, COUNT(*) FROM results {where} AND limit_hit IS NOT NULL GROUP BY limit_hit", key))
    return {"seeds": n, "won": won, "lost": lost, "draw": draw, "unknown": unknown, "limits": limits,
            "win_rate": round(won / decided, 4) if decided else None, "win_low": lo, "win_high": hi}


def common_seeds(store: ResultStore, game: str, variant: str, analyses: List[str]) -> dict:
    """Each analysis's win rate on the seeds that every one of ``analyses`` has."""
    marks = ",".join("?" * len(analyses))
    rows = store.db.execute(
        f"""SELECT analysis, SUM(verdict='won'), SUM(verdict='lost'), SUM(verdict='unknown'), COUNT(*)
            FROM results WHERE game=? AND variant=? AND analysis IN ({marks}) AND seed IN (
                SELECT seed FROM results WHERE game=? AND variant=? AND analysis IN ({marks})
                GROUP BY seed HAVING COUNT(*)=?)
            GROUP BY analysis ORDER BY analysis""",
        (game, variant, *analyses, game, variant, *analyses, len(analyses))).fetchall()
    per = []
    for analysis, won, lost, unknown, n in rows:
        lo, hi = win_interval(won=won, lost=n - won - unknown, unknown=unknown)
        per.append({"analysis": analysis, "won": won, "lost": lost, "unknown": unknown,
                    "win_rate": round(won / (n - unknown), 4) if n > unknown else None,
                    "win_low": lo, "win_high": hi})
    out = {"game": game, "variant": variant, "seeds": rows[0][4] if rows else 0, "analyses": per}
    if len(analyses) == 2 and "thoughtful" in analyses:
        out.update(cross_check(store, game, variant, next(a for a in analyses if a != "thoughtful")))
    return out


def cross_check(store: ResultStore, game: str, variant: str, other: str) -> dict:
    """Seeds ``other`` won although the exact search said ``lost`` (must be none: a
    played win is a certificate) or ``unknown`` (winnable after all: a lower bound)."""
    counts = dict(store.db.execute(
        """SELECT t.verdict, COUNT(*) FROM results o JOIN results t
           ON t.game=o.game AND t.variant=o.variant AND t.seed=o.seed AND t.analysis='thoughtful'
           WHERE o.game=? AND o.variant=? AND o.analysis=? AND o.verdict='won'
             AND t.verdict IN ('lost', 'unknown') GROUP BY t.verdict""", (game, variant, other)))
    return {"won_where_lost": counts.get("lost", 0), "won_where_unknown": counts.get("unknown", 0)}


def summarise(store: ResultStore, *, game: Optional[str] = None, variant: Optional[str] = None,
              slowest: int = 5) -> dict:
    """The report ``solve stats`` prints: one entry per (game, variant, analysis),
    plus side-by-side comparisons on common seeds where a variant has several exact
    analyses (all of them together; with three or more, also each one against
    ``thoughtful``).  Play-outs are never compared with exact answers."""
    groups = store.groups(game=game, variant=variant)
    report = {"database": store.path, "groups": [group_stats(store, *g, slowest=slowest) for g in groups],
              "side_by_side": []}
    by_variant: Dict[Tuple[str, str], List[str]] = {}
    for g, v, a in groups:        # only exact answers are comparable seed by seed
        if analysis_kind(g, a)[0] == "exact":
            by_variant.setdefault((g, v), []).append(a)
    for (g, v), analyses in by_variant.items():
        if len(analyses) > 1:
            report["side_by_side"].append(common_seeds(store, g, v, analyses))
        if len(analyses) > 2 and "thoughtful" in analyses:   # each policy against the exact answer
            for other in analyses:
                if other != "thoughtful":
                    report["side_by_side"].append(common_seeds(store, g, v, sorted(["thoughtful", other])))
    return report


def _pct(x: Optional[float]) -> str:
    return "-" if x is None else f"{100 * x:.2f}%"


def format_report(report: dict) -> str:
    """The report as terminal text."""
    lines = []
    if not report["groups"]:
        return "no results match"
    for g in report["groups"]:
        lines.append(f"{g['game']} {g['variant']} {g['analysis']}: {g['seeds']} seeds ({g['kind']})")
        if g["kind"] == "playout":
            lines.extend(format_playouts(dict(g, games=g["seeds"], length={})).splitlines()[1:])
        else:
            draw = f", draw {g['draw']}" if g["draw"] else ""
            limits = ", ".join(f"{c} hit the {k} limit" for k, c in g["limits"].items())
            lines.append(f"  won {g['won']}, lost {g['lost']}{draw}, unknown {g['unknown']}"
                         + (f" ({limits})" if limits else ""))
            lines.append(f"  win rate {_pct(g['win_rate'])} of decided; 95% interval "
                         f"{_pct(g['win_low'])} - {_pct(g['win_high'])}")
        s, nd = g["seconds"], g["nodes"]
        if s:
            lines.append("  seconds  " + "  ".join(f"{k} {s[k]:.4g}" for k, _ in PERCENTILES))
            lines.append("  nodes    " + "  ".join(f"{k} {nd[k]}" for k, _ in PERCENTILES))
        if g.get("difficulty"):
            lines.append("  difficulty (nodes)  " + "  ".join(
                f"{decade}+: " + " ".join(f"{v} {c}" for v, c in counts.items())
                for decade, counts in g["difficulty"].items()))
        for name, summary in g.get("fields", {}).items():
            if "histogram" in summary:
                lines.append(f"  {name:<8} " + ", ".join(
                    f"{v}: {c}" for v, c in summary["histogram"].items()))
            else:
                lines.append(f"  {name:<8} " + "  ".join(
                    f"{k} {summary['percentiles'][k]}" for k, _ in PERCENTILES))
        if g["slowest"]:
            lines.append("  slowest  " + ", ".join(
                f"{x['seed']} ({x['seconds']:.3g}s {x['verdict']})" for x in g["slowest"]))
    for c in report["side_by_side"]:
        lines.append(f"side by side, {c['game']} {c['variant']}, on the {c['seeds']} seeds all of these have:")
        for a in c["analyses"]:
            lines.append(f"  {a['analysis']:<18} won {a['won']:>7}  rate {_pct(a['win_rate']):>8}  "
                         f"[{_pct(a['win_low'])} - {_pct(a['win_high'])}]")
        if "won_where_unknown" in c:
            lines.append(f"  won by play where the search said unknown: {c['won_where_unknown']}, "
                         f"where it said lost: {c['won_where_lost']} (must be 0)")
    return "\n".join(lines)


def playout_summary(rows: Sequence[dict]) -> dict:
    """Wins by seat with 95% Wilson intervals, draws, unfinished games and the
    length of the finished ones, over play-out rows (``winner``, ``outcome``,
    ``length``, ``policies``)."""
    n = len(rows)
    seats = max((len(r.get("scores") or r.get("policies") or []) for r in rows), default=0)
    wins = [sum(1 for r in rows if r.get("winner") == s) for s in range(seats)]
    finished = [r for r in rows if r.get("outcome") == "finished"]
    no_winner = sum(1 for r in finished if r.get("winner") is None)
    lengths = sorted(int(r["length"]) for r in finished)
    return {
        "games": n, "policies": rows[0].get("policies") if rows else [],
        "wins": wins,
        "win_rate": [round(w / n, 4) if n else None for w in wins],
        "win_low": [round(wilson(w, n)[0], 4) for w in wins],
        "win_high": [round(wilson(w, n)[1], 4) for w in wins],
        **_draws_or_losses(no_winner, seats), "unfinished": n - len(finished),
        "length": streamed_percentiles(lengths, len(lengths)) if lengths else {},
        "mean_length": round(sum(lengths) / len(lengths), 2) if lengths else None,
    }


def format_playouts(s: dict) -> str:
    """A play-out summary as terminal text."""
    lines = [f"{s['games']} games ({', '.join(s['policies'] or [])})"]
    for seat, w in enumerate(s["wins"]):
        name = s["policies"][seat] if s["policies"] and seat < len(s["policies"]) else "?"
        lines.append(f"  P{seat + 1} {name:<10} wins {w:>6}  {_pct(s['win_rate'][seat])} "
                     f"[{_pct(s['win_low'][seat])} - {_pct(s['win_high'][seat])}]")
    if "losses" in s:
        lines.append(f"  lost {s['losses']}, unfinished {s['unfinished']}")
    else:
        lines.append(f"  draws {s['draws']}, unfinished {s['unfinished']}")
    if s["length"]:
        lines.append("  length   " + "  ".join(f"{k} {s['length'][k]}" for k, _ in PERCENTILES)
                     + f"  mean {s['mean_length']}")
    return "\n".join(lines)
