"""Exact odds for every contract: count all dealt hands by their deficiency.

A hand's deficiency depends only on how many copies of each card it holds and
on its jokers, so the count runs over *count vectors* (13 ranks x 4 suits,
0..decks copies each), weighting each by the physical hands it stands for,
``prod C(decks, copies) * C(pack jokers, hand jokers)``.  There are far too
many count vectors to list (1.1e13 for round 7, jokers included), so two
dynamic programmes do the counting.  Both compute the same quantity as the search in
:mod:`solver.continental.deficiency`: the least ``cost(M)`` over multisets
``M`` of cards forming the contract with minimum-size combinations (trios of
3, straights of 4, a joker mask per straight), feasible when no card is used
more often than the pack holds it.  Since ``cost(M) = |M| - matched(M)``,
where ``matched(M)`` counts the hand's cards (jokers included) that ``M``
uses, the deficiency is ``3 trios + 4 straights - max_M matched(M)``.

**Rank DP** (any contract).  Walk the ranks 0..12 and, inside a rank, the
suits s h d c, one cell at a time.  A *key* is a partial contract: the
straights in progress (suit, places so far, jokers so far), the trios placed
and, inside the current rank, how many trio naturals are still to be matched
there; a *state* is a function key -> best ``matched`` so far over the hand's
cells seen so far.  At a cell holding ``h`` copies, ``n`` straight naturals
placed there match ``min(n, h)`` and the rank's trios take what is left,
greedily, which is optimal because a trio's suits are free (the engine's
closed form ``max(excess, sum(S_s - H_s) + T)`` is the same sum).  Two hand
prefixes with the same function have the same future, so the DP keeps one
state per function with the number of physical prefixes as its weight.  It is
exact by construction: every ``M`` the engine considers is a path through the
keys, with the same feasibility tests (copies per card, naturals per rank,
jokers per combination and in the pack), and every path is such an ``M``.

Straights may run through the ace (the ranks are a circle).  A straight that
crosses the cut between K and A is started before rank 0 as a *tail* and
finished, with the same suit and joker budget, at ranks 10..12; the tails make
the states many.  When no card is needed twice (``straights <= decks`` and
``3 trios + straights <= 4 decks``) and every hand has an empty rank (at most
12 naturals), a shift argument removes most of them: a straight crossing the
cut whose places on one side lie in empty ranks can slide to the other side
without raising the cost (a natural in an empty rank is always drawn, and a
natural added elsewhere costs at most one).  So each hand is counted in the
rotation that ends with a longest run of empty ranks: with a run of 3 or more
no straight crosses the cut, with a run of 2 only ``J-Q-K-A`` can, with 1
``J-Q-K-A`` and ``Q-K-A-2``.  A hand with ``m`` longest runs is reached by
``m`` rotations, so it is counted with weight ``13/m``; ``m`` is part of the
state.  With jokers in hand ``jh`` the DP is run once per ``jh`` (naturals
``n - jh``), and under the same condition joker slots beyond ``jh`` never help
(a drawn joker can be a drawn natural), so the pack's jokers are capped at
``jh``; with one joker in hand the run is the no-joker one on the naturals,
the deficiency one lower (:func:`shifted`); in a count to one bound B, more
jokers shift the same way wherever :func:`shift_exact` proves it (the
naturals' count to B + jokers).  Two prunings keep the functions small and
change no maximum: a key using more jokers and matching no more than another
is dropped, and so is a key whose value plus everything still to come cannot
beat a key that is already a complete-able contract; what naturals can still
add excludes the places on cells no hand holds (:func:`_sure_misses`: a
rotation class leaves out its trailing empty run).  When no card is needed
twice a third drops a key that the same key with one combination changed
beats on every completion (:func:`_dominance`: a straight at fewer places or
not started, a trio fewer, and so on).

**A threshold** (round 6).  To count only the hands of deficiency at most
``D`` the rank DP drops, at every pruning, each key whose value plus all it
could still gain (places left, capped by the naturals and jokers still to
come) is at most ``size - D - 1``: every completion of it misses more than
``D`` places.  What survives is exact for the hands within ``D`` (the maximum
over their keys is untouched), and a hand left with no key lies beyond ``D``
and is not counted.  The functions shrink to the few keys that have missed
little so far, so round 6, hours in full, takes seconds to ``D = 0`` and
minutes to ``D = 1``.

**One count to a bound** (:func:`count_at_most`).  The hands of deficiency
at most ``D`` as one number: values capped at ``size - D``, and a prefix with a
key there that the later ranks can surely complete is *decided* (its function
is dropped; only its cards and empty runs are carried).  Cheap at the top of a
distribution, where most prefixes are decided early.  A *window*
(:func:`count_window`) joins the two: decided at ``low``, dropped past
``high``, the prefixes in between counted by their exact deficiency; round 6
counts its top this way (:data:`COUNTED_ABOVE`), and its bottom one bound at a time
(:func:`distribution_to`, :data:`COUNTED_TO`); the one deficiency between is the total
less the others.

**Suit profiles** (contracts without trios).  Straights never share a suit,
so a suit's row (13 counts) contributes a profile ``P(m, j)``: the most
naturals ``m`` straights with ``j`` joker slots can match in that suit.  The
same DP on one suit lists the rows by profile; four suits combine by the
max-plus convolution of profiles (a hand's best contract splits its straights
and jokers between the suits), and the jokers in hand add ``min(j, jh)``.

:func:`distribution` picks the method (:func:`plan`); both DPs run in pure
Python (this module, the specification) or compiled
(``solver.cext.continental_exact``, the same algorithm, the same states).  The
tests compare them with each other and with brute force over every hand of
reduced packs, each hand's deficiency given by the search engine itself.
:func:`unsupported` names the packs the exact count refuses.

>>> from math import comb
>>> one_deck = Pack(decks=1, jokers_per_deck=0)
>>> dist = distribution(1, pack=one_deck, hand_size=4)
>>> dist                        # 4 cards of one deck, two trios (6 places): at least 2 to draw
{2: 5304, 3: 82381, 4: 183040}
>>> sum(dist.values()) == comb(52, 4)
True
>>> distribution(2, pack=one_deck, hand_size=3) == distribution(2, pack=one_deck, hand_size=3, engine="python")
True
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from solver.continental.notation import N_RANKS, N_SUITS, Pack
from solver.continental.rules import STRAIGHT_MIN, TRIO_MIN, get_round
from solver.errors import InputError

ALL_SUITS = (1 << N_SUITS) - 1
FULL = (ALL_SUITS,) * N_RANKS          # every cell of the pack may hold cards
NO_ROTATION, RUN3, RUN2, RUN1 = 0, 1, 2, 3
TAILS = {NO_ROTATION: (1, 2, 3), RUN3: (), RUN2: (3,), RUN1: (2, 3)}
PERMS = tuple(itertools.permutations(range(N_SUITS)))


class Problem(NamedTuple):
    """One DP run: a contract shape, a pack, and which hands are counted.

    ``naturals`` natural cards and ``hand_jokers`` jokers; ``cells[r]`` is the
    bitmask of suits whose cards of rank ``r`` the hands may hold;
    ``straight_suits`` the suits straights may use; ``jokers`` the joker slots
    M may hold in all; ``tails`` the wrap lengths allowed (``L`` places of a
    straight crossing the cut lie at ranks 13-L..12); ``rotation`` one of
    NO_ROTATION, RUN3, RUN2, RUN1; ``profile`` lists rows by suit profile
    instead of hands by deficiency; ``threshold`` (-1: none) counts only the
    hands of deficiency at most ``threshold`` (keys that cannot end within it
    are dropped, and hands left with no key are not counted); ``at_most`` (with
    a threshold) counts them as one number, not by deficiency (values are
    capped at ``target`` and a prefix with a key there is *decided*);
    ``low`` (with ``at_most``; -1: the threshold) makes that number the hands
    of deficiency at most ``low`` and counts those above it, to the threshold,
    one by one (a *window*: see :func:`count_window`).
    """

    trios: int
    straights: int
    naturals: int
    hand_jokers: int
    decks: int
    jokers: int
    joker_limit: bool
    cells: Tuple[int, ...] = FULL
    straight_suits: int = ALL_SUITS
    tails: Tuple[int, ...] = (1, 2, 3)
    rotation: int = NO_ROTATION
    profile: bool = False
    prune: bool = True
    threshold: int = -1
    at_most: bool = False
    low: int = -1

    @property
    def decided_at(self) -> int:
        """With ``at_most``: the deficiency a decided prefix is counted at (``low``, or the threshold)."""
        return self.low if self.low >= 0 else self.threshold

    @property
    def target(self) -> int:
        """With ``at_most``: the matched count a hand of deficiency <= ``decided_at`` reaches."""
        return self.size - self.decided_at if self.at_most else 1 << 30

    @property
    def max_joker_straight(self) -> int:
        return STRAIGHT_MIN // 2 if self.joker_limit else STRAIGHT_MIN - 1

    @property
    def max_joker_trio(self) -> int:
        return TRIO_MIN // 2 if self.joker_limit else TRIO_MIN - 1

    @property
    def size(self) -> int:
        return TRIO_MIN * self.trios + STRAIGHT_MIN * self.straights

    @property
    def cap_binds(self) -> bool:
        """Whether naturals per rank (straights plus trios) can exceed the pack's."""
        return TRIO_MIN * self.trios + self.straights > N_SUITS * self.decks

    @property
    def symmetric(self) -> bool:
        return self.straight_suits == ALL_SUITS and all(c in (0, ALL_SUITS) for c in self.cells)


