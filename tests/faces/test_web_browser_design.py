"""The playground's slot editor, Analyze panel and Generate form used in Chromium, as a person uses them."""

from __future__ import annotations

import json
import random
import re

import httpx
import pytest
from playwright.sync_api import Page, expect

import gridbot
from gridbot import levels
from gridbot.games import carrots, lightbot, robozzle
from gridbot.web import slots

from . import test_web_browser as base
from .test_web import LONG, gone
from .test_web_browser import choose, settled
from .test_web_design import random_lightbot, random_robozzle

pytestmark = pytest.mark.clock  # every test here measures time: run alone, not beside others

server, browser, page = base.server, base.browser, base.page  # the fixtures of the playground's browser tests


def slot(page: Page, function: int, k: int):
    return page.locator(f"#slots button.slot[data-f='{function}'][data-k='{k}']")


def palette(page: Page, label: str):
    return page.locator("#palette button", has_text=label).first


# ---------------------------------------------------------------- the slot editor


def test_robozzle_program_built_by_clicks_writes_its_text(page):
    choose(page, "robozzle", "14")
    expect(page.locator("#slots")).to_be_visible()
    expect(page.locator("#slots .fn-row")).to_have_count(3)  # F1, F2, F3: the puzzle's functions
    slot(page, 0, 0).click()
    palette(page, "forward").click()
    page.locator("#palette button.cond-R").click()  # the slot just filled keeps the selection's neighbour...
    expect(page.locator("#program")).to_have_value("F1: F")  # ...so the colour waits for the next command
    palette(page, "call F2").click()
    expect(page.locator("#program")).to_have_value("F1: F rF2")
    slot(page, 0, 7).click()  # an empty slot far along: the first empty one is selected (no gaps)
    expect(slot(page, 0, 2)).to_have_attribute("aria-pressed", "true")
    palette(page, "turn left").click()
    slot(page, 1, 0).click()
    page.keyboard.press("g")  # keys on a slot: the colour, then the command (R turns right, r would be red)
    page.keyboard.press("R")
    page.keyboard.press("1")
    expect(page.locator("#program")).to_have_value("F1: F rF2 L | F2: gR F1")
    assert str(robozzle.parse_program(page.input_value("#program"))) == "F1: F rF2 L | F2: gR F1"
    expect(slot(page, 0, 1)).to_have_attribute("aria-label", "F1 slot 2 of 10: call F2 on red")
    expect(slot(page, 1, 0)).to_have_attribute("aria-label", "F2 slot 1 of 2: turn right on green")
    expect(page.locator("#slots-count")).to_have_text("5 of 14 slots used")
    slot(page, 0, 0).click()
    page.keyboard.press("Delete")  # the commands after it move left
    expect(page.locator("#program")).to_have_value("F1: rF2 L | F2: gR F1")
    page.click("#run")
    settled(page)
    expect(page.locator("#verdict")).to_contain_text("robozzle:14: ✘")


def test_typing_the_text_fills_the_slots_and_errors_show(page):
    choose(page, "robozzle", "14")
    page.fill("#program", "F1: F bL F3 | F3: gF1")
    expect(slot(page, 2, 0)).to_have_attribute("aria-label", "F3 slot 1 of 2: call F1 on green")
    expect(slot(page, 0, 1)).to_have_attribute("aria-label", "F1 slot 2 of 10: turn left on blue")
    expect(page.locator("#slots-count")).to_have_text("4 of 14 slots used")
    page.fill("#program", "F1: F bL Q")
    expect(page.locator("#program-error")).to_contain_text("column 10")
    expect(page.locator("#slots")).to_have_class("stale")
    expect(slot(page, 2, 0)).to_have_attribute("aria-label", "F3 slot 1 of 2: call F1 on green")  # kept
    page.fill("#program", "F1: F F4")
    expect(page.locator("#program-error")).to_contain_text("F4, which this puzzle does not have")
    page.fill("#program", "F1: R")
    expect(page.locator("#program-error")).to_be_hidden()
    expect(page.locator("#slots")).not_to_have_class("stale")
    expect(slot(page, 2, 0)).to_have_attribute("aria-label", "F3 slot 1 of 2: empty")


