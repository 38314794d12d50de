"""Seed ranges: parse ``1-100000``, seeds files, and subtract what is stored.

Seeds are kept as sorted, disjoint, inclusive ``(lo, hi)`` ranges so that a
million seeds cost two integers, and resuming a run is a range subtraction.

>>> parse_ranges("5, 1-3,2-4")
[(1, 5)]
>>> count(parse_ranges("1-100000"))
100000
>>> subtract([(1, 10)], [2, 3, 7])
[(1, 1), (4, 6), (8, 10)]
>>> list(chunks([(1, 5), (9, 9)], size=2))
[[1, 2], [3, 4], [5, 9]]
"""
from __future__ import annotations

from typing import Iterable, Iterator, List, Tuple

from solver.errors import InputError
from solver.rng import parse_seed

Range = Tuple[int, int]


def parse_range(text: str) -> Range:
    """One seed (``7``) or one inclusive range (``1-100``)."""
    item = text.strip()
    lo_text, sep, hi_text = item.partition("-")
    if not sep:
        seed = parse_seed(item)
        return seed, seed
    if not lo_text.strip() or not hi_text.strip():
        raise InputError(f"malformed seed range {item!r} (expected e.g. 1-100000)")
    lo, hi = parse_seed(lo_text), parse_seed(hi_text)
    if lo > hi:
        raise InputError(f"seed range {item!r} runs backwards")
    return lo, hi


def normalise(ranges: Iterable[Range]) -> List[Range]:
    """Sorted, merged, disjoint ranges (a seed named twice is run once)."""
    out: List[Range] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def parse_ranges(text: str) -> List[Range]:
    """Comma- or whitespace-separated seeds and ranges."""
    items = [t for t in text.replace(",", " ").split()]
    if not items:
        raise InputError("no seeds given (expected e.g. 1-100000)")
    return normalise(parse_range(t) for t in items)


def parse_seeds_file(text: str, *, name: str = "seeds file") -> List[Range]:
    """One seed or one range per line; blank lines and ``#`` comments are skipped."""
    ranges = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            ranges.append(parse_range(line))
        except InputError as exc:
            raise InputError(f"{name} line {number}: {exc}") from None
    if not ranges:
        raise InputError(f"{name} names no seeds")
    return normalise(ranges)


def count(ranges: Iterable[Range]) -> int:
    return sum(hi - lo + 1 for lo, hi in ranges)


CONFIRM_ABOVE = 10_000_000
"""A run of more seeds than this needs ``--yes``: at 10,000 seeds a second it
is over 15 minutes of work, and a slip of the keyboard (``0-18446744073709551615``)
should not start a job that never ends."""


def check_size(ranges: Iterable[Range], *, yes: bool = False) -> int:
    """The number of seeds; more than :data:`CONFIRM_ABOVE` without ``yes`` is an InputError.

    >>> check_size([(1, 10_000_000)])
    10000000
    >>> check_size([(0, 2 ** 64 - 1)])
    Traceback (most recent call last):
    ...
    solver.errors.InputError: 18446744073709551616 seeds is more than 10,000,000: add --yes to run them all
    """
    n = count(ranges)
    if n > CONFIRM_ABOVE and not yes:
        raise InputError(f"{n} seeds is more than {CONFIRM_ABOVE:,}: add --yes to run them all")
    return n


def subtract(ranges: List[Range], done: Iterable[int]) -> List[Range]:
    """``ranges`` without the seeds in ``done`` (which must come in ascending order)."""
    out: List[Range] = []
    it = iter(done)
    nxt = next(it, None)
    for lo, hi in ranges:
        cur = lo
        while nxt is not None and nxt < lo:
            nxt = next(it, None)
        while nxt is not None and nxt <= hi:
            if nxt > cur:
                out.append((cur, nxt - 1))
            cur = max(cur, nxt + 1)
            nxt = next(it, None)
        if cur <= hi:
            out.append((cur, hi))
    return out


def chunks(ranges: Iterable[Range], *, size: int) -> Iterator[List[int]]:
    """Lists of at most ``size`` seeds, in order, generated lazily."""
    buf: List[int] = []
    for lo, hi in ranges:
        seed = lo
        while seed <= hi:
            take = min(hi - seed + 1, size - len(buf))
            buf.extend(range(seed, seed + take))
            seed += take
            if len(buf) == size:
                yield buf
                buf = []
    if buf:
        yield buf

