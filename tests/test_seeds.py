"""Seed ranges: parsing, errors, subtraction and chunking."""
import pytest
from hypothesis import given, strategies as st

from solver.errors import InputError
from solver.seeds import chunks, count, normalise, parse_ranges, parse_seeds_file, subtract


def test_parse_ranges_merges_and_sorts():
    assert parse_ranges("10-12 1-3, 2-5 7") == [(1, 5), (7, 7), (10, 12)]
    assert parse_ranges("0x10") == [(16, 16)]
    assert count(parse_ranges("1-100000")) == 100000


@pytest.mark.parametrize("text", ["", "1-", "-5", "5-1", "a-b", "1-2-3", "-1", str(1 << 64), "1..5"])
def test_malformed_ranges_raise_input_error(text):
    with pytest.raises(InputError):
        parse_ranges(text)


def test_seeds_file_lines_and_errors():
    assert parse_seeds_file("# header\n1-3\n\n7  # one\n2\n") == [(1, 3), (7, 7)]
    with pytest.raises(InputError, match="line 2"):
        parse_seeds_file("1\nnope\n")
    with pytest.raises(InputError):
        parse_seeds_file("# nothing\n")


ranges_st = st.lists(st.tuples(st.integers(0, 300), st.integers(0, 40)), max_size=6).map(
    lambda xs: normalise((a, a + d) for a, d in xs))


@given(ranges_st, st.sets(st.integers(0, 400)), st.integers(1, 17))
def test_subtract_and_chunks_match_sets(ranges, done, size):
    want = {s for lo, hi in ranges for s in range(lo, hi + 1)} - done
    left = subtract(ranges, sorted(done))
    assert {s for lo, hi in left for s in range(lo, hi + 1)} == want
    assert all(a[1] + 1 < b[0] for a, b in zip(left, left[1:]))        # disjoint, sorted
    got = list(chunks(left, size=size))
    flat = [s for c in got for s in c]
    assert flat == sorted(want) and all(0 < len(c) <= size for c in got)
