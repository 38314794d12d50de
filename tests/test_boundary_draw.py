"""A proven draw on a constructed position, and the same position's draw not
mistaken for a win (docs/boundary.md, "A constructed draw").

``DRAWN`` is built so that each side has exactly one move, a medium toggling
on a middle file, and everything else is frozen:

- West: Red's two smalls stacked on a1, walled by the Green stone on a2 and
  Green's b1 and b2; the Green stone cannot move (a1 is Red's base, a3 holds
  Red's stone, b1-b3 are full) and Red's stone cannot complete any move (Red's
  only West pyramids are under and on the walled a1 stack).  Green's b1-b3 move
  only up or down the b-file and are blocked; Green's medium toggles b4 <-> b6
  (the large on b3 cannot rise: b4 holds the medium or b6 does).
- East: the same, reflected file for file with the colours swapped: Red's
  medium toggles e4 <-> e6.

So the whole game from here is the four positions of the two toggles; no side
can ever be left without a move or complete an exchange, and the search must
prove ``draw``.  ``NEAR_MISS`` moves Red's yellow small from the a1 stack to
c3: it walks to b5 in two moves and leaves Green without a move (Red wins in 3).
"""
from collections import deque

import pytest
from click.testing import CliRunner

import solver.cli.main
from solver.boundary.notation import format_move, format_position, parse_position
from solver.boundary.reference_search import reference_solve
from solver.boundary.rules import Position
from solver.boundary.search import solve
from solver.cext.boundary import DEFAULT_OPTS, OPTIONS, Board
from solver.game import Limits

DRAWN = "6/6/1Gm2Rm1/rGl2Rlg/gBm2Ymr/Rs+YsBl2YlGs+Bs r"
NEAR_MISS = "6/6/1Gm2Rm1/rGlYs1Rlg/gBm2Ymr/RsBl2YlGs+Bs r"


def _green_to_move(position):
    return position[:-1] + "g"


def _game_graph(position, cap=100):
    """Every position reachable from ``position`` under the reference rules
    (``None`` past ``cap``), each with its legal moves and their results."""
    start = parse_position(position)
    graph, todo = {}, deque([start])
    seen = {start.key(): start}
    while todo:
        pos = todo.popleft()
        children = []
        for move in pos.legal_moves():
            child = pos.play(move)
            children.append(child.key())
            if child.key() not in seen:
                if len(seen) >= cap:
                    return None
                seen[child.key()] = child
                todo.append(child)
        graph[pos.key()] = (pos, children)
    return graph


def _retrograde(graph):
    """Game values by retrograde analysis: +1 the side to move wins, -1 loses,
    0 neither can force a win (play goes on for ever: a draw by repetition)."""
    value, left, parents = {}, {}, {k: [] for k in graph}
    for k, (_pos, children) in graph.items():
        left[k] = len(children)
        for c in children:
            parents[c].append(k)
    todo = deque(k for k, (pos, children) in graph.items() if not children)
    for k in todo:
        value[k] = -1                    # won by the mover, or no move: lost
    while todo:
        k = todo.popleft()
        for p in parents[k]:
            if p in value:
                continue
            if value[k] == -1:
                value[p] = 1
                todo.append(p)
            else:
                left[p] -= 1
                if left[p] == 0:
                    value[p] = -1
                    todo.append(p)
    return {k: value.get(k, 0) for k in graph}


@pytest.mark.parametrize("position", [DRAWN, _green_to_move(DRAWN)])
def test_the_constructed_position_is_a_draw_by_the_rules(position):
    # independent of every search: the whole game graph, by the reference rules
    graph = _game_graph(position)
    assert graph is not None and len(graph) == 4
    assert all(len(children) == 1 for _pos, children in graph.values())
    assert all(pos.winner() is None for pos, _children in graph.values())
    values = _retrograde(graph)
    assert set(values.values()) == {0}


@pytest.mark.parametrize("position, holding", [(DRAWN, "(e4-e6)"),
                                                (_green_to_move(DRAWN), "(b4-b6)")])
def test_solve_proves_the_draw_with_its_holding_move(position, holding):
    result = solve(position, limits=Limits(time_limit=30))
    assert result.verdict == "draw" and result.limit is None
    assert result.line == [holding]
    assert result.fields["plies"] is None
    assert result.fields["depth"] < result.fields["max_depth"]      # proven, not a cap