# ---------------------------------------------------------------------------
# the rank DP, pure Python
#
# key = (opens, obligs, ns, nt, nj, td, cap)
#   opens  : sorted tuple of (suit, places, jokers, wrap) straights in progress;
#            wrap = L > 0 for a tail (its places count the L head places to come)
#   obligs : sorted tuple of (suit, L, jokers): tails done, heads due at 13-L..12
#   ns, nt : straights started, trios placed;  nj: joker slots in M
#   td     : trio naturals of this rank still unmatched;  cap: naturals this rank may still take
# ---------------------------------------------------------------------------

def _joker_gain(p: Problem, nj: int, add: int) -> int:
    return max(0, min(nj + add, p.hand_jokers) - min(nj, p.hand_jokers))


def _initial(p: Problem) -> Dict[tuple, int]:
    tails = [(s, L) for s in range(N_SUITS) if p.straight_suits >> s & 1 for L in p.tails]
    out = {}
    for k in range(p.straights + 1):
        for combo in itertools.combinations_with_replacement(tails, k):
            opens = tuple(sorted((s, L, 0, L) for s, L in combo))
            out[(opens, (), k, 0, 0, 0, 0)] = 0
    return out


def _rank_start(p: Problem, r: int, key: tuple):
    """(key', gain) after converting due heads, starting straights, placing trios."""
    opens, obligs, ns, nt, nj, _, _ = key
    opens = list(opens)
    kept = []
    for s, L, q in obligs:
        if N_RANKS - L == r:
            opens.append((s, STRAIGHT_MIN - L, q, 0))
        else:
            kept.append((s, L, q))
    kept = tuple(kept)
    suits = [s for s in range(N_SUITS) if p.straight_suits >> s & 1]
    most = p.straights - ns if r <= N_RANKS - STRAIGHT_MIN else 0
    for k in range(most + 1):
        for new in itertools.combinations_with_replacement(suits, k):
            o = tuple(sorted(opens + [(s, 0, 0, 0) for s in new]))
            for kt in range(p.trios - nt + 1):
                for ks in itertools.combinations_with_replacement(range(p.max_joker_trio + 1), kt):
                    jk = sum(ks)
                    if nj + jk > p.jokers:
                        continue
                    td = TRIO_MIN * kt - jk
                    cap = N_SUITS * p.decks - td if p.cap_binds else 0
                    if cap < 0:
                        continue
                    yield (o, kept, ns + k, nt + kt, nj + jk, td, cap), _joker_gain(p, nj, jk)


