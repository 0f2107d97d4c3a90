"""Oware on the board page, in a real browser: Playwright driving Debian's chromium against the
server started in-process.  A human move by click and by keyboard and the AI's reply (the board
drawn is the rules' board), a lap that skips its origin and a capture (the animation and the
notices), must-feed explained, the new-game form's Oware options, and axe-core at desktop and
phone widths.  Screenshots go to ``tests/artifacts/screenshots/oware-*.png`` (not committed).
"""

from __future__ import annotations

import json
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

from mancala.games import CATALOGUE, make_game  # noqa: E402

SHOTS = Path(__file__).resolve().parent / "artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: the longest a test waits for the page (a hang guard, not a speed assertion)
WAIT_MS = 30_000
POSITIONS = {
    p["id"]: p
    for p in json.loads((Path(__file__).resolve().parent / "data" / "oware_positions.json").read_text())["positions"]
}


@pytest.fixture(scope="module")
def server_url():
    """The app on uvicorn in a thread, on a free loopback port (no engine warm-up: Oware's
    players do not use it); stopped after the module."""
    with served_app() as (url, _):
        yield url


@pytest.fixture(scope="module")
def browser():
    """One chromium for the module."""
    with playwright_sync.sync_playwright() as p:
        b = launch_chromium(p, CHROMIUM)
        yield b
        b.close()


@pytest.fixture(params=["desktop", "phone"])
def page(request, browser):
    """A fresh page at desktop or phone width, failing the test on any script or console error."""
    with checked_page(browser, DESKTOP if request.param == "desktop" else PHONE, request.param, WAIT_MS) as pg:
        yield pg


def open_oware(page, url: str, p1: str, animate: bool) -> None:
    """A new Oware game, South the person at the board, North ``p1``."""
    page.goto(f"{url}?game=oware&p0=human&p1={p1}" + ("" if animate else "&animate=0"))
    page.wait_for_selector("body[data-game=oware][data-ply='0']")
    expect(page.locator("#board button").first).to_be_visible()


def settled(page, ply: int | None = None) -> None:
    """Wait until no animation runs, no AI thinks and (optionally) ``ply`` moves are drawn."""
    cond = "document.body.dataset.busy !== 'animating' && document.body.dataset.thinking !== 'yes'"
    if ply is not None:
        cond += f" && document.body.dataset.ply === '{ply}'"
    page.wait_for_function(cond)


def drawn(page) -> list[int]:
    """The counts drawn: the 12 houses in index order (A..F, a..f), then South's and North's stores."""
    cells = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#board [data-cell]')]
        .map(e => [e.dataset.cell, Number(e.querySelector('.count').textContent)]))""")
    return [cells[str(i)] for i in range(14)]


def rules_board(page) -> list[int]:
    """The board the rules give after the moves the page lists (the server's game)."""
    game = make_game("oware")
    state = game.initial_state()
    for text in page.locator("#history button[data-ply]").all_inner_texts():
        state = game.apply(state, game.parse_move(state, text.split()[-1]))
    return [*state.houses, *state.stores]


def type_moves(page, moves: str) -> None:
    """Play ``moves`` (letters) in **Type a move**, each once the previous one is drawn."""
    for move in moves:
        before = int(page.evaluate("document.body.dataset.ply"))
        page.fill("#move-input", move)
        page.press("#move-input", "Enter")
        settled(page, before + 1)


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"oware-{name}-{page.width_name}.png"), full_page=True)


def test_oware_human_moves_by_click_and_keyboard_and_the_ai_replies(page, server_url):
    open_oware(page, server_url, "greedy", animate=True)
    page.fill("#speed", "10")  # seed by seed, quickly
    page.dispatch_event("#speed", "input")
    expect(page.locator("#board .pit.legal")).to_have_count(6)
    assert page.locator("#board button[tabindex='-1']").count() == 6  # North's houses: not in the Tab order
    expect(page.get_by_role("img", name=re.compile(r"^North's store \(Greedy AI\): 0 seeds captured"))).to_be_visible()
    shoot(page, "start")
    # a click: C's 4 seeds go to D, E, F and a; the AI (North) answers
    page.get_by_role("button", name="House C (South), 4 seeds, legal move").click()
    page.wait_for_function("Number(document.body.dataset.ply) >= 2 && document.body.dataset.toMove === '0'")
    settled(page)
    assert drawn(page) == rules_board(page)
    assert drawn(page)[:6] == [4, 4, 0, 5, 5, 5]
    expect(page.locator("#history button[data-ply='1']")).to_contain_text("South C")
    expect(page.locator("#history button[data-ply='2']")).to_contain_text("North")
    expect(page.locator("#to-move")).to_contain_text("Your move")
    # the keyboard: Tab reaches a legal house, an arrow moves along the row, Enter plays it
    page.locator("#move-input").focus()
    for _ in range(30):  # back through the controls to the last legal house
        page.keyboard.press("Shift+Tab")
        if (page.evaluate("document.activeElement.getAttribute('aria-label')") or "").startswith("House"):
            break
    page.keyboard.press("ArrowLeft")
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert re.fullmatch(r"House [A-F] \(South\), \d+ seeds?, legal move", label), label
    page.keyboard.press("Enter")
    page.wait_for_function("Number(document.body.dataset.ply) >= 4 && document.body.dataset.toMove === '0'")
    settled(page)
    assert page.locator("#history button[data-ply='3']").text_content().endswith(label.split()[1])
    assert drawn(page) == rules_board(page)
    # a number key plays the house counted from the mover's left (1 = A)
    legal = page.evaluate("[...document.querySelectorAll('#board .pit.legal')].map(b => b.dataset.name)")
    page.locator("body").press(str("ABCDEF".index(legal[0]) + 1))
    page.wait_for_function("Number(document.body.dataset.ply) >= 6 && document.body.dataset.toMove === '0'")
    settled(page)
    assert page.locator("#history button[data-ply='5']").text_content().endswith(legal[0])
    assert drawn(page) == rules_board(page)
    shoot(page, "after-moves")


