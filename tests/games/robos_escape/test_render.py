"""Robo's Escape pictures: every bundled level as SVG and PNG, a solved run's last frame and its laser shots,
GIF frames, determinism, golden SVGs (GRIDBOT_UPDATE_GOLDEN=1 rewrites them), and editing a cell by clicks."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import gridbot
from gridbot import levels, render
from gridbot.games import robos_escape
from gridbot.grid import Direction
from gridbot.render import robos_escape as drawing
from gridbot.render import svg_text
from gridbot.render.scene import Line
from tests.render import checks

NAMES = levels.names("robos_escape")


@pytest.fixture(scope="module")
def solved() -> tuple[robos_escape.Level, robos_escape.Program]:
    """A bundled level whose best escape, found here by the solver, fires the laser."""
    level = gridbot.load("robos_escape:03")
    result = gridbot.solve(level, time_limit=60)
    assert result.solution is not None
    assert "X" in str(result.solution)
    return level, result.solution


@pytest.mark.parametrize("name", NAMES)
def test_every_bundled_level_renders(name: str) -> None:
    level = gridbot.load(f"robos_escape:{name}")
    rows, cols = len(level.rows), len(level.rows[0])
    svg = render.svg(level)
    assert checks.count_class(svg, "cell") == rows * cols  # one per cell, walls included
    assert checks.count_class(svg, "coin") == level.size
    assert checks.count_class(svg, "robot") == 1
    scene = render.scene(level)
    image = Image.open(io.BytesIO(render.png(level)))
    assert image.size == (scene.width, scene.height)
    assert checks.scene_robot_cell(scene) == level.start


def test_run_ends_on_the_exit(solved: tuple[robos_escape.Level, robos_escape.Program]) -> None:
    level, program = solved
    result = robos_escape.run(level, program)
    assert result.verdict.won
    assert drawing.steps(level, program) == result.verdict.step
    end = render.scene(level, program)
    exit_cell = checks.scene_robot_cell(end)
    assert level.rows[exit_cell[0]][exit_cell[1]] == "E"
    svg = svg_text.to_svg(end)
    left = sum(row.count("C") for row in list(robos_escape.steps(level, program))[-1].grid)
    assert checks.count_class(svg, "coin") == left
    assert checks.count_class(svg, "path") >= 1
    assert "escaped" in end.caption


def test_laser_shots_show_in_their_frames(solved: tuple[robos_escape.Level, robos_escape.Program]) -> None:
    level, program = solved
    trace = list(robos_escape.steps(level, program))
    frames = drawing.draw(level, program, list(range(len(trace) + 1)))
    assert [checks.scene_robot_cell(f) for f in frames] == [level.start] + [s.position for s in trace]
    grids = [level.rows] + [s.grid for s in trace]
    fired = 0
    for k, step in enumerate(trace, 1):
        beams = [s for s in frames[k].shapes if isinstance(s, Line) and s.cls == "laser"]
        if step.op != "X":
            assert not beams
            continue
        fired += 1
        (beam,) = beams
        start, end = checks.scene_cell_at(frames[k], beam.points[0]), checks.scene_cell_at(frames[k], beam.points[-1])
        assert start == step.position
        dr, dc = Direction(step.facing).delta
        assert (end[0] - start[0]) * dc == (end[1] - start[1]) * dr  # along the robot's facing
        hit = grids[k - 1][end[0]][end[1]]
        assert hit in robos_escape.STOPS_LASER
        if hit in "OC":
            assert grids[k][end[0]][end[1]] == " "  # what it hit is gone in that frame
    assert fired > 0


@pytest.mark.parametrize("frames", [2, 5, 150])
def test_gif_frames(solved: tuple[robos_escape.Level, robos_escape.Program], frames: int) -> None:
    level, program = solved
    assert checks.check_gif_frames(level, program, frames, drawing) >= 2


def test_a_run_that_fails_is_drawn_to_its_end() -> None:
    level = gridbot.load("robos_escape:01")
    program = robos_escape.parse_program("RF.")  # walks into the wall for ever: the game stops it at its limit
    assert not robos_escape.run(level, program).verdict.won
    last = drawing.steps(level, program)
    assert last == robos_escape.MAX_COMMANDS
    assert (
        checks.scene_robot_cell(render.scene(level, program)) == list(robos_escape.steps(level, program))[-1].position
    )


def test_same_input_same_bytes() -> None:
    level = gridbot.load("robos_escape:07")
    program = "F1XL'1FFRX"
    assert render.svg(level, program) == render.svg(level, program)
    assert render.png(level, program) == render.png(level, program)
    assert render.gif(level, program, 12) == render.gif(level, program, 12)


@pytest.mark.parametrize(("name", "program", "step"), [("01", None, None), ("07", "F1XL'1FFRX", 6)])
def test_golden(name: str, program: str | None, step: int | None) -> None:
    level = gridbot.load(f"robos_escape:{name}")
    key = name if program is None else f"{name}-run"
    checks.check_golden_svg("robos_escape", key, render.svg(level, program, step))


def test_edit_keeps_the_board_and_cycles_back() -> None:
    level = gridbot.load("robos_escape:01")
    text = str(level)
    rows, cols = len(level.rows), len(level.rows[0])
    for row in range(rows):
        for col in range(cols):
            edited = robos_escape.Level.parse(drawing.edit(level, row, col))
            assert (len(edited.rows), len(edited.rows[0])) == (rows, cols)
            assert edited.start == level.start
            if (row, col) == level.start:
                assert str(edited) == text
            else:
                assert sum(a != b for a, b in zip("".join(edited.rows), "".join(level.rows), strict=True)) == 1
    current = level
    seen = []
    for _ in range(len(drawing.PALETTE)):
        current = robos_escape.Level.parse(drawing.edit(current, 3, 3))
        seen.append(current.rows[3][3])
    assert str(current) == text
    assert sorted(seen) == sorted(drawing.PALETTE)


def test_edit_never_shrinks_the_board() -> None:
    # The last row's only non-floor cell: floor there would drop the row (the format ends at the last wall).
    level = robos_escape.Level.parse("XXX\nXSE\n  C", "edge")
    text = drawing.edit(level, 2, 2)
    assert robos_escape.Level.parse(text).rows[2][2] not in " C"
    assert len(robos_escape.Level.parse(text).rows) == 3
    with pytest.raises(ValueError, match="no cell"):
        drawing.edit(level, 3, 0)