def _cell(p: Problem, s: int, h: int, key: tuple):
    """(key', gain) for the cell of suit ``s`` holding ``h`` copies.

    A straight's jokers are kept in its key only where the joker slots of the
    whole contract could exceed the straight's limit; otherwise keys that
    differ only there have the same future and are one key (written with 0).
    """
    opens, obligs, ns, nt, nj, td, cap = key
    mine = [o for o in opens if o[0] == s]
    rest = [o for o in opens if o[0] != s]
    for jokers in itertools.product((0, 1), repeat=len(mine)):
        n_j = sum(jokers)
        n_n = len(mine) - n_j
        if n_n > p.decks or (p.cap_binds and n_n > cap) or nj + n_j > p.jokers:
            continue
        out, ob, ok = list(rest), list(obligs), True
        for (suit, placed, q, wrap), j in zip(mine, jokers):
            q += j
            if q > p.max_joker_straight:
                ok = False
                break
            if p.jokers <= p.max_joker_straight:
                q = 0                     # the limit cannot bind: keys need not tell
            if placed + 1 == STRAIGHT_MIN:
                if wrap:
                    ob.append((suit, wrap, q))
            else:
                out.append((suit, placed + 1, q, wrap))
        if not ok:
            continue
        matched = min(n_n, h)
        take = min(td, h - matched)
        yield ((tuple(sorted(out)), tuple(sorted(ob)), ns, nt, nj + n_j, td - take,
                cap - n_n if p.cap_binds else 0),
               matched + take + _joker_gain(p, nj, n_j))


def _rank_end(p: Problem, r: int, key: tuple) -> Optional[tuple]:
    opens, obligs, ns, nt, nj, _, _ = key
    if not p.profile and ns < p.straights and r >= N_RANKS - STRAIGHT_MIN:
        return None
    if r == N_RANKS - 1 and (opens or obligs or (not p.profile and nt < p.trios)):
        return None
    return opens, obligs, ns, nt, nj, 0, 0


def _remaining(p: Problem, key: tuple) -> int:
    """Places of the contract this key has not placed yet."""
    opens, obligs, ns, nt, _, _, _ = key
    placed = TRIO_MIN * nt + STRAIGHT_MIN * (ns - len(opens) - len(obligs))
    placed += sum(placed_ - wrap for _, placed_, _, wrap in opens)
    placed += sum(STRAIGHT_MIN - L for _, L, _ in obligs)
    return p.size - placed


def _complete_able(p: Problem, key: tuple, r: int) -> bool:
    """Whether the straights and trios this key still lacks can start after rank ``r``."""
    return ((key[2] == p.straights or r + 1 <= N_RANKS - STRAIGHT_MIN)
            and (key[3] == p.trios or r + 1 <= N_RANKS - 1))


def _whole(key: tuple) -> bool:
    """No straight in progress and no head due."""
    return not key[0] and not key[1]


def _prune(p: Problem, f: Dict[tuple, int], cards: int, r: int) -> Optional[Dict[tuple, int]]:
    """Drop keys that cannot change the final maximum (see the module docstring).

    With ``p.at_most`` the values are capped at ``p.target`` and None says the
    prefix is decided: a key that the later ranks can surely complete has
    reached it (a whole key whose missing combinations can still start; when no
    card is needed twice, also one with straights in progress before the last
    rank: they started by rank 9, so they can end).
    """
    if p.at_most:
        f = {key: min(v, p.target) for key, v in f.items()}
        free = p.straights <= p.decks and not p.cap_binds
        if any(v == p.target and _complete_able(p, key, r) and (_whole(key) or (free and r < N_RANKS - 1))
               for key, v in f.items()):
            return None
    best_by_rest: Dict[tuple, List[Tuple[int, int, tuple]]] = {}
    for key, v in f.items():
        best_by_rest.setdefault(key[:4] + key[5:], []).append((key[4], v, key))
    kept = {}
    for group in best_by_rest.values():
        best = -1
        for nj, v, key in sorted(group):
            if v > best:
                kept[key] = v
                best = v
    if COMBINATION_DOMINANCE and p.straights <= p.decks and not p.cap_binds:
        kept = _dominance(p, kept, r)
    lower = max((v for key, v in kept.items() if not key[0] and not key[1]), default=-1)
    floor = p.size - p.threshold - 1 if p.threshold >= 0 else -1   # ending at or below it is not counted
    left = p.naturals - cards
    out = {}
    for key, v in kept.items():
        complete_able = not key[0] and not key[1]
        rem = _remaining(p, key)
        upper = v + min(rem, min(rem - _sure_misses(p, key, r), left)
                        + max(0, p.hand_jokers - min(key[4], p.hand_jokers)))
        if upper > max(lower, floor) or (complete_able and v == lower and v > floor):
            out[key] = v
    return out


def _dominance(p: Problem, f: Dict[tuple, int], r: int) -> Dict[tuple, int]:
    """The keys of ``f`` (at the end of rank ``r``) no key with one combination changed beats.

    Key Y beats key X on every completion when every completion of X gives one
    of Y ending at least as high.  Here X and Y differ in one combination only,
    and (no card is needed twice) a place can always be filled by a drawn
    natural, which misses it and takes nothing the rest could use; a place
    dropped matched at most one card (a trio that lost a copy to it takes the
    copy back).  So, with ``v`` the values:

    - one straight in progress (not a tail), same suit and jokers: its future
      places are the next ranks, ``r+1 .. r+4-p``; Y at fewer places covers
      them and ``p_X - p_Y`` more, and beats X when ``v_Y >= v_X``; Y at more
      places beats X when ``v_Y >= v_X + p_Y - p_X``;
    - one head due (``L`` places at ``13-L .. 12``), same suit and jokers: Y
      with more heads beats X when ``v_Y >= v_X``, with fewer when ``v_Y >= v_X
      + L_X - L_Y``;
    - that straight or head not started (one straight fewer, its jokers out of
      the slots), when ``r <= 8``: it can start at ``r + 1`` in the same suit
      and cover ``r+1 .. r+4``, or ``9 .. 12``; beats X when ``v_Y >= v_X``;
    - one trio fewer, when ``r <= 11`` (it can be placed at a later rank),
      when ``v_Y >= v_X``; one trio more (at most 3 more places matched) when
      ``v_Y >= v_X + 3``.

    Every drop, and the joker-slot dominance before it, moves to a key with a
    higher value, or the same value and fewer places placed, or the same
    value and places and fewer joker slots: that order is strict, so no two
    keys drop each other and the maximum over the keys of every completion
    stays.  Sound under the rotation classes' condition (straights <= decks,
    naturals per rank never binding).
    """
    out = {}
    for key, v in f.items():
        if not any(f.get(c, -1) >= v + margin for c, margin in _dominators(p, key, r)):
            out[key] = v
    return out


