"""End-to-end tests of the board page in a real browser: Playwright (sync API) driving
Debian's chromium against the server started in-process on a free loopback port.

Screenshots of every screen, at desktop (1280x800) and phone (390x844) widths, are written to
``tests/artifacts/screenshots/`` (not committed) so a person can look at them.
Skipped, with the reason, only when chromium or Playwright is missing.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

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

SHOTS = Path(__file__).resolve().parent / "artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: the longest a test waits for the page (a hang guard, not a speed assertion)
WAIT_MS = 60_000


@pytest.fixture(scope="module")
def server_url():
    """The app on uvicorn in a thread, on a free loopback port; stopped after the module."""
    # the engine warmed at start-up, as `mancala web` does: on a cold numba cache (CI's fresh clone)
    # its first compile takes tens of seconds, and the hint, analysis and review steps need it
    with served_app(warm=True) as (url, _):
        yield url


@pytest.fixture(scope="module")
def browser():
    """One chromium for the module."""
    with playwright_sync.sync_playwright() as p:
        b = launch_chromium(p, CHROMIUM)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    """A fresh page (its own session storage) failing the test on any script error."""
    context = browser.new_context(viewport=DESKTOP, accept_downloads=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(WAIT_MS)
    expect.set_options(timeout=WAIT_MS)
    yield pg
    context.close()
    assert not errors, f"script errors on the page: {errors}"


def open_game(
    page,
    url: str,
    game: str = "kalah",
    p0: str = "human",
    p1: str = "greedy",
    options: dict | None = None,
    animate: bool = False,
) -> None:
    """Open the page on a new game and wait until its first position is drawn."""
    query = f"?game={game}&p0={p0}&p1={p1}" + ("" if animate else "&animate=0")
    if options:
        query += "&options=" + json.dumps(options, separators=(",", ":"))
    page.goto(url + query)
    page.wait_for_selector("body[data-ply]")
    expect(page.locator("#board button").first).to_be_visible()


def settled(page, ply: int | None = None) -> None:
    """Wait until no animation runs, no AI thinks and (optionally) ``ply`` moves are drawn."""
    cond = "document.body.dataset.busy !== 'animating' && document.body.dataset.thinking !== 'yes'"
    if ply is not None:
        cond += f" && document.body.dataset.ply === '{ply}'"
    page.wait_for_function(cond)


def ply(page) -> int:
    """The number of moves of the position drawn."""
    return int(page.evaluate("document.body.dataset.ply"))


def shoot(page, name: str) -> None:
    """Screenshots of the current screen at desktop and phone widths."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(120)
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def kalah_cells(page) -> dict[int, int]:
    """Every Kalah cell's count as drawn (cell index -> seeds)."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#board [data-cell]')]
        .map(e => [e.dataset.cell, Number(e.querySelector('.count').textContent)]))""")


# --- Kalah ------------------------------------------------------------------------------------


def test_kalah_click_sows_seed_by_seed_and_marks_the_extra_turn(page, server_url):
    open_game(page, server_url, "kalah", "human", "greedy", animate=True)
    expect(page.locator("#engine")).to_be_hidden()  # the test server's engine is ready at once
    # pits are labelled buttons; the legal ones highlighted
    pit3 = page.get_by_role("button", name="South pit 3: 4 seeds, legal move")
    expect(pit3).to_be_visible()
    assert page.locator(".pit.legal").count() == 6
    shoot(page, "kalah-start")
    # count the seed-by-seed frames: every sown cell lights up in turn
    page.evaluate("""() => { window.hotFrames = 0; new MutationObserver(() => {
        if (document.querySelector('#board .hot')) window.hotFrames++; })
        .observe(document.getElementById('board'), {childList: true, subtree: true}); }""")
    pit3.click()
    settled(page, 1)
    # 4 seeds from pit 3 land in pits 4, 5, 6 and South's store: extra turn
    cells = kalah_cells(page)
    assert [cells[str(c)] for c in range(7)] == [4, 4, 0, 5, 5, 5, 1]
    assert page.evaluate("window.hotFrames") >= 4
    expect(page.locator(".notice[data-kind=extra_turn]")).to_be_visible()
    expect(page.locator("#live")).to_contain_text("South plays 3")
    expect(page.locator("#to-move")).to_contain_text("Your move")
    assert page.locator(".pit.last").count() >= 1
    shoot(page, "kalah-extra-turn")
    # a pit number on the keyboard plays it; then the AI answers
    page.locator("body").press("4")
    page.wait_for_function(
        "Number(document.body.dataset.ply) >= 3 && document.body.dataset.toMove === '0' "
        "|| document.body.dataset.result === 'over'"
    )
    settled(page)
    assert ply(page) >= 3
    expect(page.locator("#history li button[data-ply]")).to_have_count(ply(page))


