"""Play the record's deep positions out, to see what they are (docs/boundary.md,
"What 6 and 10-12 back are").

    nice python bench/boundary_selfplay.py BACK RED GREEN [NODES] [MAXPLIES]

``RED``/``GREEN`` are ``engine`` (``bestmove`` within NODES nodes, no time limit: a game
replays exactly), ``defender`` or ``attacker`` (the proof search within NODES nodes: a
proven win is played, a proven loss plays the longest defence; else the defender plays
the move that answered the deepest loss question "no" (``hold``), the attacker the
engine's move within a quarter of the nodes).  A third occurrence of a position (same side to move) ends the game as
a draw (rules/boundary.md); the cycle is printed: the moves between the first and the
third occurrence, and the squares each piece shuttles between.
"""
import sys
import time
from collections import Counter

from solver.boundary.engine import bestmove
from solver.boundary.notation import format_move, format_position
from solver.boundary.rules import PLAYER_NAMES, Position
from solver.cext.boundary import Board

RECORD = "/work/shared/seeds/boundary.txt"


def record_position(back: int) -> Position:
    from pathlib import Path
    from solver.boundary.replay import replay_text
    return replay_text(Path(RECORD).read_text()).positions[-1 - back]


def engine_move(pos: Position, nodes: int):
    out = bestmove(pos, node_limit=nodes, max_depth=60)
    return out.move_tuple, f"engine d{out.depth} {out.score_text}"


def prover_move(pos: Position, nodes: int, defend: bool):
    out = Board.from_position(pos).search(max_depth=60, node_limit=nodes)
    if out["result"] in ("win", "loss", "draw") and out["best"] is not None:
        return out["best"], f"proof {out['result']} in {out['plies']} (d{out['depth']})"
    if defend and out["hold"] is not None:
        return out["hold"], f"hold: not lost within {out['depth'] - out['depth'] % 2} (d{out['depth']})"
    move, text = engine_move(pos, nodes // 4)
    return move, f"{text}; proof d{out['depth']}"


def play(start: Position, players, nodes: int, max_plies: int):
    """The game from ``start``: (result text, moves, positions)."""
    pos = start.clone()
    seen = Counter([pos.key()])
    keys, moves = [pos.key()], []
    for ply in range(max_plies):
        if pos.winner() is not None:
            return f"{PLAYER_NAMES[pos.winner()]} wins", moves, keys
        if not pos.legal_moves():
            return f"{PLAYER_NAMES[1 - pos.side]} wins (no move)", moves, keys
        t = time.process_time()
        kind = players[pos.side]
        if kind == "engine":
            move, text = engine_move(pos, nodes)
        else:
            move, text = prover_move(pos, nodes, defend=kind == "defender")
        cpu = time.process_time() - t
        print(f"{ply + 1:3d} {PLAYER_NAMES[pos.side]:5s} {format_move(move):18s} {text}  "
              f"[{cpu:.1f} CPU s]", flush=True)
        pos.apply(move)
        moves.append(move)
        keys.append(pos.key())
        seen[pos.key()] += 1
        if seen[pos.key()] == 3:
            return "draw by the third repetition", moves, keys
    return "unfinished", moves, keys


def cycle(moves, keys):
    """The moves from the first to the third occurrence of the last position."""
    first = keys.index(keys[-1])
    return moves[first:]


def main():
    back, red, green = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    nodes = int(sys.argv[4]) if len(sys.argv) > 4 else 2_000_000
    max_plies = int(sys.argv[5]) if len(sys.argv) > 5 else 120
    start = record_position(back)
    print(f"{back} back: {format_position(start)}; Red {red}, Green {green}, {nodes} nodes a move")
    t = time.process_time()
    result, moves, keys = play(start, {0: red, 1: green}, nodes, max_plies)
    print(f"result: {result} after {len(moves)} plies, {time.process_time() - t:.1f} CPU s")
    if result.startswith("draw"):
        cyc = cycle(moves, keys)
        print(f"cycle ({len(cyc)} plies from the first occurrence): "
              + " ".join(format_move(m) for m in cyc))


if __name__ == "__main__":
    main()
