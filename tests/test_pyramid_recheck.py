"""solver/pyramid/recheck.py: stored verdicts decided again by the tail search;
a changed verdict is reported (and makes the command fail)."""
import sqlite3

import pytest

from solver.batch import run_batch
from solver.pyramid import recheck as rc
from solver.seeds import parse_ranges


@pytest.fixture(scope="module", params=["continuous", "wild-dragons"])
def stored(request, tmp_path_factory):
    db = str(tmp_path_factory.mktemp("recheck") / "r.sqlite")
    run_batch(db=db, game="pyramid", analysis="thoughtful", ranges=parse_ranges("1-60"),
              variant=request.param, workers=1, progress=False)
    return db, request.param


def _flip(db, variant, seed):
    with sqlite3.connect(db) as c:
        c.execute("UPDATE results SET verdict = CASE verdict WHEN 'won' THEN 'lost' ELSE 'won' END "
                  "WHERE variant = ? AND seed = ?", (variant, seed))


def test_every_stored_verdict_of_a_small_table_is_decided_again_the_same(stored):
    db, variant = stored
    r = rc.recheck(db, variant=variant, count=60)
    assert (r.sampled, r.agree, r.differ, r.undecided) == (60, 60, [], 0)
    assert rc.main([db, variant, "60"]) == 0


def test_a_changed_verdict_is_reported_and_fails_the_command(stored, tmp_path, capsys):
    db, variant = stored
    copy = str(tmp_path / "copy.sqlite")
    with sqlite3.connect(db) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    _flip(copy, variant, 17)
    r = rc.recheck(copy, variant=variant, count=60)
    assert [s for s, _, _ in r.differ] == [17] and r.agree == 59
    assert rc.main([copy, variant, "60"]) == 1
    assert "17: stored" in capsys.readouterr().out


def test_the_sample_is_the_same_every_time_and_bounded_by_the_rows(stored):
    db, variant = stored
    assert rc.recheck(db, variant=variant, count=5).sampled == 5
    assert rc.recheck(db, variant=variant, count=1000).sampled == 60


def test_a_deal_the_tail_cannot_decide_is_undecided_never_agreeing(stored):
    db, variant = stored
    r = rc.recheck(db, variant=variant, count=60, node_limit=1)
    assert r.agree + r.undecided + len(r.differ) == 60 and r.undecided > 0 and not r.differ


@pytest.mark.parametrize("args", [[], ["x.sqlite", "continuous"], ["x.sqlite", "continuous", "many"],
                                  ["/nonexistent/r.sqlite", "continuous", "3"]])
def test_bad_input_is_one_line_and_exit_2(args, capsys):
    assert rc.main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


def test_an_unknown_variant_is_refused(stored, capsys):
    assert rc.main([stored[0], "klondike", "3"]) == 2
