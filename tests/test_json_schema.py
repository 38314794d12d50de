"""Every command's --json validates against its schema (docs/json.md, solver/schemas/).

The command list is checked against the Click tree, so a new command without a
case here fails the test until its JSON is given a schema.
"""
import json

import click
import jsonschema
import pytest
from click.testing import CliRunner

from solver.cli.main import solve
from solver.schemas import load

FINAL = "Gl+Gm+Gs1r2Rl/4Rm1/4gRs/2Ys3/g1YmBs2/Yl3rBl+Bm r"
RECORD = "../shared/seeds/boundary.txt"

CASES = [
    # (argv, schema, exit status)
    (["pyramid", "--seed", "1"], "answer", 0),
    (["pyramid", "--seed", "7260", "--node-limit", "1000"], "answer", 0),
    (["pyramid", "show", "--seed", "1", "--moves", "3"], "show", 0),
    (["pyramid", "hint", "--seed", "2"], "hint", 0),
    (["pyramid", "hint", "--seed", "1", "--variant", "wild-dragons", "--critical"], "hint", 0),
    (["pyramid", "play", "--seed", "1"], "playout", 0),
    (["pyramid", "play", "--seed", "1", "--games", "3"], "playouts", 0),
    (["spectrum", "--seed", "10"], "answer", 0),
    (["spectrum", "--seed", "27", "--node-limit", "1000"], "answer", 0),
    (["spectrum", "play", "--seed", "3", "--players", "2", "--policy", "solver", "--policy", "random", "--max-moves", "30"], "playout", 0),
    (["boundary", "solve", "--position", FINAL], "answer", 0),
    (["boundary", "show"], "show", 0),
    (["boundary", "analyse", RECORD, "--last", "3", "--time-limit", "5"], "analyse", 0),
    (["boundary", "bestmove", "--time-limit", "0.2"], "bestmove", 0),
    (["boundary", "play", "--seed", "1", "--max-moves", "40"], "playout", 0),
    (["boundary", "play", "--seed", "1", "--games", "3", "--max-moves", "40"], "playouts", 0),
    (["continental", "hand", "--round", "1", "As 2s 3s 4s Kh Kd X"], "answer", 0),
    (["continental", "play", "--seed", "1", "--max-moves", "60"], "playout", 0),
    (["continental", "odds", "--round", "4"], "odds", 0),
    (["continental", "odds", "--round", "7", "--deals", "300", "--method", "monte-carlo"], "odds", 0),
    (["continental", "odds", "--round", "1", "--max-deficiency", "0"], "odds", 0),  # a lumped `rest`
    (["continuum", "puzzle", "--node-limit", "1000"], "answer", 0),
    (["continuum", "play", "--seed", "1", "--max-moves", "40"], "playout", 0),
]


def run(argv):
    result = CliRunner().invoke(solve, argv + ["--json"])
    return result, result.output


@pytest.mark.parametrize("argv, schema, status", CASES, ids=[" ".join(c[0][:2]) for c in CASES])
def test_json_output_follows_its_schema(argv, schema, status):
    result, out = run(argv)
    assert result.exit_code == status, out
    data = json.loads(out)
    jsonschema.validate(data, load(schema))
    if schema in ("answer", "playout", "show"):
        assert data["game"] == argv[0]


def test_every_verdict_word_is_from_the_one_vocabulary():
    words = set()
    for argv, schema, _ in CASES:
        if schema == "answer":
            words.add(json.loads(run(argv)[1])["verdict"])
    assert words <= {"won", "lost", "draw", "unknown"} and "unknown" in words


def commands(group, path=()):
    for name, cmd in group.commands.items():
        if isinstance(cmd, click.Group):
            yield path + (name,)
            yield from commands(cmd, path + (name,))
        else:
            yield path + (name,)


def test_every_command_takes_json():
    missing = []
    for path in commands(solve):
        cmd = solve
        for part in path:
            cmd = cmd.commands[part]
        if isinstance(cmd, click.Group) and not cmd.params:
            continue      # a group that only lists its subcommands answers nothing
        if not any("--json" in p.opts for p in cmd.params):
            missing.append(" ".join(path))
    assert missing == []


def test_odds_rest_is_filled_when_the_count_stops_at_a_deficiency():
    """`--max-deficiency` lumps the hands beyond it into `rest`, and the schema admits it."""
    result, out = run(["continental", "odds", "--round", "1", "--max-deficiency", "0"])
    data = json.loads(out)
    jsonschema.validate(data, load("odds"))
    assert data["rest"]["deficiency_at_least"] == 1
    assert data["counts"]["0"] + data["rest"]["hands"] == data["deals"]
    result, out = run(["continental", "odds", "--round", "1", "--max-deficiency", "0", "--count-above", "2"])
    data = json.loads(out)
    jsonschema.validate(data, load("odds"))
    assert data["rest"]["deficiency_at_most"] == 2 and set(data["counts"]) == {"0", "3", "4"}
    assert sum(data["counts"].values()) + data["rest"]["hands"] == data["deals"]
