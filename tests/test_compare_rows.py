"""bench/compare_rows.py: two batch databases, timings aside."""
import importlib.util
import pathlib

from solver.store import ResultStore, Row

_SPEC = importlib.util.spec_from_file_location(
    "compare_rows", pathlib.Path(__file__).resolve().parent.parent / "bench" / "compare_rows.py")
compare_rows = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(compare_rows)


def _db(path, rows):
    with ResultStore(str(path), create=True) as store:
        store.add([Row("pyramid", "continuous", "thoughtful", seed, verdict, None, nodes, seconds, fields)
                   for seed, verdict, nodes, seconds, fields in rows])
        store.commit()
    return str(path)


def test_only_the_times_may_differ_unless_the_longest_line_moved(tmp_path, capsys):
    f = '{"placed":%d,"longest_exact":%s,"search_seconds":%s,"slots":null}'
    a = _db(tmp_path / "a.sqlite", [(1, "lost", 9, 0.1, f % (3, "false", "0.1")), (2, "won", 150, 0.2, f % (144, "true", "0.2"))])
    b = _db(tmp_path / "b.sqlite", [(1, "lost", 9, 0.3, f % (3, "false", "0.3")), (2, "won", 150, 0.1, f % (144, "true", "0.1"))])
    assert compare_rows.main(["", a, b]) == 0 and "identical but the times" in capsys.readouterr().out
    c = _db(tmp_path / "c.sqlite", [(1, "lost", 9, 0.1, f % (5, "true", "0.1")), (2, "won", 150, 0.2, f % (144, "true", "0.2"))])
    assert compare_rows.main(["", a, c]) == 0
    assert "placed up: 1" in capsys.readouterr().out
    d = _db(tmp_path / "d.sqlite", [(1, "unknown", 9, 0.1, f % (3, "false", "0.1")), (2, "won", 151, 0.2, f % (144, "true", "0.2"))])
    assert compare_rows.main(["", a, d]) == 1
    assert "nodes: 1" in capsys.readouterr().out
