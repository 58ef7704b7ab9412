"""Light-Bot pictures: every bundled level as SVG and PNG, a solved run's last frame, GIF frames, determinism,
golden SVGs (GRIDBOT_UPDATE_GOLDEN=1 rewrites them), and editing a tile by clicks."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image

import gridbot
from gridbot import levels, render
from gridbot.games import lightbot
from gridbot.generate.lightbot import random_level
from gridbot.render import lightbot as drawing
from gridbot.render import svg_text
from gridbot.render.scene import Line, Text
from tests.render import checks

NAMES = levels.names("lightbot")
# A small level of the test's own, solved below by the game's solver (no answer is written down here).
SMALL = "00120\n00000\n\n>.**.\n....*"


@pytest.fixture(scope="module")
def solved() -> tuple[lightbot.Level, lightbot.Program]:
    from gridbot.solve.lightbot import solve

    level = lightbot.Level.parse(SMALL, "small")
    result = solve(level, jit=False, workers=1)
    assert result.status == "optimal"
    return level, result.solution


@pytest.mark.parametrize("name", NAMES)
def test_every_bundled_level_renders(name: str) -> None:
    level = gridbot.load(f"lightbot:{name}")
    rows, cols = len(level.heights), len(level.heights[0])
    svg = render.svg(level)
    assert checks.count_class(svg, "cell") == rows * cols  # one per tile, the floor's included
    assert checks.count_class(svg, "light") == len(level.lights)
    assert checks.count_class(svg, "robot") == 1
    scene = render.scene(level)
    image = Image.open(io.BytesIO(render.png(level)))
    assert image.size == (scene.width, scene.height)
    assert checks.scene_robot_cell(scene) == level.start


def test_run_ends_with_every_light_on(solved: tuple[lightbot.Level, lightbot.Program]) -> None:
    level, program = solved
    trace = lightbot.run(level, program)
    assert trace.verdict.won
    last = drawing.steps(level, program)
    assert last == trace.verdict.step
    end = render.scene(level, program)
    final = list(lightbot.steps(level, program))[-1]
    assert checks.scene_robot_cell(end) == final.position
    svg = svg_text.to_svg(end)
    assert checks.count_class(svg, "on") == len(level.lights)
    assert checks.count_class(svg, "path") >= 1
    start = render.scene(level, program, 0)
    assert checks.scene_robot_cell(start) == level.start
    assert checks.count_class(svg_text.to_svg(start), "on") == 0


def test_frames_follow_the_steps(solved: tuple[lightbot.Level, lightbot.Program]) -> None:
    level, program = solved
    trace = list(lightbot.steps(level, program))
    frames = drawing.draw(level, program, list(range(len(trace) + 1)))
    assert [checks.scene_robot_cell(f) for f in frames] == [level.start] + [s.position for s in trace]
    lit = [sum(1 for s in f.shapes if "on" in s.cls.split()) for f in frames]
    assert lit == [0] + [bin(s.lit).count("1") for s in trace]


@pytest.mark.parametrize("frames", [2, 4, 150])
def test_gif_frames(solved: tuple[lightbot.Level, lightbot.Program], frames: int) -> None:
    level, program = solved
    assert checks.check_gif_frames(level, program, frames, drawing) >= 2


def test_an_endless_run_ends_at_the_cap() -> None:
    level = lightbot.Level.parse("000\n000\n\n>.*\n...")
    program = lightbot.parse_program("main: 1 f1: FRFRF1")  # round and round a few tiles
    assert lightbot.run(level, program).verdict.status == "forever"
    assert drawing.steps(level, program) == render.MAX_STEPS
    end = render.scene(level, program)
    lines = [s for s in end.shapes if isinstance(s, Line) and s.cls == "path"]
    edges = 2 * 2 + 3 * 1  # between neighbouring tiles of the 2 x 3 board
    assert 1 <= sum(len(line.points) for line in lines) <= 2 * edges  # each move drawn once, not once per lap
    assert (
        checks.scene_robot_cell(end)
        == list(itertools.islice(lightbot.steps(level, program), render.MAX_STEPS))[-1].position
    )


def test_same_input_same_bytes(solved: tuple[lightbot.Level, lightbot.Program]) -> None:
    level = gridbot.load("lightbot:8")
    program = "main: FFRJ1 f1: JXL2 f2: XFR"
    assert render.svg(level, program) == render.svg(level, program)
    assert render.png(level, program) == render.png(level, program)
    assert render.gif(level, program, 12) == render.gif(level, program, 12)


def test_big_boards_drop_the_numbers() -> None:
    level = random_level(100, 100, 2, lights=50, max_height=9)
    scene = render.scene(level, "main: FJRFJLJ")
    assert scene.board is not None and scene.board.cell == 8
    assert not any(s.cls == "height" for s in scene.shapes)
    assert any(s.cls == "beacon" for s in scene.shapes)  # the robot is found on a big board
    assert checks.count_class(svg_text.to_svg(scene), "cell") == 100 * 100
    middle = random_level(32, 32, 1, lights=20, max_height=5)
    scene = render.scene(middle)
    assert scene.board is not None and 14 <= scene.board.cell < 32
    heights = [s for s in scene.shapes if isinstance(s, Text) and s.cls == "height"]
    assert heights and all(s.size <= scene.board.cell * 0.5 for s in heights)  # a digit fits its tile


@pytest.mark.parametrize(("name", "program", "step"), [("03", None, None), ("12", "main: FJ1 f1: XRJJ2 f2: JXL", 9)])
def test_golden(name: str, program: str | None, step: int | None) -> None:
    level = gridbot.load(f"lightbot:{name}")
    key = name if program is None else f"{name}-run"
    checks.check_golden_svg("lightbot", key, render.svg(level, program, step))


def test_edit_cycles_through_the_palette() -> None:
    level = gridbot.load("lightbot:4")
    text = str(level)
    for row in range(len(level.heights)):
        for col in range(len(level.heights[0])):
            edited = lightbot.Level.parse(drawing.edit(level, row, col))
            assert len(edited.heights) == len(level.heights)
            assert len(edited.heights[0]) == len(level.heights[0])
            if (row, col) == level.start:
                assert str(edited) == text
    row, col = 0, 0 if level.start != (0, 0) else 1
    seen = []
    current = level
    for _ in range(len(drawing.PALETTE)):
        current = lightbot.Level.parse(drawing.edit(current, row, col))
        seen.append((current.heights[row][col], (row, col) in current.lights))
    assert str(current) == text
    assert len(set(seen)) == len(drawing.PALETTE)


def test_edit_refuses_a_cell_outside() -> None:
    level = gridbot.load("lightbot:1")
    with pytest.raises(ValueError, match="no cell"):
        drawing.edit(level, len(level.heights), 0)
    with pytest.raises(ValueError, match="no cell"):
        drawing.edit(level, 0, -1)
