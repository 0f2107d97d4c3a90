"""The game server over its WebSocket protocol (docs/protocol.md), with Starlette's test
client: every message type, each kind of bad message, undo/redo across extra turns and
pie swaps, save/load, concurrent games, AI vs AI control, study requests."""

from __future__ import annotations

import json
import time

import pytest
from server_helpers import COMPILE_WAIT, TEST_HOSTS, Conn
from starlette.testclient import TestClient, WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from mancala.evaluation.basic import win_loss_percent
from mancala.games import make_game
from mancala.record import record_from_json
from mancala.search.core import alphabeta
from mancala.search.explain import ExplainTracer
from mancala.server.app import create_app
from mancala.server.config import ServerConfig
from mancala.server.protocol import MAX_MESSAGE_BYTES

pytestmark = pytest.mark.processes


@pytest.fixture(scope="module")
def client():
    """One server (and its worker processes) shared by the tests of this file."""
    app = create_app(ServerConfig(hosts=TEST_HOSTS, warm=False, workers=2, idle_grace=0.0))
    with TestClient(app) as c:
        yield c


@pytest.fixture
def conn(client):
    with client.websocket_connect("/ws") as ws:
        c = Conn(ws)
        c.hello(client="pytest")
        yield c


def test_http_endpoints_describe_games_players_and_status(client):
    games = client.get("/api/games").json()["games"]
    from mancala.games import CATALOGUE  # noqa: PLC0415 (a test may have registered a toy game)

    assert [g["name"] for g in games] == list(CATALOGUE)
    assert list(CATALOGUE)[:4] == ["kalah", "bao", "oware", "tictactoe"]
    kalah = games[0]
    assert "ethiopian" in kalah["presets"] and kalah["presets"]["mankalah"]["pits"] == 7
    assert {"name": "sowing", "kind": "choice", "values": ["ccw", "choice"], "default": "ccw"} in kalah["options"]
    oware = games[2]
    assert {"name": "capture_counts", "kind": "numbers", "default": [2, 3]} in oware["options"]
    assert oware["presets"]["wari"]["grand_slam"] == "illegal" and oware["default_preset"] == "abapa"
    players = client.get("/api/players").json()
    assert players["default"] == ["human", "medium"]
    assert list(players["levels"]) == ["beginner", "easy", "medium", "hard", "expert", "strongest"]
    assert players["levels"]["hard"]["kalah"].startswith("alphabeta:depth=4")
    assert client.get("/api/status").json()["protocol"] == 1
    assert client.get("/").status_code == 200


def test_first_message_must_be_hello(client):
    with client.websocket_connect("/ws") as ws:
        c = Conn(ws)
        err = c.ask("ping", "pong")
        assert err["type"] == "error" and err["code"] == "hello_first"
        assert c.hello()["type"] == "welcome"
        assert c.ask("ping", "pong")["type"] == "pong"


@pytest.mark.parametrize(
    "frame, code",
    [
        ("this is not json", "bad_json"),
        ("[1, 2]", "bad_json"),
        ('{"type": "ping"}', "bad_version"),
        ('{"v": 2, "type": "ping"}', "bad_version"),
        ('{"v": "1", "type": "ping"}', "bad_version"),
        ('{"v": 1}', "unknown_type"),
        ('{"v": 1, "type": "dance"}', "unknown_type"),
        ('{"v": 1, "type": "move"}', "bad_request"),
        ('{"v": 1, "type": "move", "move": [3]}', "bad_request"),
        ('{"v": 1, "type": "view", "ply": true}', "bad_request"),
        ('{"v": 1, "type": "create", "players": "human"}', "bad_request"),
        ('{"v": 1, "type": "create", "game": "chess"}', "bad_request"),
        ('{"v": 1, "type": "create", "players": ["human", "wizard"]}', "bad_request"),
        ('{"v": 1, "type": "create", "game": "kalah", "options": {"pits": 99}}', "bad_request"),
        ('{"v": 1, "type": "create", "game": "bao(max_laps=0)"}', "bad_request"),
        ('{"v": 1, "type": "create", "players": ["human", "alphabeta:depth=40"]}', "bad_request"),
        ('{"v": 1, "type": "create", "players": ["human", "best:time=1e9"]}', "bad_request"),
        ('{"v": 1, "type": "undo"}', "no_game"),
        ('{"v": 1, "type": "join", "game_id": "nope"}', "no_game"),
        ('{"v": 1, "type": "ping", "id": {"a": 1}}', "bad_request"),
        ('{"v": 1, "type": "ping", "id": 1e400}', "bad_request"),
        ('{"v": 1, "type": "settings", "move_delay": NaN}', "bad_json"),
        ('{"v": 1, "type": "hint", "seconds": 1e999}', "bad_request"),
    ],
)
def test_every_bad_message_gets_an_error_and_the_connection_stays_usable(conn, frame, code):
    conn.raw(frame)
    err = conn.recv()
    assert err["type"] == "error" and err["code"] == code, err
    assert err["message"]
    assert conn.ask("ping", "pong")["type"] == "pong"


