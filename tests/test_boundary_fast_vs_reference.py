"""The compiled engine against the pure-Python reference on random positions.

Positions come from seeded random play (solver.boundary.rules.random_line)
and from seeded endgames (solver.boundary.endgames), where wins are near.
"""
import pytest

from solver.cext.boundary import Board
from solver.boundary.rules import canonical, random_line
from solver.boundary.endgames import endgame
from solver.boundary.rules import Position, divide, perft


def _positions(seeds, plies):
    for seed in seeds:
        for pos, move in random_line(seed, plies):
            yield pos, move


def _same(board: Board, pos: Position):
    assert board.hash == pos.key()
    assert board.stacks() == pos.stacks
    assert board.stones() == pos.stones
    assert board.side == pos.side
    assert board.winner() == pos.winner()


def test_same_moves_and_results_along_random_games():
    checked = 0
    for pos, move in _positions(range(8), 250):
        board = Board.from_position(pos)
        _same(board, pos)
        assert canonical(board.legal_moves()) == canonical(pos.legal_moves())
        assert board.count_moves() == len(pos.legal_moves())
        board.push(move)
        child = pos.clone()
        child.apply(move)
        _same(board, child)
        board.pop()
        _same(board, pos)
        checked += 1
    assert checked >= 2000


def test_make_unmake_every_move_restores_the_position():
    for pos, _move in _positions(range(100, 104), 60):
        board = Board.from_position(pos)
        for m in pos.legal_moves():
            board.push(m)
            child = pos.clone()
            child.apply(m)
            assert board.hash == child.key()
            board.pop()
        _same(board, pos)


def test_same_terminal_verdicts_on_endgames():
    wins = 0
    for seed in range(400):
        pos = endgame(seed)
        board = Board.from_position(pos)
        _same(board, pos)
        moves = pos.legal_moves()
        assert canonical(board.legal_moves()) == canonical(moves)
        for m in moves:
            child = pos.clone()
            child.apply(m)
            board.push(m)
            assert board.winner() == child.winner()
            assert board.legal_moves() == [] or child.winner() is None
            wins += child.winner() is not None
            board.pop()
    assert wins > 0, "the endgames must reach some wins"


def test_perft_start_depths_1_to_3_agree():
    start = Position.start()
    board = Board.from_position(start)
    assert [board.perft(d) for d in (1, 2, 3)] == [perft(start, d) for d in (1, 2, 3)] \
        == [42, 1820, 129094]


def test_perft_and_divide_agree_on_random_positions():
    for i, (pos, _move) in enumerate(_positions(range(200, 203), 40)):
        if i % 10 == 0:
            assert Board.from_position(pos).perft(2) == perft(pos, 2)
    pos = endgame(7)
    assert dict(Board.from_position(pos).divide(2)) == dict(divide(pos, 2))


def test_won_position_counts_as_leaf_only_at_last_depth():
    for seed in range(20):
        pos = endgame(seed)
        board = Board.from_position(pos)
        for d in (1, 2):
            assert board.perft(d) == perft(pos, d)