def test_lightbot_program_typed_on_the_slots_wins(page):
    level = levels.load("lightbot:03")
    answer = gridbot.solve(level, time_limit=60).solution  # the solver's program, entered key by key
    assert answer is not None
    choose(page, "lightbot", "03")
    expect(page.locator("#slots .fn-row")).to_have_count(3)
    for function, body in enumerate((answer.main, answer.f1, answer.f2)):
        if not body:
            continue
        slot(page, function, 0).click()
        for command in body:
            page.keyboard.press(command.lower())
    expect(page.locator("#program")).to_have_value(str(answer))
    page.keyboard.press("Tab")  # one slot of the rows takes the focus; the palette's buttons come next
    assert page.evaluate("document.activeElement.closest('#palette') !== null")
    page.keyboard.press("Enter")  # the first of them, "walk forward", into the selected slot
    expect(page.locator("#program")).not_to_have_value(str(answer))
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Backspace")  # the slot before the selection: the one just filled
    expect(page.locator("#program")).to_have_value(str(answer))
    page.click("#run")
    settled(page)
    expect(page.locator("#verdict")).to_contain_text("lightbot:03: ✔")


def test_the_solvers_answer_fills_the_slots(page):
    choose(page, "lightbot", "02")
    page.fill("#time-limit", "60")
    page.click("#solve")
    expect(page.locator("#solve-status")).to_contain_text("Proven optimal", timeout=90_000)
    answer = lightbot.parse_program(page.inner_text("#solution"))
    expect(page.locator("#program")).to_have_value(str(answer))
    for k in range(len(answer.main)):
        expect(slot(page, 0, k)).not_to_have_attribute("aria-label", f"main slot {k + 1} of 12: empty")
    expect(slot(page, 0, len(answer.main))).to_have_attribute(
        "aria-label", f"main slot {len(answer.main) + 1} of 12: empty"
    )
    expect(page.locator("#slots-count")).to_have_text(f"{answer.tokens} of 28 slots used")


def test_the_pages_text_is_the_games_canonical_text(page):
    """slots.js writes the text as `str(program)` does, for random programs put into its rows."""
    rng = random.Random(5)
    choose(page, "robozzle", "14")
    level = levels.load("robozzle:14")
    for _ in range(40):
        program = random_robozzle(rng, level)
        rows = json.dumps(slots.slots(robozzle, program))
        written = page.evaluate(f"() => {{ slots.rows = {rows}; writeText(); return $('program').value; }}")
        assert written == ("" if program.tokens == 0 else str(program))
    choose(page, "lightbot", "01")
    for _ in range(40):
        program = random_lightbot(rng)
        rows = json.dumps(slots.slots(lightbot, program))
        written = page.evaluate(f"() => {{ slots.rows = {rows}; writeText(); return $('program').value; }}")
        assert written == ("" if program.tokens == 0 else str(program))


def test_games_typed_only_show_no_slots(page):
    choose(page, "robozzle", "14")
    expect(page.locator("#slots")).to_be_visible()
    choose(page, "carrots", "01")
    expect(page.locator("#slots")).to_be_hidden()
    expect(page.locator("#slots-count")).to_be_hidden()


# ---------------------------------------------------------------- the Analyze panel


def fact(page: Page, term: str):
    return page.locator(f"#analysis dl.facts dt:text-is('{term}') + dd")


