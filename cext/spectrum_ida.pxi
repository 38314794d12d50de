# Spectrum kernel, part of cext/spectrum.pyx (textual include): IDA* for the
# minimum turns (transposition table with verified keys, static-bound cache,
# commutation pruning, two passes per bound).

ctypedef struct TTEntry:
    uint64_t w0, w1
    int32_t node
    int32_t prev        # the move the bound assumes was played last (-1: any)
    int8_t dir
    int16_t lb          # proven: at least this many turns to win from here


cdef inline int move_colours(int32_t code) noexcept nogil:
    """Bit set of the colours a move touches (given and received)."""
    return (1 << ((code >> 2) & 15)) | (1 << ((code >> 24) & 15))


cdef bint converts_after(const SState *s, int32_t code, GoalTree tree) noexcept:
    """Would move ``code`` played at ``s`` end with some goal matched?"""
    cdef SState t = s[0]
    cdef int c = (code >> 2) & 15, to = (code >> 24) & 15, i
    cdef uint8_t *g
    for i in range(3):
        addf(&t, c * 3 + i, -((code >> (6 + 3 * i)) & 7))
        addf(&t, to * 3 + i, (code >> (15 + 3 * i)) & 7)
    g = tree.nodes[t.node].goals
    for i in range(3):
        if cnt(&t, g[i * 3] * 3) and cnt(&t, g[i * 3 + 1] * 3 + 1) and cnt(&t, g[i * 3 + 2] * 3 + 2):
            return True
    return False


cdef inline bint commuted_away(const SState *parent, int32_t prev, const SState *s,
                               const Succ *child, GoalTree tree) noexcept:
    """Move pruning by commutation.  ``prev`` led from ``parent`` to ``s``
    without a conversion (else prev = -1).  The child's move m is skipped when
    m touches none of prev's colours, neither order converts a goal, and
    m's code is below prev's: then (m, prev) reaches the same position in the
    same turns, so of any plan the lexicographically least of its reorderings
    is never skipped, and a shortest plan survives."""
    if prev < 0 or child.move >= prev or child.st.node != s.node:
        return False
    if move_colours(prev) & move_colours(child.move):
        return False
    return not converts_after(parent, child.move, tree)


cdef inline int child_ups(int ups, int32_t move) noexcept nogil:
    """The kind of plans searched after ``move``: a plan that must still
    upconvert is free once it has (move codes of upconversions are odd)."""
    if ups == UP_SOME and (move & 1):
        return UP_ANY
    return ups


