"""CSV export, streamed: one row per seed, read from a cursor and written as it comes.

Columns (documented in docs/batch.md and the README):
``game, variant, analysis, seed, verdict, limit, nodes, seconds, fields``;
``limit`` is empty unless a limit stopped the search, ``fields`` is the
game's other fields as one JSON object.
"""
from __future__ import annotations

import csv
from typing import Optional, TextIO

from solver.files import atomic_write, check_output
from solver.store import ResultStore

COLUMNS = ("game", "variant", "analysis", "seed", "verdict", "limit", "nodes", "seconds", "fields")


def write_csv(store: ResultStore, out: TextIO, *, game: Optional[str] = None,
              variant: Optional[str] = None, analysis: Optional[str] = None) -> int:
    """Write the matching rows to ``out``; return how many were written."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    n = 0
    for row in store.rows(game=game, variant=variant, analysis=analysis):
        writer.writerow(("" if v is None else v) for v in row)
        n += 1
    return n


def export_csv(db: str, path: str, **filters) -> int:
    """Export ``db`` to the CSV file ``path`` (``-`` for stdout).

    The file is written beside its target and renamed into place when complete
    (:func:`solver.files.atomic_write`): an interrupted export leaves the old
    file whole, and the database itself (or any SQLite file) is never a target."""
    check_output(path, reads=(db,))
    with ResultStore(db) as store:
        with atomic_write(path, newline="", reads=(db,)) as fh:
            return write_csv(store, fh, **filters)