def test_oware_lap_skips_its_origin_and_the_capture_is_shown(page, server_url):
    # O-06: after CdEcAfBaDeCa, South's F holds 12: its lap skips F and the last seed captures a
    open_oware(page, server_url, "human", animate=False)
    type_moves(page, POSITIONS["O-06"]["prefix"])
    assert drawn(page)[:12] == [int(x) for x in POSITIONS["O-06"]["position"].split("-")[:12]]
    page.check("#animate")
    page.fill("#speed", "6")
    page.dispatch_event("#speed", "input")
    # every frame: F's count, the house the hand skips, the houses lit as captured
    page.evaluate("""() => { window.frames_ = []; new MutationObserver(() => {
        const f = document.querySelector('#board [data-cell="5"]');
        if (!f) return;
        const skip = document.querySelector('#board .pit.skipping');
        window.frames_.push({ f: Number(f.querySelector('.count').textContent), origin: f.classList.contains('origin'),
          skip: skip ? skip.dataset.cell : null, captured: [...document.querySelectorAll('#board .pit.captured')].map(b => b.dataset.cell),
          note: document.getElementById('notices').textContent });
      }).observe(document.getElementById('board'), { childList: true, subtree: true }); }""")
    page.get_by_role("button", name="House F (South), 12 seeds, legal move").click()
    settled(page, 13)
    frames = page.evaluate("window.frames_")
    sowing = [f for f in frames if f["origin"]]
    assert sowing and all(f["f"] == 0 for f in sowing)  # the origin stays empty through the lap
    assert any(f["skip"] == "5" for f in sowing) and not any(f["skip"] not in (None, "5") for f in frames)
    skipped_at = next(i for i, f in enumerate(frames) if f["skip"] == "5")
    captured_at = next(i for i, f in enumerate(frames) if f["captured"] == ["6"])  # a, after the skip
    assert "lap: F is skipped" in frames[skipped_at]["note"]
    assert skipped_at < captured_at and "capture: a 2" in frames[captured_at]["note"]
    expect(page.locator(".notice[data-kind=lap]")).to_contain_text("F is skipped")
    expect(page.locator(".notice[data-kind=capture]")).to_have_text("Capture of 2 (a 2)")
    expect(page.locator("#live")).to_contain_text("South plays F: 12 seeds, lapping the board and skipping F")
    assert drawn(page) == rules_board(page)
    assert drawn(page)[12] == 7  # South's store: 5 + 2
    shoot(page, "lap-capture")


def test_oware_must_feed_is_explained(page, server_url):
    # O-08: after BcFbCcDbAcEaF South's row is empty: North may only sow d, e or f
    open_oware(page, server_url, "human", animate=False)
    type_moves(page, POSITIONS["O-08"]["prefix"])
    note = page.locator("#rule-note")
    expect(note).to_have_text("South has no seeds: North must feed them, and only d, e and f reach South's row.")
    expect(page.locator("#live")).to_contain_text("North must feed them")
    assert page.evaluate("[...document.querySelectorAll('#board .pit.legal')].map(b => b.dataset.name)") == list("fed")
    shoot(page, "must-feed")
    type_moves(page, "d")
    expect(note).to_be_hidden()


def test_oware_new_game_form_offers_its_options_and_axe_finds_no_serious_problem(page, server_url):
    axe = axe_script_path()
    open_oware(page, server_url, "greedy", animate=False)
    problems = axe_problems(page, axe, "Oware board")
    page.get_by_role("button", name="New game…").click()
    page.select_option("#f-game", "oware")
    page.locator("#more-rules summary").click()
    expect(page.locator("#l-pits")).to_have_text("Houses per side")
    expect(page.locator("#f-preset option")).to_have_count(len(CATALOGUE["oware"].presets))
    page.select_option("#f-preset", "wari")
    expect(page.locator("#opt-grand_slam")).to_have_value("illegal")  # the preset's values fill the form
    expect(page.locator("#opt-capture_counts")).to_have_value("2 3")
    expect(page.locator("#opt-stop_at_majority")).not_to_be_checked()
    problems += axe_problems(page, axe, "new-game dialog (Oware)")
    shoot(page, "new-game")
    page.fill("#f-pits", "5")
    page.fill("#opt-capture_counts", "2 3 4")
    page.uncheck("#opt-must_feed")
    page.select_option("#opt-repetition", "split")
    page.locator("#new-start").click()
    page.wait_for_function("document.body.dataset.game === 'oware' && document.body.dataset.ply === '0'")
    title = page.locator("#game-title")
    for words in ("houses=5", "capture_counts=2 3 4", "must_feed=false", "grand_slam=illegal", "repetition=split"):
        expect(title).to_contain_text(words)
    expect(page.locator("#board .pit")).to_have_count(10)
    problems += axe_problems(page, axe, "Oware board, 5 houses")
    assert problems == []
