# cython: language_level=3
"""Compiled Continental kernel: deficiency search and seeded deals.

Contract of ``deficiency(hand, round, decks, jokers_per_deck, joker_limit)``:
``hand`` is 53 counts (cards ``suit*13+rank``, joker 52), each within the pack;
it returns ``(deficiency, nodes)`` exactly as
``solver.continental.deficiency.deficiency_search`` does (same options, same
order, same pruning, so the node counts agree too).
``deficiency_limited`` is the same search stopped by a node or time limit.  The search is branch and
bound over the contract's minimum combinations; see that module for why the
cost function and the static lower bound are sound.

State is a few small arrays: straight naturals per card (52 bytes), trio
naturals per rank (13), jokers in M, and the hand.  No Python object is touched
inside the search.
"""
from libc.stdint cimport uint64_t, int32_t, int64_t
from libc.string cimport memset, memcpy
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from cext.rng cimport splitmix64_next, fisher_yates

DEF NK = 53
DEF JOKER = 52
DEF NSTRAIGHT_MAX = 52 * 16
DEF NTRIO_MAX = 13 * 3
DEF MAXDEPTH = 3

cdef int ROUND_CARDS[8]
cdef int ROUND_TRIOS[8]
cdef int ROUND_STRAIGHTS[8]
ROUND_CARDS[:] = [0, 7, 8, 9, 10, 11, 12, 13]
ROUND_TRIOS[:] = [0, 2, 1, 0, 3, 2, 1, 0]
ROUND_STRAIGHTS[:] = [0, 0, 1, 2, 0, 1, 2, 3]


cdef struct Opt:
    int nnat          # straight naturals (0 for a trio)
    int nat[4]        # their cards
    int rank          # trio rank, or -1
    int trio_nat      # trio naturals needed
    int jokers


cdef struct Tables:
    Opt trio[NTRIO_MAX]
    int ntrio
    Opt straight[NSTRAIGHT_MAX]
    int nstraight


cdef Tables TABLES[2]   # [0]: no joker limit, [1]: limit


cdef int max_jokers(int size, bint limit) noexcept nogil:
    return size // 2 if limit else size - 1


cdef void build_tables(Tables *t, bint limit) noexcept nogil:
    """Options in the reference's generation order (trio: rank, jokers; straight: suit, start, mask)."""
    cdef int r, k, s, start, mask, i, j, n
    n = 0
    for r in range(13):
        for k in range(max_jokers(3, limit) + 1):
            t.trio[n].nnat = 0
            t.trio[n].rank = r
            t.trio[n].trio_nat = 3 - k
            t.trio[n].jokers = k
            n += 1
    t.ntrio = n
    n = 0
    for s in range(4):
        for start in range(13):
            for mask in range(16):
                j = 0
                for i in range(4):
                    j += (mask >> i) & 1
                if j > max_jokers(4, limit):
                    continue
                t.straight[n].nnat = 0
                for i in range(4):
                    if not ((mask >> i) & 1):
                        t.straight[n].nat[t.straight[n].nnat] = s * 13 + (start + i) % 13
                        t.straight[n].nnat += 1
                t.straight[n].rank = -1
                t.straight[n].trio_nat = 0
                t.straight[n].jokers = j
                n += 1
    t.nstraight = n


build_tables(&TABLES[0], 0)
build_tables(&TABLES[1], 1)


cdef struct Search:
    int hand[NK]
    int straight[52]
    int trio[13]
    int jokers
    int decks
    int pack_jokers
    int nkinds                 # combinations in the contract
    int kinds[MAXDEPTH + 3]    # 0 trio, 1 straight, per depth
    const Opt *order[2][NSTRAIGHT_MAX]   # options sorted by static cost, per kind
    int static[2][NSTRAIGHT_MAX]
    int slots[2][NSTRAIGHT_MAX]   # suffix minima of uncovered places, per kind
    int norder[2]
    int floor[2]
    int best
    int64_t nodes
    int64_t node_limit         # 0: none
    double deadline            # seconds on the monotonic clock; 0: none
    int stopped                # 0 finished, 1 node limit, 2 time limit


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline int rank_cost(Search *S, int r) noexcept nogil:
    cdef int s, c, d, excess = 0, net = S.trio[r]
    for s in range(4):
        c = s * 13 + r
        d = S.straight[c] - S.hand[c]
        net += d
        if d > 0:
            excess += d
    return excess if excess > net else net


cdef inline int joker_cost(Search *S) noexcept nogil:
    cdef int d = S.jokers - S.hand[JOKER]
    return d if d > 0 else 0