def test_oversized_and_binary_frames_are_refused(conn):
    conn.raw(json.dumps({"v": 1, "type": "ping", "pad": "x" * MAX_MESSAGE_BYTES}))
    assert conn.recv()["code"] == "too_large"
    conn.ws.send_bytes(b'{"v": 1, "type": "ping"}')
    assert conn.recv()["code"] == "bad_json"
    assert conn.ask("ping", "pong")["type"] == "pong"


def test_origin_of_another_site_is_refused(client):
    with pytest.raises((WebSocketDenialResponse, WebSocketDisconnect)):
        with client.websocket_connect("/ws", headers={"origin": "http://evil.example"}):
            pass
    with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
        assert Conn(ws).hello()["type"] == "welcome"


def test_default_game_is_human_south_against_medium_standard_kalah(conn):
    rid = conn.send("create")
    joined = conn.wait("joined")
    state = conn.wait("state", rid)
    assert joined["seats"] == [0] and joined["resume"]
    assert state["game"]["spec"] == "kalah"
    assert [p["spec"] for p in state["players"]] == ["human", "medium"]
    assert state["board"]["cells"] == [4] * 6 + [0] + [4] * 6 + [0]
    assert [m["move"] for m in state["legal"]] == ["1", "2", "3", "4", "5", "6"]
    assert state["to_move"] == 0 and state["you"] == [0]


def test_kalah_move_steps_and_the_ai_reply(conn):
    _, state = conn.create("kalah(pits=3,seeds=2)", ["human", "greedy"])
    after = conn.ask("move", move="2")
    assert after["board"]["cells"] == [2, 0, 3, 1, 2, 2, 2, 0]
    assert after["last"]["steps"] == [{"kind": "pickup", "cell": 1, "seeds": 2}, {"kind": "sow", "cells": [2, 3]}]
    assert after["last"]["notices"] == [{"kind": "extra_turn", "text": "extra turn"}]
    assert after["to_move"] == 0
    err = conn.ask("move", move="2")
    assert err["code"] == "illegal" and err["message"] == "pit 2 is empty; legal moves are 1, 3"
    mine = conn.ask("move", move="3")
    assert mine["to_move"] == 1 and mine["thinking"]["spec"] == "greedy" and mine["legal"] == []
    replied = conn.settle(lambda s: s["to_move"] == 0 or s["result"])
    assert replied["history"][2]["player"] == 1
    # the history replays to the board shown
    game = make_game("kalah(pits=3,seeds=2)")
    st = game.initial_state()
    for h in replied["history"]:
        st = game.apply(st, game.parse_move(st, h["move"]))
    assert list(st.board) == replied["board"]["cells"]


def test_undo_and_redo_go_through_the_ai_turn_and_extra_turns(conn):
    conn.create("kalah(pits=3,seeds=2)", ["human", "greedy"])
    conn.ask("move", move="2")  # extra turn
    conn.ask("move", move="3")
    done = conn.settle(lambda s: s["to_move"] == 0)
    plies = done["ply"]
    assert plies >= 3
    back = conn.ask("undo")
    assert back["ply"] == 1 and back["to_move"] == 0  # back to my decision after my extra turn
    assert back["can_redo"] and back["can_undo"]
    back = conn.ask("undo")
    assert back["ply"] == 0 and not back["can_undo"]
    assert conn.ask("undo")["code"] == "refused"
    again = conn.ask("redo")
    assert again["ply"] == 1
    again = conn.ask("redo")
    assert again["ply"] == plies and again["history"] == done["history"] and not again["can_redo"]
    assert conn.ask("redo")["code"] == "refused"


