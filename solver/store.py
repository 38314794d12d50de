"""The results database: SQLite in WAL mode, one row per (game, variant, analysis, seed).

Only the process that runs a batch writes, and it commits in batches, so a
``kill -9`` loses at most the rows of the open transaction; those seeds are
simply run again on resume.  An upsert on the primary key makes a
repeated result (a retried Dask task) harmless: every seed is stored exactly once.

SQLite integers are signed 64-bit, so a seed is stored as its two's-complement
value (seeds below 2**63, i.e. all practical ones, are stored as themselves).

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "r.sqlite")
>>> with ResultStore(path, create=True) as st:
...     st.add([Row("pyramid", "continuous", "thoughtful", 7, "won", None, 10, 0.5, "{}")])
...     st.commit()
...     list(st.stored_seeds("pyramid", "continuous", "thoughtful", [(1, 10)]))
[7]
"""
from __future__ import annotations

import contextlib
import os
import sqlite3
import urllib.parse
from typing import Iterator, List, NamedTuple, Optional, Sequence, Tuple

from solver.errors import InputError
from solver.files import describe, note_read

APPLICATION_ID = 0x534F4C56          # "SOLV": marks a file as ours
SCHEMA_VERSION = 1
SIGN = 1 << 63
WAL_CHECKPOINT_PAGES = 16384
"""A writer copies the log into the file (and syncs it) every 64 MiB of log,
not every 4 MiB (SQLite's default): a batch writes each page once instead of
again and again as rows fill it (100,000 Pyramid rows of 144 slots: 2.5-2.9 s
of wall time to 1.8-2.2 s, measured in turns)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS results (
    game      TEXT    NOT NULL,
    variant   TEXT    NOT NULL,
    analysis  TEXT    NOT NULL,
    seed      INTEGER NOT NULL,      -- two's complement of the unsigned 64-bit seed
    verdict   TEXT    NOT NULL,      -- won / lost / unknown (or the game's own verdicts)
    limit_hit TEXT,                  -- 'nodes' or 'time' when a limit stopped the search
    nodes     INTEGER NOT NULL,
    seconds   REAL    NOT NULL,
    fields    TEXT    NOT NULL,      -- the game's other fields, one JSON object
    PRIMARY KEY (game, variant, analysis, seed)
);
CREATE INDEX IF NOT EXISTS results_seed ON results (seed);
"""


UPSERT = ("INSERT INTO results VALUES (?,?,?,?,?,?,?,?,?) "
          "ON CONFLICT (game, variant, analysis, seed) DO UPDATE SET verdict=excluded.verdict, "
          "limit_hit=excluded.limit_hit, nodes=excluded.nodes, seconds=excluded.seconds, "
          "fields=excluded.fields WHERE results.verdict='unknown'")
"""A row is stored once; a stored ``unknown`` is replaced by a retry's answer."""


class Row(NamedTuple):
    """One stored result: what a worker sends back for one seed."""

    game: str
    variant: str
    analysis: str
    seed: int
    verdict: str
    limit: Optional[str]
    nodes: int
    seconds: float
    fields: str


def encode_seed(seed: int) -> int:
    return seed - (1 << 64) if seed >= SIGN else seed


def decode_seed(value: int) -> int:
    return value + (1 << 64) if value < 0 else value


BUSY_SECONDS = 30.0
"""How long to wait for a database another process has locked before giving up (exit 2)."""

USER_ERRORS = ("locked", "readonly", "read-only", "disk is full", "disk i/o", "unable to open",
               "malformed", "not a database", "out of memory")
"""SQLite failures that come from the file or the machine, not from this code."""


