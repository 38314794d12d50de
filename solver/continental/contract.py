"""Continental's adapter to the one contract (solver.game), registered in solver.games.

* The game: :class:`~solver.continental.game.Continental` (2-4 seats, the pack
  and the joker limit as parameters); the state, all seven rounds:
  :class:`~solver.continental.game.ContinentalState`.  Moves are ``take``,
  ``pass``, ``claim`` or the card to discard (``Qh``, ``X``).
* Policies: ``greedy`` (:mod:`solver.continental.policies`) and the shared
  ``random`` (uniform over the legal moves); play-outs go through
  :func:`solver.playout.play_out` (the registry's ``playout`` analysis).
* Analyses, both exact and per seed: ``deal`` (does the hand of deal ``seed``
  meet round ``round``'s contract: the deficiency search alone, for batches)
  and ``hand`` (the same hand, fully: the fewest-points arrangement, or the
  deficiency and the cards that lower it; :func:`solver.continental.search.analyse_hand`).

>>> r = run_deal(42, game=None, limits=Limits(), round=7)
>>> r.verdict, r.fields["deficiency"], " ".join(r.fields["hand"])
('lost', 5, 'Qh 7h 8c Ks 6c 3s 7s Js Th 6h Qc 4h 5d')
>>> hard_instance(Limits(node_limit=1000)).to_dict()["limit"]
'nodes'
"""
from __future__ import annotations

import time

from solver.cext import continental as _fast
from solver.continental.game import Continental, ContinentalState
from solver.continental.notation import N_KINDS, Pack, format_card, hand_from_cards
from solver.continental.policies import GreedyPolicy
from solver.continental.round import CLAIM, MAX_TURNS, PASS, TAKE
from solver.continental.rules import get_round, is_straight, is_trio
from solver.continental.search import DEFAULT_LIMITS, analyse_hand, limited_deficiency
from solver.errors import InputError
from solver.game import Analysis, GameEntry, Limits, Result
from solver.options import Option

DEAL_OPTIONS = (
    Option("round", int, 7, "The round (1-7) whose contract the dealt hand is held against.", low=1, high=7),
    Option("decks", int, 2, "52-card decks in the pack.", low=1, high=8),
    Option("jokers_per_deck", int, 2, "Jokers in each deck.", low=0, high=8),
    Option("joker_limit", bool, True, "At most as many jokers as natural cards in a combination."),
)

HARD_SEED = 1874
"""A round-7 deal whose deficiency search needs 75,995 nodes (the most of deals 0-1999)."""


def _dealt(seed: int, round: int, decks: int, jokers_per_deck: int):
    pack = Pack(decks=decks, jokers_per_deck=jokers_per_deck)
    rnd = get_round(round)
    return pack, rnd, hand_from_cards(_fast.deal_hand(seed, rnd.cards, pack.decks, pack.jokers_per_deck))


def run_deal(seed: int, *, game, limits: Limits, round: int = 7, decks: int = 2, jokers_per_deck: int = 2,
             joker_limit: bool = True) -> Result:
    """Does the hand of deal ``seed`` (the first cards of the shuffled pack, as
    ``odds`` deals them) meet round ``round``'s contract?  ``won`` if it does,
    ``lost`` if not (exhaustive), ``unknown`` when the node or time limit
    stopped the deficiency search.  Fields: ``round``, ``hand``, ``deficiency``
    (None when unknown).  The search keeps no table (``table_mb`` bounds nothing)."""
    start = time.perf_counter()
    pack, rnd, hand = _dealt(seed, round, decks, jokers_per_deck)
    d, nodes, stopped = limited_deficiency(hand, rnd.number, pack=pack, joker_limit=joker_limit,
                                           node_limit=limits.node_limit, time_limit=limits.time_limit)
    verdict = "unknown" if d is None else ("won" if d == 0 else "lost")
    cards = [format_card(c) for c in _fast.deal_hand(seed, rnd.cards, pack.decks, pack.jokers_per_deck)]
    return Result(verdict, limit=stopped, nodes=nodes, seconds=time.perf_counter() - start,
                  fields={"round": rnd.number, "hand": cards, "deficiency": d})


def run_hand(seed: int, *, game, limits: Limits, round: int = 7, decks: int = 2, jokers_per_deck: int = 2,
             joker_limit: bool = True) -> Result:
    """The full hand analysis (:func:`~solver.continental.search.analyse_hand`) of
    the hand of deal ``seed`` for round ``round``."""
    pack, rnd, hand = _dealt(seed, round, decks, jokers_per_deck)
    return analyse_hand(hand, rnd.number, pack=pack, joker_limit=joker_limit, limits=limits)


def make_game(*, variant=None, players=2) -> Continental:
    if variant is not None:
        raise InputError("continental has no variants")
    return Continental(players=players)


def hard_instance(limits: Limits) -> Result:
    """The ``deal`` analysis of :data:`HARD_SEED`, round 7, under ``limits``."""
    return run_deal(HARD_SEED, game=None, limits=limits, round=7)


def reference_check(state: ContinentalState) -> None:
    """Assert the state agrees with the rules at this position.

    The contract state is the reference rules engine and the kernel has no move
    generator, so the legal moves are checked against a brute-force filter of
    every candidate (take, pass, claim, each of the 53 cards) through ``apply``
    on clones, in the canonical order; and the table against the rules: every
    card accounted for, every combination on the table valid, every total the
    sum of its round scores."""
    legal = state.legal_moves()
    candidates = [TAKE, PASS, CLAIM] + list(range(N_KINDS))
    accepted = []
    for move in candidates:
        twin = state.clone()
        try:
            twin.apply(move)
        except InputError:
            continue
        accepted.append(move)
    assert sorted(map(str, legal)) == sorted(map(str, accepted)), (legal, accepted)
    words = [m for m in legal if isinstance(m, str)]
    cards = [m for m in legal if not isinstance(m, str)]
    assert legal == words + cards and cards == sorted(cards) and words in ([], [TAKE, PASS], [CLAIM, PASS])
    st, game = state.round, state.game
    held = sum(sum(p.hand) for p in st.players) + len(st.stock) + len(st.discard)
    held += sum(len(m.cards) for m in st.melds)
    assert held == game.pack.size - (1 if st.closer is not None else 0), held
    assert all(min(p.hand) >= 0 for p in st.players)
    for m in st.melds:
        check = is_trio if m.kind == "trio" else is_straight
        assert check(m.cards, joker_limit=game.joker_limit), m
    assert state.totals == [sum(s[i] for s in state.round_scores) for i in range(game.players)]


ENTRY = GameEntry(
    name="continental",
    title="Continental",
    make_game=make_game,
    players=(2, 4),
    policies={"greedy": GreedyPolicy},
    default_policies=("greedy", "random"),
    max_moves=7 * MAX_TURNS * 5,   # a turn is at most take/pass, three claims and a discard
    analyses=(
        Analysis("deal", "exact", run_deal,
                 "Does the hand of deal SEED meet the round's contract (won) or not (lost)? "
                 "Fields: round, hand, deficiency.",
                 options=DEAL_OPTIONS, default_limits=Limits()),
        Analysis("hand", "exact", run_hand,
                 "The hand of deal SEED in full: the fewest-points arrangement (won), or the "
                 "deficiency and the cards that lower it (lost).",
                 options=DEAL_OPTIONS, default_limits=DEFAULT_LIMITS),
    ),
)
