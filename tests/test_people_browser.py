"""People play people in real browsers (Playwright driving Debian's chromium, two and three
browser contexts against one server): the name asked once and kept, the lobby of open games
with Join and Watch, the invite link and its copy button, "you" and "Your move" on the joiner's
page, a full game's link opening to watch with a note, a finished game's link opening it
read-only after the server freed it, an unknown game's link, a dropped player's seat held,
and the clock running for both players.  axe-core checks the lobby and the name form at phone
and desktop widths.

Every wait is on the page's elements or data (never a sleep and a look at the clock).
"""

from __future__ import annotations

import re
import shutil

import pytest

playwright_sync = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.processes,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt install chromium)"),
]

from helpers import axe_problems, axe_script_path, launch_chromium, served_app  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: the longest a test waits for the page (a hang guard, not a speed assertion)
WAIT_MS = 60_000
#: a small Kalah, quick to play through
SMALL = '{"pits":4,"seeds":3}'


@pytest.fixture(scope="module")
def server_url():
    """A server as ``mancala serve`` sets one up for people: a clock for games with a remote
    seat (here 5 min a game, 2 min a move); the engines are not needed."""
    with served_app(warm=False, clock={"move": 120, "game": 300}) as (url, _):
        yield url


@pytest.fixture(scope="module")
def browser():
    """One chromium for the module."""
    with playwright_sync.sync_playwright() as p:
        b = launch_chromium(p, CHROMIUM)
        yield b
        b.close()


@pytest.fixture
def people(browser):
    """Makes pages, each in its own browser context (its own storage: another person), with
    a name already kept (``name``) or none; fails the test on any script error."""
    contexts = []
    errors: list[str] = []

    def make(name: str | None = None, viewport: dict = DESKTOP):
        context = browser.new_context(viewport=viewport)
        if name is not None:
            context.add_init_script(f"localStorage.setItem('mancala-name', {name!r})")
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.set_default_timeout(WAIT_MS)
        contexts.append(context)
        return page

    expect.set_options(timeout=WAIT_MS)
    yield make
    for context in contexts:
        context.close()
    assert not errors, f"script errors on the pages: {errors}"


def open_remote_game(page, url: str) -> str:
    """Open a small Kalah whose North seat waits for another browser; returns its id."""
    page.goto(url + f"?game=kalah&p0=human&p1=remote&options={SMALL}&animate=0")
    page.wait_for_selector("body[data-ply]")
    expect(page.locator("#to-move")).to_contain_text("Waiting")
    return page.evaluate("document.body.dataset.gameId")


def test_two_people_meet_in_the_lobby_a_third_watches_and_a_dropped_seat_is_held(people, server_url):
    # A has no name yet: the page asks once; the name is kept and shown
    a = people()
    a.goto(server_url + "?animate=0")
    a.wait_for_selector("body[data-ply]")
    expect(a.locator("#name-form")).to_be_visible()
    a.get_by_label("Your name").fill("  Ann  ")
    a.get_by_role("button", name="Save name").click()
    expect(a.locator("#name-shown")).to_contain_text("You are Ann")
    assert a.evaluate("localStorage.getItem('mancala-name')") == "Ann"
    game_id = open_remote_game(a, server_url)
    expect(a.locator("#name-form")).to_be_hidden()  # asked once: kept in this browser
    expect(a.locator("#game-title")).to_contain_text("South: you (Ann)")
    # the invite: its link and a copy button (the clipboard, else the link selected)
    expect(a.locator("#invite")).to_contain_text(f"?join={game_id}")
    a.get_by_role("button", name="Copy invite link").click()
    expect(a.locator("#invite-note")).to_have_text(re.compile("copied|selected"))

    # B (a phone) finds the game in the lobby: game, rules, clock, who waits; joins it
    b = people("Bob", PHONE)
    b.goto(server_url + "?animate=0")
    b.wait_for_selector("body[data-ply]")
    entry = b.locator(f"#lobby-list li[data-game-id='{game_id}']")
    expect(entry).to_contain_text("Kalah")
    expect(entry).to_contain_text("5 min a game, 120 s a move")
    expect(entry).to_contain_text("South: Ann")
    expect(entry).to_contain_text("North: free seat")
    entry.get_by_role("button", name="Join as North").click()
    b.wait_for_function(f"document.body.dataset.gameId === '{game_id}'")
    expect(b.locator("#game-title")).to_contain_text("North: you (Bob)")
    expect(b.locator("#game-title")).to_contain_text("South: Ann")
    expect(a.locator("#game-title")).to_contain_text("North: Bob")
    expect(a.locator("#invite")).to_be_hidden()
    expect(a.locator("#history-players")).to_contain_text("North: Bob")
    # the lobby now lists the game as full: to watch
    expect(a.locator(f"#lobby-list li[data-game-id='{game_id}']")).to_contain_text("This is the game shown here")

    # the clock runs for South first, then for North, on both pages
    expect(a.locator("#to-move")).to_have_text(re.compile("^Your move"))
    expect(a.locator("#clock")).to_contain_text("◂")
    expect(b.locator("#clock")).to_contain_text(re.compile(r"South \d+:\d\d ◂"))
    a.get_by_role("button", name="South pit 1: 3 seeds, legal move").click()
    b.wait_for_function("document.body.dataset.ply === '1'")
    expect(b.locator("#to-move")).to_have_text(re.compile("^Your move"))
    expect(b.locator("#clock")).to_contain_text(re.compile(r"North \d+:\d\d ◂"))
    expect(a.locator("#clock")).to_contain_text(re.compile(r"North \d+:\d\d ◂"))
    expect(a.locator("#to-move")).not_to_contain_text("Your move")

    # C opens the game's link: both seats are taken, so C watches, with a note
    c = people("Cleo")
    c.goto(server_url + f"?join={game_id}&animate=0")
    c.wait_for_function(f"document.body.dataset.gameId === '{game_id}'")
    expect(c.locator("#join-note")).to_have_text("Both seats are taken: you are watching.")
    expect(c.locator("#game-title")).to_contain_text("South: Ann · North: Bob")
    expect(c.locator("#resign")).to_be_disabled()
    b.get_by_role("button", name="North pit 1: 3 seeds, legal move").click()
    c.wait_for_function("document.body.dataset.ply === '2'")
    a.wait_for_function("document.body.dataset.ply === '2'")
    # each move in the list names who made it
    expect(c.locator("#history button[data-ply='2']")).to_contain_text("North (Bob) 1")
    expect(c.locator("#history button[data-ply='1']")).to_contain_text("South (Ann) 1")

    # B's connection drops: the others see the seat held for the grace period
    b.context.close()
    expect(a.locator("#game-title")).to_contain_text(re.compile(r"North: Bob — reconnecting… \(held \d+ s\)"))
    expect(c.locator("#game-title")).to_contain_text("reconnecting…")


