"""The SQLite results store: schema, WAL, exactly-once rows, foreign files."""
import sqlite3

import pytest

from solver.errors import InputError
from solver.store import ResultStore, Row


def row(seed, verdict="won", analysis="thoughtful"):
    return Row("pyramid", "continuous", analysis, seed, verdict, None, 5, 0.25, '{"placed":144}')


def test_rows_round_trip_once_and_wal(tmp_path):
    path = str(tmp_path / "r.sqlite")
    with ResultStore(path, create=True) as st:
        st.add([row(3), row(1), row(2 ** 64 - 1), row(2 ** 63)])
        st.add([row(3, "lost")])                         # a repeat is ignored, not duplicated
        st.commit()
        assert st.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with ResultStore(path) as st:
        rows = list(st.rows())
        assert [r.seed for r in rows] == [2 ** 63, 2 ** 64 - 1, 1, 3] or \
            sorted(r.seed for r in rows) == [1, 3, 2 ** 63, 2 ** 64 - 1]
        assert {r.seed: r.verdict for r in rows}[3] == "won"
        assert list(st.stored_seeds("pyramid", "continuous", "thoughtful", [(0, 2 ** 64 - 1)])) \
            == [1, 3, 2 ** 63, 2 ** 64 - 1]
        assert list(st.stored_seeds("pyramid", "continuous", "blind:greedy", [(0, 10)])) == []
        indexes = {r[1] for r in st.db.execute("PRAGMA index_list(results)")}
        assert "results_seed" in indexes


def test_values_store_the_same_bytes_as_rows(tmp_path):
    """``add_values`` (a batch chunk's values, no Row each) stores exactly what
    ``add`` stores, seeds at and above 2**63 included, and keeps a decided row
    while replacing an ``unknown`` one."""
    seeds = [1, 7, 2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1]
    dumps = []
    for how in ("rows", "values"):
        path = str(tmp_path / f"{how}.sqlite")
        with ResultStore(path, create=True) as st:
            first = [row(s, "unknown" if s == 7 else "won") for s in seeds]
            again = [row(s, "lost")._replace(nodes=9, seconds=1.5, fields="{}") for s in (1, 7)]
            for batch in (first, again):
                if how == "rows":
                    st.add(batch)
                else:
                    st.add_values("pyramid", "continuous", "thoughtful", [list(r[3:]) for r in batch])
            st.commit()
            dumps.append(list(st.db.execute("SELECT *, typeof(seconds), typeof(nodes) FROM results ORDER BY seed")))
    assert dumps[0] == dumps[1]
    verdicts = {r[3]: r[4] for r in dumps[1]}
    assert verdicts[1] == "won" and verdicts[7] == "lost" and verdicts[-1] == "won"
    assert sorted(verdicts) == sorted(s - 2 ** 64 if s >= 2 ** 63 else s for s in seeds)


def test_missing_garbage_and_foreign_files(tmp_path):
    with pytest.raises(InputError, match="no results database"):
        ResultStore(str(tmp_path / "absent.sqlite"))
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(InputError):
        ResultStore(str(junk))
    with pytest.raises(InputError):
        ResultStore(str(junk), create=True)
    foreign = tmp_path / "foreign.sqlite"
    db = sqlite3.connect(str(foreign))
    db.execute("CREATE TABLE results (x)")
    db.commit()
    db.close()
    with pytest.raises(InputError, match="not a results database"):
        ResultStore(str(foreign), create=True)


def test_a_writer_checkpoints_the_log_every_64_mib(tmp_path):
    from solver.store import WAL_CHECKPOINT_PAGES, ResultStore
    with ResultStore(str(tmp_path / "r.sqlite"), create=True) as store:
        assert store.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == WAL_CHECKPOINT_PAGES == 16384
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
