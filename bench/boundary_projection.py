"""A projection proof on one position (docs/boundary.md, "Projection proofs").

    nice python bench/boundary_projection.py POSITION DEFENDER REGION CAP [CHECK]

Runs ``solver.boundary.projection.prove_holding`` for DEFENDER (0 Red, 1 Green) over
REGION (squares, e.g. "a6 a5 b5 b6", or "all") with at most CAP abstract states and
prints the verdict, the states explored and held, the CPU seconds and the peak memory;
with CHECK (any word) a set that holds is re-checked by ``check_projection``.
"""
import resource
import sys
import time

from solver.boundary.notation import parse_position
from solver.boundary.projection import check_projection, prove_holding


def main():
    pos, defender, region, cap = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    squares = range(36) if region == "all" else region
    p = parse_position(pos)
    t = time.process_time()
    out = prove_holding(p, defender, squares, max_states=cap)
    mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{pos} defender {defender} region {region!r} cap {cap}: {out.verdict} "
          f"{out.limit or ''} {out.states} states explored, {out.held} held, "
          f"{len(out.strategy)} defender states, {time.process_time() - t:.1f} CPU s, "
          f"{mb:.0f} MB peak")
    if out.verdict == "holds" and len(sys.argv) > 5:
        t = time.process_time()
        ok = check_projection(p, defender, out.region, out.strategy)
        print(f"check_projection: {ok} ({time.process_time() - t:.1f} CPU s)")


if __name__ == "__main__":
    main()
