"""Compiled Spectrum engine: packed stashes, successors, hashing, IDA* and BFS.

Contract.  A solitaire position is ``SState``: the stash packed 3 bits per
(colour, size) count (colours 0-5 in ``w[0]``, 6-11 in ``w[1]``, field
``colour*3 + size``), the direction (+1 cw, -1 ccw), the stash value and a
node of a :class:`GoalTree`.  A goal-tree node stands for one conversion
history: its three goals, its bags and its generator state, so the future
draws are exact.  The bank is implied (4 of each kind minus the stash), which
is also every piece the mover may receive in a multiplayer game.

The pure-Python twin is ``solver/spectrum/rules.py`` (moves, goal check,
draws) and ``solver/spectrum/refsearch.py`` (the bound and the searches);
``tests/test_spectrum_fast_vs_reference.py`` holds them together.
"""
from libc.stdint cimport uint64_t, int64_t, int32_t, uint32_t, uint8_t, int8_t, int16_t
from libc.stdlib cimport malloc, realloc, free, calloc
from libc.string cimport memcpy, memset
from libc.time cimport clock, clock_t, CLOCKS_PER_SEC

from cext.rng cimport splitmix64_next

cdef enum:
    UP_ANY = 0        # plans of any kind
    UP_NONE = 1       # plans without upconversions
    UP_SOME = 2       # plans with at least one upconversion

cdef enum:
    NCOL = 12
    PER_KIND = 4
    KCAP = 4          # conversions the lower bound looks ahead
    MAXDEPTH = 96

# ---------------------------------------------------------------- goal tree

ctypedef struct TNode:
    uint8_t goals[9]      # slot*3 + size -> colour
    uint8_t bags[3][NCOL]
    uint8_t baglen[3]
    uint64_t rng
    int32_t child[3]


cdef class GoalTree:
    """Goals along every conversion history, expanded lazily, at most ``limit`` nodes.

    Node 0 is the root.  ``child(n, slot)`` is the node after converting
    ``slot`` at ``n``: the goal's colours go back to the ends of their bags and
    a new goal is drawn small, medium, large with ``next() mod len``.
    """
    cdef TNode *nodes
    cdef int32_t count, cap, limit
    cdef public bint full

    def __cinit__(self, goals, bags, uint64_t rng_state, int limit=1 << 20):
        cdef int s, i
        self.limit = limit
        self.cap = 1024
        self.nodes = <TNode *>calloc(self.cap, sizeof(TNode))
        if self.nodes == NULL:
            raise MemoryError()
        self.count = 1
        self.full = False
        for i in range(3):
            for s in range(3):
                self.nodes[0].goals[i * 3 + s] = goals[i][s]
            self.nodes[0].child[i] = -1
        for s in range(3):
            self.nodes[0].baglen[s] = len(bags[s])
            for i in range(len(bags[s])):
                self.nodes[0].bags[s][i] = bags[s][i]
        self.nodes[0].rng = rng_state

    def __dealloc__(self):
        free(self.nodes)

    cdef int32_t child(self, int32_t n, int slot) noexcept:
        """The node after converting ``slot`` at ``n``; -1 (and ``full``) past the limit."""
        cdef int32_t c = self.nodes[n].child[slot]
        cdef TNode *p
        cdef TNode *q
        cdef TNode *grown
        cdef int s, idx, k
        if c >= 0:
            return c
        if self.count >= self.limit:
            self.full = True
            return -1
        if self.count == self.cap:
            grown = <TNode *>realloc(self.nodes, 2 * self.cap * sizeof(TNode))
            if grown == NULL:
                self.full = True
                return -1
            self.nodes = grown
            self.cap *= 2
        c = self.count
        self.count += 1
        p = &self.nodes[n]
        q = &self.nodes[c]
        memcpy(q, p, sizeof(TNode))
        q.child[0] = q.child[1] = q.child[2] = -1
        for s in range(3):
            q.bags[s][q.baglen[s]] = p.goals[slot * 3 + s]
            q.baglen[s] += 1
        for s in range(3):
            idx = <int>(splitmix64_next(&q.rng) % <uint64_t>q.baglen[s])
            q.goals[slot * 3 + s] = q.bags[s][idx]
            for k in range(idx, q.baglen[s] - 1):
                q.bags[s][k] = q.bags[s][k + 1]
            q.baglen[s] -= 1
        p.child[slot] = c
        return c

    def py_child(self, int n, int slot):
        return self.child(n, slot)

    def goals(self, int n):
        """The three goals at node ``n`` as (small, medium, large) colour tuples."""
        return [tuple(self.nodes[n].goals[i * 3 + s] for s in range(3)) for i in range(3)]

    def bags(self, int n):
        return [[self.nodes[n].bags[s][i] for i in range(self.nodes[n].baglen[s])] for s in range(3)]

    def rng_state(self, int n):
        return self.nodes[n].rng

    def __len__(self):
        return self.count

