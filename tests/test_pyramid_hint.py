"""solve pyramid hint: every legal move decided, critical moves of a solution."""
import json

from click.testing import CliRunner

from solver.cli.main import solve as cli
from solver.pyramid.check import check_solution, replay
from solver.pyramid.deal import deal_from_seed
from solver.pyramid.hint import hint
from solver.pyramid.rules import parse_move
from solver.pyramid.search import solve
from solver.pyramid.tiles import TILES


def _wins_by_brute_force(state) -> bool:
    """Plain DFS on the reference state (for positions a few moves from the end)."""
    if state.is_won():
        return True
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        if _wins_by_brute_force(child):
            return True
    return False


def test_every_legal_move_is_decided_and_the_verdict_follows():
    deal = deal_from_seed(42)
    played = solve(deal).moves[:60]
    h = hint(deal, played)
    state = replay(deal, played)
    assert sorted(m["move"] for m in h.moves) == sorted(str(m) for m in state.legal_moves())
    assert h.verdict == "won" and h.winning and str(solve(deal).moves[60]) in h.winning
    assert check_solution(deal, [str(m) for m in played] + h.line).valid
    for entry in h.moves:
        again = solve(deal, after=played + [parse_move(entry["move"])], longest=False)
        assert again.verdict == entry["verdict"]


def test_a_lost_deal_loses_with_every_move():
    h = hint(deal_from_seed(2), [])
    assert h.verdict == "lost" and h.moves and h.winning == [] and h.line == []
    assert all(m["verdict"] == "lost" for m in h.moves)


def test_critical_moves_are_the_only_winning_choice():
    deal = deal_from_seed(1)
    h = hint(deal, [], variant="wild-dragons", critical=True)
    assert h.verdict == "won" and h.critical
    line = [parse_move(m) for m in h.line]
    assert check_solution(deal, line, variant="wild-dragons").valid
    checked = 0
    for c in h.critical:
        assert c["critical"] is True and c["move"] == str(line[c["number"] - 1])
        if c["number"] < 138:
            continue
        state = replay(deal, line[:c["number"] - 1], variant="wild-dragons")
        mine = line[c["number"] - 1]
        for move in state.legal_moves():
            if (TILES[move.tile].kind, move.pos) == (TILES[mine.tile].kind, mine.pos):
                continue     # the solution's own choice (any face of its kind)
            child = state.clone()
            child.apply(move)
            assert not _wins_by_brute_force(child), (c, str(move))
            checked += 1
    assert checked >= 1


def test_the_command(tmp_path):
    runner = CliRunner()
    deal = deal_from_seed(42)
    moves = tmp_path / "moves.txt"
    moves.write_text("\n".join(str(m) for m in solve(deal).moves[:10]))
    out = runner.invoke(cli, ["pyramid", "hint", "--seed", "42", "--moves", str(moves), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["game"] == "pyramid" and data["played"] == 10 and data["verdict"] == "won"
    assert data["critical"] is None and set(data["winning"]) <= {m["move"] for m in data["moves"]}
    text = runner.invoke(cli, ["pyramid", "hint", "--seed", "2"])
    assert text.exit_code == 0 and "lost" in text.output and "legal moves lose" in text.output
    moves.write_text("9B@1e5\n")
    bad = runner.invoke(cli, ["pyramid", "hint", "--seed", "2", "--moves", str(moves)])
    assert bad.exit_code == 2 and "not in the reserves" in bad.output
    moves.write_text("garbage\n")
    wrong = runner.invoke(cli, ["pyramid", "hint", "--seed", "2", "--moves", str(moves)])
    assert wrong.exit_code == 2 and "no move" in wrong.output, wrong.output
    moves.write_text("# nothing played yet\n\n")
    none = runner.invoke(cli, ["pyramid", "hint", "--seed", "2", "--moves", str(moves), "--json"])
    assert none.exit_code == 0 and json.loads(none.output)["played"] == 0