def _dominators(p: Problem, key: tuple, r: int):
    """(key Y, margin) for :func:`_dominance`: Y beats ``key`` when its value is at least key's + margin."""
    opens, obligs, ns, nt, nj, td, cap = key
    for i, (s, placed, q, wrap) in enumerate(opens):
        if wrap:
            continue
        rest = opens[:i] + opens[i + 1:]
        for t in range(1, STRAIGHT_MIN):
            if t != placed:
                yield (tuple(sorted(rest + ((s, t, q, 0),))), obligs, ns, nt, nj, td, cap), max(0, t - placed)
        if r <= N_RANKS - STRAIGHT_MIN - 1:
            yield (rest, obligs, ns - 1, nt, nj - q, td, cap), 0
    for i, (s, L, q) in enumerate(obligs):
        rest = obligs[:i] + obligs[i + 1:]
        for t in range(1, STRAIGHT_MIN):
            if t != L:
                yield (opens, tuple(sorted(rest + ((s, t, q),))), ns, nt, nj, td, cap), max(0, L - t)
        if r <= N_RANKS - STRAIGHT_MIN - 1:
            yield (opens, rest, ns - 1, nt, nj - q, td, cap), 0
    if td == 0 and nt > 0 and r <= N_RANKS - 2:
        yield (opens, obligs, ns, nt - 1, nj, td, cap), 0
    if td == 0 and nt < p.trios:
        yield (opens, obligs, ns, nt + 1, nj, td, cap), TRIO_MIN


def _sure_misses(p: Problem, key: tuple, r: int, mid: bool = False) -> int:
    """Places the key still has to fill after rank ``r`` on cells no hand holds.

    A straight in progress fills the next ranks, its suit's cell at each; a tail
    also its heads at ``13-L..12``, as does a head due.  A straight not started
    yet starts at a later rank (by rank 9) and a trio not placed yet lies at a
    later rank: each takes the fewest such cells it can.  A natural cannot match
    there (only a joker can), so these places bound what naturals can still add.
    ``mid``: inside rank ``r`` (the compiled kernel prunes after each cell),
    where a straight of a suit still to come at ``r`` ends a rank earlier, so
    only the ranks both cases share are counted.
    """
    opens, obligs, ns, nt = key[:4]
    empty = [[not p.cells[x] >> s & 1 for s in range(N_SUITS)] for x in range(N_RANKS)]
    n = 0
    for s, placed, _, wrap in opens:
        n += sum(empty[x][s] for x in range(r + 1, min(N_RANKS, r + 1 + STRAIGHT_MIN - placed - mid)))
        n += sum(empty[x][s] for x in range(N_RANKS - wrap, N_RANKS))
    for s, L, _ in obligs:
        n += sum(empty[x][s] for x in range(N_RANKS - L, N_RANKS))
    starts = [sum(empty[x + i][s] for i in range(STRAIGHT_MIN))
              for x in range(r + 1, N_RANKS - STRAIGHT_MIN + 1) for s in range(N_SUITS) if p.straight_suits >> s & 1]
    n += (p.straights - ns) * min(starts, default=0)
    trios = [TRIO_MIN * all(empty[x]) for x in range(r + 1, N_RANKS)]
    n += (p.trios - nt) * min(trios, default=0)
    return n


def _canonical(f: Dict[tuple, int]) -> tuple:
    best = None
    for perm in PERMS:
        items = []
        for (opens, obligs, *rest), v in f.items():
            o = tuple(sorted((perm[s],) + tuple(x) for s, *x in opens))
            b = tuple(sorted((perm[s],) + tuple(x) for s, *x in obligs))
            items.append(((o, b, *rest), v))
        items = tuple(sorted(items))
        if best is None or items < best:
            best = items
    return best


def _runs(p: Problem, extra: tuple, empty: bool, r: int) -> Optional[tuple]:
    """Track empty-rank runs for the rotation classes; None drops the hand.

    ``extra = (trailing empty run, runs counted)``: RUN3 counts inner runs of 3+,
    RUN2 inner runs of exactly 2 (none longer), RUN1 inner empty ranks (all alone).
    """
    if p.rotation == NO_ROTATION:
        return extra
    run, count = extra
    if r == 0 and empty:
        return None                   # the cut run is maximal: rank 0 holds a card
    longest = {RUN3: 99, RUN2: 2, RUN1: 1}[p.rotation]
    if empty:
        run += 1
        if run > longest:
            return None
        return (min(run, 3), count)
    counted = {RUN3: run >= 3, RUN2: run == 2, RUN1: run == 1}[p.rotation]
    return (0, count + counted)


def _run_weight(p: Problem, extra: tuple) -> int:
    """The divisor m of the rotation class (0: the hand is not in this class)."""
    if p.rotation == NO_ROTATION:
        return 1
    run, count = extra
    ok = {RUN3: run >= 3, RUN2: run == 2, RUN1: run == 1}[p.rotation]
    return count + 1 if ok else 0


