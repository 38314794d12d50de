"""The project's seeded generator: SplitMix64 and a Fisher-Yates shuffle.

This is the readable reference; ``cext/rng.pyx`` is the compiled twin that the
kernels use.  Every game draws its randomness from here, so deal N of any game
can be reproduced in any language from the definition in ``rules/pyramid.md``.

>>> rng = SplitMix64(0)
>>> hex(rng.next())
'0xe220a8397b1dcdaf'
>>> shuffled(["a", "b", "c", "d"], seed=1)
['c', 'a', 'd', 'b']
"""
from __future__ import annotations

import re
from typing import List, Sequence, TypeVar

from solver.errors import InputError

MASK64 = (1 << 64) - 1
_SEED_TEXT = re.compile(r"([+-]?)(?:0[xX]([0-9a-fA-F]+)|([0-9]+))")
T = TypeVar("T")


def check_seed(seed: int) -> int:
    """Return ``seed`` if it is an unsigned 64-bit integer, else raise InputError."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        from solver.files import excerpt
        raise InputError(f"seed must be an integer, not {excerpt(repr(seed))}")
    if seed < 0:
        raise InputError(f"seed must not be negative: {seed if seed > -10 ** 40 else 'a huge number'}")
    if seed > MASK64:
        text = str(seed) if seed < 10 ** 40 else f"a {seed.bit_length()}-bit number"
        raise InputError(f"seed does not fit in 64 bits: {text}")
    return seed


def parse_seed(text: str) -> int:
    """Parse a decimal (or 0x-prefixed hexadecimal) seed from user input.

    Leading zeros are decimal, as a person means them (``007`` is 7).

    >>> parse_seed("007"), parse_seed("0x10"), parse_seed(" 42 ")
    (7, 16, 42)
    """
    try:
        match = _SEED_TEXT.fullmatch(text.strip())
        if match is None:
            raise ValueError(text)
        sign, hexa, decimal = match.groups()
        value = int(hexa, 16) if hexa is not None else int(decimal, 10)
        value = -value if sign == "-" else value
    except (ValueError, AttributeError, TypeError):
        from solver.files import excerpt
        raise InputError(f"seed is not an integer: {excerpt(text)}") from None
    return check_seed(value)


class SplitMix64:
    """SplitMix64 with a 64-bit state; ``next()`` returns the next 64-bit output."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = check_seed(seed)

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An index in ``range(n)``: ``next() mod n`` (the project's draw rule)."""
        if n <= 0:
            raise ValueError("cannot draw from an empty range")
        return self.next() % n


def shuffled(items: Sequence[T], *, seed: int) -> List[T]:
    """A new list: ``items`` shuffled by Fisher-Yates from the last index down."""
    out = list(items)
    rng = SplitMix64(seed)
    for i in range(len(out) - 1, 0, -1):
        j = rng.next() % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out