def test_full_kalah_game_against_the_ai_to_the_end(page, server_url):
    open_game(page, server_url, "kalah", "human", "greedy", options={"pits": 3, "seeds": 2})
    for _ in range(60):
        settled(page)
        if page.evaluate("document.body.dataset.result") == "over":
            break
        before = ply(page)
        page.locator(".pit.legal").first.click()
        page.wait_for_function(f"Number(document.body.dataset.ply) > {before}")
    expect(page.locator("#result")).to_be_visible()
    cells = kalah_cells(page)
    south, north = cells["3"], cells["7"]
    assert south + north == 12  # every seed ends in a store
    text = page.locator("#result-text").text_content()
    assert f"South store {south} – North store {north}" in text
    if south != north:
        assert ("South" if south > north else "North") in text
    expect(page.locator(".notice[data-kind=game_over]")).to_be_visible()
    assert page.locator(".pit.legal").count() == 0
    shoot(page, "kalah-game-over")
    # play again: a new game with the same settings
    old = page.evaluate("document.body.dataset.gameId")
    page.get_by_role("button", name="Play again").click()
    page.wait_for_function(f"document.body.dataset.gameId !== '{old}'")
    assert ply(page) == 0


def test_illegal_intent_shows_the_servers_reason_and_undo_redo(page, server_url):
    open_game(page, server_url, "kalah", "human", "greedy")
    page.get_by_role("button", name="South pit 3: 4 seeds, legal move").click()
    settled(page, 1)
    # pit 3 is empty now: typed anyway, the server's reason is shown
    page.fill("#move-input", "3")
    page.press("#move-input", "Enter")
    expect(page.locator("#error")).to_contain_text("pit 3 is empty")
    page.get_by_role("button", name="South pit 1: 4 seeds, legal move").click()
    page.wait_for_function("Number(document.body.dataset.ply) >= 3 && document.body.dataset.toMove === '0'")
    settled(page)
    after = ply(page)
    before_undo = kalah_cells(page)
    page.get_by_role("button", name="Undo").click()
    # undo goes back through the AI's whole turn to the human's previous decision
    settled(page, 1)
    assert kalah_cells(page)["2"] == 0 and kalah_cells(page)["0"] == 4
    page.get_by_role("button", name="Redo").click()
    settled(page, after)
    assert kalah_cells(page) == before_undo
    # the history: clicking a move shows that earlier position, and back
    page.locator("#history button[data-ply='1']").click()
    expect(page.locator("#viewing")).to_be_visible()
    assert page.evaluate("document.body.dataset.viewing") == "1"
    assert kalah_cells(page)["2"] == 0 and kalah_cells(page)["0"] == 4
    shoot(page, "kalah-history-view")
    page.get_by_role("button", name="Back to the game").click()
    expect(page.locator("#viewing")).to_be_hidden()
    assert kalah_cells(page) == before_undo
    # hint: a legal move with its value, highlighted on the board
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#hint-out")).to_contain_text("play")
    expect(page.locator("#board .hinted")).to_have_count(1)
    # a reload comes back to the same game (the resume token)
    game_id = page.evaluate("document.body.dataset.gameId")
    page.reload()
    page.wait_for_selector("body[data-ply]")
    assert page.evaluate("document.body.dataset.gameId") == game_id and kalah_cells(page) == before_undo


def test_ethiopian_arrows_and_pie_rule_swap(page, server_url):
    open_game(page, server_url, "kalah", "human", "human", options={"preset": "ethiopian", "pie_rule": True})
    arrows = page.locator(".arrow")
    assert arrows.count() == 12  # two directions on each of South's six pits
    shoot(page, "kalah-ethiopian")
    page.get_by_role("button", name="South pit 2: 4 seeds: sow counter-clockwise (2R)").click()
    settled(page, 1)
    # North may now swap sides (pie rule)
    swap = page.get_by_role("button", name="Swap sides (pie rule)")
    expect(swap).to_be_visible()
    swap.click()
    settled(page, 2)
    expect(page.locator(".notice[data-kind=swap]")).to_be_visible()


# --- tic-tac-toe and Bao -------------------------------------------------------------------


def test_tictactoe_draw(page, server_url):
    open_game(page, server_url, "tictactoe", "human", "human")
    for n, cell in enumerate([4, 0, 2, 6, 3, 5, 1, 7, 8], start=1):
        if n % 2:  # X by the keyboard (the square's number), O by clicking
            page.locator("body").press(str(cell))
        else:
            page.locator(f"#board .cell[data-cell='{cell}']").click()
        settled(page, n)
    expect(page.locator("#result-text")).to_contain_text("raw")
    marks = page.locator("#board .cell").all_text_contents()
    assert marks == ["O", "X", "X", "X", "X", "O", "O", "O", "X"]
    # the post-game review: one row per move, each against the best move
    page.get_by_role("button", name="Review the game").click()
    expect(page.locator("#review-table tbody tr")).to_have_count(9)
    shoot(page, "tictactoe-draw")