def rank_dp_python(p: Problem, progress: Optional[Callable[[], None]] = None) -> Dict:
    """The rank DP in pure Python.

    Returns ``{(deficiency, m): hands}`` (``m`` the rotation divisor, 1 without
    rotation; with ``p.at_most`` the entry at ``p.decided_at`` holds all the
    hands at most there) or, with ``p.profile``, ``{(cards, profile): rows}``.
    """
    states: Dict[tuple, int] = {(0, (0, 0), False, _freeze(_initial(p))): 1}
    for r in range(N_RANKS):
        nxt: Dict[tuple, int] = {}
        for (cards, extra, col, f), w in states.items():
            if f is None:                 # decided (at_most): only the cards still matter
                _add(nxt, (cards, extra, col, None), w)
                continue
            g: Dict[tuple, int] = {}
            for key, v in f:
                for key2, gain in _rank_start(p, r, key):
                    if g.get(key2, -1) < v + gain:
                        g[key2] = v + gain
            _add(nxt, (cards, extra, col, _freeze(g)), w)
        states = nxt
        for s in range(N_SUITS):
            nxt = {}
            for (cards, extra, col, f), w in states.items():
                top = min(p.decks, p.naturals - cards) if p.cells[r] >> s & 1 else 0
                for h in range(top + 1):
                    if f is None:
                        _add(nxt, (cards + h, extra, col or h > 0, None), w * comb(p.decks, h))
                        continue
                    g = {}
                    for key, v in f:
                        for key2, gain in _cell(p, s, h, key):
                            if g.get(key2, -1) < v + gain:
                                g[key2] = v + gain
                    if g:
                        _add(nxt, (cards + h, extra, col or h > 0, _freeze(g)), w * comb(p.decks, h))
            states = nxt
        nxt = {}
        for (cards, extra, col, f), w in states.items():
            extra2 = _runs(p, extra, not col, r)
            if extra2 is None:
                continue
            if f is None:
                _add(nxt, (cards, extra2, False, None), w)
                continue
            g = {}
            for key, v in f:
                key2 = _rank_end(p, r, key)
                if key2 is not None and g.get(key2, -1) < v:
                    g[key2] = v
            if not g:
                continue
            if p.prune and not p.profile:
                g = _prune(p, g, cards, r)
                if g is None:             # decided: deficiency at most the threshold
                    _add(nxt, (cards, extra2, False, None), w)
                    continue
                if not g:
                    continue              # no key can end within the threshold
            frozen = _canonical(g) if p.symmetric and not p.profile else _freeze(g)
            _add(nxt, (cards, extra2, False, frozen), w)
        states = nxt
        if progress:
            progress()
    out: Dict = {}
    for (cards, extra, _, f), w in states.items():
        if p.profile:
            prof = [[-1] * (p.jokers + 1) for _ in range(p.straights + 1)]
            for (_, _, ns, _, nj, _, _), v in f:
                prof[ns][nj] = max(prof[ns][nj], v)
            _add(out, (cards, tuple(map(tuple, prof))), w)
        elif cards == p.naturals:
            m = _run_weight(p, extra)
            if not m:
                continue
            if p.at_most and (f is None or max(v for _, v in f) >= p.target):
                _add(out, (p.decided_at, m), w)
            else:
                _add(out, (p.size - max(v for _, v in f), m), w)
    return out


def _freeze(g: Dict[tuple, int]) -> tuple:
    return tuple(sorted(g.items()))


def _add(d: dict, key, w: int) -> None:
    d[key] = d.get(key, 0) + w


# ---------------------------------------------------------------------------
# suit profiles: straights only
# ---------------------------------------------------------------------------

def combine_suits(suits: Sequence[Dict[Tuple[int, tuple], int]], *, straights: int,
                  jokers: int) -> Dict[tuple, List[int]]:
    """{profile of the suits together: weights by cards} from each suit's rows.

    A profile is a ``(straights+1) x (jokers+1)`` table of the most naturals
    matched (-1: impossible); suits combine by max-plus convolution, their
    card counts by ordinary convolution.
    """
    acc: Dict[tuple, List[int]] = {}
    for k, rows in enumerate(suits):
        by_prof: Dict[tuple, List[int]] = {}
        for (cards, prof), w in rows.items():
            arr = by_prof.setdefault(prof, [])
            arr.extend([0] * (cards + 1 - len(arr)))
            arr[cards] += w
        if k == 0:
            acc = by_prof
            continue
        nxt: Dict[tuple, List[int]] = {}
        for pa, wa in acc.items():
            for pb, wb in by_prof.items():
                arr = nxt.setdefault(_max_plus(pa, pb, straights, jokers), [])
                arr.extend([0] * (len(wa) + len(wb) - 1 - len(arr)))
                for i, x in enumerate(wa):
                    if x:
                        for j, y in enumerate(wb):
                            arr[i + j] += x * y
        acc = nxt
    return acc


def _max_plus(a: tuple, b: tuple, straights: int, jokers: int) -> tuple:
    out = [[-1] * (jokers + 1) for _ in range(straights + 1)]
    for m1 in range(straights + 1):
        for j1 in range(jokers + 1):
            x = a[m1][j1]
            if x < 0:
                continue
            for m2 in range(straights + 1 - m1):
                for j2 in range(jokers + 1 - j1):
                    y = b[m2][j2]
                    if y >= 0 and x + y > out[m1 + m2][j1 + j2]:
                        out[m1 + m2][j1 + j2] = x + y
    return tuple(map(tuple, out))


def profile_deficiency(prof: tuple, *, straights: int, hand_jokers: int) -> int:
    """Deficiency of a hand whose suits combine to ``prof`` and who holds ``hand_jokers``."""
    best = max(v + min(j, hand_jokers) for j, v in enumerate(prof[straights]) if v >= 0)
    return STRAIGHT_MIN * straights - best


# ---------------------------------------------------------------------------
# orchestration
# ---------------------------------------------------------------------------

HEAVY = {5: "2 trios + 1 straight", 6: "1 trio + 2 straights"}
"""Rounds whose rank DP is only known to finish at 2 decks with at most 2 jokers a deck."""

COUNTED_TO = {6: 4}
"""Rounds whose bottom is counted one bound at a time (:func:`distribution_to`, one
:func:`count_at_most` pass per bound, cheaper than the threshold run there): round 6 to 4
(docs/continental.md, "Round 6, eighth attempt").  ``odds --max-deficiency`` chooses
another bound."""


COUNTED_ABOVE = {6: 5}
"""Rounds whose default count also takes, from the top, every hand of deficiency above this
one by one (one :func:`count_window` pass: cheap there, docs/continental.md).  Round 6 above
5 (6, 7 and 8 one by one), one more than :data:`COUNTED_TO`, so the one deficiency between
(5) is the total less all the others: the whole distribution, exact, by default."""


def unsupported(round_number: int, pack: Pack = Pack(), joker_limit: bool = True) -> Optional[str]:
    """Why the exact count of this round and pack is refused (None: it is done).

    Measured on the shared 2-core machine (docs/continental.md): rounds 1-4 and
    7 finish for every pack the CLI accepts (the slowest, round 7 with 8 decks
    of 8 jokers, in 5-6 minutes on the loaded machine); rounds 5 and 6 are run only where they
    were timed, 2 decks with at most 2 jokers each and the joker limit on.
    """
    rnd = get_round(round_number)
    if rnd.number in HEAVY and (pack.decks != 2 or pack.jokers_per_deck > 2 or not joker_limit):
        return (f"exact odds of round {rnd.number} ({rnd.contract}) are computed only for 2 decks with "
                f"at most 2 jokers each and the joker limit on (other packs are not known to finish); "
                f"use --method monte-carlo")
    return None


