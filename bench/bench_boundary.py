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


# -- the proof search on the record's positions (docs/boundary.md, the table) ---------------

RECORD = "/work/shared/seeds/boundary.txt"


def _record_position(back):
    from pathlib import Path
    from solver.boundary.replay import replay_text
    return replay_text(Path(RECORD).read_text()).positions[-1 - back]


def test_proof_search_record_4_back(benchmark):
    """Red to move loses in 8: the proof search's nodes per second."""
    board = Board.from_position(_record_position(4))
    out = benchmark.pedantic(board.search, kwargs={"max_depth": 40, "time_limit": 60}, rounds=1)
    assert (out["result"], out["plies"]) == ("loss", 8)


def test_report_techniques(capsys):
    """Each technique switched off in turn (and the others switched on) on the record 4
    plies back (``BOUNDARY_BACK=5`` for 5): nodes, wall and CPU seconds against the
    default, within 60 s each (CPU seconds: what the search itself took on the shared
    machine)."""
    import os
    from solver.cext.boundary import DEFAULT_OPTS, OPTIONS
    pos = _record_position(int(os.environ.get("BOUNDARY_BACK", "4")))
    rows = []
    for name, opts in [("default", DEFAULT_OPTS)] + [
            (f"-{k}", DEFAULT_OPTS & ~v) for k, v in OPTIONS.items() if DEFAULT_OPTS & v] + [
            (f"+{k}", DEFAULT_OPTS | v) for k, v in OPTIONS.items() if not DEFAULT_OPTS & v]:
        t, cpu = time.perf_counter(), time.process_time()
        out = Board.from_position(pos).search(max_depth=40, time_limit=60, opts=opts)
        dt, dcpu = time.perf_counter() - t, time.process_time() - cpu
        rows.append((name, out["result"], out["plies"], out["nodes"], dt, dcpu))
    with capsys.disabled():
        base = rows[0]
        for name, result, plies, nodes, dt, dcpu in rows:
            print(f"\n{name:10s} {result:8s} {plies!s:4s} {nodes:>11,d} nodes {dt:6.2f} s "
                  f"{dcpu:6.2f} s CPU ({nodes / max(dcpu, 1e-9) / 1e6:.2f} M nodes/s CPU; "
                  f"x{dcpu / base[5]:.1f} CPU time)", end="")
        print()
    assert rows[0][1] in ("loss", "win")


def test_report_record(capsys):
    """The record's positions counted back from the final one (docs/boundary.md, the
    table): ``BOUNDARY_BACKS`` (``0-12``) each within ``BOUNDARY_TIME`` seconds (60) of wall
    time, with the default options changed by ``BOUNDARY_OPTS`` (``-zone,+etc``): answer,
    nodes, wall and CPU seconds, depth completed, load average.  ``BOUNDARY_DFPN=7``: the
    same questions by df-pn with that leaf depth (``BOUNDARY_EPS``, 0.25)."""
    import os
    first, _, last = os.environ.get("BOUNDARY_BACKS", "0-12").partition("-")
    limit = float(os.environ.get("BOUNDARY_TIME", "60"))
    opts = _opts_from_env()
    leaf = os.environ.get("BOUNDARY_DFPN")
    eps = float(os.environ.get("BOUNDARY_EPS", "0.25"))
    rows = []
    for back in range(int(first), int(last or first) + 1):
        pos = _record_position(back)
        t, cpu = time.perf_counter(), time.process_time()
        if leaf is not None:
            from solver.cext.boundary import _solve_dfpn
            out = _solve_dfpn(Board.from_position(pos), 40, limit, 0, 64, int(leaf), eps, opts)
        else:
            out = Board.from_position(pos).search(max_depth=40, time_limit=limit, opts=opts)
        dt, dcpu = time.perf_counter() - t, time.process_time() - cpu
        answer = (f"{out['result']} in {out['plies']}" if out["plies"] is not None
                  else f"{out['result']} ({out['limit']})")
        rows.append(f"| {back} | {'Red' if pos.side == 0 else 'Green'} | {answer} | "
                    f"{out['nodes']:,} | {dt:.2f} | {dcpu:.2f} | {out['depth']} | "
                    f"{os.getloadavg()[0]:.1f} |")
    with capsys.disabled():
        print("\n" + "\n".join(rows))
    assert rows


def _opts_from_env():
    """The default options changed by ``BOUNDARY_OPTS`` (``-zone,+etc``)."""
    import os
    from solver.cext.boundary import DEFAULT_OPTS, OPTIONS
    opts = DEFAULT_OPTS
    for change in filter(None, os.environ.get("BOUNDARY_OPTS", "").split(",")):
        bit = OPTIONS[change[1:]]
        opts = opts | bit if change[0] == "+" else opts & ~bit
    return opts


