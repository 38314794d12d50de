# cython: language_level=3
"""Compiled Continuum row: a 64-bit encoding, successor generation, A* search.

Encoding of a row in one ``uint64_t`` (the *key*):

* bits 0-47: the 12 pyramid ids (4 bits each) in row order, West end first,
  each stack bottom first;
* bits 48-59: bit ``48 + k`` is set when position ``k`` starts a new stack;
* bits 60-63: how many pyramids stand on the West side.

The key is canonical (one row, one key), so it is also the hash-table key.
Move codes: ``kind << 8 | pid << 4 | low`` with kind 0 onto, 1 gap, 2 switch,
3 king; ``low`` is the direction (0 West, 1 East) or the other pyramid.
The readable twin is ``solver/continuum/rules.py``; the successor order is the
same, so the differential tests compare lists, not sets.
"""
from libc.stdint cimport uint64_t, int64_t, int32_t, uint32_t, int8_t, uint8_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memset

DEF MAXP = 12
DEF MAXSUCC = 80
DEF SCALE = 1048576        # g = primary * SCALE + secondary

cdef struct Lay:
    int8_t n[2]            # stacks per side
    int8_t h[2][12]        # stack heights
    int8_t p[2][12][12]    # pyramids, bottom first


cdef inline int value_of(int pid) noexcept nogil:
    return pid % 3 + 1


cdef void decode(uint64_t key, Lay *L) noexcept nogil:
    """Unpack ``key`` into stacks."""
    cdef int nwest = <int>(key >> 60)
    cdef int k, s, pid
    L.n[0] = 0
    L.n[1] = 0
    for k in range(MAXP):
        s = 0 if k < nwest else 1
        pid = <int>((key >> (4 * k)) & 15)
        if (key >> (48 + k)) & 1 or (k == nwest):
            L.h[s][L.n[s]] = 0
            L.n[s] += 1
        L.p[s][L.n[s] - 1][L.h[s][L.n[s] - 1]] = pid
        L.h[s][L.n[s] - 1] += 1


cdef uint64_t encode(Lay *L) noexcept nogil:
    """Pack stacks into the canonical key."""
    cdef uint64_t key = 0
    cdef int k = 0, s, i, j, nwest = 0
    for s in range(2):
        for i in range(L.n[s]):
            for j in range(L.h[s][i]):
                key |= (<uint64_t>L.p[s][i][j]) << (4 * k)
                if j == 0:
                    key |= (<uint64_t>1) << (48 + k)
                k += 1
        if s == 0:
            nwest = k
    return key | ((<uint64_t>nwest) << 60)


cdef inline void remove_stack(Lay *L, int s, int i) noexcept nogil:
    cdef int a
    for a in range(i, L.n[s] - 1):
        L.h[s][a] = L.h[s][a + 1]
        memcpy(L.p[s][a], L.p[s][a + 1], 12)
    L.n[s] -= 1


cdef inline void insert_single(Lay *L, int s, int i, int pid) noexcept nogil:
    """A new one-pyramid stack at index ``i`` of side ``s``."""
    cdef int a
    a = L.n[s]
    while a > i:
        L.h[s][a] = L.h[s][a - 1]
        memcpy(L.p[s][a], L.p[s][a - 1], 12)
        a -= 1
    L.h[s][i] = 1
    L.p[s][i][0] = pid
    L.n[s] += 1


