# Spectrum kernel, part of cext/spectrum.pyx (textual include): the admissible
# lower bound on the turns still needed (tables, leaf counts, phase floors,
# the recursion over goal sequences) and its Python probes for the tests.

ctypedef struct Have:
    int8_t n[36]          # the stash, unpacked


# ONE_EX[d * 125 + y]: can one exchange out of a colour holding ``y`` (counts
# as a base-5 index) receive at least the pieces ``d`` (same indexing)?  The
# given and received sizes are disjoint and their values equal; supply is
# taken as unlimited (4 of a kind), which only makes it easier, so the table
# is optimistic, as a lower bound needs.
cdef uint8_t ONE_EX[125 * 125]
cdef int POW5[3]
POW5[0] = 1
POW5[1] = 5
POW5[2] = 25
# COVER_PAIRS[mask]: the largest number of disjoint adjacent pairs among the
# set bits of a 6-cycle (colours of one parity, two apart on the circle).
cdef uint8_t COVER_PAIRS[64]


cdef void build_tables() noexcept:
    cdef int d, g, y, e, dv, gv, ev, ok, mask, best, i, j, run
    cdef uint8_t feas[125 * 125]
    for d in range(125):
        dv = d % 5 + 2 * (d // 5 % 5) + 3 * (d // 25)
        for g in range(1, 125):
            gv = g % 5 + 2 * (g // 5 % 5) + 3 * (g // 25)
            ok = 0
            # received sizes may not be given sizes
            if not ((g % 5 and d % 5) or (g // 5 % 5 and d // 5 % 5) or (g // 25 and d // 25)):
                for e in range(125):
                    if ((e % 5 and g % 5) or (e // 5 % 5 and g // 5 % 5) or (e // 25 and g // 25)
                            or e % 5 + d % 5 > 4 or e // 5 % 5 + d // 5 % 5 > 4
                            or e // 25 + d // 25 > 4):
                        continue
                    ev = e % 5 + 2 * (e // 5 % 5) + 3 * (e // 25)
                    if dv + ev == gv:
                        ok = 1
                        break
            feas[d * 125 + g] = ok
        feas[d * 125] = 0
    for d in range(125):
        for y in range(125):
            ok = 0
            for g in range(1, 125):
                if (g % 5 <= y % 5 and g // 5 % 5 <= y // 5 % 5 and g // 25 <= y // 25
                        and feas[d * 125 + g]):
                    ok = 1
                    break
            ONE_EX[d * 125 + y] = ok
    for mask in range(64):
        if mask == 63:
            COVER_PAIRS[mask] = 3
            continue
        # rotate so that bit 0 is clear, then count floor(run / 2) over the runs
        i = 0
        while (mask >> i) & 1:
            i += 1
        best = 0
        run = 0
        for j in range(1, 7):
            if (mask >> ((i + j) % 6)) & 1:
                run += 1
            else:
                best += run // 2
                run = 0
        COVER_PAIRS[mask] = best


build_tables()


cdef inline int extra_cover_turns(int needy) noexcept nogil:
    """Turns beyond one per colour for the ``needy`` colours (a 12-bit set,
    no two adjacent), each of which needs one more turn into itself or a
    neighbour; a turn into colour z serves z - 1 and z + 1: the set's size
    less the most disjoint pairs two apart."""
    cdef int even = 0, odd = 0, i, n = 0
    for i in range(6):
        even |= ((needy >> (2 * i)) & 1) << i
        odd |= ((needy >> (2 * i + 1)) & 1) << i
    while needy:
        n += needy & 1
        needy >>= 1
    return n - COVER_PAIRS[even] - COVER_PAIRS[odd]


cdef inline bint exchange_makes(int di, int stock) noexcept nogil:
    """Can one exchange out of a colour holding ``stock`` (base-5 index) make the pieces ``di``?"""
    return ONE_EX[di * 125 + stock]


cdef inline bint upconversion_makes(const Have *h, const int16_t *req, int c, int di) noexcept nogil:
    """Can one upconversion in colour ``c`` make the pieces ``di`` out of a
    piece the goals do not need: one M from a spare small, one L from a
    spare medium?  (Upconverting a needed piece leaves a new deficit, which
    costs another turn into the colour.)"""
    return ((di == 5 and h.n[c * 3] > req[c * 3])
            or (di == 25 and h.n[c * 3 + 1] > req[c * 3 + 1]))


cdef inline int spare_stock(const Have *h, const int16_t *req, int c) noexcept nogil:
    """The pieces of colour ``c`` beyond what ``req`` needs, as a base-5 index.
    A neighbour that gives a needed piece must get it back, a turn into it."""
    cdef int sz, r, si = 0, p = 1
    for sz in range(3):
        r = h.n[c * 3 + sz] - req[c * 3 + sz]
        if r > 0:
            si += r * p
        p *= 5
    return si


cdef inline int deficit_index(const Have *h, const int16_t *req, int c) noexcept nogil:
    """The pieces of colour ``c`` that ``req`` lacks, as a base-5 index
    (each count capped at 4: a smaller deficit is easier, so still sound)."""
    cdef int sz, r, di = 0, p = 1
    for sz in range(3):
        r = req[c * 3 + sz] - h.n[c * 3 + sz]
        if r > 0:
            di += (r if r < 4 else 4) * p
        p *= 5
    return di


cdef void have_of(const SState *s, Have *h) noexcept:
    cdef int c, sz
    for c in range(NCOL):
        for sz in range(3):
            h.n[c * 3 + sz] = cnt(s, c * 3 + sz)


cdef inline int sort_small(int *a, int n) noexcept nogil:
    """Insertion sort of a few ints, ascending; returns ``n``."""
    cdef int i, j, x
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x
    return n


cdef inline int left_over(const int *a, int n, int cap) noexcept nogil:
    """How many of the sorted values ``a`` remain once the smallest that fit in
    ``cap`` are set aside (the most that can be kept within ``cap``)."""
    cdef int i, total = 0
    for i in range(n):
        if total + a[i] > cap:
            return n - i
        total += a[i]
    return 0


cdef inline void add_component(int *f, const int *g) noexcept nogil:
    """Min-plus convolution over the kept budget 0..6: ``f`` becomes the
    least total cost when ``g``'s component shares the budget with ``f``'s."""
    cdef int b, b1, x, out[7]
    for b in range(7):
        out[b] = 1 << 10
        for b1 in range(b + 1):
            x = f[b1] + g[b - b1]
            if x < out[b]:
                out[b] = x
    for b in range(7):
        f[b] = out[b]


cdef void flow_tables(const int *res, int dmask, int *fa, int *fc) noexcept nogil:
    """Where surplus value can go, for a plan whose goals are all known.

    Exchanges conserve value and only conversions remove it, so every
    surplus piece (``res``: value per colour beyond what the goals consume)
    is either kept to the end (at most ``b`` points in all) or passed along
    the circle, one exchange per colour on the way, into a deficit colour
    (``dmask``), whose created pieces the goals consume.  Between two
    deficit colours (a gap of g colours) the sources are a prefix flowing
    to the left deficit and a suffix flowing to the right one; the surplus
    strictly between them is kept.  Deficit colours with surplus of their
    own are sources or keep it.  For each budget b in 0..6:
    ``fa[b]``: the fewest source colours (each needs a turn);
    ``fc[b]``: the fewest source colours that are next to no deficit
    colour (their turns create no deficit piece)."""
    cdef int b, i, g, p, q, kept, ca, cc, start, x0, total, lo, hi
    cdef int r[NCOL + 1]
    cdef int pre[NCOL + 2]
    cdef int ga[7]
    cdef int gc[7]
    for b in range(7):
        fa[b] = 0
        fc[b] = 0
    if dmask == 0:
        total = 0
        for i in range(NCOL):
            total += res[i]
        for b in range(7):
            fa[b] = fc[b] = 0 if total <= b else 1 << 10
        return
    start = 0
    while not (dmask >> start) & 1:
        start += 1
    i = 0
    while i < NCOL:
        x0 = (start + i) % NCOL
        if res[x0]:
            for b in range(7):
                ga[b] = 0 if res[x0] <= b else 1
                gc[b] = 0
            add_component(fa, ga)
        g = 0
        pre[0] = 0
        while i + g + 1 < NCOL and not (dmask >> ((x0 + g + 1) % NCOL)) & 1:
            g += 1
            r[g] = res[(x0 + g) % NCOL]
            pre[g] = pre[g - 1] + r[g]
        i += g + 1
        if g == 0 or pre[g] == 0:
            continue
        for b in range(7):
            ga[b] = gc[b] = 1 << 10
        for p in range(g + 1):
            if p and r[p] == 0:
                continue          # a prefix ends at a colour with surplus
            for q in range(p + 1, g + 2):
                if q <= g and r[q] == 0:
                    continue      # a suffix starts at a colour with surplus
                kept = pre[q - 1] - pre[p]
                if kept > 6:
                    continue
                ca = p + g + 1 - q
                # sources strictly inside the gap (positions 2..g-1)
                hi = p if p < g - 1 else g - 1
                cc = hi - 1 if hi > 1 else 0
                if q <= g:
                    lo = q if q > 2 else 2
                    if g - 1 >= lo:
                        cc += g - lo
                for b in range(kept, 7):
                    if ca < ga[b]:
                        ga[b] = ca
                    if cc < gc[b]:
                        gc[b] = cc
        add_component(fa, ga)
        add_component(fc, gc)


cdef int leaf_eval(const Have *h, const int16_t *req, int value, int m, int w, int win,
                   int best, int ups) noexcept:
    """min(best, the least turns of a plan with exactly ``m`` more conversions
    whose first ``m - w`` consume ``req`` and whose last ``w`` are unknown;
    ``ups`` limits the plans to those without upconversions (u = 0) or with
    some (u >= 1)).  The larger of these counts, each a lower bound on turns,
    minimised over the upconversions u:
    B  pieces to create: a turn adds pieces of one colour and at most two
       sizes, so each deficit colour costs 1 turn, 2 when it lacks M and L.
       A 1-turn deficit colour whose neighbours have no deficit, whose whole
       deficit no single exchange out of a neighbour's spare pieces (nor one
       upconversion of a spare piece) can make, needs one more turn: into a
       neighbour, which serves at most the two colours beside it, or a
       second into itself: the count less the most pairs two apart;
    A  every turn has one source colour (exchange: the colour given;
       upconversion: its colour).  A colour holding pieces now that are
       neither consumed by a goal nor kept to the end needs a turn as a
       source.  Kept pieces stay in the final stash, worth at most
       min(win, value + u - 6m).  Keeping the colours of least residual
       value first frees the most colours.  An unknown goal consumes one
       piece of each size, so the ``w`` unknown goals free at most sum over
       sizes of min(w, colours with a residual piece of that size) colours;
       plus the deficit turns with no piece in or next to their colour;
    U  the upconversions are turns too: every deficit colour's turns may be
       upconversions only if upconversions alone can make its pieces from
       what it holds (never a small), else one of them is an exchange; and
       a deficit colour whose pieces the u upconversions do not make alone
       needs an exchange besides them;
    C  (every goal known) deficit turns plus colours to empty that are
       neither deficits nor next to one (their turns create no deficit piece);
    F  (every goal known) the surplus passed along the circle into deficit
       colours, one source turn per colour on the way (:func:`flow_tables`).
    """
    cdef int c, sz, r, d, lb = 0, needy = 0, y0, y1, na = 0, nb = 0, u, cap, a, v, b
    cdef int freed = 0, lonely = 0, needy0 = 0, b0, di, dmask, upcap = 0, nd = 0, nu = 0, dmv, dlv, i, p, acc
    cdef int upn[NCOL]
    cdef int sp[NCOL]
    cdef bint flowed = False
    cdef int fa[7]
    cdef int fc[7]
    cdef int per_size[3]
    cdef int dm[NCOL]
    cdef int res[NCOL]
    cdef int ra[NCOL]
    cdef int rb[NCOL]
    if ups == UP_NONE and 6 * m > value:
        return best      # without upconversions the value only falls, by 6 a conversion
    if ups == UP_SOME and value + 1 - 6 * m > win:
        return best      # m conversions leave no room for an upconversion
    per_size[0] = per_size[1] = per_size[2] = 0
    for c in range(NCOL):
        d = 0
        res[c] = 0
        sp[c] = 0
        for sz in range(3):
            r = h.n[c * 3 + sz] - req[c * 3 + sz]
            if r < 0:
                d |= 1 << sz
            elif r > 0:
                res[c] += r * (sz + 1)
                sp[c] += r * POW5[sz]
                per_size[sz] += 1
        dm[c] = d
        if d:
            lb += 2 if d >= 6 else 1
            # the turns into this colour that may be upconversions: all of
            # them if upconversions alone could make the missing pieces from
            # what the colour holds now, else all but one (an exchange)
            upcap += 2 if d >= 6 else 1
            nd += 1
            dmv = req[c * 3 + 1] - h.n[c * 3 + 1]
            dlv = req[c * 3 + 2] - h.n[c * 3 + 2]
            if (d & 1) or dmv > h.n[c * 3] or dlv > h.n[c * 3] + h.n[c * 3 + 1]:
                upcap -= 1
            else:
                # upconversions alone can make them: one per missing M or L,
                # two per L that no medium held can become
                if dmv < 0:
                    dmv = 0
                if dlv < 0:
                    dlv = 0
                upn[nu] = dmv + dlv + (dlv - h.n[c * 3 + 1] if dlv > h.n[c * 3 + 1] else 0)
                nu += 1
    if lb >= best:
        return best
    for c in range(NCOL):
        d = dm[c]
        y0 = (c + NCOL - 1) % NCOL
        y1 = (c + 1) % NCOL
        if res[c]:
            ra[na] = res[c]
            na += 1
            if not (d or dm[y0] or dm[y1]):
                rb[nb] = res[c]
                nb += 1
        if d and not (res[c] or res[y0] or res[y1]):
            lonely += 2 if d >= 6 else 1
        if d == 0 or d >= 6 or dm[y0] or dm[y1]:
            continue
        di = deficit_index(h, req, c)
        if not (exchange_makes(di, sp[y0]) or exchange_makes(di, sp[y1])):
            needy0 |= 1 << c
            if not upconversion_makes(h, req, c, di):
                needy |= 1 << c
    b = lb + extra_cover_turns(needy)
    if b >= best:
        return best
    b0 = lb + extra_cover_turns(needy0)
    u = 6 * m - value
    if u < 0:
        u = 0
    if u == 0 and ups == UP_SOME:
        u = 1
    if w:
        for sz in range(3):
            freed += per_size[sz] if per_size[sz] < w else w
    sort_small(ra, na)
    sort_small(rb, nb)
    sort_small(upn, nu)
    while u < best:
        cap = value + u - 6 * m
        if cap > win:
            cap = win
        a = left_over(ra, na, cap) - freed + lonely
        v = b if u else b0
        if u > v:
            v = u
        if lb + u - upcap > v:
            v = lb + u - upcap
        # each deficit colour is fed by an exchange (a turn besides its
        # upconversions) unless upconversions alone make its pieces; the u
        # upconversions make the cheapest such colours at best
        p = 0
        acc = 0
        for i in range(nu):
            acc += upn[i]
            if acc > u:
                break
            p += 1
        if u + nd - p > v:
            v = u + nd - p
        if a > v:
            v = a
        if w == 0:
            a = lb + left_over(rb, nb, cap)
            if a > v:
                v = a
            if v < best and cap <= 6:
                if not flowed:
                    dmask = 0
                    for c in range(NCOL):
                        if dm[c]:
                            dmask |= 1 << c
                    flow_tables(res, dmask, fa, fc)
                    flowed = True
                if fa[cap] > v:
                    v = fa[cap]
                if lb + fc[cap] > v:
                    v = lb + fc[cap]
        if v < best:
            best = v
        if cap == win or ups == UP_NONE:
            break
        u += 1
    return best


cdef inline int colour_turns(const Have *h, const int16_t *req, int c) noexcept nogil:
    """Turns into colour ``c`` that create what ``req`` lacks there, at
    least: 0, 1, or 2 when M and L are both missing (or all three sizes)."""
    cdef int d = ((req[c * 3] > h.n[c * 3]) | (req[c * 3 + 1] > h.n[c * 3 + 1]) << 1
                  | (req[c * 3 + 2] > h.n[c * 3 + 2]) << 2)
    return 0 if d == 0 else (2 if d >= 6 else 1)


cdef int bound_rec(const Have *s, GoalTree tree, int32_t node, int j, int k, int16_t *req,
                   int value, int win, int dir, int floor, int floor0, int dt,
                   int stop, int best, int cmask, int ups) noexcept:
    """The least over the plans with ``m >= k`` more conversions, given the
    ``j`` conversions in ``req`` that lead to ``node``, of the larger of
    :func:`leaf_eval` and ``floor``: goals are known for the first ``KCAP``
    conversions, unknown after.  ``floor`` bounds the plans converting these
    goals in this order by their phases: the first goal g1 is gathered in
    the first phase (direction ``dir``, nothing converted), at least
    :func:`phase_turns` of g1; when a second goal g2 follows, either it is
    matched in the same turn (then the first phase gathered g1 and g2) or
    at least one more turn is played.  ``floor0`` is the same without
    upconversions: it holds for the plans with exactly k conversions when
    value - 6k = win, where an upconversion would leave too much.  ``dt``
    is the deficit-turn count of ``req`` (the first term of count B in
    :func:`leaf_eval`); it only grows with ``req``, so once it reaches
    ``best`` no plan below can do better.  Once ``best <= stop`` the
    search stops (the caller only asks whether the bound exceeds ``stop``)."""
    cdef int slot, sz, n, m, f, f0, fl, c, dt2, cm2
    cdef uint8_t *g
    if dt >= best:
        return best
    if j != 1 and (floor0 if ups == UP_NONE else floor) >= best:
        return best      # (j = 1: the floor is g1's alone; longer plans have their own)
    if j == KCAP:
        m = k if k > j else j
        while 6 * m - value < best and not (ups == UP_NONE and 6 * m > value):
            fl = floor0 if value - 6 * m == win or ups == UP_NONE else floor
            if fl < best:
                # min(best, max(fl, leaf)): leaf_eval gives min(best, leaf)
                best = leaf_eval(s, req, value, m, m - j, win, best, ups)
                if best < fl:
                    best = fl
                if best <= stop:
                    return best
            m += 1
        return best
    fl = floor0 if value - 6 * j == win or ups == UP_NONE else floor
    if j >= k and fl < best:
        best = leaf_eval(s, req, value, j, 0, win, best, ups)
        if best < fl:
            best = fl
        if best <= stop:
            return best
    if 6 * (j + 1) - value >= best or (ups == UP_NONE and 6 * (j + 1) > value):
        return best
    for slot in range(3):
        g = tree.nodes[node].goals
        dt2 = dt
        cm2 = cmask
        for sz in range(3):
            c = g[slot * 3 + sz]
            cm2 |= 1 << c
            dt2 -= colour_turns(s, req, c)
            req[c * 3 + sz] += 1
            dt2 += colour_turns(s, req, c)
        f = floor
        f0 = floor0
        if dt2 >= best:
            pass         # nothing below can do better (the call returns at once)
        elif j == 0:
            f = phase_turns(s, req, dir, True, cm2)
            # floor0 only serves when value - 6k = win
            f0 = phase_turns(s, req, dir, False, cm2) if value - 6 * k == win or ups == UP_NONE else f
        elif j == 1:
            f = phase_turns(s, req, dir, True, cm2)
            if floor + 1 < f:
                f = floor + 1
            f0 = phase_turns(s, req, dir, False, cm2) if value - 6 * k == win or ups == UP_NONE else f
            if floor0 + 1 < f0:
                f0 = floor0 + 1
        if dt2 >= best or (j > 0 and (f0 if ups == UP_NONE else f) >= best):
            pass         # the call would return at once (its first two tests)
        elif j + 1 < KCAP and 6 * (j + 2) - value < best:
            n = tree.child(node, slot)
            if n < 0:
                best = 0   # the tree is full: fall back to a trivially sound bound
            else:
                best = bound_rec(s, tree, n, j + 1, k, req, value, win, dir, f, f0, dt2, stop, best,
                                cm2, ups)
        else:
            # deeper conversions are not needed: evaluate j + 1 alone (and,
            # at KCAP, the unknown goals beyond)
            best = bound_rec(s, tree, node, j + 1, k, req, value, win, dir, f, f0, dt2, stop, best,
                            cm2, ups)
        g = tree.nodes[node].goals
        for sz in range(3):
            req[g[slot * 3 + sz] * 3 + sz] -= 1
        if best <= stop:
            break
    return best


cdef int lower_bound(const SState *s, GoalTree tree, int win_value, int cap,
                     bint passing=False, int ups=UP_ANY) noexcept:
    """Turns still needed, at least (admissible), or ``cap`` when that many
    are needed at least (IDA* only asks whether the bound passes ``cap - 1``;
    with ``cap = 1 << 20`` it is exact).  0 if won.  Else the value asks for
    k = ceil((value - win)/6) more conversions, maybe more; the bound is the
    least :func:`leaf_eval` over every number m >= k of conversions (m with
    6m - value upconversions at least as many turns are skipped) and every
    sequence of goals the goal tree allows (each at least its phase floor,
    see :func:`bound_rec`).  ``passing``: the caller only asks whether the
    bound reaches ``cap``; when it does not, the search stops at the first
    plan below ``cap`` and 1 (proven for any unwon position) is returned.
    ``ups``: ``UP_NONE`` bounds the plans without upconversions (each leaf
    with u = 0, the floors without them, m <= value / 6), ``UP_SOME`` the
    plans with at least one (u >= 1)."""
    cdef int16_t req[36]
    cdef int k, lb
    cdef Have hv
    if s.value <= win_value:
        return 0
    have_of(s, &hv)
    k = (s.value - win_value + 5) // 6
    memset(req, 0, sizeof(req))
    lb = bound_rec(&hv, tree, s.node, 0, k, req, s.value, win_value, s.dir, 0, 0, 0,
                   cap - 1 if passing else 0, cap, 0, ups)
    if passing and lb < cap:
        return 1     # some plan may fit below cap: only 1 is proven
    return lb if lb > 1 else 1


cdef int phase_turns(const Have *h, const int16_t *req, int dir, bint allow_up,
                     int cmask) noexcept:
    """Turns, at least, to make the stash hold ``req`` with the direction
    ``dir`` fixed and nothing converted (twin: ``ref_bound.phase_turns``).
    ``cmask``: the colours ``req`` asks for (no other can lack a piece).
    A turn adds pieces to one colour (exchange: the next colour in ``dir``;
    upconversion: its own).  A deficit colour costs 1 turn, 2 when it lacks
    M and L (5 points from at most four smalls is impossible) or all sizes.
    A 1-turn deficit colour x whose upstream x - dir has no deficit, and
    whose missing pieces neither one exchange out of x - dir as it stands
    nor one upconversion can make, needs one more turn, into x - dir or a
    second into x: distinct turns for distinct such colours."""
    cdef int x, sz, d, y, total = 0, dmask = 0
    cdef int dm[NCOL]
    for x in range(NCOL):
        if not (cmask >> x) & 1:
            continue
        d = 0
        for sz in range(3):
            if req[x * 3 + sz] > h.n[x * 3 + sz]:
                d |= 1 << sz
        dm[x] = d
        if d:
            dmask |= 1 << x
    for x in range(NCOL):
        if not (dmask >> x) & 1:
            continue
        d = dm[x]
        if d == 6 or d == 7:
            total += 2
            continue
        total += 1
        y = (x - dir + NCOL) % NCOL
        if (dmask >> y) & 1:
            continue
        d = deficit_index(h, req, x)
        if not (exchange_makes(d, spare_stock(h, req, y))
                or (allow_up and upconversion_makes(h, req, x, d))):
            total += 1
    return total


def py_lower_bound(stash, int direction, GoalTree tree, int node=0, int win_value=6,
                   int ups=UP_ANY):
    """The kernel's bound; ``ups`` 0 any plan, 1 none with upconversions, 2 some."""
    cdef SState s = make_state(stash, direction, node)
    assert node < tree.count, "no such goal-tree node"
    assert UP_ANY <= ups <= UP_SOME, "ups is 0, 1 or 2"
    return lower_bound(&s, tree, win_value, 1 << 20, False, ups)


def py_leaf_eval(stash, req, int value, int m, int w, int win=6, int ups=UP_ANY):
    """The kernel's :func:`leaf_eval` for one requirement (tests and profiling)."""
    cdef SState s = make_state(stash, 1, 0)
    cdef Have hv
    cdef int16_t r[36]
    cdef int i
    assert len(req) == 36 and all(0 <= x <= 3 * KCAP for x in req), "req is 36 counts"
    assert 0 <= w <= m and UP_ANY <= ups <= UP_SOME, "0 <= w <= m, ups 0-2"
    have_of(&s, &hv)
    for i in range(36):
        r[i] = req[i]
    return leaf_eval(&hv, r, value, m, w, win, 1 << 20, ups)


def py_exchange_makes(deficit, stock):
    """The kernel's table: can one exchange out of ``stock`` (S, M, L counts)
    make ``deficit`` (counts, each at most 4)?"""
    assert len(deficit) == 3 and len(stock) == 3, "S, M, L counts"
    assert all(0 <= x <= 4 for x in deficit) and all(0 <= x <= 4 for x in stock), "counts 0-4"
    return bool(ONE_EX[(deficit[0] + 5 * deficit[1] + 25 * deficit[2]) * 125
                       + stock[0] + 5 * stock[1] + 25 * stock[2]])


def py_flow_tables(residual, deficit_colours):
    """The kernel's :func:`flow_tables` as two lists (budgets 0..6)."""
    cdef int res[NCOL]
    cdef int fa[7]
    cdef int fc[7]
    cdef int c, dmask = 0
    assert len(residual) == NCOL and all(x >= 0 for x in residual), "12 surplus values"
    assert all(0 <= x < NCOL for x in deficit_colours), "colours 0-11"
    for c in range(NCOL):
        res[c] = residual[c]
    for c in deficit_colours:
        dmask |= 1 << c
    flow_tables(res, dmask, fa, fc)
    return [fa[c] for c in range(7)], [fc[c] for c in range(7)]
