# The project's one seeded generator, for every compiled kernel to cimport.
# SplitMix64 and Fisher-Yates exactly as rules/pyramid.md defines them; the
# pure-Python twin is solver/rng.py and tests/test_rng.py holds them together.
from libc.stdint cimport uint64_t, int32_t


cdef inline uint64_t splitmix64_next(uint64_t *state) noexcept nogil:
    """Advance ``state`` and return the next output (all arithmetic mod 2**64)."""
    cdef uint64_t z
    state[0] += <uint64_t>0x9E3779B97F4A7C15ULL
    z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline void fisher_yates(int32_t *items, int n, uint64_t seed) noexcept nogil:
    """Shuffle ``items[0:n]`` in place: i from n-1 down to 1, j = next() mod (i+1)."""
    cdef uint64_t state = seed
    cdef int i, j
    cdef int32_t tmp
    for i in range(n - 1, 0, -1):
        j = <int>(splitmix64_next(&state) % <uint64_t>(i + 1))
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp
