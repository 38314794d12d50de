"""Deficiency by exhaustive search: the reference the compiled kernel must match.

The deficiency of a hand H (n cards) for a round is the fewest exchanges after
which the hand meets the contract.  It equals the least *cost* of a multiset M of
cards that forms the contract with minimum-size combinations (trios of 3,
straights of 4), where::

    cost(M) = sum over card kinds c of max(0, M(c) - H(c))   (cards to draw)
    feasible  iff  M(c) <= pack copies of c for every c      (a card given up
                                                              never comes back)

Minimum sizes suffice: every longer combination contains a valid minimum one
(a window of 4 with no more jokers than naturals, or 3 of a trio), which costs
no more.  The contract totals n - 1 cards in every round, so M fits in the hand.

Two facts keep the search small and are checked by the tests:

* Trio suits are free, so a trio is just (rank, jokers).  For one rank the
  cheapest suit assignment costs ``max(e, sum_s(S_s - H_s) + T)`` where S_s
  counts straight naturals of that rank per suit, T the trio naturals, and
  ``e = sum_s max(0, S_s - H_s)``; it is feasible iff ``S_s <= decks`` and
  ``sum_s S_s + T <= 4 * decks``.
* Adding cards to M never lowers the marginal cost of later cards (the cost is
  a max of sums of increasing convex terms), so the cost an option has against
  the empty M is a lower bound on what it adds anywhere: a sound bound for
  branch and bound.

Options are tried in increasing order of that static cost; combinations of the
same kind are taken in non-decreasing option order, so each multiset is seen
once.  A second bound counts the places the hand's naturals cannot fill, less
the hand jokers still free (see :func:`uncovered`).

>>> from solver.continental.notation import parse_hand
>>> deficiency(parse_hand("As 2s 3s 4s Kh Kd X"), 2)
0
>>> deficiency(parse_hand("Ks Kh X 5d 5c 5c 9s"), 1)
0
>>> deficiency(parse_hand("As 3h 5d 7c 9s Jh Kd"), 1)
4
"""
from __future__ import annotations

from functools import lru_cache
from typing import List, NamedTuple, Sequence, Tuple

from solver.continental.notation import JOKER, N_RANKS, N_SUITS, Pack, make_card
from solver.continental.rules import STRAIGHT_MIN, TRIO_MIN, get_round


class Option(NamedTuple):
    """One minimum combination: a trio (rank, jokers) or a straight (suit, start, joker mask)."""

    kind: str
    naturals: Tuple[int, ...]  # the natural cards (straights) or () for trios
    rank: int                   # the trio's rank, or -1
    trio_naturals: int          # natural cards of that rank the trio needs
    jokers: int


def max_jokers(size: int, joker_limit: bool) -> int:
    """Most jokers a combination of ``size`` cards may hold."""
    return size // 2 if joker_limit else size - 1


@lru_cache(maxsize=None)
def trio_options(joker_limit: bool) -> Tuple[Option, ...]:
    return tuple(
        Option("trio", (), r, TRIO_MIN - k, k)
        for r in range(N_RANKS)
        for k in range(max_jokers(TRIO_MIN, joker_limit) + 1)
    )


@lru_cache(maxsize=None)
def straight_options(joker_limit: bool) -> Tuple[Option, ...]:
    out = []
    for s in range(N_SUITS):
        for start in range(N_RANKS):
            for mask in range(1 << STRAIGHT_MIN):
                jokers = bin(mask).count("1")
                if jokers > max_jokers(STRAIGHT_MIN, joker_limit):
                    continue
                naturals = tuple(
                    make_card(s, start + i) for i in range(STRAIGHT_MIN) if not mask >> i & 1
                )
                out.append(Option("straight", naturals, -1, 0, jokers))
    return tuple(out)