def test_bao_moves_with_a_direction_choice(page, server_url):
    open_game(page, server_url, "bao", "human", "human", animate=True)
    page.fill("#speed", "10")  # the fastest animation: every lap still drawn
    expect(page.locator("[data-stock='0']")).to_contain_text("stock 22")
    expect(page.get_by_role("button", name="South hole A5: 6 seeds, nyumba")).to_be_visible()
    shoot(page, "bao-start")
    # A6 may be sown either way: clicking it asks for the direction
    page.locator("#board [data-hole='A6']").click()
    expect(page.locator("#choice")).to_be_visible()
    shoot(page, "bao-direction-choice")
    page.locator("#choice-buttons button[data-dir='L']").click()
    settled(page, 1)
    expect(page.locator("[data-stock='0']")).to_contain_text("stock 21")
    expect(page.locator("#history button[data-ply='1']")).to_contain_text("A6L*")
    # more moves, each by clicking a legal hole and then the first direction offered
    for n in range(2, 7):
        page.locator("#board .hole.legal").first.click()
        if page.locator("#choice").is_visible():
            page.locator("#choice-buttons button.primary").first.click()
            if page.locator("#choice").is_visible():  # the nyumba choice
                page.locator("#choice-buttons button.primary").first.click()
        settled(page, n)
    stocks = [int(page.locator(f"[data-stock='{p}']").text_content().split("stock ")[1].split()[0]) for p in (0, 1)]
    assert stocks == [19, 19]
    shoot(page, "bao-after-moves")


# --- save and load ---------------------------------------------------------------------------


def test_save_and_load_and_bad_files(page, server_url, tmp_path):
    open_game(page, server_url, "kalah", "human", "greedy")
    page.get_by_role("button", name="South pit 3: 4 seeds, legal move").click()
    settled(page, 1)
    page.get_by_role("button", name="South pit 6: 5 seeds, legal move").click()
    page.wait_for_function("Number(document.body.dataset.ply) >= 3 && document.body.dataset.toMove === '0'")
    settled(page)
    moves = ply(page)
    with page.expect_download() as info:
        page.get_by_role("button", name="Save", exact=True).click()
    saved = tmp_path / "game.json"
    info.value.save_as(saved)
    record = json.loads(saved.read_text())
    assert record["format"] == "mancala-game" and record["moves"][:2] == ["3", "6"]
    assert len(record["moves"]) == moves
    cells = kalah_cells(page)
    game_id = page.evaluate("document.body.dataset.gameId")
    # a bad file: a clear message, and the current game survives
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    page.set_input_files("#load-file", str(bad))
    expect(page.locator("#error")).to_contain_text("not a JSON game record")
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"moves": ["1"] * 40000}))
    page.set_input_files("#load-file", str(big))
    expect(page.locator("#error")).to_contain_text("too large")
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({**record, "moves": ["3", "3"]}))
    page.set_input_files("#load-file", str(wrong))
    expect(page.locator("#error")).to_contain_text("Could not load")
    shoot(page, "load-error")
    assert page.evaluate("document.body.dataset.gameId") == game_id and kalah_cells(page) == cells
    # the saved file loads back (through the Load button's file chooser) as a new game at the same position
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Load…").click()
    chooser.value.set_files(str(saved))
    page.wait_for_function(f"document.body.dataset.gameId !== '{game_id}'")
    settled(page, moves)
    assert kalah_cells(page) == cells


# --- AI vs AI, analysis, review, search tree ------------------------------------------------


def test_ai_vs_ai_pause_and_step(page, server_url):
    open_game(page, server_url, "kalah", "greedy", "random:seed=3", options={"pits": 4, "seeds": 3})
    expect(page.locator("#watch")).to_be_visible()
    page.wait_for_function("Number(document.body.dataset.ply) >= 1")
    page.get_by_role("button", name="Pause").click()
    page.wait_for_function("document.body.dataset.paused === 'yes'")
    settled(page)
    paused_at = ply(page)
    page.wait_for_timeout(1500)
    assert ply(page) == paused_at  # nothing moves while paused
    shoot(page, "ai-vs-ai-paused")
    if page.evaluate("document.body.dataset.result") != "over":
        page.get_by_role("button", name="Step").click()
        settled(page, paused_at + 1)
        page.wait_for_timeout(800)
        assert ply(page) == paused_at + 1  # one move only
        # no delay between moves, then play on to the end
        page.locator("#w-delay").fill("0")
        page.locator("#w-play").click()
        page.wait_for_function("document.body.dataset.result === 'over'")
        expect(page.locator("#result")).to_be_visible()
    game_id = page.evaluate("document.body.dataset.gameId")
    page.reload()  # the same game comes back, with the delay the server holds
    page.wait_for_selector("body[data-ply]")
    assert page.evaluate("document.body.dataset.gameId") == game_id
    expect(page.locator("#w-delay-out")).to_have_text("0.0 s")


