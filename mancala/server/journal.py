"""The server's results folder: a file for every finished game, the journal of the games
still running (rewritten as they change, so that a crash loses little), and the games an
earlier run left unfinished (saved from its journal as ``*.interrupted.json``).

Every file is written atomically; a file that cannot be written is logged, never raised:
the games go on.  A finished (or interrupted) game whose file cannot be written (a full disk)
is not lost: it stays in memory and in the journal's ``unwritten`` list, and is written when
it can: at the next write of any file here, every :data:`RETRY_SECONDS` while any is waiting,
and at the next start from the journal.  :meth:`Journal.saved` tells whether a game's file is
written (the ``state``'s ``result.saved``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterator

from mancala import jsonread
from mancala.atomic import write_atomically

log = logging.getLogger("mancala.server")

#: seconds between journal rewrites at most (a crash loses at most this much of running games)
JOURNAL_DELAY = 0.25
#: the journal's file name in the results folder
JOURNAL_NAME = "journal.json"
#: seconds between tries to write the files that could not be written (a full disk), while any waits
RETRY_SECONDS = 30.0
#: the names of the files a results folder holds (the journal's ``unwritten`` entries are checked against it)
_RESULT_NAME = re.compile(r"[A-Za-z0-9_-]{1,100}(\.interrupted)?\.json")
#: the journal's format version (2: ``unwritten``, the finished games whose files wait to be written)
JOURNAL_VERSION = 2


class Journal:
    """The results folder ``folder`` (None: nothing is written); ``running()`` gives the
    records of the games under way, as the journal keeps them; ``written(game_id)`` is called
    when a finished game's file that could not be written at first is written at last."""

    def __init__(
        self,
        folder: Path | None,
        running: Callable[[], list[dict]],
        written: Callable[[str], None] | None = None,
    ) -> None:
        self.folder = folder
        self.running = running
        self.written = written
        self._handle: asyncio.TimerHandle | None = None
        self._retry: asyncio.TimerHandle | None = None
        #: the files that could not be written yet, by file name: (the game's id, its record)
        self.unwritten: dict[str, tuple[str, dict]] = {}
        #: why the last of them could not be written (``No space left on device``)
        self.problem = ""

    def _path(self) -> Path | None:
        return None if self.folder is None else self.folder / JOURNAL_NAME

    def open(self) -> list[dict]:
        """Start-up: make the folder, save the games the last run left unfinished, start a
        fresh journal; returns the interrupted games found (see :meth:`interrupted`)."""
        if self.folder is None:
            return []
        self.folder.mkdir(parents=True, exist_ok=True)
        self._save_interrupted()
        found = self.interrupted()
        self.flush()
        return found

    def write_result(self, game_id: str, record: dict) -> None:
        """Write a finished game's record into the results folder (atomically); one that
        cannot be written now waits in the journal (see the module doc)."""
        if self.folder is None:
            return
        day = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
        if self._write(f"{day}-{game_id}.json", game_id, record):
            self._write_unwritten()  # space came back: the games waiting go too
        else:
            self.flush()  # the journal keeps it meanwhile

    def saved(self, game_id: str) -> bool | None:
        """Whether a finished game's file is written (False: it waits to be, see the module
        doc); None when no results are kept."""
        if self.folder is None:
            return None
        return not any(gid == game_id for gid, _ in self.unwritten.values())

    def _write(self, name: str, game_id: str, record: dict) -> bool:
        """Write one file of the results folder, or keep it in :attr:`unwritten`; whether written."""
        assert self.folder is not None  # written only when results are kept
        try:
            write_atomically(self.folder / name, json.dumps(record, indent=2) + "\n")
        except OSError as e:
            if name not in self.unwritten:
                log.error("could not write %s: %s; kept in the journal, written when it can", self.folder / name, e)
            self.unwritten[name] = (game_id, record)
            self.problem = e.strerror or str(e)
            self._retry_later()
            return False
        if self.unwritten.pop(name, None) is not None:
            log.info("wrote %s at last", self.folder / name)
            if self.written is not None:
                self.written(game_id)
        return True

    def _write_unwritten(self) -> None:
        """Try again to write the files that could not be written."""
        for name, (game_id, record) in list(self.unwritten.items()):
            if not self._write(name, game_id, record):
                return  # the disk is still full: the rest waits too

    def _retry_later(self) -> None:
        """Try the unwritten files again in :data:`RETRY_SECONDS` (with an event loop running)."""
        if self._retry is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._retry = loop.call_later(RETRY_SECONDS, self._retry_now)

    def _retry_now(self) -> None:
        self._retry = None
        if self.unwritten:
            self.flush()  # the waiting files first, then the journal

    def close(self) -> None:
        """Shut down: the journal written a last time (the files still unwritten in it)."""
        self.flush()
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
        if self.unwritten:
            log.error(
                "%d finished game(s) could not be written (%s); the journal keeps them if it could be written, "
                "and the next start writes them",
                len(self.unwritten),
                ", ".join(sorted(self.unwritten)),
            )

    def update(self) -> None:
        """Rewrite the journal of running games soon: writes are grouped, at most one every
        :data:`JOURNAL_DELAY` seconds, so a busy server does not sync a file at every move."""
        if self._path() is None or self._handle is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.flush()
            return
        self._handle = loop.call_later(JOURNAL_DELAY, self.flush)

    def flush(self) -> None:
        """Rewrite the journal of running games now (atomically), after trying again the files
        that could not be written; those still unwritten are kept in it."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        path = self._path()
        if path is None:
            return
        self._write_unwritten()
        journal = {
            "format": "mancala-journal",
            "version": JOURNAL_VERSION,
            "games": self.running(),
            "unwritten": [{"file": name, "game_id": gid, "record": rec} for name, (gid, rec) in self.unwritten.items()],
        }
        try:
            write_atomically(path, json.dumps(journal) + "\n")
        except OSError as e:
            log.error("could not write the journal %s: %s", path, e)

    def _save_interrupted(self) -> None:
        """Save each game of the last run's journal as ``*.interrupted.json``, and write the
        finished games' files it could not write.  A journal that cannot be read, or is not one
        (another format, ``games`` not a list of games), is said in one warning naming it and
        kept beside as ``journal.json.corrupt``."""
        folder, path = self.folder, self._path()
        assert folder is not None and path is not None  # saved only when results are kept
        if not path.exists():
            return
        try:
            data = jsonread.read_file(path)
            games = data.get("games") if isinstance(data, dict) and data.get("format") == "mancala-journal" else None
            if not isinstance(games, list):
                raise ValueError('not a journal of running games ("format": "mancala-journal", "games": [...])')
            unwritten = data.get("unwritten", [])
        except (OSError, ValueError) as e:
            kept = path.with_name(path.name + ".corrupt")
            try:
                os.replace(path, kept)
            except OSError:
                kept = path
            log.warning("the journal %s is unreadable (%s); its games are not restored (kept as %s)", path, e, kept)
            games, unwritten = [], []
        for entry in unwritten if isinstance(unwritten, list) else []:
            if isinstance(entry, dict) and isinstance(entry.get("record"), dict):
                gid = str(entry.get("game_id", "unknown"))
                name = entry.get("file")
                if not isinstance(name, str) or not _RESULT_NAME.fullmatch(name) or name == JOURNAL_NAME:
                    name = f"{_safe(gid)}.json"
                self._write(name, gid, entry["record"])
        if not all(isinstance(entry, dict) for entry in games):
            log.warning("the journal %s holds entries that are not games; they are passed over", path)
        for entry in games:
            if not isinstance(entry, dict):
                continue
            gid = str(entry.get("game_id", "unknown"))
            name = f"{_safe(entry.get('started', ''))}-{_safe(gid)}.interrupted.json"
            entry = dict(entry)
            entry.setdefault("result", {})
            if isinstance(entry["result"], dict):
                entry["result"].update({"reason": "interrupted", "text": "the server stopped during the game"})
            self._write(name, gid, entry)

    def interrupted(self) -> list[dict]:
        """Games earlier runs left unfinished (their ``*.interrupted.json`` files), oldest first."""
        if self.folder is None:
            return []
        files = sorted(self.folder.glob("*.interrupted.json"))
        return [
            {"game_id": entry.get("game_id"), **_listed(entry), "file": file.name} for file, entry in _records(files)
        ]

    def results(self) -> list[dict]:
        """Finished games in the results folder, newest first."""
        if self.folder is None:
            return []
        files = [f for f in sorted(self.folder.glob("*.json"), reverse=True) if f.name != JOURNAL_NAME]
        waiting = [
            {"file": name, **_listed(entry), "result": entry.get("result"), "saved": False}
            for name, (_, entry) in sorted(self.unwritten.items(), reverse=True)
        ]
        return waiting + [
            {"file": file.name, **_listed(entry), "result": entry.get("result")} for file, entry in _records(files)
        ]


def _records(files: list[Path]) -> Iterator[tuple[Path, dict]]:
    """The files that hold a record (a JSON object), with it; the unreadable are passed over."""
    for file in files:
        try:
            entry = jsonread.read_file(file)
        except (OSError, ValueError):
            continue
        if isinstance(entry, dict):
            yield file, entry


def _listed(entry: dict) -> dict:
    """What a listing shows of a saved game: its game, its players and how many moves."""
    return {"game": entry.get("game"), "players": entry.get("players"), "moves": len(entry.get("moves") or [])}


def _safe(text: Any) -> str:
    return "".join(ch for ch in str(text) if ch.isalnum() or ch in "-_")[:40] or "x"
