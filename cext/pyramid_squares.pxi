# Included by cext/pyramid.pyx (after pyramid_tail.pxi): the square bound.
#
# At a node the placed tiles stand on known squares.  To have ``T`` tiles on the
# board, ``T - placed`` more must go down, all from the tiles dealt before
# index ``T + 8`` (the reserve and the stock up to there).  Each goes on an empty
# square beside a filled tile it fits (its *anchor*): a tile on the board now, and
# then the tile takes that square (an empty square with a filled side or the tile
# below it: one tile a square), or a tile placed after the node, which anchors at
# most 4 (5 from 25 on the board, and one of them a fifth from 19: hub.py, step 4).  A
# maximum flow of those tiles to the squares and the anchors, smaller than
# ``T - placed``, proves no line gets there; kinds not reached from the board by
# fits take no part, the first tile of a kind that fits nothing reached without it
# anchors at most the room of a square that takes it now, and the fifth place is
# only for kinds that can stand where five open (docs/pyramid.md, "The square bound";
# the pure-Python twin is solver/pyramid/squares.py, tile by tile; here by kind:
# tiles of a kind are interchangeable and fit no tile of their kind but dragons).

cdef enum:
    SQUARES_AHEAD = 32       # ``T`` up to ``placed`` + this (not asking further is sound)
    SQUARES_UPTO = 12        # asked only with at most this many tiles placed: deeper it cut next to
                             # nothing and cost up to 5 times the tail's time (docs/pyramid.md,
                             # "The square bound near the root only")
    SQ_CLASSES = 40          # square classes kept apart (by what they accept); the rest merged
    SQ_FIVE = SQ_CLASSES + NKINDS    # the fifth tile of the one anchor that may hold 5 (19 to 24 on the board)
    SQ_RIGHT = SQ_FIVE + 1
    SQ_ONE_FIVE = 19         # hub.ONE_FIVE: on the board before one tile placed after the node anchors 5
    SQ_ALL_FIVE = 25         # hub.ALL_FIVE: before any may
    SQ_ANCHOR = 4            # tiles a tile placed after the node anchors (hub.LEVEL1_CHILDREN)


cdef int g_diamond[NPOS][13]   # for a square with four sides and a top: the 13 squares one level
                                # down that its sides stand over (they and the squares beside them)
cdef bint g_has_diamond[NPOS]


cdef void _build_diamonds():
    cdef int x, i, j, n, q, r, d
    for x in range(NPOS):
        g_has_diamond[x] = g_nside[x] == 4 and g_above[x] >= 0 and g_below[x] >= 0
        if not g_has_diamond[x]:
            continue
        n = 0
        for q in range(NPOS):
            if g_level[q] == g_level[x] - 1:
                d = abs(g_file[q] - g_file[x]) + abs(g_rank[q] - g_rank[x])
                if d <= 2:
                    g_diamond[x][n] = q
                    n += 1


_build_diamonds()


cdef void _fifth_need(State *s, int *need) noexcept nogil:
    """``need[u]``: tiles still to place before a tile of kind ``u`` placed after
    the node can have anchored five.  It stands on an empty square ``x`` above
    level 1 whose four sides and top are empty now and take its five; its own
    anchor is then the tile below ``x`` (filled now with a kind ``u`` fits, or
    empty now); and the 13 squares one level down under its sides, a diamond,
    are filled first.  The fewest, over such squares, of the diamond's empty
    squares + the tile + its five (1000 when there is none)."""
    cdef int x, i, u, empty, below
    cdef uint32_t kinds
    for u in range(NKINDS):
        need[u] = 1000
    for x in range(NPOS):
        if not g_has_diamond[x] or s.kind[x] >= 0 or s.kind[g_above[x]] >= 0:
            continue
        for i in range(4):
            if s.kind[g_side[x][i]] >= 0:
                break
        else:
            empty = 0
            for i in range(13):
                empty += s.kind[g_diamond[x][i]] < 0
            below = s.kind[g_below[x]]
            kinds = g_fit[s.variant][below] if below >= 0 else (<uint32_t>1 << NKINDS) - 1
            while kinds:
                u = _ctz32(kinds)
                kinds &= kinds - 1
                if empty + 1 + DRAGON_SOCKETS < need[u]:
                    need[u] = empty + 1 + DRAGON_SOCKETS


cdef bint g_squares_on = True   # the tail search asks the bound (off: to measure the kernel without it)
cdef int g_squares_upto = SQUARES_UPTO


def square_bound_upto(int placed):
    """Ask the square bound only at nodes with at most ``placed`` tiles on the board
    (benchmarks compare limits; skipping a cut is always sound); return the previous one."""
    global g_squares_upto
    old = g_squares_upto
    g_squares_upto = placed
    return old


