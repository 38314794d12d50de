# cython: language_level=3
"""Boundary's compiled engine: bitboards, make/unmake, perft and the solver core.

The twin of ``solver/boundary/rules.py`` (tests/test_boundary_fast_vs_reference.py).

State (``State``, a few words): ``occ`` has a bit for every square holding a
pyramid or a stone, ``stones[p]`` and ``pyr[p]`` are player ``p``'s stones and
the squares whose stack is ``p``'s (stacks only form on a player's own bases,
so a stack has one owner).  ``stack``/``height`` keep every stack bottom to
top, ``count[p][w]`` how many pyramids ``p`` has in world ``w``, and ``hash``
the Zobrist key, updated incrementally by ``make``/``unmake``.

Bit ``rank * 6 + file`` is a square, as in the reference.  A move is one
int32: ``p0 | p1 << 6 | s0 << 12 | s1 << 18 | STONE_FLAG`` (the stone part is
zero, flag clear, for a pyramid move alone).
"""
from libc.stdint cimport uint64_t, int64_t, int32_t, uint32_t, uint16_t, uint8_t, int16_t, int8_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset
from posix.mman cimport madvise, MADV_HUGEPAGE
from posix.stdlib cimport posix_memalign
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from cext.rng cimport splitmix64_next

cdef enum:
    NSQ = 36
    MAXH = 6
    MAXMOVES = 2048
    STONE_FLAG = 1 << 24
    MATE = 10000
    MATE_BOUND = 9000
    MAXPLY = 128
    TT_EXACT = 1
    TT_LOWER = 2
    TT_UPPER = 3

cdef struct State:
    uint64_t occ
    uint64_t stones[2]
    uint64_t pyr[2]
    uint8_t stack[NSQ][MAXH]
    uint8_t height[NSQ]
    int count[2][2]
    int side
    uint64_t hash

# -- tables, filled once at import ------------------------------------------

cdef int8_t RAY_SQ[NSQ][8][6]        # square after k steps, -1 off the board
cdef uint64_t RAY_PATH[NSQ][8][6]    # squares passed over (steps 1..k-1)
cdef uint8_t RAY_CROSS[NSQ][8][6]    # 1 if the k steps cross the continuum
cdef int IN_WORLD[NSQ][8]            # most steps that stay in the square's world
cdef uint64_t RING[NSQ][6]           # squares exactly k steps away on a straight line
cdef uint64_t LINES_W[NSQ]           # squares on a straight line inside the square's world
cdef uint64_t WORLD_MASK[2]
cdef uint64_t BASE_MASK[2]           # a player's own two bases
cdef uint64_t BOARD = (<uint64_t>1 << 36) - 1
cdef int WIN_SQ[2][2]                # where each player's trees must stand
cdef uint8_t WIN_STACK[2][2][3]
cdef uint64_t Z_PYR[12][NSQ][MAXH]
cdef uint64_t Z_STONE[2][NSQ]
cdef uint64_t Z_SIDE

cdef int DF[8]
cdef int DR[8]


cdef void _init_tables():
    cdef int s, d, k, f, r, nf, nr, t
    cdef uint64_t path, seed
    DF[:] = [1, 1, 0, -1, -1, -1, 0, 1]
    DR[:] = [0, 1, 1, 1, 0, -1, -1, -1]
    WORLD_MASK[0] = 0
    WORLD_MASK[1] = 0
    for s in range(NSQ):
        WORLD_MASK[0 if s % 6 < 3 else 1] |= <uint64_t>1 << s
        for d in range(8):
            f = s % 6
            r = s // 6
            path = 0
            IN_WORLD[s][d] = 0
            RAY_SQ[s][d][0] = s
            RAY_PATH[s][d][0] = 0
            RAY_CROSS[s][d][0] = 0
            RING[s][0] = 0
            for k in range(1, 6):
                nf = f + DF[d] * k
                nr = r + DR[d] * k
                if nf < 0 or nf > 5 or nr < 0 or nr > 5:
                    RAY_SQ[s][d][k] = -1
                    RAY_PATH[s][d][k] = 0
                    RAY_CROSS[s][d][k] = 1
                    continue
                t = nr * 6 + nf
                RAY_SQ[s][d][k] = t
                RING[s][k] |= <uint64_t>1 << t
                if (f < 3) == (nf < 3):
                    LINES_W[s] |= <uint64_t>1 << t
                RAY_PATH[s][d][k] = path
                RAY_CROSS[s][d][k] = (f < 3) != (nf < 3)
                if not RAY_CROSS[s][d][k] and IN_WORLD[s][d] == k - 1:
                    IN_WORLD[s][d] = k
                path |= <uint64_t>1 << t
    BASE_MASK[0] = (<uint64_t>1 << 0) | (<uint64_t>1 << 35)
    BASE_MASK[1] = (<uint64_t>1 << 5) | (<uint64_t>1 << 30)
    WIN_SQ[0][0] = 35   # red tree on f6
    WIN_SQ[0][1] = 0    # yellow tree on a1
    WIN_SQ[1][0] = 30   # green tree on a6
    WIN_SQ[1][1] = 5    # blue tree on f1
    for pl in range(2):
        for i in range(2):
            c = pl * 2 + i
            WIN_STACK[pl][i][0] = c * 3 + 2
            WIN_STACK[pl][i][1] = c * 3 + 1
            WIN_STACK[pl][i][2] = c * 3
    seed = 0x426F756E64617279
    cdef int p, h
    for p in range(12):
        for s in range(NSQ):
            for h in range(MAXH):
                Z_PYR[p][s][h] = splitmix64_next(&seed)
    for p in range(2):
        for s in range(NSQ):
            Z_STONE[p][s] = splitmix64_next(&seed)
    global Z_SIDE
    Z_SIDE = splitmix64_next(&seed)


