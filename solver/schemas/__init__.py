"""JSON Schema files of every command's ``--json`` output (documented in docs/json.md).

:data:`COMMANDS` maps each command path to the schema its output follows; the
tests run every command with ``--json`` and validate the output against it.

>>> sorted(load("answer")["properties"]["verdict"]["enum"])
['draw', 'lost', 'unknown', 'won']
"""
import json
from importlib import resources

COMMANDS = {
    "batch": "batch",
    "stats": "stats",
    "GAME batch": "batch",
    "GAME play": "playout",          # --games N: "playouts"
    "GAME show": "show",
    "pyramid": "answer",
    "pyramid verify": "verify",
    "pyramid hint": "hint",
    "pyramid recheck": "recheck",
    "spectrum": "answer",
    "spectrum reach": "answer",
    "boundary solve": "answer",
    "boundary replay": "verify",
    "boundary analyse": "analyse",
    "boundary bestmove": "bestmove",
    "continental hand": "answer",
    "continental odds": "odds",
    "continuum puzzle": "answer",
}
"""Command path (GAME: every game) -> schema name."""


def load(name: str) -> dict:
    """The schema ``name`` (a file ``<name>.json`` beside this module)."""
    return json.loads(resources.files(__name__).joinpath(f"{name}.json").read_text(encoding="utf-8"))