def test_a_link_gives_the_seat_and_an_unknown_game_a_note_and_the_lobby(people, server_url):
    # A makes the game with the new-game dialog: North for another client, a clock of its own
    a = people("Ann")
    a.goto(server_url + "?animate=0")
    a.wait_for_selector("body[data-ply]")
    a.get_by_role("button", name="New game…").click()
    a.select_option("#f-game", "kalah")
    a.select_option("#f-p1", "remote")
    a.get_by_label("Clock").select_option(label="30 s a move")
    a.get_by_role("button", name="Start", exact=True).click()
    expect(a.locator("#to-move")).to_contain_text("Waiting")
    game_id = a.evaluate("document.body.dataset.gameId")
    expect(a.locator("#clock")).to_contain_text("at most 30 s a move")
    b = people()  # no name given: the other side calls this person a guest
    b.goto(server_url + f"?join={game_id}&animate=0")
    b.wait_for_function(f"document.body.dataset.gameId === '{game_id}'")
    expect(b.locator("#game-title")).to_contain_text("North: you")
    expect(a.locator("#game-title")).to_contain_text("North: Guest")
    a.get_by_role("button", name="South pit 1: 4 seeds, legal move").click()
    expect(b.locator("#to-move")).to_have_text(re.compile(r"^Your move \(North\)"))
    expect(b.locator("#clock")).to_contain_text(re.compile(r"South – · North 0:[0-3]\d ◂ \(at most 30 s a move\)"))
    expect(b.locator("#join-note")).to_be_hidden()

    d = people("Dan")
    d.goto(server_url + "?join=gdeadbeef&animate=0")
    d.wait_for_selector("body[data-ply]")
    expect(d.locator("#error")).to_contain_text("That link cannot be opened: no game 'gdeadbeef' on this server")
    expect(d.locator("#error")).to_contain_text("The open games are listed under “Play people”.")
    expect(d.locator("#lobby-list li[data-game-id]").first).to_be_visible()  # A's game, to watch


def test_a_finished_game_freed_from_memory_opens_from_its_link_read_only(people, server_url):
    # A opens a finished tic-tac-toe game from a link, then plays again: the server frees it
    a = people("Ann")
    a.goto(server_url + "?game=tictactoe&p0=human&p1=human&moves=0,3,1,4,2&animate=0")
    a.wait_for_function("document.body.dataset.ply === '5' && document.body.dataset.result === 'over'")
    game_id = a.evaluate("document.body.dataset.gameId")
    text = a.locator("#result-text").text_content()
    a.get_by_role("button", name="Play again").click()
    a.wait_for_function(f"document.body.dataset.gameId !== '{game_id}'")
    # its link still opens it, from the record the server kept: the end, the moves, the result
    b = people("Bob")
    b.goto(server_url + f"?join={game_id}&animate=0")
    b.wait_for_function(f"document.body.dataset.gameId === '{game_id}'")
    b.wait_for_function("document.body.dataset.ply === '5' && document.body.dataset.result === 'over'")
    expect(b.locator("#join-note")).to_have_text("That game is over: you are watching its end.")
    expect(b.locator("#result-text")).to_have_text(text)
    expect(b.locator("#history li button[data-ply]")).to_have_count(5)
    expect(b.locator("#error")).to_be_hidden()
    assert b.locator(".legal").count() == 0


def test_a_refused_name_is_said_under_the_form(people, server_url):
    a = people()
    a.goto(server_url + "?animate=0")
    a.wait_for_selector("body[data-ply]")
    a.get_by_label("Your name").fill("Ann\u200bLee")  # a format character (zero width space): not printable
    a.get_by_role("button", name="Save name").click()
    expect(a.locator("#name-error")).to_contain_text("printable")
    assert a.evaluate("localStorage.getItem('mancala-name')") is None


def test_axe_finds_no_serious_problem_in_the_lobby_and_the_name_form(people, server_url):
    script = axe_script_path()
    problems = []
    host = people("Ann")
    open_remote_game(host, server_url)
    for label, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = people(None, viewport)
        page.goto(server_url + "?animate=0")
        page.wait_for_selector("body[data-ply]")
        expect(page.locator("#lobby-list .join").first).to_be_visible()
        expect(page.locator("#name-form")).to_be_visible()
        problems += axe_problems(page, script, f"lobby and name form ({label})")
        page.get_by_label("Your name").fill("Zoë")
        page.get_by_role("button", name="Save name").click()
        expect(page.locator("#name-shown")).to_be_visible()
        problems += axe_problems(page, script, f"lobby with a name kept ({label})")
    problems += axe_problems(host, script, "invite with its copy button")
    assert not problems, "\n".join(problems)
