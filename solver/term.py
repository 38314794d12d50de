"""Colour for terminal pictures: ANSI on a terminal, plain text when piped.

Pictures are pure functions taking ``colour=True/False``; only the command
line asks :func:`wants_colour` whether standard output is a terminal (and
honours ``NO_COLOR``, https://no-color.org).  Colour is only ever added on
top of the plain text, so the plain picture is what the colour one shows.

>>> paint("Rl", "red", colour=False)
'Rl'
>>> paint("Rl", "red", colour=True) == "\\x1b[31mRl\\x1b[0m"
True
>>> strip(paint("Rl", "bold", "red", colour=True))
'Rl'
"""
from __future__ import annotations

import os
import re
import sys
from typing import Optional, TextIO

CODES = {
    "bold": 1, "dim": 2, "underline": 4, "reverse": 7,
    "black": 30, "red": 31, "green": 32, "yellow": 33, "blue": 34, "magenta": 35, "cyan": 36,
    "white": 37, "grey": 90, "bright_red": 91, "bright_green": 92, "bright_yellow": 93,
    "bright_blue": 94, "bright_magenta": 95, "bright_cyan": 96,
    "on_yellow": 43, "on_grey": 100,
}
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def paint(s: str, *styles: str, colour: bool) -> str:
    """``s`` in the named styles when ``colour`` is on, else ``s`` unchanged."""
    if not colour or not styles:
        return s
    return f"\x1b[{';'.join(str(CODES[k]) for k in styles)}m{s}\x1b[0m"


def strip(s: str) -> str:
    """The text without its colour codes."""
    return _ANSI.sub("", s)


def wants_colour(stream: Optional[TextIO] = None) -> bool:
    """Colour only on a terminal, and not when NO_COLOR is set."""
    stream = sys.stdout if stream is None else stream
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