def test_analysis_review_and_search_tree(page, server_url):
    open_game(page, server_url, "kalah", "human", "greedy", options={"pits": 3, "seeds": 2})
    page.locator("#analysis-panel summary").click()
    page.get_by_role("button", name="Analyse this position").click()
    expect(page.locator("#analysis-summary")).to_contain_text("perfect play")
    expect(page.locator("#analysis-table tbody tr")).to_have_count(3)
    expect(page.locator("#analysis-table .exact").first).to_be_visible()
    expect(page.locator("#analysis")).not_to_contain_text("null")  # no stray line where a part is absent
    page.locator("#tree-panel summary").click()
    page.fill("#tree-depth", "2")
    page.get_by_role("button", name="Show the tree").click()
    expect(page.locator("#tree-counts")).to_contain_text("minimax")
    counts = page.locator("#tree-counts").text_content()
    minimax = int(counts.split("minimax ")[1].split(",")[0])
    alphabeta = int(counts.split("alpha-beta ")[1].split()[0])
    assert alphabeta <= minimax
    root = page.locator("#tree-root > li > button.toggle")
    root.click()
    expect(root).to_have_attribute("aria-expanded", "true")
    assert page.locator("#tree-root li.node").count() > 1
    # open every node: pruned branches, if any, carry the reason in words
    for _ in range(6):
        closed = page.locator("#tree-root button.toggle[aria-expanded=false]:not([disabled])")
        if closed.count() == 0:
            break
        for _ in range(closed.count()):
            closed.nth(0).click()
    if minimax > alphabeta:
        expect(page.locator("#tree-root li.pruned").first).to_contain_text("not searched")
    shoot(page, "analysis-and-tree")
    # review after a few moves: one row per move
    for _ in range(2):
        settled(page)
        if page.evaluate("document.body.dataset.result") == "over":
            break
        before = ply(page)
        page.locator(".pit.legal").first.click()
        page.wait_for_function(f"Number(document.body.dataset.ply) > {before}")
    settled(page)
    page.locator("#review-panel summary").click()
    page.get_by_role("button", name="Review the moves played").click()
    expect(page.locator("#review-table tbody tr")).to_have_count(ply(page))
    expect(page.locator("#mistakes")).to_be_visible()
    shoot(page, "review")


def test_the_ai_thinking_is_shown_with_its_time(page, server_url):
    open_game(page, server_url, "kalah", "human", "alphabeta:depth=9")
    page.get_by_role("button", name="South pit 1: 4 seeds, legal move").click()
    expect(page.locator("#thinking")).to_contain_text("North (Alpha-beta AI, depth 9) is thinking")
    expect(page.locator("#thinking")).to_contain_text(" s")
    assert page.locator(".pit.legal").count() == 0  # nothing to click while the AI thinks
    shoot(page, "kalah-ai-thinking")
    # undo works while the AI thinks: back to the start
    page.get_by_role("button", name="Undo").click()
    settled(page, 0)
    assert page.locator(".pit.legal").count() == 6


def test_the_new_game_form_is_drawn_from_the_catalogues(page, server_url):
    from mancala.games import CATALOGUE
    from mancala.players import LEVELS, player_choices

    open_game(page, server_url, "kalah", "human", "greedy")
    page.get_by_role("button", name="New game…").click()
    games = page.eval_on_selector_all("#f-game option", "os => os.map(o => o.value)")
    assert games == list(CATALOGUE)
    offered = page.eval_on_selector_all("#f-p1 option", "os => os.map(o => o.value)")
    assert offered[: len(player_choices())] == [spec for spec, _ in player_choices()]
    assert set(LEVELS) <= set(offered) and {"remote", "custom"} <= set(offered)
    for name, info in CATALOGUE.items():
        page.select_option("#f-game", name)
        sides = info.make({})
        expect(page.locator("#l-p0")).to_have_text(f"{sides.player_name(0)} plays")
        expect(page.locator("#l-p1")).to_have_text(f"{sides.player_name(1)} plays")
        assert page.locator("#f-preset").is_visible() == bool(info.presets)
        presets = page.eval_on_selector_all("#f-preset option", "os => os.map(o => o.value)")
        assert presets == list(info.presets)


