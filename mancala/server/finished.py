"""The games this server finished and freed (``docs/protocol.md``, "A finished game's link"):
a game is freed from the server's memory once nobody follows it, but its link should still
open it.  So the hub keeps the records of the last :data:`KEPT_GAMES` finished games it freed
(each at most :data:`KEPT_BYTES` of record JSON: at most 6.4 MiB in all), and ``watch`` of
such a game opens it again, read-only (its final position, its moves, its result).

The ids of the games freed without a kept record (unfinished, or pushed out by newer ones)
are remembered too, at most :data:`REMEMBERED_IDS` of them (a few hundred KB), so that the
answer to an unknown id says which case it is: never played here, left unfinished, or
finished too long ago to be kept.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass

from mancala.record import GameRecord, record_from_json

#: how many finished games' records the server keeps after freeing them (the newest)
KEPT_GAMES = 100
#: the most record JSON (bytes) one kept game may take: a game with more side lines is kept
#: without them, and one still larger is not kept (its id is remembered as finished)
KEPT_BYTES = 64 * 1024
#: how many ids of freed games without a kept record the server remembers (the newest)
REMEMBERED_IDS = 10_000


@dataclass(frozen=True)
class KeptGame:
    """A finished game freed from memory: its record (``mancala play --save``'s JSON, remote
    seats as ``human``, the people's names in ``names``) and when it started and ended."""

    game_id: str
    #: the record as compact JSON text (what :data:`KEPT_BYTES` bounds)
    text: str
    started: str
    ended: str | None

    def record(self) -> GameRecord:
        """The game record again, replayed and checked as a loaded game is."""
        return record_from_json(json.loads(self.text), f"the kept record of game {self.game_id}")


class FinishedGames:
    """The kept records of the last ``keep`` finished games freed from the server's memory,
    and the ids of other freed games (see the module doc): bounded, oldest dropped first."""

    def __init__(self, keep: int = KEPT_GAMES, remember: int = REMEMBERED_IDS) -> None:
        self.keep = keep
        self.remember = remember
        self._kept: OrderedDict[str, KeptGame] = OrderedDict()
        #: freed games without a kept record: id -> whether the game had finished
        self._gone: OrderedDict[str, bool] = OrderedDict()

    def __len__(self) -> int:
        """How many finished games' records are kept now (at most ``keep``)."""
        return len(self._kept)

    def freed(self, game_id: str, record: dict | None, started: str, ended: str | None) -> None:
        """The game ``game_id`` was freed: keep its ``record`` (None: it had not finished),
        dropping the oldest kept record past the bound; remember the id of one not kept."""
        self._kept.pop(game_id, None)
        self._gone.pop(game_id, None)
        text = _kept_text(record) if record is not None and self.keep > 0 else None
        if text is None:
            self._forget(game_id, record is not None)
            return
        self._kept[game_id] = KeptGame(game_id, text, started, ended)
        while len(self._kept) > self.keep:
            old, _ = self._kept.popitem(last=False)
            self._forget(old, True)

    def get(self, game_id: str) -> KeptGame | None:
        """The kept record of the finished game ``game_id``, or None."""
        return self._kept.get(game_id)

    def known(self, game_id: str) -> bool:
        """Whether ``game_id`` is the id of a freed game this server still knows of (a new game
        takes another id, so an old link never opens the wrong game)."""
        return game_id in self._kept or game_id in self._gone

    def unknown(self, game_id: str) -> str:
        """Why there is no game ``game_id`` on this server, in a line (the ``no_game`` error's)."""
        gone = self._gone.get(game_id)
        if gone is None:
            return (
                f"no game {game_id!r} on this server: it never existed here, or it is older than the last "
                f"{self.remember:,} games the server remembers"
            )
        if gone:
            kept = f"the last {self.keep} finished games" if self.keep > 0 else "no finished games"
            return f"game {game_id!r} finished too long ago to be kept: this server keeps {kept}"
        return f"game {game_id!r} was left unfinished and closed when its players left"

    def _forget(self, game_id: str, finished: bool) -> None:
        self._gone[game_id] = finished
        while len(self._gone) > self.remember:
            self._gone.popitem(last=False)


def _kept_text(record: dict) -> str | None:
    """``record`` as compact JSON within :data:`KEPT_BYTES` (without its side lines if it
    takes more with them), or None when even that is larger."""
    for kept in (record, {k: v for k, v in record.items() if k != "variations"}):
        text = json.dumps(kept, separators=(",", ":"), ensure_ascii=False)
        if len(text.encode()) <= KEPT_BYTES:
            return text
    return None
