"""Writing files so that they are never half-written: every file format of the project
(saved games, homework outputs, endgame databases) writes through here.

A file is written under a temporary name in its final directory and moved into place
with ``os.replace`` (atomic on POSIX) once it is complete and synced; on any failure the
temporary file is deleted, and whatever file was there before stays as it was.  A file is
replaced only when it is one of ours (:func:`refuse_foreign`): a saved game, a book, an
arena report; anything else someone put there is left as it is.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from pathlib import Path
from typing import IO, Callable

from mancala.errors import BadInput


class StagedFile:
    """A file written under a temporary name beside ``path`` and moved into place by
    :meth:`commit`; leaving the ``with`` block without committing deletes it, so the
    final file is either untouched or complete."""

    def __init__(
        self, path: str | os.PathLike, *, binary: bool = False, encoding: str = "utf-8", buffering: int = -1
    ) -> None:
        self.path = Path(path)
        self.temp = self.path.with_name(f".{self.path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        # os.open with 0o666 so the final file gets the usual permissions (umask applied)
        fd = os.open(self.temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            if binary:
                self.stream: IO = open(fd, "wb", buffering=buffering)
            else:
                self.stream = open(fd, "w", encoding=encoding, newline="\n", buffering=buffering)
        except BaseException:  # e.g. an unknown encoding: neither the descriptor nor the file stays
            os.close(fd)
            os.unlink(self.temp)
            raise
        self.committed = False

    def commit(self) -> None:
        """Flush, sync and move the file to its final name."""
        self.stream.flush()
        os.fsync(self.stream.fileno())
        self.stream.close()
        os.replace(self.temp, self.path)
        self.committed = True

    def discard(self) -> None:
        """Close and delete the temporary file (harmless after :meth:`commit`).  The file is
        deleted even when closing it fails: a write that failed (a full disk) fails again at
        the close, which flushes what is still buffered; the error that made the writer give
        up is the one that counts, so the close's is dropped."""
        if self.committed:
            return
        with contextlib.suppress(OSError):
            self.stream.close()  # a failed flush still closes the descriptor
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.temp)

    def __enter__(self) -> "StagedFile":
        return self

    def __exit__(self, *exc) -> None:
        self.discard()


def append_durably(stream: IO, text: str | bytes) -> None:
    """Append ``text`` to an open journal or results file and sync it before returning, so a
    line reported done survives a crash or a power cut (an ``OSError`` is the caller's to
    turn into a message: which file, and that the lines before it are kept)."""
    stream.write(text)
    stream.flush()
    os.fsync(stream.fileno())


def file_head(path: str | os.PathLike, size: int = 64 * 1024) -> bytes:
    """The first ``size`` bytes of the file ``path`` (to tell whether it is one of ours)."""
    with open(path, "rb") as f:
        return f.read(size)


def refuse_foreign(path: str | os.PathLike, ours: Callable[[Path], bool], what: str, instead: str) -> None:
    """Raise :class:`BadInput` (one line, naming ``path``) when ``path`` exists and is not
    ``what`` (``ours(path)`` says whether a regular file is, e.g. from its :func:`file_head`),
    or cannot be read to tell; the file is left as it is.  Every writer that replaces a file
    a person named asks this first.  ``instead``: what else the person can do (``save to
    another file``)."""
    path = Path(path)
    if not os.path.lexists(path):
        return
    try:
        mine = path.is_file() and ours(path)
    except OSError as e:
        raise BadInput(
            f"{path}: cannot read it to check that it is {what} ({e.strerror or e}); move it away or {instead}"
        ) from None
    if not mine:
        raise BadInput(f"{path}: already exists and is not {what}; it was left as it is: move it away or {instead}")


def json_format(name: str) -> Callable[[Path], bool]:
    """For :func:`refuse_foreign`: whether a file is JSON of ours whose ``"format"`` is
    ``name`` (a saved game's ``mancala-game``, a book's ``mancala-book``), read from its head."""
    pattern = re.compile(rb'"format"\s*:\s*"' + re.escape(name.encode()) + rb'"')
    return lambda path: pattern.search(file_head(path)) is not None


def write_problem(path: str | os.PathLike, error: OSError) -> str:
    """One line saying why ``path`` could not be written, naming ``path`` (never the
    temporary file beside it, which the person never asked for)."""
    path = Path(path)
    if isinstance(error, IsADirectoryError) or path.is_dir():
        return f"{path}: is a directory; give a file name (e.g. {path / 'game.json'})"
    if isinstance(error, (FileNotFoundError, NotADirectoryError)):
        if path.parent.is_dir():  # e.g. /proc: the folder exists but takes no new files
            return f"{path}: files cannot be created in {path.parent}; choose another place"
        return f"{path}: no such directory ({path.parent}); create it first or choose another place"
    if isinstance(error, PermissionError):
        return f"{path}: permission denied; choose a folder you can write to"
    return f"{path}: cannot write it ({error.strerror or error})"


def check_writable(path: str | os.PathLike) -> None:
    """Make sure ``path`` can be written (not a directory, its folder exists and is
    writable) by staging and discarding a temporary file beside it, so a long job can
    refuse a bad output path before it starts.  Raises ``OSError`` (see :func:`write_problem`)."""
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(21, "Is a directory", str(path))
    with StagedFile(path):
        pass


def write_atomically(path: str | os.PathLike, data: str | bytes) -> None:
    """Replace ``path`` with ``data`` (text is written as UTF-8 with LF line ends) in one step."""
    with StagedFile(path, binary=isinstance(data, bytes)) as staged:
        staged.stream.write(data)
        staged.commit()
