# Included by cext/pyramid.pyx: the blind players' whole game, compiled.
#
# The twins of solver/pyramid/blind.py's Greedy and Lookahead played by its
# ``play`` loop: the same moves, the same nodes, the same draws from the
# lookahead's SplitMix64 (tests/test_pyramid_blind.py holds them together).
# A player sees only the board and the reserve: the lookahead's imagined
# worlds take the current state and replace the unseen stock with a shuffled
# pool of the tiles not in sight.

cdef enum:
    BLIND_GREEDY = 0
    BLIND_LOOKAHEAD = 1
    OUT_OF_BUDGET = -1
    BLIND_MAX_WIDTH = 200

cdef int8_t g_copies[NKINDS]       # copies of each kind among the 144 tiles


cdef void _build_copies() noexcept:
    cdef int k
    for k in range(NKINDS):
        g_copies[k] = 4 if k < 27 else 12


_build_copies()


cdef struct Blind:
    int policy
    int samples
    int width
    int depth
    uint64_t rng             # the lookahead's SplitMix64 state
    uint64_t nodes           # positions the player examined
    int64_t limit            # the player's node budget for this decision (-1: none)


cdef int _moves_by_kind(State *s, uint16_t *moves, int *places) noexcept nogil:
    """The legal moves as ``kind << 8 | pos`` (in no particular order) and
    ``places[k]``, the moves of each kind.  Ordered by that code, they are in
    the order of ``Engine.legal_moves``."""
    cdef int n = generate_counted(s, moves, places), i
    for i in range(n):
        moves[i] = <uint16_t>(((moves[i] & 31) << 8) | (moves[i] >> 5))
    return n


cdef inline uint64_t _quick_order(uint16_t move, int *places) noexcept nogil:
    """blind.quick_key (dragons last, then the kind with the fewest places, then
    the lowest level), ties broken by (kind, position): the rank of a move in
    the stable sort of the legal moves by the quick key."""
    cdef int k = move >> 8
    return ((<uint64_t>(k == KIND_DRAGON)) << 36) | (<uint64_t>places[k] << 20) \
        | (<uint64_t>g_level[move & 255] << 16) | move


cdef void _ranked(uint16_t *moves, int n, int *places, uint64_t *order) noexcept nogil:
    """Sort ``moves`` in place as blind.ranked does; ``order`` (scratch, n
    entries) keeps each sorted move's :func:`_quick_order`."""
    cdef int i, j
    cdef uint64_t key
    for i in range(n):
        order[i] = _quick_order(moves[i], places)
    for i in range(1, n):
        key = order[i]
        j = i - 1
        while j >= 0 and order[j] > key:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = key
    for i in range(n):
        moves[i] = <uint16_t>(order[i] & 0xFFFF)


cdef inline int _popcount64(uint64_t x) noexcept nogil:
    cdef int c = 0
    while x:
        x &= x - 1
        c += 1
    return c


cdef int _spend(Blind *b, uint64_t nodes) noexcept nogil:
    b.nodes += nodes
    return OUT_OF_BUDGET if b.limit >= 0 and b.nodes >= <uint64_t>b.limit else 0


cdef int _greedy_choose(Blind *b, State *s, uint16_t *moves, int n, int *places,
                        uint64_t *order) noexcept nogil:
    """blind.Greedy.choose: the index into ``moves`` (ranked in place) or OUT_OF_BUDGET."""
    cdef int i, same = 1, best = 0, most = -1, opened
    _ranked(moves, n, places, order)
    while same < n and (order[same] >> 20) == (order[0] >> 20):     # the same kind of key but the level
        same += 1
    if same == 1:
        return 0
    for i in range(same):
        state_make(s, moves[i] >> 8, moves[i] & 255)
        opened = _popcount64(s.open[0]) + _popcount64(s.open[1]) + _popcount64(s.open[2])
        state_unmake(s, moves[i] >> 8, moves[i] & 255)
        if opened > most:
            most, best = opened, i
        if _spend(b, 1) == OUT_OF_BUDGET:
            return OUT_OF_BUDGET
    return best


