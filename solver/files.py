"""Files the user names: read them (``-`` is standard input), write them safely.

Every command that writes a file goes through :func:`atomic_write`: the output
is written to a temporary file beside the target and renamed over it only once
it is complete, so an interrupted or failed write leaves the old file whole.
It refuses to write over a file the command reads (``reads``) and over an
SQLite database (a results database is never an output).  Every failure is an
:class:`~solver.errors.InputError` with one line that quotes at most a short
:func:`excerpt` of what the user typed.

>>> excerpt("5B 9C " * 1000)
"'5B 9C 5B 9C 5B 9C 5B 9C 5B 9C 5B 9C 5B 9C 5B 9C 5B 9C 5B 9C ...' (6000 characters)"
>>> excerpt("1-x")
"'1-x'"
"""
from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from typing import IO, Iterable, Iterator

from solver.errors import InputError

EXCERPT_CHARS = 60
"""At most this many characters of user input are quoted in an error line."""

SQLITE_MAGIC = b"SQLite format 3\x00"


def excerpt(text, limit: int = EXCERPT_CHARS) -> str:
    """``repr`` of ``text`` cut to ``limit`` characters, saying how long it was."""
    text = str(text)
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit] + '...'!r} ({len(text)} characters)"


def describe(path: str) -> str:
    """A path as it may appear in an error line (short, printable)."""
    if path == "-":
        return "standard input"
    if not path.isprintable():
        return excerpt(path, 120)
    return path if len(path) <= 120 else path[:120] + f"... ({len(path)} characters)"


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__


# -- reading -------------------------------------------------------------------
_READ: set = set()
"""Every file this command has read (its real path): :func:`atomic_write` never writes over one."""


def note_read(path: str) -> None:
    """Remember that the command reads ``path`` (done by :func:`read_text` and the results store)."""
    if path and path != "-":
        _READ.add(os.path.realpath(path))


def forget_reads() -> None:
    """A new command starts (the CLI's entry point calls this)."""
    _READ.clear()


def read_text(path: str) -> str:
    """The text of a user-named file; ``-`` reads standard input.

    A missing, unreadable or non-UTF-8 file, or a directory, is an InputError."""
    note_read(path)
    try:
        if path == "-":
            data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read()
            return data.decode("utf-8") if isinstance(data, bytes) else data
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except UnicodeDecodeError:
        raise InputError(f"cannot read {describe(path)}: it is not UTF-8 text") from None
    except (OSError, ValueError) as exc:   # ValueError: a NUL in the path
        raise InputError(f"cannot read {describe(path)}: {_reason(exc)}") from None


# -- writing -------------------------------------------------------------------
def same_file(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` name the same file (links and ``..`` resolved)."""
    if a == "-" or b == "-":
        return False
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return os.path.realpath(a) == os.path.realpath(b)


def is_sqlite(path: str) -> bool:
    """True when ``path`` is an SQLite database (results databases are)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except (OSError, ValueError):
        return False


def check_output(path: str, *, reads: Iterable[str] = ()) -> None:
    """Refuse an output path that would destroy data or cannot be a file."""
    if path == "-":
        return
    if not path or "\x00" in path:
        raise InputError(f"cannot write {excerpt(path)}: not a file name")
    if os.path.isdir(path):
        raise InputError(f"cannot write {describe(path)}: it is a directory (name a file inside it)")
    for source in list(reads) + sorted(_READ):
        if source and same_file(path, source):
            raise InputError(f"will not write {describe(path)}: the command reads that file")
    if is_sqlite(path):
        raise InputError(f"will not write over {describe(path)}: it is an SQLite database")
    if os.path.exists(path) and not os.access(path, os.W_OK):   # a rename would ignore the file's mode
        raise InputError(f"cannot write {describe(path)}: Permission denied")


@contextlib.contextmanager
def atomic_write(path: str, *, mode: str = "w", reads: Iterable[str] = (),
                 encoding: str = "utf-8", newline=None) -> Iterator[IO]:
    """Write ``path`` through a temporary file beside it, renamed into place on success.

    ``-`` writes to standard output.  If the body raises (or the process dies),
    the target is untouched and the temporary file is removed.  The new file
    keeps the old one's permissions (a new file gets the usual umask ones).
    """
    binary = "b" in mode
    if path == "-":
        stream = sys.stdout.buffer if binary else sys.stdout
        yield stream
        stream.flush()
        return
    check_output(path, reads=reads)
    if os.path.islink(path):          # replace the file the link points to, not the link
        path = os.path.realpath(path)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    except OSError as exc:
        raise InputError(f"cannot write {describe(path)}: {_reason(exc)}") from None
    try:
        try:
            fh = os.fdopen(fd, "wb" if binary else "w", **({} if binary else
                                                           {"encoding": encoding, "newline": newline}))
        except Exception:
            os.close(fd)
            raise
        with fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, _mode_for(path))
        os.replace(tmp, path)
    except OSError as exc:
        _remove(tmp)
        raise InputError(f"cannot write {describe(path)}: {_reason(exc)}") from None
    except BaseException:
        _remove(tmp)
        raise


def _mode_for(path: str) -> int:
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