def use_square_bound(bint on):
    """Switch the square bound in the tail search on or off for this process
    (benchmarks and tests compare the two); return the previous setting."""
    global g_squares_on
    old = g_squares_on
    g_squares_on = on
    return old


cdef struct SquareFlow:
    int nclass
    uint32_t accept[SQ_CLASSES]   # kinds that fit a filled neighbour of the class's squares
    int cap[SQ_RIGHT]             # square classes, then anchors by kind
    int load[SQ_RIGHT]
    int flow[NKINDS][SQ_RIGHT]    # tiles of a kind sent to a class or an anchor
    int supply[NKINDS]            # candidate tiles, by kind
    int unmatched[NKINDS]
    uint32_t fits_into[NKINDS]    # anchors (kinds) a kind fits
    uint64_t classes_of[NKINDS]   # the square classes that take a kind
    uint32_t users[SQ_RIGHT]      # kinds with flow into a class or an anchor
    int per_anchor                # 4, then 5
    int five                      # 1 from 19 tiles on the board: one anchor holds a fifth
    uint32_t present              # kinds among the candidates
    int square_room[NKINDS]       # the most empty neighbours of an empty square that takes the kind now
    uint32_t frontier             # kinds some empty square takes now
    uint32_t reach                # candidate kinds that can go down: from the frontier by fits
    uint32_t fresh                # kinds whose first tile down can stand beside a tile placed after the node
    uint32_t five_ok              # kinds a tile of which may anchor five: ``fresh``, a second tile, or a square
                                  # that takes the kind now with five empty neighbours
    uint32_t five_by_now          # kinds with ``need`` (_fifth_need) met by the tiles placed since the node


cdef inline int _sq_cap(SquareFlow *f, int r) noexcept nogil:
    """An anchor kind holds ``per_anchor`` a tile; dragons anchor dragons only
    when there are two (a tile does not anchor itself)."""
    if r == SQ_FIVE:
        return f.five
    return f.cap[r] if r < SQ_CLASSES else _sq_room(f, r - SQ_CLASSES)


cdef inline int _sq_room(SquareFlow *f, int u) noexcept nogil:
    """Tiles the tiles of kind ``u`` placed after the node can anchor in all:
    ``per_anchor`` each, but the first of them, when it cannot stand beside a
    tile placed before it after the node (``fresh``), stands on a square that
    takes it now: at most that square's empty neighbours.  None if the kind
    cannot go down."""
    cdef int first
    if not (f.reach >> u) & 1 or f.supply[u] == 0:
        return 0
    if (f.fresh >> u) & 1 or f.square_room[u] >= f.per_anchor:
        return f.per_anchor * f.supply[u]
    return f.square_room[u] + f.per_anchor * (f.supply[u] - 1)


cdef inline uint32_t _sq_closure(SquareFlow *f, uint32_t start, uint32_t allowed, int variant) noexcept nogil:
    """The kinds of ``allowed`` reached from ``start`` by fits."""
    cdef uint32_t reach = start & allowed, grow, m
    cdef int v
    while True:
        grow = 0
        m = reach
        while m:
            v = _ctz32(m)
            m &= m - 1
            grow |= g_fit[variant][v]
        grow &= allowed & ~reach
        if grow == 0:
            return reach
        reach |= grow


cdef void _sq_reach(SquareFlow *f, int variant) noexcept nogil:
    """``reach`` and ``fresh`` for the candidates ``present``: a tile goes down
    beside a tile on the board now (its kind in ``frontier``) or beside one placed
    since, whose own chain of anchors leads back to the board.  The first tile of
    kind ``u`` has no tile of its kind in its chain: it stands beside a tile of
    the board only, unless ``u`` fits a kind reached without ``u``."""
    cdef uint32_t m
    cdef int u
    f.reach = _sq_closure(f, f.frontier, f.present, variant)
    f.fresh = f.five_ok = 0
    m = f.reach
    while m:
        u = _ctz32(m)
        m &= m - 1
        if f.fits_into[u] & _sq_closure(f, f.frontier, f.present & ~((<uint32_t>1) << u), variant):
            f.fresh |= (<uint32_t>1) << u
        if (f.fresh >> u) & 1 or f.supply[u] >= 2 or f.square_room[u] >= DRAGON_SOCKETS:
            f.five_ok |= (<uint32_t>1) << u


cdef struct Seen:
    uint64_t classes
    uint32_t anchors
    bint five


cdef bint _sq_take(SquareFlow *f, int k, int r, Seen *seen) noexcept nogil:
    """Send one more tile of kind ``k`` to ``r``: into its room, or by moving a
    tile of another kind already there on along an augmenting path."""
    cdef uint32_t js
    cdef int j
    if f.load[r] < _sq_cap(f, r):
        f.load[r] += 1
    else:
        js = f.users[r] & ~((<uint32_t>1) << k)
        while js:
            j = _ctz32(js)
            js &= js - 1
            if _sq_augment(f, j, seen):
                f.flow[j][r] -= 1
                if f.flow[j][r] == 0:
                    f.users[r] &= ~((<uint32_t>1) << j)
                break
        else:
            return False
    f.flow[k][r] += 1
    f.users[r] |= (<uint32_t>1) << k
    return True