cdef int gen(uint64_t key, uint32_t movable, bint kings,
             uint64_t *okey, int *ocost, int *ocode) noexcept nogil:
    """Write every successor of ``key`` (moving only pyramids in the bit mask
    ``movable``) into the arrays; return their number (at most MAXSUCC).
    Same moves and order as ``rules.legal_moves``."""
    cdef Lay L, M
    cdef int cnt = 0, s, i, j, d, di, p, q, h, n
    decode(key, &L)
    for s in range(2):
        n = L.n[s]
        for i in range(n):
            h = L.h[s][i]
            p = L.p[s][i][h - 1]
            if not (movable >> p) & 1:
                continue
            for di in range(2):
                d = -1 if di == 0 else 1
                j = i + d
                if 0 <= j < n:
                    # onto the neighbour
                    memcpy(&M, &L, sizeof(Lay))
                    M.p[s][j][M.h[s][j]] = p
                    M.h[s][j] += 1
                    M.h[s][i] -= 1
                    if M.h[s][i] == 0:
                        remove_stack(&M, s, i)
                    okey[cnt] = encode(&M); ocost[cnt] = value_of(p)
                    ocode[cnt] = (0 << 8) | (p << 4) | di
                    cnt += 1
                # a new stack: between two stacks, or beyond the side's outer end
                if h > 1 and (0 <= j < n or (s == 0 and d < 0) or (s == 1 and d > 0)):
                    memcpy(&M, &L, sizeof(Lay))
                    M.h[s][i] -= 1
                    insert_single(&M, s, i if d < 0 else i + 1, p)
                    okey[cnt] = encode(&M); ocost[cnt] = value_of(p)
                    ocode[cnt] = (1 << 8) | (p << 4) | di
                    cnt += 1
    # the border switch
    if L.n[0] > 0 and L.n[1] > 0:
        p = L.p[0][L.n[0] - 1][L.h[0][L.n[0] - 1] - 1]
        q = L.p[1][0][L.h[1][0] - 1]
        if (movable >> p) & 1 and (movable >> q) & 1:
            memcpy(&M, &L, sizeof(Lay))
            M.p[0][M.n[0] - 1][M.h[0][M.n[0] - 1] - 1] = q
            M.p[1][0][M.h[1][0] - 1] = p
            okey[cnt] = encode(&M); ocost[cnt] = value_of(p) + value_of(q)
            ocode[cnt] = (2 << 8) | (p << 4) | q
            cnt += 1
    if kings:
        for s in range(2):
            for i in range(L.n[s] - 1):
                if L.h[s][i] == 1 and L.h[s][i + 1] == 1:
                    p = L.p[s][i][0]
                    q = L.p[s][i + 1][0]
                    if (movable >> p) & 1 and (movable >> q) & 1:
                        memcpy(&M, &L, sizeof(Lay))
                        M.p[s][i][0] = q
                        M.p[s][i + 1][0] = p
                        okey[cnt] = encode(&M); ocost[cnt] = 0
                        ocode[cnt] = (3 << 8) | (p << 4) | q
                        cnt += 1
        if L.n[0] > 0 and L.n[1] > 0 and L.h[0][L.n[0] - 1] == 1 and L.h[1][0] == 1:
            p = L.p[0][L.n[0] - 1][0]
            q = L.p[1][0][0]
            if (movable >> p) & 1 and (movable >> q) & 1:
                memcpy(&M, &L, sizeof(Lay))
                M.p[0][M.n[0] - 1][0] = q
                M.p[1][0][0] = p
                okey[cnt] = encode(&M); ocost[cnt] = 0
                ocode[cnt] = (3 << 8) | (p << 4) | q
                cnt += 1
    return cnt


cdef bint is_goal(uint64_t key, uint32_t colours) noexcept nogil:
    """Every colour ``c`` in the bit mask ``colours`` stands as exactly L M S
    on its goal side (colours 0, 1 East; 2, 3 West)."""
    cdef Lay L
    cdef int c, s, i, found
    decode(key, &L)
    for c in range(4):
        if not (colours >> c) & 1:
            continue
        s = 1 if c < 2 else 0
        found = 0
        for i in range(L.n[s]):
            if (L.h[s][i] == 3 and L.p[s][i][0] == c * 3 + 2
                    and L.p[s][i][1] == c * 3 + 1 and L.p[s][i][2] == c * 3):
                found = 1
                break
        if not found:
            return False
    return True


