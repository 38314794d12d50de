"""`solve continuum`: one JSON shape, contract verdicts, exit 0 on any answer, one-line errors with exit 2."""
import json

import pytest
from click.testing import CliRunner

import solver.cli.main
from solver.continuum.cards import shuffled_deck
from solver.game import LIMITS, VERDICTS
from solver.games import get_analysis, run_analysis
from solver.rng import SplitMix64

PUZZLE_KEYS = ["game", "variant", "seed", "verdict", "limit", "nodes", "seconds", "line",
               "player", "cost", "kings", "max_step", "row", "pips", "moves", "states"]


def run(*args):
    return CliRunner().invoke(solver.cli.main.solve, ["continuum", *args])


def test_puzzle_json_has_the_contract_keys():
    res = run("puzzle", "--player", "B", "--cost", "moves", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert list(out) == PUZZLE_KEYS
    assert out["verdict"] == "won" and out["limit"] is None and "solved" not in res.output
    assert (out["game"], out["variant"], out["seed"]) == ("continuum", None, None)
    assert out["player"] == "B" and out["cost"] == "moves" and len(out["line"]) == out["moves"] == 13


def test_puzzle_text_shows_the_plan():
    res = run("puzzle", "--row", "yL | bL bM bS | yM yS || rL rM rS | gL gM gS")
    assert res.exit_code == 0
    assert "verdict: won" in res.output and "minimum pips = 6" in res.output and "yS<" in res.output


@pytest.mark.parametrize("args, limit", [(("--node-limit", "5"), "nodes"), (("--table-mb", "0.01"), "memory")])
def test_a_limit_gives_unknown_with_exit_0_and_the_same_keys(args, limit):
    """An unknown exits 0 (it exited 1), names the limit in the contract's words
    (it said max_nodes / max_states) and keeps every key of a won answer."""
    res = run("puzzle", *args, "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert list(out) == PUZZLE_KEYS
    assert (out["verdict"], out["limit"], out["pips"], out["moves"], out["line"]) == ("unknown", limit, None, None, [])
    text = run("puzzle", *args)
    assert text.exit_code == 0 and "verdict: unknown" in text.output


@pytest.mark.parametrize("old", ["--max-nodes", "--max-states"])
def test_old_limit_spellings_are_refused(old):
    assert run("puzzle", old, "100").exit_code == 2


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


def test_the_puzzle_analysis_does_not_depend_on_the_seed():
    """`solve batch --game continuum --analysis puzzle --seeds 1-20` stored 20
    identical rows: the analysis is declared unseeded (the batch refuses it
    over a seed range)."""
    spec = get_analysis("continuum", "puzzle")
    assert spec.seeded is False
    a, b = (run_analysis("continuum", "puzzle", s).to_dict() for s in (1, 2))
    a.pop("seconds"), b.pop("seconds")
    assert a == b


def test_the_puzzle_analysis_takes_limits_and_typed_options():
    from solver.game import Limits
    from solver.errors import InputError
    res = run_analysis("continuum", "puzzle", 1, limits=Limits(node_limit=1000))
    assert (res.verdict, res.limit) == ("unknown", "nodes") and res.verdict in VERDICTS and res.limit in LIMITS
    res = run_analysis("continuum", "puzzle", 1, options={"player": "B", "max_step": 5})
    assert (res.verdict, res.fields["pips"], res.fields["moves"]) == ("won", 33, 14)
    for bad in ({"max_step": 7}, {"player": "C"}, {"cost": "time"}, {"max_nodes": 10}):
        with pytest.raises(InputError):
            run_analysis("continuum", "puzzle", 1, options=bad)


def test_play_json_and_replay():
    res = run("play", "--seed", "5", "--policy", "random", "--max-moves", "30", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["seed"] == 5 and out["length"] <= 30 and out["line"] and out["verdict"] is None
    again = run_analysis("continuum", "playout", 5, options={"policies": ["random"], "max_moves": 30})
    assert out["line"] == again.line


def test_play_many_games_reports_by_seat():
    res = run("play", "--games", "3", "--policy", "random", "--max-moves", "20", "--json")
    out = json.loads(res.output)
    assert out["games"] == 3 and sum(out["wins"]) + out["draws"] + out["unfinished"] == 3


def test_max_step_five_is_what_the_card_game_can_play():
    free = json.loads(run("puzzle", "--json").output)
    capped = json.loads(run("puzzle", "--max-step", "5", "--json").output)
    assert any(" x " in m and m.startswith("rL") and m.endswith("yL") for m in free["line"])  # 6 pips
    assert capped["max_step"] == 5 and capped["pips"] > free["pips"]
    assert "rL x yL" not in capped["line"]
    res = run("puzzle", "--max-step", "7")
    assert res.exit_code == 2


def test_play_variant_is_the_balance_rule():
    out = json.loads(run("play", "--seed", "2", "--variant", "card", "--max-moves", "40", "--json").output)
    assert out["variant"] == "card"
    assert run("play", "--variant", "sometimes").exit_code == 2


def test_show_json_keys_are_the_same_for_a_row_and_a_game():
    row = json.loads(run("show", "--json").output)
    game = run("show", "--seed", "3", "--json")
    assert game.exit_code == 0, game.output
    game = json.loads(game.output)
    assert list(row) == list(game)
    assert row["row"] == "rL rM rS | bL bM bS || yL yM yS | gL gM gS" and row["to_move"] is None
    assert game["to_move"] == "A" and game["seed"] == 3 and game["legal_moves"]
    after = json.loads(run("show", "--seed", "3", "--move", game["legal_moves"][0], "--json").output)
    assert after["row"] != game["row"] or after["hands"] != game["hands"]
    assert run("show", "--seed", "3", "--move", "9z: rS>").exit_code == 2
    assert run("show", "--move", "pass").exit_code == 2


def test_deal_is_the_games_shuffle():
    out = json.loads(run("deal", "--seed", "9", "--json").output)
    assert (out["game"], out["variant"], out["seed"]) == ("continuum", None, 9)
    assert out["deck"] == shuffled_deck(SplitMix64(9)) and len(out["deck"]) == 34
    assert run("deal", "--seed", "9").output.split() == out["deck"]


def test_an_impossible_exchange_is_lost_with_exit_0():
    """bS buried rS: the frozen puzzle has no answer, proved by exhaustion."""
    res = run("puzzle", "--row", "rL rM rS bS | bL bM || yL yM yS | gL gM gS", "--json")
    assert res.exit_code == 0
    out = json.loads(res.output)
    assert list(out) == PUZZLE_KEYS
    assert (out["verdict"], out["limit"], out["pips"], out["line"]) == ("lost", None, None, [])
    assert out["states"] == out["nodes"] > 0
