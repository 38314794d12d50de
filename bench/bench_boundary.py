"""Boundary perft: compiled engine against the pure-Python reference, same run.

Run: ``python -m pytest -q bench/bench_boundary.py``.  The compiled perft
counts leaves in bulk (the last ply counts legal moves without playing them),
the reference plays every move.  ``test_report_ratio`` prints nodes per second
of both and their ratio.
"""
import time

from solver.cext.boundary import Board
from solver.boundary.rules import Position, perft
from solver.boundary.search import solve
from solver.game import Limits

START = Position.start()
FINAL = "Gl+Gm+Gs1r2Rl/4Rm1/4gRs/2Ys3/g1YmBs2/Yl3rBl+Bm r"


def test_perft4_compiled(benchmark):
    board = Board.from_position(START)
    assert benchmark(board.perft, 4) == 8938442


def test_perft2_reference(benchmark):
    assert benchmark.pedantic(perft, args=(START, 2), rounds=3) == 1820


def test_solve_final_position(benchmark):
    out = benchmark.pedantic(solve, args=(FINAL,), kwargs={"max_depth": 8, "limits": Limits(time_limit=60)},
                             rounds=2)
    assert (out.verdict, out.fields["plies"]) == ("lost", 4) and out.line[0] == "(e1-f2)(e5-f6)"


def _rate(fn, nodes):
    t = time.perf_counter()
    assert fn() == nodes
    return nodes / (time.perf_counter() - t)


def test_report_ratio(capsys):
    board = Board.from_position(START)
    fast = max(_rate(lambda: board.perft(5), 711005018) for _ in range(1))
    slow = _rate(lambda: perft(START, 3), 129094)
    with capsys.disabled():
        print(f"\nperft start: compiled depth 5 {fast / 1e6:.1f} M leaves/s (bulk), "
              f"reference depth 3 {slow / 1e3:.1f} k leaves/s, ratio {fast / slow:.0f}x")
    assert fast > slow
