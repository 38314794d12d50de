# Boundary's depth-first proof-number search (included by boundary.pyx, after the
# alpha-beta proof search, whose ``negamax`` it calls near its leaves).
#
# The question: "does the attacker complete a win within r plies?", the attacker being
# the side to move at an OR node and the other side at an AND node.  Twin:
# ``solver/boundary/dfpn.py``; docs/boundary.md "Proof-number search" says why it is sound
# without any repetition test (the question is bounded by r, and a win within r never
# needs a position twice).

cdef enum:
    PN_INF = 0x3FFFFFFF          # a proof (or disproof) number that cannot be reached
    PN_BIG = 0x3FFFFFFE          # the largest finite proof or disproof number

# the key of an AND node: the same position asked about the other side (attacker not to move)
cdef uint64_t Z_AND = 0x9E3779B97F4A7C15


cdef struct PNEntry:
    uint64_t key          # the position's full hash (xor Z_AND at an AND node), compared in full
    uint32_t pn
    uint32_t dn
    int32_t move          # OR: the child with the smallest pn; AND: the smallest dn
    int16_t r             # plies left of the question stored
    uint16_t pad
    uint32_t work         # nodes spent under this node (the replacement rule keeps the larger)
    uint32_t pad2


cdef struct Prover:
    Searcher *S           # the alpha-beta search near the leaves (its table, its state)
    PNEntry *tt
    uint64_t tt_mask
    int leaf              # questions with at most this many plies left go to negamax
    double eps            # Pawlewicz's 1 + epsilon threshold
    int64_t nodes         # df-pn expansions
    int64_t leaf_calls
    int64_t leaf_nodes
    int32_t *moves        # MAXMOVES per ply
    uint32_t *cpn         # the children's numbers, MAXMOVES per ply
    uint32_t *cdn


cdef inline PNEntry *_pn_probe(Prover *P, uint64_t key) noexcept nogil:
    cdef uint64_t i = key & P.tt_mask & ~(<uint64_t>1)
    if P.tt[i].key == key:
        return &P.tt[i]
    if P.tt[i + 1].key == key:
        return &P.tt[i + 1]
    return NULL


cdef inline bint _pn_lookup(Prover *P, uint64_t key, int r, uint32_t *pn, uint32_t *dn,
                            int32_t *move) noexcept nogil:
    """The numbers stored for (key, r): a proof within fewer plies is a proof within r,
    a disproof within more plies a disproof within r; numbers of an open search only for
    the same r."""
    cdef PNEntry *e = _pn_probe(P, key)
    if e == NULL:
        return False
    move[0] = e.move
    if e.pn == 0 and e.r <= r:
        pn[0] = 0
        dn[0] = PN_INF
        return True
    if e.dn == 0 and e.r >= r:
        pn[0] = PN_INF
        dn[0] = 0
        return True
    if e.r == r and e.pn != 0 and e.dn != 0:
        pn[0] = e.pn
        dn[0] = e.dn
        return True
    return False


cdef inline void _pn_store(Prover *P, uint64_t key, int r, uint32_t pn, uint32_t dn,
                           int32_t move, uint32_t work) noexcept nogil:
    """Two entries a bucket: the key's own entry, else the one with less work under it."""
    cdef uint64_t i = key & P.tt_mask & ~(<uint64_t>1)
    cdef PNEntry *e
    if P.tt[i].key == key:
        e = &P.tt[i]
    elif P.tt[i + 1].key == key:
        e = &P.tt[i + 1]
    elif P.tt[i].work <= P.tt[i + 1].work:
        e = &P.tt[i]
    else:
        e = &P.tt[i + 1]
    if e.key == key:
        # keep the stronger of two results: a proof within fewer plies, a disproof within more
        if e.pn == 0 and e.r <= r and pn != 0:
            return
        if e.dn == 0 and e.r >= r and dn != 0:
            return
        if e.pn == 0 and pn == 0 and e.r <= r:
            return
        if e.dn == 0 and dn == 0 and e.r >= r:
            return
        if work < e.work:
            work = e.work
    e.key = key
    e.pn = pn
    e.dn = dn
    e.move = move
    e.r = r
    e.work = work


cdef inline bint _timed_out(Searcher *S) noexcept nogil:
    if (S.node_limit and S.nodes >= S.node_limit) or (S.deadline > 0 and now() >= S.deadline):
        S.aborted = True
    return S.aborted


