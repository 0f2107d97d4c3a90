"""Togyz Kumalak where people meet it: a game record as PlayOK writes it opened by
``mancala analyse`` and ``mancala play --load`` and by the board's Load (the server's ``load``
with ``text``), the server's board (houses, kazans, tuzdiks, the sowing stone by stone with a
stone into a tuzdik going on to its owner's kazan, the capture and the tuzdik made or refused
in words), and the page in a real browser drawing the tuzdik and explaining it.  The records
are made here, by our own rules, never read from ``../shared``."""

from __future__ import annotations

import random
import shutil

import pytest
from server_helpers import TEST_HOSTS, Conn
from starlette.testclient import TestClient

from mancala.cli.main import main
from mancala.games import make_game
from mancala.record import load_record
from mancala.server.app import create_app
from mancala.server.config import ServerConfig

GAME = make_game("togyz")
T07 = "X,11,1,2,13,13,13,13,12/11,11,11,11,0,9,9,9,0 10-3 N"


def playok_record(plies: int, seed: int) -> tuple[str, list]:
    """A PlayOK-style file of a random game of ``plies`` moves, and its moves."""
    rng = random.Random(seed)
    state, moves = GAME.initial_state(), []
    while len(moves) < plies and not GAME.is_terminal(state):
        move = rng.choice(GAME.legal_moves(state))
        moves.append(move)
        state = GAME.apply(state, move)
    text = GAME.write_game_text(GAME.initial_state(), moves)
    headers = '[Event "Casual"]\n[Site "PlayOK"]\n[White "alma"]\n[Black "bota"]\n[WhiteElo "1650"]\n'
    return headers + text.split("\n", 1)[1], moves


def test_a_playok_file_opens_in_analyse_and_play_load(tmp_path, capsys):
    text, moves = playok_record(14, seed=3)
    path = tmp_path / "game.txt"
    path.write_text(text)
    record = load_record(path)
    assert record.game == GAME and record.moves == moves
    assert main(["analyse", str(path), "--last", "--seconds", "0.02"]) == 0
    out = capsys.readouterr().out
    assert "best" in out.lower()
    broken = tmp_path / "broken.txt"
    broken.write_text(text.replace("1. ", "1. 15 ", 1))
    assert main(["analyse", str(broken)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert (
        len(err) == 1
        and "move 1 ('15') is illegal: '15': a sowing from house 1 ends on house 9, not 5" in err[0]
        and "broken.txt" in err[0]
    )


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(ServerConfig(hosts=TEST_HOSTS, warm=False, workers=1, idle_grace=0.0))) as c:
        yield c


@pytest.fixture
def conn(client):
    with client.websocket_connect("/ws") as ws:
        c = Conn(ws)
        c.hello(client="pytest")
        yield c


def test_the_board_loads_a_playok_file_as_text(conn):
    text, moves = playok_record(10, seed=5)
    rid = conn.send("load", text=text)
    conn.wait("joined")
    state = conn.wait("state", rid)
    assert [h["move"] for h in state["history"]] == [str(m) for m in moves]
    assert state["board"]["kind"] == "togyz"
    err = conn.ask("load", text='[Site "PlayOK"]\n\n1. zz *\n')
    assert err["code"] == "bad_record" and "not a JSON game record" in err["message"]


def test_the_server_draws_tuzdiks_and_explains_the_move(conn):
    _, state = conn.create("togyz", ["human", "human"], position=T07)
    board = state["board"]
    assert board["tuzdiks"] == [None, 0] and board["cells"][18:] == [10, 3]
    after = conn.ask("move", move="3")
    assert after["to_move"] == 0
    last = after["last"]
    kinds = [step["kind"] for step in last["steps"]]
    assert kinds[0] == "pickup" and "deliver" in kinds
    deliver = next(step for step in last["steps"] if step["kind"] == "deliver")
    assert deliver["cell"] == 0 and deliver["store"] == 19
    notices = " ".join(n["text"] for n in last["notices"])
    assert "1 stone fell into North's tuzdik" in notices and "North already has a tuzdik" in notices
    assert after["board"]["cells"][18:] == [10, 4]


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.browser
@pytest.mark.processes
@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt install chromium)")
def test_the_page_draws_the_tuzdik_and_plays_a_togyz_move(tmp_path):
    playwright_sync = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    from urllib.parse import quote  # noqa: PLC0415

    from helpers import checked_page, launch_chromium, served_app  # noqa: PLC0415

    with served_app() as (url, _), playwright_sync.sync_playwright() as p:
        browser = launch_chromium(p, CHROMIUM)
        with checked_page(browser, {"width": 1280, "height": 800}, "desktop", 30_000) as page:
            page.goto(f"{url}?game=togyz&p0=human&p1=human&animate=0&position={quote(T07)}")
            page.wait_for_selector("body[data-game=togyz][data-ply='0']")
            tuzdik = page.locator("#board button.tuzdik")
            assert tuzdik.count() == 1
            assert "North's tuzdik" in (tuzdik.get_attribute("aria-label") or "")
            page.locator("#board button.legal[data-cell='11']").click()
            page.wait_for_selector("body[data-ply='1']")
            assert "North already has a tuzdik" in page.inner_text("body")
            page.set_input_files("#load-file", str(_write_record(tmp_path)))
            page.wait_for_selector("body[data-ply='6']")
            # the editor: North's tuzdik on South's house 1 (its 9 stones already in North's kazan)
            page.goto(f"{url}?game=togyz&p0=human&p1=human&animate=0")
            page.wait_for_selector("body[data-game=togyz][data-ply='0']")
            page.click("#setup")
            page.select_option("#setup-tuzdik-1", "0")
            page.fill('input[aria-label="North\'s kazan"]', "9")
            assert page.inner_text("#setup-position") == "Position string: X,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0-9 S"
            page.click("#setup-start")
            page.wait_for_function("document.querySelectorAll('#board button.tuzdik').length === 1")
            assert page.locator("#board button.tuzdik").get_attribute("data-cell") == "0"
        browser.close()


