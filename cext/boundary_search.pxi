# Boundary's proof search and engine search (included by boundary.pyx).
#
# Twins: the exchange bound and the evaluation are ``solver/boundary/bound.py``;
# the proof search's answers are ``solver/boundary/reference_search.py``'s
# (plain alpha-beta, optionally with the same bound).  docs/boundary.md
# measures every technique switched by ``opts``.

cdef enum:
    OPT_BOUND = 1        # exchange-bound pruning (fewest moves to finish the exchange)
    OPT_NULLWIN = 2      # iterative deepening asks "win within d?" / "loss within d?" only
    OPT_KILLERS = 4      # two killer moves per ply
    OPT_PROGRESS = 8     # moves that bring a pyramid closer to its place first
    OPT_ETC = 16         # enhanced transposition cut-offs
    OPT_EVAL = 32        # engine mode: the horizon scores the evaluation, no proof bound
    OPT_THREAT = 64      # threat first: against a win next move only the moves that stop it
    OPT_BUCKETS = 128    # two table entries per slot: the deeper result kept, one always replaced
    OPT_TARGETED = 256   # generate only the moves threat first and the bound would search
    OPT_ZONE = 512       # order-2 threats: a defender move the attacker's 2-move plan survives loses in 4
    OPT_STAGED = 1024    # the table's move (else the first killer) searched before generating
    OPT_ZONE3 = 2048     # order-3 threats: a defender move the attacker's robust 3-move threat survives loses in 6
    OPT_DEFAULT = OPT_BOUND | OPT_NULLWIN | OPT_KILLERS | OPT_THREAT | OPT_BUCKETS | OPT_TARGETED | OPT_ZONE | OPT_STAGED | OPT_ZONE3

OPTIONS = {"bound": OPT_BOUND, "nullwin": OPT_NULLWIN, "killers": OPT_KILLERS,
           "progress": OPT_PROGRESS, "etc": OPT_ETC, "threat": OPT_THREAT,
           "buckets": OPT_BUCKETS, "targeted": OPT_TARGETED, "zone": OPT_ZONE,
           "staged": OPT_STAGED, "zone3": OPT_ZONE3}
DEFAULT_OPTS = OPT_DEFAULT

cdef int TARGET[12]          # the square each pyramid must end on
cdef int TREE_OF[12]         # 0 or 1: which of its owner's two trees
cdef uint64_t LINES[NSQ]     # squares on a straight line (8 directions) from a square
cdef uint64_t BETWEEN[NSQ][NSQ]   # squares strictly between two squares on a line, else 0


