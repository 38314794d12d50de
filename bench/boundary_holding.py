"""A holding set on one position (docs/boundary.md, "What 6 and 10-12 back are").

    nice python bench/boundary_holding.py POSITION DEFENDER SAFETY CAP

Builds ``solver.boundary.holding.holding_set`` for DEFENDER (0 Red, 1 Green) with the
given safety plies and position cap, prints the verdict, the positions by ply from the
root and the CPU seconds; a set that holds is re-checked by the reference rules.
"""
import sys
import time

from solver.boundary.holding import check_holding, holding_set
from solver.boundary.notation import format_position, parse_position


def main():
    pos, defender, safety, cap = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    p = parse_position(pos)
    t = time.process_time()
    out = holding_set(p, defender, safety=safety, max_positions=cap)
    print(f"{pos} defender {defender} safety {safety} cap {cap}: {out.verdict} {out.limit or ''} "
          f"{out.positions} positions, {len(out.strategy)} defender nodes, "
          f"{time.process_time() - t:.1f} CPU s")
    print("positions by ply:", out.layers)
    if out.failed_at is not None:
        print("strategy failed at", format_position(out.failed_at))
    if out.verdict == "holds":
        print("reference check:", check_holding(p, defender, out.strategy))


if __name__ == "__main__":
    main()