def test_new_game_form_and_keyboard_only(page, server_url):
    open_game(page, server_url, "kalah", "human", "greedy")
    page.get_by_role("button", name="New game…").click()
    expect(page.locator("#new-dialog")).to_be_visible()
    assert page.locator("#f-p0").input_value() == "human" and page.locator("#f-p1").input_value() == "medium"
    page.select_option("#f-game", "kalah")
    page.fill("#f-pits", "4")
    page.fill("#f-seeds", "3")
    page.select_option("#f-p1", "greedy")
    shoot(page, "new-game-form")
    old = page.evaluate("document.body.dataset.gameId")
    page.get_by_role("button", name="Start", exact=True).click()
    page.wait_for_function(f"document.body.dataset.gameId !== '{old}'")
    assert page.locator("#board .pit").count() == 8
    # keyboard alone: focus a pit, arrow to the next one, Enter plays it
    page.locator("#board .pit.legal").first.focus()
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert focused.startswith("South pit 2: 3 seeds")
    page.keyboard.press("Enter")
    page.wait_for_function("Number(document.body.dataset.ply) >= 1")
    settled(page)
    assert page.locator("#history button[data-ply='1']").text_content().endswith("2")


def test_two_browsers_play_each_other(page, browser, server_url):
    open_game(page, server_url, "kalah", "human", "remote", options={"pits": 4, "seeds": 3})
    expect(page.locator("#invite")).to_contain_text("?join=")
    expect(page.locator("#to-move")).to_contain_text("Waiting")
    game_id = page.evaluate("document.body.dataset.gameId")
    shoot(page, "invite-remote")
    other = browser.new_context(viewport=PHONE).new_page()
    try:
        other.goto(server_url + f"?join={game_id}&animate=0")
        other.wait_for_selector("body[data-ply]")
        expect(page.locator("#invite")).to_be_hidden()
        page.get_by_role("button", name="South pit 1: 3 seeds, legal move").click()
        # the second browser sees South's move and plays North's answer
        other.wait_for_function("document.body.dataset.ply === '1'")
        assert other.locator(".pit.legal").count() == 4
        other.get_by_role("button", name="North pit 1: 3 seeds, legal move").click()
        settled(page, 2)
        expect(page.locator("#history button[data-ply='2']")).to_contain_text("North 1")
    finally:
        other.context.close()


def test_bad_options_keep_the_form_open_with_the_reason(page, server_url):
    open_game(page, server_url, "kalah", "human", "greedy")
    page.get_by_role("button", name="New game…").click()
    page.locator("#more-rules summary").click()
    page.fill("#opt-start", "1 2 3")
    page.get_by_role("button", name="Start", exact=True).click()
    expect(page.locator("#new-error")).to_contain_text("start position")
    expect(page.locator("#new-dialog")).to_be_visible()


def test_preparing_the_engine_is_shown_while_the_server_says_so(page, server_url):
    # the test server's engine is ready at once: relay its messages with the engine "preparing"
    def relay(ws):
        server = ws.connect_to_server()
        server.on_message(lambda text: ws.send(text.replace('"engine":"ready"', '"engine":"preparing"')))
        ws.on_message(lambda text: server.send(text))

    page.route_web_socket("**/ws", relay)
    open_game(page, server_url, "kalah", "human", "greedy")
    expect(page.locator("#engine")).to_be_visible()
    expect(page.locator("#engine")).to_have_text("preparing the engine…")
    shoot(page, "engine-preparing")
    page.unroute_all()


def test_the_engine_chip_and_the_thinking_line_count_down_one_estimate(page, server_url):
    # issue 32: while the game's engine compiles, the AI plays from the Python search; the header
    # chip and the thinking line show one number (the server's count, carried on alike)
    inject = {"on": False}
    detail = {"what": "compiling it for this machine (first run only)", "estimate": 60, "elapsed": 20, "left": 40}
    thinking = {
        "player": 1,
        "spec": "strongest",
        "since": 0.1,
        "doing": "engine compiling: this move from the Python search",
        "estimate": 2,
        "budget": 2,
        "engine_left": 40,
    }

    def relay(ws):
        server = ws.connect_to_server()

        def down(text: str) -> None:
            msg = json.loads(text)
            if inject["on"] and msg.get("type") == "state":
                msg.update(engine="preparing", engine_detail=detail, thinking=thinking)
                text = json.dumps(msg)
            ws.send(text)

        server.on_message(down)
        ws.on_message(lambda text: server.send(text))

    page.route_web_socket("**/ws", relay)
    open_game(page, server_url, "kalah", "human", "human")
    inject["on"] = True
    page.get_by_role("button", name="South pit 1: 4 seeds, legal move").click()
    expect(page.locator("#thinking")).to_contain_text("engine compiling: this move from the Python search")
    expect(page.locator("#thinking")).to_contain_text("budget 2 s a move")
    expect(page.locator("#engine")).to_be_visible()
    read = "() => [document.getElementById('engine').textContent, document.getElementById('thinking').textContent]"
    chip, line = page.evaluate(read)
    left_chip = re.search(r"about (\d+) s left", chip)
    left_line = re.search(r"the engine is ready in about (\d+) s", line)
    assert left_chip and left_line, (chip, line)
    assert left_chip.group(1) == left_line.group(1) and 30 <= int(left_chip.group(1)) <= 40
    shoot(page, "engine-compiling-python-move")
    page.unroute_all()


