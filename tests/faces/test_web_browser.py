"""The playground used in a real browser: Debian's Chromium driven by Playwright, against a server on loopback.

CI installs Chromium (.ci/run); these tests are never skipped for want of it.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlparse

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from gridbot import games, levels, render
from gridbot.games import carrots

from .test_web import CARROTS_12, LONG, gone
from .web_server import serve

pytestmark = pytest.mark.clock  # every test here measures time: run alone, not beside others

CHROMIUM = "/usr/bin/chromium"
expect.set_options(timeout=20_000)  # the machine may be busy: a run or a level load can take seconds
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]  # fmt: skip


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serve(max_solves=2) as (base, _):
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("request", lambda r: errors.append(f"left loopback: {r.url}") if not _local(r.url, server) else None)
    open_page(page, server)
    yield page
    context.close()
    assert errors == []


def _local(url: str, server: str) -> bool:
    return url.startswith("data:") or urlparse(url).netloc == urlparse(server).netloc


def open_page(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")


def choose(page: Page, game: str, level: str) -> None:
    page.select_option("#game", game)
    settled(page)
    expect(page.locator(f"#level option[value='{level}']")).to_have_count(1)
    page.select_option("#level", level)
    expect(page.locator("#verdict")).to_contain_text(f"{game}:{level}")
    settled(page)


def settled(page: Page) -> None:
    """Wait until the page has no request in flight (app.js counts them in body[data-busy])."""
    page.wait_for_selector("body[data-busy='0']", state="attached")


def run(page: Page, program: str) -> None:
    page.fill("#program", program)
    page.click("#run")
    settled(page)


# A first move in each game's notation: the page's job is to show a run, whatever its verdict.
FIRST_MOVE = {"carrots": "F", "pellet": "r", "torch_cave": "r", "bender": "SOUTH", "lightbot": "F",
              "robos_escape": "F", "robozzle": "F"}  # fmt: skip


@pytest.mark.parametrize("game", games.GAMES)
def test_each_game_runs_a_program_to_its_final_picture(page, game):
    name = levels.names(game)[0]
    level = levels.load(f"{game}:{name}")
    choose(page, game, name)
    expect(page.locator("#board svg desc")).to_have_count(1)  # the level's picture
    run(page, FIRST_MOVE[game])
    verdict = games.get(game).run(level, FIRST_MOVE[game]).verdict
    expect(page.locator("#verdict")).to_contain_text(f"{'✔' if verdict.won else '✘'} {verdict}")
    steps = page.evaluate("state.steps")
    expect(page.locator("#step-label")).to_have_text(f"step {steps} of {steps}")  # the final picture, shown
    assert page.evaluate("state.frames[state.index].svg") == render.svg(level, FIRST_MOVE[game])
    assert page.locator("#last").is_disabled()


def test_step_through_a_run(page):
    choose(page, "carrots", "12")
    run(page, CARROTS_12)
    label = page.locator("#step-label")
    expect(label).to_contain_text("step 369 of 369")
    final = page.inner_html("#board")
    page.click("#first")
    expect(label).to_contain_text("step 0 of 369")
    start = page.inner_html("#board")
    assert start != final
    page.click("#forward")
    expect(label).not_to_contain_text("step 0 ")
    assert page.inner_html("#board") not in (start, final)
    page.click("#back")
    expect(label).to_contain_text("step 0 of 369")
    assert page.inner_html("#board") == start
    page.fill("#speed", "30")  # a range input: fill sets its value and fires input
    page.click("#play")
    expect(page.locator("#play")).to_have_text("Pause")
    page.wait_for_function("() => state.index >= 5")
    page.click("#play")
    expect(page.locator("#play")).to_have_text("Play")
    paused = page.evaluate("state.index")
    page.wait_for_timeout(300)
    assert page.evaluate("state.index") == paused and 5 <= paused < 199
    page.click("#last")
    expect(label).to_contain_text("step 369 of 369")
    assert page.inner_html("#board") == final


def test_solve_carrots_12_shows_the_optimal_program(page):
    choose(page, "carrots", "12")
    page.fill("#time-limit", "60")
    page.click("#solve")
    expect(page.locator("#solve-status")).to_contain_text("Proven optimal: 8 tokens", timeout=90_000)
    solution = page.inner_text("#solution")
    assert carrots.parse_program(solution).tokens == 8
    page.click("#use-solution")
    expect(page.locator("#program")).to_have_value(solution)
    expect(page.locator("#verdict")).to_contain_text("✔ completed at step")


def test_cancel_a_long_solve(page, server):
    page.click("#level-box summary")
    page.fill("#level-text", LONG)
    page.click("#use-text")
    expect(page.locator("#verdict")).to_contain_text("your level")
    page.fill("#time-limit", "60")
    page.click("#solve")
    expect(page.locator("#solve-status")).to_contain_text("Searching", timeout=30_000)
    job = page.evaluate("state.solveId")
    pid = httpx.get(f"{server}/api/solve/{job}").json()["worker_pid"]
    page.click("#cancel")
    expect(page.locator("#solve-status")).to_contain_text("Cancelled")
    assert gone(pid)
    assert httpx.get(f"{server}/api/solve/{job}").json()["status"] == "cancelled"
    expect(page.locator("#solve")).to_be_enabled()


def test_an_invalid_program_shows_its_error_beside_the_editor(page):
    choose(page, "carrots", "01")
    run(page, "F F X")
    error = page.locator("#program-error")
    expect(error).to_contain_text("column 5")
    editor, message = page.locator("#program").bounding_box(), error.bounding_box()
    assert 0 <= message["y"] - (editor["y"] + editor["height"]) < 30  # right under the editor
    expect(page.locator("#board")).to_have_class("stale")
    run(page, "F F")
    expect(error).to_be_hidden()
    expect(page.locator("#verdict")).to_contain_text("✔")


def test_a_shared_url_reopens_level_and_program(page, browser, server):
    choose(page, "carrots", "07")
    run(page, "LOOP{F R}")
    expect(page.locator("#verdict")).to_contain_text("carrots:07: ✘ runs forever")
    verdict = page.inner_text("#verdict")
    page.click("#share")
    url = page.input_value("#share-url")
    assert url.startswith(server)
    other = browser.new_page()
    open_page(other, url)
    expect(other.locator("#game")).to_have_value("carrots")
    expect(other.locator("#level")).to_have_value("07")
    expect(other.locator("#program")).to_have_value("LOOP{F R}")
    expect(other.locator("#verdict")).to_have_text(verdict)
    assert other.inner_html("#board svg") == page.inner_html("#board svg")  # the same picture, maybe resized
    other.close()


def test_a_later_robozzle_puzzle_is_chosen_from_its_own_group_and_its_link_reopens_it(page, browser, server):
    """RoboZZle's level list groups the main and the later puzzles; a later one opens, and a link to it reopens it
    with the list showing it."""
    later = levels.names("robozzle", "later")[0]
    choose(page, "robozzle", later)
    groups = page.locator("#level optgroup")
    expect(groups).to_have_count(2)
    assert groups.nth(1).get_attribute("label") == f"later set ({len(levels.names('robozzle', 'later'))})"
    expect(groups.nth(1).locator(f"option[value='{later}']")).to_have_count(1)
    page.click("#share")
    other = browser.new_page()
    open_page(other, page.input_value("#share-url"))
    expect(other.locator("#level")).to_have_value(later)
    expect(other.locator("#verdict")).to_contain_text(f"robozzle:{later}")
    other.close()


def test_clicking_a_cell_edits_the_level_and_the_link_keeps_it(page, browser):
    choose(page, "carrots", "01")
    before = page.input_value("#level-text")
    rows, cols, cell, x0, y0 = map(float, page.text_content("#board svg desc").split()[1:])
    box = page.locator("#board svg").bounding_box()
    scale = box["width"] / float(page.get_attribute("#board svg", "width"))
    page.mouse.click(box["x"] + (x0 + 1.5 * cell) * scale, box["y"] + (y0 + 0.5 * cell) * scale)  # cell (0, 1)
    expect(page.locator("#verdict")).to_contain_text("edited cell (row 1, column 2)")
    after = page.input_value("#level-text")
    assert after != before and after.splitlines()[0][1] != before.splitlines()[0][1]
    expect(page.locator("#level")).to_have_value("")
    page.fill("#program", "F")
    page.click("#share")
    other = browser.new_page()
    open_page(other, page.input_value("#share-url"))
    expect(other.locator("#level-text")).to_have_value(after)
    expect(other.locator("#program")).to_have_value("F")
    other.close()
