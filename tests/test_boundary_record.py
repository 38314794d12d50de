"""The source's game record: it parses as printed and replays legally."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import solver.cli.main
from solver.boundary.notation import parse_record
from solver.boundary.replay import replay_text
from solver.boundary.rules import GREEN, RED, Position, tree
from solver.errors import InputError

SEED_FILE = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "boundary.txt"   # ../shared beside the checkout
RECORD = SEED_FILE.read_text() if SEED_FILE.exists() else None
needs_record = pytest.mark.skipif(RECORD is None, reason="seeds/boundary.txt not present")

# The final position exactly as rules/boundary.md lists it, built piece by piece.
def _rules_page_final() -> Position:
    def sq(name):
        return (int(name[1]) - 1) * 6 + "abcdef".index(name[0])
    R, Y, G, B = 0, 1, 2, 3
    S, M, L = 0, 1, 2
    stacks = [[] for _ in range(36)]
    stacks[sq("a1")] = [Y * 3 + L]
    stacks[sq("a6")] = tree(G)
    stacks[sq("c2")] = [Y * 3 + M]
    stacks[sq("c3")] = [Y * 3 + S]
    stacks[sq("d2")] = [B * 3 + S]
    stacks[sq("e5")] = [R * 3 + M]
    stacks[sq("f4")] = [R * 3 + S]
    stacks[sq("f1")] = [B * 3 + L, B * 3 + M]
    stacks[sq("f6")] = [R * 3 + L]
    stones = {sq("a2"): GREEN, sq("e4"): GREEN, sq("e1"): RED, sq("c6"): RED}
    return Position(stacks, stones, RED)


FINAL = "Gl+Gm+Gs1r2Rl/4Rm1/4gRs/2Ys3/g1YmBs2/Yl3rBl+Bm r"


@needs_record
def test_record_parses_as_printed():
    halves = parse_record(RECORD)
    assert len(halves) == 43
    assert halves[0].text == "(c3-a3)(a1-c3)" and halves[0].side == RED
    assert halves[-1].text == "resign" and halves[-1].number == 22
    assert sum(h.side == RED for h in halves[:-1]) == sum(h.side == GREEN for h in halves) == 21


@needs_record
def test_record_replays_legally_to_the_rules_page_final():
    result = replay_text(RECORD)
    assert result.legal and result.error is None
    assert result.plies == 42
    assert result.resigned == RED
    assert result.final == _rules_page_final()


@needs_record
def test_replay_json(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(RECORD)
    res = CliRunner().invoke(solver.cli.main.solve, ["boundary", "replay", str(path), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["legal"] is True and out["plies"] == 42 and out["final"] == FINAL


@needs_record
def test_illegal_move_exits_1_and_names_it(tmp_path):
    bad = RECORD.replace("(e1-e3)\t(e6-f5)(d4-c4)", "(e1-e4)\t(e6-f5)(d4-c4)")
    assert bad != RECORD
    path = tmp_path / "bad.txt"
    path.write_text(bad)
    res = CliRunner().invoke(solver.cli.main.solve, ["boundary", "replay", str(path), "--json"])
    assert res.exit_code == 1
    out = json.loads(res.stdout)
    assert out["legal"] is False and out["plies"] == 22
    assert out["illegal_move"] == {"number": 12, "side": "red", "move": "(e1-e4)"}
    assert "12. (e1-e4)" in out["error"]


def test_wrong_side_and_reasons():
    r = replay_text("1. (c3-a3)(a1-c3)\t(c4-c3)(a6-a5)\t2. (a1-a4)")
    assert not r.legal and r.plies == 1
    assert "the stone cannot go from c4 to c3" in r.error
    assert r.illegal.number == 1 and r.illegal.side == GREEN
    r = replay_text("1. (a1-a3)")
    assert "not a straight move of 1" in r.error


@pytest.mark.parametrize("text, fragment", [
    ("", "no numbered moves"),
    ("1. (c3-a3)(a1-c3)\n3. (e1-e3)", "skips move number 2"),
    ("1. (z9-a3)", "not a move"),
    ("1. resign\t(f1-f3)", "resigns but the record goes on"),
    ("(c3-a3)(a1-c3)", "without a move number"),
])
def test_malformed_records(text, fragment):
    with pytest.raises(InputError, match=fragment):
        replay_text(text)


def test_malformed_record_exits_2(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("1. (c3-a3)(a1-c3)\n3. (e1-e3)\n")
    res = CliRunner().invoke(solver.cli.main.solve, ["boundary", "replay", str(path)])
    assert res.exit_code == 2
    assert "skips move number 2" in res.output


@needs_record
def test_the_contract_hard_position_is_the_record_12_plies_before_the_end():
    from solver.boundary.contract import HARD_POSITION
    from solver.boundary.notation import format_position
    result = replay_text(RECORD)
    assert format_position(result.positions[-13]) == HARD_POSITION
    assert format_position(result.positions[-1]) == FINAL