def test_the_endgame_table_chip_shows_the_background_build(page, server_url):
    # issue 29, item 4: the state's table_build (mancala/engine/table_builds.py) in the header chip
    build = {"game": "oware", "unit": "seeds", "done": 12, "size": 18, "elapsed": 30, "left": 150, "error": None}

    def relay(ws):
        server = ws.connect_to_server()

        def down(text: str) -> None:
            msg = json.loads(text)
            if msg.get("type") == "state":
                msg.update(table_build=build)
                text = json.dumps(msg)
            ws.send(text)

        server.on_message(down)
        ws.on_message(lambda text: server.send(text))

    page.route_web_socket("**/ws", relay)
    open_game(page, server_url, "kalah", "human", "greedy")
    chip = page.locator("#tables")
    expect(chip).to_be_visible()
    expect(chip).to_have_text(re.compile(r"^endgame table: 12 of 18 seeds, about (2|3) min left$"))
    shoot(page, "endgame-table-building")
    page.unroute_all()


def test_bao_kichwa_and_nyumba_choices(page, server_url):
    open_game(page, server_url, "bao", "human", "human")
    # moves typed in notation reach a position where South's A4 captures into either kichwa
    # and A8's capture may go on through the nyumba or stop there
    for n, move in enumerate(["A7R*", "a7R*", "A6L*", "a6L"], start=1):
        page.fill("#move-input", move)
        page.press("#move-input", "Enter")
        settled(page, n)
    page.locator("#board [data-hole='A4']").click()
    expect(page.locator("#choice-title")).to_contain_text("A4: which way?")
    kichwa = page.locator("#choice-buttons button.primary")
    expect(kichwa).to_have_count(2)
    expect(kichwa.nth(0)).to_contain_text("left kichwa (A1)")
    expect(kichwa.nth(1)).to_contain_text("right kichwa (A8)")
    page.keyboard.press("Escape")
    expect(page.locator("#choice")).to_be_hidden()
    page.locator("#board [data-hole='A8']").click()
    expect(page.locator("#choice-title")).to_contain_text("nyumba")
    shoot(page, "bao-nyumba-choice")
    page.get_by_role("button", name="Play the nyumba (safari) — A8>").click()
    settled(page, 5)
    expect(page.locator("#history button[data-ply='5']")).to_contain_text("A8>")


# --- issue 17, item 7: the board ---------------------------------------------------------------


def _frames(page) -> tuple[list[dict], list[dict]]:
    """The protocol messages the page sends and receives from now on (lists filled as they pass)."""
    sent: list[dict] = []
    received: list[dict] = []

    def watch(ws) -> None:
        ws.on("framesent", lambda payload: sent.append(json.loads(payload)))
        ws.on("framereceived", lambda payload: received.append(json.loads(payload)))

    page.on("websocket", watch)
    return sent, received


FLAKY_PLAYER = '''
from pathlib import Path

OUT_OF_ORDER = Path({flag!r})


class Player:
    """A starter-code player that fails while a flag file exists, else plays its first non-empty cup."""

    def __init__(self, num):
        self.num = num

    def chooseMove(self, board):
        if OUT_OF_ORDER.exists():
            raise RuntimeError("out of order")
        cups = board.P1Cups if self.num == 1 else board.P2Cups
        return next(i + 1 for i, seeds in enumerate(cups) if seeds)
'''


