# Spectrum kernel, part of cext/spectrum.pyx (textual include): the goal tree,
# one node per conversion history, expanded lazily with the exact future draws.

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
        assert limit >= 1, "the tree holds at least its root"
        assert len(goals) == 3 and all(len(g) == 3 and all(0 <= c < NCOL for c in g)
                                       for g in goals), "three goals of three colours 0-11"
        # a bag takes a goal's colour back before each draw: at most 11 before
        assert len(bags) == 3 and all(len(b) < NCOL and all(0 <= c < NCOL for c in b)
                                      for b in bags), "three bags of at most 11 colours 0-11"
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
        assert 0 <= n < self.count and 0 <= slot < 3, "no such node or slot"
        return self.child(n, slot)

    def goals(self, int n):
        """The three goals at node ``n`` as (small, medium, large) colour tuples."""
        assert 0 <= n < self.count, "no such node"
        return [tuple(self.nodes[n].goals[i * 3 + s] for s in range(3)) for i in range(3)]

    def bags(self, int n):
        assert 0 <= n < self.count, "no such node"
        return [[self.nodes[n].bags[s][i] for i in range(self.nodes[n].baglen[s])] for s in range(3)]

    def rng_state(self, int n):
        assert 0 <= n < self.count, "no such node"
        return self.nodes[n].rng

    def __len__(self):
        return self.count
