"""Continuum speed: compiled against pure Python in the same run.

python -m pytest -q bench/bench_continuum.py

The strong-vs-strong sweep (the closing note's first-seat win rate) runs only
when asked, with the number of games (seeds 0..N-1) in an environment variable;
games go through the shared loop (solver.playout.play_out) and are summarised
by solver.stats.playout_summary; it prints one JSON summary and writes it to
CONTINUUM_SWEEP_OUT if set:

CONTINUUM_SWEEP=10000 python -m pytest -q -s bench/bench_continuum.py -k sweep
"""
import json
import os
import sys
import time

import pytest

from solver.cext import continuum as C
from solver.continuum.codec import row_key
from solver.continuum.codec import key_row
from solver.continuum.contract import ENTRY
from solver.continuum.game import Continuum
from solver.continuum.options import card_options, reference_card_options
from solver.continuum.pieces import own_pyramids
from solver.continuum.rules import apply, legal_moves, start_row, successors
from solver.continuum.search import mask, solve_puzzle
from solver.games import seat_policies
from solver.playout import play_out
from solver.rng import SplitMix64
from solver.stats import playout_summary

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


def play(seed, policies, max_moves=ENTRY.max_moves):
    """One game through the shared loop; the row (a dict) with the turns begun."""
    game, box = Continuum(), {}
    out = play_out(game, seat_policies("continuum", game, list(policies)), seed=seed, max_moves=max_moves,
                   on_move=lambda state, move: box.setdefault("state", state))
    row = out.to_dict()
    row.update(seed=seed, policies=list(policies), turns=box["state"].turns if box else 0)
    row.pop("line")
    return row


def test_playouts_random(benchmark):
    benchmark.pedantic(lambda: [play(s, ("random", "random"), max_moves=300) for s in range(3)],
                       rounds=1, iterations=1)


def test_card_options_reference(benchmark):
    benchmark(lambda: sum(len(reference_card_options(r, "A", "5h")) for r in ROWS[:40]))


def test_card_options_compiled(benchmark):
    benchmark(lambda: sum(len(card_options(k, "A", "5h")) for k in KEYS[:40]))


def test_playouts_strong(benchmark):
    benchmark.pedantic(lambda: [play(s, ("puzzle", "puzzle")) for s in range(20)],
                       rounds=1, iterations=1)


def sweep(games: int, *, first: int = 0, policies=("puzzle", "puzzle"), games_out=None) -> dict:
    """Seeds first..first+games-1 with the given policies; the summary plus
    timing.  ``games_out``: a file to append one JSON line per game (seed,
    winner, outcome, length in moves, turns), so that ranges run apart can be
    summarised together (``python -m bench.bench_continuum --combine FILE...``)."""
    t0 = time.perf_counter()
    rows = []
    for s in range(first, first + games):
        row = play(s, policies)
        rows.append(row)
        if games_out:
            with open(games_out, "a") as f:
                f.write(json.dumps(row) + "\n")
    out = summarise(rows)
    out["seconds"] = round(time.perf_counter() - t0, 1)
    out["games_per_second"] = round(games / out["seconds"], 2)
    return out


def summarise(rows) -> dict:
    """playout_summary (wins by seat, Wilson intervals, lengths in moves) plus
    the finished games' turns by tens."""
    out = playout_summary(rows)
    hist = {}
    for r in rows:
        if r["outcome"] == "finished":
            b = min(r["turns"] // 10 * 10, 200)
            hist[b] = hist.get(b, 0) + 1
    out["turns_histogram_by_10"] = {f"{b}-{b + 9}" if b < 200 else "200+": hist[b] for b in sorted(hist)}
    return out


@pytest.mark.skipif(not os.environ.get("CONTINUUM_SWEEP"), reason="set CONTINUUM_SWEEP=N to run")
def test_sweep_strong_vs_strong():
    out = sweep(int(os.environ["CONTINUUM_SWEEP"]), first=int(os.environ.get("CONTINUUM_SWEEP_FIRST", 0)),
                games_out=os.environ.get("CONTINUUM_SWEEP_GAMES"))
    text = json.dumps(out)
    print(text)
    if os.environ.get("CONTINUUM_SWEEP_OUT"):
        with open(os.environ["CONTINUUM_SWEEP_OUT"], "w") as f:
            f.write(text + "\n")
    assert out["games"] == int(os.environ["CONTINUUM_SWEEP"])


def combine(paths) -> dict:
    """One summary of the per-game lines written by several ``sweep`` runs."""
    games = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                g = json.loads(line)
                games[g["seed"]] = g
    rows = [games[s] for s in sorted(games)]
    out = summarise(rows)
    out["seeds"] = [rows[0]["seed"], rows[-1]["seed"]] if rows else None
    return out


if __name__ == "__main__":
    if sys.argv[1:2] == ["--combine"]:
        print(json.dumps(combine(sys.argv[2:])))
    else:
        print(json.dumps(sweep(int(sys.argv[1]) if len(sys.argv) > 1 else 100)))
