"""A projection proof on one position (docs/boundary.md, "Projection proofs").

    nice python bench/boundary_projection.py POSITION DEFENDER REGION CAP [MODE [PLIES]]

Runs ``solver.boundary.projection.prove_holding`` for DEFENDER (0 Red, 1 Green) over
REGION (squares, e.g. "a6 a5 b5 b6", or "all") with at most CAP abstract states and
prints the verdict, the states explored and held, the CPU seconds and the peak memory.
MODE ``check``: a set that holds is re-checked by ``check_projection``; ``count``: also
the attacker states expanded, their abstract successors on average and on how many
squares of R each attacker pyramid stood; ``explain PLIES``: every abstract state within
PLIES plies (all moves of both sides), then the attacker's fastest abstract win against
the longest defence, state by state (why a region is lost).
"""
import collections
import resource
import sys
import time

from solver.boundary.notation import format_move, format_pyramid, format_square, parse_position
from solver.boundary.projection import Projection, check_projection, parse_region, prove_holding


def count_expansions():
    """Wrap ``Projection.attacker_moves`` to count its calls, successors and squares."""
    seen = collections.Counter()
    where = collections.defaultdict(set)
    inner = Projection.attacker_moves

    def wrapped(self, cells, fog):
        out = inner(self, cells, fog)
        seen["expanded"] += 1
        seen["successors"] += len(out)
        for s, c in zip(self.region, cells):
            for p in c:
                if p < 12 and p // 6 == self.attacker:
                    where[format_pyramid(p)].add(s)
        return out
    Projection.attacker_moves = wrapped
    return seen, where


def explain(pos, defender, squares, plies):
    """The attacker's fastest abstract win within ``plies`` against the longest defence."""
    proj = Projection(pos, defender, parse_region(squares))
    attacker = 1 - defender
    root = proj.project(pos)
    succ, depth, todo = {}, {root: 0}, collections.deque([root])
    while todo:
        st = todo.popleft()
        cells, fog, side = st
        if depth[st] >= plies:
            continue
        if side == attacker:
            after = proj.attacker_moves(cells, fog)
            won = any(proj.attacker_won(c) for c, _f in after)
            succ[st] = None if won else [(None, (c, f, defender)) for c, f in after]
        else:
            succ[st] = [(m, (c, fog, attacker)) for m, c in proj.defender_moves(cells)]
        for _m, k in succ[st] or []:
            if k not in depth:
                depth[k] = depth[st] + 1
                todo.append(k)
    lost, changed = {}, True
    while changed:
        changed = False
        for st, ks in succ.items():
            if st in lost:
                continue
            if ks is None:
                lost[st] = 1
            elif st[2] == attacker and any(k in lost for _m, k in ks):
                lost[st] = 1 + min(lost[k] for _m, k in ks if k in lost)
            elif st[2] == defender and all(k in lost for _m, k in ks):
                lost[st] = 1 + max([lost[k] for _m, k in ks] or [0])
            else:
                continue
            changed = True
    print(f"{len(depth)} abstract states within {plies} plies; root lost: {root in lost}")

    def show(st):
        cells, fog, side = st
        occ = " ".join(f"{format_square(s)}:" + "+".join(
            "r" if p == 12 else "g" if p == 13 else format_pyramid(p) for p in c)
            for s, c in zip(proj.region, cells) if c)
        fogged = [format_pyramid(p) for p in range(12) if fog >> p & 1]
        fogged += [("West", "East")[w] + " stone" for w in (0, 1) if fog >> (12 + w) & 1]
        return f"{'RG'[side]} to move | {occ} | fog {', '.join(fogged)}"
    st = root
    while st in lost:
        print(show(st))
        ks = succ.get(st)
        if ks is None:
            print("the attacker completes")
            break
        if st[2] == attacker:
            st = min((k for _m, k in ks if k in lost), key=lambda k: lost[k])
        elif not ks:
            print("the defender has no move in R")
            break
        else:
            m, st = max(ks, key=lambda mk: lost[mk[1]])
            print("  the defender's longest:", format_move(m))


def main():
    pos, defender, region, cap = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    mode = sys.argv[5] if len(sys.argv) > 5 else ""
    squares = range(36) if region == "all" else region
    p = parse_position(pos)
    if mode == "explain":
        explain(p, defender, squares, int(sys.argv[6]))
        return
    counted = count_expansions() if mode == "count" else None
    t = time.process_time()
    out = prove_holding(p, defender, squares, max_states=cap)
    mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{pos} defender {defender} region {region!r} cap {cap}: {out.verdict} "
          f"{out.limit or ''} {out.states} states explored, {out.held} held, "
          f"{len(out.strategy)} defender states, {time.process_time() - t:.1f} CPU s, "
          f"{mb:.0f} MB peak")
    if counted is not None:
        seen, where = counted
        print(f"attacker states expanded {seen['expanded']}, successors each "
              f"{seen['successors'] / max(1, seen['expanded']):.1f}; squares of R stood on: "
              + ", ".join(f"{p} {len(s)}" for p, s in sorted(where.items())))
    if out.verdict == "holds" and mode == "check":
        t = time.process_time()
        why = []
        ok = check_projection(p, defender, out.region, out.strategy, explain=why)
        print(f"check_projection: {ok} ({time.process_time() - t:.1f} CPU s) {' '.join(why)}")


if __name__ == "__main__":
    main()