cdef int _rollout(State *w, int depth, uint16_t *moves, int *examined) noexcept nogil:
    """pyramid_blind.rollout: up to ``depth`` quick greedy moves, then taken back.
    Returns the roll-out's score (blind.Lookahead._rollout)."""
    cdef uint16_t made_moves[NPOS]
    cdef int places[NKINDS]
    cdef int made = 0, step, i, n, best
    cdef uint64_t key, best_key
    cdef bint won, stuck
    examined[0] = 0
    for step in range(depth):
        n = _moves_by_kind(w, moves, places)
        examined[0] += 1
        if n == 0:
            break
        best, best_key = 0, _quick_order(moves[0], places)
        for i in range(1, n):
            key = _quick_order(moves[i], places)
            if key < best_key:
                best, best_key = i, key
        state_make(w, moves[best] >> 8, moves[best] & 255)
        made_moves[made] = moves[best]
        made += 1
    won = w.placed == NPOS
    stuck = not won and _moves_by_kind(w, moves, places) == 0
    for i in range(made - 1, -1, -1):
        state_unmake(w, made_moves[i] >> 8, made_moves[i] & 255)
    return 1 + made + (depth if won else 0) - ((1 + depth) if stuck else 0)


cdef int _lookahead_choose(Blind *b, State *s, uint16_t *moves, int n, int *places,
                           uint64_t *order) noexcept nogil:
    """blind.Lookahead.choose: the index into ``moves`` (ranked in place) or OUT_OF_BUDGET."""
    cdef int unseen[NKINDS]
    cdef int8_t pool[NPOS]
    cdef int32_t idx[NPOS]
    cdef int64_t totals[BLIND_MAX_WIDTH]
    cdef uint16_t roll[MAX_MOVES]
    cdef int cands, npool = 0, i, k, p, sample, stock, examined, best
    cdef State world
    _ranked(moves, n, places, order)
    cands = n if n < b.width else b.width
    if cands == 1:
        return 0
    for k in range(NKINDS):
        unseen[k] = g_copies[k] - s.reserve[k]
    for p in range(NPOS):
        if s.kind[p] >= 0:
            unseen[s.kind[p]] -= 1
    for k in range(NKINDS):
        for i in range(unseen[k]):
            pool[npool] = k
            npool += 1
    for i in range(cands):
        totals[i] = 0
    stock = NSLOTS + s.placed
    for sample in range(b.samples):
        for i in range(npool):
            idx[i] = i
        fisher_yates(idx, npool, splitmix64_next(&b.rng))
        world = s[0]
        world.packed_on = False
        for i in range(npool):
            world.deal[stock + i] = pool[idx[i]]
        for i in range(cands):
            state_make(&world, moves[i] >> 8, moves[i] & 255)
            totals[i] += _rollout(&world, b.depth, roll, &examined)
            if _spend(b, examined) == OUT_OF_BUDGET:
                return OUT_OF_BUDGET
            state_unmake(&world, moves[i] >> 8, moves[i] & 255)
    best = 0
    for i in range(1, cands):
        if totals[i] > totals[best]:
            best = i
    return best


