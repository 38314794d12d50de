"""What every seed of a batch is asked, and the work of one chunk of seeds.

This is the worker's side of the batch runner: a :class:`Spec` is picklable
and sent with each chunk to a local process or a Dask worker, which answers
through the registry (:func:`solver.games.run_analysis`) and sends back
compact bytes.  The runner (:mod:`solver.batch`) and the Dask executor
(:mod:`solver.distributed`) both import this module; neither imports the other's.
"""
from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from typing import Any, Dict, List, Sequence, Tuple

from solver.store import Row

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
        from solver.game import Limits
        from solver.games import get_analysis, make_game
        from solver.options import check_values
        spec = get_analysis(self.game, self.analysis)
        if spec.rows is None:
            return [row_values(seed, self.answer(seed)) for seed in seeds]
        variant = None if self.variant == "default" else self.variant
        values = check_values(_listed(dict(self.options)), spec.options)
        game = make_game(self.game, variant=variant, players=values.get("players"))
        limits = Limits(**dict(self.limits)).or_defaults(**spec.default_limits.to_dict())
        return spec.rows(list(seeds), game=game, limits=limits, **values)


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


def decode_chunk(spec: Spec, blob) -> List[Row]:
    """The rows of a chunk: the bytes of :func:`run_chunk`, or its row values as they are."""
    values = json.loads(zlib.decompress(blob)) if isinstance(blob, bytes) else blob
    return [Row(spec.game, spec.variant, spec.key, *r) for r in values]
