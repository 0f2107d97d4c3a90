"""Records say how games ended (issue 33): a game ended by resignation, time, disconnect or an
illegal move is saved with its end (record version 4's ``ended``; version 2's ``resigned``), so
``mancala play --load``, ``mancala analyse`` and the board show the real end; older records
(tests/data/records/) still load."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from server_helpers import TEST_HOSTS, Conn
from starlette.testclient import TestClient

from mancala.cli.main import main
from mancala.errors import BadInput
from mancala.games import make_game
from mancala.record import Ending, GameRecord, load_record, record_from_json
from mancala.server.app import create_app
from mancala.server.config import ServerConfig

RECORDS = Path(__file__).resolve().parent / "data" / "records"


# --- the record ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, over, ending, version",
    [
        ("v1-unfinished", False, None, 1),
        ("v2-resigned", True, Ending("resign", 0), 2),
        ("v3-variations", False, None, 3),
        # a results file of the server before version 4: its end only in "result"
        ("v1-server-lost-on-time", True, Ending("time", 1), 4),
    ],
)
def test_older_records_still_load(name, over, ending, version):
    record = load_record(RECORDS / f"{name}.json")
    assert record.is_over() is over and record.ending == ending
    assert record.to_json()["version"] == version  # written again as the oldest version that holds it


def test_only_an_older_servers_results_file_takes_its_end_from_its_result():
    data = json.loads((RECORDS / "v1-server-lost-on-time.json").read_text())
    assert record_from_json(data).ending == Ending("time", 1)
    del data["server"]  # a record of another program: its result is a note, the game goes on
    assert record_from_json(data).ending is None


def tictactoe(*moves: str) -> GameRecord:
    """A tic-tac-toe record of two people with ``moves`` played."""
    game = make_game("tictactoe")
    record, state = GameRecord(game, ["human", "human"]), game.initial_state()
    for text in moves:
        record.moves.append(game.parse_move(state, text))
        state = game.apply(state, record.moves[-1])
    return record


def test_an_ending_off_the_board_is_written_as_version_4_and_read_back():
    record = tictactoe("4")
    record.ending = Ending("time", 1, "ran out of time (3 s per move)")
    data = record.to_json()
    assert data["version"] == 4
    assert data["ended"] == {"reason": "time", "loser": 1, "why": "ran out of time (3 s per move)"}
    assert data["result"]["finished"] and data["result"]["winner"] == 0 and data["result"]["reason"] == "time"
    back = record_from_json(json.loads(json.dumps(data)))
    assert back.ending == record.ending and back.is_over() and back.winner() == 0
    assert back.end_text() == "O (human) ran out of time (3 s per move): X (human) wins."


def test_a_resignation_is_still_written_as_version_2():
    record = tictactoe("4")
    record.ending = Ending("resign", 0)
    data = record.to_json()
    assert data["version"] == 2 and data["resigned"] == 0 and "ended" not in data
    record.variations = [(0, tictactoe("8").moves)]
    assert record.to_json()["version"] == 3


@pytest.mark.parametrize(
    "change, words",
    [
        ({"version": 3}, '"ended" needs format version 4'),
        ({"ended": {"reason": "boredom", "loser": 0}}, 'bad "ended"'),
        ({"ended": {"reason": "time", "loser": 2}}, '"loser" must be the player who lost'),
        ({"ended": {"reason": "time", "loser": 0, "why": 5}}, '"why" must be a text'),
        ({"resigned": 0}, 'both "resigned" and "ended"'),
        ({"moves": ["0", "3", "1", "4", "2"]}, "ended on the board after move 5"),
    ],
)
def test_a_bad_ending_is_refused_in_one_line(change, words):
    data = {
        "format": "mancala-game",
        "version": 4,
        "game": "tictactoe",
        "players": ["human", "human"],
        "moves": ["4"],
        "ended": {"reason": "disconnect", "loser": 1},
    }
    data.update(change)
    with pytest.raises(BadInput, match=words):
        record_from_json(data, "g.json")


# --- server games to results files, read back by every surface ------------------------------


def server(**options) -> TestClient:
    """A test client around a fresh server with ``options``."""
    return TestClient(create_app(ServerConfig(**{"hosts": TEST_HOSTS, "warm": False, "workers": 1, **options})))


def result_file(folder: Path) -> Path:
    """The one finished game's file in a results folder."""
    [path] = [f for f in folder.glob("*.json") if f.name != "journal.json"]
    return path