cdef int _play_blind(State *s, Blind *b, int64_t node_limit, double time_limit, uint16_t *line,
                     int *limit_hit) noexcept nogil:
    """blind.play: the player plays from ``s`` until won or stuck, or a limit
    (node_limit -1 and time_limit 0: none).  Fills ``line`` with the moves
    (``kind << 8 | pos``) and returns how many."""
    cdef uint16_t moves[MAX_MOVES]
    cdef uint64_t order[MAX_MOVES]
    cdef int places[NKINDS]
    cdef int n, made = 0, i
    cdef double t0 = _now()
    limit_hit[0] = LIMIT_NONE
    b.nodes = 0
    while True:
        n = _moves_by_kind(s, moves, places)
        if n == 0:
            break
        if node_limit >= 0 and b.nodes + made >= <uint64_t>node_limit:
            limit_hit[0] = LIMIT_NODES
            break
        if time_limit > 0 and _now() - t0 >= time_limit:
            limit_hit[0] = LIMIT_TIME
            break
        i = 0
        if n > 1:
            b.limit = node_limit - made if node_limit >= 0 else -1
            if b.policy == BLIND_GREEDY:
                i = _greedy_choose(b, s, moves, n, places, order)
            else:
                i = _lookahead_choose(b, s, moves, n, places, order)
            if i == OUT_OF_BUDGET:
                limit_hit[0] = LIMIT_NODES
                break
        state_make(s, moves[i] >> 8, moves[i] & 255)
        line[made] = moves[i]
        made += 1
    return made


cdef int _blind_init(Blind *b, int policy, int samples, int width, int depth, uint64_t rng_seed) except -1:
    if policy not in (BLIND_GREEDY, BLIND_LOOKAHEAD):
        raise ValueError("policy 0 (greedy) or 1 (lookahead)")
    if samples < 1 or depth < 0 or not 1 <= width <= BLIND_MAX_WIDTH:
        raise ValueError(f"samples >= 1, width 1-{BLIND_MAX_WIDTH}, depth >= 0")
    b.policy, b.samples, b.width, b.depth = policy, samples, width, depth
    b.rng = rng_seed
    b.nodes = 0
    b.limit = -1
    return 0


def play_blind(deal_kinds, *, int variant=0, int policy=0, int samples=4, int width=4, int depth=6,
               uint64_t rng_seed=0, int64_t node_limit=-1, double time_limit=0.0):
    """A blind player plays the deal (144 kinds): the compiled twin of
    ``solver.pyramid.blind.play`` with ``Greedy()`` (policy 0) or
    ``Lookahead(samples=, width=, depth=)`` (policy 1), whose imagined stocks
    come from a SplitMix64 seeded with ``rng_seed`` (the deal's seed).

    Returns (verdict, moves as (kind, position) pairs, nodes, limit, seconds):
    ``nodes`` counts the moves made and the positions the player examined;
    ``node_limit`` (-1: none) and ``time_limit`` (0: none) make it 'unknown'.
    """
    cdef int8_t deal[NPOS]
    cdef State s
    cdef Blind b
    cdef uint16_t line[NPOS]
    cdef int made, limit_hit, i
    cdef double t0 = _now()
    assert variant == 0 or variant == 1, "variant 0 or 1"
    _load_deal(deal_kinds, deal)
    _blind_init(&b, policy, samples, width, depth, rng_seed)
    state_init(&s, deal, variant)
    with nogil:
        made = _play_blind(&s, &b, node_limit, time_limit, line, &limit_hit)
    verdict = "unknown" if limit_hit != LIMIT_NONE else ("won" if made == NPOS else "lost")
    return (verdict, [(line[i] >> 8, line[i] & 255) for i in range(made)], b.nodes + made, LIMITS[limit_hit],
            _now() - t0)


cdef int _blind_longest(int8_t *deal, int variant, uint64_t seed) noexcept nogil:
    """The most tiles greedy and the default lookahead (4 samples, width 4,
    depth 6, seeded with the deal's seed) place on the deal."""
    cdef State s
    cdef Blind b
    cdef uint16_t line[NPOS]
    cdef int policy, made, most = 0, limit_hit
    for policy in range(2):
        state_init(&s, deal, variant)
        b.policy, b.samples, b.width, b.depth = policy, 4, 4, 6
        b.rng = seed
        b.nodes = 0
        b.limit = -1
        made = _play_blind(&s, &b, -1, 0.0, line, &limit_hit)
        if made > most:
            most = made
    return most
