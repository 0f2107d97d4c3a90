"""The analysis board (issue 20) in a real browser: Playwright driving Debian's chromium against
the server started in-process.  Players named for people and each notice once, the status true
while a move is sown; the board turned to the person's side and flipped; the move list in turns
(numbered, extra turns grouped, keyboard navigation); links that open a position or a game.
Each screen is checked with axe-core at desktop and phone widths; screenshots go to
``tests/artifacts/screenshots/analysis-*.png`` (not committed).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

playwright_sync = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.processes,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt install chromium)"),
]

from helpers import axe_problems, axe_script_path, checked_page, launch_chromium, served_app  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

SHOTS = Path(__file__).resolve().parent / "artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: the longest a test waits for the page (a hang guard, not a speed assertion)
WAIT_MS = 30_000


@pytest.fixture(scope="module")
def server_url():
    """The app on uvicorn in a thread, on a free loopback port, its engines warmed first as
    ``mancala web`` does (the reviews, analyses and lines here use them); stopped after the
    module."""
    with served_app(warm=True) as (url, _):
        yield url


@pytest.fixture(scope="module")
def browser():
    """One chromium for the module."""
    with playwright_sync.sync_playwright() as p:
        b = launch_chromium(p, CHROMIUM)
        yield b
        b.close()


@pytest.fixture(scope="module")
def axe_script():
    """axe-core's script (installed with npm the first time)."""
    return axe_script_path()


@pytest.fixture(params=["desktop", "phone"])
def page(request, browser):
    """A fresh page at desktop or phone width, failing the test on any script or console error."""
    with checked_page(browser, DESKTOP if request.param == "desktop" else PHONE, request.param, WAIT_MS) as pg:
        yield pg


def open_page(page, url: str, query: str) -> None:
    """Open the page with ``query`` and wait until a position is drawn."""
    page.goto(url + query)
    page.wait_for_selector("body[data-ply]")


def settled(page, ply: int | None = None) -> None:
    """Wait until no animation runs, no AI thinks and (optionally) ``ply`` moves are drawn."""
    cond = "document.body.dataset.busy !== 'animating' && document.body.dataset.thinking !== 'yes'"
    if ply is not None:
        cond += f" && document.body.dataset.ply === '{ply}'"
    page.wait_for_function(cond)


