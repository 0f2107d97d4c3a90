"""Positions on the server: each game's position string in ``state`` and ``view``, a game
created at a position (``create`` with ``position``), a bad position answered in one line, and
player titles in ``state`` (docs/protocol.md)."""

from __future__ import annotations

import pytest
from server_helpers import TEST_HOSTS, Conn
from starlette.testclient import TestClient

from mancala.games import make_game
from mancala.games.bao import START_POSITION
from mancala.games.base import position_options, position_string
from mancala.server.app import create_app
from mancala.server.config import ServerConfig

pytestmark = pytest.mark.processes

#: a Bao position in the mtaji stage, North to move with a4 takasia'd (K.I.B.A. §4.5's kind)
BAO_MTAJI = "0-1-2-1-4-8-2-2/10-0-0-10-2-1-0-1/0-2-0-0-1-1-0-0/0-0-2-2-0-2-6-4/0-0/N/-/a4"


@pytest.fixture(scope="module")
def client():
    """One server for the tests of this file."""
    app = create_app(ServerConfig(hosts=TEST_HOSTS, warm=False, workers=1, idle_grace=0.0))
    with TestClient(app) as c:
        yield c


@pytest.fixture
def conn(client):
    """A connection that has said hello."""
    with client.websocket_connect("/ws") as ws:
        c = Conn(ws)
        c.hello(client="pytest")
        yield c


@pytest.mark.parametrize(
    ("spec", "text"),
    [
        ("kalah", "0-0-0-0-0-1-10-4-4-4-4-4-4-13-N"),
        ("kalah(pits=3)", "1-2-3-0-0-3-2-1-S"),
        ("oware", "0-0-0-0-0-0-1-3-3-14-11-8-0-8-N"),
        ("tictactoe", "XX./.O./..."),
        ("bao", BAO_MTAJI),
        ("bao", START_POSITION),
    ],
)
def test_a_position_string_starts_a_game_that_writes_it_back(spec, text):
    name = make_game(spec).name
    game = make_game(spec, **{k: str(v) for k, v in position_options(name, text).items()})
    assert position_string(game, game.initial_state()) == text


def test_bao_writes_its_position_string_and_starts_there():
    game = make_game("bao")
    assert position_string(game, game.initial_state()) == START_POSITION
    assert position_options("bao", f"  {BAO_MTAJI} ") == {"start": BAO_MTAJI}


def test_create_at_a_bao_position_plays_and_saves_from_there(conn):
    _, state = conn.create("bao", ["human", "human"], position=BAO_MTAJI)
    assert state["position"] == BAO_MTAJI and state["to_move"] == 1
    assert state["board"]["stock"] == [0, 0] and state["board"]["takasia"] == "a4"
    assert all(m["hole"] != "a4" for m in state["legal"] if not m["capture"])  # the takasia'd hole stays
    moved = conn.ask("move", move=state["legal"][0]["move"])
    assert moved["ply"] == 1 and moved["position"] != BAO_MTAJI
    assert conn.ask("view", "view", ply=0)["position"] == BAO_MTAJI
    record = conn.ask("save", "record")["record"]
    assert conn.ask("load", record=record)["position"] == moved["position"]


def test_create_at_a_position_and_view_carry_the_position(conn):
    _, state = conn.create("kalah", ["human", "human"], position="0-0-0-0-0-1-10-4-4-4-4-4-4-13-N")
    assert state["position"] == "0-0-0-0-0-1-10-4-4-4-4-4-4-13-N"
    assert state["to_move"] == 1 and state["board"]["cells"][6] == 10
    moved = conn.ask("move", move="6")
    assert moved["ply"] == 1 and moved["position"] != state["position"]
    view = conn.ask("view", "view", ply=0)
    assert view["position"] == state["position"]
    # the record keeps the start: saved and loaded, the game is the same
    record = conn.ask("save", "record")["record"]
    loaded = conn.ask("load", record=record)
    assert loaded["position"] == moved["position"]