cdef inline bint feasible_rank(Search *S, int r) noexcept nogil:
    cdef int s, n, used = S.trio[r]
    for s in range(4):
        n = S.straight[s * 13 + r]
        if n > S.decks:
            return 0
        used += n
    return used <= 4 * S.decks


cdef inline void add_opt(Search *S, const Opt *o, int sign) noexcept nogil:
    cdef int i
    for i in range(o.nnat):
        S.straight[o.nat[i]] += sign
    if o.rank >= 0:
        S.trio[o.rank] += sign * o.trio_nat
    S.jokers += sign * o.jokers


cdef inline int opt_ranks(const Opt *o, int *ranks) noexcept nogil:
    cdef int i
    if o.rank >= 0:
        ranks[0] = o.rank
        return 1
    for i in range(o.nnat):
        ranks[i] = o.nat[i] % 13
    return o.nnat


cdef inline int place_general(Search *S, const Opt *o) noexcept nogil:
    """Add ``o`` to M and return its marginal cost; -1 (M unchanged) if infeasible."""
    cdef int ranks[4]
    cdef int n = opt_ranks(o, ranks)
    cdef int i, before = joker_cost(S), after
    for i in range(n):
        before += rank_cost(S, ranks[i])
    add_opt(S, o, 1)
    if S.jokers > S.pack_jokers:
        add_opt(S, o, -1)
        return -1
    for i in range(n):
        if not feasible_rank(S, ranks[i]):
            add_opt(S, o, -1)
            return -1
    after = joker_cost(S)
    for i in range(n):
        after += rank_cost(S, ranks[i])
    return after - before


cdef inline int place(Search *S, const Opt *o) noexcept nogil:
    """``place_general`` with a shortcut for straights over ranks no trio uses.

    With no trio naturals at a rank, a straight natural costs one exactly when
    M already holds as many of that card as the hand, and fits while under
    ``decks`` copies: the general rank cost reduces to that.
    """
    cdef int i, c, added = 0, jc
    if o.rank >= 0:
        return place_general(S, o)
    for i in range(o.nnat):
        c = o.nat[i]
        if S.trio[c % 13] != 0:
            return place_general(S, o)
        if S.straight[c] >= S.decks:
            return -1
        if S.straight[c] >= S.hand[c]:
            added += 1
    if S.jokers + o.jokers > S.pack_jokers:
        return -1
    jc = joker_cost(S)
    add_opt(S, o, 1)
    return added + joker_cost(S) - jc


cdef inline int bound(Search *S, int depth, int i, bint with_current) noexcept nogil:
    """Lower bound on the cost from ``depth`` (or after it) on, with this kind at
    options ``i`` or later: max of the static bound and the uncovered-places bound."""
    cdef int d, k = S.kinds[depth], same = 0, by_static = 0, by_slots = 0, free
    for d in range(depth + (0 if with_current else 1), S.nkinds):
        if S.kinds[d] == k:
            same += 1
        else:
            by_static += S.floor[S.kinds[d]]
            by_slots += S.slots[S.kinds[d]][0]
    by_static += same * S.static[k][i]
    free = S.hand[JOKER] - S.jokers
    if free < 0:
        free = 0
    by_slots += same * S.slots[k][i] - free
    return by_static if by_static > by_slots else by_slots


cdef void dfs(Search *S, int depth, int start, int cost) noexcept nogil:
    cdef int k, i, added, nxt
    cdef const Opt *o
    if depth == S.nkinds:
        if cost < S.best:
            S.best = cost
        return
    k = S.kinds[depth]
    for i in range(start, S.norder[k]):
        if cost + bound(S, depth, i, 1) >= S.best:
            break  # the bound only grows with i
        o = S.order[k][i]
        added = place(S, o)
        if added < 0:
            continue
        if S.node_limit > 0 and S.nodes >= S.node_limit:
            S.stopped = 1
        elif S.deadline > 0 and (S.nodes & 1023) == 0 and now() >= S.deadline:
            S.stopped = 2
        if S.stopped:
            add_opt(S, o, -1)
            return
        S.nodes += 1
        nxt = i if depth + 1 < S.nkinds and S.kinds[depth + 1] == k else 0
        if cost + added + bound(S, depth, i, 0) < S.best:
            dfs(S, depth + 1, nxt, cost + added)
        add_opt(S, o, -1)
        if S.stopped:
            return


cdef inline int uncovered(Search *S, const Opt *o) noexcept nogil:
    """Places of ``o`` the hand's own naturals cannot fill, jokers included."""
    cdef int i, s, held = 0, n
    if o.rank >= 0:
        for s in range(4):
            held += S.hand[s * 13 + o.rank]
        n = o.trio_nat - held
        return (n if n > 0 else 0) + o.jokers
    n = o.jokers
    for i in range(o.nnat):
        if S.hand[o.nat[i]] == 0:
            n += 1
    return n