def test_undo_redo_across_a_pie_rule_swap(conn):
    _, state = conn.create("kalah(preset=mankalah,pits=3,seeds=3)", ["human", "human"])
    assert state["you"] == [0, 1]
    first = conn.ask("move", move="1")
    assert first["to_move"] == 1 and {"move": "swap", "swap": True} in first["legal"]
    swapped = conn.ask("move", move="swap")
    assert swapped["board"]["seats"] == [1, 0] and swapped["board"]["swapped"]
    assert swapped["to_move"] == 0 and swapped["last"]["notices"][0]["kind"] == "swap"
    back = conn.ask("undo")
    assert back["ply"] == 1 and not back["board"]["swapped"] and {"move": "swap", "swap": True} in back["legal"]
    again = conn.ask("redo")
    assert again["board"]["seats"] == [1, 0] and again["to_move"] == 0


def test_after_a_swap_players_and_history_name_the_seat_they_sat_at(conn):
    _, state = conn.create("kalah(preset=mankalah)", ["human", "human"])
    assert state["game"]["title"] == "Kalah (mankalah)"
    assert [p["name"] for p in state["players"]] == ["South", "North"]
    conn.ask("move", move="1")
    swapped = conn.ask("move", move="swap")
    # player 0 now sits North and moves: its pit 1 is North's pit 1
    assert [p["name"] for p in swapped["players"]] == ["North", "South"]
    assert swapped["status"].startswith("North")
    after = conn.ask("move", move="1")
    assert [(h["player"], h["name"], h["move"]) for h in after["history"]] == [
        (0, "South", "1"),
        (1, "North", "swap"),
        (0, "North", "1"),
    ]


def test_ethiopian_moves_carry_their_direction(conn):
    _, state = conn.create("kalah(preset=ethiopian)", ["human", "greedy"])
    assert state["legal"][:2] == [
        {"move": "1R", "pit": 1, "cell": 0, "dir": "R"},
        {"move": "1L", "pit": 1, "cell": 0, "dir": "L"},
    ]
    after = conn.ask("move", move="2L")
    # clockwise from South pit 2: pit 1, then past North's store (skipped) into North's pits 6, 5, 4
    assert after["last"]["steps"][1] == {"kind": "sow", "cells": [0, 12, 11, 10]}


def test_bao_board_legal_annotations_and_laps(conn):
    _, state = conn.create("bao", ["human", "random:seed=3"])
    board = state["board"]
    assert [len(r) for r in board["rows"]] == [8, 8, 8, 8]
    assert [h["name"] for h in board["rows"][2]] == [f"A{i}" for i in range(1, 9)]
    assert [h["name"] for h in board["rows"][0]] == [f"b{i}" for i in range(8, 0, -1)]
    assert board["stock"] == [22, 22] and board["nyumba"][0] == {"hole": "A5", "owned": True, "functional": True}
    legal = {m["move"]: m for m in state["legal"]}
    assert set(legal) == {"A6L*", "A6R*", "A7L*", "A7R*"}
    assert legal["A6L*"] == {
        "move": "A6L*",
        "hole": "A6",
        "dir": "L",
        "sow": "acw",
        "capture": False,
        "house": None,
        "kichwa": None,
    }
    err = conn.ask("move", move="A1L")
    assert err["code"] == "illegal" and "A1 is empty" in err["message"]
    after = conn.ask("move", move="A6L*")
    steps = after["last"]["steps"]
    assert steps[0] == {"kind": "stock", "hole": "A6"}
    assert steps[1]["kind"] == "sow" and steps[1]["holes"] == ["A5", "A4", "A3"]
    cells = after["board"]["holes"]
    assert sum(cells[0]) + sum(cells[1]) + sum(after["board"]["stock"]) == 64


def test_bao_choices_are_flagged_only_where_the_rules_leave_them():
    import random

    from mancala.server.views import legal_view

    game = make_game("bao")
    # a namua capture from A5 may enter either kichwa; from A7 the kichwa is forced
    state = game.from_diagram("0 0 0 0 0 0 0 0 / 0 0 0 0 2 2 2 0 / 0 0 0 2 6 2 2 0 / 0 0 0 0 0 0 0 0", stock=(10, 10))
    rows = legal_view(game, state)
    assert all(r["capture"] for r in rows)
    assert {r["kichwa"] for r in rows if r["hole"] == "A5"} == {"left", "right"}
    assert [(r["dir"], r["kichwa"]) for r in rows if r["hole"] == "A7"] == [("", "right")]
    # the house question appears in real games, and only as a pair of twins
    rng = random.Random(4)
    houses = 0
    for _ in range(30):
        state = game.initial_state()
        while not game.is_terminal(state) and state.ply < 60:
            rows = legal_view(game, state)
            for r in rows:
                twins = [x for x in rows if x["hole"] == r["hole"] and x["sow"] == r["sow"]]
                assert (r["house"] is None) == (len(twins) == 1)
                if r["house"] is not None:
                    houses += 1
                    assert r["move"].endswith(">") == r["house"]
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    assert houses > 0