cdef void _pn_leaf(Prover *P, int r, bint is_or, uint32_t *pn, uint32_t *dn) noexcept nogil:
    """The numbers of a node met for the first time (the position in ``P.S.st``, the
    previous mover just moved).  Exact where the game is over, where the exchange bound
    rules the attacker out within r, or where ``negamax`` answers the question (r <=
    ``P.leaf``: its decisive scores are sound whatever the path); else the attacker's
    exchange bound as pn (moves still to make) and 1 as dn."""
    cdef State *st = &P.S.st
    cdef int me = st.side, att, lb, d, v
    if won_by(st, 1 - me):
        # the previous mover completed: the attacker at an AND node (it just moved)
        pn[0] = 0 if not is_or else PN_INF
        dn[0] = PN_INF if not is_or else 0
        return
    att = me if is_or else 1 - me
    lb = exchange_lb(st, att)
    if r == 0 or 2 * lb - (1 if is_or else 0) > r:
        # no exchange in time; a side without a move loses (the only win left at r = 0)
        if r == 0 and not is_or and not has_move(st):
            pn[0] = 0
            dn[0] = PN_INF
        else:
            pn[0] = PN_INF
            dn[0] = 0
        return
    d = r if r < P.leaf else P.leaf
    if d >= 1:
        P.leaf_calls += 1
        P.S.lb_pass[0] = 0
        if is_or:
            v = negamax(P.S, d, 0, MATE - d - 1, MATE - d)
            if not P.S.aborted and v >= MATE - d:
                pn[0] = 0
                dn[0] = PN_INF
                return
        else:
            v = negamax(P.S, d, 0, -(MATE - d), -(MATE - d) + 1)
            if not P.S.aborted and v <= -(MATE - d):
                pn[0] = 0
                dn[0] = PN_INF
                return
        if not P.S.aborted and d == r:
            pn[0] = PN_INF          # not within r: as the alpha-beta search's "no"
            dn[0] = 0
            return
    pn[0] = lb if lb > 0 else 1
    dn[0] = 1


cdef inline uint32_t _sat_add(uint32_t a, uint32_t b) noexcept nogil:
    cdef uint64_t s = <uint64_t>a + b
    if a >= PN_INF or b >= PN_INF:
        return PN_INF
    return <uint32_t>(s if s < PN_BIG else PN_BIG)


cdef inline uint32_t _grow(uint32_t second, double eps) noexcept nogil:
    """The 1 + epsilon threshold: stay in the best child until it is (1 + eps) times
    worse than the second best (Pawlewicz and Lew), never less than the second + 1."""
    cdef double t
    if second >= PN_BIG:
        return PN_BIG
    t = second * (1.0 + eps) + 1.0
    if t > PN_BIG:
        return PN_BIG
    if <uint32_t>t < second + 1:
        return second + 1
    return <uint32_t>t