class _Multiset:
    """M as straight naturals per card, trio naturals per rank, and jokers."""

    def __init__(self, hand: Sequence[int], pack: Pack) -> None:
        self.hand = hand
        self.decks = pack.decks
        self.pack_jokers = pack.jokers
        self.straight = [0] * 52
        self.trio = [0] * N_RANKS
        self.jokers = 0

    def rank_cost(self, r: int) -> int:
        excess = 0
        net = self.trio[r]
        for s in range(N_SUITS):
            c = make_card(s, r)
            d = self.straight[c] - self.hand[c]
            net += d
            excess += max(0, d)
        return max(excess, net)

    def joker_cost(self) -> int:
        return max(0, self.jokers - self.hand[JOKER])

    def feasible_rank(self, r: int) -> bool:
        used = self.trio[r]
        for s in range(N_SUITS):
            n = self.straight[make_card(s, r)]
            if n > self.decks:
                return False
            used += n
        return used <= N_SUITS * self.decks

    def add(self, opt: Option, sign: int) -> None:
        for c in opt.naturals:
            self.straight[c] += sign
        if opt.rank >= 0:
            self.trio[opt.rank] += sign * opt.trio_naturals
        self.jokers += sign * opt.jokers

    def ranks_of(self, opt: Option) -> List[int]:
        return [opt.rank] if opt.rank >= 0 else [c % N_RANKS for c in opt.naturals]

    def place(self, opt: Option):
        """Add ``opt``; return its marginal cost, or None (and undo) if infeasible."""
        ranks = self.ranks_of(opt)
        before = sum(self.rank_cost(r) for r in ranks) + self.joker_cost()
        self.add(opt, +1)
        if self.jokers > self.pack_jokers or not all(self.feasible_rank(r) for r in ranks):
            self.add(opt, -1)
            return None
        return sum(self.rank_cost(r) for r in ranks) + self.joker_cost() - before


def uncovered(opt: Option, hand: Sequence[int]) -> int:
    """Places of ``opt`` the hand's own naturals cannot fill (jokers included).

    Whatever M already holds, placing ``opt`` costs at least this minus the
    hand jokers still free, and over several combinations the free jokers are
    shared: the second lower bound of the search.
    """
    if opt.rank >= 0:
        held = sum(hand[make_card(s, opt.rank)] for s in range(N_SUITS))
        return max(0, opt.trio_naturals - held) + opt.jokers
    return sum(1 for c in opt.naturals if hand[c] == 0) + opt.jokers


def deficiency_search(hand: Sequence[int], round_number: int, *, pack: Pack = Pack(),
                      joker_limit: bool = True) -> Tuple[int, int]:
    """(deficiency, nodes): branch and bound over the contract's minimum combinations.

    ``nodes`` counts combinations placed; the compiled kernel counts the same way.
    """
    rnd = get_round(round_number)
    kinds = rnd.kinds
    empty = _Multiset(hand, pack)
    static, slots, options = {}, {}, {}
    needed = {"trio": trio_options, "straight": straight_options}
    for kind in set(kinds):
        scored = []
        for opt in needed[kind](joker_limit):
            cost = empty.place(opt)
            if cost is not None:
                empty.add(opt, -1)
                scored.append((cost, opt))
        if not scored:
            raise ValueError("the pack cannot form this contract")
        scored.sort(key=lambda pair: pair[0])  # stable: ties keep generation order
        static[kind] = [c for c, _ in scored]
        options[kind] = [o for _, o in scored]
        # suffix minima: the fewest uncovered places among options i, i+1, ...
        suffix = [uncovered(o, hand) for o in options[kind]]
        for i in range(len(suffix) - 2, -1, -1):
            suffix[i] = min(suffix[i], suffix[i + 1])
        slots[kind] = suffix

    m = _Multiset(hand, pack)
    best = [len(kinds) * STRAIGHT_MIN + 1]
    nodes = [0]

    def bound(depth: int, i: int, with_current: bool) -> int:
        """Lower bound on the cost of the combinations from ``depth`` (or after it) on,
        when those of this kind use options ``i`` or later: the larger of the static
        bound and the uncovered-places bound."""
        kind = kinds[depth]
        same = kinds[depth:].count(kind) - (0 if with_current else 1)
        others = [k for k in kinds[depth + 1:] if k != kind]
        by_static = same * static[kind][i] + sum(static[k][0] for k in others)
        free = max(0, hand[JOKER] - m.jokers)
        by_slots = same * slots[kind][i] + sum(slots[k][0] for k in others) - free
        return max(by_static, by_slots)

    def dfs(depth: int, start: int, cost: int) -> None:
        if depth == len(kinds):
            best[0] = min(best[0], cost)
            return
        kind = kinds[depth]
        for i in range(start, len(options[kind])):
            if cost + bound(depth, i, True) >= best[0]:
                break  # the bound only grows with i
            opt = options[kind][i]
            added = m.place(opt)
            if added is None:
                continue
            nodes[0] += 1
            nxt = i if depth + 1 < len(kinds) and kinds[depth + 1] == kind else 0
            if cost + added + bound(depth, i, False) < best[0]:
                dfs(depth + 1, nxt, cost + added)
            m.add(opt, -1)

    dfs(0, 0, 0)
    return best[0], nodes[0]


def deficiency(hand: Sequence[int], round_number: int, *, pack: Pack = Pack(),
               joker_limit: bool = True) -> int:
    """The deficiency of ``hand`` (53 counts) for round ``round_number``."""
    return deficiency_search(hand, round_number, pack=pack, joker_limit=joker_limit)[0]