def test_tictactoe_hot_seat_draw(conn):
    _, state = conn.create("tictactoe", ["human", "human"])
    assert state["board"] == {"kind": "tictactoe", "cells": ["."] * 9, "line": None}
    for cell in (0, 4, 8, 2, 6, 3, 5, 7, 1):
        state = conn.ask("move", move=str(cell))
    assert state["result"]["winner"] is None and state["result"]["text"] == "Draw."
    assert state["to_move"] is None and state["legal"] == []
    assert conn.ask("move", move="1")["code"] == "game_over"


def test_save_returns_the_cli_record_and_load_restores_it(client, conn):
    conn.create("kalah(pits=4,seeds=3)", ["human", "greedy"])
    conn.ask("move", move="1")
    state = conn.settle(lambda s: s["to_move"] == 0)
    saved = conn.ask("save", "record")
    record = saved["record"]
    assert record["format"] == "mancala-game" and record["players"] == ["human", "greedy"]
    assert record["moves"] == [h["move"] for h in state["history"]]
    rebuilt = record_from_json(record)
    assert list(rebuilt.final_state().board) == state["board"]["cells"]
    with client.websocket_connect("/ws") as ws:
        other = Conn(ws)
        other.hello()
        rid = other.send("load", record=record)
        assert other.wait("joined")["seats"] == [0]
        loaded = other.wait("state", rid)
        assert loaded["board"] == state["board"] and loaded["history"] == state["history"]
        assert loaded["game_id"] != state["game_id"]


@pytest.mark.parametrize(
    "bad, words",
    [
        ({"format": "something-else"}, "not a mancala saved game"),
        (
            {"format": "mancala-game", "version": 9, "game": "kalah", "players": ["human", "human"], "moves": []},
            "newer version",
        ),
        (
            {
                "format": "mancala-game",
                "version": 1,
                "game": "kalah",
                "players": ["human", "human"],
                "moves": ["3", "3"],
            },
            "move 2",
        ),
        (
            {"format": "mancala-game", "version": 1, "game": "kalah", "players": ["human", "wizard"], "moves": []},
            "unknown player",
        ),
    ],
)
def test_a_bad_record_is_refused_and_the_current_game_survives(conn, bad, words):
    _, state = conn.create("kalah(pits=3,seeds=2)", ["human", "human"])
    err = conn.ask("load", record=bad)
    assert err["type"] == "error" and err["code"] == "bad_record" and words in err["message"], err
    assert conn.ask("move", move="1")["game_id"] == state["game_id"]


def test_an_oversized_record_is_refused_and_the_game_survives(conn):
    _, state = conn.create("tictactoe", ["human", "human"])
    big = {
        "format": "mancala-game",
        "version": 1,
        "game": "kalah",
        "players": ["human", "human"],
        "moves": ["1"] * 40000,
    }
    conn.send("load", record=big)
    err = conn.recv()
    assert err["code"] == "too_large" and "id" not in err  # too big to be read, its id too
    assert conn.ask("move", move="4")["board"]["cells"][4] == "X"


def test_concurrent_games_progress_independently(client):
    with client.websocket_connect("/ws") as w1, client.websocket_connect("/ws") as w2:
        a, b = Conn(w1), Conn(w2)
        a.hello()
        b.hello()
        _, sa = a.create("kalah(pits=4,seeds=3)", ["human", "alphabeta:depth=2"])
        _, sb = b.create("tictactoe", ["human", "random:seed=5"])
        assert sa["game_id"] != sb["game_id"]
        a.send("move", move="1")
        b.send("move", move="4")
        ra = a.settle(lambda s: s["ply"] >= 2 and s["to_move"] == 0 or s["result"])
        rb = b.settle(lambda s: s["ply"] == 2)
        assert rb["board"]["cells"][4] == "X" and rb["board"]["cells"].count("O") == 1
        assert ra["history"][0]["move"] == "1"
        listing = a.ask("list", "games")["games"]
        assert {sa["game_id"], sb["game_id"]} <= {g["game_id"] for g in listing}


