"""The compiled checker (cext/pyramid_check.pyx) against the reference rules.

Every deal the Pyramid tests use (seeds 0-80, 95, 6058, 7260), both variants:
the search's solution and the greedy blind line, each replayed by both
checkers, then broken at random moves (a tile not in the reserves, a filled or
closed position, a tile that fits nothing): both must stop at the same move
for the same reason.  The kernel shares nothing with the search kernel.
"""
import random

import pytest

from solver.cext import pyramid_check as compiled
from solver.pyramid.blind import Greedy, play
from solver.pyramid.check import check_solution, name_and_check
from solver.pyramid.deal import deal_from_seed
from solver.pyramid.rules import Move
from solver.pyramid.search import VARIANT_CODES, faces_for_line, solve
from solver.pyramid.tiles import TILES

SEEDS = list(range(0, 81)) + [95, 6058, 7260]


def _agree(deal, moves, variant):
    """Both checkers on ``moves`` (Move objects): same verdict, same stop, same reason."""
    ref = check_solution(deal, moves, variant=variant)
    played, error = compiled.check_moves(deal.faces, [(m.tile, m.pos) for m in moves], VARIANT_CODES[variant])
    if error is None:
        assert ref.error_index is None and ref.moves_played == played == len(moves), (ref, played)
        return ref.valid
    number, reason = error
    assert (ref.error_index, ref.moves_played) == (number, played)
    assert ref.error == f"move {number} {moves[number - 1]}: {reason}"
    return False


def _lines(deal, variant):
    lines = [faces_for_line(deal, play(deal, Greedy(), variant=variant).moves)[0]]
    result = solve(deal, variant=variant, node_limit=200_000)
    if result.verdict == "won":
        lines.append(result.moves)
    return lines


@pytest.mark.parametrize("variant", sorted(VARIANT_CODES))
def test_compiled_checker_agrees_with_reference(variant):
    rnd = random.Random(14)
    kinds = {"valid": 0, "broken": 0}
    for seed in SEEDS:
        deal = deal_from_seed(seed)
        for line in _lines(deal, variant):
            if _agree(deal, line, variant):
                kinds["valid"] += 1
            for _ in range(4):
                i = rnd.randrange(len(line))
                broken = line[:i] + [Move(rnd.randrange(38), rnd.randrange(144))] + line[i + 1:]
                kinds["broken"] += not _agree(deal, broken, variant)
    assert kinds["valid"] > 50 and kinds["broken"] > 500, kinds


def test_name_and_check_matches_face_naming():
    """The compiled naming takes the lowest slot of each kind, as faces_for_line does."""
    for seed in SEEDS[:30]:
        deal = deal_from_seed(seed)
        result = solve(deal, node_limit=200_000)
        if result.verdict != "won":
            continue
        kind_line = [(TILES[m.tile].kind, m.pos) for m in result.moves]
        text, slots, report = name_and_check(deal, kind_line)
        moves, ref_slots = faces_for_line(deal, kind_line)
        assert report.valid and text == [str(m) for m in moves] and slots == ref_slots == result.slots


def test_name_and_check_rejects():
    deal = deal_from_seed(1)
    text, slots, report = name_and_check(deal, [(8, 38), (8, 38)])
    assert not report.valid and report.error_index == 2 and text == ["9B@1e5"]
    with pytest.raises(ValueError):
        name_and_check(deal, [(30, 0)])
    with pytest.raises(ValueError):
        compiled.check_moves(deal.faces[:100], [])
