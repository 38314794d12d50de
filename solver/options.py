"""Declared, typed options of an analysis: what ``--option KEY=VALUE`` may say.

Each analysis in :mod:`solver.games` lists its options; a value given as text
is parsed against the declared type and range, and anything else is bad input
(exit 2), never passed through.

>>> MAX = Option("max_plies", int, 1000, "Plies before a game is unfinished.", low=1)
>>> MAX.parse("30")
30
>>> MAX.parse("-5")
Traceback (most recent call last):
...
solver.errors.InputError: option max_plies must be at least 1, not -5
>>> MAX.parse("abc")
Traceback (most recent call last):
...
solver.errors.InputError: option max_plies must be a whole number, not 'abc'
>>> Option("method", str, "auto", "", choices=("auto", "exact")).parse("exact")
'exact'
>>> parse_pairs(["max_plies=30"], [MAX])
{'max_plies': 30}
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Optional, Sequence, Tuple

from solver.errors import InputError

TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


@dataclass(frozen=True)
class Option:
    """One option: name, type (int, float, bool, str or list of str), default, help."""

    name: str
    type: type
    default: Any
    help: str
    low: Optional[float] = None
    high: Optional[float] = None
    choices: Optional[Tuple[str, ...]] = None

    def parse(self, value: Any) -> Any:
        """``value`` (text from the command line, or a Python value) checked and typed."""
        text = value if isinstance(value, str) else None
        try:
            if self.type is bool:
                if isinstance(value, bool):
                    out = value
                elif text is not None and text.strip().lower() in TRUE + FALSE:
                    out = text.strip().lower() in TRUE
                else:
                    raise ValueError
            elif self.type is int:
                if isinstance(value, bool):
                    raise ValueError
                out = int(text.strip(), 10) if text is not None else value
                if not isinstance(out, int):
                    raise ValueError
            elif self.type is float:
                if isinstance(value, bool):
                    raise ValueError
                out = float(text) if text is not None else float(value)
                if not math.isfinite(out):
                    raise ValueError
            elif self.type is list:
                items = text.split(",") if text is not None else list(value)
                out = [str(x).strip() for x in items]
                if not out or any(not x for x in out):
                    raise ValueError
            else:
                if text is None:
                    raise ValueError
                out = text.strip()
        except (ValueError, TypeError, AttributeError):
            kind = {int: "a whole number", float: "a finite number", bool: "true or false",
                    list: "a comma-separated list"}.get(self.type, "text")
            raise InputError(f"option {self.name} must be {kind}, not {str(value)[:40]!r}") from None
        if self.low is not None and out < self.low:
            raise InputError(f"option {self.name} must be at least {self.low:g}, not {out}")
        if self.high is not None and out > self.high:
            raise InputError(f"option {self.name} must be at most {self.high:g}, not {out}")
        values = out if isinstance(out, list) else [out]
        if self.choices is not None:
            for v in values:
                if v not in self.choices:
                    raise InputError(f"option {self.name}: {str(v)[:40]!r} is not one of "
                                     f"{', '.join(self.choices)}")
        return out


def parse_pairs(pairs: Iterable[str], declared: Sequence[Option]) -> Dict[str, Any]:
    """``KEY=VALUE`` texts checked against the declared options."""
    by_name = {o.name: o for o in declared}
    out: Dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise InputError(f"malformed --option {pair[:40]!r} (expected KEY=VALUE)")
        if key not in by_name:
            known = ", ".join(by_name) or "none"
            raise InputError(f"no option {key[:40]!r} here (known: {known})")
        out[key] = by_name[key].parse(value)
    return out


def check_values(values: Dict[str, Any], declared: Sequence[Option]) -> Dict[str, Any]:
    """Python-side options (from the API) checked the same way, defaults filled in."""
    by_name = {o.name: o for o in declared}
    for key in values:
        if key not in by_name:
            raise InputError(f"no option {key!r} here (known: {', '.join(by_name) or 'none'})")
    return {o.name: (o.parse(values[o.name]) if o.name in values else o.default) for o in declared}


def key_suffix(values: Dict[str, Any], declared: Sequence[Option]) -> str:
    """The options that differ from their defaults, as ``k=v`` words in declared
    order: they are part of a stored result's key (see docs/batch.md)."""
    words = []
    for o in declared:
        v = values.get(o.name, o.default)
        if v != o.default:
            text = ",".join(v) if isinstance(v, list) else (str(v).lower() if isinstance(v, bool) else str(v))
            words.append(f"{o.name}={text}")
    return " ".join(words)