def test_ai_vs_ai_pause_step_resume(conn):
    _, state = conn.create("tictactoe", ["random:seed=1", "random:seed=2"], move_delay=0.3)
    assert state["you"] == []
    paused = conn.ask("pause")
    assert paused["paused"] and paused["thinking"] is None
    ply = paused["ply"]
    conn.ask("step")
    stepped = conn.settle(lambda s: s["ply"] == ply + 1)
    assert stepped["paused"]
    conn.ask("resume")
    final = conn.settle(lambda s: s["result"] is not None)
    assert final["to_move"] is None
    assert conn.ask("move", move="0")["code"] in ("game_over", "not_your_turn")


def test_pause_is_refused_with_a_human_seat(conn):
    conn.create("tictactoe", ["human", "greedy"])
    assert conn.ask("pause")["code"] == "refused"


def test_view_shows_an_earlier_position(conn):
    conn.create("tictactoe", ["human", "human"])
    conn.ask("move", move="4")
    conn.ask("move", move="0")
    view = conn.ask("view", "view", ply=1)
    assert view["board"]["cells"] == list("....X....") and view["to_move"] == 1 and view["last"]["move"] == "4"
    assert conn.ask("view", "view", ply=7)["code"] == "bad_request"


def test_resign(conn):
    conn.create("tictactoe", ["human", "greedy"])
    state = conn.ask("resign")
    assert state["result"]["reason"] == "resign" and state["result"]["winner"] == 1


def test_hint_and_analysis_for_tictactoe_are_exact(conn):
    conn.create("tictactoe", ["human", "human"])
    for cell in (0, 4, 8):
        conn.ask("move", move=str(cell))
    hint = conn.ask("hint", "hint", seconds=2)
    assert hint["unit"] == "outcome" and hint["value"] == 0
    table = conn.ask("analyse", "analysis", seconds=5)
    values = {r["move"]: r["value"] for r in table["moves"]}
    # O must not take a corner: X then forks; the edges hold the draw
    assert values["1"] == 0 and values["2"] == -1 and values["6"] == -1
    assert table["solved"] and table["summary"] == "perfect play: a draw"


def test_kalah_analysis_uses_the_exact_engine(conn):
    from mancala.engine import solve

    conn.create("kalah(pits=3,seeds=2)", ["human", "human"])
    table = conn.ask("analyse", "analysis", seconds=5)
    game = make_game("kalah(pits=3,seeds=2)")
    value = solve(game, game.initial_state(), progress=False).value
    assert table["solved"] and table["moves"][0]["value"] == value
    side = "South" if value > 0 else "North"
    expected = "perfect play: a draw" if value == 0 else f"perfect play: {side} wins by {abs(value)}"
    assert table["summary"] == expected


def test_review_lists_each_move_against_the_best(conn):
    conn.create("tictactoe", ["human", "human"])
    for cell in (0, 4, 8, 2):  # O's 2 (a corner) loses to X's fork... X's 6 wins
        conn.ask("move", move=str(cell))
    review = conn.ask("review", "review", seconds=1)
    assert [r["move"] for r in review["moves"]] == ["0", "4", "8", "2"]
    blunder = review["moves"][3]
    assert blunder["value"] == -1 and blunder["best_value"] == 0 and blunder["loss"] == 1
    assert review["mistakes"][0]["ply"] == 4


def test_tree_nodes_prunes_and_counts_match_explain(conn):
    game = make_game("tictactoe")
    state = game.parse_position("XX./.O./...")
    record = {
        "format": "mancala-game",
        "version": 1,
        "game": "tictactoe",
        "players": ["human", "human"],
        "moves": ["0", "4", "1"],
    }
    rid = conn.send("load", record=record)
    conn.wait("state", rid)
    tree = conn.ask("tree", "tree", depth=2)
    lines: list[str] = []
    expected = alphabeta(game, state, 2, win_loss_percent, tracer=ExplainTracer(game, lines.append))
    assert tree["best"] == str(expected.move) and tree["nodes"]["alphabeta"] == expected.nodes
    assert tree["nodes"]["minimax"] > tree["nodes"]["alphabeta"]
    reasons = []

    def walk(node):
        if node["prune_reason"]:
            reasons.append(node["prune_reason"])
        for child in node["children"]:
            walk(child)

    walk(tree["root"])
    explained = [line.split("PRUNE: ", 1)[1].replace(" on XX./.O./...", "") for line in lines if "PRUNE: " in line]
    assert reasons and len(reasons) == len(explained)
    assert tree["root"]["window"] == ["-inf", "inf"] and tree["root"]["max"] is True
    assert conn.ask("tree", "tree", depth=9)["code"] == "bad_request"


