"""`solve continuum`: JSON keys, plans, and one-line errors with exit 2."""
import json

import pytest
from click.testing import CliRunner

import solver.cli.main
from solver.continuum.game import play_game, summarise
from solver.continuum.analysis import analyse_seed


def run(*args):
    return CliRunner().invoke(solver.cli.main.solve, ["continuum", *args])


def test_puzzle_json_has_the_issue_keys():
    res = run("puzzle", "--player", "B", "--cost", "moves", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    for key in ("player", "cost", "pips", "moves", "plan", "states"):
        assert key in out
    assert out["player"] == "B" and out["cost"] == "moves" and len(out["plan"]) == out["moves"]


def test_puzzle_text_shows_the_plan():
    res = run("puzzle", "--row", "yL | bL bM bS | yM yS || rL rM rS | gL gM gS")
    assert res.exit_code == 0
    assert "minimum pips = 6" in res.output and "yS<" in res.output


def test_limit_hit_exits_1_and_says_unknown():
    res = run("puzzle", "--max-nodes", "5", "--json")
    assert res.exit_code == 1 and json.loads(res.output)["verdict"] == "unknown"


@pytest.mark.parametrize("row, word", [
    ("rL rM rS bL bM bS yL yM yS gL gM gS", "continuum"),     # malformed
    ("rL rM rZ | bL bM bS || yL yM yS | gL gM gS", "no such pyramid"),
    ("rL rM rS | bL bM bS || yL yM yS | gL gM bS", "more than once"),
])
def test_bad_rows_exit_2_with_one_line(row, word, capfd):
    with pytest.raises(SystemExit) as exc:
        solver.cli.main.main(["continuum", "puzzle", "--row", row])
    assert exc.value.code == 2
    err = capfd.readouterr().err
    assert err.startswith("solve: error:") and word in err and err.count("\n") == 1


def test_play_json_and_replay():
    res = run("play", "--seed", "5", "--policy", "random", "--max-turns", "30", "--json")
    assert res.exit_code == 0
    out = json.loads(res.output)
    assert out["seed"] == 5 and out["turns"] <= 30 and out["log"]
    assert out["log"] == play_game(5, policies=("random", "random"), max_turns=30).log


def test_play_many_games_reports_by_seat():
    res = run("play", "--games", "3", "--policy", "random", "--max-turns", "20", "--json")
    out = json.loads(res.output)
    assert out["games"] == 3 and out["wins_A"] + out["wins_B"] + out["unfinished"] == 3


def test_summarise_counts_winners():
    recs = [play_game(s, policies=("random", "random"), max_turns=10) for s in range(3)]
    for r, w in zip(recs, ("A", "B", "A")):
        r.winner = w
    s = summarise(recs)
    assert (s["wins_A"], s["wins_B"], s["unfinished"]) == (2, 1, 0)
    assert s["length_min"] == 10


def test_analyse_seed_records():
    rec = analyse_seed(3, analysis="playout", policy_a="random", policy_b="random", max_turns=15)
    assert {"verdict", "nodes", "seconds", "winner", "turns"} <= set(rec)
    json.dumps(rec)
    puz = analyse_seed(3, analysis="puzzle", player="A")
    assert puz["verdict"] == "solved" and puz["pips"] == 30


def test_max_step_five_is_what_the_card_game_can_play():
    free = json.loads(run("puzzle", "--json").output)
    capped = json.loads(run("puzzle", "--max-step", "5", "--json").output)
    assert any(" x " in m and m.startswith("rL") and m.endswith("yL") for m in free["plan"])  # 6 pips
    assert capped["max_step"] == 5 and capped["pips"] > free["pips"]
    assert "rL x yL" not in capped["plan"]
    res = run("puzzle", "--max-step", "7")
    assert res.exit_code == 2


def test_play_balance_switch():
    out = json.loads(run("play", "--seed", "2", "--balance", "card", "--max-turns", "40", "--json").output)
    assert out["balance"] == "card"
    assert run("play", "--balance", "sometimes").exit_code == 2