_init_tables()

# -- hot helpers -----------------------------------------------------------

cdef inline int lsb(uint64_t b) noexcept nogil:
    return __builtin_ctzll(b)

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    void __builtin_prefetch(const void *) nogil


cdef inline bint won_by(const State *st, int pl) noexcept nogil:
    """Both of ``pl``'s trees stand exchanged, stacked large, medium, small."""
    cdef int i, s
    for i in range(2):
        s = WIN_SQ[pl][i]
        if st.height[s] != 3:
            return False
        if (st.stack[s][0] != WIN_STACK[pl][i][0] or st.stack[s][1] != WIN_STACK[pl][i][1]
                or st.stack[s][2] != WIN_STACK[pl][i][2]):
            return False
    return True


cdef inline int gen_moves(const State *st, int32_t *out) noexcept nogil:
    """Write the legal moves of the side to move into ``out`` and return how many.

    With ``out == NULL`` only count them (perft's bulk leaves).  Does not look
    at whether the game is already won: callers check ``won_by`` first.
    """
    return gen_upto(st, out, MAXMOVES)


cdef inline bint has_move(const State *st) noexcept nogil:
    """The side to move has a legal move (stops at the first one)."""
    return gen_upto(st, NULL, 1) > 0


cdef uint64_t ANY_LANDING[NSQ]       # every landing allowed, from every square
for _s in range(NSQ):
    ANY_LANDING[_s] = BOARD


cdef int gen_upto(const State *st, int32_t *out, int limit) noexcept nogil:
    """``gen_moves`` that stops once it has found ``limit`` moves."""
    return gen_filtered(st, out, limit, ANY_LANDING, BOARD)