def test_leaving_frees_the_game(client, conn):
    _, state = conn.create("tictactoe", ["human", "human"])
    assert conn.ask("leave", "left")["type"] == "left"
    games = conn.ask("list", "games")["games"]
    assert state["game_id"] not in {g["game_id"] for g in games}
    assert conn.ask("undo")["code"] == "no_game"


def test_limit_of_games_per_client():
    app = create_app(ServerConfig(hosts=TEST_HOSTS, warm=False, workers=1, max_games_per_client=1))
    with TestClient(app) as c, c.websocket_connect("/ws") as w1, c.websocket_connect("/ws") as w2:
        a, b = Conn(w1), Conn(w2)
        a.hello()
        b.hello()
        a.create("tictactoe", ["human", "human"])
        err = b.ask("create", game="tictactoe", players=["human", "human"])
        assert err["code"] == "limit"


def test_new_plays_again_with_the_same_settings_and_settings_change_the_delay(conn):
    _, first = conn.create("kalah(pits=3,seeds=2)", ["human", "greedy"])
    conn.ask("move", move="1")
    rid = conn.send("new")
    joined = conn.wait("joined", rid)
    again = conn.wait("state", rid)
    assert joined["game_id"] == again["game_id"] != first["game_id"]
    assert again["ply"] == 0 and again["game"]["spec"] == "kalah(pits=3,seeds=2)"
    assert [p["spec"] for p in again["players"]] == ["human", "greedy"]
    games = {g["game_id"] for g in conn.ask("list", "games")["games"]}
    assert first["game_id"] not in games  # the old game was left and freed
    other = conn.ask("new", game="tictactoe", players=["human", "human"])
    assert other["type"] == "state" and other["board"]["kind"] == "tictactoe"
    assert conn.ask("settings", move_delay=1.5)["move_delay"] == 1.5
    assert conn.ask("settings", move_delay=99)["move_delay"] == 10


def test_the_engine_is_warmed_in_the_background_and_announced():
    app = create_app(ServerConfig(hosts=TEST_HOSTS, warm=True, workers=1))
    with TestClient(app) as c, c.websocket_connect("/ws") as ws:
        conn = Conn(ws)
        assert conn.hello()["engine"] in ("preparing", "ready")
        _, state = conn.create("kalah", ["human", "best:time=0.2"])
        if state["engine"] == "preparing":
            assert state["status"] == "South (human) to move." or "Preparing" in state["status"]
            # a compile from an empty cache on a busy machine can take minutes: wait for the event
            conn.settle(lambda s: s["engine"] == "ready", timeout=COMPILE_WAIT)
        # the server is ready when every engine is compiled (this game's first): wait for that
        deadline = time.monotonic() + COMPILE_WAIT
        while c.get("/api/status").json()["engine"] != "ready" and time.monotonic() < deadline:
            time.sleep(0.5)
        assert c.get("/api/status").json()["engine"] == "ready"


def test_rule_options_and_an_explicit_start_position(conn):
    _, state = conn.create(
        "kalah",
        ["human", "human"],
        options={"pits": 3, "start": [1, 0, 2, 5, 2, 2, 2, 0], "first": "north", "empty_capture": True},
    )
    assert state["board"]["cells"] == [1, 0, 2, 5, 2, 2, 2, 0]
    assert state["to_move"] == 1 and state["board"]["to_move_seat"] == 1
    assert state["game"]["options"]["empty_capture"] is True
    _, bao = conn.create("bao", ["human", "human"], options={"singletons": "any", "takasia": False})
    assert bao["game"]["spec"] == "bao(singletons=any,takasia=false)"
    err = conn.ask("create", game="bao", options={"preset": "egyptian"})
    assert err["code"] == "bad_request" and "unknown Bao option" in err["message"]
