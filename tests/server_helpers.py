"""Helpers for the server tests: a protocol client over Starlette's TestClient WebSocket,
with a time limit on every wait (so a missing message fails the test instead of hanging it)."""

from __future__ import annotations

import json
from typing import Any

import anyio

#: the host names a test server answers to: this machine's, and Starlette's test client's
TEST_HOSTS = ("localhost", "127.0.0.1", "::1", "testserver")

#: the longest a test waits for one message (a hang guard, not a speed assertion)
WAIT = 60.0
#: seconds to wait for an engine's compile from an empty cache (minutes on a busy machine)
COMPILE_WAIT = 900.0


class Conn:
    """One client connection speaking protocol version 1."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.seen: list[dict] = []
        self._next_id = 0

    def send(self, kind: str, **fields: Any) -> int:
        """Send a message with a fresh request id; returns the id."""
        self._next_id += 1
        self.ws.send_text(json.dumps({"v": 1, "type": kind, "id": self._next_id, **fields}))
        return self._next_id

    def raw(self, text: str) -> None:
        """Send a frame as it is."""
        self.ws.send_text(text)

    def recv(self, timeout: float = WAIT) -> dict:
        """The next message (fails after ``timeout`` seconds)."""

        async def get():
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()

        frame = self.ws.portal.call(get)
        if frame["type"] == "websocket.close":
            raise ConnectionError(f"closed: {frame.get('code')} {frame.get('reason')}")
        msg = json.loads(frame["text"])
        self.seen.append(msg)
        return msg

    def wait(self, kind: str | None = None, request_id: int | None = None, until=None, timeout: float = WAIT) -> dict:
        """Read messages until one of type ``kind`` (with ``request_id``, and ``until(msg)``)."""
        while True:
            msg = self.recv(timeout)
            if kind is not None and msg["type"] != kind:
                if msg["type"] == "error" and request_id is not None and msg.get("id") == request_id:
                    raise AssertionError(f"error instead of {kind}: {msg}")
                continue
            if request_id is not None and msg.get("id") != request_id:
                continue
            if until is not None and not until(msg):
                continue
            return msg

    def ask(self, kind: str, reply: str | None = "state", **fields: Any) -> dict:
        """Send a message and return its answer (the reply of type ``reply`` with its id, or its error)."""
        rid = self.send(kind, **fields)
        while True:
            msg = self.recv()
            if msg.get("id") == rid and (reply is None or msg["type"] in (reply, "error")):
                return msg

    def hello(self, **fields: Any) -> dict:
        """Say hello; returns the welcome."""
        return self.ask("hello", "welcome", **fields)

    def create(self, game: str = "kalah", players=("human", "greedy"), **fields: Any) -> tuple[dict, dict]:
        """Create a game; returns (joined, state)."""
        rid = self.send("create", game=game, players=list(players), **fields)
        joined = self.wait("joined", rid)
        state = self.wait("state", rid)
        return joined, state

    def settle(self, predicate, timeout: float = WAIT) -> dict:
        """Read states until ``predicate(state)`` holds (e.g. the AI has moved)."""
        return self.wait("state", until=predicate, timeout=timeout)