cdef void _mid(Prover *P, int r, int ply, bint is_or, uint32_t thpn, uint32_t thdn,
               uint32_t *out_pn, uint32_t *out_dn) noexcept nogil:
    """Nagai's multiple iterative deepening: search the node until its pn reaches
    ``thpn`` or its dn ``thdn`` (or it is solved); the numbers are left in ``out_*``
    and stored in the table."""
    cdef State *st = &P.S.st
    cdef int32_t *moves = P.moves + ply * MAXMOVES
    cdef uint32_t *cpn = P.cpn + ply * MAXMOVES
    cdef uint32_t *cdn = P.cdn + ply * MAXMOVES
    cdef uint64_t key = st.hash if is_or else st.hash ^ Z_AND, ckey
    cdef int n, i, best_i
    cdef int32_t tmove, cm
    cdef uint32_t pn, dn, b1, b2, cth_pn, cth_dn, v
    cdef int64_t start = P.nodes + P.S.nodes
    P.nodes += 1
    if (P.nodes & 255) == 0 and _timed_out(P.S):
        out_pn[0] = 1
        out_dn[0] = 1
        return
    tmove = 0
    n = gen_moves(st, moves)
    if n == 0:
        # the side to move loses: a proof at an AND node, a disproof at an OR node
        out_pn[0] = PN_INF if is_or else 0
        out_dn[0] = 0 if is_or else PN_INF
        _pn_store(P, key, r, out_pn[0], out_dn[0], 0, 1)
        return
    for i in range(n):
        make(st, moves[i])
        ckey = st.hash if not is_or else st.hash ^ Z_AND
        if not _pn_lookup(P, ckey, r - 1, &cpn[i], &cdn[i], &cm):
            _pn_leaf(P, r - 1, not is_or, &cpn[i], &cdn[i])
            if P.S.aborted:
                unmake(st, moves[i])
                out_pn[0] = 1
                out_dn[0] = 1
                return
            if cpn[i] == 0 or cdn[i] == 0:
                _pn_store(P, ckey, r - 1, cpn[i], cdn[i], 0, 1)
        unmake(st, moves[i])
        if (is_or and cpn[i] == 0) or (not is_or and cdn[i] == 0):
            # a proving move at an OR node, a refutation at an AND node: solved
            n = i + 1
            break
    while True:
        # the node's numbers from its children's
        if is_or:
            pn = PN_INF
            dn = 0
            best_i = 0
            for i in range(n):
                if cpn[i] < pn:
                    pn = cpn[i]
                    best_i = i
                dn = _sat_add(dn, cdn[i])
        else:
            pn = 0
            dn = PN_INF
            best_i = 0
            for i in range(n):
                if cdn[i] < dn:
                    dn = cdn[i]
                    best_i = i
                pn = _sat_add(pn, cpn[i])
        if pn == 0 or dn == 0 or pn >= thpn or dn >= thdn:
            break
        # the most-proving child, and the second best, for its thresholds
        b1 = cpn[best_i] if is_or else cdn[best_i]
        b2 = PN_INF
        for i in range(n):
            if i != best_i:
                v = cpn[i] if is_or else cdn[i]
                if v < b2:
                    b2 = v
        if is_or:
            cth_pn = _grow(b2, P.eps)
            if cth_pn > thpn:
                cth_pn = thpn
            cth_dn = thdn - dn + cdn[best_i] if thdn < PN_INF else PN_BIG
            if cth_dn > PN_BIG:
                cth_dn = PN_BIG
        else:
            cth_dn = _grow(b2, P.eps)
            if cth_dn > thdn:
                cth_dn = thdn
            cth_pn = thpn - pn + cpn[best_i] if thpn < PN_INF else PN_BIG
            if cth_pn > PN_BIG:
                cth_pn = PN_BIG
        make(st, moves[best_i])
        _mid(P, r - 1, ply + 1, not is_or, cth_pn, cth_dn, &cpn[best_i], &cdn[best_i])
        unmake(st, moves[best_i])
        if P.S.aborted:
            out_pn[0] = 1
            out_dn[0] = 1
            return
    out_pn[0] = pn
    out_dn[0] = dn
    v = <uint32_t>min(P.nodes + P.S.nodes - start, <int64_t>0xFFFFFFFF)
    _pn_store(P, key, r, pn, dn, moves[best_i], v)