cdef void sort_options(Search *S, int k, const Opt *opts, int n) noexcept nogil:
    """Feasible options by static cost, stable (counting sort on costs 0..4)."""
    cdef int cost_of[NSTRAIGHT_MAX]
    cdef int count[8]
    cdef int i, c, pos
    memset(count, 0, sizeof(count))
    for i in range(n):
        c = place(S, &opts[i])
        if c >= 0:
            add_opt(S, &opts[i], -1)
            count[c + 1] += 1
        cost_of[i] = c
    for c in range(1, 8):
        count[c] += count[c - 1]
    for i in range(n):
        c = cost_of[i]
        if c >= 0:
            pos = count[c]
            S.order[k][pos] = &opts[i]
            S.static[k][pos] = c
            count[c] += 1
    S.norder[k] = count[6]
    S.floor[k] = S.static[k][0] if S.norder[k] > 0 else 0
    for i in range(S.norder[k]):
        S.slots[k][i] = uncovered(S, S.order[k][i])
    for i in range(S.norder[k] - 2, -1, -1):
        if S.slots[k][i + 1] < S.slots[k][i]:
            S.slots[k][i] = S.slots[k][i + 1]


cdef int deficiency_core(Search *S, const int *hand, int rnd, int decks, int jokers_per_deck,
                         bint limit) noexcept nogil:
    """Fill ``S`` for ``hand`` and run the search; returns the deficiency."""
    S.node_limit = 0
    S.deadline = 0.0
    return deficiency_run(S, hand, rnd, decks, jokers_per_deck, limit)


cdef int deficiency_run(Search *S, const int *hand, int rnd, int decks, int jokers_per_deck,
                        bint limit) noexcept nogil:
    """Fill ``S`` for ``hand`` and run the search under ``S.node_limit`` and
    ``S.deadline``; returns the best cost found (the deficiency unless ``S.stopped``)."""
    cdef const Tables *t = &TABLES[1 if limit else 0]
    cdef int d, nt = ROUND_TRIOS[rnd], ns = ROUND_STRAIGHTS[rnd]
    memcpy(S.hand, hand, sizeof(int) * NK)
    memset(S.straight, 0, sizeof(S.straight))
    memset(S.trio, 0, sizeof(S.trio))
    S.jokers = 0
    S.decks = decks
    S.pack_jokers = decks * jokers_per_deck
    S.nkinds = nt + ns
    for d in range(nt):
        S.kinds[d] = 0
    for d in range(ns):
        S.kinds[nt + d] = 1
    S.norder[0] = S.norder[1] = 0
    S.floor[0] = S.floor[1] = 0
    if nt:
        sort_options(S, 0, t.trio, t.ntrio)
    if ns:
        sort_options(S, 1, t.straight, t.nstraight)
    S.best = 4 * S.nkinds + 1
    S.nodes = 0
    S.stopped = 0
    dfs(S, 0, 0, 0)
    return S.best


cdef int check_params(int rnd, int decks, int jokers_per_deck) except -1:
    if rnd < 1 or rnd > 7:
        raise ValueError("round must be 1 to 7")
    if decks < 1 or decks > 8 or jokers_per_deck < 0 or jokers_per_deck > 8:
        raise ValueError("pack out of range")
    return 0


def deficiency(hand, int rnd, int decks=2, int jokers_per_deck=2, bint joker_limit=True):
    """(deficiency, nodes) of ``hand`` (53 counts) for round ``rnd``."""
    cdef int h[NK]
    cdef int i, d
    cdef Search S
    check_params(rnd, decks, jokers_per_deck)
    if len(hand) != NK:
        raise ValueError("hand must have 53 counts")
    for i in range(NK):
        h[i] = hand[i]
        if h[i] < 0 or h[i] > (decks * jokers_per_deck if i == JOKER else decks):
            raise ValueError("hand holds more copies than the pack")
    d = deficiency_core(&S, h, rnd, decks, jokers_per_deck, joker_limit)
    return d, S.nodes


