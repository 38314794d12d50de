# Spectrum kernel, part of cext/spectrum.pyx (textual include): the packed
# position (stash 3 bits per kind in two words, direction, value, goal-tree node),
# its hash, and the bridge between it and Python's 36 counts.

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


cdef SState make_state(stash, int direction, int node) except *:
    cdef SState s
    cdef int f, v = 0
    assert len(stash) == 36, "a stash is 36 counts"
    assert direction == 1 or direction == -1, "the direction is +1 or -1"
    assert node >= 0, "a goal-tree node is >= 0"
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
