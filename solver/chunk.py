"""What every seed of a batch is asked, and the work of one chunk of seeds.

This is the worker's side of the batch runner: a :class:`Spec` is picklable
and sent with each chunk to a local process or a Dask worker, which answers
through the registry (:func:`solver.games.run_analysis`) and sends back
compact bytes.  The runner (:mod:`solver.batch`) and the Dask executor
(:mod:`solver.distributed`) both import this module; neither imports the other's.
"""
from __future__ import annotations

import functools
import json
import zlib
from dataclasses import dataclass
from typing import Any, Dict, List, Sequence, Tuple

CORE_KEYS = ("seed", "game", "variant", "analysis", "verdict", "nodes", "seconds", "limit", "line")


@dataclass(frozen=True)
class Spec:
    """A batch's question: game, analysis, variant, the analysis's checked
    options and the limits.  ``key`` is the analysis as stored: its name and
    every option that differs from its default (limits are not part of it)."""

    game: str
    analysis: str
    variant: str
    key: str
    options: Tuple[Tuple[str, Any], ...] = ()
    limits: Tuple[Tuple[str, Any], ...] = ()

    def answer(self, seed: int) -> Dict[str, Any]:
        from solver.game import Limits
        from solver.games import run_analysis
        variant = None if self.variant == "default" else self.variant
        res = run_analysis(self.game, self.analysis, seed, variant=variant,
                           limits=Limits(**dict(self.limits)), options=_listed(dict(self.options)))
        return res.to_dict()

    def rows(self, seeds: Sequence[int]) -> List[list]:
        """The stored columns of each seed: through the analysis's own ``rows``
        when it has one (one call for the chunk), else one answer per seed."""
        prepared = _prepared(self)
        if prepared is None:
            return [row_values(seed, self.answer(seed)) for seed in seeds]
        rows, game, limits, values = prepared
        return rows(list(seeds), game=game, limits=limits, **values)


@functools.lru_cache(maxsize=8)
def _prepared(spec: Spec):
    """An analysis's chunk ``rows`` with its game, complete limits and checked
    options, made once per process and question, not once per chunk (a chunk of
    64 Pyramid deals takes 6-7 ms; this set-up took about 0.3 ms of it); None
    when the analysis has no ``rows``."""
    from solver.game import Limits
    from solver.games import get_analysis, make_game
    from solver.options import check_values
    analysis = get_analysis(spec.game, spec.analysis)
    if analysis.rows is None:
        return None
    variant = None if spec.variant == "default" else spec.variant
    values = check_values(_listed(dict(spec.options)), analysis.options)
    game = make_game(spec.game, variant=variant, players=values.get("players"))
    limits = Limits(**dict(spec.limits)).or_defaults(**analysis.default_limits.to_dict())
    return analysis.rows, game, limits, values


def _listed(options: Dict[str, Any]) -> Dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()}


def row_values(seed: int, answer: Dict[str, Any]) -> list:
    """One answer as the stored columns: a play-out's ``verdict`` column holds
    its outcome (``finished`` or ``unfinished``); its winner, scores and length
    go in the fields with the game's own keys (the move line is not stored)."""
    verdict = answer["verdict"] if answer.get("verdict") is not None else answer.get("outcome", "unknown")
    extra = {k: v for k, v in answer.items() if k not in CORE_KEYS}
    return [seed, str(verdict), answer.get("limit"), int(answer.get("nodes") or 0),
            float(answer.get("seconds") or 0.0), json.dumps(extra, separators=(",", ":"), sort_keys=True)]


def run_chunk(spec: Spec, seeds: Sequence[int]) -> bytes:
    """Answer ``seeds``; return zlib'd JSON rows (see :func:`decode_chunk`)."""
    out = spec.rows(seeds)
    return zlib.compress(json.dumps(out, separators=(",", ":")).encode(), 1)


def decode_chunk(blob) -> List[list]:
    """The row values (seed, verdict, limit, nodes, seconds, fields) of a chunk:
    the bytes of :func:`run_chunk` unpacked, or the values as they are (no
    per-row objects: the store binds them with the spec's key columns)."""
    return json.loads(zlib.decompress(blob)) if isinstance(blob, bytes) else blob