@pytest.fixture
def short_tmp():
    """A folder with a short path (the server takes player specs of at most 80 characters)."""
    import tempfile  # noqa: PLC0415

    folder = Path(tempfile.mkdtemp(prefix="mk"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_a_game_paused_by_a_failed_ai_move_resumes_from_the_page(page, server_url, short_tmp):
    flag = short_tmp / "out-of-order"
    flag.write_text("")
    module = short_tmp / "flaky.py"
    module.write_text(FLAKY_PLAYER.format(flag=str(flag)))
    sent, received = _frames(page)
    open_game(page, server_url, "kalah", "human", f"module:{module}")
    expect(page.locator("#watch")).to_be_hidden()  # not a game between two AIs
    expect(page.locator("#paused-bar")).to_be_hidden()
    page.get_by_role("button", name="South pit 1: 4 seeds, legal move").click()
    # the AI's move fails: the server pauses the game and says so
    page.wait_for_function("document.body.dataset.paused === 'yes'")
    expect(page.locator("#error")).to_contain_text("failed")
    resume = page.get_by_role("button", name="▶ Resume")
    expect(resume).to_be_visible()
    shoot(page, "paused-after-a-failed-ai-move")
    flag.unlink()
    resume.click()
    deadline = time.monotonic() + 30
    asked = None
    while time.monotonic() < deadline:
        asked = next((m for m in sent if m.get("type") == "resume"), None)
        answer = asked and next((m for m in received if m.get("id") == asked["id"]), None)
        if answer:
            break
        page.wait_for_timeout(100)
    assert asked is not None, "the page sent no resume"
    assert answer["type"] == "state", f"the server refused the resume: {answer}"
    assert answer["paused"] is False
    # the AI tries again, and plays now: the game goes on, the pause and its error gone
    settled(page, 2)
    expect(page.locator("#paused-bar")).to_be_hidden()
    expect(page.locator("#error")).to_be_hidden()
    assert page.evaluate("document.body.dataset.paused") == "no"


def test_an_error_goes_once_a_later_request_succeeds_and_is_shown_once(page, server_url, tmp_path):
    open_game(page, server_url, "kalah", "human", "greedy")
    page.get_by_role("button", name="South pit 3: 4 seeds, legal move").click()
    settled(page, 1)
    with page.expect_download() as info:
        page.get_by_role("button", name="Save", exact=True).click()
    saved = tmp_path / "game.json"
    info.value.save_as(saved)
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"moves": ["1"] * 40000}))
    page.set_input_files("#load-file", str(big))
    expect(page.locator("#error")).to_contain_text("too large")
    game_id = page.evaluate("document.body.dataset.gameId")
    page.set_input_files("#load-file", str(saved))  # a good file: it loads, and the error goes
    page.wait_for_function(f"document.body.dataset.gameId !== '{game_id}'")
    settled(page, 1)
    expect(page.locator("#error")).to_be_hidden()
    # an illegal move's reason goes once the next request (a hint) succeeds
    page.fill("#move-input", "3")
    page.press("#move-input", "Enter")
    expect(page.locator("#error")).to_contain_text("pit 3 is empty")
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#hint-out")).to_contain_text("play")
    expect(page.locator("#error")).to_be_hidden()
    # a panel's error is shown in that panel only, once
    page.locator("#tree-panel summary").click()
    page.fill("#tree-depth", "5")
    page.select_option("#tree-algo", "minimax")
    page.get_by_role("button", name="Show the tree").click()
    expect(page.locator("#tree-out")).to_contain_text("choose a smaller depth")
    expect(page.locator("#error")).to_be_hidden()
    assert page.evaluate("document.body.innerText.split('choose a smaller depth').length - 1") == 1


#: the bounding boxes of the count texts that overlap, and the counts wider than their pit
OVERLAPS = """() => {
  const boxes = [...document.querySelectorAll('#board .count')].map((e) => [e.textContent, e.getBoundingClientRect()]);
  const out = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [ta, a] = boxes[i], [tb, b] = boxes[j];
    if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) out.push(`${ta} overlaps ${tb}`);
  }
  for (const pit of document.querySelectorAll('#board .pit, #board .store')) {
    const p = pit.getBoundingClientRect(), c = pit.querySelector('.count').getBoundingClientRect();
    if (c.left < p.left - 0.5 || c.right > p.right + 0.5) out.push(`${pit.getAttribute('aria-label')}: count wider than the pit`);
  }
  return out;
}"""


def test_a_big_board_keeps_its_counts_apart(page, server_url):
    open_game(page, server_url, "kalah", "human", "human", options={"pits": 20, "seeds": 1000}, animate=True)
    assert page.locator("#board .count").count() == 42
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        page.wait_for_timeout(150)
        assert page.evaluate(OVERLAPS) == [], f"at {size['width']} px wide"
    page.set_viewport_size(DESKTOP)
    shoot(page, "kalah-20-pits-1000-seeds")


#: the longest the page animates one move, in ms (ANIMATION_CAP_MS in animate.js)
ANIMATION_CAP_MS = 12_000
#: page time a step of the animation may take after the cap: one frame of slack for rounding
FRAME_MS = 50