cdef class _Ida:
    cdef GoalTree tree
    cdef int win_value
    cdef TTEntry *tt
    cdef uint64_t mask
    cdef TTEntry *sc         # static bounds that cut: lb >= entry.lb
    cdef uint64_t smask, sc_max
    cdef int64_t sc_stores
    cdef Succ *buf
    cdef size_t cap
    cdef int64_t nodes, max_nodes
    cdef double max_seconds
    cdef clock_t start
    cdef int stop          # 0 running, 1 nodes, 2 seconds, 3 goal tree
    cdef int32_t path[MAXDEPTH]
    cdef int32_t found_len
    cdef int64_t depth_nodes[MAXDEPTH]

    def __dealloc__(self):
        free(self.tt)
        free(self.sc)
        free(self.buf)

    cdef int ensure(self, size_t need) noexcept:
        cdef Succ *grown
        if need <= self.cap:
            return 0
        grown = <Succ *>realloc(self.buf, need * 2 * sizeof(Succ))
        if grown == NULL:
            return -1
        self.buf = grown
        self.cap = need * 2
        return 0

    cdef void grow_cache(self) noexcept:
        """Double the cache of static cuts (it starts small, so an easy
        position touches few fresh pages), keeping its entries; on failure
        it stays as it is (a cache only saves work)."""
        cdef uint64_t i, size = self.smask + 1
        cdef SState p
        cdef TTEntry *grown = <TTEntry *>calloc(size * 2, sizeof(TTEntry))
        if grown == NULL:
            self.sc_max = self.smask
            return
        for i in range(size):
            if self.sc[i].dir != 0:
                p.w[0] = self.sc[i].w0
                p.w[1] = self.sc[i].w1
                p.node = self.sc[i].node
                p.dir = self.sc[i].dir
                grown[skey(&p) & (size * 2 - 1)] = self.sc[i]
        free(self.sc)
        self.sc = grown
        self.smask = size * 2 - 1
        self.sc_stores = 0

    cdef int child_h(self, const SState *c, int32_t cprev, int cap, int ups) noexcept:
        """The child's lower bound capped at ``cap``: the table's proven
        bound for it (if it applies after ``cprev``) or :func:`lower_bound`."""
        cdef uint64_t key = skey(c)
        cdef TTEntry *e = &self.tt[key & self.mask]
        cdef int r, tag = ups + 1
        if (e.w0 == c.w[0] and e.w1 == c.w[1] and e.node == c.node and e.dir == c.dir * tag
                and (e.prev < 0 or e.prev == cprev)):
            # a searched position's entry is never below its static bound
            # (it was searched because that bound passed, and the search
            # proved more), so the bound need not be computed again
            return e.lb
        e = &self.sc[key & self.smask]
        if (e.w0 == c.w[0] and e.w1 == c.w[1] and e.node == c.node and e.dir == c.dir * tag
                and e.lb >= cap):
            return e.lb
        r = lower_bound(c, self.tree, self.win_value, cap, True, ups)
        if r >= cap:
            # the static bound depends on the position alone (not the path)
            self.sc_stores += 1
            if self.sc_stores > <int64_t>self.smask and self.smask < self.sc_max:
                self.grow_cache()
                e = &self.sc[key & self.smask]
            e.w0 = c.w[0]
            e.w1 = c.w[1]
            e.node = c.node
            e.dir = c.dir * tag
            e.prev = -1
            e.lb = min(r, 30000)
        return r

    cdef int dfs(self, const SState *s_in, const SState *parent_in, int32_t prev, int g,
                 int bound, size_t base, int h, int ups) noexcept:
        """Contract: ``ups`` says which plans from ``s`` are searched
        (:func:`child_ups`); table entries carry it as ``dir * (ups + 1)``,
        so a bound proven for one kind is never read for another.
        ``h`` (<= ``bound - g``) is a proven lower bound on the
        turns to win from ``s`` (the caller evaluated it).  Returns -1 if a win
        within ``bound - g`` more turns was found (the plan is
        ``path[0:found_len]``); else a proven lower bound on ``g`` +
        turns-to-win from ``s``, for plans whose first move is not skipped by
        :func:`commuted_away` after ``prev`` from ``parent``, that exceeds
        ``bound`` (a large value when nothing below the limits exists); 0
        when a limit stopped it.  Table entries carry the ``prev`` they
        assume, or -1 when nothing was skipped (valid for any path).

        Children are evaluated here, before any is searched (a cut child
        costs no call); those whose bound passes are searched in order of
        their proven bound, conversions first.  (Ordering by the exact
        bound was measured: no fewer nodes than generation order.)"""
        cdef int n, i, j, r, live = 0, best = 1 << 20
        cdef bint skipped = False
        cdef int32_t nprev
        cdef uint64_t key
        cdef TTEntry *e
        cdef Succ tmp
        cdef Succ *b
        # the caller's states live in the successor buffer, which a deeper
        # call may move (realloc): work on copies, and re-read ``b`` after
        # every call
        cdef SState here = s_in[0]
        cdef SState above = parent_in[0]
        cdef SState *s = &here
        cdef const SState *parent = &above
        if s.won:
            self.found_len = g
            return -1
        self.nodes += 1
        self.depth_nodes[g] += 1
        if self.nodes > self.max_nodes:
            self.stop = 1
            return 0
        if (self.nodes & 4095) == 0 and self.max_seconds > 0:
            if <double>(clock() - self.start) / CLOCKS_PER_SEC > self.max_seconds:
                self.stop = 2
                return 0
        if g >= MAXDEPTH - 1:
            return g + h + 1
        if self.ensure(base + max_successors(s)) < 0:
            self.stop = 3
            return 0
        b = self.buf + base
        n = expand(s, self.tree, self.win_value, b)
        if n < 0:
            self.stop = 3
            return 0
        if ups == UP_NONE:
            j = 0
            for i in range(n):
                if not (b[i].move & 1):      # not an upconversion
                    b[j] = b[i]
                    j += 1
            n = j
        for i in range(n):
            if b[i].st.won:
                self.path[g] = b[i].move
                self.found_len = g + 1
                return -1
        if n == 0:
            best = 1 << 20     # no move at all: a pass forever, never winning
        elif g + 1 >= bound:
            best = g + 2       # no move wins at once: at least two turns remain
        else:
            for i in range(n):
                if commuted_away(parent, prev, s, &b[i], self.tree):
                    skipped = True
                    continue
                nprev = b[i].move if b[i].st.node == s.node else -1
                r = self.child_h(&b[i].st, nprev, bound - g, child_ups(ups, b[i].move))
                self.nodes += 1
                if g + 1 + r > bound:
                    if g + 1 + r < best:
                        best = g + 1 + r
                    continue
                tmp = b[i]
                # order: bound, then conversions first, then exchanges before
                # upconversions (most minimum plans have none)
                tmp.h = (r << 12) | ((tmp.st.node == s.node) << 11) | ((tmp.move & 1) << 10)
                j = live
                while j > 0 and b[j - 1].h > tmp.h:
                    b[j] = b[j - 1]
                    j -= 1
                b[j] = tmp
                live += 1
            for i in range(live):
                self.path[g] = b[i].move
                nprev = b[i].move if b[i].st.node == s.node else -1
                self.nodes -= 1      # counted when evaluated
                r = self.dfs(&b[i].st, s, nprev, g + 1, bound, base + n, b[i].h >> 12,
                             child_ups(ups, b[i].move))
                b = self.buf + base
                if r < 0:
                    return -1
                if self.stop:
                    return 0
                if r < best:
                    best = r
        key = skey(s)
        e = &self.tt[key & self.mask]
        e.w0 = s.w[0]
        e.w1 = s.w[1]
        e.node = s.node
        e.dir = s.dir * (ups + 1)
        e.prev = prev if skipped else -1
        e.lb = min(best - g, 30000)
        return best


