"""The server's message protocol, version 1 (``docs/protocol.md``): reading and checking
client messages, and building server messages.

Every client frame goes through :func:`parse`, which either returns a checked
:class:`Message` or raises :class:`ProtocolError` with an error code and a one-line
reason; the server answers that with an ``error`` event and keeps the connection.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from mancala import jsonread
from mancala.errors import MancalaError
from mancala.record import MAX_NAME, person_name

VERSION = 1
#: the largest client message read, in bytes (UTF-8)
MAX_MESSAGE_BYTES = 64 * 1024

_NUM = (int, float)
#: the fields of a new game: ``create``'s, and ``new``'s (a new game in place of the client's)
_NEW_GAME: dict[str, tuple[tuple[type, ...], bool]] = {
    "game": ((str,), False),
    "options": ((dict,), False),
    "players": ((list,), False),
    "clock": ((dict,), False),
    "move_delay": (_NUM, False),
    "name": ((str,), False),
}
#: type -> {field: (accepted python types, required)}
MESSAGES: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "hello": {
        "token": ((str,), False),
        "client": ((str,), False),
        "history": ((str,), False),
        "name": ((str,), False),
    },
    "create": {**_NEW_GAME, "position": ((str,), False)},
    "join": {
        "game_id": ((str,), True),
        "seat": ((int,), False),
        "resume": ((str,), False),
        "name": ((str,), False),
    },
    "watch": {"game_id": ((str,), True)},
    "leave": {},
    "list": {},
    "lobby": {"subscribe": ((bool,), False)},
    "name": {"name": ((str,), True)},
    "move": {"move": ((str, int), True)},
    "undo": {},
    "redo": {},
    "hint": {"seconds": (_NUM, False)},
    "analyse": {"seconds": (_NUM, False), "ply": ((int,), False), "line": ((int,), False), "lines": ((int,), False)},
    "review": {"seconds": (_NUM, False)},
    "explore": {"ply": ((int,), False), "line": ((int,), False)},
    "tree": {"depth": ((int,), False), "algorithm": ((str,), False), "ply": ((int,), False), "line": ((int,), False)},
    "view": {"ply": ((int,), True), "line": ((int,), False)},
    "branch": {"ply": ((int,), True), "move": ((str, int), True), "line": ((int,), False)},
    "promote": {"line": ((int,), True)},
    "delete_line": {"line": ((int,), True)},
    "pause": {},
    "resume": {},
    "step": {},
    "settings": {"move_delay": (_NUM, False)},
    "save": {"as": ((str,), False)},
    "load": {"record": ((dict,), False), "text": ((str,), False), "game": ((str,), False)},
    "new": dict(_NEW_GAME),
    "resign": {},
    "ping": {},
}


#: fields the server checks itself: a token that is not a string is a wrong token
#: (``bad_token``, and the connection closes), not a malformed message
_CHECKED_BY_SERVER = {("hello", "token")}


class ProtocolError(MancalaError):
    """A client message the server cannot act on: ``code`` (``docs/protocol.md``'s error
    codes) and a one-line ``message`` saying what was expected."""

    def __init__(self, code: str, message: str, about: str | None = None, request_id: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.about = about
        self.request_id = request_id


@dataclass
class Message:
    """A checked client message."""

    type: str
    data: dict
    #: the client's request id, echoed in the answer (None when absent)
    id: Any = None

    def get(self, name: str, default: Any = None) -> Any:
        """A field's value, or ``default`` when absent (or null)."""
        value = self.data.get(name)
        return default if value is None else value


def parse(text: str | bytes, max_bytes: int = MAX_MESSAGE_BYTES) -> Message:
    """Read and check one client frame; raises :class:`ProtocolError`."""
    size = len(text.encode("utf-8", "replace") if isinstance(text, str) else text)
    if size > max_bytes:
        raise ProtocolError("too_large", f"message of {size} bytes is over the limit of {max_bytes} bytes")
    try:
        data = jsonread.loads(text, max_bytes=max_bytes, parse_constant=_no_constant)
    except (ValueError, UnicodeDecodeError) as e:  # JSONLimitError (nested too deep) included
        raise ProtocolError("bad_json", f"not valid JSON ({e}); every message is one JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", 'a message must be a JSON object like {"v": 1, "type": "hello"}')
    request_id = data.get("id")
    if request_id is not None and (
        isinstance(request_id, bool)
        or not isinstance(request_id, (str, int, float))
        or len(str(request_id)) > 64
        or (isinstance(request_id, float) and not math.isfinite(request_id))
    ):
        raise ProtocolError("bad_request", '"id" must be a string or number of at most 64 characters')
    kind = data.get("type")
    about = kind if isinstance(kind, str) and kind in MESSAGES else None
    v = data.get("v")
    if v != VERSION or isinstance(v, bool):
        what = "missing" if v is None else f"{v!r} is not supported"
        raise ProtocolError(
            "bad_version",
            f'protocol version {what}: this server speaks version {VERSION} (put "v": {VERSION} in every message)',
            about,
            request_id,
        )
    if not isinstance(kind, str) or kind not in MESSAGES:
        shown = "missing" if kind is None else repr(kind)[:40]
        raise ProtocolError(
            "unknown_type", f"message type {shown} is unknown; known types: {', '.join(MESSAGES)}", None, request_id
        )
    fields = MESSAGES[kind]
    for name, (types, required) in fields.items():
        value = data.get(name)
        if value is None:
            if required:
                raise ProtocolError("bad_request", f'{kind} needs the field "{name}"', kind, request_id)
            continue
        if (kind, name) in _CHECKED_BY_SERVER:
            continue
        if (isinstance(value, bool) and bool not in types) or not isinstance(value, types):
            expected = " or ".join(_TYPE_NAMES[t] for t in types)
            raise ProtocolError(
                "bad_request", f'{kind}: "{name}" must be {expected}, got {_type_name(value)}', kind, request_id
            )
        if isinstance(value, float) and not math.isfinite(value):
            raise ProtocolError("bad_request", f'{kind}: "{name}" must be a finite number', kind, request_id)
    if "name" in fields and isinstance(data.get("name"), str):
        try:
            data["name"] = person_name(data["name"])
        except ValueError as e:
            raise ProtocolError(
                "bad_request",
                f'{kind}: "name" must be 1-{MAX_NAME} printable characters, but {e}',
                kind,
                request_id,
            ) from None
    return Message(kind, data, request_id)


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


_TYPE_NAMES = {
    bool: "true or false",
    str: "a string",
    int: "a whole number",
    float: "a number",
    dict: "an object",
    list: "a list",
}


def _type_name(value: Any) -> str:
    if value is True or value is False:
        return "true/false"
    return {str: "a string", int: "a number", float: "a number", dict: "an object", list: "a list"}.get(
        type(value), type(value).__name__
    )


def message(kind: str, request_id: Any = None, **fields: Any) -> dict:
    """A server message: ``{"v": 1, "type": kind, ["id": ...,] **fields}``."""
    out: dict[str, Any] = {"v": VERSION, "type": kind}
    if request_id is not None:
        out["id"] = request_id
    out.update(fields)
    return out


def error(code: str, text: str, about: str | None = None, request_id: Any = None) -> dict:
    """An ``error`` event."""
    return message("error", request_id, code=code, message=text, about=about)


def encode(msg: dict) -> str:
    """A server message as compact JSON text."""
    return json.dumps(msg, separators=(",", ":"), allow_nan=False)
