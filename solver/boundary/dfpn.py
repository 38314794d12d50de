"""The pure-Python twin of the compiled df-pn (``cext/boundary_dfpn.pxi``).

Depth-first proof-number search (Nagai 2002) with Pawlewicz and Lew's 1 + epsilon
thresholds, for the question "does the attacker win within r plies?": at an OR node
the attacker is to move, at an AND node the defender.  The same leaf rules as the
kernel: a completed exchange, a side without a move, the exchange bound ruling the
attacker out within r (the alpha-beta search's caveat: a win by leaving the defender
without a move is not bounded), and optionally the reference alpha-beta
(:mod:`solver.boundary.reference_search`) for questions of at most ``leaf`` plies.

No repetition test is needed: "win within r" is a function of (position, r) alone.  A
win within r in the game without the repetition rule is won by moving to a child
whose shortest forced win is one ply shorter, so no position ever recurs on its
lines and the third-occurrence draw never applies; and the repetition rule can only
turn a line into a draw, never into a win.  Each node has r one less than its parent,
so the search graph is acyclic and the table's entries are path-independent.

Small and slow: the differential tests run it on near-terminal positions.

>>> from solver.boundary.notation import parse_position
>>> solve_dfpn(parse_position("Bl+Bm+Bs4Rl+Rm/5Rs/2gr2/2rg2/6/Yl+Ym+Ys4Gl+Gm+Gs r"), max_depth=3)
{'result': 'win', 'plies': 1, 'depth': 1}
"""
from __future__ import annotations

from typing import Dict, Optional, Tuple

from solver.boundary.bound import exchange_bound
from solver.boundary.reference_search import MATE, _Horizon, negamax
from solver.boundary.rules import Position

INF = 0x3FFFFFFF
BIG = INF - 1


def _grow(second: int, eps: float) -> int:
    """The 1 + epsilon threshold, never less than the second best + 1 (as the kernel)."""
    if second >= BIG:
        return BIG
    return min(BIG, max(second + 1, int(second * (1.0 + eps) + 1.0)))


class DfPn:
    """One table for a sequence of questions on the same game (as ``ProofNumberSearch``)."""

    def __init__(self, leaf: int = 0, eps: float = 0.25) -> None:
        self.leaf = leaf
        self.eps = eps
        self.table: Dict[Tuple[int, bool], Tuple[int, int, int]] = {}   # -> (r, pn, dn)
        self.nodes = 0

    def _lookup(self, pos: Position, r: int, is_or: bool) -> Optional[Tuple[int, int]]:
        e = self.table.get((pos.key(), is_or))
        if e is None:
            return None
        er, pn, dn = e
        if pn == 0 and er <= r:
            return 0, INF
        if dn == 0 and er >= r:
            return INF, 0
        if er == r and pn and dn:
            return pn, dn
        return None

    def _store(self, pos: Position, r: int, is_or: bool, pn: int, dn: int) -> None:
        key = (pos.key(), is_or)
        old = self.table.get(key)
        if old is not None:
            er, opn, odn = old
            if (opn == 0 and er <= r) or (odn == 0 and er >= r):
                return          # the stronger result stays
        self.table[key] = (r, pn, dn)

    def leaf_numbers(self, pos: Position, r: int, is_or: bool) -> Tuple[int, int]:
        """A node's numbers when it is met for the first time (the kernel's ``_pn_leaf``)."""
        if pos.winner() is not None:
            # the previous mover completed: the attacker exactly at an AND node
            return (INF, 0) if is_or else (0, INF)
        att = pos.side if is_or else 1 - pos.side
        lb = exchange_bound(pos, att)
        if r == 0 or 2 * lb - (1 if is_or else 0) > r:
            if r == 0 and not is_or and not pos.legal_moves():
                return 0, INF
            return INF, 0
        d = min(r, self.leaf)
        if d >= 1:
            if is_or:
                v = negamax(pos, d, 0, MATE - d - 1, MATE - d, [], _Horizon(), True)
                if v >= MATE - d:
                    return 0, INF
            else:
                v = negamax(pos, d, 0, -(MATE - d), -(MATE - d) + 1, [], _Horizon(), True)
                if v <= -(MATE - d):
                    return 0, INF
            if d == r:
                return INF, 0
        return max(lb, 1), 1

    def mid(self, pos: Position, r: int, is_or: bool, thpn: int, thdn: int) -> Tuple[int, int]:
        """Search ``pos`` until its pn reaches ``thpn`` or its dn ``thdn``, or it is solved."""
        self.nodes += 1
        moves = pos.legal_moves()
        if not moves:
            pn, dn = (INF, 0) if is_or else (0, INF)
            self._store(pos, r, is_or, pn, dn)
            return pn, dn
        children, numbers = [], []
        for m in moves:
            child = pos.play(m)
            got = self._lookup(child, r - 1, not is_or)
            if got is None:
                got = self.leaf_numbers(child, r - 1, not is_or)
                if got[0] == 0 or got[1] == 0:
                    self._store(child, r - 1, not is_or, *got)
            children.append(child)
            numbers.append(list(got))
            if (is_or and got[0] == 0) or (not is_or and got[1] == 0):
                break
        while True:
            if is_or:
                best = min(range(len(numbers)), key=lambda i: numbers[i][0])
                pn = numbers[best][0]
                dn = min(BIG, sum(n[1] for n in numbers)) if all(n[1] < INF for n in numbers) else INF
            else:
                best = min(range(len(numbers)), key=lambda i: numbers[i][1])
                dn = numbers[best][1]
                pn = min(BIG, sum(n[0] for n in numbers)) if all(n[0] < INF for n in numbers) else INF
            if pn == 0 or dn == 0 or pn >= thpn or dn >= thdn:
                break
            side = 0 if is_or else 1
            second = min((n[side] for i, n in enumerate(numbers) if i != best), default=INF)
            if is_or:
                cpn = min(thpn, _grow(second, self.eps))
                cdn = min(BIG, thdn - dn + numbers[best][1])
            else:
                cdn = min(thdn, _grow(second, self.eps))
                cpn = min(BIG, thpn - pn + numbers[best][0])
            numbers[best] = list(self.mid(children[best], r - 1, not is_or, cpn, cdn))
        self._store(pos, r, is_or, pn, dn)
        return pn, dn

    def prove(self, pos: Position, r: int, attacker_to_move: bool) -> Optional[bool]:
        """True: the attacker wins within r; False: not within r; None: not settled."""
        got = self._lookup(pos, r, attacker_to_move)
        if got is None or (got[0] and got[1]):
            got = self.leaf_numbers(pos, r, attacker_to_move)
            if got[0] and got[1]:
                got = self.mid(pos, r, attacker_to_move, BIG, BIG)
        if got[0] and got[1]:
            return None
        return got[0] == 0


def solve_dfpn(pos: Position, *, max_depth: int, leaf: int = 0, eps: float = 0.25) -> dict:
    """Depth d asks "does the side to move win within d?" (odd d) or "lose within d?"
    (even d), as the kernel's ``_solve_dfpn``: win/loss in the first d proven, else
    unknown (df-pn never claims a draw)."""
    if pos.winner() is not None or not pos.legal_moves():
        return {"result": "loss", "plies": 0, "depth": 0}
    search = DfPn(leaf, eps)
    for depth in range(1, max_depth + 1):
        if search.prove(pos, depth, depth % 2 == 1):
            return {"result": "win" if depth % 2 else "loss", "plies": depth, "depth": depth}
    return {"result": "unknown", "plies": None, "depth": max_depth}