cdef void _init_bound_tables():
    cdef int p, s, d, k, t
    for p in range(12):
        TREE_OF[p] = (p // 3) % 2
        TARGET[p] = WIN_SQ[p // 6][TREE_OF[p]]
    for s in range(NSQ):
        LINES[s] = 0
        for d in range(8):
            for k in range(1, 6):
                t = RAY_SQ[s][d][k]
                if t >= 0:
                    LINES[s] |= <uint64_t>1 << t
                    BETWEEN[s][t] = RAY_PATH[s][d][k]


_init_bound_tables()


cdef inline void _prefixes(const State *st, int pl, int *pre) noexcept nogil:
    """How many pyramids at the bottom of each of ``pl``'s two target stacks are final."""
    cdef int i, t, h
    for i in range(2):
        t = WIN_SQ[pl][i]
        h = 0
        while h < st.height[t] and h < 3 and st.stack[t][h] == WIN_STACK[pl][i][h]:
            h += 1
        pre[i] = h


cdef inline int _cost(int p, int s, int h, const int *pre) noexcept nogil:
    """Fewest moves pyramid ``p`` on square ``s`` at level ``h`` needs to reach its place:
    0 in place, 1 on a straight line to its target square, else 2 (also on the target
    square out of place: it must leave and come back)."""
    cdef int t = TARGET[p]
    if s == t:
        return 0 if h < pre[TREE_OF[p]] else 2
    return 1 if (LINES[t] >> s) & 1 else 2


cdef int exchange_lb(const State *st, int pl) noexcept nogil:
    """A lower bound on the moves ``pl`` needs to complete the exchange: each move moves
    one pyramid, so the sum of the pyramids' ``_cost``."""
    cdef int pre[2]
    cdef int lb = 0, s, h
    cdef uint64_t bb = st.pyr[pl]
    _prefixes(st, pl, pre)
    while bb:
        s = lsb(bb)
        bb &= bb - 1
        for h in range(st.height[s]):
            lb += _cost(st.stack[s][h], s, h, pre)
    return lb


cdef int _blockers(const State *st, int pl) noexcept nogil:
    """Pyramids standing above the part in place on ``pl``'s two target squares (each must
    leave before the tree there can grow)."""
    cdef int pre[2]
    cdef int i
    cdef int n = 0
    _prefixes(st, pl, pre)
    for i in range(2):
        n += st.height[WIN_SQ[pl][i]] - pre[i]
    return n


cdef int _blocked_lines(const State *st, int pl) noexcept nogil:
    """``pl``'s pyramids one straight move from their target square whose line is blocked."""
    cdef int n = 0, s, h, p
    cdef uint64_t bb = st.pyr[pl]
    while bb:
        s = lsb(bb)
        bb &= bb - 1
        p = st.stack[s][st.height[s] - 1]
        if s != TARGET[p] and (LINES[TARGET[p]] >> s) & 1 and (BETWEEN[s][TARGET[p]] & st.occ):
            n += 1
    return n


cdef int evaluate(State *st) noexcept nogil:
    """The engine's score for the side to move X against Y (docs/boundary.md): 50 per
    half move of estimated work X is ahead, where the work is twice the exchange bound,
    twice the pyramids still blocking the target squares, and one for every top pyramid
    on a blocked line to its target; 50 for the move X has in hand; plus the difference
    in legal moves."""
    cdef int me = st.side, wx, wy, mx, my
    wx = 2 * (exchange_lb(st, me) + _blockers(st, me)) + _blocked_lines(st, me)
    wy = 2 * (exchange_lb(st, 1 - me) + _blockers(st, 1 - me)) + _blocked_lines(st, 1 - me)
    mx = gen_moves(st, NULL)
    st.side = 1 - me
    my = gen_moves(st, NULL)
    st.side = me
    return 50 * (wy - wx) + 50 + (mx - my)


cdef struct TTEntry:
    uint64_t key          # the position's full 64-bit Zobrist hash, compared on every probe
    int16_t value
    int8_t depth
    uint8_t flag
    int32_t move

cdef struct Searcher:
    State st
    TTEntry *tt
    uint64_t tt_mask
    uint64_t path[MAXPLY + 2]
    int64_t nodes
    int64_t node_limit
    double deadline
    bint aborted
    bint allow_zero_cuts
    int opts
    int64_t horizon_hits
    int64_t zero_cuts
    int64_t rep_hits
    int64_t bound_cuts
    int64_t etc_cuts
    int64_t threat_cuts
    int64_t zone_plans     # defender's nodes where the attacker had an order-2 plan
    int64_t zone_cuts      # defender's moves refuted by the plan without a search
    int64_t zone_static    # of those, refuted without being played (unstoppable completion)
    int64_t zone_groups    # defender's nodes where only the moves the plan needs were generated
    int64_t zone3_threats  # defender's nodes where the attacker had a robust order-3 threat
    int64_t zone3_cuts     # defender's moves refuted by it (generated or not) without a search
    int64_t cut_first      # nodes cut off by the first move searched
    int64_t cut_later      # nodes cut off by a later move
    int64_t all_nodes      # nodes where every move was searched (no cut-off)
    int32_t *buf
    int32_t killer[MAXPLY + 2][2]
    int32_t plan_killer[MAXPLY + 2]   # the last order-2 plan found at each ply
    int32_t plan3_killer[MAXPLY + 2]  # the last order-3 threat's first move at each ply
    int32_t lb_pass[MAXPLY + 2]       # the child's two exchange bounds, from its parent (0: none)
    uint32_t history[NSQ][NSQ]


cdef TTEntry *_alloc_table(uint64_t entries) noexcept:
    """A zeroed table of ``entries`` entries, aligned on 2 MiB and advised to use huge
    pages (the probe at every node is a cache and TLB miss: huge pages make it one
    memory access instead of a page walk and an access; measured in docs/boundary.md).
    NULL if it cannot be allocated; ``free`` releases it."""
    cdef void *mem = NULL
    cdef size_t size = entries * sizeof(TTEntry)
    if posix_memalign(&mem, 2 * 1024 * 1024, size) != 0:
        return NULL
    madvise(mem, size, MADV_HUGEPAGE)      # advice only: without it, ordinary pages
    memset(mem, 0, size)
    return <TTEntry *>mem


cdef inline TTEntry *_probe(Searcher *S, uint64_t key) noexcept nogil:
    """The table's entry for ``key`` (its whole 64 bits compared), or NULL.  With
    OPT_BUCKETS a key lives in one of the two entries of its bucket."""
    cdef uint64_t i = key & S.tt_mask
    if S.opts & OPT_BUCKETS:
        i &= ~(<uint64_t>1)
        if S.tt[i].key == key:
            return &S.tt[i]
        i = (i + 1) & S.tt_mask
    if S.tt[i].key == key:
        return &S.tt[i]
    return NULL


cdef inline TTEntry *_slot(Searcher *S, uint64_t key, int depth) noexcept nogil:
    """Where to store ``key``'s result of a ``depth``-ply search: its own index, or with
    OPT_BUCKETS the bucket's first entry when it holds the same key or a result no deeper,
    else the second (always replaced)."""
    cdef uint64_t i = key & S.tt_mask
    if S.opts & OPT_BUCKETS:
        i &= ~(<uint64_t>1)
        if not (S.tt[i].key == key or S.tt[i].depth <= depth):
            i = (i + 1) & S.tt_mask
    return &S.tt[i]


cdef inline void _store(Searcher *S, uint64_t key, int depth, int value, int32_t move,
                        int flag) noexcept nogil:
    cdef TTEntry *e = _slot(S, key, depth)
    e.key = key
    e.value = value
    e.depth = depth
    e.move = move
    e.flag = flag


cdef double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline int to_tt(int v, int ply) noexcept nogil:
    if v > MATE_BOUND:
        return v + ply
    if v < -MATE_BOUND:
        return v - ply
    return v


cdef inline int from_tt(int v, int ply) noexcept nogil:
    if v > MATE_BOUND:
        return v - ply
    if v < -MATE_BOUND:
        return v + ply
    return v


cdef inline int _move_delta(const State *st, int32_t m, const int *pre) noexcept nogil:
    """How much ``m`` changes the mover's exchange bound: only the moved pyramid's cost
    changes (-1 at most: a pyramid off every line cannot reach its place in one move)."""
    cdef int p0 = m & 63, p1 = (m >> 6) & 63, piece, c0, c1
    piece = st.stack[p0][st.height[p0] - 1]
    c0 = _cost(piece, p0, st.height[p0] - 1, pre)
    if p1 == TARGET[piece]:
        if st.height[p1] == pre[TREE_OF[piece]] and WIN_STACK[st.side][TREE_OF[piece]][st.height[p1]] == piece:
            c1 = 0                                   # it lands in its place
        else:
            c1 = 2
    else:
        c1 = _cost(piece, p1, st.height[p1], pre)
    return c1 - c0


cdef inline uint32_t _order_score(Searcher *S, int32_t m, int32_t ttmove, int ply,
                                  const int *pre) noexcept nogil:
    """Higher first: the table's move, a pyramid put in its place, the killers, a pyramid
    brought onto a line to its place, a landing on an own base, then history."""
    cdef State *st = &S.st
    cdef int p0 = m & 63, p1 = (m >> 6) & 63, delta
    cdef uint32_t sc
    if m == ttmove:
        return 0xFFFFFFFFU
    sc = S.history[p0][p1]
    if (BASE_MASK[st.side] >> p1) & 1:
        sc += 0x10000000U
    if S.opts & OPT_PROGRESS:
        delta = _move_delta(st, m, pre)
        if delta < 0 and p1 == TARGET[st.stack[p0][st.height[p0] - 1]]:
            return sc + 0xC0000000U          # it lands in its place
        if delta < 0:
            sc += 0x20000000U
    if S.opts & OPT_KILLERS:
        if m == S.killer[ply][0]:
            sc += 0x80000000U
        elif m == S.killer[ply][1]:
            sc += 0x70000000U
    return sc


cdef enum:
    LAZY_PICKS = 3       # moves picked one by one before the rest is sorted at once


cdef void _sort_rest(int32_t *moves, uint32_t *scores, int n) noexcept nogil:
    """Sort ``moves`` by ``scores``, highest first, ties in their present order (a
    Shell sort on keys that carry the position: deterministic, O(n^1.3) rather than the
    O(n^2) of picking one by one at a node where every move is searched)."""
    cdef uint64_t keys[MAXMOVES]
    cdef uint64_t key
    cdef int i, j, g, gi
    cdef int gaps[5]
    gaps[:] = [57, 23, 10, 4, 1]
    for i in range(n):
        keys[i] = (<uint64_t>scores[i] << 32) | <uint64_t>(MAXMOVES - i) << 20 | <uint64_t>i
    for gi in range(5):
        g = gaps[gi]
        for i in range(g, n):
            key = keys[i]
            j = i
            while j >= g and keys[j - g] < key:
                keys[j] = keys[j - g]
                j -= g
            keys[j] = key
    for i in range(n):
        scores[i] = <uint32_t>(keys[i] >> 32)
    for i in range(n):
        keys[i] = <uint64_t>moves[keys[i] & 0xFFFFF]
    for i in range(n):
        moves[i] = <int32_t>keys[i]


cdef void _improving(const State *st, const int *pre, uint64_t *land_ok) noexcept nogil:
    """For every square, the landings that lower the mover's exchange bound when the top
    pyramid there moves (``_move_delta`` < 0): its target square when it would land in
    place, and for a pyramid off every line to its target (or on the target out of
    place) the squares on a line to it.  0 where the mover has no pyramid on top.
    Twin: the moves with ``solver.boundary.bound.move_delta`` < 0."""
    cdef int s, p, t, h, c0
    cdef uint64_t bb = st.pyr[st.side], m
    for s in range(NSQ):
        land_ok[s] = 0
    while bb:
        s = lsb(bb)
        bb &= bb - 1
        h = st.height[s] - 1
        p = st.stack[s][h]
        t = TARGET[p]
        c0 = _cost(p, s, h, pre)
        if c0 == 0:
            continue
        m = 0
        if st.height[t] == pre[TREE_OF[p]] and st.height[t] < 3 and WIN_STACK[st.side][TREE_OF[p]][st.height[t]] == p:
            m = <uint64_t>1 << t
        if c0 == 2:
            m |= LINES[t]
        land_ok[s] = m


cdef inline bint _finishes(const State *st, int32_t m, const int *pre) noexcept nogil:
    """``m`` puts its pyramid in its place (the last one, when the bound is 1)."""
    cdef int p0 = m & 63, p1 = (m >> 6) & 63
    cdef int piece = st.stack[p0][st.height[p0] - 1]
    return (p1 == TARGET[piece] and st.height[p1] == pre[TREE_OF[piece]]
            and WIN_STACK[st.side][TREE_OF[piece]][st.height[p1]] == piece)


cdef int _win_paths(const State *st, uint64_t *req) noexcept nogil:
    """The squares each move completing the exchange of the side NOT to move (Y) needs
    empty, into ``req`` (at most 64 kept); how many such moves.  Only a top pyramid that
    lands in its place can complete it, so only those are tried: alone (its size, inside
    its world), or after one of Y's stones in its world moved as far (the stone's path and
    landing, then the pyramid's path).  Twin: ``solver.boundary.bound.completing_paths``
    (called by the kernel only when Y's bound is 1, where landing in place completes)."""
    cdef int y = 1 - st.side, x = st.side, k = 0
    cdef int pre[2]
    cdef int s, h, p, t, dist, d, s0, s1, w, wt, df, dr
    cdef uint64_t bb, sb, path, occ2, stones_all = st.stones[0] | st.stones[1], b0, b1
    cdef bint ok_stay = st.count[y][0] >= 2 and st.count[y][1] >= 2
    _prefixes(st, y, pre)
    bb = st.pyr[y]
    while bb:
        s = lsb(bb)
        bb &= bb - 1
        h = st.height[s] - 1
        p = st.stack[s][h]
        t = TARGET[p]
        if s == t or not ((LINES[t] >> s) & 1):
            continue
        if st.height[t] != pre[TREE_OF[p]] or pre[TREE_OF[p]] > 2 or WIN_STACK[y][TREE_OF[p]][st.height[t]] != p:
            continue
        df = t % 6 - s % 6
        dr = t // 6 - s // 6
        dist = df if df > 0 else -df
        if dr > dist or -dr > dist:
            dist = dr if dr > 0 else -dr
        path = BETWEEN[s][t]
        w = 0 if s % 6 < 3 else 1
        wt = 0 if t % 6 < 3 else 1
        if w == wt:
            if not ok_stay:
                continue
            if dist == p % 3 + 1 and not (path & st.occ) and not ((stones_all >> t) & 1) and k < 64:
                req[k] = path
                k += 1
        elif st.count[y][w] < 3 or st.count[y][1 - w] < 1:
            continue
        sb = st.stones[y] & WORLD_MASK[w]
        while sb:
            s0 = lsb(sb)
            sb &= sb - 1
            for d in range(8):
                if dist > IN_WORLD[s0][d]:
                    continue
                s1 = RAY_SQ[s0][d][dist]
                if (RAY_PATH[s0][d][dist] & st.occ) or ((st.occ >> s1) & 1) or ((BASE_MASK[x] >> s1) & 1):
                    continue
                b0 = <uint64_t>1 << s0
                b1 = <uint64_t>1 << s1
                occ2 = st.occ ^ b0 ^ b1
                if (path & occ2) or (((stones_all ^ b0 ^ b1) >> t) & 1):
                    continue
                if k < 64:
                    req[k] = RAY_PATH[s0][d][dist] | b1 | path
                    k += 1
    return k


cdef bint _keeps_a_move(State *st, int32_t *scratch) noexcept nogil:
    """Whatever the side to move X plays, the other side Y will still have a legal move:
    among Y's first 24 generated moves, Y has three whose needed squares (paths and landings, Y's bases left out: X can
    never occupy them) are pairwise disjoint, or one needing none.  X's move occupies at
    most two new squares (a stone's and a pyramid's landing) and leaves Y's counts alone,
    so it can spoil at most two of them."""
    cdef int n, i, found = 0
    cdef int32_t m
    cdef uint64_t mask, used = 0, y_bases = BASE_MASK[1 - st.side]
    st.side = 1 - st.side
    n = gen_upto(st, scratch, 24)          # the first few suffice nearly always
    st.side = 1 - st.side
    for i in range(n):
        m = scratch[i]
        mask = BETWEEN[m & 63][(m >> 6) & 63] | (<uint64_t>1 << ((m >> 6) & 63))
        if m & STONE_FLAG:
            mask |= BETWEEN[(m >> 12) & 63][(m >> 18) & 63] | (<uint64_t>1 << ((m >> 18) & 63))
        mask &= ~y_bases
        if mask == 0:
            return True
        if not (mask & used):
            used |= mask
            found += 1
            if found >= 3:
                return True
    return False


# -- order-2 threats (OPT_ZONE; twin solver/boundary/threats.py) -------------------------

cdef inline uint64_t _landings(int32_t m) noexcept nogil:
    """The squares move ``m`` fills: its pyramid's landing and its stone's."""
    cdef uint64_t placed = <uint64_t>1 << ((m >> 6) & 63)
    if m & STONE_FLAG:
        placed |= <uint64_t>1 << ((m >> 18) & 63)
    return placed


cdef inline uint64_t _needs(int32_t m) noexcept nogil:
    """The squares move ``m`` needs free of the other side's pieces: the paths and
    landings of its stone and its pyramid (the other side cannot vacate or stack on any
    of the mover's pieces, so filling one of these is the only way to make ``m`` illegal)."""
    cdef uint64_t mask = BETWEEN[m & 63][(m >> 6) & 63] | (<uint64_t>1 << ((m >> 6) & 63))
    if m & STONE_FLAG:
        mask |= BETWEEN[(m >> 12) & 63][(m >> 18) & 63] | (<uint64_t>1 << ((m >> 18) & 63))
    return mask


cdef bint _can_block(State *st, const uint64_t *req, int nw, int32_t *scratch) noexcept nogil:
    """The side to move X has a move that lands on a square of every one of the ``nw``
    completing moves ``req`` of the other side Y (``_win_paths``), or that completes X's
    own exchange.  Threat first's test, as a yes/no (only moves landing on ``req[0]``, or
    on X's bases when X is one move from its exchange, can do either)."""
    cdef int me = st.side, lbx, n, i, k
    cdef uint64_t need, placed
    cdef uint64_t land_ok[NSQ]
    cdef int pre[2]
    lbx = exchange_lb(st, me)
    need = req[0] | (BASE_MASK[me] if lbx == 1 else 0)
    for i in range(NSQ):
        land_ok[i] = need
    n = gen_filtered(st, scratch, MAXMOVES, land_ok, need)
    _prefixes(st, me, pre)
    for i in range(n):
        placed = _landings(scratch[i])
        for k in range(nw):
            if not (placed & req[k]):
                break
        else:
            scratch[0] = scratch[i]              # the answer first, for a caller that wants it
            return True
        if lbx == 1 and _finishes(st, scratch[i], pre):
            scratch[0] = scratch[i]
            return True
    return False


cdef inline bint _is_plan(State *st, int32_t m, uint64_t *req, int *nreq,
                          int32_t *scratch) noexcept nogil:
    """Y's move ``m`` (Y to move) leaves Y one move from completing and X, then to move,
    unable to stop every completing move or complete its own exchange; the completing
    moves' squares into ``req`` (``nreq`` of them)."""
    cdef int y = st.side, nw
    cdef bint found = False
    make(st, m)                                  # X to move
    if exchange_lb(st, y) == 1:
        nw = _win_paths(st, req)
        if nw > 0 and not _can_block(st, req, nw, scratch):
            found = True
            nreq[0] = nw
    unmake(st, m)
    return found


cdef int32_t _plan2(State *st, int32_t *ymoves, int32_t *scratch, uint64_t *req,
                    int *nreq, int32_t first) noexcept nogil:
    """An order-2 threat of the side not to move, Y (exchange bound 2): Y's first move, in
    generation order among those that lower Y's bound, after which Y (were it Y's turn
    now) is one move from completing and X, to move, can neither stop every completing
    move nor complete its own exchange; its completing moves' squares into ``req``
    (``nreq`` of them).  ``first``, when it is such a move, is the answer (the plan
    found at a sibling node: the answer is then not always the first in generation
    order); it is tried before Y's moves are generated (legal by ``_is_legal``, lowering
    Y's bound by ``_move_delta``: exactly the generated moves).  0 if there is none."""
    cdef int me = st.side, y = 1 - st.side, n, i
    cdef int32_t found = 0
    cdef uint64_t land_ok[NSQ]
    cdef int pre[2]
    st.side = y
    st.hash ^= Z_SIDE
    _prefixes(st, y, pre)
    if (first and _is_legal(st, first, scratch) and _move_delta(st, first, pre) < 0
            and _is_plan(st, first, req, nreq, scratch)):
        found = first
    else:
        _improving(st, pre, land_ok)
        n = gen_filtered(st, ymoves, MAXMOVES, land_ok, 0)
        for i in range(n):
            if ymoves[i] != first and _is_plan(st, ymoves[i], req, nreq, scratch):
                found = ymoves[i]
                break
    st.side = me
    st.hash ^= Z_SIDE
    return found


cdef struct Zone:
    # What the order-2 cut knows at a defender's node (``_zone``).
    int32_t plan          # Y's move (``_plan2``)
    uint64_t needs        # the squares the plan needs free (``_needs``)
    uint64_t z            # the squares Y's completing moves after the plan need free
    bint unstoppable      # one completing move needs no square empty: X cannot stop it
    uint64_t dplan        # the plan's change to the hash
    int nreq
    int lbx
    int pre[2]
    uint64_t req[64]


cdef bint _zone(State *st, Zone *zn, int32_t *ymoves, int32_t *scratch, int32_t first) noexcept nogil:
    """Fill ``zn`` for the side to move X: Y's order-2 plan and what ``_refutes`` checks
    X's moves against.  False if Y has no plan."""
    cdef int me = st.side, i
    cdef uint64_t h0
    zn.plan = _plan2(st, ymoves, scratch, zn.req, &zn.nreq, first)
    if not zn.plan:
        return False
    zn.needs = _needs(zn.plan)
    zn.z = 0
    zn.unstoppable = False
    for i in range(zn.nreq):
        zn.z |= zn.req[i]
        zn.unstoppable |= zn.req[i] == 0
    zn.lbx = exchange_lb(st, me)
    _prefixes(st, me, zn.pre)
    h0 = st.hash
    st.side = 1 - me
    make(st, zn.plan)                # X to move
    zn.dplan = st.hash ^ h0          # Z_SIDE twice (the flip, the make's): cancels
    unmake(st, zn.plan)
    st.side = me
    return True


# -- order-3 threats (OPT_ZONE3; twin solver/boundary/threats.py) ------------------------

cdef struct Zone3:
    # What the order-3 cut knows at a defender's node (``_zone3``).
    int32_t first         # Y's first move m1
    uint64_t needs1       # the squares m1 needs free (Y's bases left out)
    uint64_t all_needs    # m1's and every plan's needed squares
    int nplans
    uint64_t plans[64]    # each plan's needed squares (Y's bases left out)


cdef int _robust_plans(State *st, int32_t *ymoves, uint64_t *out) noexcept nogil:
    """Y to move with bound 2: the squares (Y's bases left out: X never lands there) each
    of Y's bound-lowering moves needs free, for those after which Y has a completing move
    that needs no square empty (nothing X does can stop it); at most 64, how many."""
    cdef int y = st.side, n, i, j, nw, k = 0
    cdef uint64_t land_ok[NSQ]
    cdef uint64_t req[64]
    cdef int pre[2]
    _prefixes(st, y, pre)
    _improving(st, pre, land_ok)
    n = gen_filtered(st, ymoves, MAXMOVES, land_ok, 0)
    for i in range(n):
        make(st, ymoves[i])                      # X to move
        if exchange_lb(st, y) == 1:
            nw = _win_paths(st, req)
            for j in range(nw):
                if req[j] == 0:
                    if k < 64:
                        out[k] = _needs(ymoves[i]) & ~BASE_MASK[y]
                        k += 1
                    break
        unmake(st, ymoves[i])
    return k


cdef bint _unhittable(const uint64_t *plans, int n, uint64_t skip) noexcept nogil:
    """Of the plans whose squares ``skip`` does not meet, at least one remains and no two
    squares meet every one (a move fills at most two: its pyramid's and its stone's
    landing).  A pair (a, b) meeting all has a in the first plan's squares, and b in every
    plan without a: so for each a there, the squares common to the plans without a."""
    cdef int i, a, first = -1
    cdef uint64_t m0, inter
    for i in range(n):
        if not (plans[i] & skip):
            if plans[i] == 0:
                return True
            if first < 0:
                first = i
    if first < 0:
        return False
    m0 = plans[first]
    while m0:
        a = lsb(m0)
        m0 &= m0 - 1
        inter = BOARD
        for i in range(first, n):
            if not (plans[i] & skip) and not ((plans[i] >> a) & 1):
                inter &= plans[i]
        if inter:
            return False
    return True


cdef bint _threat3(State *st, int32_t m1, Zone3 *z3, int32_t *scratch) noexcept nogil:
    """Y to move: after Y's ``m1``, were it Y's turn again, Y's bound is 2 and its plans
    (``_robust_plans``) cannot all be stopped by one move; fills ``z3`` if so."""
    cdef int y = st.side, i
    cdef bint found = False
    make(st, m1)                                 # X to move
    if exchange_lb(st, y) == 2:
        st.side = y                              # X passes
        st.hash ^= Z_SIDE
        z3.nplans = _robust_plans(st, scratch, z3.plans)
        st.side = 1 - y
        st.hash ^= Z_SIDE
        found = _unhittable(z3.plans, z3.nplans, 0)
    unmake(st, m1)
    if found:
        z3.first = m1
        z3.needs1 = _needs(m1) & ~BASE_MASK[y]
        z3.all_needs = z3.needs1
        for i in range(z3.nplans):
            z3.all_needs |= z3.plans[i]
    return found


cdef bint _zone3(State *st, Zone3 *z3, int32_t *ymoves, int32_t *scratch, int32_t first) noexcept nogil:
    """An order-3 threat of the side not to move, Y (exchange bound 3), against the side
    to move X: Y's bound-lowering move m1 (``first``, the sibling's, tried before Y's
    moves are generated) after which Y, to move again, would have plans no single move
    of X stops (``_threat3``).  False if there is none."""
    cdef int me = st.side, y = 1 - st.side, n, i
    cdef bint found = False
    cdef uint64_t land_ok[NSQ]
    cdef int pre[2]
    st.side = y
    st.hash ^= Z_SIDE
    _prefixes(st, y, pre)
    if first and _is_legal(st, first, scratch) and _move_delta(st, first, pre) < 0:
        found = _threat3(st, first, z3, scratch)
    if not found:
        _improving(st, pre, land_ok)
        n = gen_filtered(st, ymoves, MAXMOVES, land_ok, 0)
        for i in range(n):
            if ymoves[i] != first and _threat3(st, ymoves[i], z3, scratch):
                found = True
                break
    st.side = me
    st.hash ^= Z_SIDE
    return found


cdef inline bint _refutes3(const State *st, const Zone3 *z3, int32_t x, int lbx,
                           const int *pre) noexcept nogil:
    """X's move ``x`` loses within 6 plies: it fills no square m1 needs (so m1 stays legal),
    leaves X's bound at 3 or more (X cannot complete in its next two moves), and the plans
    it does not fill still cannot all be stopped by X's next move; then after m1, X's
    reply, a surviving plan and any reply, Y completes (docs/boundary.md)."""
    cdef uint64_t placed = _landings(x)
    if placed & z3.needs1:
        return False
    if lbx + _move_delta(st, x, pre) < 3:
        return False
    return _unhittable(z3.plans, z3.nplans, placed)


cdef inline bint _repeats(const uint64_t *path, int ply, uint64_t key) noexcept nogil:
    """``key`` (a position at ``ply``) is on the path two, four, ... plies up."""
    cdef int i = ply - 2
    while i >= 0:
        if path[i] == key:
            return True
        i -= 2
    return False


cdef inline uint64_t _child_hash(const State *st, int32_t m) noexcept nogil:
    """The hash after the side to move plays ``m`` (legal), without playing it."""
    cdef int p0 = m & 63, p1 = (m >> 6) & 63, h0 = st.height[p0] - 1
    cdef int piece = st.stack[p0][h0]
    cdef uint64_t h = st.hash ^ Z_SIDE ^ Z_PYR[piece][p0][h0] ^ Z_PYR[piece][p1][st.height[p1]]
    if m & STONE_FLAG:
        h ^= Z_STONE[st.side][(m >> 12) & 63] ^ Z_STONE[st.side][(m >> 18) & 63]
    return h


cdef int _refutes(State *st, const Zone *zn, int32_t x, const uint64_t *path, int ply,
                  int32_t *scratch) noexcept nogil:
    """After X's move ``x`` (at ``ply``), Y's plan is legal and leaves X unable to stop
    Y's next move completing the exchange: ``x`` loses within 4 plies.  False also when
    ``x`` completes X's exchange or X's next move could (the bound), or a position of the
    line repeats one on ``path`` (the search would score the repetition 0).  Returns 2
    when the plan prepares an unstoppable completion (a small pyramid one step from its
    place: then only the plan's squares and X's bound matter, and ``x`` is not played),
    1 when ``x`` and the plan were played and X found no defence, 0 otherwise."""
    cdef int me = st.side, nw
    cdef bint ok = False
    cdef uint64_t req[64]
    cdef uint64_t hx
    if _landings(x) & zn.needs:
        return False                                 # x fills a square the plan needs
    if zn.lbx + _move_delta(st, x, zn.pre) < 2:
        return False                                 # X may complete: search it
    if zn.unstoppable:
        hx = _child_hash(st, x)
        if _repeats(path, ply + 1, hx) or _repeats(path, ply + 2, hx ^ zn.dplan):
            return 0
        return 2
    make(st, x)
    if not _repeats(path, ply + 1, st.hash):
        make(st, zn.plan)
        if not _repeats(path, ply + 2, st.hash):
            if _landings(x) & zn.z:
                nw = _win_paths(st, req)         # x spoiled some completing move
                ok = nw > 0 and not _can_block(st, req, nw, scratch)
            else:                                # every one is still there (and maybe more)
                ok = not _can_block(st, zn.req, zn.nreq, scratch)
        unmake(st, zn.plan)
    unmake(st, x)
    return ok


cdef bint _is_legal(const State *st, int32_t m, int32_t *scratch) noexcept nogil:
    """``m`` (a move remembered from another position: the table's or a killer) is legal
    here: the generator itself, narrowed to ``m``'s pyramid and landing, produces it
    (no second copy of the rules to get wrong).  Twin: ``m in legal_moves``."""
    cdef uint64_t land_ok[NSQ]
    cdef int p0 = m & 63, n, i
    if m == 0 or not ((st.pyr[st.side] >> p0) & 1):
        return False
    memset(land_ok, 0, sizeof(land_ok))
    land_ok[p0] = <uint64_t>1 << ((m >> 6) & 63)
    # a legal pyramid move alone is the first (and only) move of the narrowed generator's
    # pyramid-alone pass, which comes before its stone moves: stop after one move
    n = gen_filtered(st, scratch, MAXMOVES if m & STONE_FLAG else 1, land_ok, 0)
    for i in range(n):
        if scratch[i] == m:
            return True
    return False


cdef inline void _pass_bounds(Searcher *S, int32_t m, int ply, int lbx, int lby,
                             const int *pre) noexcept nogil:
    """Before X plays ``m``: the child's bounds, Y's unchanged (X cannot move Y's pyramids
    nor land on Y's bases, which are Y's target squares) and X's changed by ``m``'s
    ``_move_delta`` (exact: only the moved pyramid's cost changes), so the child need
    not compute them.  Only with the bound on (then both are known here)."""
    if lbx >= 0 and lby >= 0 and (S.opts & OPT_BOUND):
        S.lb_pass[ply + 1] = (lby + 1) | ((lbx + _move_delta(&S.st, m, pre) + 1) << 8)


cdef inline void _reward(Searcher *S, int32_t m, int ply, int depth, int searched) noexcept nogil:
    """A cut-off by ``m``: history, killers and the cut-off counters."""
    if S.history[m & 63][(m >> 6) & 63] < 0x0FFFFFFF - depth * depth:
        S.history[m & 63][(m >> 6) & 63] += depth * depth
    if m != S.killer[ply][0]:
        S.killer[ply][1] = S.killer[ply][0]
        S.killer[ply][0] = m
    if searched == 1:
        S.cut_first += 1
    else:
        S.cut_later += 1


cdef int negamax(Searcher *S, int depth, int ply, int alpha, int beta) noexcept nogil:
    """Score of the side to move, searched ``depth`` plies, inside (alpha, beta).

    Scores: ``MATE - n`` is a win for the side to move n plies from the root,
    ``-(MATE - n)`` a loss, 0 a draw or not proven either way (the horizon, a
    repetition of a position on the current path, or an abort); in engine mode
    (OPT_EVAL) the horizon scores ``evaluate``.  Contract: a returned decisive
    score is sound whatever the path (a repetition or a bound only ever pulls
    scores towards 0); a result ``<= alpha`` is an upper bound, ``>= beta`` a
    lower bound, in between exact for this search.
    """
    cdef State *st = &S.st
    cdef int n, i, j, k, best, v, bi, orig_alpha, bestmove = 0, ttmove = 0, me, lbx = -1, lby = -1
    cdef int bound, nw, kept, searched = 0, targeted, early_v = 0, passed
    cdef int32_t early
    cdef bint zoned = False, zoned3 = False
    cdef Zone zn
    cdef Zone3 z3
    cdef uint64_t need
    cdef uint64_t land_ok[NSQ]
    cdef uint64_t req[64]
    cdef uint64_t placed
    cdef uint32_t scores[MAXMOVES]
    cdef int pre[2]
    cdef int32_t *moves
    cdef int32_t m
    cdef uint32_t sc, bsc
    cdef TTEntry *e
    cdef TTEntry *ce
    S.nodes += 1
    __builtin_prefetch(&S.tt[st.hash & S.tt_mask & ~(<uint64_t>1)])   # probed below: memory
    passed = S.lb_pass[ply]          # read and cleared first: never left for another caller
    S.lb_pass[ply] = 0
    if won_by(st, 1 - st.side):
        return -(MATE - ply)
    i = ply - 2
    while i >= 0:
        if S.path[i] == st.hash:
            S.rep_hits += 1
            return 0
        i -= 2
    if depth == 0:
        if not has_move(st):
            return -(MATE - ply)
        S.horizon_hits += 1
        if S.opts & OPT_EVAL:
            return evaluate(st)
        return 0
    if (S.nodes & 1023) == 0:
        if (S.node_limit and S.nodes >= S.node_limit) or (S.deadline > 0 and now() >= S.deadline):
            S.aborted = True
    if S.aborted or ply >= MAXPLY:
        S.horizon_hits += 1
        return 0
    # mate-distance pruning: nothing here beats a win next ply or loses sooner than now
    if alpha < -(MATE - ply):
        alpha = -(MATE - ply)
    if beta > MATE - ply - 1:
        beta = MATE - ply - 1
    if alpha >= beta:
        return alpha
    me = st.side
    if S.opts & OPT_BOUND:
        # the exchange bound: the side to move X completes it at ply + 2 lb(X) - 1 at the
        # earliest, the other side Y at ply + 2 lb(Y); beyond the horizon it is not proven (0)
        if passed:
            # from the parent: X's bound was the parent's Y's (the parent's move cannot
            # touch X's pyramids or X's bases), Y's the parent's plus the move's delta
            lbx = (passed & 255) - 1
            lby = (passed >> 8) - 1
        else:
            lbx = exchange_lb(st, me)
        bound = MATE - ply - (2 * lbx - 1) if 2 * lbx - 1 <= depth else 0
        if bound <= alpha:
            S.bound_cuts += 1
            if bound == 0:
                S.horizon_hits += 1
            return bound
        if not passed:
            lby = exchange_lb(st, 1 - me)
        bound = -(MATE - ply - 2 * lby) if 2 * lby <= depth else 0
        if bound >= beta:
            S.bound_cuts += 1
            if bound == 0:
                S.horizon_hits += 1
            return bound
    if depth == 1 and ply > 0 and (S.opts & OPT_THREAT) and (S.opts & OPT_BOUND) and not (S.opts & OPT_EVAL):
        # one ply left: X wins now only by completing the exchange or by leaving Y without a
        # move; when no move of X can do the latter, the value is known without searching
        if _keeps_a_move(st, S.buf + ply * MAXMOVES):
            S.threat_cuts += 1
            st.side = 1 - me
            v = _win_paths(st, req)            # X's completing moves (X is now "not to move")
            st.side = me
            if v > 0 and lbx == 1:
                return MATE - ply - 1
            S.horizon_hits += 1
            return 0
    orig_alpha = alpha
    e = _probe(S, st.hash)
    if e != NULL:                 # verified: the whole key, not only the index bits
        ttmove = e.move
        if e.depth >= depth:
            v = from_tt(e.value, ply)
            if (v > MATE_BOUND or v < -MATE_BOUND or S.allow_zero_cuts) and (
                    e.flag == TT_EXACT or (e.flag == TT_LOWER and v >= beta)
                    or (e.flag == TT_UPPER and v <= alpha)):
                if -MATE_BOUND <= v <= MATE_BOUND:
                    S.zero_cuts += 1
                return v
    moves = S.buf + ply * MAXMOVES
    _prefixes(st, me, pre)
    nw = 0
    if (S.opts & OPT_THREAT) and depth >= 2:
        # the opponent completes the exchange next move unless this move blocks every
        # completing move (or wins at once): the others lose in 2, exactly
        if lby < 0:
            lby = exchange_lb(st, 1 - me)
        if lby == 1:
            nw = _win_paths(st, req)
            if nw > 0 and lbx < 0:
                lbx = exchange_lb(st, me)
    if ((S.opts & OPT_ZONE) and (S.opts & OPT_BOUND) and not (S.opts & OPT_EVAL) and nw == 0
            and depth >= 4 and -(MATE - ply - 4) <= alpha):
        # order-2 threat: Y, two moves from its exchange, has a move after which X could
        # not stop the completion; a move of X that leaves that plan intact loses within
        # 4 plies, at most alpha here: it fails low without a search (checked move by move)
        if lby < 0:
            lby = exchange_lb(st, 1 - me)
        if lby == 2:
            zoned = _zone(st, &zn, S.buf + (ply + 1) * MAXMOVES, S.buf + (ply + 2) * MAXMOVES,
                          S.plan_killer[ply])
            if zoned:
                S.zone_plans += 1
                S.plan_killer[ply] = zn.plan
    early = 0
    if (S.opts & OPT_STAGED) and nw == 0 and not zoned and depth >= 2:
        # staged generation: the table's move (else the first killer) is searched before
        # any move is generated; nearly every cut-off comes from it (docs/boundary.md),
        # and then the node generates nothing.  Only where no threat or plan filters the
        # moves and the move is not one the bound before the move would cut.
        m = ttmove if ttmove else S.killer[ply][0]
        if m and (st.pyr[me] >> (m & 63)) & 1:
            # its child's table entry is fetched while the legality test runs
            __builtin_prefetch(&S.tt[_child_hash(st, m) & S.tt_mask & ~(<uint64_t>1)])
        if (_is_legal(st, m, moves)
                and not (lbx >= 0 and alpha >= 0 and 2 * (lbx + _move_delta(st, m, pre)) > depth - 1)):
            S.path[ply] = st.hash
            _pass_bounds(S, m, ply, lbx, lby, pre)
            make(st, m)
            early_v = -negamax(S, depth - 1, ply + 1, -beta, -alpha)
            unmake(st, m)
            if S.aborted:
                return 0
            if early_v >= beta:
                _reward(S, m, ply, depth, 1)
                _store(S, st.hash, depth, to_tt(early_v, ply), m, TT_LOWER)
                return early_v
            early = m
    if ((S.opts & OPT_ZONE3) and (S.opts & OPT_BOUND) and not (S.opts & OPT_EVAL) and nw == 0
            and not zoned and depth >= 6 and -(MATE - ply - 6) <= alpha):
        # order-3 threat: Y, three moves from its exchange, has a move after which, were it
        # Y's turn again, no single move of X could stop all of Y's plans; a move of X that
        # leaves that threat intact loses within 6 plies, at most alpha here (``_refutes3``).
        # Looked for only once the staged move has not cut off: where X holds, the first
        # move nearly always shows it, and the threat would be work for nothing
        if lby < 0:
            lby = exchange_lb(st, 1 - me)
        if lbx < 0:
            lbx = exchange_lb(st, me)
        if lby == 3 and lbx >= 3:
            zoned3 = _zone3(st, &z3, S.buf + (ply + 1) * MAXMOVES, S.buf + (ply + 2) * MAXMOVES,
                            S.plan3_killer[ply])
            if zoned3:
                S.zone3_threats += 1
                S.plan3_killer[ply] = z3.first
    targeted = 0
    if (S.opts & OPT_TARGETED) and nw > 0:
        # generate only the moves that can block: a stone or a pyramid landing on the
        # first completing move's squares, or (X one move from its own exchange) a
        # pyramid landing on X's bases, where it may complete it
        need = req[0] | (BASE_MASK[me] if lbx == 1 else 0)
        for i in range(NSQ):
            land_ok[i] = need
        n = gen_filtered(st, moves, MAXMOVES, land_ok, need)
        targeted = 1
    elif ((S.opts & OPT_TARGETED) and lbx >= 0 and alpha >= 0 and depth >= 2
            and 2 * lbx > depth - 1):
        # no slack: only a move that lowers X's bound can win in time (the bound before
        # the move below cuts every other); generate only those
        _improving(st, pre, land_ok)
        n = gen_filtered(st, moves, MAXMOVES, land_ok, 0)
        targeted = 2
    elif (S.opts & OPT_TARGETED) and zoned and zn.unstoppable and zn.lbx >= 2:
        # nothing stops the completion the plan prepares (it needs no square empty):
        # every move loses within 4 but one filling a square the plan needs or, X two
        # moves from its own exchange, one lowering X's bound; generate only those
        if zn.lbx == 2:
            _improving(st, pre, land_ok)
        else:
            memset(land_ok, 0, sizeof(land_ok))
        for i in range(NSQ):
            land_ok[i] |= zn.needs
        n = gen_filtered(st, moves, MAXMOVES, land_ok, zn.needs)
        targeted = 3
    elif (S.opts & OPT_TARGETED) and zoned3:
        # a move filling no square of the threat (m1's or a plan's) and, X three moves from
        # its own exchange, not lowering X's bound is refuted: generate only the others
        if lbx == 3:
            _improving(st, pre, land_ok)
        else:
            memset(land_ok, 0, sizeof(land_ok))
        for i in range(NSQ):
            land_ok[i] |= z3.all_needs
        n = gen_filtered(st, moves, MAXMOVES, land_ok, z3.all_needs)
        targeted = 4
    else:
        n = gen_moves(st, moves)
    if n == 0 and (targeted == 0 or not has_move(st)):
        return -(MATE - ply)
    S.path[ply] = st.hash
    if (S.opts & OPT_ETC) and depth >= 2:
        # enhanced transposition cut-off: a child already known to refute the window
        for i in range(n):
            make(st, moves[i])
            ce = _probe(S, st.hash)
            if ce != NULL and ce.depth >= depth - 1 and (ce.flag == TT_EXACT or ce.flag == TT_UPPER):
                v = -from_tt(ce.value, ply + 1)
                if v >= beta and (v > MATE_BOUND or v < -MATE_BOUND or S.allow_zero_cuts):
                    unmake(st, moves[i])
                    if -MATE_BOUND <= v <= MATE_BOUND:
                        S.zero_cuts += 1
                    S.etc_cuts += 1
                    return v
            unmake(st, moves[i])
    best = -MATE - 1
    if targeted == 3 or targeted == 4:
        # the moves not generated lose within 4 (order 3: within 6; at most alpha: they
        # fail low)
        S.zone_groups += targeted == 3
        best = -(MATE - ply - 4) if targeted == 3 else -(MATE - ply - 6)
        bestmove = ttmove
        if bestmove == 0:
            if n > 0:
                bestmove = moves[0]
            else:
                gen_upto(st, &m, 1)
                bestmove = m
    if targeted == 2:
        # the moves not generated are the bound's cuts: "not a win" (0), past the horizon
        S.bound_cuts += 1
        S.horizon_hits += 1
        best = 0
        bestmove = ttmove              # keep the table's move for the next visit's order
    if nw > 0:
        kept = 0
        for i in range(n):
            m = moves[i]
            placed = <uint64_t>1 << ((m >> 6) & 63)
            if m & STONE_FLAG:
                placed |= <uint64_t>1 << ((m >> 18) & 63)
            for k in range(nw):
                if not (placed & req[k]):
                    break
            else:
                moves[kept] = m
                kept += 1
                continue
            if lbx == 1 and _finishes(st, m, pre):
                moves[kept] = m
                kept += 1
            else:
                bestmove = m
        if kept < n or targeted:
            # a move that blocks nothing loses in exactly 2; with targeted generation
            # one need not have been generated: every move loses in 2 or later anyway
            S.threat_cuts += n - kept
            best = -(MATE - ply - 2)
            if bestmove == 0:                       # a legal move, for the table
                if kept > 0:
                    bestmove = moves[0]
                else:
                    gen_upto(st, &m, 1)
                    bestmove = m
            if kept == 0 or best >= beta:
                _store(S, st.hash, depth, to_tt(best, ply), bestmove,
                       TT_EXACT if kept == 0 else TT_LOWER)
                return best
            if best > alpha:
                alpha = best
            n = kept
    if early:
        # searched above, first: it counts as the first move of the loop
        searched = 1
        if early_v > best:
            best = early_v
            bestmove = early
            if early_v > alpha:
                alpha = early_v
        for i in range(n):
            if moves[i] == early:
                n -= 1
                for j in range(i, n):
                    moves[j] = moves[j + 1]
                break
    for i in range(n):
        scores[i] = _order_score(S, moves[i], ttmove, ply, pre)
    for i in range(n):
        if i < LAZY_PICKS:
            # pick the best-ordered remaining move (ties: generation order): a cut
            # usually comes from one of the first few, so the rest is not sorted yet
            bi = i
            bsc = scores[i]
            for j in range(i + 1, n):
                if scores[j] > bsc:
                    bsc = scores[j]
                    bi = j
            m = moves[bi]
            moves[bi] = moves[i]
            moves[i] = m
            scores[bi] = scores[i]
            if i == LAZY_PICKS - 1 and n > LAZY_PICKS:
                _sort_rest(moves + LAZY_PICKS, scores + LAZY_PICKS, n - LAZY_PICKS)
        m = moves[i]
        if lbx >= 0 and alpha >= 0 and depth >= 2 and 2 * (lbx + _move_delta(st, m, pre)) > depth - 1:
            # the bound cut the child would make: X cannot complete in time, "not a win" (0)
            S.bound_cuts += 1
            S.horizon_hits += 1
            if 0 > best:
                best = 0
                bestmove = m
            continue
        if zoned and (S.opts & OPT_ZONE):
            j = _refutes(st, &zn, m, S.path, ply, S.buf + (ply + 1) * MAXMOVES)
        else:
            j = 0
        if j:
            S.zone_cuts += 1
            S.zone_static += j == 2
            if -(MATE - ply - 4) > best:
                best = -(MATE - ply - 4)
                bestmove = m
            continue
        if zoned3 and _refutes3(st, &z3, m, lbx, pre):
            S.zone3_cuts += 1
            if -(MATE - ply - 6) > best:
                best = -(MATE - ply - 6)
                bestmove = m
            continue
        if i + 1 >= LAZY_PICKS and i + 1 < n:
            # the next move is fixed (sorted): its child's table entry is on its way while
            # this child is searched (the probe is a cache miss)
            __builtin_prefetch(&S.tt[_child_hash(st, moves[i + 1]) & S.tt_mask & ~(<uint64_t>1)])
        _pass_bounds(S, m, ply, lbx, lby, pre)
        make(st, m)
        v = -negamax(S, depth - 1, ply + 1, -beta, -alpha)
        unmake(st, m)
        if S.aborted:
            return 0
        searched += 1
        if v > best:
            best = v
            bestmove = m
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    _reward(S, m, ply, depth, searched)
                    break
    if best < beta:
        S.all_nodes += 1
    _store(S, st.hash, depth, to_tt(best, ply), bestmove,
           TT_UPPER if best <= orig_alpha else (TT_LOWER if best >= beta else TT_EXACT))
    return best


cdef class Search:
    """A search in progress on a copy of a board: the table, killers and history survive
    from one call to the next (iterative deepening drives it from Python or ``_solve``).

    ``Search(board, tt_mb=64, tt_entries=0, opts=DEFAULT_OPTS)``; ``run(depth, alpha,
    beta, time_limit, node_limit)`` searches the root and returns the score;
    ``pv(n)`` follows the table's moves from the root (legal, no repetition).
    """

    cdef Searcher *S
    cdef public object entries

    def __cinit__(self, Board board, int tt_mb=64, int64_t tt_entries=0, int opts=OPT_DEFAULT):
        cdef uint64_t entries = 1
        self.S = NULL
        if tt_mb < 1:
            raise ValueError("tt_mb must be >= 1")
        if tt_entries < 0 or (tt_entries & (tt_entries - 1)) != 0:
            raise ValueError("tt_entries must be 0 or a power of two")
        assert 0 <= opts < 4096, "opts: a mask of OPTIONS"
        if tt_entries:
            entries = <uint64_t>tt_entries
        else:
            while entries * 2 * sizeof(TTEntry) <= <uint64_t>tt_mb * 1024 * 1024:
                entries *= 2
        self.S = <Searcher *>calloc(1, sizeof(Searcher))
        if self.S == NULL:
            raise MemoryError()
        self.S.tt = _alloc_table(entries)
        self.S.buf = <int32_t *>malloc(sizeof(int32_t) * MAXMOVES * (MAXPLY + 1))
        if self.S.tt == NULL or self.S.buf == NULL:
            free(self.S.tt); free(self.S.buf); free(self.S)
            self.S = NULL
            raise MemoryError()
        self.S.st = board.st
        self.S.tt_mask = entries - 1
        self.S.allow_zero_cuts = True
        self.S.opts = opts
        self.entries = int(entries)

    def __dealloc__(self):
        if self.S != NULL:
            free(self.S.tt)
            free(self.S.buf)
            free(self.S)

    def run(self, int depth, int alpha, int beta, double time_limit=0.0, int64_t node_limit=0):
        """Score of the root searched ``depth`` plies in (alpha, beta); None if a limit stopped it
        (``node_limit`` counts this search's nodes too: ``nodes`` is cumulative)."""
        cdef int v
        cdef Searcher *S = self.S
        assert 1 <= depth <= MAXPLY - 2, "depth 1..126"
        S.node_limit = node_limit
        S.deadline = now() + time_limit if time_limit > 0 else 0.0
        S.aborted = False
        S.horizon_hits = 0
        S.zero_cuts = 0
        with nogil:
            v = negamax(S, depth, 0, alpha, beta)
        if S.aborted:
            return None
        return v

    def stats(self):
        return {"nodes": int(self.S.nodes), "horizon_hits": int(self.S.horizon_hits),
                "zero_cuts": int(self.S.zero_cuts), "rep_hits": int(self.S.rep_hits),
                "bound_cuts": int(self.S.bound_cuts), "etc_cuts": int(self.S.etc_cuts),
                "threat_cuts": int(self.S.threat_cuts), "cut_first": int(self.S.cut_first),
                "zone_plans": int(self.S.zone_plans), "zone_cuts": int(self.S.zone_cuts),
                "zone_static": int(self.S.zone_static), "zone_groups": int(self.S.zone_groups),
                "zone3_threats": int(self.S.zone3_threats), "zone3_cuts": int(self.S.zone3_cuts),
                "cut_later": int(self.S.cut_later), "all_nodes": int(self.S.all_nodes)}

    @property
    def nodes(self):
        return int(self.S.nodes)

    def set_zero_cuts(self, bint allow):
        self.S.allow_zero_cuts = allow

    def root_move(self):
        """The table's move at the root (None if the root has no entry)."""
        cdef TTEntry *e = _probe(self.S, self.S.st.hash)
        if e != NULL and e.move != 0:
            return decode_move(e.move)
        return None

    def pv(self, int length):
        """The principal variation: the table's moves from the root while they are legal
        and repeat no position (at most ``length``)."""
        cdef State st = self.S.st
        cdef int32_t buf[MAXMOVES]
        cdef int n, i, k
        cdef TTEntry *e
        out = []
        seen = {st.hash}
        for k in range(length):
            if won_by(&st, 1 - st.side):
                break
            e = _probe(self.S, st.hash)
            if e == NULL or e.move == 0:
                break
            n = gen_moves(&st, buf)
            for i in range(n):
                if buf[i] == e.move:
                    break
            else:
                break
            make(&st, e.move)
            out.append(decode_move(e.move))
            if st.hash in seen:
                break
            seen.add(st.hash)
        return out

    def child_run(self, move, int depth, int alpha, int beta):
        """Score of the position after ``move`` (at ply 1, root on the path) in (alpha, beta)."""
        cdef int32_t m = encode_move(move)
        cdef int v
        cdef Searcher *S = self.S
        S.aborted = False
        S.path[0] = S.st.hash
        make(&S.st, m)
        with nogil:
            v = negamax(S, depth, 1, alpha, beta)
        unmake(&S.st, m)
        return None if S.aborted else v


def improving_moves(Board board):
    """The moves the proof search generates at a node without slack: those that lower
    the mover's exchange bound (``_improving`` then ``gen_filtered``; twin: the legal
    moves with ``solver.boundary.bound.move_delta`` < 0)."""
    cdef uint64_t land_ok[NSQ]
    cdef int32_t buf[MAXMOVES]
    cdef int pre[2]
    cdef int n, i
    if board.winner() is not None:
        return []
    _prefixes(&board.st, board.st.side, pre)
    _improving(&board.st, pre, land_ok)
    n = gen_filtered(&board.st, buf, MAXMOVES, land_ok, 0)
    return [decode_move(buf[i]) for i in range(n)]


def is_legal(Board board, move):
    """The staged search's legality test of a remembered move (``_is_legal``; twin: the
    move is among the reference rules' legal moves)."""
    cdef int32_t buf[MAXMOVES]
    if board.winner() is not None:
        return False
    return bool(_is_legal(&board.st, encode_move(move), buf))


def move_deltas(Board board):
    """Each legal move with its ``_move_delta`` (the change of the mover's exchange bound
    the search passes to the child; twin: ``solver.boundary.bound.move_delta``)."""
    cdef int32_t buf[MAXMOVES]
    cdef int pre[2]
    cdef int n, i
    if board.winner() is not None:
        return []
    _prefixes(&board.st, board.st.side, pre)
    n = gen_moves(&board.st, buf)
    return [(decode_move(buf[i]), _move_delta(&board.st, buf[i], pre)) for i in range(n)]


def completing_paths(Board board):
    """Sorted masks of squares each completing move of the side not to move needs empty
    (the kernel's ``_win_paths``; twin ``solver.boundary.bound.completing_paths``)."""
    cdef uint64_t req[64]
    cdef int n = _win_paths(&board.st, req)
    return sorted(int(req[i]) for i in range(n))


def order2_cut(Board board, first=None):
    """The zone cut at ``board`` as the search makes it at a node with no line above it:
    ``(plan, refuted, static)``, Y's plan (``_plan2``, with ``first`` the plan killer
    from a sibling, any move; None when the side not to move has
    no plan or its bound is not 2), the legal moves of the side to move that the plan
    refutes (``_refutes``, generation order) and, among them, those refuted without
    being played (the plan's completion is unstoppable; at such a node the search does
    not even generate them).  Twin: ``solver.boundary.threats``."""
    cdef Zone zn
    cdef State st = board.st
    cdef uint64_t path[2]
    cdef int32_t *buf
    cdef int n, i, r
    if board.winner() is not None or exchange_lb(&st, 1 - st.side) != 2:
        return None, [], []
    buf = <int32_t *>malloc(sizeof(int32_t) * MAXMOVES * 3)
    if buf == NULL:
        raise MemoryError()
    try:
        if not _zone(&st, &zn, buf, buf + MAXMOVES, encode_move(first) if first is not None else 0):
            return None, [], []
        path[0] = st.hash
        n = gen_moves(&st, buf)
        refuted, static = [], []
        for i in range(n):
            r = _refutes(&st, &zn, buf[i], path, 0, buf + MAXMOVES)
            if r:
                refuted.append(decode_move(buf[i]))
            if r == 2:
                static.append(decode_move(buf[i]))
        return decode_move(zn.plan), refuted, static
    finally:
        free(buf)


def order3_cut(Board board, first=None):
    """The order-3 cut at ``board`` as the search makes it: ``(m1, refuted)``, Y's first
    move of a threat (``_zone3``, with ``first`` a sibling's m1, any move; None when the
    side not to move has none, its bound is not 3 or the side to move's is below 3) and
    the legal moves of the side to move it refutes (``_refutes3``, generation order).
    Twin: ``solver.boundary.threats.refutes3``."""
    cdef Zone3 z3
    cdef State st = board.st
    cdef int32_t *buf
    cdef int n, i, lbx
    cdef int pre[2]
    if (board.winner() is not None or exchange_lb(&st, 1 - st.side) != 3
            or exchange_lb(&st, st.side) < 3):
        return None, []
    buf = <int32_t *>malloc(sizeof(int32_t) * MAXMOVES * 2)
    if buf == NULL:
        raise MemoryError()
    try:
        if not _zone3(&st, &z3, buf, buf + MAXMOVES, encode_move(first) if first is not None else 0):
            return None, []
        lbx = exchange_lb(&st, st.side)
        _prefixes(&st, st.side, pre)
        n = gen_moves(&st, buf)
        refuted = [decode_move(buf[i]) for i in range(n) if _refutes3(&st, &z3, buf[i], lbx, pre)]
        return decode_move(z3.first), refuted
    finally:
        free(buf)


def reference_order(Board board):
    """The root's legal moves as the reference orders them: landings on the mover's own
    bases first, then generation order."""
    moves = board.legal_moves()
    own = BASE_MASK[board.st.side]
    return sorted(moves, key=lambda m: not ((own >> m[3]) & 1))


def _solve(Board board, int max_depth, double time_limit, int64_t node_limit, int tt_mb,
           int64_t tt_entries=0, int opts=OPT_DEFAULT):
    """Iterative deepening from ``board``; a dict with the proven verdict.

    Returns ``result`` ('win', 'loss', 'draw' or 'unknown', for the side to
    move), ``plies`` (to the end of the game under best play, for win/loss),
    ``best`` (the move as a reference tuple: the fastest win the search found;
    for a loss the first longest defence in the reference's order), ``hold`` (with
    null windows: the root move that answered the last loss question "no", i.e. does
    not lose within that depth), ``depth``
    (last completed depth), ``nodes``, ``limit`` (what stopped an unknown:
    'depth', 'time' or 'nodes'), ``tt_entries`` and ``stats``.

    With OPT_NULLWIN each depth d asks one question with a null window: an odd
    d "does the side to move win within d plies?", an even d "does it lose
    within d plies?" (a win ends on the winner's move or on the loser's turn,
    so a win for the side to move takes an odd number of plies, a loss an
    even one).  Without it each depth is a full-window search.

    The transposition table is the largest power of two of entries within
    ``tt_mb`` MiB, or exactly ``tt_entries`` when that is given (a power of
    two; the tests force collisions with a tiny table).  An entry is used only
    when its stored 64-bit key equals the position's hash.

    A draw is claimed only when the searches that ruled out a win and a loss
    met no horizon (no depth limit, no bound cut-off) and used no
    non-decisive transposition entry: then every line ends in a win, a loss
    or a repetition of a position on the line, and a repetition forced by one
    side is a draw (rules/boundary.md, decision: from this position, with no
    earlier history).
    """
    cdef int depth, v, alpha, beta, clean_win = 0, clean_loss = 0, plies
    cdef bint nullwin = (opts & OPT_NULLWIN) != 0
    if max_depth < 1 or max_depth > MAXPLY - 2:
        raise ValueError(f"depth must be 1..{MAXPLY - 2}")
    assert node_limit >= 0 and time_limit >= 0, "limits are >= 0 (0: none)"
    assert board.st.side == 0 or board.st.side == 1, "side 0 or 1"
    assert not (opts & OPT_EVAL), "the proof search takes no evaluation"
    search = Search(board, tt_mb, tt_entries, opts)
    out = {"result": "unknown", "plies": None, "best": None, "depth": 0, "nodes": 0,
           "limit": "depth", "tt_entries": search.entries, "hold": None}
    if won_by(&board.st, 1 - board.st.side) or gen_moves(&board.st, NULL) == 0:
        out.update(result="loss", plies=0, limit=None, stats=search.stats())
        return out
    deadline = now() + time_limit if time_limit > 0 else 0.0
    depth = 1
    while depth <= max_depth:
        if nullwin:
            alpha = MATE - depth - 1 if depth % 2 else -(MATE - depth)
        else:
            alpha = -MATE - 1
        beta = alpha + 1 if nullwin else MATE + 1
        left = deadline - now() if deadline else 0.0
        if deadline and left <= 0:
            out["limit"] = "time"
            break
        res = search.run(depth, alpha, beta, left if deadline else 0.0, node_limit)
        if res is None:
            out["limit"] = "nodes" if (node_limit and search.nodes >= node_limit) else "time"
            break
        v = res
        st = search.stats()
        out["depth"] = depth
        if v > MATE_BOUND:
            out.update(result="win", plies=MATE - v, best=search.root_move(), limit=None)
            break
        if v < -MATE_BOUND:
            plies = MATE + v
            out.update(result="loss", plies=plies, limit=None,
                       best=_longest_defence(search, board, plies))
            break
        if st["horizon_hits"] == 0 and st["zero_cuts"] > 0:
            search.set_zero_cuts(False)        # redo this depth without them
            continue
        search.set_zero_cuts(True)
        if nullwin and depth % 2 == 0:
            out["hold"] = search.root_move()      # a move that does not lose within depth
        clean = st["horizon_hits"] == 0
        if nullwin:
            if depth % 2:
                clean_win = clean
            else:
                clean_loss = clean
            if clean_win and clean_loss:
                out.update(result="draw", best=search.root_move(), limit=None)
                break
        elif clean:
            out.update(result="draw", best=search.root_move(), limit=None)
            break
        depth += 1
    out["nodes"] = search.nodes
    out["stats"] = search.stats()
    return out


def _longest_defence(Search search, Board board, int plies):
    """The first root move, in the reference's order, after which the winner still
    needs all ``plies`` (it does not lose within ``plies - 2``)."""
    moves = reference_order(board)
    if plies <= 2:
        return moves[0]
    for m in moves:
        # the opponent, to move at ply 1, wins by ply plies - 2: score >= MATE - (plies - 2)
        v = search.child_run(m, plies - 3, MATE - (plies - 2) - 1, MATE - (plies - 2))
        if v is None:
            return search.root_move()
        if v < MATE - (plies - 2):
            return m
    return search.root_move()

