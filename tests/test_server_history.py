"""State messages stay small however long the game (issue 33: every ``state`` carried the
whole history, 169 KB at ply 1,829 of an endless Oware game): a client that says
``"history": "delta"`` in its ``hello`` is sent each move once; one that does not is sent
the whole list, as before."""

from __future__ import annotations

import json
import random

import pytest
from server_helpers import TEST_HOSTS, Conn
from starlette.testclient import TestClient

from mancala.games import make_game
from mancala.server.app import create_app
from mancala.server.config import ServerConfig

SPEC = "oware(seeds=12)"
#: the most a state of this game may weigh for a client sent only the new moves, at any ply
STATE_BYTES = 6_000


def _long_game(plies: int) -> list[str]:
    """The first ``plies`` moves of a random (seeded) game of :data:`SPEC` that lasts longer."""
    game, rng = make_game(SPEC), random.Random(0)
    state, moves = game.initial_state(), []
    while len(moves) < plies:
        move = rng.choice(game.legal_moves(state))
        moves.append(str(move))
        state = game.apply(state, move)
    assert not game.is_terminal(state)
    return moves


@pytest.fixture(scope="module")
def client():
    app = create_app(ServerConfig(hosts=TEST_HOSTS, warm=False, workers=1, idle_grace=0.0))
    with TestClient(app) as test_client:
        yield test_client


def test_a_delta_client_gets_each_move_once_and_a_small_state_however_long_the_game(client):
    moves = _long_game(560)
    record = {"format": "mancala-game", "version": 1, "game": SPEC, "players": ["human", "human"], "moves": moves}
    with client.websocket_connect("/ws") as ws1, client.websocket_connect("/ws") as ws2:
        page, old = Conn(ws1), Conn(ws2)
        page.hello(client="page", history="delta")
        old.hello(client="an older client")
        first = page.ask("load", record=record)
        assert first["history_from"] == 0 and [h["move"] for h in first["history"]] == moves  # once, whole
        old.ask("watch", game_id=first["game_id"])
        kept = list(first["history"])

        move = first["legal"][0]["move"]
        after = page.ask("move", move=move)
        assert after["history_from"] == 560 and [h["move"] for h in after["history"]] == [move]
        assert len(json.dumps(after)) < STATE_BYTES  # the same size at ply 561 as at ply 1
        kept = kept[: after["history_from"]] + after["history"]
        seen = old.wait("state", until=lambda s: s["ply"] == 561)
        assert "history_from" not in seen and seen["history"] == kept  # the older client: the whole list
        assert len(json.dumps(seen)) > 5 * STATE_BYTES

        undone = page.ask("undo")  # a move taken back: the list is cut, nothing resent
        assert (undone["history_from"], undone["history"]) == (560, [])
        again = page.ask("move", move=first["legal"][-1]["move"])
        assert again["history_from"] == 560 and len(again["history"]) == 1

        rejoined = page.ask("watch", game_id=first["game_id"])  # attached again: the whole list once more
        assert rejoined["history_from"] == 0 and len(rejoined["history"]) == 561


def test_hello_refuses_an_unknown_history_mode(client):
    with client.websocket_connect("/ws") as ws:
        answer = Conn(ws).ask("hello", "welcome", history="some")
        assert answer["type"] == "error" and answer["code"] == "bad_request"
        assert 'history must be "full"' in answer["message"]
