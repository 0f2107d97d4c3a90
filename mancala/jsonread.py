"""Reading JSON we did not write ourselves, with bounds: every JSON read in the package
goes through :func:`loads` (text already in memory) or :func:`read_file` (a file).

Two limits keep a hostile or damaged input from costing a traceback or unbounded memory:

* size: text over ``max_bytes`` is refused before it is parsed (a file is never read
  past ``max_bytes + 1`` bytes);
* nesting: arrays and objects nested more than ``max_depth`` deep are refused before
  ``json.loads`` sees them (the standard parser would otherwise raise ``RecursionError``
  on a few thousand ``[``).  No format of this project nests more than a handful deep.

Both problems raise :class:`JSONLimitError`, a :class:`json.JSONDecodeError` (so a
``ValueError``): code that already handles bad JSON reports them the same way, with the
line where the problem was found.

Every file the package reads back (saved games, books, the server's journal, endgame tables)
is opened by :func:`open_regular`, which refuses a FIFO, a device or a folder at once: a FIFO
opened to read would wait for a writer forever.
"""

from __future__ import annotations

import errno
import io
import json
import os
import re
import stat
from typing import Any, Callable

#: the default nesting limit: far above any format of this project (a results line nests 3 deep)
MAX_DEPTH = 64
#: the default size limit of one JSON text, in bytes
MAX_BYTES = 16 * 1024 * 1024

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(r"[\[\]{}]")


class JSONLimitError(json.JSONDecodeError):
    """JSON text that is too large or nested too deep to be read."""


def _blank(match: re.Match) -> str:
    return '"' + " " * (len(match.group()) - 2) + '"'


def check_depth(text: str, max_depth: int = MAX_DEPTH) -> None:
    """Raise :class:`JSONLimitError` when arrays/objects in ``text`` nest more than
    ``max_depth`` deep (brackets inside strings do not count)."""
    if text.count("[") + text.count("{") <= max_depth:
        return  # cannot nest deeper than there are brackets
    depth = 0
    for match in _BRACKET.finditer(_STRING.sub(_blank, text)):
        if match.group() in "[{":
            depth += 1
            if depth > max_depth:
                raise JSONLimitError(f"nested more than {max_depth} deep", text, match.start())
        else:
            depth -= 1


def loads(
    text: str | bytes,
    *,
    max_bytes: int = MAX_BYTES,
    max_depth: int = MAX_DEPTH,
    parse_constant: Callable[[str], Any] | None = None,
) -> Any:
    """``json.loads(text)`` within the size and nesting limits; raises ``ValueError``
    (:class:`json.JSONDecodeError`, :class:`JSONLimitError`) or ``UnicodeDecodeError``."""
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "replace"))
    if size > max_bytes:
        raise JSONLimitError(f"{size:,} bytes, more than the limit of {max_bytes:,}", "", 0)
    if isinstance(text, bytes):
        text = text.decode("utf-8-sig" if text.startswith(b"\xef\xbb\xbf") else "utf-8")
    check_depth(text, max_depth)
    if parse_constant is None:
        return json.loads(text)
    return json.loads(text, parse_constant=parse_constant)


class NotRegularFile(OSError):
    """A path that names a FIFO, a device, a socket or a folder where a file was expected
    (an ``OSError``: code that reports a file it cannot read reports this one alike)."""


def open_regular(path: str | os.PathLike) -> io.BufferedReader:
    """``path`` opened to read bytes, when it is a regular file (a symbolic link to one is
    followed); raises :class:`NotRegularFile` at once otherwise, without waiting for a FIFO's
    writer (it is opened non-blocking, then checked), or the ``OSError`` of the open."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile(errno.EINVAL, "not a regular file", str(path))
        os.set_blocking(fd, True)
        return open(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_text(path: str | os.PathLike, max_bytes: int = MAX_BYTES) -> str:
    """The UTF-8 text of ``path``, reading at most ``max_bytes + 1`` bytes; raises
    :class:`JSONLimitError` when the file is larger, ``OSError`` (:class:`NotRegularFile`
    for a FIFO or a device) or ``UnicodeDecodeError``."""
    with open_regular(path) as f:
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise JSONLimitError(f"more than the limit of {max_bytes:,} bytes", "", 0)
    return data.decode("utf-8")


def read_file(path: str | os.PathLike, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value in the file ``path``, within the limits (see :func:`loads`)."""
    return loads(read_text(path, max_bytes), max_bytes=max_bytes, max_depth=max_depth)


__all__ = [
    "MAX_DEPTH",
    "MAX_BYTES",
    "JSONLimitError",
    "NotRegularFile",
    "check_depth",
    "loads",
    "open_regular",
    "read_text",
    "read_file",
]