def test_report_depths(capsys):
    """Where a record position's time goes (docs/boundary.md, "Why 6 and 10 back are
    harder"): each depth's null-window question on ``BOUNDARY_BACK`` (6) up to
    ``BOUNDARY_DEPTH`` (16), ``BOUNDARY_TIME`` (60) seconds each, a table of
    ``BOUNDARY_MB`` (64) MiB: answer, nodes, CPU s, printed as each question ends (so that
    a run stopped by ``prlimit --cpu=60`` shows how far it got).  ``BOUNDARY_POSITION``
    (a position string) replaces the record's position."""
    import os
    from solver.boundary.notation import parse_position
    from solver.cext.boundary import Search
    mate = 10000
    pos = (parse_position(os.environ["BOUNDARY_POSITION"]) if os.environ.get("BOUNDARY_POSITION")
           else _record_position(int(os.environ.get("BOUNDARY_BACK", "6"))))
    limit = float(os.environ.get("BOUNDARY_TIME", "60"))
    search = Search(Board.from_position(pos), int(os.environ.get("BOUNDARY_MB", "64")), 0,
                    _opts_from_env())
    start = time.process_time()
    answers = []
    for depth in range(1, int(os.environ.get("BOUNDARY_DEPTH", "16")) + 1):
        alpha = mate - depth - 1 if depth % 2 else -(mate - depth)
        nodes, cpu = search.nodes, time.process_time()
        v = search.run(depth, alpha, alpha + 1, limit, 0)
        answer = "limit" if v is None else ("yes" if abs(v) > mate - 1000 else "no")
        question = "win" if depth % 2 else "loss"
        with capsys.disabled():
            print(f"\n{question} within {depth}? {answer}: {search.nodes - nodes:,} nodes "
                  f"{time.process_time() - cpu:.2f} CPU s (in all {time.process_time() - start:.1f}; "
                  f"load {os.getloadavg()[0]:.1f})", end="", flush=True)
        answers.append(answer)
        if answer != "no":
            break
    assert answers


def test_report_children(capsys):
    """Each move of ``BOUNDARY_BACK`` (6): the child searched to ``BOUNDARY_DEPTH`` (13)
    within ``BOUNDARY_TIME`` (3) seconds; how many answers of each kind, and the moves
    whose child is not a proven win for the opponent."""
    import os
    from collections import Counter
    from solver.boundary.notation import format_move
    pos = _record_position(int(os.environ.get("BOUNDARY_BACK", "6")))
    depth = int(os.environ.get("BOUNDARY_DEPTH", "13"))
    limit = float(os.environ.get("BOUNDARY_TIME", "3"))
    rows, kinds, cpu = [], Counter(), time.process_time()
    for move in pos.legal_moves():
        out = Board.from_position(pos.play(move)).search(max_depth=depth, time_limit=limit,
                                                         opts=_opts_from_env())
        kinds[(out["result"], out["plies"])] += 1
        if out["result"] != "win":
            rows.append(f"{format_move(move)}: {out['result']} ({out['limit']}), depth {out['depth']}")
    with capsys.disabled():
        print(f"\n{dict(kinds)} in {time.process_time() - cpu:.1f} CPU s\n" + "\n".join(rows))
    assert kinds


def test_report_stone_variants(capsys):
    """The disproofs' groups of Green moves (docs/boundary.md, "The disproofs at the
    attacker's nodes"): at Green's nodes two and three moves from its exchange reached by
    seeded random lines from the record 6 and 10 back, the bound-lowering moves, the
    distinct pyramid moves among them (the stone variants grouped) and the pyramids; then,
    at the nodes three moves away where Green does not win within 5, whether Red's first
    hold after a group's first variant also holds after the others."""
    import random
    from solver.cext.boundary import improving_moves

    def green_wins(board, depth):
        return board.search(max_depth=depth, tt_mb=4)["result"] == "win"

    def first_hold(board):
        for h in board.legal_moves():
            board.push(h)
            ok = board.winner() is None and not green_wins(board, 3)
            board.pop()
            if ok:
                return h
        return None

    def holds_after(board, m, h):
        board.push(m)
        ok = h in board.legal_moves()
        if ok:
            board.push(h)
            ok = board.winner() is None and not green_wins(board, 3)
            board.pop()
        board.pop()
        return ok

    rng = random.Random(1)
    counts = {2: [0, 0, 0, 0], 3: [0, 0, 0, 0]}
    nodes = groups = shared = variants = vshared = 0
    seen = set()
    for back in (6, 10):
        for _ in range(300):
            board = Board.from_position(_record_position(back))
            for _ply in range(10):
                if board.winner() is not None or not board.legal_moves():
                    break
                moves = board.legal_moves()
                imp = improving_moves(board) if board.side == 1 else []
                lb = board.exchange_bound(1)
                if imp and lb in counts:
                    c = counts[lb]
                    c[0] += 1
                    c[1] += len(imp)
                    c[2] += len({(m[2], m[3]) for m in imp})
                    c[3] += len({m[2] for m in imp})
                if (imp and lb == 3 and board.exchange_bound(0) >= 3 and board.hash not in seen
                        and not green_wins(board, 5)):
                    seen.add(board.hash)
                    nodes += 1
                    by = {}
                    for m in imp:
                        by.setdefault((m[2], m[3]), []).append(m)
                    for group in (g for g in by.values() if len(g) > 1):
                        groups += 1
                        board.push(group[0])
                        h = first_hold(board)
                        board.pop()
                        ok = [h is not None and holds_after(board, m, h) for m in group[1:]]
                        variants += len(ok)
                        vshared += sum(ok)
                        shared += all(ok)
                board.push(rng.choice(imp) if imp and rng.random() < 0.7 else rng.choice(moves))
    with capsys.disabled():
        for lb, (n, moves, pmoves, pyrs) in counts.items():
            print(f"\nb(Green) = {lb}: {n} nodes, {moves / n:.1f} bound-lowering moves, "
                  f"{pmoves / n:.1f} pyramid moves, {pyrs / n:.2f} pyramids", end="")
        print(f"\n{nodes} nodes at b = 3 not won within 5: {groups} pyramid moves with stone "
              f"variants; the first variant's hold holds after all the others in {shared}, "
              f"after {vshared} of {variants} other variants")
    assert counts[2][0] and counts[3][0] and groups