def _write_record(tmp_path):
    text, _ = playok_record(6, seed=9)
    path = tmp_path / "playok.txt"
    path.write_text(text)
    return path


@pytest.mark.browser
@pytest.mark.processes
@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt install chromium)")
@pytest.mark.parametrize("spec, moves", [("kalah", ["3", "6"]), ("togyz", ["9", "5", "1"]), ("oware", ["C", "d"])])
def test_the_moves_copy_out_as_text_and_paste_back_in(spec, moves):
    """Copy moves as text gives the game's own text (PlayOK's two-digit moves for Togyz
    Kumalak); Paste moves… opens it, or a bare move list of the game shown, as a new game at
    the same position; a move list with an illegal move says which, in the dialog."""
    playwright_sync = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    from helpers import checked_page, launch_chromium, served_app  # noqa: PLC0415

    with served_app() as (url, _), playwright_sync.sync_playwright() as p:
        browser = launch_chromium(p, CHROMIUM)
        with checked_page(browser, {"width": 1280, "height": 800}, "desktop", 30_000) as page:
            page.goto(f"{url}?game={spec}&p0=human&p1=human&animate=0")
            page.wait_for_selector(f"body[data-game={spec}][data-ply='0']")
            for k, move in enumerate(moves, start=1):
                page.fill("#move-input", move)
                page.press("#move-input", "Enter")
                page.wait_for_selector(f"body[data-ply='{k}']")
            page.click("#copy-moves")
            page.wait_for_function("document.querySelector('#share-text').value.length > 0")
            text = page.input_value("#share-text")
            assert f'[Game "{spec}"]' in text
            if spec == "togyz":
                assert "1. 98(10)" in text  # PlayOK's moves: house 9 lands on North's 8, kazan 10
            board = page.inner_text("#board")
            page.goto(f"{url}?game={spec}&p0=human&p1=human&animate=0")
            page.wait_for_selector(f"body[data-game={spec}][data-ply='0']")
            page.click("#paste-moves")
            page.fill("#paste-text", text)
            page.click("#paste-open")
            page.wait_for_selector(f"body[data-ply='{len(moves)}']")
            assert page.inner_text("#board") == board
            page.click("#paste-moves")
            page.fill("#paste-text", f"{moves[0]} zz")  # a bare move list, its second move no move
            page.click("#paste-open")
            page.wait_for_selector("#paste-error:not([hidden])")
            assert "move 2" in page.inner_text("#paste-error")
            page.keyboard.press("Escape")
            page.click("#paste-moves")
            page.fill("#paste-text", " ".join(moves[:1]))
            page.click("#paste-open")
            page.wait_for_selector("body[data-ply='1']")
        browser.close()
