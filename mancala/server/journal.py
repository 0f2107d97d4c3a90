"""The server's results folder: a file for every finished game, the journal of the games
still running (rewritten as they change, so that a crash loses little), and the games an
earlier run left unfinished (saved from its journal as ``*.interrupted.json``).

Every file is written atomically; a file that cannot be written is logged, never raised:
the games go on.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
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


class Journal:
    """The results folder ``folder`` (None: nothing is written); ``running()`` gives the
    records of the games under way, as the journal keeps them."""

    def __init__(self, folder: Path | None, running: Callable[[], list[dict]]) -> None:
        self.folder = folder
        self.running = running
        self._handle: asyncio.TimerHandle | None = None

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
        """Write a finished game's record into the results folder (atomically)."""
        if self.folder is None:
            return
        day = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
        path = self.folder / f"{day}-{game_id}.json"
        try:
            write_atomically(path, json.dumps(record, indent=2) + "\n")
        except OSError as e:
            log.error("could not write %s: %s", path, e)

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
        """Rewrite the journal of running games now (atomically)."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        path = self._path()
        if path is None:
            return
        games = self.running()
        try:
            write_atomically(path, json.dumps({"format": "mancala-journal", "version": 1, "games": games}) + "\n")
        except OSError as e:
            log.error("could not write the journal %s: %s", path, e)

    def _save_interrupted(self) -> None:
        """Save each game of the last run's journal as ``*.interrupted.json``.  A journal that
        cannot be read, or is not one (another format, ``games`` not a list of games), is
        said in one warning naming it and kept beside as ``journal.json.corrupt``."""
        folder, path = self.folder, self._path()
        assert folder is not None and path is not None  # saved only when results are kept
        if not path.exists():
            return
        try:
            data = jsonread.read_file(path)
            games = data.get("games") if isinstance(data, dict) and data.get("format") == "mancala-journal" else None
            if not isinstance(games, list):
                raise ValueError('not a journal of running games ("format": "mancala-journal", "games": [...])')
        except (OSError, ValueError) as e:
            kept = path.with_name(path.name + ".corrupt")
            try:
                os.replace(path, kept)
            except OSError:
                kept = path
            log.warning("the journal %s is unreadable (%s); its games are not restored (kept as %s)", path, e, kept)
            games = []
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
            try:
                write_atomically(folder / name, json.dumps(entry, indent=2) + "\n")
            except OSError as e:
                log.error("could not save interrupted game %s: %s", gid, e)

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
        return [{"file": file.name, **_listed(entry), "result": entry.get("result")} for file, entry in _records(files)]


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