@pytest.mark.parametrize(
    ("game", "position", "words"),
    [
        ("kalah", "4-4-x-S", "cannot read Kalah position"),
        ("kalah", "4-4-4-4-4-4-0-4-4-4-4-4-4-0-X", "the side to move"),
        ("oware", "1-2-3", "cannot read Oware position"),
        ("tictactoe", "XXX/OO./O..", "cannot open the position"),
        ("bao", "whatever", "cannot read Bao position"),
        ("bao", START_POSITION.replace("/S/", "/W/"), "the side to move must be S or N"),
        ("bao", START_POSITION.replace("0-2-2-6", "0-2-2-0"), "North's nyumba a5 is empty"),
        ("bao", START_POSITION + "/A3", "a takasia happens only once both stocks are empty"),
        ("kalah", "4" * 500, "at most 400 characters"),
        # digits that str.isdigit accepts and int refuses (superscripts, circled)
        ("kalah", "\u2074-4-4-4-4-4-0-4-4-4-4-4-4-0-S", "cannot read Kalah position"),
        ("kalah", "\u00b2 4 4 4 4 4 0 4 4 4 4 4 4 0", "start must be a whole number"),
        ("oware", "\u2074-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "cannot read Oware position"),
        ("bao", START_POSITION.replace("0-2-2-6", "0-2-2-\u2465"), "8 whole numbers"),
        ("bao", START_POSITION.replace("22-22", "22-\u00b2\u00b2"), "the stocks must be two whole numbers"),
    ],
)
def test_a_bad_position_is_one_clear_line_and_no_game(conn, game, position, words):
    answer = conn.ask("create", game=game, players=["human", "human"], position=position)
    assert answer["type"] == "error" and answer["code"] == "bad_request"
    assert words in answer["message"] and "\n" not in answer["message"]


def test_players_carry_their_titles(conn):
    _, state = conn.create("kalah", ["human", "medium"])
    assert [p["title"] for p in state["players"]] == ["human", "Medium AI"]


def test_moves_are_classed_by_what_they_give_away():
    from mancala.analysis import move_class

    assert move_class(3, 3, "seeds") == "best"
    assert move_class(2.5, 3, "seeds") == "good"
    assert move_class(2, 3, "seeds") == "inaccuracy"
    assert move_class(7, 10, "seeds") == "mistake"
    assert move_class(4, 10, "seeds") == "blunder"
    assert move_class(0, 1, "seeds") == "mistake"  # a win thrown away is at least a mistake
    assert move_class(-1, 1, "seeds") == "blunder"  # a win turned into a loss
    assert move_class(0, 1, "outcome") == "mistake" and move_class(-1, 1, "outcome") == "blunder"
    assert move_class(-10000, 10000, "eval") == "blunder" and move_class(9, 10, "eval") == "good"
    assert move_class("-inf", "inf", "seeds") == "blunder"
    # a game may declare thresholds of its own (its traits' move_classes): they replace its unit's
    tight = (("blunder", 3), ("mistake", 2), ("inaccuracy", 0.5))
    assert move_class(7, 10, "seeds", tight) == "blunder" and move_class(2.5, 3, "seeds", tight) == "inaccuracy"


def test_every_games_move_classes_are_known_and_largest_first():
    from mancala.analysis import MOVE_CLASSES
    from mancala.games import CATALOGUE

    for info in CATALOGUE.values():
        traits = info.traits
        classes = traits.move_classes if traits.move_classes is not None else MOVE_CLASSES[traits.value_unit]
        names = [name for name, _ in classes]
        assert set(names) <= {"inaccuracy", "mistake", "blunder"}, info.name
        losses = [least for _, least in classes]
        assert losses == sorted(losses, reverse=True) and all(least > 0 for least in losses), info.name


def test_a_review_classes_each_move(conn):
    conn.create("tictactoe", ["human", "human"])
    for move in ("4", "1", "0"):  # O's edge answer to the centre loses
        conn.ask("move", move=move)
    review = conn.ask("review", "review", seconds=0.5)
    assert [m["class"] for m in review["moves"]] == ["best", "mistake", "best"]


# --- side lines (variations) ------------------------------------------------------------------


def test_side_lines_are_tried_promoted_deleted_and_saved(conn):
    conn.create("kalah(pits=3,seeds=2)", ["human", "human"])
    for move in ("1", "2", "3"):
        state = conn.ask("move", move=move)
    main = [h["move"] for h in state["history"]]
    # from the start, another first move: a side line; the main line stays
    view = conn.ask("branch", "view", ply=0, move="2")
    assert view["line"] == 0 and view["ply"] == 1 and view["legal"]
    state = conn.ask("settings", move_delay=0)  # (a state: the broadcast went before the view)
    assert [h["move"] for h in state["history"]] == main
    assert state["variations"][0]["from"] == 0 and state["variations"][0]["moves"] == ["2"]
    # the line goes on; a move the line already has is followed, not copied
    reply = view["legal"][0]["move"]
    view = conn.ask("branch", "view", ply=1, move=reply, line=0)
    assert view["line"] == 0 and view["ply"] == 2
    again = conn.ask("branch", "view", ply=0, move="2")
    assert again["line"] == 0
    following = conn.ask("branch", "view", ply=0, move=main[0])
    assert following["line"] is None and following["ply"] == 1
    assert len(conn.ask("settings", move_delay=0)["variations"]) == 1
    # viewing a side line's position, and a bad line
    assert conn.ask("view", "view", ply=2, line=0)["line"] == 0
    assert conn.ask("view", "view", ply=1, line=7)["code"] == "bad_request"
    assert conn.ask("branch", "view", ply=1, move="9", line=0)["code"] == "illegal"
    # saved: record version 3 with the line; loaded, the tree is back
    record = conn.ask("save", "record")["record"]
    assert record["version"] == 3 and record["variations"] == [{"from": 0, "moves": ["2", reply]}]
    loaded = conn.ask("load", record=record)
    assert loaded["variations"][0]["moves"] == ["2", reply]
    # promoted: the side line is the game; the old main line is kept as a side line
    promoted = conn.ask("promote", line=0)
    assert [h["move"] for h in promoted["history"]] == ["2", reply]
    assert promoted["variations"][0] == {**promoted["variations"][0], "from": 0, "moves": main}
    # deleted
    gone = conn.ask("delete_line", line=0)
    assert gone["variations"] == []


def test_a_branch_inside_a_side_line_stays_its_child(conn):
    """The move tree nests: a line branched inside a side line is that line's child (it names
    its parent and where it leaves it), deleting the parent deletes it, and promoting the child
    leaves the parent as a line off the new main line where the two part."""
    conn.create("kalah(pits=4,seeds=3)", ["human", "human"])
    for move in ("1", "2"):
        conn.ask("move", move=move)
    # side line 0 from the start: three moves
    view = conn.ask("branch", "view", ply=0, move="3")
    line0 = ["3"]
    for _ in range(2):
        move = view["legal"][0]["move"]
        view = conn.ask("branch", "view", ply=view["ply"], move=move, line=0)
        line0.append(move)
    state = conn.ask("settings", move_delay=0)
    assert state["variations"][0]["moves"] == line0 and state["variations"][0]["parent"] is None
    assert state["variations"][0]["at"] == 0
    # inside it, after its first move, another answer: a child of line 0, not a flat copy
    inner = conn.ask("view", "view", ply=1, line=0)
    other = next(m["move"] for m in inner["legal"] if m["move"] != line0[1])
    child = conn.ask("branch", "view", ply=1, move=other, line=0)
    assert child["line"] == 1 and child["ply"] == 2
    state = conn.ask("settings", move_delay=0)
    nested = state["variations"][1]
    assert nested["parent"] == 0 and nested["at"] == 1 and nested["from"] == 0
    assert nested["moves"] == ["3", other]
    # saved and loaded: the nesting is back (the record keeps whole lines)
    record = conn.ask("save", "record")["record"]
    assert record["variations"] == [{"from": 0, "moves": line0}, {"from": 0, "moves": ["3", other]}]
    loaded = conn.ask("load", record=record)
    assert [(v["parent"], v["at"]) for v in loaded["variations"]] == [(None, 0), (0, 1)]
    # promoted, the child is the game; its parent leaves the new main line after their shared move
    promoted = conn.ask("promote", line=1)
    assert [h["move"] for h in promoted["history"]] == ["3", other]
    lines = {(v["from"], tuple(v["moves"])): v for v in promoted["variations"]}
    assert (0, ("1", "2")) in lines and (1, tuple(line0[1:])) in lines
    assert all(v["parent"] is None for v in promoted["variations"])
    # a branch inside the old main line (now a side line), then the parent deleted: both go
    old_main = next(v["id"] for v in promoted["variations"] if v["from"] == 0)
    inner = conn.ask("view", "view", ply=1, line=old_main)
    third = next(m["move"] for m in inner["legal"] if m["move"] != "2")
    branched = conn.ask("branch", "view", ply=1, move=third, line=old_main)
    state = conn.ask("settings", move_delay=0)
    assert branched["line"] == 2
    assert [v["parent"] for v in state["variations"]].count(old_main) == 1
    gone = conn.ask("delete_line", line=old_main)
    assert [tuple(v["moves"]) for v in gone["variations"]] == [tuple(line0[1:])]


def test_undo_keeps_side_lines_that_started_after_the_moves_taken_back(conn):
    conn.create("kalah(pits=3,seeds=2)", ["human", "human"])
    for move in ("1", "2"):
        conn.ask("move", move=move)
    conn.ask("branch", "view", ply=1, move="3")
    assert conn.ask("undo")["variations"][0]["from"] == 1  # (hot seat: one move at a time)
    state = conn.ask("undo")
    assert state["ply"] == 0
    assert state["variations"][0]["from"] == 0 and state["variations"][0]["moves"] == ["1", "3"]


def test_older_records_load_unchanged_and_a_bad_side_line_is_named():
    from mancala.record import record_from_json

    old = {"format": "mancala-game", "version": 1, "game": "kalah", "players": ["human", "human"], "moves": ["3"]}
    record = record_from_json(old)
    assert record.variations == [] and record.to_json()["version"] == 1
    bad = {**old, "version": 3, "variations": [{"from": 0, "moves": ["3", "9"]}]}
    with pytest.raises(Exception, match="side line 1, move 2"):
        record_from_json(bad)
    with pytest.raises(Exception, match="needs format version 3"):
        record_from_json({**old, "variations": []})


def test_the_opening_explorer_reads_kalahs_book_and_says_when_there_is_none(conn):
    conn.create("kalah", ["human", "human"])
    book = conn.ask("explore", "explorer")
    assert book["available"] and len(book["moves"]) == 6 and all(m["in_book"] for m in book["moves"])
    assert book["moves"][0] == {"move": "3", "value": 8, "in_book": True} and book["line"][:2] == ["3", "6"]
    assert book["exact"] is True  # Kalah's book is the solver's
    conn.create("bao", ["human", "human"])
    none = conn.ask("explore", "explorer")
    assert not none["available"] and "only Kalah, Oware and Togyz Kumalak have one" in none["text"]
    conn.create("oware", ["human", "human"])  # Oware's opening tree (docs/books.md)
    tree = conn.ask("explore", "explorer")
    assert tree["available"] and len(tree["moves"]) == 6 and tree["moves"][0]["move"] == tree["line"][0]
    assert tree["exact"] is False  # values of the engine's search


def test_analyse_gives_the_top_lines_when_asked(conn):
    conn.create("kalah(pits=3,seeds=2)", ["human", "human"])
    table = conn.ask("analyse", "analysis", seconds=0.3, lines=3)
    top = table["top_lines"]
    assert [t["move"] for t in top] == [m["move"] for m in table["moves"][:3]]
    assert all(t["line"][0] == t["move"] and t["turns"] for t in top)
    assert conn.ask("analyse", "analysis", lines=9)["code"] == "bad_request"
    assert "top_lines" not in conn.ask("analyse", "analysis", seconds=0.1)