cdef int gen_filtered(const State *st, int32_t *out, int limit, const uint64_t *land_ok,
                      uint64_t stone_ok) noexcept nogil:
    """The legal moves, in ``gen_moves``' order, whose pyramid moving from square s lands
    on a square of ``land_ok[s]``, or (a stone move) whose stone lands on a square of
    ``stone_ok``; at most ``limit``.  The filters only narrow the landing masks the
    generator tests anyway (twin: filter ``legal_moves``; tests/test_boundary_proof.py)."""
    cdef int me = st.side, opp = 1 - st.side
    cdef int n = 0, s, t, d, k, s0, s1, p, w, wt
    cdef uint64_t occ = st.occ, stones_all = st.stones[0] | st.stones[1]
    cdef uint64_t bb, sb, pb, occ2, allowed, allowed2, moved, here, any_pyr
    cdef uint32_t kmask
    cdef bint ok_stay = st.count[me][0] >= 2 and st.count[me][1] >= 2
    allowed = (~occ & ~BASE_MASK[opp] & BOARD) | (BASE_MASK[me] & ~stones_all)
    if ok_stay:
        bb = st.pyr[me]
        while bb:
            s = lsb(bb)
            bb &= bb - 1
            k = st.stack[s][st.height[s] - 1] % 3 + 1
            here = allowed & land_ok[s] & RING[s][k]
            if not here:
                continue
            for d in range(8):
                if k > IN_WORLD[s][d]:
                    continue
                t = RAY_SQ[s][d][k]
                if (RAY_PATH[s][d][k] & occ) or not ((here >> t) & 1):
                    continue
                if out != NULL:
                    out[n] = s | (t << 6)
                n += 1
                if n >= limit:
                    return n
    sb = st.stones[me]
    while sb:
        s0 = lsb(sb)
        sb &= sb - 1
        w = 0 if s0 % 6 < 3 else 1
        pb = st.pyr[me] & WORLD_MASK[w]
        if not pb:
            continue
        kmask = 0                  # the distances at which some pyramid may land at all
        bb = pb
        while bb:
            p = lsb(bb)
            bb &= bb - 1
            for k in range(1, 6):
                if RING[p][k] & land_ok[p]:
                    kmask |= 1U << k
        if not kmask and not (stone_ok & LINES_W[s0]):
            continue               # no pyramid may land anywhere, nor the stone
        for d in range(8):
            for k in range(1, IN_WORLD[s0][d] + 1):
                s1 = RAY_SQ[s0][d][k]
                if (occ >> s1) & 1:
                    break
                if (BASE_MASK[opp] >> s1) & 1:
                    continue
                if not ((kmask >> k) & 1) and not ((stone_ok >> s1) & 1):
                    continue       # no pyramid may land k steps away, nor the stone here
                moved = (<uint64_t>1 << s0) | (<uint64_t>1 << s1)
                occ2 = occ ^ moved
                allowed2 = (~occ2 & ~BASE_MASK[opp] & BOARD) | (BASE_MASK[me] & ~(stones_all ^ moved))
                any_pyr = BOARD if (stone_ok >> s1) & 1 else 0
                bb = pb
                while bb:
                    p = lsb(bb)
                    bb &= bb - 1
                    here = allowed2 & (land_ok[p] | any_pyr)
                    if not here:
                        continue
                    for t in range(8):
                        wt = RAY_SQ[p][t][k]
                        if wt < 0 or (RAY_PATH[p][t][k] & occ2) or not ((here >> wt) & 1):
                            continue
                        if RAY_CROSS[p][t][k]:
                            if st.count[me][w] < 3 or st.count[me][1 - w] < 1:
                                continue
                        elif not ok_stay:
                            continue
                        if out != NULL:
                            out[n] = p | (wt << 6) | (s0 << 12) | (s1 << 18) | STONE_FLAG
                        n += 1
                        if n >= limit:
                            return n
    return n


cdef inline void _move_top(State *st, int me, int frm, int to) noexcept nogil:
    """Move the top pyramid of square ``frm`` onto square ``to`` for side ``me``,
    keeping occupancy and the hash; make and unmake are this, one way or back."""
    cdef int h = st.height[frm] - 1
    cdef int piece = st.stack[frm][h]
    st.height[frm] = h
    st.hash ^= Z_PYR[piece][frm][h]
    if h == 0:
        st.occ &= ~(<uint64_t>1 << frm)
        st.pyr[me] &= ~(<uint64_t>1 << frm)
    h = st.height[to]
    st.stack[to][h] = piece
    st.height[to] = h + 1
    st.hash ^= Z_PYR[piece][to][h]
    st.occ |= <uint64_t>1 << to
    st.pyr[me] |= <uint64_t>1 << to


cdef inline void _toggle_stones(State *st, int me, int32_t m) noexcept nogil:
    """Move ``me``'s two stones if ``m`` carries them; XOR makes it its own undo."""
    cdef int s0, s1
    cdef uint64_t b
    if m & STONE_FLAG:
        s0 = (m >> 12) & 63
        s1 = (m >> 18) & 63
        b = (<uint64_t>1 << s0) | (<uint64_t>1 << s1)
        st.stones[me] ^= b
        st.occ ^= b
        st.hash ^= Z_STONE[me][s0] ^ Z_STONE[me][s1]


cdef inline void make(State *st, int32_t m) noexcept nogil:
    """Play ``m`` (legal for the side to move); ``unmake(st, m)`` undoes it."""
    cdef int me = st.side
    cdef int p0 = m & 63, p1 = (m >> 6) & 63
    _toggle_stones(st, me, m)
    _move_top(st, me, p0, p1)
    st.count[me][0 if p0 % 6 < 3 else 1] -= 1
    st.count[me][0 if p1 % 6 < 3 else 1] += 1
    st.side = 1 - me
    st.hash ^= Z_SIDE