# ---------------------------------------------------------------- packed state

ctypedef struct SState:
    uint64_t w[2]
    int32_t node
    int16_t value
    int8_t dir
    int8_t won


cdef inline int cnt(const SState *s, int f) noexcept nogil:
    """The count in field ``f`` (= colour*3 + size)."""
    return <int>((s.w[f // 18] >> (3 * (f % 18))) & 7)


cdef inline void addf(SState *s, int f, int k) noexcept nogil:
    """Add ``k`` (may be negative) to field ``f``; counts stay in 0..4 so no carry."""
    if k >= 0:
        s.w[f // 18] += (<uint64_t>k) << (3 * (f % 18))
    else:
        s.w[f // 18] -= (<uint64_t>(-k)) << (3 * (f % 18))


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t skey(const SState *s) noexcept nogil:
    """The hash of a position: stash words, node and direction."""
    return mix64(s.w[0] * <uint64_t>0x9E3779B97F4A7C15ULL
                 ^ mix64(s.w[1] + (<uint64_t>(<uint32_t>s.node) << 1) + (s.dir > 0)))



cdef inline bint same(const SState *a, const SState *b) noexcept nogil:
    return a.w[0] == b.w[0] and a.w[1] == b.w[1] and a.node == b.node and a.dir == b.dir


cdef int settle(SState *s, GoalTree tree, int win_value) noexcept:
    """The goal check after a move: convert the lowest matched goal while any
    matches, each time reversing the direction; then mark a win.  Returns -1
    when the goal tree is full (the caller reports the limit)."""
    cdef int i, n
    cdef uint8_t *g
    while True:
        g = tree.nodes[s.node].goals
        for i in range(3):
            if cnt(s, g[i * 3] * 3) and cnt(s, g[i * 3 + 1] * 3 + 1) and cnt(s, g[i * 3 + 2] * 3 + 2):
                break
        else:
            break
        addf(s, g[i * 3] * 3, -1)
        addf(s, g[i * 3 + 1] * 3 + 1, -1)
        addf(s, g[i * 3 + 2] * 3 + 2, -1)
        n = tree.child(s.node, i)
        if n < 0:
            return -1
        s.node = n
        s.dir = -s.dir
        s.value -= 6
    s.won = s.value <= win_value
    return 0


ctypedef struct Succ:
    SState st
    int32_t move
    int32_t h           # IDA*: the child's bound (ordering), unused elsewhere


cdef inline int32_t move_code(int kind, int c, int to, int g0, int g1, int g2,
                              int r0, int r1, int r2) noexcept nogil:
    return (kind | c << 2 | g0 << 6 | g1 << 9 | g2 << 12 | r0 << 15 | r1 << 18 | r2 << 21
            | to << 24)


cdef int max_successors(const SState *s) noexcept nogil:
    """An upper bound on the successors of ``s`` (buffer sizing)."""
    cdef int c, total = 24
    for c in range(NCOL):
        total += (cnt(s, c * 3) + 1) * (cnt(s, c * 3 + 1) + 1) * (cnt(s, c * 3 + 2) + 1) * 25
    return total


cdef int expand(const SState *s, GoalTree tree, int win_value, Succ *out) noexcept:
    """Write every successor of ``s`` (exchanges by colour, give, receive; then
    upconversions) to ``out``; return how many, or -1 if the goal tree filled.
    The order is that of ``State.legal_moves()`` in rules.py."""
    cdef int c, to, n0, n1, n2, g0, g1, g2, r0, r1, r2, a0, a1, a2, total, m = 0, sz
    cdef Succ *o
    for c in range(NCOL):
        n0 = cnt(s, c * 3)
        n1 = cnt(s, c * 3 + 1)
        n2 = cnt(s, c * 3 + 2)
        to = (c + s.dir + NCOL) % NCOL
        a0 = PER_KIND - cnt(s, to * 3)
        a1 = PER_KIND - cnt(s, to * 3 + 1)
        a2 = PER_KIND - cnt(s, to * 3 + 2)
        for g0 in range(n0 + 1):
            for g1 in range(n1 + 1):
                for g2 in range(n2 + 1):
                    total = g0 + 2 * g1 + 3 * g2
                    if total == 0:
                        continue
                    r2 = 0 if g2 else min(a2, total // 3)
                    while r2 >= 0:
                        r1 = 0 if g1 else min(a1, (total - 3 * r2) // 2)
                        while r1 >= 0:
                            r0 = total - 3 * r2 - 2 * r1
                            if r0 <= a0 and not (r0 and g0):
                                o = &out[m]
                                o.st = s[0]
                                addf(&o.st, c * 3, -g0)
                                addf(&o.st, c * 3 + 1, -g1)
                                addf(&o.st, c * 3 + 2, -g2)
                                addf(&o.st, to * 3, r0)
                                addf(&o.st, to * 3 + 1, r1)
                                addf(&o.st, to * 3 + 2, r2)
                                o.move = move_code(0, c, to, g0, g1, g2, r0, r1, r2)
                                if settle(&o.st, tree, win_value) < 0:
                                    return -1
                                m += 1
                            r1 -= 1
                        r2 -= 1
        for sz in range(2):
            if cnt(s, c * 3 + sz) and cnt(s, c * 3 + sz + 1) < PER_KIND:
                o = &out[m]
                o.st = s[0]
                addf(&o.st, c * 3 + sz, -1)
                addf(&o.st, c * 3 + sz + 1, 1)
                o.st.value += 1
                o.move = move_code(1, c, c, sz == 0, sz == 1, 0, 0, sz == 0, sz == 1)
                if settle(&o.st, tree, win_value) < 0:
                    return -1
                m += 1
    return m


# ---------------------------------------------------------------- Python bridge

cdef SState make_state(stash, int direction, int node) except *:
    cdef SState s
    cdef int f, v = 0
    memset(&s, 0, sizeof(SState))
    for f in range(36):
        if not 0 <= stash[f] <= PER_KIND:
            raise ValueError("stash count out of range")
        addf(&s, f, stash[f])
        v += stash[f] * (f % 3 + 1)
    s.value = v
    s.dir = 1 if direction > 0 else -1
    s.node = node
    return s


cdef tuple unpack(const SState *s):
    return tuple(cnt(s, f) for f in range(36))


def pack(stash):
    """The two packed words of a stash (36 counts)."""
    cdef SState s = make_state(stash, 1, 0)
    return s.w[0], s.w[1]


def unpack_words(uint64_t w0, uint64_t w1):
    """The 36 counts of two packed words (inverse of :func:`pack`)."""
    cdef SState s
    memset(&s, 0, sizeof(SState))
    s.w[0] = w0
    s.w[1] = w1
    return unpack(&s)


def state_hash(stash, int direction, int node):
    """The 64-bit hash the transposition tables use."""
    cdef SState s = make_state(stash, direction, node)
    return skey(&s)


def successors(stash, int direction, GoalTree tree, int node=0, int win_value=6):
    """Every successor as ``(move_code, stash, direction, node, won)``, in rules.py order."""
    cdef SState s = make_state(stash, direction, node)
    cdef int n, i
    cdef Succ *buf = <Succ *>malloc(max_successors(&s) * sizeof(Succ))
    if buf == NULL:
        raise MemoryError()
    try:
        n = expand(&s, tree, win_value, buf)
        if n < 0:
            raise MemoryError("goal tree limit reached")
        return [(buf[i].move, unpack(&buf[i].st), buf[i].st.dir, buf[i].st.node,
                 bool(buf[i].st.won)) for i in range(n)]
    finally:
        free(buf)


def count_successors(stash, int direction, GoalTree tree, int node=0, int repeat=1):
    """Generate the successors ``repeat`` times (the benchmark's kernel); return the count."""
    cdef SState s = make_state(stash, direction, node)
    cdef int n = 0, i
    cdef Succ *buf = <Succ *>malloc(max_successors(&s) * sizeof(Succ))
    if buf == NULL:
        raise MemoryError()
    for i in range(repeat):
        n = expand(&s, tree, 6, buf)
    free(buf)
    return n


# ---------------------------------------------------------------- lower bound

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
    ``dir`` fixed and nothing converted (twin: ``refsearch.phase_turns``).
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
    return lower_bound(&s, tree, win_value, 1 << 20, False, ups)


# ---------------------------------------------------------------- IDA*

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


# ---------------------------------------------------------------- BFS (reach)

ctypedef struct QItem:
    SState st
    int64_t parent
    int32_t move
    int32_t depth


def bfs_reach(stash, int direction, GoalTree tree, int node=0, *, target=None,
              int value_max=-1, int value_min=-1, int64_t max_states=2_000_000,
              int max_turns=60):
    """Breadth-first search for the fewest turns to a stash equal to ``target``
    (36 counts) or worth between ``value_min`` and ``value_max`` (-1 = open).

    Returns ``status`` ``found`` (``turns`` minimal, ``plan`` move codes),
    ``exhausted`` (every reachable position was visited: unreachable, proven)
    or ``limit`` (``states`` or ``turns`` or ``goal-tree``).  Reaching the goal
    is tested on each position as a turn ends, so a won game stops there.
    """
    cdef SState s = make_state(stash, direction, node)
    cdef SState tgt
    cdef bint exact = target is not None
    cdef bint cut = False
    cdef int64_t cap = max_states, head = 0, tail = 0, i, j
    cdef uint64_t hmask, hsize = 1, k
    cdef int64_t *table
    cdef QItem *queue
    cdef Succ *buf = NULL
    cdef int n, depth = 0
    cdef SState *c
    if exact:
        tgt = make_state(target, 1, 0)
    while hsize < <uint64_t>(2 * cap):
        hsize <<= 1
    hmask = hsize - 1
    table = <int64_t *>malloc(hsize * sizeof(int64_t))
    queue = <QItem *>malloc(cap * sizeof(QItem))
    if table == NULL or queue == NULL:
        free(table)
        free(queue)
        raise MemoryError()
    memset(table, 0xff, hsize * sizeof(int64_t))
    buf = <Succ *>malloc((24 + NCOL * 125 * 25) * sizeof(Succ))
    if buf == NULL:
        free(table)
        free(queue)
        raise MemoryError()
    try:
        s.won = 0
        queue[0].st = s
        queue[0].parent = -1
        queue[0].move = 0
        queue[0].depth = 0
        tail = 1
        table[skey(&s) & hmask] = 0
        while head < tail:
            c = &queue[head].st
            if (exact and c.w[0] == tgt.w[0] and c.w[1] == tgt.w[1]) or (
                    not exact and (value_max < 0 or c.value <= value_max)
                    and (value_min < 0 or c.value >= value_min)):
                plan = []
                i = head
                while queue[i].parent >= 0:
                    plan.append(queue[i].move)
                    i = queue[i].parent
                plan.reverse()
                return {"status": "found", "turns": len(plan), "plan": plan, "states": tail}
            depth = queue[head].depth
            if depth >= max_turns:
                cut = True
            elif not c.won:
                n = expand(c, tree, 6, buf)
                if n < 0:
                    return {"status": "limit", "limit": "goal-tree", "states": tail}
                for j in range(n):
                    k = skey(&buf[j].st) & hmask
                    while table[k] >= 0 and not same(&queue[table[k]].st, &buf[j].st):
                        k = (k + 1) & hmask
                    if table[k] >= 0:
                        continue
                    if tail >= cap:
                        return {"status": "limit", "limit": "states", "states": tail,
                                "turns_searched": depth}
                    table[k] = tail
                    queue[tail].st = buf[j].st
                    queue[tail].parent = head
                    queue[tail].move = buf[j].move
                    queue[tail].depth = depth + 1
                    tail += 1
            head += 1
        if cut:
            return {"status": "limit", "limit": "turns", "states": tail, "turns_searched": max_turns}
        return {"status": "exhausted", "states": tail}
    finally:
        free(table)
        free(queue)
        free(buf)


def py_leaf_eval(stash, req, int value, int m, int w, int win=6, int ups=UP_ANY):
    """The kernel's :func:`leaf_eval` for one requirement (tests and profiling)."""
    cdef SState s = make_state(stash, 1, 0)
    cdef Have hv
    cdef int16_t r[36]
    cdef int i
    have_of(&s, &hv)
    for i in range(36):
        r[i] = req[i]
    return leaf_eval(&hv, r, value, m, w, win, 1 << 20, ups)


def py_exchange_makes(deficit, stock):
    """The kernel's table: can one exchange out of ``stock`` (S, M, L counts)
    make ``deficit`` (counts, each at most 4)?"""
    return bool(ONE_EX[(deficit[0] + 5 * deficit[1] + 25 * deficit[2]) * 125
                       + stock[0] + 5 * stock[1] + 25 * stock[2]])


def py_flow_tables(residual, deficit_colours):
    """The kernel's :func:`flow_tables` as two lists (budgets 0..6)."""
    cdef int res[NCOL]
    cdef int fa[7]
    cdef int fc[7]
    cdef int c, dmask = 0
    for c in range(NCOL):
        res[c] = residual[c]
    for c in deficit_colours:
        dmask |= 1 << c
    flow_tables(res, dmask, fa, fc)
    return [fa[c] for c in range(7)], [fc[c] for c in range(7)]