def end_a_match(tmp_path: Path, how: str) -> dict:
    """Play a tic-tac-toe match against a remote player that ends by ``how`` (``resign``,
    ``time``, ``disconnect``); returns the final state (the game's file is in ``tmp_path``)."""
    clock = {"clock": {"move": 0.3}} if how == "time" else {}
    with server(results=tmp_path, grace=0.2 if how == "disconnect" else 60) as c, c.websocket_connect("/ws") as w1:
        host = Conn(w1)
        host.hello()
        joined, _ = host.create("tictactoe", ["human", "remote"], **clock)
        with c.websocket_connect("/ws") as w2:
            agent = Conn(w2)
            agent.hello(client="sleepy")
            agent.ask("join", "joined", game_id=joined["game_id"])
            host.ask("move", move="4")
            if how == "resign":
                return agent.ask("resign")
            if how == "time":  # the agent does not answer: its move clock runs out
                return host.settle(lambda s: s["result"] is not None)
        return host.settle(lambda s: s["result"] is not None)  # the agent left and does not come back


@pytest.mark.processes
@pytest.mark.parametrize(
    "how, words",
    [
        ("resign", "O (human) resigned: X (human) wins."),
        ("time", "O (human) ran out of time (0.3 s per move): X (human) wins."),
        ("disconnect", "O (human) did not come back within 0.2 s: X (human) wins."),
    ],
)
def test_a_server_game_ended_off_the_board_replays_as_ended(tmp_path, capsys, how, words):
    end = end_a_match(tmp_path, how)
    assert end["result"]["reason"] == how and end["result"]["winner"] == 0
    path = result_file(tmp_path)
    record = load_record(path)
    assert record.is_over() and record.winner() == 0 and record.ending.reason == how
    assert [str(m) for m in record.moves] == ["4"]

    assert main(["play", "--load", str(path)]) == 0  # over: nothing is read, nothing played on
    out = capsys.readouterr().out
    assert f"Game over. {words}" in out and "to move" not in out

    assert main(["analyse", str(path), "--seconds", "0.05"]) == 0
    assert f"The game is over: {words}" in capsys.readouterr().out
    assert main(["analyse", str(path), "--last", "--seconds", "0.05"]) == 0
    assert f"The game is over: {words}" in capsys.readouterr().out

    with server() as c, c.websocket_connect("/ws") as ws:  # the page opens the file: over, the same end
        page = Conn(ws)
        page.hello()
        state = page.ask("load", record=json.loads(path.read_text()))
        assert state["result"]["reason"] == how and state["result"]["winner"] == 0 and state["legal"] == []
        assert state["status"] == f"Game over. {words}"
        assert page.ask("move", move="0")["code"] == "game_over"
        saved = page.ask("save", "record")["record"]
        assert record_from_json(saved).ending == record.ending


def test_an_unfinished_game_says_who_is_to_move_in_its_review(capsys):
    assert main(["analyse", str(RECORDS / "v3-variations.json"), "--seconds", "0.05"]) == 0
    assert "The game stops here, unfinished: X (human) to move." in capsys.readouterr().out


def test_a_game_resigned_in_the_terminal_replays_as_resigned(tmp_path, capsys, monkeypatch):
    path = tmp_path / "g.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("4\nresign\n"))
    assert main(["play", "--game", "tictactoe", "--p2", "random:seed=3", "--save", str(path)]) == 0
    words = "X (human) resigned: O (random:seed=3) wins."
    assert f"Game over. {words}" in capsys.readouterr().out
    assert json.loads(path.read_text())["resigned"] == 0
    assert main(["play", "--load", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"Game over. {words}" in out and "to move" not in out
    assert main(["analyse", str(path), "--seconds", "0.05"]) == 0
    assert f"The game is over: {words}" in capsys.readouterr().out