def ida_min_turns(stash, int direction, GoalTree tree, int node=0, *, int win_value=6,
                  int64_t max_nodes=50_000_000, double max_seconds=60.0, int max_turns=40,
                  int tt_bits=20):
    """Minimum turns from a solitaire position to a stash worth ``win_value`` or less.

    Returns a dict: ``status`` is ``found`` (``turns`` is proven minimal: every
    smaller bound was searched to exhaustion with an admissible lower bound),
    ``exhausted`` (no win exists at all), or ``limit`` with ``limit`` naming it
    (``nodes``, ``seconds``, ``turns``, ``goal-tree``).  ``plan`` holds the move
    codes, ``bounds`` the (bound, nodes) of each iteration, ``first_pass``
    the nodes of each iteration's first pass and ``depths`` (when found) the
    nodes at each depth of each iteration's last pass (for profiling).

    Each bound is searched in two passes.  The first looks only for plans
    without upconversions: their tree is about ten times smaller (every
    upconversion adds a point, so such plans need a fourth conversion) and
    the bound is tighter for them (u = 0), and most minimum plans have none.
    Only when it finds nothing does the second pass search every plan; so
    the answer is still the least bound at which some plan exists.
    """
    cdef _Ida ida = _Ida()
    cdef SState s = make_state(stash, direction, node)
    cdef int bound, r, rn, lbn
    cdef int64_t first
    cdef list bounds = []
    cdef list first_pass = []
    cdef list depths = []
    if tt_bits < 4 or tt_bits > 28:
        raise ValueError("tt_bits must be in 4..28")
    assert node < tree.count, "no such goal-tree node"
    assert win_value >= 0 and max_nodes >= 0 and max_turns >= 0, "limits are >= 0"
    ida.tree = tree
    ida.win_value = win_value
    ida.mask = (1 << tt_bits) - 1
    ida.tt = <TTEntry *>calloc(1 << tt_bits, sizeof(TTEntry))
    ida.sc_max = (1 << (tt_bits + 1)) - 1
    ida.smask = (1 << min(tt_bits + 1, 12)) - 1
    ida.sc = <TTEntry *>calloc(ida.smask + 1, sizeof(TTEntry))
    if ida.tt == NULL or ida.sc == NULL:
        raise MemoryError()
    # calloc's zeros are empty entries: dir 0 matches no position (dir is +-1),
    # and untouched pages cost nothing
    ida.max_nodes = max_nodes
    ida.max_seconds = max_seconds
    ida.start = clock()
    s.won = s.value <= win_value
    if s.won:
        return {"status": "found", "turns": 0, "plan": [], "nodes": 0, "bounds": []}
    bound = lower_bound(&s, tree, win_value, 1 << 20)
    lbn = lower_bound(&s, tree, win_value, 1 << 20, False, UP_NONE)
    while True:
        if bound > max_turns:
            return {"status": "limit", "limit": "turns", "nodes": ida.nodes, "bounds": bounds,
                    "lower_bound": bound}
        before = ida.nodes
        r = rn = lbn
        if lbn <= bound:
            memset(ida.depth_nodes, 0, sizeof(ida.depth_nodes))
            r = rn = ida.dfs(&s, &s, -1, 0, bound, 0, bound, UP_NONE)
        first = ida.nodes - before
        first_pass.append((bound, first))
        if r >= 0 and not ida.stop:
            # every plan within the bound without upconversions was searched
            memset(ida.depth_nodes, 0, sizeof(ida.depth_nodes))
            r = ida.dfs(&s, &s, -1, 0, bound, 0, bound, UP_SOME)
            if r > 0 and rn < r:
                r = rn       # the next bound: the least over both kinds of plan
        bounds.append((bound, ida.nodes - before))
        depths.append([ida.depth_nodes[i] for i in range(bound + 1)])
        if r < 0:
            return {"status": "found", "turns": ida.found_len,
                    "plan": [ida.path[i] for i in range(ida.found_len)],
                    "nodes": ida.nodes, "bounds": bounds, "first_pass": first_pass,
                    "depths": depths}
        if ida.stop:
            return {"status": "limit", "limit": ("", "nodes", "seconds", "goal-tree")[ida.stop],
                    "nodes": ida.nodes, "bounds": bounds, "first_pass": first_pass,
                    "lower_bound": bound}
        if r >= (1 << 20):
            return {"status": "exhausted", "nodes": ida.nodes, "bounds": bounds,
                    "first_pass": first_pass}
        bound = r
