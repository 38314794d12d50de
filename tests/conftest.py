"""Fixtures shared by several test files.

The suite runs with ``--import-mode=importlib``, so test files cannot import one another;
a helper they all need lives here as a fixture.
"""

import sqlite3
from pathlib import Path

import pytest


def _row_count(path):
    """Rows stored in a results database; 0 while it does not exist or cannot be read yet."""
    try:
        con = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True, timeout=5)
        try:
            return con.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        return 0


@pytest.fixture
def row_count():
    """``row_count(path)``: how many rows a results database holds (0 if not created yet)."""
    return _row_count