def test_the_kernel_claims_the_draw_only_after_a_clean_search():
    board = Board.from_position(parse_position(DRAWN))
    out = board.search(max_depth=40)
    assert out["result"] == "draw" and out["limit"] is None
    assert format_move(out["best"]) == format_move(out["hold"]) == "(e4-e6)"
    assert out["stats"]["horizon_hits"] == 0 and out["stats"]["rep_hits"] > 0
    # the exchange bound hides nothing it cannot see past: the draw waits until the
    # horizon is beyond both exchanges, so a shallower search must not claim it
    assert out["depth"] >= 2 * min(board.exchange_bound(0), board.exchange_bound(1))
    short = Board.from_position(parse_position(DRAWN)).search(max_depth=out["depth"] - 1)
    assert short["result"] == "unknown" and short["limit"] == "depth"


@pytest.mark.parametrize("technique", ["none", *sorted(OPTIONS)])
@pytest.mark.parametrize("switch", ["off", "on"])
def test_the_draw_is_never_a_win_whatever_the_techniques(technique, switch):
    if technique == "none":
        opts = 0 if switch == "off" else DEFAULT_OPTS
    elif switch == "off":
        opts = DEFAULT_OPTS & ~OPTIONS[technique]
    else:
        opts = DEFAULT_OPTS | OPTIONS[technique]
    for position in (DRAWN, _green_to_move(DRAWN)):
        out = Board.from_position(parse_position(position)).search(max_depth=40, opts=opts)
        assert out["result"] == "draw", (technique, switch, position)


def test_a_plain_search_needs_the_whole_cycle():
    # without the bound the four-ply cycle is the horizon: depth 3 meets it, depth 4 closes it
    def plain(depth):
        return Board.from_position(parse_position(DRAWN)).search(max_depth=depth, opts=0)
    assert plain(3)["result"] == "unknown" and plain(4)["result"] == "draw"


@pytest.mark.parametrize("bound", [False, True])
def test_the_reference_search_agrees(bound):
    out = reference_solve(parse_position(DRAWN), max_depth=8, bound=bound)
    assert out["result"] == "draw" and format_move(out["best"]) == "(e4-e6)"


def test_the_cli_answers_draw():
    res = CliRunner().invoke(solver.cli.main.solve,
                             ["boundary", "solve", "--position", DRAWN, "--json"])
    assert res.exit_code == 0, res.output
    import json
    out = json.loads(res.output)
    assert out["verdict"] == "draw" and out["limit"] is None and out["line"] == ["(e4-e6)"]


# -- the near miss: the same fortress with one Red small outside it -----------

def test_the_near_miss_differs_from_the_draw_by_one_small():
    drawn, near = parse_position(DRAWN), parse_position(NEAR_MISS)
    moved = [s for s in range(36) if drawn.stacks[s] != near.stacks[s]]
    assert [format_position(p) for p in (drawn, near)] == [DRAWN, NEAR_MISS]
    assert len(moved) == 2 and drawn.stones == near.stones
    assert _game_graph(NEAR_MISS, cap=100) is None                  # it breaks out


def test_the_near_miss_is_a_win_for_red_in_three():
    result = solve(NEAR_MISS, limits=Limits(time_limit=30))
    assert result.verdict == "won" and result.fields["plies"] == 3
    # the line is legal and leaves Green without a move
    pos = parse_position(NEAR_MISS)
    for text in result.line:
        move = next(m for m in pos.legal_moves() if format_move(m) == text)
        pos = pos.play(move)
    assert len(result.line) == 3 and pos.side == 1 and not pos.legal_moves()


@pytest.mark.parametrize("technique", ["none", *sorted(OPTIONS)])
def test_the_near_miss_is_a_win_whatever_the_techniques(technique):
    opts = 0 if technique == "none" else DEFAULT_OPTS & ~OPTIONS[technique]
    out = Board.from_position(parse_position(NEAR_MISS)).search(max_depth=40, opts=opts)
    assert (out["result"], out["plies"]) == ("win", 3), technique


def test_the_near_miss_by_the_reference():
    out = reference_solve(parse_position(NEAR_MISS), max_depth=3)
    assert (out["result"], out["plies"]) == ("win", 3)
    after = parse_position(NEAR_MISS).play(out["best"])
    assert reference_solve(after, max_depth=2)["result"] == "loss"


def test_positions_are_checked_like_any_other():
    # the constructed positions are legal positions: they round-trip and validate
    for text in (DRAWN, NEAR_MISS):
        assert isinstance(parse_position(text), Position)
        assert format_position(parse_position(text)) == text