def deficiency_limited(hand, int rnd, int decks=2, int jokers_per_deck=2, bint joker_limit=True,
                       int64_t node_limit=0, double time_limit=0.0):
    """``(best, nodes, stopped)``: ``deficiency`` under a limit on nodes (0: none)
    and seconds (0: none).  ``stopped`` is None when the search finished (``best``
    is then the deficiency), else ``"nodes"`` or ``"time"`` (``best`` is only an
    upper bound, ``4 * combinations + 1`` when no arrangement was reached).
    The search keeps no table."""
    cdef int h[NK]
    cdef int i, d
    cdef Search S
    check_params(rnd, decks, jokers_per_deck)
    if len(hand) != NK:
        raise ValueError("hand must have 53 counts")
    if node_limit < 0 or time_limit < 0:
        raise ValueError("limits must be >= 0")
    for i in range(NK):
        h[i] = hand[i]
        if h[i] < 0 or h[i] > (decks * jokers_per_deck if i == JOKER else decks):
            raise ValueError("hand holds more copies than the pack")
    S.node_limit = node_limit
    S.deadline = now() + time_limit if time_limit > 0 else 0.0
    d = deficiency_run(&S, h, rnd, decks, jokers_per_deck, joker_limit)
    return d, S.nodes, (None, "nodes", "time")[S.stopped]


cdef bint rows_in_pack(const unsigned char[:, :] hands, int decks, int jokers_per_deck):
    """Every row's counts within the pack (the batch's precondition, asserted)."""
    cdef Py_ssize_t i, c
    for i in range(hands.shape[0]):
        for c in range(NK):
            if hands[i, c] > (decks * jokers_per_deck if c == JOKER else decks):
                return False
    return True


def deficiency_batch(const unsigned char[:, :] hands, int rnd, int decks=2, int jokers_per_deck=2,
                     bint joker_limit=True):
    """Deficiencies of many hands (rows of 53 counts, unchecked) as a list; for benchmarks."""
    cdef int n = hands.shape[0], i, c
    cdef int h[NK]
    cdef Search S
    cdef int[:] out
    import array
    res = array.array("i", [0] * n)
    out = res
    check_params(rnd, decks, jokers_per_deck)
    if hands.shape[1] != NK:
        raise ValueError("rows must have 53 counts")
    assert rows_in_pack(hands, decks, jokers_per_deck), "a row holds more copies than the pack"
    with nogil:
        for i in range(n):
            for c in range(NK):
                h[c] = hands[i, c]
            out[i] = deficiency_core(&S, h, rnd, decks, jokers_per_deck, joker_limit)
    return list(res)


cdef int canonical_pack(int32_t *deck, int decks, int jokers_per_deck) noexcept nogil:
    """Fill ``deck`` in canonical order (per deck: s h d c, A..K, then its jokers); return its size."""
    cdef int n = 0, d, i
    for d in range(decks):
        for i in range(52):
            deck[n] = i
            n += 1
        for i in range(jokers_per_deck):
            deck[n] = JOKER
            n += 1
    return n


def odds_histogram(int rnd, uint64_t first_seed, int64_t deals, int decks=2, int jokers_per_deck=2,
                   bint joker_limit=True):
    """Deficiency histogram (list indexed by deficiency) over deals first_seed .. +deals-1.

    Releases the GIL, so threads over disjoint seed ranges run in parallel.
    Deal ``N`` is the canonical pack (per deck: s h d c, A..K, then jokers)
    shuffled by Fisher-Yates driven by SplitMix64(N); the hand is its first
    ``cards`` cards, exactly as ``solver.continental.rules.deal_hand``.
    """
    cdef int32_t base[8 * 60]
    cdef int32_t deck[8 * 60]
    cdef int h[NK]
    cdef int64_t hist[64]
    cdef Search S
    cdef int n, i, d, cards
    cdef int64_t k
    cdef uint64_t seed
    check_params(rnd, decks, jokers_per_deck)
    assert deals >= 0, "deals must be >= 0"
    cards = ROUND_CARDS[rnd]
    n = canonical_pack(base, decks, jokers_per_deck)
    memset(hist, 0, sizeof(hist))
    with nogil:
        for k in range(deals):
            seed = first_seed + <uint64_t>k
            memcpy(deck, base, sizeof(int32_t) * n)
            fisher_yates(deck, n, seed)
            memset(h, 0, sizeof(h))
            for i in range(cards):
                h[deck[i]] += 1
            d = deficiency_core(&S, h, rnd, decks, jokers_per_deck, joker_limit)
            hist[d] += 1
    d = 63
    while d > 0 and hist[d] == 0:
        d -= 1
    return [hist[i] for i in range(d + 1)]


def deal_hand(uint64_t seed, int cards, int decks=2, int jokers_per_deck=2):
    """The first ``cards`` cards of deal ``seed`` (compiled twin of rules.deal_hand)."""
    cdef int32_t deck[8 * 60]
    cdef int n, i
    check_params(1, decks, jokers_per_deck)
    n = canonical_pack(deck, decks, jokers_per_deck)
    if cards < 0 or cards > n:
        raise ValueError("cards out of range")
    fisher_yates(deck, n, seed)
    return [deck[i] for i in range(cards)]