cdef bint _sq_augment(SquareFlow *f, int k, Seen *seen) noexcept nogil:
    """One more tile of kind ``k`` into the flow, by an augmenting path (Kuhn's,
    over the square classes, the anchors by kind and the fifth place)."""
    cdef uint64_t cm
    cdef uint32_t am
    cdef int c, u
    if not (f.reach >> k) & 1:
        return False
    cm = f.classes_of[k] & ~seen.classes
    while cm:
        c = _ctz64(cm)
        cm &= cm - 1
        seen.classes |= (<uint64_t>1) << c
        if _sq_take(f, k, c, seen):
            return True
    am = f.fits_into[k] & f.reach & ~seen.anchors
    if k == KIND_DRAGON and f.flow[k][SQ_CLASSES + k] >= (f.supply[k] if f.supply[k] > 1 else 0):
        am &= ~((<uint32_t>1) << k)           # a dragon anchors only another dragon
    while am:
        u = _ctz32(am)
        am &= am - 1
        seen.anchors |= (<uint32_t>1) << u
        if _sq_take(f, k, SQ_CLASSES + u, seen):
            return True
    if not seen.five and f.fits_into[k] & f.five_ok & f.five_by_now & ~(<uint32_t>(k == KIND_DRAGON and f.supply[k] < 2) << k):
        seen.five = True
        if _sq_take(f, k, SQ_FIVE, seen):
            return True
    return False


cdef int squares_short(State *s, int ahead) noexcept nogil:
    """The fewest tiles in all (``placed`` < T <= ``placed + ahead``, at most 144)
    that no line from here can have on the board by the square bound, or 0 when
    it rules none out (a board with a tile on it)."""
    cdef SquareFlow f
    cdef Seen seen
    cdef int p, c, k, T, last, stock = NSLOTS + s.placed, matched = 0
    cdef uint32_t m, known = 0
    cdef int need5[NKINDS]
    _fifth_need(s, need5)
    memset(&f, 0, sizeof(SquareFlow))
    f.per_anchor = SQ_ANCHOR
    for p in range(NPOS):
        m = s.acc[p]
        if s.kind[p] >= 0 or m == 0:
            continue
        for c in range(f.nclass):
            if f.accept[c] == m:
                break
        else:
            if f.nclass < SQ_CLASSES:
                c = f.nclass
                f.nclass += 1
                f.accept[c] = m
            else:
                c = SQ_CLASSES - 1
                f.accept[c] |= m            # merged: accepts more, so the flow only grows
        f.cap[c] += 1
        f.frontier |= m
        while m:
            k = _ctz32(m)
            m &= m - 1
            f.classes_of[k] |= (<uint64_t>1) << c
            if s.empty_near[p] > f.square_room[k]:
                f.square_room[k] = s.empty_near[p]
    for k in range(NKINDS):
        f.fits_into[k] = g_fit[s.variant][k]     # fits are symmetric: the kinds k fits
        f.supply[k] = s.reserve[k]
        if s.reserve[k] > 0:
            f.present |= (<uint32_t>1) << k
        f.unmatched[k] = s.reserve[k]
    last = s.placed + ahead
    if last > NPOS:
        last = NPOS
    for T in range(s.placed + 1, last + 1):
        k = -1
        if T + NSLOTS - 2 >= stock and T + NSLOTS - 2 < NPOS:   # the tile dealt at T + 7 comes in
            k = s.deal[T + NSLOTS - 2]
            f.supply[k] += 1
            f.unmatched[k] += 1
            f.present |= (<uint32_t>1) << k
        f.per_anchor = DRAGON_SOCKETS if T >= SQ_ALL_FIVE else SQ_ANCHOR
        f.five = T >= SQ_ONE_FIVE     # (kept from 25 on, where every anchor holds 5: caps never fall)
        for c in range(NKINDS):
            if need5[c] == T - s.placed:
                f.five_by_now |= (<uint32_t>1) << c
        if f.present != known:        # new kinds: reach and fresh only grow, so caps never fall
            _sq_reach(&f, s.variant)
            known = f.present
        elif k >= 0 and f.supply[k] >= 2 and (f.reach >> k) & 1:
            f.five_ok |= (<uint32_t>1) << k
        for k in range(NKINDS):
            while f.unmatched[k] > 0:
                memset(&seen, 0, sizeof(seen))
                if not _sq_augment(&f, k, &seen):
                    break
                f.unmatched[k] -= 1
                matched += 1
        if matched < T - s.placed:
            return T
    return 0
