"""The SAT stage's ``unsat`` answers, checked (docs/pyramid.md, "The unsat answers, checked").

:func:`solver.pyramid.sat.reach_cubes` with ``proof=ProofTrace.of_encoding`` has CaDiCaL write
its binary DRAT proof (every clause learned and dropped, for all the cubes on
the one incremental solver) and keeps a :class:`ProofTrace`: the proof, the
clauses of the question, and for each cube answered UNSAT the byte of the
proof where that answer ended.  :meth:`ProofTrace.check` then hands
:func:`solver.proofcheck.check` (which shares no code with the solver) these
steps, every one checked:

1. the *hints*: for each tile of the first reserve that is not the earliest of
   its kind, "it is not on ``1e5``" (RUP from the clauses alone: the earliest
   tile would have to be placed by step 0 too, and only ``1e5`` is filled then);
2. the proof up to each cube's answer, then the cube's negation (the cube's
   assumptions cannot all hold), RUP there and then: CaDiCaL refuted the cube
   by propagation on the clauses it held at that moment, and may drop some of
   them later, so the negation is checked where it was derived;
3. the negation of every shorter prefix of a split cube, longest first (RUP
   from its two halves), and the empty clause: the cubes cover the question.

``checked`` therefore means the clauses of the question have no model, by
steps the checker verified, whatever the solver did; the clauses are the
rules (the encoding's soundness is argued in :mod:`solver.pyramid.sat`).
The marks use the proof file PySAT keeps (``prfile``, flushed by
``pysolvers.flushpr`` as its ``get_proof`` does); the file is held open by a
duplicate descriptor after the solver is gone, and read in pieces.
"""
from __future__ import annotations

import os
from typing import Iterator, List, Optional, Sequence, Tuple

from solver.proofcheck import ProofCheck, check
from solver.pyramid.deal import RESERVE_SLOTS, Deal
from solver.pyramid.geometry import START

CHUNK = 1 << 23
"""Bytes of the proof read at a time for the compiled checker."""


class ProofTrace:
    """The proof of one :func:`~solver.pyramid.sat.reach_cubes` run, the
    clauses it answers about, and the cubes answered UNSAT with where."""

    def __init__(self, solver, formula: List[List[int]], hints: Sequence[Sequence[int]] = ()) -> None:
        """``solver``: PySAT's, made ``with_proof``; ``formula``: its clauses;
        ``hints``: lemmas checked first (:func:`first_tile_hints`)."""
        self.formula = formula
        self.hints = [list(h) for h in hints]
        self.marks: List[Tuple[List[int], int]] = []
        self.fd: Optional[int] = None
        self.size = 0
        self.covered = False          # the last check needed step 3 (CaDiCaL's proof had no empty clause)
        self._solver = solver.solver          # PySAT's Cadical195: prfile, prfp

    @classmethod
    def of_encoding(cls, solver, enc) -> "ProofTrace":
        """The trace of :func:`~solver.pyramid.sat.reach_cubes`' solver (its
        ``proof`` maker): the encoding's clauses and its first tiles' hints."""
        return cls(solver, enc.clauses, first_tile_hints(enc))

    def _flushed(self) -> int:
        from pysat.solvers import pysolvers

        pysolvers.flushpr(self._solver.prfp)
        return os.fstat(self._solver.prfile.fileno()).st_size

    def mark(self, cube: Sequence[int]) -> None:
        """The cube was just answered UNSAT."""
        self.marks.append((list(cube), self._flushed()))

    def keep(self) -> "ProofTrace":
        """Hold the proof file past the solver (called before it is deleted)."""
        self.size = self._flushed()
        self.fd = os.dup(self._solver.prfile.fileno())
        self._solver = None
        return self

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __del__(self):
        self.close()

    def _bytes(self, start: int, end: int, chunk: int) -> Iterator[bytes]:
        while start < end:
            data = os.pread(self.fd, min(chunk, end - start), start)
            if not data:
                raise OSError("the proof file is shorter than its marks")
            start += len(data)
            yield data

    def steps(self, *, chunk: int = CHUNK) -> Iterator:
        """The steps to check, in order (the module's docstring)."""
        for hint in self.hints:
            yield ("a", hint)
        at = 0
        for cube, end in self.marks:
            yield from self._bytes(at, end, chunk)
            at = end
            yield ("a", [-l for l in cube])
        yield from self._bytes(at, self.size, chunk)
        self.covered = True
        for prefix in cover_lemmas([cube for cube, _ in self.marks]):
            yield ("a", prefix)
        yield ("a", [])

    def check(self, *, compiled: bool = True) -> ProofCheck:
        """Check the proof (the reference reads each stretch whole: small proofs only);
        :attr:`covered` then says whether the cover was reached."""
        self.covered = False
        return check(self.formula, self.steps(chunk=CHUNK if compiled else 1 << 62), compiled=compiled)


def first_tile_hints(enc) -> List[List[int]]:
    """"Tile ``i`` is not on ``1e5``" for each tile of the first reserve but
    the earliest of its kind: with the cubes' "the earliest tile of kind ``k``
    is not on ``1e5``" they leave ``1e5`` no tile (:func:`reach_cubes`'s split)."""
    n = min(RESERVE_SLOTS, len(enc.kinds))
    return [[-enc.x[i, START]] for i in range(n) if enc.by_kind[enc.kinds[i]][0] != i]


def cover_lemmas(cubes: Sequence[Sequence[int]]) -> List[List[int]]:
    """The negation of every proper prefix of the cubes, longest first: each
    follows by one resolution from its two extensions (a cube split on a
    literal is asked with it and with its negation)."""
    prefixes = {tuple(c[:m]) for c in cubes for m in range(1, len(c))}
    return [[-l for l in p] for p in sorted(prefixes, key=lambda p: (-len(p), p))]


def check_lost(deal: Deal, k: int, *, variant: str, compiled: bool = True):
    """Ask again "can ``k`` moves be played?" with the proof kept, and check it:
    ``(reach, check)``; ``check.checked`` only when the answer is ``unsat`` and
    its proof holds (a ``sat`` or ``unknown`` answer is "not checked").  The
    cubes are asked with the moves in lexicographic order (``lex``): the one
    CaDiCaL configuration measured to decide Wild Dragons 559633 (no line of 23;
    714-778 s), and the one whose proofs of 559633 and 764002 were checked
    (docs/pyramid.md, "The proofs of 764002 and 559633"); the stage itself may
    have used other clauses or Kissat: the question is the same."""
    from solver.pyramid.sat import reach_cubes

    r = reach_cubes(deal, k, variant=variant, proof=ProofTrace.of_encoding, lex=True)
    if r.status != "unsat":
        return r, ProofCheck(reason=f"CaDiCaL answered {r.status}")
    try:
        return r, r.proof.check(compiled=compiled)
    finally:
        r.proof.close()
