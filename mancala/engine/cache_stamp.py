"""Numba's disk cache kept in step with the engine's sources.

Numba checks a cached function against the time stamp of the file that defines it, and
nothing else.  A search kernel compiles in the kernels it calls from other files (its
game's ``kernels.py``, the kit) and the constants it reads from the evaluation's modules
(Oware's ``HOUSE_CAP``, the Kalah terms), so when only one of those files changes (a ``git pull``
into the editable install the README sets up), the search's cache entry still holds the
old code beside the new: a silently wrong engine.  So the first import of
:mod:`mancala.engine` in a process compares one digest of every engine source file with the
digest stamped in each of numba's cache folders for the engine (the evaluation's sources
count too: :data:`COMPILED_IN`), and where they differ it
removes numba's files there (``*.nbi``, ``*.nbc``; nothing else) before anything compiles.
The next search compiles afresh, as on a first install (the board says so).  A folder that is
not there yet is made and stamped first, so that a first install's compile is kept.

Costs a few milliseconds a process (hashing the engine's sources, about 600 KB); a folder
that cannot be read or written is left as it is (numba then uses its user-wide cache, which
is checked too).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

#: the file, in each cache folder, naming the sources its numba files were compiled from
STAMP = "mancala-engine-sources.sha1"
#: the package folders beside the engine whose constants the kernels compile in
COMPILED_IN = ("evaluation",)


def compiled_in(root: Path) -> list[Path]:
    """The folders of :data:`COMPILED_IN` beside the engine folder ``root``."""
    return [root.parent / name for name in COMPILED_IN]


def sources_digest(root: Path, also: Iterable[Path] = ()) -> str:
    """SHA-1 over every ``.py`` file under ``root``: its path relative to ``root``, then its
    bytes; then the same for each folder of ``also`` (its paths prefixed by its name)."""
    digest = hashlib.sha1()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    for folder in also:
        for path in sorted(folder.rglob("*.py")):
            digest.update(b"+" + path.relative_to(folder.parent).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def drop_stale(root: Path, folders: Iterable[Path], also: Iterable[Path] = ()) -> list[Path]:
    """Remove numba's cache files from each of ``folders`` not stamped with the digest of
    ``root``'s sources (and ``also``'s: :func:`sources_digest`), and stamp it; returns the
    files removed.  A folder that does not exist is left alone (numba creates it, and the
    next process stamps it)."""
    digest = sources_digest(root, also)
    removed: list[Path] = []
    for folder in folders:
        stamp = folder / STAMP
        try:
            if stamp.read_text(encoding="ascii") == digest:
                continue
        except (OSError, UnicodeDecodeError):
            pass
        if not folder.is_dir():
            continue
        try:
            for path in sorted(folder.glob("*.nb[ic]")):
                path.unlink(missing_ok=True)
                removed.append(path)
            part = folder / f"{STAMP}.{os.getpid()}.tmp"
            part.write_text(digest, encoding="ascii")
            os.replace(part, stamp)
        except OSError:
            continue
    return removed


def source_folder_caches(root: Path) -> list[list[Path]]:
    """For each engine source folder under ``root``, the cache folders numba may use for it, in
    numba's order of preference (:func:`~mancala.engine.readiness.cache_folders`)."""
    from mancala.engine.readiness import cache_folders  # noqa: PLC0415 (keeps this module's imports light)

    return [cache_folders(folder / "__init__.py") for folder in sorted({p.parent for p in root.rglob("*.py")})]


def engine_cache_folders(candidates: list[list[Path]]) -> list[Path]:
    """Every cache folder numba may use for the engine's source folders (``candidates``:
    :func:`source_folder_caches`), each once."""
    folders: list[Path] = []
    for caches in candidates:
        for cache in caches:
            if cache not in folders:
                folders.append(cache)
    return folders


def make_missing_folders(candidates: list[list[Path]]) -> list[Path]:
    """Make, for each engine source folder (``candidates``: :func:`source_folder_caches`), the
    cache folder numba will compile it into when none is there yet (the first of its candidates
    that can be made); returns the folders made.  Then :func:`drop_stale` stamps them before
    anything compiles.  A folder numba made itself would carry no stamp, so the next process
    would empty it: on a fresh install every engine would be compiled twice."""
    made: list[Path] = []
    for caches in candidates:
        for cache in caches:
            if cache.is_dir():
                break
            try:
                cache.mkdir(parents=True, exist_ok=True)  # (another process may make it first)
            except OSError:
                continue  # not writable here: numba falls back to the next place, so do we
            made.append(cache)
            break
    return made


def keep_in_step() -> list[Path]:
    """:func:`drop_stale` for this package's engine, its missing cache folders made first (what
    importing :mod:`mancala.engine` runs)."""
    root = Path(__file__).resolve().parent
    candidates = source_folder_caches(root)  # the source tree walked once
    make_missing_folders(candidates)
    return drop_stale(root, engine_cache_folders(candidates), compiled_in(root))
