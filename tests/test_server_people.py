"""People play people over the protocol (docs/protocol.md): names (``hello``, ``create``,
``join``, ``name``; checked and trimmed, a bad one refused with one clear error), the lobby
(``lobby``: which games it lists and what it says of them, pushed to subscribers as it
changes), held seats (``players[].held``), and names in the game records (version 5) and the
results folder, older records loading unchanged."""

from __future__ import annotations

import json

import pytest
from server_helpers import TEST_HOSTS, Conn
from starlette.testclient import TestClient

from mancala.games import make_game
from mancala.record import GameRecord, record_from_json
from mancala.server.app import create_app
from mancala.server.config import ServerConfig
from mancala.server.lobby import clock_text
from mancala.server.protocol import ProtocolError, parse, person_name

pytestmark = pytest.mark.processes


def server(**options):
    """A test client around a fresh server with ``options``."""
    options = {"warm": False, "workers": 1, "hosts": TEST_HOSTS, **options}
    return TestClient(create_app(ServerConfig(**options)))


def frame(kind: str, **fields) -> str:
    return json.dumps({"v": 1, "type": kind, **fields})


# --- names --------------------------------------------------------------------------------------


def test_a_name_is_trimmed_and_its_inner_spaces_made_one():
    assert person_name("  Ann   Lee ") == "Ann Lee"
    assert person_name("Zoë Ōkubo") == "Zoë Ōkubo"
    assert parse(frame("hello", name=" Bob ")).data["name"] == "Bob"
    assert parse(frame("join", game_id="g1", name="Bob")).data["name"] == "Bob"


@pytest.mark.parametrize(
    "kind, value, words",
    [
        ("hello", "x" * 41, "it has 41 characters, more than 40"),
        ("create", "   ", "it is empty"),
        ("join", "Ann\nLee", "not printable (U+000A)"),
        ("name", "Ann\u200bLee", "not printable (U+200B)"),
        ("name", "\x07", "not printable (U+0007)"),
        ("hello", 7, '"name" must be a string'),
        ("name", None, 'name needs the field "name"'),
    ],
)
def test_a_bad_name_is_refused_with_one_clear_error(kind, value, words):
    fields = {"game_id": "g1"} if kind == "join" else {}
    if value is not None:
        fields["name"] = value
    with pytest.raises(ProtocolError) as e:
        parse(frame(kind, **fields))
    assert e.value.code == "bad_request" and e.value.about == kind
    assert words in e.value.message


def test_names_go_on_the_seats_the_header_and_the_results_file(tmp_path):
    with server(results=tmp_path) as c, c.websocket_connect("/ws") as w1, c.websocket_connect("/ws") as w2:
        ann, bob = Conn(w1), Conn(w2)
        assert ann.hello(name="Ann")["type"] == "welcome"
        bad = bob.ask("hello", "welcome", name="x" * 41)
        assert bad["type"] == "error" and bad["code"] == "bad_request" and "40" in bad["message"]
        bob.hello()
        joined, state = ann.create("tictactoe", ["human", "remote"])
        assert state["players"][0]["person"] == "Ann" and state["players"][0]["title"] == "Ann"
        assert state["players"][1]["person"] is None and state["players"][1]["held"] is None
        rid = bob.send("join", game_id=joined["game_id"], name="Bob")
        state = bob.wait("state", rid)
        assert [p["person"] for p in state["players"]] == ["Ann", "Bob"]
        assert state["status"] == "X (Ann) to move."
        # a name changed during the game goes on the seat, and everyone is told
        assert bob.ask("name", "named", name="  Robert ")["name"] == "Robert"
        ann.settle(lambda s: s["players"][1]["person"] == "Robert")
        for move, who in (("0", ann), ("3", bob), ("1", ann), ("4", bob), ("2", ann)):
            who.ask("move", move=move)
        end = bob.settle(lambda s: s["result"] is not None)
        assert end["result"]["text"].startswith("X (Ann) wins")
        saved = ann.ask("save", "record")["record"]
        assert saved["version"] == 5 and saved["names"] == ["Ann", "Robert"]
        assert saved["players"] == ["human", "human"]  # the remote seat is saved as human, as before
        [path] = [f for f in tmp_path.glob("*.json") if f.name != "journal.json"]
        written = json.loads(path.read_text())
        assert written["names"] == ["Ann", "Robert"] and written["version"] == 5
        assert [s["name"] for s in written["server"]["seats"]] == ["Ann", "Robert"]
        assert record_from_json(written).people == ["Ann", "Robert"]


def test_an_ai_is_named_by_its_level_and_a_hot_seat_stays_unnamed():
    with server() as c, c.websocket_connect("/ws") as w:
        ann = Conn(w)
        ann.hello(name="Ann")
        _, state = ann.create("tictactoe", ["human", "easy"])
        assert [p["person"] for p in state["players"]] == ["Ann", None]
        assert state["players"][1]["title"] == "Easy AI"
        assert ann.ask("save", "record")["record"]["names"] == ["Ann", None]
        _, state = ann.create("tictactoe", ["human", "human"])
        assert [p["person"] for p in state["players"]] == [None, None]
        record = ann.ask("save", "record")["record"]
        assert record["version"] == 1 and "names" not in record  # the oldest version that holds it