cdef int heuristic(uint64_t key, uint32_t own, uint32_t movable, int mode) noexcept nogil:
    """An admissible bound on the primary cost to the goal for the pyramids in
    ``own``; only pyramids in ``movable`` (which holds ``own``) move.  Each
    move's cost is shared out to the pyramids it moves, and
    each own pyramid ``p`` is given a lower bound on its share:

    * on the wrong side: one switch (``value(p)``); and, when some stack
      between its stack and the continuum holds a pyramid not in ``movable``
      (so its stack can never touch the continuum), one step before that
      switch (``value(p)`` again);
    * on its goal side, with anything but its own tree's larger pyramids
      beneath it (S needs L M, M needs L, L nothing): one move (``value(p)``),
      since what lies under a pyramid changes only when it moves;
    * and every other pyramid above an own pyramid that must move (one of the
      two cases above) must step off it first (its value; pips mode only).

    mode 0 (pips, no kings): the sum of those shares.  mode 1 (moves): the own
    pyramids wrong on the West side (one switch carries one each way) plus the
    blocked ones (each a separate one-space step).  mode 2 (pips with kings):
    0, since a king moves pyramids for free."""
    cdef Lay L
    cdef int s, i, j, a, pid, total = 0, goal, c, ok, blocked, low
    cdef int fixed[2][12]
    if mode == 2:
        return 0
    decode(key, &L)
    for s in range(2):
        for i in range(L.n[s]):
            fixed[s][i] = 0
            for j in range(L.h[s][i]):
                if not (movable >> L.p[s][i][j]) & 1:
                    fixed[s][i] = 1
    for s in range(2):
        for i in range(L.n[s]):
            low = 99
            for j in range(L.h[s][i]):
                pid = L.p[s][i][j]
                if not (own >> pid) & 1:
                    if mode == 0 and j > low:
                        total += value_of(pid)
                    continue
                c = pid // 3
                goal = 1 if c < 2 else 0
                if s != goal:
                    if j < low:
                        low = j
                    blocked = 0
                    if s == 0:
                        for a in range(i + 1, L.n[0]):
                            blocked |= fixed[0][a]
                    else:
                        for a in range(0, i):
                            blocked |= fixed[1][a]
                    if mode == 0:
                        total += value_of(pid) * (1 + blocked)
                    else:
                        total += blocked + (1 if s == 0 else 0)
                else:
                    ok = j == 2 - pid % 3
                    for a in range(j):
                        if L.p[s][i][a] != c * 3 + 2 - a:
                            ok = 0
                    if not ok:
                        if j < low:
                            low = j
                        if mode == 0:
                            total += value_of(pid)
    return total


