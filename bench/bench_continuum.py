"""Continuum speed: compiled against pure Python in the same run.

python -m pytest -q bench/bench_continuum.py
"""
from cext import continuum as C
from solver.continuum.codec import row_key
from solver.continuum.game import play_game
from solver.continuum.pieces import own_pyramids
from solver.continuum.rules import apply, legal_moves, start_row, successors
from solver.continuum.search import mask, solve_puzzle
from solver.rng import SplitMix64

ALL = frozenset(range(12))


def _rows(n=2000, seed=9):
    rng, row, out = SplitMix64(seed), start_row(), []
    for _ in range(n):
        moves = legal_moves(row, ALL, kings=True)
        row = apply(row, moves[rng.below(len(moves))][0])
        out.append(row)
    return out


ROWS = _rows()
KEYS = [row_key(r) for r in ROWS]


def test_successors_reference(benchmark):
    benchmark(lambda: sum(len(successors(r, ALL)) for r in ROWS))


def test_successors_compiled(benchmark):
    benchmark(C.count_successors, KEYS, mask(ALL), False)


def test_puzzle_start_pips(benchmark):
    res = benchmark(solve_puzzle, start_row(), player="A")
    assert res.verdict == "solved"


def test_puzzle_start_moves(benchmark):
    res = benchmark(solve_puzzle, start_row(), player="A", cost="moves")
    assert res.verdict == "solved"


def test_playouts_random(benchmark):
    benchmark.pedantic(lambda: [play_game(s, policies=("random", "random"), max_turns=200)
                                for s in range(3)], rounds=1, iterations=1)
