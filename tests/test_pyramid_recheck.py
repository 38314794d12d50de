"""solver/pyramid/recheck.py and `solve pyramid recheck`: stored verdicts decided
again by the tail search; a changed verdict is reported (and makes the command fail)."""
import json
import os
import sqlite3

import jsonschema
import pytest
from click.testing import CliRunner

from solver.batch import run_batch
from solver.cli.main import solve as cli
from solver.game import Limits
from solver.pyramid import recheck as rc
from solver.schemas import load
from solver.seeds import parse_ranges


def main(args):
    """`solve pyramid recheck ARGS`: (exit status, stdout, stderr)."""
    result = CliRunner().invoke(cli, ["pyramid", "recheck", *args])
    return result.exit_code, result.stdout, result.stderr


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
    status, out, err = main([db, "--variant", variant, "--count", "60", "--json", "--progress"])
    assert status == 0 and "recheck" in err
    data = json.loads(out)
    jsonschema.validate(data, load("recheck"))
    assert (data["valid"], data["agree"], data["differ"], data["variant"]) == (True, 60, [], variant)


def test_a_changed_verdict_is_reported_and_fails_the_command(stored, tmp_path):
    db, variant = stored
    copy = str(tmp_path / "copy.sqlite")
    with sqlite3.connect(db) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    _flip(copy, variant, 17)
    r = rc.recheck(copy, variant=variant, count=60)
    assert [s for s, _, _ in r.differ] == [17] and r.agree == 59
    before = os.path.getsize(copy)
    status, out, _ = main([copy, "--variant", variant, "--count", "60"])
    assert status == 1 and "seed 17: stored" in out
    status, out, _ = main([copy, "--variant", variant, "--count", "60", "--json"])
    data = json.loads(out)
    jsonschema.validate(data, load("recheck"))
    assert status == 1 and data["valid"] is False and [d["seed"] for d in data["differ"]] == [17]
    assert os.path.getsize(copy) == before          # only read


def test_the_sample_is_the_same_every_time_and_bounded_by_the_rows(stored):
    db, variant = stored
    assert rc.recheck(db, variant=variant, count=5).sampled == 5
    assert rc.recheck(db, variant=variant, count=1000).sampled == 60


def test_a_deal_the_tail_cannot_decide_is_undecided_never_agreeing(stored):
    db, variant = stored
    r = rc.recheck(db, variant=variant, count=60, limits=Limits(node_limit=1))
    assert r.agree + r.undecided + len(r.differ) == 60 and r.undecided > 0 and not r.differ


@pytest.mark.parametrize("args", [[], ["x.sqlite", "--count", "many"], ["/nonexistent/r.sqlite"],
                                  ["x.sqlite", "--node-limit", "0"], ["x.sqlite", "--variant", "klondike"]])
def test_bad_input_is_one_line_and_exit_2(args):
    status, out, err = main(args)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "rror" in err, err


def test_a_file_that_is_not_a_results_database_is_refused(tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database" * 100)
    status, _, err = main([str(junk)])
    assert status == 2 and err.count("\n") == 1