def test_analyze_a_small_carrots_level_and_run_an_optimal_program(page):
    direct = gridbot.analyze(levels.load("carrots:03"), time_limit=60)
    choose(page, "carrots", "03")
    page.click("#analyze")
    expect(page.locator("#analyze-status")).to_contain_text("Proven", timeout=60_000)
    expect(fact(page, "Par")).to_have_text(f"{direct.par} tokens, proven optimal")
    expect(fact(page, "Optimal programs")).to_have_text(str(direct.programs))
    expect(fact(page, "Distinct behaviours")).to_have_text(str(direct.behaviours))
    expect(fact(page, "One longer")).to_have_text(f"{direct.longer} of {direct.par + 1} tokens")
    expect(page.locator("#analysis ul.examples li")).to_have_count(len(direct.examples))
    second = direct.examples[1]
    page.get_by_role("button", name=f"run optimal program 2: {second}").click()
    settled(page)
    expect(page.locator("#program")).to_have_value(second)
    expect(page.locator("#verdict")).to_contain_text("carrots:03: ✔")
    expect(page.locator("#verdict")).to_contain_text(f"· {direct.par} tokens")
    choose(page, "carrots", "04")  # another level: the analysis was of the one before
    expect(page.locator("#analysis")).to_be_empty()
    expect(page.locator("#analyze-status")).to_be_empty()


def test_an_optimal_program_of_a_robozzle_level_fills_the_slots(page):
    text = "functions: 3 2 0 0 0\npaint: none\nstart: 1 1 east\nrrrR\nbbgg"
    page.click("#level-box summary")
    page.select_option("#game", "robozzle")
    settled(page)
    page.fill("#level-text", text)
    page.click("#use-text")
    expect(page.locator("#slots .fn-row")).to_have_count(2)
    page.click("#analyze")
    expect(page.locator("#analyze-status")).to_contain_text("Proven", timeout=60_000)
    example = page.locator("#analysis ul.examples code").first.inner_text()
    page.locator("#analysis ul.examples button").first.click()
    settled(page)
    program = robozzle.parse_program(example)
    expect(page.locator("#verdict")).to_contain_text("your level: ✔")
    expect(page.locator("#slots-count")).to_have_text(f"{program.tokens} of 5 slots used")
    expect(slot(page, 0, 0)).to_have_attribute("aria-label", re.compile(r"F1 slot 1 of 3: (?!empty)"))


def test_cancel_a_long_analysis(page, server):
    page.click("#level-box summary")
    page.fill("#level-text", LONG)
    page.click("#use-text")
    expect(page.locator("#verdict")).to_contain_text("your level")
    page.fill("#analyze-limit", "60")
    page.click("#analyze")
    expect(page.locator("#analyze-status")).to_contain_text("Analysing", timeout=30_000)
    job = page.evaluate("jobs.analyze.id")
    pid = httpx.get(f"{server}/api/jobs/{job}").json()["worker_pid"]
    page.click("#analyze-cancel")
    expect(page.locator("#analyze-status")).to_contain_text("Cancelled")
    assert gone(pid)
    expect(page.locator("#analyze")).to_be_enabled()


# ---------------------------------------------------------------- the Generate form


def test_make_a_small_carrots_level_to_order_and_open_it(page):
    choose(page, "carrots", "01")
    expect(page.locator("#gen-game")).to_have_value("carrots")  # the form follows the game on show
    expect(page.locator("#gen-torches")).to_be_hidden()  # the torch cave's option only
    page.fill("#gen-par", "5")
    page.fill("#gen-size", "5x4")
    page.fill("#gen-seed", "3")
    page.fill("#gen-limit", "60")
    page.click("#generate")
    expect(page.locator("#gen-status")).to_contain_text("Made a carrots level of par 5", timeout=90_000)
    expect(page.locator("#level")).to_have_value("")  # open as your own text
    text = page.input_value("#level-text")
    level = carrots.Level.parse(text)
    assert gridbot.solve(level, time_limit=60).length == 5  # proven once more, here
    expect(page.locator("#verdict")).to_contain_text("your level")
    expect(fact(page, "Par")).to_have_text("5 tokens, proven optimal", timeout=60_000)  # its analysis follows
    page.locator("#analysis ul.examples button").first.click()
    settled(page)
    expect(page.locator("#verdict")).to_contain_text("your level: ✔")
    page.fill("#gen-par", "0")
    page.click("#generate")
    expect(page.locator("#gen-status")).to_contain_text("No such level: no carrots level has par 0")
    expect(page.locator("#generate")).to_be_enabled()