def database_error(exc: BaseException, path: str) -> Optional[InputError]:
    """The one-line InputError for an SQLite failure the user can cause (a
    locked, read-only, damaged or foreign file, a full disk), or None for any
    other (a bug, left to surface as one)."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return None
    text = str(exc)
    if type(exc) is sqlite3.DatabaseError or any(k in text.lower() for k in USER_ERRORS):
        where = f"results database {describe(path)}" if path else "the results database"
        return InputError(f"{where}: {text}")
    return None


class ResultStore:
    """A results file.  ``create=False`` (readers) opens it read-only and refuses
    a missing file; a reader never changes a byte of the database.

    Every SQLite failure the user can cause (locked, read-only, damaged, full
    disk) is an InputError naming the file; the rows already committed stay."""

    def __init__(self, path: str, *, create: bool = False, timeout: Optional[float] = None) -> None:
        timeout = BUSY_SECONDS if timeout is None else timeout
        self.path = path
        if path in ("-", "", ":memory:") or path.startswith("file:"):
            raise InputError(f"a results database is a file: name one (not {path!r}, where SQLite "
                             "would keep the results nowhere or read a URI)")
        if not create and not os.path.isfile(path):
            raise InputError(f"no results database at {describe(path)}")
        if os.path.isdir(path):
            raise InputError(f"{describe(path)} is a directory, not a results database")
        note_read(path)
        try:
            if create:
                self.db = sqlite3.connect(path, timeout=timeout)
            else:
                uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro"
                self.db = sqlite3.connect(uri, uri=True, timeout=timeout)
        except (sqlite3.Error, ValueError) as exc:
            raise InputError(f"cannot open the results database {describe(path)}: {exc}") from None
        try:
            self._check_or_init(create)
        except sqlite3.DatabaseError as exc:
            self.db.close()
            raise (database_error(exc, path) if isinstance(exc, sqlite3.OperationalError) else None) \
                or InputError(f"{describe(path)} is not a results database ({exc})") from None

    def _check_or_init(self, create: bool) -> None:
        db = self.db
        app = db.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if app == 0 and not tables and create:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            db.executescript(SCHEMA)
            db.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            db.commit()
        elif app != APPLICATION_ID or "results" not in tables:
            raise InputError(f"{self.path} is not a results database written by solve")
        else:
            (version,) = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() or ("?",)
            if version != str(SCHEMA_VERSION):
                raise InputError(f"{self.path} has results schema {version}, expected {SCHEMA_VERSION}")
            if create:
                db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        if create:
            db.execute(f"PRAGMA wal_autocheckpoint={WAL_CHECKPOINT_PAGES}")

    # -- writing ---------------------------------------------------------
    def add(self, rows: Sequence[Row]) -> None:
        """Queue rows in the open transaction.  A row whose key is stored already
        replaces it only if the stored verdict is ``unknown`` (a retry with larger
        limits); a decided result is never overwritten."""
        with self.guard():
            self._add([(r.game, r.variant, r.analysis, encode_seed(r.seed), r.verdict,
                        r.limit, int(r.nodes), float(r.seconds), r.fields) for r in rows])

    def add_values(self, game: str, variant: str, analysis: str, values: Sequence[Sequence]) -> None:
        """:meth:`add` for the rows of one (game, variant, analysis), each given
        as its values (seed, verdict, limit, nodes, seconds, fields), as a
        batch chunk returns them: no :class:`Row` per row on the way."""
        with self.guard():
            self._add([(game, variant, analysis, encode_seed(seed),
                        verdict, limit, int(nodes), float(seconds), fields)
                       for seed, verdict, limit, nodes, seconds, fields in values])

    def _add(self, params: List[tuple]) -> None:
        """The one insert both ways of adding go through (the tests make it fail)."""
        self.db.executemany(UPSERT, params)

    def commit(self) -> None:
        with self.guard():
            self.db.commit()

    @contextlib.contextmanager
    def guard(self):
        """Turn an SQLite failure the user can cause into a one-line InputError."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            err = database_error(exc, self.path)
            if err is None:
                raise
            raise err from None

    # -- reading ---------------------------------------------------------
    def stored_seeds(self, game: str, variant: str, analysis: str,
                     ranges: Sequence[Tuple[int, int]], *, decided_only: bool = False) -> Iterator[int]:
        """Stored seeds inside ``ranges``, ascending (streamed, for resume);
        ``decided_only`` leaves out the ``unknown`` ones (to retry them)."""
        extra = " AND verdict != 'unknown'" if decided_only else ""
        with self.guard():
            for lo, hi in _split_at_sign(ranges):
                cur = self.db.execute(
                    "SELECT seed FROM results WHERE game=? AND variant=? AND analysis=? "
                    f"AND seed BETWEEN ? AND ?{extra} ORDER BY seed",
                    (game, variant, analysis, encode_seed(lo), encode_seed(hi)))
                for (value,) in cur:
                    yield decode_seed(value)

    def groups(self, *, game: Optional[str] = None, variant: Optional[str] = None) -> List[Tuple[str, str, str]]:
        """The (game, variant, analysis) triples present, optionally filtered."""
        where, args = where_clause(game=game, variant=variant)
        with self.guard():
            return [tuple(r) for r in self.db.execute(
                f"SELECT DISTINCT game, variant, analysis FROM results {where} ORDER BY 1, 2, 3", args)]

    def rows(self, *, game: Optional[str] = None, variant: Optional[str] = None,
             analysis: Optional[str] = None) -> Iterator[Row]:
        """Every matching row in key order, streamed from a cursor."""
        where, args = where_clause(game=game, variant=variant, analysis=analysis)
        with self.guard():
            cur = self.db.execute(
                f"SELECT game, variant, analysis, seed, verdict, limit_hit, nodes, seconds, fields "
                f"FROM results {where} ORDER BY game, variant, analysis, seed", args)
            for r in cur:
                yield Row(r[0], r[1], r[2], decode_seed(r[3]), *r[4:])

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "ResultStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def where_clause(**filters) -> Tuple[str, list]:
    """``WHERE a=? AND b=?`` for the filters that are not None."""
    keys = [k for k, v in filters.items() if v is not None]
    if not keys:
        return "", []
    return "WHERE " + " AND ".join(f"{k}=?" for k in keys), [filters[k] for k in keys]


def _split_at_sign(ranges):
    """Split ranges at 2**63 so each is contiguous in the signed encoding."""
    for lo, hi in ranges:
        if lo < SIGN <= hi:
            yield lo, SIGN - 1
            yield SIGN, hi
        else:
            yield lo, hi