cdef inline void unmake(State *st, int32_t m) noexcept nogil:
    cdef int me = 1 - st.side
    cdef int p0 = m & 63, p1 = (m >> 6) & 63
    st.side = me
    st.hash ^= Z_SIDE
    st.count[me][0 if p1 % 6 < 3 else 1] -= 1
    st.count[me][0 if p0 % 6 < 3 else 1] += 1
    _move_top(st, me, p1, p0)
    _toggle_stones(st, me, m)


cdef uint64_t perft_rec(State *st, int depth, int32_t *buf) noexcept nogil:
    """Leaves at ``depth`` below a position nobody has won; bulk count at depth 1."""
    cdef int n, i
    cdef uint64_t total = 0
    if depth == 1:
        return gen_moves(st, NULL)
    n = gen_moves(st, buf)
    for i in range(n):
        make(st, buf[i])
        if not won_by(st, 1 - st.side):
            total += perft_rec(st, depth - 1, buf + n)
        unmake(st, buf[i])
    return total


# -- Python-facing board ---------------------------------------------------

def encode_move(move):
    """(s0, s1, p0, p1) as in the reference -> the int32 form."""
    s0, s1, p0, p1 = move
    assert 0 <= p0 < NSQ and 0 <= p1 < NSQ and (s0 is None) == (s1 is None), "squares 0-35"
    assert s0 is None or (0 <= s0 < NSQ and 0 <= s1 < NSQ), "squares 0-35"
    m = p0 | (p1 << 6)
    if s0 is not None:
        m |= (s0 << 12) | (s1 << 18) | STONE_FLAG
    return m


def decode_move(int m):
    assert 0 <= m < (STONE_FLAG << 1), "not a move code"
    if m & STONE_FLAG:
        return ((m >> 12) & 63, (m >> 18) & 63, m & 63, (m >> 6) & 63)
    return (None, None, m & 63, (m >> 6) & 63)


