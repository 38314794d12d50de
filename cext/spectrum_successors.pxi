# Spectrum kernel, part of cext/spectrum.pyx (textual include): one turn -- the
# goal check after a move (conversions) and every successor in rules.py order.

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


def successors(stash, int direction, GoalTree tree, int node=0, int win_value=6):
    """Every successor as ``(move_code, stash, direction, node, won)``, in rules.py order."""
    cdef SState s = make_state(stash, direction, node)
    cdef int n, i
    cdef Succ *buf
    assert node < tree.count, "no such goal-tree node"
    buf = <Succ *>malloc(max_successors(&s) * sizeof(Succ))
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
    cdef Succ *buf
    assert node < tree.count, "no such goal-tree node"
    assert repeat >= 0, "repeat must be >= 0"
    buf = <Succ *>malloc(max_successors(&s) * sizeof(Succ))
    if buf == NULL:
        raise MemoryError()
    for i in range(repeat):
        n = expand(&s, tree, 6, buf)
    free(buf)
    return n
