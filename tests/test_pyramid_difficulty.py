"""Why a deal is lost (in words, with the proof's size), the nodes kept as
difficulty, `solve stats` showing its distribution, `batch --filter` listing seeds."""
import json

from click.testing import CliRunner

from solver.cext import pyramid as fast
from solver.cli.main import solve as cli
from solver.games import run_analysis
from solver.pyramid.deal import deal_from_seed
from solver.pyramid.search import deal_kinds, solve
from solver.pyramid.tiles import TILES
from solver.pyramid.hub import proves_lost
from solver.pyramid.why import WHY_NODES, why_lost


def test_why_names_the_first_tiles_that_leave_nothing_to_play():
    explained = 0
    for seed in range(1, 60):
        deal = deal_from_seed(seed)
        result = solve(deal)
        if result.verdict != "lost":
            continue
        text = why_lost(deal, nodes=result.nodes)
        assert text.endswith(f"Proof: {result.nodes:,} positions searched.")
        firsts = {TILES[f].token: f for f in deal.faces[:9]}
        for token, face in firsts.items():
            engine = fast.Engine(deal_kinds(deal))
            engine.make(TILES[face].kind, 38)
            if engine.is_stuck():      # the compiled engine agrees: nothing fits after it
                assert token in text.split(" on 1e5")[0] or "Whichever" in text
        explained += 1
    assert explained >= 5


def test_a_large_proof_is_given_by_its_size():
    assert why_lost(deal_from_seed(7260), nodes=WHY_NODES + 1).startswith("The proof is too large")


def test_solve_says_why_in_text_and_json():
    runner = CliRunner()
    out = runner.invoke(cli, ["pyramid", "--seed", "7", "--json"])
    data = json.loads(out.output)
    assert data["verdict"] == "lost" and data["why"].endswith(f"Proof: {data['nodes']} positions searched.")
    won = json.loads(runner.invoke(cli, ["pyramid", "--seed", "1", "--json"]).output)
    assert won["why"] is None
    assert "why: " in runner.invoke(cli, ["pyramid", "--seed", "7"]).output


def test_rows_keep_the_nodes_stats_shows_their_distribution_and_filter_lists_seeds(tmp_path):
    db = str(tmp_path / "r.sqlite")
    runner = CliRunner()
    out = runner.invoke(cli, ["pyramid", "batch", "--seeds", "1-40", "--workers", "1", "--db", db,
                              "--filter", "won", "--json"])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.output)
    answers = {s: run_analysis("pyramid", "thoughtful", s) for s in range(1, 41)}
    assert summary["filter"] == "won" and summary["seeds"] == [s for s, a in answers.items() if a.verdict == "won"]
    text = runner.invoke(cli, ["pyramid", "batch", "--seeds", "1-40", "--db", db, "--filter", "lost"])
    listed = [int(line) for line in text.output.splitlines()[2:]]
    assert listed == [s for s, a in answers.items() if a.verdict == "lost"]
    stats = json.loads(runner.invoke(cli, ["stats", db, "--json"]).output)
    group = stats["groups"][0]
    expected = {}
    for a in answers.values():
        decade = f"1e{len(str(a.nodes)) - 1}"
        expected.setdefault(decade, {}).setdefault(a.verdict, 0)
        expected[decade][a.verdict] += 1
    assert group["difficulty"] == expected
    assert "difficulty (nodes)" in runner.invoke(cli, ["stats", db]).output


def test_the_hub_lemma_is_named_only_where_it_gave_the_proof():
    """A deal the lemma proves says so; a deal the search proved does not
    borrow the lemma's words, however large its proof."""
    deal = deal_from_seed(594292)
    reason = proves_lost(deal, variant="continuous")
    assert reason is not None
    text = why_lost(deal, nodes=WHY_NODES + 1, hub=reason)
    assert text.startswith("The hub lemma") and "no proof" in text
    assert why_lost(deal, nodes=WHY_NODES + 1).startswith("The proof is too large")
    out = CliRunner().invoke(cli, ["pyramid", "--seed", "594292", "--time-limit", "0.5"])
    assert out.exit_code == 0, out.output
    assert "proven by the hub lemma" in out.output and "why: The hub lemma" in out.output