def exact_by_default(round_number: int, pack: Pack = Pack(), joker_limit: bool = True) -> bool:
    """Whether ``odds --method auto`` counts this round exactly (the pack is supported)."""
    return unsupported(round_number, pack, joker_limit) is None


COMBINATION_DOMINANCE = True
"""Drop keys beaten by the same key with one combination changed (:func:`_dominance`)."""

ONE_JOKER_SHIFT = True
"""Count the hands holding one joker with the no-joker DP on their naturals (see :func:`plan`)."""

JOKER_SHIFT = True
"""Count the hands holding two or more jokers the same way where :func:`shift_exact` allows it."""


def shift_exact(trios: int, straights: int, joker_limit: bool, jh: int, bound: int,
                naturals: int = 0) -> bool:
    """Whether a hand holding ``jh`` jokers has deficiency <= ``bound`` exactly when its
    naturals alone have deficiency <= ``bound + jh`` (given that no card is needed twice).

    Why.  Let ``d`` be the naturals' deficiency and ``d_j`` the hand's.  Each joker a
    contract uses stands for one card, and that card can replace it (no card is needed
    twice, so the pack has it), missing at most one place more: ``d <= d_j + jh``.  So
    ``d > bound + jh`` implies ``d_j > bound``.  Conversely a best natural contract M
    misses ``d`` places, ``a_i`` in its combination ``i``; the hand's jokers can fill
    ``min(jh, sum_i min(limit_i, a_i))`` of them (a combination takes jokers up to its
    limit), so ``d_j <= d - min(jh, fill)``.  If every miss pattern with
    ``bound < sum a_i <= bound + jh`` fills at least ``sum a_i - bound`` places, then
    ``d <= bound + jh`` implies ``d_j <= bound``.  This checks that over every pattern
    (each combination missing 0 to all of its places) a best M can have: when the hand
    holds a natural M leaves unused (``naturals > size - m``), no combination of M is
    missed whole, or moving it onto that natural (a trio to its rank, a straight through
    it) would match one more.  One joker always passes (any miss takes it).  In round 6
    (12 cards) two or three jokers pass from bound 1, four from bound 2; without the
    hand's naturals (``naturals`` 0) two or three pass from bound 2 (a trio missing all its
    places takes only one joker under the limit), four from bound 4.

    >>> shift_exact(1, 2, True, 1, 0), shift_exact(1, 2, True, 2, 1), shift_exact(1, 2, True, 2, 2)
    (True, False, True)
    >>> shift_exact(1, 2, True, 2, 1, naturals=10), shift_exact(1, 2, True, 2, 0, naturals=10)
    (True, False)
    """
    size = TRIO_MIN * trios + STRAIGHT_MIN * straights
    sizes = [(TRIO_MIN, TRIO_MIN // 2 if joker_limit else TRIO_MIN - 1)] * trios
    sizes += [(STRAIGHT_MIN, STRAIGHT_MIN // 2 if joker_limit else STRAIGHT_MIN - 1)] * straights
    for misses in itertools.product(*(range(places + 1) for places, _ in sizes)):
        m = sum(misses)
        if naturals > size - m and any(a == whole for (whole, _), a in zip(sizes, misses)):
            continue                  # not a best contract: a combination missed whole moves
        if bound < m <= bound + jh:
            fill = sum(min(limit, a) for (_, limit), a in zip(sizes, misses))
            if min(jh, fill) < m - bound:
                return False
    return True


class Plan(NamedTuple):
    """How :func:`distribution` counts a round: the method and its DP runs.

    ``jobs`` holds ``(hand jokers, problem)`` for the rank DP (one run per
    number of jokers in hand, times the rotation classes; a problem holding
    fewer jokers than the hand has the difference as fills of missed places,
    see :func:`shifted`) and ``(suit,
    problem)`` for the suit profiles (one run per suit whose cells differ from
    an earlier suit's; equal suits share the run).
    """

    method: str                 # "rank-dp" or "suit-profiles"
    rotation: bool              # rank DP with the empty-run rotation (the shift argument holds)
    jobs: Tuple[Tuple[int, Problem], ...]


def _free(rnd, pack: Pack) -> bool:
    """No card is ever needed more often than the pack holds it (straights per suit, naturals per rank)."""
    return rnd.straights <= pack.decks and TRIO_MIN * rnd.trios + rnd.straights <= N_SUITS * pack.decks


def _reported(size: int, threshold: Optional[int], at_most: bool, low: Optional[int]) -> range:
    """The bounds B for which a run's result gives the number of hands of deficiency <= B."""
    if threshold is None:
        return range(0, size + 1)
    if not at_most:
        return range(0, threshold + 1)
    return range(threshold if low is None or low < 0 else low, threshold + 1)


def plan(round_number: int, *, pack: Pack = Pack(), joker_limit: bool = True,
         hand_size: Optional[int] = None, cells: Sequence[int] = FULL,
         threshold: Optional[int] = None, at_most: bool = False, low: Optional[int] = None) -> Plan:
    """The DP runs that count a round (see :class:`Plan`).

    ``threshold`` and ``at_most`` as in :class:`Problem`; ``low`` (with ``at_most``)
    the window's low bound, set in the problems.  A job whose jokers can be shifted
    (:func:`shifted`) for every bound its result is read at runs without them.
    """
    rnd = get_round(round_number)
    n = rnd.cards if hand_size is None else hand_size
    cells = tuple(cells)
    if rnd.trios == 0:
        slots = min(pack.jokers, rnd.straights * Problem(0, 1, 0, 0, 1, 0, joker_limit).max_joker_straight)
        jobs, seen = [], {}
        for s in range(N_SUITS):
            one = tuple(c >> s & 1 for c in cells)
            if one not in seen:
                seen[one] = s
                jobs.append((s, Problem(0, rnd.straights, n, 0, pack.decks, slots, joker_limit, one,
                                        straight_suits=1, profile=True)))
        return Plan("suit-profiles", False, tuple(jobs))
    free = _free(rnd, pack)
    rotation = (free and rnd.straights > 0 and n <= N_RANKS - 1
                and all(c == cells[0] for c in cells))
    jobs = []
    at_most = at_most and threshold is not None
    size = TRIO_MIN * rnd.trios + STRAIGHT_MIN * rnd.straights
    bounds = _reported(size, threshold, at_most, low)
    for jh in range(0, min(n, pack.jokers) + 1):
        shift = free and jh > 0 and (ONE_JOKER_SHIFT if jh == 1 else JOKER_SHIFT) and all(
            shift_exact(rnd.trios, rnd.straights, joker_limit, jh, b, n - jh) for b in bounds)
        k = jh if shift else 0
        base = Problem(rnd.trios, rnd.straights, n - jh, jh - k, pack.decks,
                       0 if shift else (min(pack.jokers, jh) if free else pack.jokers), joker_limit, cells,
                       threshold=-1 if threshold is None else threshold + k, at_most=at_most,
                       low=low + k if at_most and low is not None and low >= 0 else -1)
        if rotation and jh < n:     # a hand of jokers only has no run ending at a card: no rotation
            jobs.extend((jh, base._replace(rotation=c, tails=TAILS[c], cells=_trailing_run_empty(cells, c)))
                        for c in (RUN3, RUN2, RUN1))
        else:
            jobs.append((jh, base))
    return Plan("rank-dp", rotation, tuple(jobs))


def _trailing_run_empty(cells: Tuple[int, ...], rotation: int) -> Tuple[int, ...]:
    """The cells of a rotation class: the ranks of its trailing empty run hold nothing.

    A class counts only the hands whose ranks end with an empty run of 3+
    (RUN3), exactly 2 (RUN2) or 1 (RUN1); the others were dropped at the end,
    so leaving those cells out counts the same hands, and the pruning then sees
    the places there as sure misses (:func:`_sure_misses`).
    """
    run = {RUN3: 3, RUN2: 2, RUN1: 1}[rotation]
    return tuple(0 if r >= N_RANKS - run else c for r, c in enumerate(cells))


def shifted(jh: int, prob: Problem) -> int:
    """Jokers of the hand the job's problem leaves out (0, or all ``jh``: the joker shift).

    With one joker in hand and no card ever needed more often than the pack
    holds it, the deficiency is ``max(0, d - 1)`` where ``d`` is that of the
    hand's naturals alone: the joker fills any one missed place (every
    combination takes one joker under either rule), and a contract using the
    joker misses one place fewer than the same contract with the card it
    stands for.  So that job runs the cheaper no-joker DP (no joker slots in
    its keys) with the threshold one higher.  With more jokers the deficiency
    is not always ``d - jh`` (a trio missing all its places takes one joker),
    but the count to a bound B is the naturals' count to ``B + jh`` wherever
    :func:`shift_exact` says so: :func:`plan` shifts a job only when that holds
    for every bound its result is read at (the window from ``low`` to the
    threshold, or the one bound of :func:`count_at_most`).
    """
    return jh - prob.hand_jokers


def _dp_runner(engine: str, jobs: int, progress: Optional[Callable[[int, int], None]]):
    """The rank DP of ``engine`` as ``run(prob)``, calling ``progress(done, total)``
    after each rank of each of the ``jobs`` runs."""
    dp = rank_dp_python if engine == "python" else _compiled_rank_dp
    total_steps = N_RANKS * jobs
    done = [0]

    def tick() -> None:
        done[0] += 1
        if progress is not None:
            progress(done[0], total_steps)

    return lambda prob: dp(prob, tick)


def distribution(round_number: int, *, pack: Pack = Pack(), joker_limit: bool = True,
                 engine: str = "compiled", hand_size: Optional[int] = None,
                 cells: Sequence[int] = FULL, threshold: Optional[int] = None,
                 progress: Optional[Callable[[int, int], None]] = None) -> Dict[int, int]:
    """{deficiency: number of physical hands} over every hand of a round.

    ``hand_size`` (default: the round's deal) and ``cells`` (a bitmask of suits
    per rank that hands may hold; the pack stays whole for the exchanges)
    shrink the problem for the tests.  With ``threshold`` D only the hands of
    deficiency at most D are counted, exactly (the rest number C(pack, k)
    minus their sum); the rank DP then drops every key that cannot end within
    D, which makes round 6 feasible (the suit profiles are cheap anyway: they
    count everything and the result is cut).  ``progress(done, total)`` is
    called after each rank of each DP run.  Deficiencies no hand has are left out.
    """
    rnd = get_round(round_number)
    if engine not in ("compiled", "python"):
        raise InputError(f"engine must be 'compiled' or 'python', not {engine!r}")
    n = rnd.cards if hand_size is None else hand_size
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 13:
        raise InputError(f"hand size must be 1 to 13, not {n!r}")
    cells = tuple(cells)
    if len(cells) != N_RANKS or any(not 0 <= c <= ALL_SUITS for c in cells):
        raise InputError("cells must be 13 suit bitmasks (0-15)")
    if threshold is not None and (isinstance(threshold, bool) or not isinstance(threshold, int)
                                  or threshold < 0):
        raise InputError(f"threshold must be a non-negative integer, not {threshold!r}")
    pl = plan(round_number, pack=pack, joker_limit=joker_limit, hand_size=n, cells=cells,
              threshold=threshold)
    dp = _dp_runner(engine, len(pl.jobs), progress)
    total: Dict[int, Fraction] = {}
    if pl.method == "suit-profiles":
        rows = {s: dp(prob) for s, prob in pl.jobs}
        by_suit = []
        for s in range(N_SUITS):
            one = tuple(c >> s & 1 for c in cells)
            by_suit.append(next(rows[t] for t, prob in pl.jobs if prob.cells == one))
        slots = pl.jobs[0][1].jokers
        combined = combine_suits(by_suit, straights=rnd.straights, jokers=slots)
        for jh in range(0, min(n, pack.jokers) + 1):
            ways = comb(pack.jokers, jh)
            for prof, arr in combined.items():
                if n - jh < len(arr) and arr[n - jh]:
                    d = profile_deficiency(prof, straights=rnd.straights, hand_jokers=jh)
                    total[d] = total.get(d, 0) + ways * arr[n - jh]
    else:
        for jh, prob in pl.jobs:
            ways = comb(pack.jokers, jh)
            k = shifted(jh, prob)
            for (d, m), w in dp(prob).items():
                scale = Fraction(N_RANKS, m) if prob.rotation else 1
                d = max(0, d - k)
                total[d] = total.get(d, 0) + ways * w * scale
    out = {}
    for d in sorted(total):
        if threshold is not None and d > threshold:
            continue
        value = Fraction(total[d])
        if value.denominator != 1:
            raise AssertionError(f"non-integral count {value} for deficiency {d}")
        if value:
            out[d] = int(value)
    return out


def count_at_most(round_number: int, threshold: int, *, pack: Pack = Pack(), joker_limit: bool = True,
                  engine: str = "compiled", hand_size: Optional[int] = None,
                  cells: Sequence[int] = FULL,
                  progress: Optional[Callable[[int, int], None]] = None) -> int:
    """The number of hands of deficiency at most ``threshold`` (one rank-DP pass, ``at_most``).

    Like ``distribution(threshold=D)`` summed, but a prefix is *decided* (kept
    as its card count alone) as soon as one of its keys has matched
    ``size - D`` and can still be completed, and values are capped there, so
    the functions only tell apart prefixes still short of the target.
    """
    rnd = get_round(round_number)
    n = rnd.cards if hand_size is None else hand_size
    if rnd.trios == 0:
        return sum(v for d, v in distribution(round_number, pack=pack, joker_limit=joker_limit,
                                              engine=engine, hand_size=n, cells=cells,
                                              threshold=threshold, progress=progress).items())
    pl = plan(round_number, pack=pack, joker_limit=joker_limit, hand_size=n, cells=tuple(cells),
              threshold=threshold, at_most=True)
    dp = _dp_runner(engine, len(pl.jobs), progress)
    total = Fraction(0)
    for jh, prob in pl.jobs:
        ways = comb(pack.jokers, jh)
        for (_, m), w in dp(prob).items():
            total += ways * w * (Fraction(N_RANKS, m) if prob.rotation else 1)
    if total.denominator != 1:
        raise AssertionError(f"non-integral count {total}")
    return int(total)


def distribution_to(round_number: int, upto: int, *, pack: Pack = Pack(), joker_limit: bool = True,
                    engine: str = "compiled", hand_size: Optional[int] = None, cells: Sequence[int] = FULL,
                    progress: Optional[Callable[[int, int], None]] = None) -> Dict[int, int]:
    """``distribution(threshold=upto)`` as the differences of :func:`count_at_most` to 0, 1, ... ``upto``.

    One pass per bound, but each pass shifts every job :func:`shift_exact` allows at
    its one bound, where the threshold run reads all of 0..upto and so shifts only
    the hands of one joker.  Round 6 to 1: the jobs of 2-4 jokers at bound 0 (cheap)
    and only those of 4 at bound 1 keep their joker slots (docs/continental.md).
    """
    if get_round(round_number).trios == 0:
        return distribution(round_number, pack=pack, joker_limit=joker_limit, engine=engine,
                            hand_size=hand_size, cells=cells, threshold=upto, progress=progress)
    out, below = {}, 0
    steps = N_RANKS * len(plan(round_number, pack=pack, joker_limit=joker_limit, hand_size=hand_size,
                               cells=tuple(cells), threshold=0, at_most=True).jobs)
    for bound in range(upto + 1):
        def tick(done: int, total: int, bound: int = bound) -> None:
            progress(bound * steps + done, (upto + 1) * steps)    # the passes as one bar

        upto_here = count_at_most(round_number, bound, pack=pack, joker_limit=joker_limit, engine=engine,
                                  hand_size=hand_size, cells=cells, progress=tick if progress else None)
        if upto_here > below:
            out[bound] = upto_here - below
        below = upto_here
    return out


def count_window(round_number: int, low: int, high: int, *, pack: Pack = Pack(), joker_limit: bool = True,
                 engine: str = "compiled", hand_size: Optional[int] = None,
                 cells: Sequence[int] = FULL, jobs: Optional[Sequence[int]] = None,
                 progress: Optional[Callable[[int, int], None]] = None) -> Tuple[Fraction, Dict[int, Fraction]]:
    """(hands of deficiency <= ``low``, {d: hands} for ``low < d <= high``) in one rank-DP pass.

    ``count_at_most`` and the threshold in one run (a *window*): keys that
    cannot end within ``high`` are dropped, values are capped at the target of
    ``low`` and a prefix reaching it is decided; the other prefixes end
    counted by their exact deficiency.  ``count_window(R, D, D)`` is
    ``count_at_most(R, D)`` and ``low = -1`` is ``distribution(threshold=high)``.
    ``jobs`` (indices into ``plan(...).jobs``; default all) counts only the
    hands of those DP jobs, so a caller can pick a window per job; the
    counts are then Fractions (a rotation class alone may weigh a hand
    ``13/m``), whole once every job is summed.
    """
    rnd = get_round(round_number)
    n = rnd.cards if hand_size is None else hand_size
    if rnd.trios == 0 or not -1 <= low <= high:
        raise InputError("a window needs a contract with trios and -1 <= low <= high")
    pl = plan(round_number, pack=pack, joker_limit=joker_limit, hand_size=n, cells=tuple(cells),
              threshold=high, at_most=low >= 0, low=low)
    chosen = range(len(pl.jobs)) if jobs is None else jobs
    dp = _dp_runner(engine, len(chosen), progress)
    upto, by_d = Fraction(0), {}
    for i in chosen:
        jh, prob = pl.jobs[i]
        k = shifted(jh, prob)
        ways = comb(pack.jokers, jh)
        for (d, m), w in dp(prob).items():
            x = ways * w * (Fraction(N_RANKS, m) if prob.rotation else 1)
            d = max(0, d - k)
            if d <= low:
                upto += x
            elif d <= high:
                by_d[d] = by_d.get(d, 0) + x
    return upto, dict(sorted(by_d.items()))


def _compiled_rank_dp(p: Problem, progress=None) -> Dict:
    from solver.cext import continental_exact as _kernel
    return _kernel.rank_dp(p, progress)