cdef class Board:
    """A compiled position with make/unmake; built from the reference's fields.

    ``Board(stacks, stones, side)`` takes 36 bottom-to-top stacks of pyramid
    numbers, a dict square -> stone owner and the side to move, exactly as
    ``solver.boundary.rules.Position`` holds them.
    """

    cdef State st
    cdef list history

    def __init__(self, stacks, stones, int side):
        cdef int s, h, p
        assert side == 0 or side == 1, "side 0 (Red) or 1 (Green)"
        assert all(0 <= s < NSQ and (pl == 0 or pl == 1) for s, pl in stones.items()), \
            "stones: square 0-35 -> owner 0 or 1"
        self.history = []
        self.st.occ = 0
        self.st.stones[0] = self.st.stones[1] = 0
        self.st.pyr[0] = self.st.pyr[1] = 0
        self.st.count[0][0] = self.st.count[0][1] = self.st.count[1][0] = self.st.count[1][1] = 0
        self.st.side = side
        self.st.hash = Z_SIDE if side == 1 else 0
        if len(stacks) != NSQ:
            raise ValueError("need 36 stacks")
        for s in range(NSQ):
            self.st.height[s] = 0
            stack = stacks[s]
            if len(stack) > MAXH:
                raise ValueError("stack too high")
            for h, p in enumerate(stack):
                if not 0 <= p < 12:
                    raise ValueError("bad pyramid")
                self.st.stack[s][h] = p
                self.st.hash ^= Z_PYR[p][s][h]
                self.st.count[p // 6][0 if s % 6 < 3 else 1] += 1
            self.st.height[s] = len(stack)
            if stack:
                self.st.occ |= <uint64_t>1 << s
                self.st.pyr[stack[len(stack) - 1] // 6] |= <uint64_t>1 << s
        for s, pl in stones.items():
            self.st.stones[pl] |= <uint64_t>1 << s
            self.st.occ |= <uint64_t>1 << s
            self.st.hash ^= Z_STONE[pl][s]

    @classmethod
    def from_position(cls, pos):
        return cls(pos.stacks, pos.stones, pos.side)

    @property
    def side(self):
        return self.st.side

    @property
    def hash(self):
        return self.st.hash

    def stacks(self):
        return [[self.st.stack[s][h] for h in range(self.st.height[s])] for s in range(NSQ)]

    def stones(self):
        return {s: pl for pl in range(2) for s in range(NSQ) if (self.st.stones[pl] >> s) & 1}

    def legal_moves(self):
        """Legal moves as reference tuples (empty once the game is won)."""
        cdef int32_t buf[MAXMOVES]
        cdef int n, i
        if self.winner() is not None:
            return []
        n = gen_moves(&self.st, buf)
        return [decode_move(buf[i]) for i in range(n)]

    def filtered_moves(self, land_ok, stone_ok):
        """``gen_filtered``'s moves as reference tuples: ``land_ok`` 36 masks of landing
        squares by the square the pyramid leaves, ``stone_ok`` a mask of stone landings."""
        cdef uint64_t masks[NSQ]
        cdef int32_t buf[MAXMOVES]
        cdef int n, i
        assert len(land_ok) == NSQ, "36 masks"
        for i in range(NSQ):
            masks[i] = <uint64_t>land_ok[i]
        n = gen_filtered(&self.st, buf, MAXMOVES, masks, <uint64_t>stone_ok)
        return [decode_move(buf[i]) for i in range(n)]

    def count_moves(self):
        if self.winner() is not None:
            return 0
        return gen_moves(&self.st, NULL)

    def push(self, move):
        """Play a legal move (ValueError otherwise); ``pop()`` takes it back."""
        if move not in self.legal_moves():
            raise ValueError(f"illegal move {move}")
        m = encode_move(move)
        make(&self.st, m)
        self.history.append(m)

    def pop(self):
        m = self.history.pop()
        unmake(&self.st, m)
        return decode_move(m)

    def children(self):
        """``[(move, hash, won)]`` for every legal move: the position's hash after it and
        whether it completes the mover's exchange; one generation, no Python-side
        legality test per move (twin: the reference ``play`` and ``key``)."""
        cdef int32_t buf[MAXMOVES]
        cdef int n, i, me = self.st.side
        out = []
        if self.winner() is not None:
            return out
        n = gen_moves(&self.st, buf)
        for i in range(n):
            make(&self.st, buf[i])
            out.append((decode_move(buf[i]), self.st.hash, bool(won_by(&self.st, me))))
            unmake(&self.st, buf[i])
        return out

    def after(self, move):
        """A new board: this one after ``move``, which must be one of ``children()``'s
        (not checked again: the caller took it from the generator)."""
        cdef Board b = Board.__new__(Board)
        b.st = self.st
        b.history = []
        make(&b.st, encode_move(move))
        return b

    def winner(self):
        for pl in (1 - self.st.side, self.st.side):
            if won_by(&self.st, pl):
                return pl
        return None

    def perft(self, int depth):
        """Leaves at ``depth`` (the rules page's counting; bulk at the last ply)."""
        cdef uint64_t n
        cdef int32_t *buf
        if depth < 0:
            raise ValueError("depth must be >= 0")
        if depth == 0:
            return 1
        if self.winner() is not None:
            return 0
        buf = <int32_t *>malloc(sizeof(int32_t) * MAXMOVES * depth)
        if buf == NULL:
            raise MemoryError()
        with nogil:
            n = perft_rec(&self.st, depth, buf)
        free(buf)
        return n

    def divide(self, int depth):
        """[(move, leaves)] for each first move."""
        assert depth >= 1, "divide needs depth >= 1"
        out = []
        for mv in self.legal_moves():
            m = encode_move(mv)
            make(&self.st, m)
            if won_by(&self.st, 1 - self.st.side):
                n = 1 if depth == 1 else 0
            else:
                n = self.perft(depth - 1)
            unmake(&self.st, m)
            out.append((mv, n))
        return out

    def search(self, *, int max_depth=64, double time_limit=0.0, int64_t node_limit=0,
               int tt_mb=64, int64_t tt_entries=0, int opts=OPT_DEFAULT):
        """Run the proof search; see :func:`_solve` for the contract."""
        return _solve(self, max_depth, time_limit, node_limit, tt_mb, tt_entries, opts)

    def exchange_bound(self, int player):
        """Fewest moves ``player`` needs to complete the exchange (see
        ``solver.boundary.bound``, its pure-Python twin)."""
        assert player == 0 or player == 1, "player 0 or 1"
        return exchange_lb(&self.st, player)

    def evaluate(self):
        """The engine's static evaluation for the side to move (``solver.boundary.bound``)."""
        return evaluate(&self.st)

    cdef State *state(self):
        return &self.st


include "boundary_search.pxi"
include "boundary_dfpn.pxi"
