"""Bender pictures: every bundled map, his journeys to the booth and into a loop, X he breaks, teleports that
break the route, wrong answers, GIF frames, determinism, golden SVGs, big maps and editing cells."""

from __future__ import annotations

import pytest

import gridbot
from gridbot import levels, render
from gridbot.games import bender
from gridbot.generate.bender import random_level
from gridbot.render import bender as drawing
from tests.render import checks

NAMES = levels.names("bender")


def _load(name: str) -> bender.Level:
    return gridbot.load(f"bender:{name}")


def _answer(level: bender.Level) -> str:
    """His answer as the solver gives it: the moves, or LOOP."""
    result = gridbot.solve(level, time_limit=60)
    return bender.LOOP if result.status == "unsolvable" else str(result.solution)


@pytest.mark.parametrize("name", NAMES)
def test_every_bundled_level_renders(name: str) -> None:
    level = _load(name)
    root = checks.check_renders(level)
    assert checks.classed(root, "route") == []
    assert checks.robot_cell(render.svg(level)) == level.start
    checks.check_text_fits(render.scene(level))


@pytest.mark.parametrize("name", NAMES)
def test_journey_to_its_end(name: str) -> None:
    level = _load(name)
    answer = _answer(level)
    trip = bender.journey(level, record=True)
    assert drawing.steps(level, answer) == len(trip.moves)
    svg = render.svg(level, answer)
    caption = render.scene(level, answer).caption
    root = checks.parse(svg)
    assert checks.classed(root, "route")
    if trip.outcome == "booth":
        assert checks.robot_cell(svg) == level.booth
        assert caption.endswith(f"reaches the suicide booth at move {len(trip.moves)}")
    else:
        assert checks.robot_cell(svg) == trip.steps[-1].position
        assert "LOOP" in caption
    assert render.svg(level, answer, step=len(trip.moves) + 5) == svg


def test_no_answer_shows_the_journey_and_a_wrong_one_says_so() -> None:
    level = _load("06_breaker")
    journey = render.svg(level, "")
    assert checks.classed(checks.parse(journey), "route")
    assert render.svg(level, "SOUTH SOUTH SOUTH SOUTH EAST EAST EAST EAST EAST EAST") == journey
    caption = render.scene(level, "NORTH").caption
    assert "wrong answer: move 1 is SOUTH, the answer says NORTH" in caption
    assert checks.robot_cell(render.svg(level, "NORTH")) == level.booth


def test_broken_walls_turn_to_rubble() -> None:
    level = _load("06_breaker")
    trip = bender.journey(level)
    walls = sum(row.count(bender.BREAKABLE) for row in level.rows)
    start, end = checks.parse(render.svg(level, "", step=0)), checks.parse(render.svg(level, ""))

    def rubble(root) -> int:
        return sum(1 for e in checks.classed(root, "cell") if e.get("fill") == drawing.COLOURS[drawing.BROKEN])

    assert rubble(start) == 0 and len(checks.classed(start, "breakable")) == 2 * walls
    assert rubble(end) == trip.broken > 0
    assert len(checks.classed(end, "breakable")) == 2 * (walls - trip.broken)
    # the route turns red in breaker mode
    assert {line.get("stroke") for line in checks.classed(end, "route")} == {drawing.ROUTE, drawing.BREAKER}


def test_teleport_breaks_the_route() -> None:
    level = _load("08_teleporter")
    root = checks.parse(render.svg(level, ""))
    lines = checks.classed(root, "route")
    assert len(lines) == 2
    ends = [[checks.cell_at(root, *map(float, p.split(","))) for p in line.get("points", "").split()] for line in lines]
    assert ends[0][0] == level.start and ends[0][-1] in level.teleporters
    assert ends[1][0] in level.teleporters and ends[1][0] != ends[0][-1]
    assert ends[1][-1] == level.booth


def test_gif_frames() -> None:
    level = _load("10_all_together")
    assert checks.gif_frames(render.gif(level, "", frames=9)) == 9
    assert (
        checks.gif_frames(render.gif(_load("example"), "", frames=50))
        == len(bender.journey(_load("example")).moves) + 1
    )
    assert checks.gif_frames(render.gif(level)) == 1


def test_deterministic() -> None:
    checks.check_deterministic(_load("10_all_together"), "")


def test_golden() -> None:
    checks.check_golden("bender", "10_all_together", render.scene(_load("10_all_together"), ""))
    checks.check_golden("bender", "08_teleporter", render.scene(_load("08_teleporter")))


@pytest.mark.parametrize("side", [32, 100])
def test_big_maps_stay_legible(side: int) -> None:
    level = random_level(side, side, seed=side)
    scene = render.scene(level, "")
    assert scene.board is not None and scene.width <= 820 and scene.height <= 820
    checks.check_text_fits(scene)
    svg = render.svg(level, "")
    assert len(checks.classed(checks.parse(svg), "cell")) == side * side
    trip = bender.journey(level, record=True)
    assert checks.robot_cell(svg) == (trip.steps[-1].position if trip.steps else level.start)


def test_steps_are_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    level = _load("11_loop")
    monkeypatch.setattr(drawing, "MAX_STEPS", 10)
    assert drawing.steps(level, "LOOP") == 10
    scene = render.scene(level, "LOOP")
    assert scene.caption.startswith("bender:11_loop: move 10,") and "LOOP" in scene.caption


def test_edit_cycles_and_round_trips() -> None:
    level = _load("10_all_together")
    assert level.header == (15, 15)
    cells = {
        ch: next((r, c) for r, row in enumerate(level.rows) for c, ch2 in enumerate(row) if ch2 == ch)
        for ch in " #XWIB"
    }
    for r, c in cells.values():
        checks.check_cycle(bender, drawing, level, r, c)
    assert drawing.edit(level, 1, 1).splitlines()[0] == "15 15"
    for keep in (level.start, level.booth, *level.teleporters):
        assert bender.Level.parse(drawing.edit(level, *keep)).rows == level.rows
    with pytest.raises(ValueError):
        drawing.edit(level, 15, 0)


def test_edit_keeps_a_last_row_that_turns_blank() -> None:
    level = bender.Level.parse("#####\n#@ $#\n#   #\n#####\n   B")
    text = drawing.edit(level, 4, 3)
    edited = bender.Level.parse(text)
    assert edited.rows == level.rows[:4] + ("     ",)
    checks.check_cycle(bender, drawing, level, 4, 3)
