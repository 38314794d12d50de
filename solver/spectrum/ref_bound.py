"""The admissible lower bound, pure Python (twin of ``cext/spectrum_bound.pxi``):
one-exchange test, leaf counts, surplus flow, phase floors and the least over
every number of conversions and every goal sequence (see docs/spectrum.md).
"""
from __future__ import annotations

from itertools import product
from typing import List, Sequence, Tuple

from solver.spectrum.notation import N_COLOURS, PER_KIND, stash_value
from solver.spectrum.ref_goaltree import GoalTreeRef

KCAP = 4


INFEASIBLE = 1 << 10    # a count no plan meets (the kernel uses the same)
NO_PLAN = 1 << 20       # what a leaf with no plan at all gives
UP_ANY, UP_NONE, UP_SOME = 0, 1, 2   # plans of any kind, without upconversions, with some


def _value(counts: Sequence[int]) -> int:
    return counts[0] + 2 * counts[1] + 3 * counts[2]


def exchange_makes(deficit: Sequence[int], stock: Sequence[int]) -> bool:
    """Can one exchange out of a colour holding ``stock`` (S, M, L counts)
    receive at least the pieces ``deficit``?  Given and received sizes are
    disjoint and of equal value; supply is taken as 4 of a kind, which only
    makes it easier (the bound stays optimistic)."""
    for give in product(*(range(n + 1) for n in stock)):
        if not any(give) or any(give[s] and deficit[s] for s in range(3)):
            continue
        extra = _value(give) - _value(deficit)
        spare = [range(PER_KIND - deficit[s] + 1) if not give[s] else range(1) for s in range(3)]
        if extra >= 0 and any(_value(e) == extra for e in product(*spare)):
            return True
    return False


def _upconversion_makes(stash: Sequence[int], req: Sequence[int], c: int,
                        deficit: Sequence[int]) -> bool:
    """One upconversion in colour ``c`` makes ``deficit`` out of a piece the
    goals do not need: one M from a spare small, one L from a spare medium."""
    return ((tuple(deficit) == (0, 1, 0) and stash[c * 3] > req[c * 3])
            or (tuple(deficit) == (0, 0, 1) and stash[c * 3 + 1] > req[c * 3 + 1]))


def _spare(stash: Sequence[int], req: Sequence[int], c: int) -> Tuple[int, int, int]:
    """Colour ``c``'s pieces beyond what ``req`` needs (a neighbour giving a
    needed piece must get it back: a turn into it)."""
    return tuple(max(0, stash[c * 3 + s] - req[c * 3 + s]) for s in range(3))


def _deficits(stash: Sequence[int], req: Sequence[int]) -> List[set]:
    return [{s for s in range(3) if req[c * 3 + s] > stash[c * 3 + s]} for c in range(N_COLOURS)]


def _missing(stash: Sequence[int], req: Sequence[int], c: int) -> Tuple[int, int, int]:
    """The pieces of colour ``c`` that ``req`` lacks, each count capped at 4."""
    return tuple(min(4, max(0, req[c * 3 + s] - stash[c * 3 + s])) for s in range(3))


def _turns_into(d: set) -> int:
    """Turns adding to one colour that create the missing sizes ``d``: a turn
    adds one or two sizes, never M and L together (5 points from at most
    four smalls)."""
    return 2 if len(d) == 3 or d == {1, 2} else (1 if d else 0)


def _cycle_pairs(marks: List[bool]) -> int:
    """The most disjoint pairs of neighbours among the marked places of a cycle."""
    if all(marks):
        return len(marks) // 2
    k = marks.index(False)
    pairs = run = 0
    for x in marks[k + 1:] + marks[:k + 1]:
        if x:
            run += 1
        else:
            pairs, run = pairs + run // 2, 0
    return pairs