def shot(page, name: str) -> None:
    """A screenshot of the page as it is, named for the screen and the width."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"analysis-{name}-{page.width_name}.png"), full_page=True)


def check_axe(page, axe_js, screen: str) -> None:
    """No serious or critical axe-core violation on the page as it is."""
    assert axe_problems(page, axe_js, f"{screen} ({page.width_name})") == []


# --- (1) names and notices ---------------------------------------------------------------------


def test_players_are_named_each_notice_once_and_the_status_is_true_while_sowing(page, server_url, axe_script):
    open_page(page, server_url, "?game=kalah&p0=human&p1=greedy&options=%7B%22pits%22%3A3%2C%22seeds%22%3A2%7D")
    expect(page.locator("#game-title")).to_contain_text("North: Greedy AI")
    expect(page.locator("#board")).to_contain_text("Greedy AI")
    assert "greedy AI" not in page.locator("body").inner_text()
    # while the person's move is sown the status says so, never "Your move"
    expect(page.locator("#animate")).to_be_checked()
    page.locator("#speed").fill("2")  # slow enough to look at
    page.evaluate("""() => { window.statuses = []; const look = () => {
        if (document.body.dataset.busy === 'animating') window.statuses.push(document.getElementById('to-move').textContent);
        requestAnimationFrame(look); }; look(); }""")
    page.get_by_role("button", name="South pit 1: 2 seeds, legal move").click()
    page.wait_for_function("document.body.dataset.ply === '1' || Number(document.body.dataset.ply) > 1")
    settled(page)
    statuses = page.evaluate("window.statuses")
    assert statuses and all("Your move" not in s for s in statuses), statuses
    assert any(s.startswith("South plays 1") for s in statuses), statuses
    page.locator("#animate").uncheck()  # the rest of the game without animation
    # play to the end: "game over" is said once on the screen
    for _ in range(40):
        settled(page)
        if page.evaluate("document.body.dataset.result") == "over":
            break
        before = int(page.evaluate("document.body.dataset.ply"))
        page.locator(".pit.legal").first.click()
        page.wait_for_function(f"Number(document.body.dataset.ply) > {before}")
    settled(page)
    expect(page.locator("#result")).to_be_visible()
    visible = page.locator("main").inner_text()
    assert visible.lower().count("game over") == 1, visible
    shot(page, "names-game-over")
    check_axe(page, axe_script, "game over")


def test_outside_and_level_players_are_named_in_the_state(server_url):
    from mancala.players import player_title

    assert player_title("medium") == "Medium AI"
    assert player_title("best:time=1") == "Best AI, 1 s a move"
    assert player_title("openspiel-mcts:sims=100000") == "OpenSpiel MCTS 100k"
    assert player_title("alphabeta:depth=6,eval=bao") == "Alpha-beta AI, depth 6, eval bao"
    assert player_title("best:depth=2") == "Best AI, depth 2"
    assert player_title("no such:thing") == "no such:thing"


# --- (2) orientation ---------------------------------------------------------------------------


def row_of(page, selector: str) -> int:
    """The grid row (from the top, on screen) the element at ``selector`` is drawn in."""
    return round(page.locator(selector).first.bounding_box()["y"])


def test_the_board_turns_to_the_persons_side_and_flips_by_button_and_key(page, server_url, axe_script):
    # Kalah: the person plays North, so North's row is drawn at the bottom
    open_page(page, server_url, "?game=kalah&p0=greedy&p1=human&animate=0")
    settled(page)
    expect(page.locator("body")).to_have_attribute("data-flipped", "yes")
    assert row_of(page, "#board [data-seat='1']") > row_of(page, "#board [data-seat='0']")
    expect(page.locator("#board .row-label").last).to_contain_text("North — you")
    expect(page.locator("#flip")).to_have_attribute("aria-pressed", "true")
    shot(page, "flip-kalah-north")
    check_axe(page, axe_script, "Kalah turned to North")
    # F turns it back; the button again
    page.locator("body").press("f")
    expect(page.locator("body")).to_have_attribute("data-flipped", "no")
    assert row_of(page, "#board [data-seat='1']") < row_of(page, "#board [data-seat='0']")
    page.get_by_role("button", name="⇅ Flip board").click()
    expect(page.locator("body")).to_have_attribute("data-flipped", "yes")
    # the person still plays from the bottom row: a click on a legal pit of North's plays it
    page.locator("#board .pit.legal").first.click()
    page.wait_for_function("Number(document.body.dataset.ply) >= 2")
    # Oware, hot seat: South at the bottom; flipped, South's row is on top, F..A
    open_page(page, server_url, "?game=oware&p0=human&p1=human&animate=0")
    expect(page.locator("body")).to_have_attribute("data-flipped", "no")
    page.locator("#flip").click()
    names = page.locator("#board .pit").evaluate_all("(bs) => bs.map((b) => b.dataset.name)")
    assert names == ["F", "E", "D", "C", "B", "A", "a", "b", "c", "d", "e", "f"]
    shot(page, "flip-oware")
    # Bao as North sees it: South's back row on top, right to left
    open_page(page, server_url, "?game=bao&p0=human&p1=human&animate=0")
    page.locator("body").press("f")
    holes = page.locator("#board .hole").evaluate_all("(bs) => bs.map((b) => b.dataset.hole)")
    assert holes[0] == "B8" and holes[-1] == "b8", holes
    shot(page, "flip-bao")
    check_axe(page, axe_script, "Bao turned round")


# --- (3) the move list ---------------------------------------------------------------------


def test_the_move_list_is_in_numbered_turns_with_values_and_keyboard_navigation(page, server_url, axe_script):
    open_page(page, server_url, "?game=kalah&p0=human&p1=human&animate=0")
    # South 3 (extra turn) and 4 make one turn; North 1; South 1
    for name in ("South pit 3", "South pit 4", "North pit 1", "South pit 1"):
        before = int(page.evaluate("document.body.dataset.ply"))
        page.get_by_role("button", name=re.compile(f"^{name}: .*legal move")).click()
        settled(page, before + 1)
    rounds = page.locator("#history li.round")
    expect(rounds).to_have_count(2)
    expect(rounds.nth(0).locator(".num")).to_have_text("1.")
    shown = "(bs) => bs.map((b) => b.lastChild.textContent)"  # the move drawn (the rest is for screen readers)
    assert rounds.nth(0).locator(".turn").nth(0).locator("button").evaluate_all(shown) == ["3", "4"]
    assert rounds.nth(0).locator(".turn").nth(1).locator("button").evaluate_all(shown) == ["1"]
    expect(rounds.nth(1).locator(".num")).to_have_text("2.")
    # the current move is marked; the list's first row is not under its heading
    expect(page.locator("#history button[aria-current=true]")).to_have_attribute("data-ply", "4")
    heading = page.locator("#h-history").bounding_box()
    first = page.locator("#history li").first.bounding_box()
    assert first["y"] >= heading["y"] + heading["height"]
    # keyboard: Home the start, → one move on, ← back, End the game as it stands
    page.locator("#history-values").focus()
    page.keyboard.press("Home")
    expect(page.locator("body")).to_have_attribute("data-viewing", "0")
    expect(page.locator("#history button[aria-current=true]")).to_have_text("Start position")
    page.keyboard.press("ArrowRight")
    expect(page.locator("body")).to_have_attribute("data-viewing", "1")
    page.keyboard.press("ArrowRight")
    expect(page.locator("body")).to_have_attribute("data-viewing", "2")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("body")).to_have_attribute("data-viewing", "1")
    expect(page.locator("#history button[aria-current=true]")).to_have_attribute("data-ply", "1")
    page.keyboard.press("End")
    expect(page.locator("body")).not_to_have_attribute("data-viewing", re.compile(".*"))
    # the values after each turn, from South's side
    page.get_by_role("button", name="Show the values").click()
    expect(page.locator("#history .turn-value")).to_have_count(3)
    shot(page, "move-list")
    check_axe(page, axe_script, "move list")


# --- (4) links -------------------------------------------------------------------------------


def test_links_open_a_position_or_a_whole_game_and_a_bad_one_says_why(page, server_url, axe_script):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    # a Kalah position: North to move, 10 seeds in South's store
    open_page(page, server_url, "?game=kalah&position=0-0-0-0-0-1-10-4-4-4-4-4-4-13-N&animate=0")
    expect(page.locator("body")).to_have_attribute("data-to-move", "1")
    expect(page.get_by_role("img", name=re.compile(r"^South store .*: 10 seeds"))).to_be_visible()
    page.get_by_role("button", name="Copy position link").click()
    link = page.locator("#share-link").input_value()
    assert "position=0-0-0-0-0-1-10-4-4-4-4-4-4-13-N" in link
    expect(page.locator("#share-note")).to_contain_text("Link to this position")
    # tic-tac-toe and Oware positions
    open_page(page, server_url, "?game=tictactoe&position=XX./.O./...&animate=0")
    expect(page.get_by_role("button", name=re.compile(r"^square 1 .*: X"))).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-to-move", "1")
    open_page(page, server_url, "?game=oware&position=0-0-0-0-0-0-1-3-3-14-11-8-0-8-N&animate=0")
    expect(page.get_by_role("button", name=re.compile(r"^House d \(North\), 14 seeds"))).to_be_visible()
    # a whole game, opened at its second move; Copy game link gives it back
    open_page(page, server_url, "?game=kalah&moves=3,4,1&ply=2&animate=0")
    expect(page.locator("body")).to_have_attribute("data-viewing", "2")
    expect(page.locator("#history button[data-ply]")).to_have_count(3)
    page.get_by_role("button", name="Copy game link").click()
    link = page.locator("#share-link").input_value()
    assert "moves=3%2C4%2C1" in link or "moves=3,4,1" in link
    assert "ply=2" in link
    shot(page, "links-game")
    check_axe(page, axe_script, "game link")
    # a Bao game by its moves: its position link too
    open_page(page, server_url, "?game=bao&moves=A6L*&animate=0")
    expect(page.locator("#history button[data-ply]")).to_have_count(1)
    page.get_by_role("button", name="Copy position link").click()
    link = page.locator("#share-link").input_value()
    assert "position=0-0-0-0-0-0-0-0/0-2-2-6-0-0-0-0/0-0-1-1-7-0-2-0/0-0-0-0-0-0-0-0/21-22/N/Hh" in link, link
    # a bad link: one clear line, and the default game instead
    open_page(page, server_url, "?game=kalah&position=4-4-x-S&animate=0")
    expect(page.locator("#error")).to_contain_text("That link cannot be opened: cannot open the position")
    expect(page.locator("#error")).to_contain_text("cannot read Kalah position")
    open_page(page, server_url, "?game=kalah&moves=3,3&animate=0")
    expect(page.locator("#error")).to_contain_text("That link cannot be opened")
    expect(page.locator("#error")).not_to_contain_text("current game")
    shot(page, "links-bad")


# --- (5) the review: graph, classes, going to a position --------------------------------------


def test_a_finished_game_is_reviewed_from_its_graph_and_its_rows(page, server_url, axe_script):
    # tic-tac-toe: O's edge answer to the centre (move 2) loses; X wins at move 7
    open_page(page, server_url, "?game=tictactoe&moves=4,1,0,8,6,2,3&animate=0")
    expect(page.locator("#history button[data-ply]")).to_have_count(7)
    page.locator("#review-panel summary").click()
    page.get_by_role("button", name="Review the moves played").click()
    points = page.locator("#eval-graph circle.pt")
    expect(points).to_have_count(8)
    assert page.locator("#eval-graph circle.pt.exact").count() >= 4  # the small positions are proven
    classes = page.locator("#review-table tbody tr").evaluate_all("(rs) => rs.map((r) => r.dataset.class)")
    assert "best" in classes and any(c in ("mistake", "blunder") for c in classes), classes
    # a point goes to its position; a review row and a mistake too
    page.locator("#eval-graph circle.pt[data-ply='3']").click()
    expect(page.locator("body")).to_have_attribute("data-viewing", "3")
    page.locator("#review-table button[data-ply='5']").click()
    expect(page.locator("body")).to_have_attribute("data-viewing", "5")
    expect(page.locator("#review-table tr.current button")).to_have_attribute("data-ply", "5")
    expect(page.locator("#eval-graph circle.pt.current")).to_have_attribute("data-ply", "5")
    first_mistake = page.locator("#mistakes button").first
    ply = first_mistake.get_attribute("data-ply")
    first_mistake.click()
    expect(page.locator("body")).to_have_attribute("data-viewing", ply)
    expect(page.locator("#mistakes button").first).to_be_focused()
    page.locator("#review-panel").scroll_into_view_if_needed()
    shot(page, "review-graph")
    check_axe(page, axe_script, "review graph")


# --- (6) side lines ----------------------------------------------------------------------------


def test_a_side_line_is_tried_from_an_earlier_position_promoted_and_deleted(page, server_url, axe_script):
    open_page(page, server_url, "?game=kalah&moves=3,4,1,1&animate=0")
    expect(page.locator("#history button[data-ply]:not(.line-move)")).to_have_count(4)
    # back to move 2; another North answer starts a side line, the game stays as it was
    page.locator("#history button[data-ply='2']:not(.line-move)").click()
    expect(page.locator("body")).to_have_attribute("data-viewing", "2")
    expect(page.locator("#viewing-text")).to_contain_text("try a side line")
    page.get_by_role("button", name=re.compile(r"^North pit 3: .*legal move")).click()
    expect(page.locator("body")).to_have_attribute("data-line", "0")
    expect(page.locator("body")).to_have_attribute("data-viewing", "3")
    line = page.locator("#history li.variation")
    expect(line).to_have_count(1)
    expect(line).to_contain_text("after move 2")
    expect(page.locator("#history button[data-ply]:not(.line-move)")).to_have_count(4)
    # the line goes on: a move in its position
    page.locator("#board .pit.legal").first.click()
    expect(line.locator("button.line-move")).to_have_count(2)
    expect(line.locator("button.line-move[aria-current=true]")).to_have_attribute("data-ply", "4")
    # ← walks back along the line, then onto the game
    page.locator("#history-values").focus()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("body")).to_have_attribute("data-viewing", "3")
    expect(page.locator("body")).to_have_attribute("data-line", "0")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("body")).to_have_attribute("data-line", "main")
    shot(page, "variation")
    check_axe(page, axe_script, "side line")
    # saved and loaded, the line is kept
    with page.expect_download() as download:
        page.get_by_role("button", name="Save", exact=True).click()
    saved = Path(download.value.path()).read_text()
    assert '"version": 3' in saved and '"variations"' in saved
    # promoted: the line is the game now, the old moves a side line
    page.get_by_role("button", name="Promote side line 1: make it the game").click()
    expect(page.locator("#history button[data-ply='3']:not(.line-move)")).to_contain_text("North 3")
    expect(page.locator("#history li.variation")).to_contain_text("1")
    # deleted
    page.get_by_role("button", name="Delete side line 1").click()
    expect(page.locator("#history li.variation")).to_have_count(0)


def test_a_branch_inside_a_side_line_is_drawn_inside_it(page, server_url, axe_script):
    open_page(page, server_url, "?game=kalah&moves=3,4,1,1&animate=0")
    page.locator("#history button[data-ply='2']:not(.line-move)").click()
    page.get_by_role("button", name=re.compile(r"^North pit 3: .*legal move")).click()
    expect(page.locator("body")).to_have_attribute("data-viewing", "3")
    page.locator("#board .pit.legal").first.click()
    expect(page.locator("body")).to_have_attribute("data-viewing", "4")
    outer = page.locator("#history li.variation[data-line='0']")
    expect(outer.locator("button.line-move")).to_have_count(2)
    # back to the line's first move, another answer there: a line inside it, not a copy
    outer.locator("button.line-move[data-ply='3']").click()
    expect(page.locator("body")).to_have_attribute("data-line", "0")
    expect(page.locator("body")).to_have_attribute("data-viewing", "3")
    page.locator("#board .pit.legal").last.click()
    inner = outer.locator("ul.sublines li.variation[data-line='1']")
    expect(inner).to_have_count(1)
    expect(inner.locator(".line-label")).to_have_text("(after move 3 of side line 1)")
    expect(inner.locator("button.line-move")).to_have_count(1)  # only its own move
    expect(page.locator("#history li.variation")).to_have_count(2)
    # ← from the inner line's move walks on along its parent
    page.locator("#history-values").focus()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("body")).to_have_attribute("data-viewing", "3")
    expect(page.locator("body")).to_have_attribute("data-line", "0")
    check_axe(page, axe_script, "nested side line")
    # deleting the outer line deletes the line inside it
    page.get_by_role("button", name="Delete side line 1").click()
    expect(page.locator("#history li.variation")).to_have_count(0)


# --- (7) the evaluation bar ------------------------------------------------------------------------


def test_the_evaluation_bar_follows_the_position_shown(page, server_url, axe_script):
    open_page(page, server_url, "?game=tictactoe&moves=4,1&animate=0")
    expect(page.locator("#eval-bar")).to_be_hidden()
    page.get_by_role("checkbox", name="Evaluation bar").check()
    bar = page.locator("#eval-bar")
    expect(bar).to_be_visible()
    # X to move after the centre and O's edge answer: a win for X, proven
    expect(bar).to_have_attribute("aria-label", re.compile(r"win for X \(exact\)"))
    assert float(page.locator("#eval-bar .eval-fill").evaluate("(e) => parseFloat(e.style.height)")) > 90
    # the start position: a draw, the bar at half
    page.locator("#history button", has_text="Start position").click()
    expect(bar).to_have_attribute("aria-label", re.compile(r"draw for X \((exact|estimate, depth \d+)\)"))
    assert page.locator("#eval-bar .eval-fill").evaluate("(e) => parseFloat(e.style.height)") == 50
    shot(page, "eval-bar")
    check_axe(page, axe_script, "evaluation bar")
    # Kalah: a value in seeds, the bar still there after a move
    open_page(page, server_url, "?game=kalah(pits=3,seeds=2)&p0=human&p1=human&animate=0")
    expect(bar).to_have_attribute("aria-label", re.compile(r"seeds for South"))
    page.get_by_role("button", name=re.compile(r"^South pit 1: .*legal move")).click()
    expect(page.locator("body")).to_have_attribute("data-ply", "1")
    expect(bar).to_have_attribute("aria-label", re.compile(r"seeds for South"))


# --- (8) the position editor ---------------------------------------------------------------------


def test_a_position_is_set_up_checked_by_the_server_and_played_from(page, server_url, axe_script):
    open_page(page, server_url, "?game=kalah&p0=human&p1=human&animate=0")
    page.get_by_role("button", name="Set up a position…").click()
    dialog = page.locator("#setup-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_label("South pit 1", exact=True).fill("0")
    dialog.get_by_label("South's store").fill("4")
    dialog.get_by_label("Side to move").select_option("N")
    expect(page.locator("#setup-position")).to_contain_text("0-4-4-4-4-4-4-4-4-4-4-4-4-0-N")
    shot(page, "setup-kalah")
    check_axe(page, axe_script, "position editor")
    dialog.get_by_role("button", name="Play from here").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("body")).to_have_attribute("data-to-move", "1")
    expect(page.get_by_role("img", name=re.compile(r"^South store .*: 4 seeds"))).to_be_visible()
    # tic-tac-toe: a position no game reaches is refused by the server, in the editor
    open_page(page, server_url, "?game=tictactoe&p0=human&p1=human&animate=0")
    page.get_by_role("button", name="Set up a position…").click()
    for square in (0, 1, 2):
        dialog.get_by_role("button", name=f"square {square}: empty (click to change)").click()
    expect(page.locator("#setup-position")).to_contain_text("XXX/.../...")
    dialog.get_by_role("button", name="Play from here").click()
    expect(page.locator("#setup-error")).to_contain_text("X moves first")
    expect(dialog).to_be_visible()
    # two of them made O: a legal position, O to move... after X's three, X to move
    dialog.get_by_role("button", name="square 2: X (click to change)").click()
    dialog.get_by_role("button", name="Play from here").click()
    expect(dialog).to_be_hidden()
    expect(page.get_by_role("button", name=re.compile(r"^square 2 .*: O"))).to_be_visible()


#: a Bao position in the mtaji stage, North to move with a4 takasia'd (K.I.B.A. §4.5)
BAO_MTAJI = "0-1-2-1-4-8-2-2/10-0-0-10-2-1-0-1/0-2-0-0-1-1-0-0/0-0-2-2-0-2-6-4/0-0/N/-/a4"


def test_a_bao_position_opens_by_its_link_and_copy_gives_the_link_back(page, server_url, axe_script):
    open_page(page, server_url, f"?game=bao&position={BAO_MTAJI}&animate=0")
    expect(page.locator("body")).to_have_attribute("data-to-move", "1")
    expect(page.get_by_role("button", name=re.compile(r"hole a4: 2 seeds, takasia"))).to_be_visible()
    expect(page.get_by_role("button", name=re.compile(r"hole a5: 10 seeds, legal"))).to_be_visible()
    expect(page.locator("[data-stock='0']")).to_contain_text("stock 0 · mtaji")
    page.get_by_role("button", name="Copy position link").click()
    link = page.locator("#share-link").input_value()
    assert f"position={BAO_MTAJI}" in link, link  # the rows' slashes left readable
    page.locator("#board").scroll_into_view_if_needed()
    shot(page, "link-bao")
    check_axe(page, axe_script, "Bao position link")
    # the link opens the same position again
    page.goto(link)
    page.wait_for_selector("body[data-ply]")
    expect(page.get_by_role("button", name=re.compile(r"hole a4: 2 seeds, takasia"))).to_be_visible()
    # a bad one: one clear line naming the field
    open_page(page, server_url, f"?game=bao&position={BAO_MTAJI.replace('/N/', '/W/')}&animate=0")
    expect(page.locator("#error")).to_contain_text("cannot read Bao position")
    expect(page.locator("#error")).to_contain_text("the side to move must be S or N")


def test_a_bao_position_is_set_up_checked_by_the_server_and_played_from(page, server_url, axe_script):
    open_page(page, server_url, "?game=bao&p0=human&p1=human&animate=0")
    page.get_by_role("button", name="Set up a position…").click()
    dialog = page.locator("#setup-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#setup-position")).to_contain_text(
        "0-0-0-0-0-0-0-0/0-2-2-6-0-0-0-0/0-0-0-0-6-2-2-0/0-0-0-0-0-0-0-0/22-22/S/Hh"
    )
    # two seeds moved from A6 to A1, North to move after South's first stock seed
    dialog.get_by_label("Hole A1 (South's front row)").fill("2")
    dialog.get_by_label("Hole A6 (South's front row)").fill("0")
    dialog.get_by_label("South's stock").fill("21")
    dialog.get_by_label("Side to move").select_option("N")
    dialog.get_by_label("Takasia'd hole").select_option("a4")
    expect(page.locator("#setup-position")).to_contain_text("/2-0-0-0-6-0-2-0/0-0-0-0-0-0-0-0/21-22/N/Hh/a4")
    page.locator("#setup-dialog").evaluate("(d) => d.scrollTop = 0")
    shot(page, "setup-bao")
    check_axe(page, axe_script, "Bao position editor")
    # refused by the server, one line each, and the editor stays open
    dialog.get_by_role("button", name="Play from here").click()
    expect(page.locator("#setup-error")).to_contain_text("a takasia happens only once both stocks are empty")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Takasia'd hole").select_option("-")
    dialog.get_by_label("Hole a5 (North's front row)").fill("0")
    dialog.get_by_role("button", name="Play from here").click()
    expect(page.locator("#setup-error")).to_contain_text("North's nyumba a5 is empty, so North cannot own it")
    expect(dialog).to_be_visible()
    dialog.get_by_label("North owns the nyumba (a5)").uncheck()
    expect(page.locator("#setup-position")).to_contain_text("/21-22/N/H")
    dialog.get_by_role("button", name="Play from here").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("body")).to_have_attribute("data-to-move", "1")
    expect(page.get_by_role("button", name=re.compile(r"hole A1: 2 seeds"))).to_be_visible()
    expect(page.get_by_role("button", name=re.compile(r"hole a5: 0 seeds"))).to_be_visible()
    expect(page.locator("[data-stock='0']")).to_contain_text("stock 21")
    # and the position as played from has its string: the editor opens on it
    page.get_by_role("button", name="Set up a position…").click()
    expect(page.locator("#setup-position")).to_contain_text(
        "0-0-0-0-0-0-0-0/0-2-2-0-0-0-0-0/2-0-0-0-6-0-2-0/0-0-0-0-0-0-0-0/21-22/N/H"
    )
    expect(dialog.get_by_label("North owns the nyumba (a5)")).not_to_be_checked()
    dialog.get_by_role("button", name="Cancel").click()
    page.locator("#board").scroll_into_view_if_needed()
    shot(page, "setup-bao-played")


def test_the_review_graphs_points_are_reached_and_used_by_keyboard(page, server_url, axe_script):
    open_page(page, server_url, "?game=tictactoe&moves=4,1,0,8,6,2,3&animate=0")
    page.locator("#review-panel summary").click()
    page.get_by_role("button", name="Review the moves played").click()
    points = page.locator("#eval-graph circle.pt")
    expect(points).to_have_count(8)
    # one point in the Tab order (the position shown: the last), named with its move and value
    expect(page.locator("#eval-graph .pt[tabindex='0']")).to_have_count(1)
    page.get_by_role("button", name="Review the moves played").focus()
    page.keyboard.press("Tab")
    last = page.locator("#eval-graph .pt[data-ply='7']")
    expect(last).to_be_focused()
    expect(last).to_have_attribute("role", "button")
    expect(last).to_have_attribute("aria-label", re.compile(r"^Go to move 7, .*: .* for .* \((exact|estimate)\)"))
    # the arrows move along the points (not through the game), Enter goes to one
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#eval-graph .pt[data-ply='5']")).to_be_focused()
    expect(page.locator("body")).not_to_have_attribute("data-viewing", re.compile("."))
    page.keyboard.press("Enter")
    expect(page.locator("body")).to_have_attribute("data-viewing", "5")
    expect(page.locator("#eval-graph circle.pt.current")).to_have_attribute("data-ply", "5")
    expect(page.locator("#eval-graph .pt[data-ply='5']")).to_be_focused()  # the focus stays on it
    # Space too; Home reaches the start
    page.keyboard.press("ArrowLeft")
    page.keyboard.press(" ")
    expect(page.locator("body")).to_have_attribute("data-viewing", "4")
    page.keyboard.press("Home")
    expect(page.locator("#eval-graph .pt[data-ply='0']")).to_be_focused()
    expect(page.locator("#eval-graph .pt[data-ply='0']")).to_have_attribute("aria-label", re.compile(r"^Go to start: "))
    page.keyboard.press("Enter")
    expect(page.locator("body")).to_have_attribute("data-viewing", "0")
    page.locator("#review-panel").scroll_into_view_if_needed()
    shot(page, "review-graph-keyboard")
    check_axe(page, axe_script, "review graph by keyboard")


# --- (9) the opening explorer ----------------------------------------------------------------------


def test_the_opening_explorer_gives_the_books_values_and_main_line(page, server_url, axe_script):
    open_page(page, server_url, "?game=kalah&p0=human&p1=human&animate=0")
    page.locator("#explorer-panel summary").click()
    table = page.locator("#explorer-table tbody tr")
    expect(table).to_have_count(6)
    # standard Kalah's book: 3 is best, worth +8 for South, and the main line starts 3 6
    expect(table.first).to_have_attribute("data-move", "3")
    expect(table.first.locator("td.num")).to_have_text("+8")
    expect(page.locator("#explorer-line")).to_contain_text("South 3 6")
    expect(table.first.locator("td").nth(2)).to_have_text("✓ exact")  # Kalah's book is proven
    # it follows the position: after 3, five moves are left
    page.get_by_role("button", name=re.compile(r"^South pit 3: .*legal move")).click()
    expect(table).to_have_count(5)
    shot(page, "explorer")
    check_axe(page, axe_script, "opening explorer")
    # Oware's book holds the engine's searched values: not called exact
    open_page(page, server_url, "?game=oware&p0=human&p1=human&animate=0")
    page.locator("#explorer-panel summary").click()
    expect(table).to_have_count(6)
    expect(page.locator("#explorer-text")).to_contain_text("values by the engine's search, not proofs")
    expect(table.first.locator("td").nth(2)).to_have_text("searched")
    check_axe(page, axe_script, "opening explorer, a searched book")
    # Bao has no book: said so
    open_page(page, server_url, "?game=bao&p0=human&p1=human&animate=0")
    page.locator("#explorer-panel summary").click()
    expect(page.locator("#explorer-text")).to_contain_text("only Kalah, Oware and Togyz Kumalak have one")


def test_search_tree_nodes_show_their_position_on_focus(page, server_url, axe_script):
    open_page(page, server_url, "?game=kalah(pits=3,seeds=2)&p0=human&p1=human&animate=0")
    page.locator("#tree-panel summary").click()
    page.get_by_role("button", name="Show the tree").click()
    root = page.locator("#tree-root > li > button.toggle")
    root.focus()
    picture = page.locator("#tree-root > li > .node-pos")
    expect(picture).to_be_visible()
    expect(picture).to_have_text("position: North 2 2 2 (store 0) · South 2 2 2 (store 0)")
    root.click()
    child = page.locator("#tree-root > li > ul > li").first
    child.locator("button.toggle, .leafnode").first.hover()
    expect(child.locator(".node-pos").first).to_be_visible()
    shot(page, "tree-position")
    check_axe(page, axe_script, "search tree positions")


def test_the_engines_top_three_lines_on_demand(page, server_url, axe_script):
    open_page(page, server_url, "?game=kalah(pits=3,seeds=2)&p0=human&p1=human&animate=0")
    page.locator("#analysis-panel summary").click()
    page.get_by_role("button", name="Top three lines").click()
    lines = page.locator("#top-lines li")
    expect(lines).to_have_count(3)
    firsts = lines.locator(".line").evaluate_all("(ls) => ls.map((l) => l.textContent.split(' ')[1])")
    assert len(set(firsts)) == 3, firsts  # three different first moves
    check_axe(page, axe_script, "top lines")


# --- done: in every game ---------------------------------------------------------------------------

EVERY_GAME = [
    ("kalah(pits=3,seeds=2)", "3,3,2,3,1,3", "1"),
    ("oware", "F,f,E,e,F,f", "A"),
    ("bao", "A7R*,a7R*,A8R*,a8R*,A6R*,a6R*", "A6L*"),
    ("tictactoe", "8,7,6,5,4,3", "0"),
]


def test_in_every_game_a_game_is_reviewed_from_its_graph_a_side_line_tried_shared_and_flipped(page, server_url):
    if page.width_name != "phone":
        pytest.skip("each screen is checked at desktop width by the tests above; this walk runs at phone width")
    for spec, moves, other in EVERY_GAME:
        open_page(page, server_url, f"?game={spec}&moves={moves}&animate=0")
        expect(page.locator("#history button[data-ply]:not(.line-move)")).to_have_count(6)
        # the review's graph: a point goes to its position
        if not page.locator("#review-panel").evaluate("(d) => d.open"):
            page.locator("#review-panel summary").click()
        page.get_by_role("button", name="Review the moves played").click()
        expect(page.locator("#eval-graph circle.pt")).to_have_count(7)
        page.locator("#eval-graph circle.pt[data-ply='2']").click()
        expect(page.locator("body")).to_have_attribute("data-viewing", "2")
        # a side line from there (typed in notation), the game untouched
        page.locator("#move-input").fill(other)
        page.locator("#move-input").press("Enter")
        expect(page.locator("body")).to_have_attribute("data-line", "0")
        expect(page.locator("#history li.variation")).to_have_count(1)
        expect(page.locator("#history button[data-ply]:not(.line-move)")).to_have_count(6)
        # shared: the position
        page.get_by_role("button", name="Copy position link").click()
        expect(page.locator("#share-link")).to_have_value(re.compile("position="))
        # flipped (tic-tac-toe has no sides)
        if spec != "tictactoe":
            before = page.locator("body").get_attribute("data-flipped")
            page.get_by_role("button", name="⇅ Flip board").click()
            expect(page.locator("body")).not_to_have_attribute("data-flipped", before)
        shot(page, f"every-game-{spec.split('(')[0]}")
