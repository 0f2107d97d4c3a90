"""Whatever a client sends, the server answers with well-formed messages and never fails
inside (no ``internal`` error), and the connection stays usable: random messages of every
type with random field values (hypothesis)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import TEST_HOSTS, Conn
from starlette.testclient import TestClient

from mancala.server.app import create_app
from mancala.server.config import ServerConfig
from mancala.server.protocol import MESSAGES

pytestmark = pytest.mark.processes

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False),
    st.text(max_size=12),
    st.sampled_from(
        [
            "kalah",
            "bao",
            "tictactoe",
            "kalah(pits=2,seeds=1)",
            "human",
            "remote",
            "greedy",
            "random:seed=1",
            "1",
            "2",
            "swap",
            "A6L*",
            "4",
            "x(",
            "g0000",
            "inf",
        ]
    ),
    st.lists(st.sampled_from(["human", "greedy", "remote", "random", "bogus", 3]), max_size=3),
    st.dictionaries(
        st.sampled_from(["pits", "seeds", "move", "game", "x", "start", "preset"]),
        st.one_of(st.integers(-5, 30), st.text(max_size=5), st.booleans()),
        max_size=3,
    ),
)
#: the study requests run searches for up to seconds: they have their own tests
TYPES = [t for t in MESSAGES if t not in ("hint", "analyse", "review", "tree")]


@st.composite
def messages(draw):
    kind = draw(st.sampled_from(TYPES + ["nonsense"]))
    fields = {name: draw(VALUES) for name in MESSAGES.get(kind, {}) if draw(st.booleans())}
    msg = {"v": draw(st.sampled_from([1, 1, 1, 2, "1", None])), "type": kind, **fields}
    if draw(st.booleans()):
        msg["id"] = draw(VALUES)
    return msg


def test_random_messages_never_break_the_server():
    app = create_app(ServerConfig(hosts=TEST_HOSTS, warm=False, workers=1, idle_grace=0.0))
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        conn = Conn(ws)
        conn.hello()
        conn.create("kalah(pits=3,seeds=2)", ["human", "greedy"])

        @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
        @given(st.lists(messages(), min_size=1, max_size=4))
        def check(batch):
            for msg in batch:
                conn.raw(json.dumps(msg))
            rid = conn.send("ping")
            while True:
                answer = conn.recv()
                assert answer["v"] == 1 and isinstance(answer["type"], str)
                assert not (answer["type"] == "error" and answer["code"] == "internal"), answer
                if answer["type"] == "error":
                    assert answer["message"]
                if answer["type"] == "pong" and answer.get("id") == rid:
                    break

        check()
        # still a working game server after all that
        _, state = conn.create("tictactoe", ["human", "human"])
        assert conn.ask("move", move="4")["board"]["cells"][4] == "X"