cdef class ProofNumberSearch:
    """df-pn on a copy of a board, with the alpha-beta search (``Search``'s kernel) as its
    leaf solver; both tables within ``tt_mb`` MiB (half each).  ``prove(r, attacker_to_move)``
    answers "does the attacker win within r plies?": True (proven), False (disproven: not
    within r, as the alpha-beta search's "no"), None (a limit)."""

    cdef Prover P
    cdef Search search
    cdef public object entries

    def __cinit__(self, Board board, int tt_mb=64, int leaf=5, double eps=0.25, int opts=OPT_DEFAULT):
        cdef uint64_t entries = 2
        if tt_mb < 2:
            raise ValueError("tt_mb must be >= 2")
        assert 0 <= leaf <= MAXPLY - 2 and eps >= 0
        self.search = Search(board, tt_mb=tt_mb // 2, opts=opts)
        while entries * 2 * sizeof(PNEntry) <= <uint64_t>(tt_mb - tt_mb // 2) * 1024 * 1024:
            entries *= 2
        memset(&self.P, 0, sizeof(Prover))
        self.P.S = self.search.S
        self.P.tt = <PNEntry *>_alloc_table(entries * sizeof(PNEntry) // sizeof(TTEntry))
        self.P.moves = <int32_t *>malloc(sizeof(int32_t) * MAXMOVES * (MAXPLY + 1))
        self.P.cpn = <uint32_t *>malloc(sizeof(uint32_t) * MAXMOVES * (MAXPLY + 1))
        self.P.cdn = <uint32_t *>malloc(sizeof(uint32_t) * MAXMOVES * (MAXPLY + 1))
        if self.P.tt == NULL or self.P.moves == NULL or self.P.cpn == NULL or self.P.cdn == NULL:
            free(self.P.tt); free(self.P.moves); free(self.P.cpn); free(self.P.cdn)
            self.P.tt = NULL
            raise MemoryError()
        self.P.tt_mask = entries - 1
        self.P.leaf = leaf
        self.P.eps = eps
        self.entries = int(entries)

    def __dealloc__(self):
        if self.P.tt != NULL:
            free(self.P.tt); free(self.P.moves); free(self.P.cpn); free(self.P.cdn)

    def prove(self, int r, bint attacker_to_move, double time_limit=0.0, int64_t node_limit=0):
        cdef uint32_t pn = 0, dn = 0
        cdef int32_t m = 0
        cdef Searcher *S = self.P.S
        cdef uint64_t key = S.st.hash if attacker_to_move else S.st.hash ^ Z_AND
        assert 1 <= r <= MAXPLY - 2, "r 1..126"
        S.node_limit = node_limit
        S.deadline = now() + time_limit if time_limit > 0 else 0.0
        S.aborted = False
        with nogil:
            if not _pn_lookup(&self.P, key, r, &pn, &dn, &m) or (pn != 0 and dn != 0):
                _pn_leaf(&self.P, r, attacker_to_move, &pn, &dn)
                if not S.aborted and pn != 0 and dn != 0:
                    _mid(&self.P, r, 0, attacker_to_move, PN_BIG, PN_BIG, &pn, &dn)
        if S.aborted:
            return None
        if pn != 0 and dn != 0:
            return None
        return pn == 0

    def child_prove(self, move, int r, bint attacker_to_move, double time_limit=0.0,
                    int64_t node_limit=0):
        """``prove`` in the position after the root's ``move`` (the same tables)."""
        cdef int32_t m = encode_move(move)
        make(&self.P.S.st, m)
        try:
            return self.prove(r, attacker_to_move, time_limit, node_limit)
        finally:
            unmake(&self.P.S.st, m)

    def best_move(self, int r, bint attacker_to_move):
        """The root's stored move: a proving move at a proven OR root (the alpha-beta
        table's where the leaf search answered the root)."""
        cdef PNEntry *e = _pn_probe(&self.P, self.P.S.st.hash if attacker_to_move else self.P.S.st.hash ^ Z_AND)
        if e == NULL or e.move == 0:
            return self.search.root_move()
        return decode_move(e.move)

    @property
    def nodes(self):
        """df-pn expansions plus the leaf searches' nodes."""
        return int(self.P.nodes + self.P.S.nodes)

    def stats(self):
        return {"expansions": int(self.P.nodes), "leaf_calls": int(self.P.leaf_calls),
                "leaf_nodes": int(self.P.S.nodes)}


def _solve_dfpn(Board board, int max_depth, double time_limit, int64_t node_limit, int tt_mb,
                int leaf=5, double eps=0.25, int opts=OPT_DEFAULT):
    """Iterative deepening of df-pn questions: depth d asks "does the side to move win
    within d?" (odd d) or "lose within d?" (even d); the first proof gives the distance
    (the smaller depths were disproved, with the alpha-beta search's caveat on "no").
    The same dict as ``_solve`` (never a draw: df-pn proves wins and losses only)."""
    cdef int depth
    if max_depth < 1 or max_depth > MAXPLY - 2:
        raise ValueError(f"depth must be 1..{MAXPLY - 2}")
    pns = ProofNumberSearch(board, tt_mb=tt_mb, leaf=leaf, eps=eps, opts=opts)
    out = {"result": "unknown", "plies": None, "best": None, "depth": 0, "nodes": 0,
           "limit": "depth", "tt_entries": pns.entries, "hold": None}
    if won_by(&board.st, 1 - board.st.side) or gen_moves(&board.st, NULL) == 0:
        out.update(result="loss", plies=0, limit=None, stats=pns.stats())
        return out
    deadline = now() + time_limit if time_limit > 0 else 0.0
    for depth in range(1, max_depth + 1):
        left = deadline - now() if deadline else 0.0
        if deadline and left <= 0:
            out["limit"] = "time"
            break
        res = pns.prove(depth, depth % 2 == 1, left if deadline else 0.0, node_limit)
        if res is None:
            out["limit"] = "nodes" if (node_limit and pns.nodes >= node_limit) else "time"
            break
        out["depth"] = depth
        if res:
            out.update(result="win" if depth % 2 else "loss", plies=depth, limit=None,
                       best=pns.best_move(depth, depth % 2 == 1))
            if depth % 2 == 0:
                out["best"] = _dfpn_longest_defence(pns, board, depth, deadline, node_limit) or out["best"]
            break
    out["nodes"] = pns.nodes
    out["stats"] = pns.stats()
    return out


def _dfpn_longest_defence(ProofNumberSearch pns, Board board, int plies, double deadline,
                          int64_t node_limit):
    """As ``_longest_defence``, with df-pn questions: the first root move, in the
    reference's order, after which the winner does not win within ``plies - 3``
    (None if a limit stops it first)."""
    moves = reference_order(board)
    if plies <= 2:
        return moves[0]
    for m in moves:
        left = deadline - now() if deadline else 0.0
        if deadline and left <= 0:
            return None
        res = pns.child_prove(m, plies - 3, True, left if deadline else 0.0, node_limit)
        if res is None:
            return None
        if not res:
            return m
    return None
