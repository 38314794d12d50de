"""Why a deal is lost, in words, where the proof is short.

The proof of a lost deal is the exact search's tree.  When it is small, the
reason can be read off its first level: every first tile goes on ``1e5``, and
after each one either no reserve tile fits next to it, or the relaxation
(:func:`~solver.pyramid.reference_search.can_finish_relaxed`) shows that the
reserve fills with tiles that fit nothing, or a deeper search is needed.
Everything here replays the reference rules.

>>> from solver.pyramid.deal import deal_from_seed
>>> print(why_lost(deal_from_seed(7), nodes=8))
Of the 7 possible first tiles: ...
"""
from __future__ import annotations

from typing import List, Optional

from solver.pyramid.deal import Deal
from solver.pyramid.geometry import START
from solver.pyramid.reference_search import _Relaxed, can_finish_relaxed, exposed_kinds, fits_any
from solver.pyramid.rules import Move, PyramidGame
from solver.pyramid.tiles import KIND_DRAGON, N_KINDS, TILES

WHY_NODES = 10_000
"""Proofs up to this many positions are put in words; larger ones only by their size."""


def _names(faces: List[int]) -> str:
    tokens = [TILES[f].token for f in faces]
    return tokens[0] if len(tokens) == 1 else ", ".join(tokens[:-1]) + " or " + tokens[-1]


KIND_NAMES = {27: "wind", 28: "season", 29: "dragon"}


def _kind_name(kind: int) -> str:
    return KIND_NAMES.get(kind) or next(t.token for t in TILES if t.kind == kind)


def _stall(state):
    """Where the relaxed play (free placements only) stops: (tiles placed, reserve kinds)."""
    variant = state.game.variant
    partners = {k for k in exposed_kinds(state) if k != KIND_DRAGON}
    accept = {k for k in range(N_KINDS) if fits_any(k, partners, variant)}
    relaxed = _Relaxed(variant, accept, 0, sorted(TILES[f].kind for f in state.reserve if f is not None),
                       [TILES[f].kind for f in state.game.deal.faces[state.stock_next:]])
    relaxed.place_free()
    return 144 - len(relaxed.stock) - len(relaxed.reserve), sorted(relaxed.reserve)


def why_lost(deal: Deal, *, variant: str = "continuous", nodes: int, hub: Optional[str] = None) -> str:
    """A sentence on why ``deal`` is lost: ``hub`` is the hub lemma's reason when
    the lemma proved it (the searches' ``nodes`` then proved nothing), else the
    search's proof took ``nodes`` positions."""
    if hub is not None:
        return f"The hub lemma (docs/pyramid.md): {hub}. The searches before it: {nodes:,} positions, no proof."
    size = f"Proof: {nodes:,} positions searched."
    if nodes > WHY_NODES:
        return f"The proof is too large to put in words. {size}"
    start = PyramidGame(deal, variant).new_initial_state()
    firsts, seen = [], set()
    for face in start.reserve:
        if face is not None and TILES[face].kind not in seen:
            seen.add(TILES[face].kind)
            firsts.append(face)
    stuck, clogged, deeper = [], [], []
    for face in firsts:
        child = start.clone()
        child.apply(Move(face, START))
        if not child.legal_moves():
            stuck.append(face)
        elif not can_finish_relaxed(child):
            clogged.append((face, _stall(child)))
        else:
            deeper.append(face)
    if stuck and not clogged and not deeper:
        return (f"Whichever tile starts on 1e5 ({_names(stuck)}), no other reserve tile fits next to it, "
                f"so no second tile can be placed. {size}")
    parts = []
    if stuck:
        parts.append(f"{_names(stuck)} on 1e5 {'leaves' if len(stuck) == 1 else 'leave'} "
                     f"no reserve tile that fits next to it")
    if clogged:
        face, (placed, left) = max(clogged, key=lambda c: c[1][0])
        parts.append(f"after {_names([f for f, _ in clogged])}, even ignoring where tiles go (but one tile "
                     f"per free side of a dragon), the reserve fills with tiles that fit nothing with room "
                     f"(after {TILES[face].token}, once {placed} tiles are down, it holds "
                     f"{' '.join(_kind_name(k) for k in left)})")
    if deeper:
        parts.append(f"after {_names(deeper)} the search has to look deeper")
    return f"Of the {len(firsts)} possible first tiles: {'; '.join(parts)}. {size}"