cdef inline uint64_t mix(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


# ----------------------------------------------------------------- Python API

def encode_stacks(west, east):
    """The key of a row given as two lists of stacks (lists of ids, bottom first)."""
    cdef Lay L
    cdef int s, i, j
    for s, side in enumerate((west, east)):
        L.n[s] = len(side)
        for i, stack in enumerate(side):
            L.h[s][i] = len(stack)
            for j, pid in enumerate(stack):
                L.p[s][i][j] = pid
    return encode(&L)


def decode_key(uint64_t key):
    """``(west, east)``: the stacks of a key as tuples of tuples."""
    cdef Lay L
    decode(key, &L)
    return tuple(
        tuple(tuple(L.p[s][i][j] for j in range(L.h[s][i])) for i in range(L.n[s]))
        for s in range(2))


def successors(uint64_t key, uint32_t movable, bint kings=False):
    """``[(key, pips, code), ...]`` for every legal move, in the reference's order."""
    cdef uint64_t okey[MAXSUCC]
    cdef int ocost[MAXSUCC]
    cdef int ocode[MAXSUCC]
    cdef int n = gen(key, movable, kings, okey, ocost, ocode)
    return [(okey[i], ocost[i], ocode[i]) for i in range(n)]


def goal(uint64_t key, uint32_t colours):
    return is_goal(key, colours)


def bound(uint64_t key, uint32_t own, int mode, movable=None):
    return heuristic(key, own, own if movable is None else movable, mode)


def count_successors(keys, uint32_t movable, bint kings=False):
    """Total successors over ``keys`` (a benchmark of generation alone)."""
    cdef uint64_t okey[MAXSUCC]
    cdef int ocost[MAXSUCC]
    cdef int ocode[MAXSUCC]
    cdef long total = 0
    cdef uint64_t k
    for k in keys:
        total += gen(k, movable, kings, okey, ocost, ocode)
    return total


# the state table, kept between searches (re-allocating megabytes per search
# costs more than a short search); it grows to the largest size asked for
cdef uint64_t *_tkey = NULL
cdef int64_t *_tg = NULL
cdef int32_t *_tpar = NULL
cdef int32_t *_tcode = NULL
cdef int32_t *_tused = NULL      # the slots a search filled, emptied again at its end
cdef long _tcap = 0


def astar(uint64_t start, uint32_t own, uint32_t colours, int mode, bint by_moves,
          bint kings, long max_nodes, long max_states, int max_step=6, movable=None,
          int weight=1):
    """A* over rows from ``start``, moving only pyramids in ``own``, to a row
    where ``is_goal(colours)`` holds.  Moves costing more than ``max_step``
    pips are skipped (5 for the full game: no card is worth 6, so a large-large
    switch can never be played there).

    Cost is lexicographic: (pips, moves) when ``by_moves`` is false, else
    (moves, pips); ``mode`` picks the bound (see ``heuristic``), which is
    admissible for the primary cost.  States that improve are reopened, so the
    first goal popped is optimal.

    Returns ``(status, limit, pips, moves, path, nodes, states)``:
    status ``"found"`` with ``path`` the list of ``(key, code)`` from the move
    after ``start`` to the goal; ``"exhausted"`` when every reachable row was
    expanded without a goal (a proof that none is reachable); ``"limit"`` when
    ``max_nodes`` expansions or ``max_states`` stored rows ran out first
    (``limit`` names which).  ``max_states`` also bounds memory: about
    ``64 * max_states`` bytes, kept for the next search (not re-entrant).
    """
    cdef uint32_t mov = own if movable is None else movable
    cdef long cap = 1024
    while cap < 2 * max_states:
        cap *= 2
    cdef uint64_t mask = cap - 1
    cdef uint64_t EMPTY = <uint64_t>0xFFFFFFFFFFFFFFFFULL
    cdef uint64_t *tkey
    cdef int64_t *tg
    cdef int32_t *tpar
    cdef int32_t *tcode
    cdef int32_t *tused
    cdef long z
    global _tkey, _tg, _tpar, _tcode, _tused, _tcap
    if cap > _tcap:
        free(_tkey); free(_tg); free(_tpar); free(_tcode); free(_tused)
        _tkey = <uint64_t *>malloc(cap * sizeof(uint64_t))
        _tg = <int64_t *>malloc(cap * sizeof(int64_t))
        _tpar = <int32_t *>malloc(cap * sizeof(int32_t))
        _tcode = <int32_t *>malloc(cap * sizeof(int32_t))
        _tused = <int32_t *>malloc(cap * sizeof(int32_t))
        _tcap = cap
        if _tkey == NULL or _tg == NULL or _tpar == NULL or _tcode == NULL or _tused == NULL:
            free(_tkey); free(_tg); free(_tpar); free(_tcode); free(_tused)
            _tkey = NULL; _tg = NULL; _tpar = NULL; _tcode = NULL; _tused = NULL; _tcap = 0
            raise MemoryError()
        for z in range(cap):
            _tkey[z] = EMPTY
    tkey, tg, tpar, tcode, tused = _tkey, _tg, _tpar, _tcode, _tused
    cdef long hcap = 4096, hn = 0
    cdef int64_t *hf = <int64_t *>malloc(hcap * sizeof(int64_t))
    cdef int64_t *hg = <int64_t *>malloc(hcap * sizeof(int64_t))
    cdef int32_t *hidx = <int32_t *>malloc(hcap * sizeof(int32_t))
    cdef long heap_limit = 16 * max_states
    cdef uint64_t okey[MAXSUCC]
    cdef int ocost[MAXSUCC]
    cdef int ocode[MAXSUCC]
    cdef long nodes = 0, states = 0, slot, i, c, parent, child
    cdef int nsucc, a, found = -1, status = 1   # 0 found, 1 exhausted, 2 nodes, 3 states, 4 heap
    cdef int64_t g, g2, f, tf, tgv
    cdef int32_t ti
    cdef int primary, secondary
    if hf == NULL or hg == NULL or hidx == NULL:
        free(hf); free(hg); free(hidx)
        raise MemoryError()
    try:
        with nogil:
            slot = <long>(mix(start) & mask)
            tused[0] = <int32_t>slot
            tkey[slot] = start; tg[slot] = 0; tpar[slot] = -1; tcode[slot] = -1
            states = 1
            hf[0] = <int64_t>heuristic(start, own, mov, mode) * SCALE * weight
            hg[0] = 0
            hidx[0] = <int32_t>slot
            hn = 1
            while hn > 0:
                # pop the minimum (f, then g)
                f = hf[0]; g = hg[0]; slot = hidx[0]
                hn -= 1
                if hn > 0:
                    tf = hf[hn]; tgv = hg[hn]; ti = hidx[hn]
                    i = 0
                    while True:
                        c = 2 * i + 1
                        if c >= hn:
                            break
                        if c + 1 < hn and (hf[c + 1] < hf[c] or (hf[c + 1] == hf[c] and hg[c + 1] > hg[c])):
                            c += 1
                        if hf[c] < tf or (hf[c] == tf and hg[c] > tgv):
                            hf[i] = hf[c]; hg[i] = hg[c]; hidx[i] = hidx[c]
                            i = c
                        else:
                            break
                    hf[i] = tf; hg[i] = tgv; hidx[i] = ti
                if g != tg[slot]:
                    continue            # stale entry
                if is_goal(tkey[slot], colours):
                    found = <int>slot
                    status = 0
                    break
                if nodes >= max_nodes:
                    status = 2
                    break
                nodes += 1
                nsucc = gen(tkey[slot], mov, kings, okey, ocost, ocode)
                for a in range(nsucc):
                    if ocost[a] > max_step:
                        continue
                    if by_moves:
                        g2 = g + SCALE + ocost[a]
                    else:
                        g2 = g + <int64_t>ocost[a] * SCALE + 1
                    child = <long>(mix(okey[a]) & mask)
                    while tkey[child] != EMPTY and tkey[child] != okey[a]:
                        child = (child + 1) & mask
                    if tkey[child] == EMPTY:
                        if states >= max_states:
                            status = 3
                            break
                        tkey[child] = okey[a]
                        tused[states] = <int32_t>child
                        states += 1
                    elif tg[child] <= g2:
                        continue
                    tg[child] = g2; tpar[child] = <int32_t>slot; tcode[child] = ocode[a]
                    if hn >= hcap:
                        if hcap >= heap_limit:
                            status = 4
                            break
                        hcap *= 2
                        with gil:
                            hf = <int64_t *>realloc(hf, hcap * sizeof(int64_t))
                            hg = <int64_t *>realloc(hg, hcap * sizeof(int64_t))
                            hidx = <int32_t *>realloc(hidx, hcap * sizeof(int32_t))
                            if hf == NULL or hg == NULL or hidx == NULL:
                                raise MemoryError()
                    # push, sifting up
                    tf = g2 + <int64_t>heuristic(okey[a], own, mov, mode) * SCALE * weight
                    i = hn
                    hn += 1
                    while i > 0:
                        parent = (i - 1) // 2
                        if tf < hf[parent] or (tf == hf[parent] and g2 > hg[parent]):
                            hf[i] = hf[parent]; hg[i] = hg[parent]; hidx[i] = hidx[parent]
                            i = parent
                        else:
                            break
                    hf[i] = tf; hg[i] = g2; hidx[i] = <int32_t>child
                if status >= 3:
                    break
        if status != 0:
            limit = {1: None, 2: "max_nodes", 3: "max_states", 4: "heap"}[status]
            return ("exhausted" if status == 1 else "limit", limit, None, None, None, nodes, states)
        path = []
        slot = found
        while tpar[slot] >= 0:
            path.append((tkey[slot], tcode[slot]))
            slot = tpar[slot]
        path.reverse()
        g = tg[found]
        primary = <int>(g // SCALE)
        secondary = <int>(g % SCALE)
        if by_moves:
            return ("found", None, secondary, primary, path, nodes, states)
        return ("found", None, primary, secondary, path, nodes, states)
    finally:
        for i in range(states):
            tkey[tused[i]] = EMPTY
        free(hf); free(hg); free(hidx)


def side_masks(uint64_t key):
    """``(west, singles)``: bit masks of the pyramids on the West side and of
    the single pyramids (stacks of one), for the full game's quick checks."""
    cdef int nwest = <int>(key >> 60)
    cdef int k, pid
    cdef uint32_t west = 0, singles = 0
    for k in range(MAXP):
        pid = <int>((key >> (4 * k)) & 15)
        if k < nwest:
            west |= 1u << pid
        if (key >> (48 + k)) & 1 and (k == MAXP - 1 or (key >> (49 + k)) & 1 or k + 1 == nwest):
            singles |= 1u << pid
    return west, singles


# ------------------------------------------------------- the full game's cards

DEF SEEN_CAP = 32768       # visited (row, pips left, opponent pyramid) per card; half may fill
DEF OUT_CAP = 8192         # distinct end rows per card (a 5 gave at most 1,112 in tests)

cdef struct Spend:
    uint32_t own
    uint64_t seen_key[SEEN_CAP]
    uint8_t seen_aux[SEEN_CAP]   # 0 empty, else 1 + 2 * pips + used
    int nseen
    uint64_t okey[OUT_CAP]
    int8_t oopp[OUT_CAP]
    int32_t ocodes[OUT_CAP][5]
    uint8_t olen[OUT_CAP]
    int nout
    int overflow
    int32_t path[5]


cdef Spend _S               # one enumeration at a time (the module is not re-entrant here)


DEF ALLP = 4095


cdef inline int foreign_of(uint32_t own, int code, int opp) noexcept nogil:
    """The opponent's pyramid this turn after move ``code``: ``opp`` if the
    move moves none of theirs, the one it moves if that is allowed (none
    moved yet, or the same one), -2 if the move is not allowed."""
    cdef int kind = code >> 8, p = (code >> 4) & 15, q = code & 15, x = -1
    if not (own >> p) & 1:
        x = p
    if kind >= 2 and not (own >> q) & 1:
        if x >= 0:
            return -2
        x = q
    if x < 0:
        return opp
    if opp >= 0 and x != opp:
        return -2
    return x


def move_opp(uint32_t own, int code, int opp):
    """Python access to ``foreign_of`` (used for kings and by the tests)."""
    return foreign_of(own, code, opp)


cdef inline int popcount12(uint32_t x) noexcept nogil:
    cdef int n = 0
    while x:
        x &= x - 1
        n += 1
    return n


cdef uint32_t singles_of(uint64_t key) noexcept nogil:
    """The mask of single pyramids (stacks of one)."""
    cdef int nwest = <int>(key >> 60)
    cdef int k
    cdef uint32_t singles = 0
    for k in range(MAXP):
        if (key >> (48 + k)) & 1 and (k == MAXP - 1 or (key >> (49 + k)) & 1 or k + 1 == nwest):
            singles |= 1u << <int>((key >> (4 * k)) & 15)
    return singles


cdef bint seen_add(Spend *S, uint64_t key, int pips, int opp) noexcept nogil:
    """Insert (key, pips, opp) into the visited set; False if already there
    (or the set is half full, which sets ``overflow``)."""
    cdef uint8_t aux = <uint8_t>(1 + 13 * pips + opp + 1)
    cdef int slot = <int>(mix(key + <uint64_t>aux) & (SEEN_CAP - 1))
    while S.seen_aux[slot] != 0:
        if S.seen_key[slot] == key and S.seen_aux[slot] == aux:
            return False
        slot = (slot + 1) & (SEEN_CAP - 1)
    if S.nseen * 2 >= SEEN_CAP:
        S.overflow = 1
        return False
    S.seen_key[slot] = key
    S.seen_aux[slot] = aux
    S.nseen += 1
    return True


cdef void spend_rec(Spend *S, uint64_t key, int pips, int opp, int depth) noexcept nogil:
    """Depth-first over move sequences, in the successor order; a state seen
    before (same row, pips left, flag) is not explored again."""
    cdef uint64_t okey[MAXSUCC]
    cdef int ocost[MAXSUCC]
    cdef int ocode[MAXSUCC]
    cdef int n, a, i, nopp
    cdef uint32_t movable
    if S.overflow or not seen_add(S, key, pips, opp):
        return
    if pips == 0:
        if S.nout >= OUT_CAP:
            S.overflow = 1
            return
        S.okey[S.nout] = key
        S.oopp[S.nout] = opp
        S.olen[S.nout] = depth
        for i in range(depth):
            S.ocodes[S.nout][i] = S.path[i]
        S.nout += 1
        return
    movable = S.own | (singles_of(key) & (ALLP if opp < 0 else (1u << opp)))
    n = gen(key, movable, False, okey, ocost, ocode)
    for a in range(n):
        if ocost[a] > pips:
            continue
        nopp = foreign_of(S.own, ocode[a], opp)
        if nopp == -2:
            continue
        S.path[depth] = ocode[a]
        spend_rec(S, okey[a], pips - ocost[a], nopp, depth + 1)


def spend(uint64_t key, uint32_t own, int pips, int opp, uint32_t mask_a, uint32_t mask_b,
          bint need_balance):
    """Every distinct ``(end key, opponent flag)`` reachable by spending exactly
    ``pips`` (1-5) on one-space moves and switches of pyramids in ``own``,
    plus one opponent single per turn (``opp``: the one that already moved
    this turn, -1 none; it may move again while single).
    Returns ``[(end_key, opp, codes), ...]`` in first-found order (the
    reference ``options._spend`` explores in the same order), keeping only rows
    where both players (masks ``mask_a``, ``mask_b``) have 3 per side when
    ``need_balance``.  Raises OverflowError if the fixed tables fill up."""
    cdef Spend *S = &_S
    cdef int i, k, nwest
    cdef uint32_t west
    if pips < 1 or pips > 5:
        raise ValueError("pips must be 1-5")
    memset(S.seen_aux, 0, SEEN_CAP)
    S.nseen = 0
    S.nout = 0
    S.overflow = 0
    S.own = own
    with nogil:
        spend_rec(S, key, pips, opp, 0)
    if S.overflow:
        raise OverflowError("card enumeration tables overflowed")
    out = []
    for i in range(S.nout):
        if need_balance:
            west = 0
            nwest = <int>(S.okey[i] >> 60)
            for k in range(nwest):
                west |= 1u << <int>((S.okey[i] >> (4 * k)) & 15)
            if popcount12(west & mask_a) != 3 or popcount12(west & mask_b) != 3:
                continue
        out.append((S.okey[i], S.oopp[i], tuple([S.ocodes[i][k] for k in range(S.olen[i])])))
    return out