def test_sowing_a_big_pit_is_animated_within_the_cap(page, server_url):
    # sowing 1000 seeds is animated within the cap (12 s), not seed by seed for minutes.  Counted
    # on the page's clock, Playwright's fake one, paused once the board is drawn: the animation's
    # timers run only when the test moves the clock on, however busy the machine
    page.clock.install()
    open_game(page, server_url, "kalah", "human", "human", options={"pits": 20, "seeds": 1000}, animate=True)
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 1)
    page.get_by_role("button", name="South pit 20: 1000 seeds, legal move").click()
    page.wait_for_function("document.body.dataset.busy === 'animating'", timeout=3 * WAIT_MS, polling=100)
    page.clock.run_for(ANIMATION_CAP_MS // 2)
    assert page.evaluate("document.body.dataset.busy") == "animating", "the move was not animated"
    page.clock.run_for(ANIMATION_CAP_MS - ANIMATION_CAP_MS // 2 + FRAME_MS)
    shown = page.evaluate("[document.body.dataset.busy, document.body.dataset.ply]")
    assert shown == ["idle", "1"], f"still animating after {ANIMATION_CAP_MS} ms of page time: {shown}"
    page.clock.resume()
    cells = kalah_cells(page)
    assert sum(cells.values()) == 40 * 1000 and cells["19"] < 100 and cells["20"] > 0  # the board after the move
    assert page.evaluate(OVERLAPS) == []


def test_tab_visits_only_the_playable_pits_and_enter_or_space_plays(page, server_url):
    open_game(page, server_url, "kalah", "human", "human")

    def tab_through_board() -> list[str]:
        page.locator("a.skip").focus()
        seen = []
        for _ in range(20):
            page.keyboard.press("Tab")
            inside = page.evaluate("document.getElementById('board').contains(document.activeElement)")
            if not inside:
                break
            seen.append(page.evaluate("document.activeElement.getAttribute('aria-label')"))
        return seen

    # South to move: Tab visits South's six pits, none of North's
    assert tab_through_board() == [f"South pit {n}: 4 seeds, legal move" for n in range(1, 7)]
    page.keyboard.press("Shift+Tab")  # back onto South's pit 6
    assert page.evaluate("document.activeElement.getAttribute('aria-label')").startswith("South pit 6")
    page.keyboard.press("Enter")
    settled(page, 1)
    # North to move: only North's pits now; the keyboard focus stays on the board
    assert page.evaluate("document.activeElement.getAttribute('aria-label')").startswith("North pit")
    seen = tab_through_board()
    assert len(seen) == 6 and all(label.startswith("North pit") and label.endswith("legal move") for label in seen)
    page.keyboard.press("Shift+Tab")
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    page.keyboard.press(" ")
    settled(page, 2)
    assert page.locator("#history button[data-ply='2']").text_content().endswith(label.split("pit ")[1].split(":")[0])


# --- accessibility: axe-core on every screen ------------------------------------------------------


@pytest.fixture(scope="module")
def axe_script() -> Path:
    """axe-core's script, as the install step left it (fails in one line when it is missing)."""
    return axe_script_path()


def test_axe_finds_no_serious_problem_on_any_screen(page, server_url, axe_script):
    problems: list[str] = []
    open_game(page, server_url, "kalah", "human", "greedy")
    problems += axe_problems(page, axe_script, "Kalah board")
    page.get_by_role("button", name="New game…").click()
    expect(page.locator("#new-dialog")).to_be_visible()
    problems += axe_problems(page, axe_script, "new-game dialog")
    page.locator("#new-cancel").click()
    page.locator("#analysis-panel summary").click()
    page.get_by_role("button", name="Analyse this position").click()
    expect(page.locator("#analysis-table tbody tr")).to_have_count(6)
    problems += axe_problems(page, axe_script, "analysis panel")
    page.locator("#tree-panel summary").click()
    page.get_by_role("button", name="Show the tree").click()
    page.locator("#tree-root > li > button.toggle").click()
    problems += axe_problems(page, axe_script, "search-tree panel")
    page.get_by_role("button", name="South pit 1: 4 seeds, legal move").click()
    page.wait_for_function("Number(document.body.dataset.ply) >= 2")
    settled(page)
    page.locator("#review-panel summary").click()
    page.get_by_role("button", name="Review the moves played").click()
    expect(page.locator("#review-table tbody tr")).to_have_count(ply(page))
    problems += axe_problems(page, axe_script, "review panel")
    open_game(page, server_url, "bao", "human", "human")
    problems += axe_problems(page, axe_script, "Bao board")
    open_game(page, server_url, "tictactoe", "human", "human")
    problems += axe_problems(page, axe_script, "tic-tac-toe board")
    open_game(page, server_url, "kalah", "greedy", "random:seed=3", options={"pits": 4, "seeds": 3})
    expect(page.locator("#watch")).to_be_visible()
    problems += axe_problems(page, axe_script, "AI-vs-AI controls")
    assert problems == []
