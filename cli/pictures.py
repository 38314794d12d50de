"""What every `show` command shares: the --svg and --html outputs and the colour choice.

``--svg FILE`` writes the picture as SVG (``-``: standard output, and then
nothing else is printed there); ``--html FILE`` writes a step-through replay
(one self-contained page, :mod:`solver.replay_html`).  Files are written
atomically (:func:`solver.files.atomic_write`).  The terminal picture is in
colour only when standard output is a terminal (:func:`solver.term.wants_colour`).
"""
from __future__ import annotations

from typing import Callable, List, Optional, Sequence

import click

from solver.errors import InputError
from solver.files import atomic_write
from solver.replay_html import page
from solver.term import wants_colour


def svg_option(func):
    return click.option("--svg", "svg_path", type=click.Path(dir_okay=False, allow_dash=True), default=None,
                        metavar="FILE", help="Write the picture as SVG here ('-': standard output).")(func)


def html_option(what: str):
    def deco(func):
        return click.option("--html", "html_path", type=click.Path(dir_okay=False, allow_dash=True), default=None,
                            metavar="FILE",
                            help=f"Write a step-through replay of {what} here: one HTML page, "
                                 "no network ('-': standard output).")(func)
    return deco


def check_outputs(*, as_json: bool, svg_path: Optional[str] = None, html_path: Optional[str] = None) -> None:
    """At most one thing goes to standard output."""
    dashes = [name for name, p in (("--svg", svg_path), ("--html", html_path)) if p == "-"]
    if as_json:
        dashes.append("--json")
    if len(dashes) > 1 and (svg_path == "-" or html_path == "-"):
        raise InputError(f"{' and '.join(dashes)} would all write to standard output: name a file")


def to_stdout(svg_path: Optional[str], html_path: Optional[str]) -> bool:
    """True when --svg - or --html - takes standard output (print nothing else)."""
    return svg_path == "-" or html_path == "-"


def write(path: Optional[str], content: str) -> None:
    """Write ``content`` to ``path`` ('-': standard output); nothing if None."""
    if path is None:
        return
    with atomic_write(path) as fh:
        fh.write(content)


def write_replay(path: Optional[str], title: str, frames: Callable[[int], str], moves: Sequence[str],
                 *, subtitle: Optional[str] = None) -> None:
    """Write the replay of ``moves``: ``frames(i)`` is the SVG after ``i`` moves."""
    if path is None:
        return
    pictures: List[str] = [frames(i) for i in range(len(moves) + 1)]
    write(path, page(title, pictures, list(moves), subtitle=subtitle))


def wrote(path: Optional[str], what: str) -> None:
    """Say which file was written (never when standard output took a picture)."""
    if path is not None and path != "-":
        click.echo(f"wrote {what} {path}")


colour = wants_colour