def _extra_cover_turns(needy: set) -> int:
    """Each needy colour needs one more turn, into itself or a neighbour; a
    turn into z serves z - 1 and z + 1: the count less the most pairs two apart."""
    return len(needy) - sum(_cycle_pairs([(p + 2 * i) in needy for i in range(N_COLOURS // 2)])
                            for p in (0, 1))


def _needy(stash: Sequence[int], req: Sequence[int], allow_up: bool) -> set:
    """Deficit colours of one turn, no deficit next to them, whose missing
    pieces no single exchange out of a neighbour as it stands (nor, with
    ``allow_up``, one upconversion) can make."""
    deficit = _deficits(stash, req)
    out = set()
    for c, d in enumerate(deficit):
        y0, y1 = (c - 1) % N_COLOURS, (c + 1) % N_COLOURS
        if _turns_into(d) != 1 or deficit[y0] or deficit[y1]:
            continue
        miss = _missing(stash, req, c)
        if any(exchange_makes(miss, _spare(stash, req, y)) for y in (y0, y1)):
            continue
        if allow_up and _upconversion_makes(stash, req, c, miss):
            continue
        out.add(c)
    return out


def leaf_bound(stash: Sequence[int], req: Sequence[int], allow_up: bool = True) -> int:
    """Turns needed to create the pieces ``req`` lacks (the kernel's count B);
    ``allow_up`` False: for plans without upconversions."""
    lb = sum(_turns_into(d) for d in _deficits(stash, req))
    return lb + _extra_cover_turns(_needy(stash, req, allow_up))


def _upconversion_slots(stash: Sequence[int], req: Sequence[int]) -> Tuple[int, List[int]]:
    """How many of the turns into deficit colours may be upconversions (all
    of a colour's turns if upconversions alone could make its missing pieces
    from what it holds, else all but one: an exchange; ups never make a
    small), and for each colour whose pieces upconversions alone can make,
    how many it takes (one per M or L, two per L no medium held can become)."""
    total, alone = 0, []
    for c, d in enumerate(_deficits(stash, req)):
        if not d:
            continue
        n = stash[c * 3:c * 3 + 3]
        miss = [req[c * 3 + s] - n[s] for s in range(3)]
        total += _turns_into(d)
        if 0 in d or miss[1] > n[0] or miss[2] > n[0] + n[1]:
            total -= 1
        else:
            dm, dl = max(0, miss[1]), max(0, miss[2])
            alone.append(dm + dl + max(0, dl - n[1]))
    return total, sorted(alone)


def _made_by_upconversions(alone: List[int], u: int) -> int:
    """How many of ``alone`` (upconversions each colour needs) ``u`` upconversions can make."""
    made = spent = 0
    for x in alone:
        if spent + x > u:
            break
        spent, made = spent + x, made + 1
    return made


def _share(f: List[int], g: List[int]) -> List[int]:
    """The least total cost when two parts share the kept budget 0..6."""
    return [min(f[a] + g[b - a] for a in range(b + 1)) for b in range(7)]


def _gap_costs(r: List[int]) -> Tuple[List[int], List[int]]:
    """For the surplus ``r`` of the colours between two deficit colours:
    sources 1..p pass their value left, q..g right, the rest keeps it."""
    g = len(r)
    ga, gc = [INFEASIBLE] * 7, [INFEASIBLE] * 7
    for p in range(g + 1):
        for q in range(p + 1, g + 2):
            kept = sum(r[p:q - 1])
            if kept > 6:
                continue
            sources = list(range(1, p + 1)) + list(range(q, g + 1))
            far = sum(1 for pos in sources if 2 <= pos <= g - 1)
            for b in range(kept, 7):
                ga[b] = min(ga[b], len(sources))
                gc[b] = min(gc[b], far)
    return ga, gc


def flow_turns(residual: Sequence[int], deficit_colours: set) -> Tuple[List[int], List[int]]:
    """Where surplus value can go (all goals known).  Exchanges conserve
    value and only conversions remove it, so each colour's surplus
    (``residual``, in points) is kept to the end or passed along the circle,
    one exchange per colour on the way, into a deficit colour.  For a kept
    budget b in 0..6: ``fa[b]`` the fewest source colours, ``fc[b]`` the
    fewest source colours next to no deficit colour (twin of the kernel's
    ``flow_tables``; ``tests`` check it against brute force)."""
    if not deficit_colours:
        same = [0 if sum(residual) <= b else INFEASIBLE for b in range(7)]
        return same, list(same)
    fa, fc = [0] * 7, [0] * 7
    start, i = min(deficit_colours), 0
    while i < N_COLOURS:
        x0 = (start + i) % N_COLOURS
        if residual[x0]:
            fa = _share(fa, [0 if residual[x0] <= b else 1 for b in range(7)])
        gap = []
        while i + len(gap) + 1 < N_COLOURS and (x0 + len(gap) + 1) % N_COLOURS not in deficit_colours:
            gap.append(residual[(x0 + len(gap) + 1) % N_COLOURS])
        i += len(gap) + 1
        if any(gap):
            ga, gc = _gap_costs(gap)
            fa, fc = _share(fa, ga), _share(fc, gc)
    return fa, fc


def _left_over(values: List[int], cap: int) -> int:
    """How many values remain once the smallest that fit in ``cap`` are kept."""
    total = 0
    for i, v in enumerate(sorted(values)):
        if total + v > cap:
            return len(values) - i
        total += v
    return 0


def leaf_eval(stash: Sequence[int], req: Sequence[int], value: int, m: int, w: int,
              win: int, ups: int = UP_ANY) -> int:
    """Least turns of a plan with exactly ``m`` more conversions, the first
    ``m - w`` consuming ``req``, the last ``w`` unknown: the largest of the
    counts B (pieces to create), A (colours to empty, one source colour per
    turn, plus deficit turns far from any piece), U (deficit turns plus the
    upconversions that cannot be turns into deficit colours) and, with every
    goal known, C (deficit turns plus colours to empty far from any
    deficit) and F (surplus passed along the circle, :func:`flow_turns`),
    minimised over the upconversions u (twin of the kernel's ``leaf_eval``):
    u = 0 only for ``UP_NONE``, u >= 1 for ``UP_SOME``."""
    if ups == UP_NONE and 6 * m > value:
        return NO_PLAN
    if ups == UP_SOME and value + 1 - 6 * m > win:
        return NO_PLAN
    deficit = _deficits(stash, req)
    residual = [sum(max(0, stash[c * 3 + s] - req[c * 3 + s]) * (s + 1) for s in range(3))
                for c in range(N_COLOURS)]
    tcount = sum(_turns_into(d) for d in deficit)
    b, b0 = leaf_bound(stash, req, True), leaf_bound(stash, req, False)
    upcap, alone = _upconversion_slots(stash, req)
    ndef = sum(1 for d in deficit if d)
    far = [residual[c] for c in range(N_COLOURS) if residual[c] and not (
        deficit[c] or deficit[(c - 1) % N_COLOURS] or deficit[(c + 1) % N_COLOURS])]
    held = [r for r in residual if r]
    lonely = sum(_turns_into(d) for c, d in enumerate(deficit) if d and not (
        residual[c] or residual[(c - 1) % N_COLOURS] or residual[(c + 1) % N_COLOURS]))
    freed = 0
    if w:
        freed = sum(min(w, sum(1 for c in range(N_COLOURS) if stash[c * 3 + s] > req[c * 3 + s]))
                    for s in range(3))
    fa, fc = flow_turns(residual, {c for c, d in enumerate(deficit) if d})
    best = None
    u = max(1 if ups == UP_SOME else 0, 6 * m - value)
    while True:
        cap = min(win, value + u - 6 * m)
        v = max(u, b if u else b0, tcount + u - upcap,
                u + ndef - _made_by_upconversions(alone, u),
                _left_over(held, cap) - freed + lonely)
        if not w:
            v = max(v, tcount + _left_over(far, cap))
            if cap <= 6:
                v = max(v, fa[cap], tcount + fc[cap])
        best = v if best is None else min(best, v)
        if cap == win or ups == UP_NONE or u + 1 >= best:
            return best
        u += 1


def lower_bound(stash: Sequence[int], tree: GoalTreeRef, node: int, *, direction: int,
                win_value: int = 6, ups: int = UP_ANY) -> int:
    """Turns still needed, at least (twin of the kernel's ``lower_bound``):
    over every number m >= k of conversions and every sequence of goals
    (known for the first ``KCAP``), the least of the larger of
    :func:`leaf_eval` and the sequence's phase floor (:func:`_sequences`);
    ``ups`` limits the plans as in :func:`leaf_eval`."""
    value = stash_value(stash)
    if value <= win_value:
        return 0
    k = (value - win_value + 5) // 6
    best = 1 << 20
    for j in range(0, KCAP + 1):
        for req, floor, floor0 in _sequences(stash, direction, tree, node, j):
            m = max(k, j)
            while 6 * m - value < best and (j == KCAP or m == j):
                fl = floor0 if value - 6 * m == win_value or ups == UP_NONE else floor
                best = min(best, max(fl, leaf_eval(stash, req, value, m, m - j, win_value, ups)))
                m += 1
    return max(1, best)


def _sequences(stash, direction: int, tree: GoalTreeRef, node: int, k: int):
    """``(req, floor, floor0)`` for each sequence of ``k`` conversions: the
    pieces (36 counts) it consumes, and turns it needs at least by its
    phases: the first goal g1 is gathered with the direction fixed and
    nothing converted (``phase_turns(g1)``); a second goal g2 is either
    matched in the same turn (the first phase gathered both) or needs one
    more turn.  ``floor0``: the same for plans without upconversions."""
    for req, goals in _requirements(tree, node, k):
        floors = [0, 0]
        if k >= 1:
            for i, up in enumerate((True, False)):
                one = [0] * 36
                for s in range(3):
                    one[goals[0][s] * 3 + s] += 1
                floors[i] = phase_turns(stash, one, direction, up)
                if k >= 2:
                    for s in range(3):
                        one[goals[1][s] * 3 + s] += 1
                    floors[i] = min(floors[i] + 1, phase_turns(stash, one, direction, up))
        yield req, floors[0], floors[1]


def _requirements(tree: GoalTreeRef, node: int, k: int):
    """``(req, goals)``: the pieces (36 counts) each conversion sequence of
    length ``k`` consumes, and its goals in order."""
    if k == 0:
        yield [0] * 36, []
        return
    for slot in range(3):
        goal = tree.goals[node][slot]
        rest = tree.child(node, slot) if k > 1 else node
        for req, goals in _requirements(tree, rest, k - 1):
            for s in range(3):
                req[goal[s] * 3 + s] += 1
            yield req, [goal] + goals


def phase_turns(stash: Sequence[int], req: Sequence[int], direction: int,
                allow_up: bool = True) -> int:
    """Turns, at least, to make ``stash`` hold ``req`` with the direction fixed
    and nothing converted (one phase).  A turn adds pieces to one colour only
    (exchange: the next colour; upconversion: its own), so each deficit
    colour costs 1 turn, or 2 when it lacks both M and L (5 points from at
    most four smalls is impossible) or all three sizes.  A deficit colour x
    costing 1 whose upstream neighbour x - direction has no deficit, and
    whose missing pieces neither one exchange out of that neighbour as it
    stands nor one upconversion can make, needs one more turn: one into
    x - direction or a second one into x; such turns are distinct for
    distinct colours.  ``allow_up`` False: for plans without upconversions."""
    deficit = _deficits(stash, req)
    total = 0
    for x, d in enumerate(deficit):
        if not d:
            continue
        if d == {1, 2} or len(d) == 3:
            total += 2
            continue
        total += 1
        y = (x - direction) % N_COLOURS
        if deficit[y]:
            continue
        miss = _missing(stash, req, x)
        if not (exchange_makes(miss, _spare(stash, req, y))
                or (allow_up and _upconversion_makes(stash, req, x, miss))):
            total += 1
    return total