def test_records_with_names_load_and_older_records_load_unchanged():
    game = make_game("tictactoe")
    record = GameRecord(game, ["human", "easy"], [game.parse_move(game.initial_state(), "4")], people=["Ann", None])
    data = record.to_json()
    assert data["version"] == 5 and data["names"] == ["Ann", None]
    back = record_from_json(data)
    assert back.people == ["Ann", None] and back.names()[0] == "X (Ann)"
    old = {"format": "mancala-game", "version": 1, "game": "tictactoe", "players": ["human", "easy"], "moves": ["4"]}
    assert record_from_json(old).people == [None, None]
    with pytest.raises(Exception, match="needs format version 5"):
        record_from_json({**old, "names": ["Ann", None]})
    with pytest.raises(Exception, match='bad "names"'):
        record_from_json({**old, "version": 5, "names": ["Ann\n", None]})
    with pytest.raises(Exception, match='bad "names"'):
        record_from_json({**old, "version": 5, "names": ["Ann"]})
    with server() as c, c.websocket_connect("/ws") as w:
        conn = Conn(w)
        conn.hello()
        rid = conn.send("load", record=data)
        state = conn.wait("state", rid)
        assert [p["person"] for p in state["players"]] == ["Ann", None]


# --- the lobby ----------------------------------------------------------------------------------


def test_the_lobby_lists_open_games_only_and_says_what_they_are():
    with server(clock={"move": 30, "game": 300}) as c, c.websocket_connect("/ws") as w1:
        ann = Conn(w1)
        ann.hello(name="Ann")
        assert ann.ask("lobby", "lobby")["games"] == []
        ann.create("kalah", ["human", "easy"])  # private: a person against an AI
        ann.create("tictactoe", ["easy", "random"])  # private: two AIs (its id still opens it to watch)
        assert ann.ask("lobby", "lobby")["games"] == []
        joined, _ = ann.create("kalah", ["human", "remote"], options={"preset": "ethiopian"})
        [entry] = ann.ask("lobby", "lobby")["games"]
        assert entry == {
            "game_id": joined["game_id"],
            "game": "Kalah",
            "rules": "ethiopian",
            "clock": {"move": 30.0, "game": 300.0},
            "clock_text": "5 min a game, 30 s a move",
            "players": [
                {
                    "player": 0,
                    "name": "South",
                    "kind": "human",
                    "who": "Ann",
                    "free": False,
                    "connected": True,
                    "held": False,
                },
                {
                    "player": 1,
                    "name": "North",
                    "kind": "remote",
                    "who": None,
                    "free": True,
                    "connected": False,
                    "held": False,
                },
            ],
            "seats_free": [1],
            "started": False,
        }


def test_the_lobby_is_pushed_to_subscribers_as_games_open_fill_drop_and_end():
    with (
        server(grace=30) as c,
        c.websocket_connect("/ws") as w1,
        c.websocket_connect("/ws") as w2,
        c.websocket_connect("/ws") as w3,
    ):
        ann, bob, cleo = Conn(w1), Conn(w2), Conn(w3)
        ann.hello(name="Ann")
        bob.hello(name="Bob")
        cleo.hello(name="Cleo")
        assert cleo.ask("lobby", "lobby", subscribe=True)["games"] == []
        joined, _ = ann.create("tictactoe", ["human", "remote"])
        gid = joined["game_id"]
        opened = cleo.wait("lobby", until=lambda m: m["games"])
        assert opened["games"][0]["seats_free"] == [1] and "id" not in opened
        rid = bob.send("join", game_id=gid)
        bob.wait("state", rid)
        full = cleo.wait("lobby", until=lambda m: not m["games"][0]["seats_free"])
        assert [p["who"] for p in full["games"][0]["players"]] == ["Ann", "Bob"]
        # a third person's join of the full game is refused: it is watched instead
        assert cleo.ask("join", "joined", game_id=gid)["code"] == "seat_taken"
        assert cleo.ask("watch", "joined", game_id=gid)["role"] == "watcher"
        # Bob's connection drops: his seat is held (not free) for the grace period
        w2.close()
        held = cleo.wait("state", until=lambda s: s["players"][1]["held"] is not None)
        assert 0 < held["players"][1]["held"] <= 30 and not held["players"][1]["connected"]
        assert "disconnected: the seat is held for" in held["status"]
        listing = ann.ask("lobby", "lobby")["games"][0]
        assert listing["players"][1]["held"] and listing["seats_free"] == []
        ann.ask("resign")
        assert cleo.wait("lobby", until=lambda m: not m["games"])["games"] == []  # over: no longer listed
        assert cleo.ask("lobby", "lobby", subscribe=False)["games"] == []


def test_lobby_subscribe_must_be_true_or_false():
    with pytest.raises(ProtocolError) as e:
        parse(frame("lobby", subscribe="yes"))
    assert e.value.code == "bad_request" and "true or false" in e.value.message


@pytest.mark.parametrize(
    "clock, text",
    [(None, "no clock"), ({"move": 30}, "30 s a move"), ({"game": 45, "move": None}, "45 s a game")],
)
def test_the_clock_in_words(clock, text):
    assert clock_text(clock) == text
