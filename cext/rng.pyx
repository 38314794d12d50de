"""Compiled SplitMix64 and Fisher-Yates (Python-visible wrappers).

Kernels cimport the inline functions from ``rng.pxd``; these wrappers exist so
that Python code and the tests can reach the compiled path directly.
"""
from libc.stdint cimport uint64_t, int32_t
from libc.stdlib cimport malloc, free

from cext.rng cimport splitmix64_next, fisher_yates


def outputs(uint64_t seed, int count):
    """The first ``count`` outputs of SplitMix64 started at ``seed``."""
    cdef uint64_t state = seed
    assert count >= 0, "count must be >= 0"
    return [splitmix64_next(&state) for _ in range(count)]


def shuffled_indices(int n, uint64_t seed):
    """``list(range(n))`` shuffled by Fisher-Yates driven by SplitMix64(seed)."""
    cdef int32_t *buf = <int32_t *>malloc(max(n, 1) * sizeof(int32_t))
    cdef int i
    if buf == NULL:
        raise MemoryError()
    try:
        assert n >= 0, "n must be >= 0"
        for i in range(n):
            buf[i] = i
        fisher_yates(buf, n, seed)
        return [buf[i] for i in range(n)]
    finally:
        free(buf)
