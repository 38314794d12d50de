"""The twelve pyramids: colour, size, value and owner, as small integers.

A pyramid id is ``colour * 3 + size - 1`` with colours ``r b y g`` (0-3) and
sizes ``S M L`` (1-3); its value in pips is its size.  Player A owns red and
yellow, player B owns blue and green.  Red and blue start West and must end
East; yellow and green start East and must end West.

>>> pyramid_id("rS"), pyramid_id("gL")
(0, 11)
>>> pyramid_name(5), value(5), owner(5)
('bL', 3, 'B')
"""
from __future__ import annotations

from typing import FrozenSet

from solver.errors import InputError

COLOURS = "rbyg"
SIZES = "SML"
N_PYRAMIDS = 12
WEST, EAST = 0, 1
SIDE_NAMES = ("West", "East")
PLAYERS = ("A", "B")
PLAYER_COLOURS = {"A": (0, 2), "B": (1, 3)}
#: the side each colour's tree must reach: red and blue East, yellow and green West
GOAL_SIDE = (EAST, EAST, WEST, WEST)


def pyramid_id(token: str) -> int:
    """The id of a pyramid token such as ``rS`` or ``gL`` (case of the colour ignored)."""
    if not isinstance(token, str) or len(token) != 2:
        raise InputError(f"not a pyramid: {token!r} (expected a colour r/b/y/g and a size S/M/L, e.g. rS)")
    c, s = token[0].lower(), token[1].upper()
    if c not in COLOURS or s not in SIZES:
        raise InputError(f"no such pyramid: {token!r} (colours r b y g, sizes S M L)")
    return COLOURS.index(c) * 3 + SIZES.index(s)


def pyramid_name(pid: int) -> str:
    return COLOURS[pid // 3] + SIZES[pid % 3]


def value(pid: int) -> int:
    """Pips to move this pyramid one space: small 1, medium 2, large 3."""
    return pid % 3 + 1


def colour(pid: int) -> int:
    return pid // 3


def owner(pid: int) -> str:
    return "A" if colour(pid) in PLAYER_COLOURS["A"] else "B"


def check_player(player: str) -> str:
    if not isinstance(player, str) or player.upper() not in PLAYERS:
        raise InputError(f"no such player: {player!r} (expected A or B)")
    return player.upper()


def own_pyramids(player: str) -> FrozenSet[int]:
    """The six pyramids of ``player``."""
    cols = PLAYER_COLOURS[check_player(player)]
    return frozenset(c * 3 + s for c in cols for s in range(3))


def opponent(player: str) -> str:
    return "B" if check_player(player) == "A" else "A"
