"""Compare the stored rows of two batch databases, timings aside.

    python bench/compare_rows.py before.sqlite after.sqlite

For a change that must not alter any answer: every (game, variant, analysis,
seed) of one file is in the other with the same verdict, limit and nodes, and
the same fields but ``search_seconds``.  What differs is counted by field and,
for ``placed``, ``deepest`` and ``longest_exact``, by direction.  Exit status 1
when a verdict, limit, node count or any field other than those three and
``table_entries`` differs (a deliberate change to the longest-line search may
move only them), else 0.
"""
from __future__ import annotations

import collections
import json
import sqlite3
import sys

TIMES = ("search_seconds",)
LONGEST = ("placed", "deepest", "longest_exact", "table_entries")


def rows(path: str) -> dict:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    return {(game, variant, analysis, seed): (verdict, limit, nodes, json.loads(fields))
            for game, variant, analysis, seed, verdict, limit, nodes, fields in db.execute(
                "SELECT game, variant, analysis, seed, verdict, limit_hit, nodes, fields FROM results")}


def compare(before: dict, after: dict) -> collections.Counter:
    out = collections.Counter()
    out["missing"] = len(before.keys() ^ after.keys())
    for key in before.keys() & after.keys():
        (va, la, na, fa), (vb, lb, nb, fb) = before[key], after[key]
        out["verdict"] += va != vb
        out["limit"] += la != lb
        out["nodes"] += na != nb
        for name in fa.keys() | fb.keys():
            x, y = fa.get(name), fb.get(name)
            if name in TIMES or x == y:
                continue
            if name in ("placed", "deepest") and isinstance(x, int) and isinstance(y, int):
                out[f"{name} {'up' if y > x else 'DOWN'}"] += 1
            elif name == "longest_exact":
                out[f"longest_exact {x}->{y}"] += 1
            else:
                out[name] += 1
    return out


def main(argv) -> int:
    before, after = rows(argv[1]), rows(argv[2])
    diff = compare(before, after)
    print(f"{len(before)} and {len(after)} rows;", ", ".join(f"{k}: {v}" for k, v in sorted(diff.items()) if v)
          or "identical but the times")
    bad = [k for k, v in diff.items() if v and k.split()[0] not in LONGEST]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
