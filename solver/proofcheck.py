"""An independent check of an unsatisfiability proof (DRAT): the reference.

A SAT solver that answers UNSAT can write down why: the clauses it learned, in
order (lemmas), and the clauses it dropped (deletions).  This module replays
such a proof against the formula, sharing no code with the solver, and says
``checked`` only when every step holds:

- a lemma ``C`` is *RUP* (reverse unit propagation) when unit propagation on
  the clauses held plus the negation of every literal of ``C`` reaches a
  conflict: then ``C`` follows from the clauses held.  Else it is *RAT* on its
  first literal ``p`` when for every held clause ``D`` containing ``-p`` the
  resolvent ``C | D - {-p}`` is RUP (or a tautology): then adding ``C`` keeps the
  clauses satisfiable if they were.  A lemma that is neither fails the proof.
- a deletion drops one copy of the clause (literals as a set).  Dropping a
  clause can only make the set weaker, so it never makes the check unsound;
  the checker ignores three kinds (and counts them): a clause it does not
  hold, a clause that under the top-level assignment has one true literal and
  every other false (a reason of that assignment: keeping it keeps the
  assignment a consequence of the clauses held, as drat-trim also does), and
  every deletion once unit propagation alone conflicts.
- the proof is ``checked`` when a step adds the empty clause and it is RUP:
  every step kept "the formula is satisfiable => the clauses held are", and
  the clauses held are not, so neither is the formula.

The state is the clauses held (a multiset) and the *top-level assignment*, the
closure of unit propagation over them (it only grows: its reasons are never
dropped, and a top-level conflict is the empty clause).  Both are independent
of the order in which the work is done, so the compiled twin
(``solver.cext.proofcheck``, two watched literals) must agree with this one
step by step, which the differential tests check.

Steps are ``("a", lits)`` (a lemma) or ``("d", lits)``; :func:`binary_steps`
reads the binary DRAT that CaDiCaL writes.

>>> check([[1, 2], [-1, 2], [1, -2], [-1, -2]], [("a", [1]), ("a", [])]).checked
True
>>> check([[1, 2], [-1, 2], [1, -2]], [("a", [])]).reason
'step 0: a lemma neither RUP nor RAT'
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

Step = Tuple[str, Sequence[int]]


@dataclass
class ProofCheck:
    """What a check found: ``checked`` (the empty clause was derived, every
    step valid) or not, with ``reason``; the counts of the steps seen."""

    checked: bool = False
    reason: str = ""
    lemmas: int = 0          # lemmas checked (RUP or RAT)
    rat: int = 0             # of which RAT, not RUP
    first_rat: Optional[Tuple[int, List[int]]] = None   # the first RAT lemma: (step, literals)
    deletions: int = 0       # deletions honoured
    ignored: int = 0         # deletions ignored (a clause not held, a reason, after a conflict)
    failed_step: int = -1    # the step that is neither RUP nor RAT (-1: none)
    cpu_seconds: float = 0.0
    memory_bytes: int = 0    # the compiled checker's arrays at the end

    def counts(self) -> tuple:
        """The figures two checkers of the same proof must agree on."""
        return self.checked, self.failed_step, self.lemmas, self.rat, self.first_rat, self.deletions, self.ignored


def normal(lits: Iterable[int]) -> Optional[Tuple[int, ...]]:
    """The clause as a sorted set of literals, None for a tautology."""
    s = set(lits)
    if any(-l in s for l in s):
        return None
    return tuple(sorted(s, key=lambda l: (abs(l), l)))


class Reference:
    """The clauses held, their occurrence lists, the top-level assignment."""

    def __init__(self, formula: Iterable[Sequence[int]]):
        self.held: Counter = Counter()           # normal clause -> copies
        self.occurs: Dict[int, set] = defaultdict(set)   # literal -> normal clauses holding it
        self.true: set = set()                   # the top-level assignment (true literals)
        self.conflict = False                    # unit propagation on the clauses held fails
        for clause in formula:
            self.add(clause)

    def add(self, lits: Sequence[int]) -> None:
        c = normal(lits)
        if c is None:
            return
        self.held[c] += 1
        for l in c:
            self.occurs[l].add(c)
        if not self.conflict:
            self.conflict = self._propagate(self.true, c)

    def delete(self, lits: Sequence[int]) -> bool:
        """Drop one copy; False (ignored) when not held or a reason."""
        c = normal(lits)
        if self.conflict or c is None or not self.held[c]:
            return False
        if sum(l in self.true for l in c) == 1 and all(l in self.true or -l in self.true for l in c):
            return False
        self.held[c] -= 1
        if not self.held[c]:
            del self.held[c]
            for l in c:
                self.occurs[l].discard(c)
        return True

    def _propagate(self, true: set, *start) -> bool:
        """Unit propagation into ``true`` from the clauses ``start`` and every
        clause holding a literal falsified on the way: True on a conflict."""
        todo = list(start)
        while todo:
            c = todo.pop()
            if any(l in true for l in c):
                continue
            free = [l for l in c if -l not in true]
            if not free:
                return True
            if len(free) == 1:
                true.add(free[0])
                todo.extend(self.occurs[-free[0]])
        return False

    def rup(self, lits: Sequence[int]) -> bool:
        """Does unit propagation on the clauses held and the negation of ``lits`` conflict?"""
        if self.conflict:
            return True
        true = set(self.true)
        units = []
        for l in set(lits):
            if l in true:
                return True
            if -l not in true:
                true.add(-l)
                units.extend(self.occurs[l])
        return self._propagate(true, *units)

    def rat(self, lits: Sequence[int]) -> bool:
        """Is every resolvent on the first literal RUP (or a tautology)?"""
        p = lits[0]
        for d in list(self.occurs[-p]):
            r = normal(list(lits) + [l for l in d if l != -p])
            if r is not None and not self.rup(r):
                return False
        return True


def check(formula: Iterable[Sequence[int]], steps: Iterable, *, compiled: bool = False) -> ProofCheck:
    """Replay ``steps`` against ``formula`` (lists of DIMACS literals); the
    proof is ``checked`` at the first RUP (or RAT) empty clause.  A step is
    ``("a", lits)``, ``("d", lits)`` or bytes of binary DRAT (whole steps for
    the reference; any split for the compiled twin, ``compiled=True``)."""
    import time

    c0 = time.process_time()
    out = (_compiled if compiled else _reference)(formula, steps)
    out.cpu_seconds = time.process_time() - c0
    if not out.checked and not out.reason:
        out.reason = "the proof ends without the empty clause"
    return out


def _reference(formula, steps) -> ProofCheck:
    out = ProofCheck()
    try:
        _replay(Reference(formula), steps, out)
    except ValueError as e:            # a malformed binary proof
        out.reason = str(e)
    return out


def _replay(db: Reference, steps, out: ProofCheck) -> None:
    n = 0
    for kind, lits in _expanded(steps):
        n += 1
        if kind == "d":
            if db.delete(lits):
                out.deletions += 1
            else:
                out.ignored += 1
            continue
        if db.rup(lits):
            pass
        elif lits and db.rat(lits):
            out.rat += 1
            out.first_rat = out.first_rat or (n - 1, list(lits))
        else:
            out.reason, out.failed_step = f"step {n - 1}: a lemma neither RUP nor RAT", n - 1
            break
        out.lemmas += 1
        if not lits:
            out.checked = True
            break
        db.add(lits)


def _expanded(steps) -> Iterator[Step]:
    for item in steps:
        if isinstance(item, (bytes, bytearray, memoryview)):
            yield from binary_steps(bytes(item))
        else:
            yield item


def _compiled(formula, steps) -> ProofCheck:
    from solver.cext.proofcheck import Checker

    ch = Checker()
    ch.formula(formula)
    malformed = ""
    try:
        for item in steps:
            if isinstance(item, (bytes, bytearray, memoryview)):
                ch.feed(bytes(item))
            else:
                ch.step(*item)
            if ch.checked or ch.failed_step >= 0:
                break
    except ValueError as e:            # a malformed binary proof
        malformed = str(e)
    checked, failed, lemmas, rat, deletions, ignored, inside = ch.state()
    out = ProofCheck(checked, malformed, lemmas, rat, ch.first_rat, deletions, ignored, failed,
                     memory_bytes=ch.memory())
    if malformed:
        pass
    elif failed >= 0:
        out.reason = f"step {failed}: a lemma neither RUP nor RAT"
    elif inside and not checked:
        out.reason = "the proof ends inside a step"
    return out


def binary_steps(data: bytes) -> Iterator[Step]:
    """The steps of a binary DRAT proof: ``a`` or ``d``, then each literal as
    ``2 * var + sign`` in 7-bit groups (high bit: more follow), then a zero byte."""
    i, n = 0, len(data)
    while i < n:
        kind = chr(data[i])
        if kind not in "ad":
            raise ValueError(f"byte {i}: a step starts with 'a' or 'd', not {data[i]!r}")
        i += 1
        lits = []
        while True:
            if i >= n:
                raise ValueError("the proof ends inside a step")
            value, shift = 0, 0
            while True:
                b = data[i]
                i += 1
                value |= (b & 0x7F) << shift
                shift += 7
                if not b & 0x80:
                    break
            if value == 0:
                break
            lits.append(-(value >> 1) if value & 1 else value >> 1)
        yield kind, lits


def binary(steps: Iterable[Step]) -> bytes:
    """The binary DRAT of ``steps`` (the inverse of :func:`binary_steps`)."""
    out = bytearray()
    for kind, lits in steps:
        out += kind.encode()
        for l in lits:
            v = 2 * abs(l) + (l < 0)
            while v >= 0x80:
                out.append(v & 0x7F | 0x80)
                v >>= 7
            out.append(v)
        out.append(0)
    return bytes(out)
