"""RoboZZle pictures: every bundled puzzle as SVG (and a spread of them as PNG), the functions beside the board
with the running slot outlined, a solved run's last frame, paint, GIF frames, determinism, golden SVGs
(GRIDBOT_UPDATE_GOLDEN=1 rewrites them), and editing a tile by clicks."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from PIL import Image

import gridbot
from gridbot import levels, render
from gridbot.errors import ProgramError
from gridbot.games import robozzle
from gridbot.generate.robozzle import random_level
from gridbot.render import raster, svg_text
from gridbot.render import robozzle as drawing
from gridbot.render.scene import Rect, Scene
from tests.render import checks

NAMES = levels.names("robozzle")
# A small puzzle of the test's own, solved below by the game's solver (no answer is written down here).
SMALL = "functions: 4 3 0 0 0\npaint: none\nstart: 2 1 east\nrrgR\nbg.r\nrrrR"


def running_slot(level: robozzle.Level, scene: Scene) -> tuple[int, int] | None:
    """(function, slot), both 0-based, of the slot the yellow outline surrounds (None: no outline)."""
    outlines = [s for s in scene.shapes if isinstance(s, Rect) and s.cls == "running"]
    if not outlines:
        return None
    (box,) = outlines
    slots = [s for s in scene.shapes if isinstance(s, Rect) and s.cls == "slot"]
    names = [(f, k) for f in range(robozzle.FUNCTIONS) for k in range(level.slots[f])]
    inside = [
        name
        for name, s in zip(names, slots, strict=True)
        if box.x <= s.x and s.x + s.w <= box.x + box.w and box.y <= s.y and s.y + s.h <= box.y + box.h
    ]
    assert len(inside) == 1
    return inside[0]


@pytest.fixture(scope="module")
def solved() -> tuple[robozzle.Level, robozzle.Program]:
    from gridbot.solve.robozzle import solve

    level = robozzle.Level.parse(SMALL, "small")
    result = solve(level, jit=False, beam=False, workers=1)
    assert result.status == "optimal"
    return level, result.solution


def test_every_bundled_puzzle_renders() -> None:
    """All of them as SVG (a cell per board square, holes included; a slot per slot of the puzzle) and painted by
    Pillow; every 25th as PNG bytes too (all boards are the site's 16 x 12: a PNG more only compresses one)."""
    assert len(NAMES) > 900
    for i, name in enumerate(NAMES):
        level = gridbot.load(f"robozzle:{name}")
        scene = render.scene(level)
        svg = svg_text.to_svg(scene)
        counts = Counter(e.get("class") for e in ET.fromstring(svg).iter())
        assert counts["cell"] == level.height * level.width, name
        assert counts["slot"] == sum(level.slots), name
        assert counts["star"] == level.size, name
        assert checks.scene_robot_cell(scene) == level.start, name
        assert scene.width >= scene.board.width and scene.height > scene.board.height
        image = raster.image(scene)
        assert image.size == (scene.width, scene.height)
        if i % 25 == 0:
            png = Image.open(io.BytesIO(render.png(level)))
            assert png.size == (scene.width, scene.height)


def test_run_collects_every_star(solved: tuple[robozzle.Level, robozzle.Program]) -> None:
    level, program = solved
    result = robozzle.run(level, program)
    assert result.verdict.won
    assert drawing.steps(level, program) == result.actions
    end = render.scene(level, program)
    trace = list(robozzle.steps(level, program))
    assert checks.scene_robot_cell(end) == trace[-1].position
    svg = svg_text.to_svg(end)
    assert checks.count_class(svg, "star") == 0
    assert checks.count_class(svg, "path") >= 1
    assert running_slot(level, end) == (trace[-1].function - 1, trace[-1].slot)
    assert running_slot(level, render.scene(level, program, 0)) is None


def test_frames_follow_the_actions(solved: tuple[robozzle.Level, robozzle.Program]) -> None:
    level, program = solved
    trace = list(robozzle.steps(level, program))
    frames = drawing.draw(level, program, list(range(len(trace) + 1)))
    assert [checks.scene_robot_cell(f) for f in frames] == [level.start] + [s.position for s in trace]
    assert [sum(1 for s in f.shapes if s.cls == "star") for f in frames] == [level.size] + [len(s.stars) for s in trace]
    assert [running_slot(level, f) for f in frames[1:]] == [(s.function - 1, s.slot) for s in trace]


def test_paint_and_a_fall() -> None:
    level = robozzle.Level.parse("functions: 3 0 0 0 0\npaint: G\nstart: 1 1 east\nr.R", "paint")
    program = robozzle.parse_program("F1: rPG F")
    painted, fallen = drawing.draw(level, program, [1, 2])
    start = [s for s in painted.shapes if isinstance(s, Rect) and s.cls == "cell"][0]
    assert start.fill == drawing.TILES["G"]
    assert robozzle.run(level, program).reason == "fell off the board"
    assert any(s.cls == "fell" for s in fallen.shapes)
    assert checks.scene_robot_cell(fallen) == (0, 1)
    off = robozzle.parse_program("F1: L F")  # off the board's top edge: shown at the edge
    assert checks.scene_robot_cell(render.scene(level, off)) == (0, 0)


def test_a_program_that_does_not_fit_is_refused() -> None:
    level = robozzle.Level.parse(SMALL)
    with pytest.raises(ProgramError, match="paints"):
        render.svg(level, "F1: PR")
    with pytest.raises(ProgramError, match="slots"):
        render.svg(level, "F1: F F F F F")


@pytest.mark.parametrize("frames", [2, 5, 150])
def test_gif_frames(solved: tuple[robozzle.Level, robozzle.Program], frames: int) -> None:
    level, program = solved
    # every action shows, so no frame is merged into the one before
    assert checks.check_gif_frames(level, program, frames, drawing) == min(frames, drawing.steps(level, program) + 1)


def test_same_input_same_bytes() -> None:
    level = gridbot.load("robozzle:114")
    program = "F1: F bR F2 | F2: F gL"
    assert render.svg(level, program) == render.svg(level, program)
    assert render.png(level, program) == render.png(level, program)
    assert render.gif(level, program, 12) == render.gif(level, program, 12)


def test_big_boards() -> None:
    level = random_level(100, 100, 3, stars=30, holes=0.2)
    scene = render.scene(level, "F1: F rR")
    assert scene.board is not None and scene.board.cell == 8
    assert checks.count_class(svg_text.to_svg(scene), "cell") == 100 * 100
    assert any(s.cls == "beacon" for s in scene.shapes)
    slots = [s for s in scene.shapes if s.cls == "slot"]
    assert all(s.w >= 20 for s in slots)  # the functions stay readable under a board of small cells
    assert all(s.x + s.w <= scene.width and s.y + s.h <= scene.height for s in slots)


@pytest.mark.parametrize(("name", "program", "step"), [("14", None, None), ("114", "F1: F bR F2 | F2: F gL", 5)])
def test_golden(name: str, program: str | None, step: int | None) -> None:
    level = gridbot.load(f"robozzle:{name}")
    key = name if program is None else f"{name}-run"
    checks.check_golden_svg("robozzle", key, render.svg(level, program, step))


def test_edit_cycles_through_the_palette() -> None:
    level = gridbot.load("robozzle:114")
    text = str(level)
    for row in range(level.height):
        for col in range(level.width):
            edited = robozzle.Level.parse(drawing.edit(level, row, col))
            assert (edited.height, edited.width, edited.slots) == (level.height, level.width, level.slots)
            if (row, col) == level.start:
                assert str(edited) == text
    current, seen = level, []
    for _ in range(len(drawing.PALETTE)):
        current = robozzle.Level.parse(drawing.edit(current, 0, 0))
        seen.append(current.rows[0][0])
    assert str(current) == text
    assert sorted(seen) == sorted(drawing.PALETTE)


def test_edit_keeps_a_star() -> None:
    level = robozzle.Level.parse("functions: 3 0 0 0 0\npaint: none\nstart: 1 1 east\nrrR")
    edited = robozzle.Level.parse(drawing.edit(level, 0, 2))  # the last star: turned to another star, not lost
    assert edited.size == 1 and edited.rows[0][2] in "RGB"
    with pytest.raises(ValueError, match="no cell"):
        drawing.edit(level, 0, 3)
