"""The explicit registry of games, their analyses and their policies.

Nothing is discovered by module name: a game is here because it is listed
below.  Each game's adapter to the contract of :mod:`solver.game` lives in
``solver/<game>/contract.py`` and exports ``ENTRY``; the shared ``random``
policy and the shared ``playout`` analysis are added here, once for all games.

>>> names()
['pyramid', 'spectrum', 'boundary', 'continental', 'continuum']
>>> sorted(a.name for a in analyses("boundary"))
['playout']
>>> get_game("chess")
Traceback (most recent call last):
...
solver.errors.InputError: unknown game 'chess' (known: pyramid, spectrum, boundary, continental, continuum)
"""
from __future__ import annotations

import importlib
from typing import Dict, List, Optional, Sequence

from solver.errors import InputError
from solver.game import Analysis, Game, GameEntry, Policy, RandomPolicy

_CONTRACTS = {
    "pyramid": "solver.pyramid.contract",
    "spectrum": "solver.spectrum.contract",
    "boundary": "solver.boundary.contract",
    "continental": "solver.continental.contract",
    "continuum": "solver.continuum.contract",
}
"""The five games, in the order ``solve --help`` lists them, and the module of
each one's ``ENTRY``: a game is imported when it is first asked for (a batch
of one game does not import the other four)."""

_ENTRIES: Dict[str, GameEntry] = {}


def names() -> List[str]:
    return list(_CONTRACTS)


def get_game(name: str) -> GameEntry:
    """The registry entry of ``name``, or InputError naming the games there are."""
    if name not in _CONTRACTS:
        raise InputError(f"unknown game {str(name)[:40]!r} (known: {', '.join(_CONTRACTS)})")
    if name not in _ENTRIES:
        entry = importlib.import_module(_CONTRACTS[name]).ENTRY
        assert entry.name == name, f"{_CONTRACTS[name]} registers {entry.name}, not {name}"
        _ENTRIES[name] = entry
    return _ENTRIES[name]


def policy_names(name: str) -> List[str]:
    entry = get_game(name)
    return ["random"] + [p for p in entry.policies if p != "random"]


def make_policy(name: str, policy: str, game: Game) -> Policy:
    """Policy ``policy`` of game ``name`` (the one policy registry)."""
    entry = get_game(name)
    if policy == "random" and "random" not in entry.policies:
        return RandomPolicy()
    if policy not in entry.policies:
        raise InputError(f"unknown policy {str(policy)[:40]!r} for {name} "
                         f"(known: {', '.join(policy_names(name))})")
    return entry.policies[policy](game)


def analyses(name: str) -> List[Analysis]:
    """The game's own analyses, then the shared ``playout``."""
    entry = get_game(name)
    return list(entry.analyses) + [playout_analysis(entry)]


def playout_analysis(entry):
    """The shared ``playout`` analysis of a registered game: ``policies`` (one per
    seat, or one for all), ``players`` where the game takes several, and
    ``max_moves``."""
    from solver.options import Option
    from solver.playout import play_out

    names = ["random"] + [p for p in entry.policies if p != "random"]
    options = [Option("policies", list, list(entry.default_policies),
                      "Policy per seat, comma-separated (one name: every seat).", choices=tuple(names)),
               Option("max_moves", int, entry.max_moves, "Moves before the game is unfinished.", low=1)]
    lo, hi = entry.players
    if hi > lo:
        options.append(Option("players", int, lo, "Seats at the table.", low=lo, high=hi))

    def run(seed: int, *, game, limits, policies, max_moves, players=None):
        seats = seat_policies(entry.name, game, policies)
        out = play_out(game, seats, seed=seed, max_moves=max_moves)
        out.fields["policies"] = [p.name for p in seats]
        return out

    return Analysis("playout", "playout", run, f"A seeded game between policies ({', '.join(names)}).",
                    options=tuple(options))


def get_analysis(name: str, analysis: str) -> Analysis:
    found = {a.name: a for a in analyses(name)}
    if analysis not in found:
        raise InputError(f"unknown analysis {str(analysis)[:40]!r} for {name} (known: {', '.join(found)})")
    return found[analysis]


def make_game(name: str, *, variant: Optional[str] = None, players: Optional[int] = None) -> Game:
    """The game ``name`` with a checked variant and number of players."""
    entry = get_game(name)
    if variant is not None and variant not in entry.variants:
        if not entry.variants:
            raise InputError(f"{name} has no variants")
        raise InputError(f"unknown variant {str(variant)[:40]!r} for {name} (known: {', '.join(entry.variants)})")
    lo, hi = entry.players
    if players is not None and not (isinstance(players, int) and lo <= players <= hi):
        raise InputError(f"{name} takes {lo}" + (f" to {hi}" if hi != lo else "") + f" players, not {players!r}")
    return entry.make_game(variant=variant or entry.default_variant, players=players or lo)


def variant_name(name: str, variant: Optional[str]) -> str:
    """The variant as stored in results (``default`` for a game without variants)."""
    entry = get_game(name)
    return variant or entry.default_variant or "default"


def seat_policies(name: str, game: Game, given: Sequence[str]) -> List[Policy]:
    """One policy per seat: the names given (else the game's defaults), the seats
    cycling through them (one name: every seat)."""
    entry = get_game(name)
    seats = game.num_players
    given = list(given) or list(entry.default_policies)
    if len(given) > seats:
        raise InputError(f"{seats} seats take at most {seats} policies, got {len(given)}")
    return [make_policy(name, given[i % len(given)], game) for i in range(seats)]


def run_analysis(name: str, analysis: str, seed: int, *, variant: Optional[str] = None,
                 limits=None, options: Optional[dict] = None):
    """Answer one seed: the analysis's options checked against their declared
    types, the limits merged with the analysis's defaults.  Returns a
    :class:`~solver.game.Result` or :class:`~solver.game.Outcome`.

    >>> run_analysis("boundary", "playout", 1, options={"max_moves": 20}).length
    20
    """
    from solver.game import Limits
    from solver.options import check_values
    from solver.rng import check_seed
    check_seed(seed)
    spec = get_analysis(name, analysis)
    values = check_values(dict(options or {}), spec.options)
    game = make_game(name, variant=variant, players=values.get("players"))
    given = limits if limits is not None else Limits()
    merged = given.or_defaults(**spec.default_limits.to_dict())
    return spec.run(seed, game=game, limits=merged, **values)
