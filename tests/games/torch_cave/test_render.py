"""Torch cave pictures: every bundled cave, a solved walk to the treasure with its path coloured by the light left,
torches spent, a wall walked into, GIF frames, determinism, golden SVGs, big caves and editing cells."""

from __future__ import annotations

import pytest

import gridbot
from gridbot import levels, render
from gridbot.games import torch_cave
from gridbot.generate.torch_cave import random_level
from gridbot.render import torch_cave as drawing
from tests.render import checks

NAMES = levels.names("torch_cave")


@pytest.fixture(scope="module")
def cave() -> torch_cave.Level:
    return gridbot.load("torch_cave:prob16_sample")


@pytest.fixture(scope="module")
def solution(cave: torch_cave.Level) -> str:
    result = gridbot.solve(cave, time_limit=60)
    assert result.solution is not None
    return str(result.solution)


def _fill(element) -> str:
    return element.get("fill") if element.tag.endswith("circle") else element.get("stroke")


@pytest.mark.parametrize("name", NAMES)
def test_every_bundled_level_renders(name: str) -> None:
    level = gridbot.load(f"torch_cave:{name}")
    root = checks.check_renders(level)
    assert len(checks.classed(root, "treasure")) == 1
    assert len(checks.classed(root, "spent")) == 0
    assert checks.robot_cell(render.svg(level)) == divmod(level.start, level.width)


def test_solved_walk_reaches_the_treasure(cave: torch_cave.Level, solution: str) -> None:
    walk = torch_cave.run(cave, solution)
    assert walk.verdict.status == "completed"
    assert drawing.steps(cave, solution) == len(solution)
    end = render.svg(cave, solution)
    root = checks.parse(end)
    assert checks.robot_cell(end) == divmod(cave.treasure, cave.width)
    (hero,) = checks.classed(root, "robot")
    assert hero.get("fill") == drawing.light_colour(cave, walk.verdict.light)
    # the torches the walk took are bare sticks, the others still burn
    taken = bin(walk.taken).count("1")
    assert len(checks.classed(root, "spent")) == taken > 0
    assert "reached the treasure" in render.scene(cave, solution).caption


def test_path_is_coloured_by_the_light_left(cave: torch_cave.Level, solution: str) -> None:
    walk = torch_cave.run(cave, solution)
    root = checks.parse(render.svg(cave, solution))
    lines = checks.classed(root, "path")
    # the polylines, joined end to end, are the walk; each is drawn in the colour of the light after its steps
    width = cave.width
    step = 0
    for line in lines:
        points = line.get("points", "").split()
        for point in points[1:]:
            x, y = map(float, point.split(","))
            assert checks.cell_at(root, x, y) == divmod(walk.cells[step], width)
            assert _fill(line) == drawing.light_colour(cave, walk.light_left[step])
            step += 1
    assert step == len(walk.cells)
    assert len({_fill(line) for line in lines}) > 2  # the light rises at torches and falls between them


def test_light_colours() -> None:
    level = torch_cave.Level.parse("H.T")
    assert drawing.light_colour(level, 0) == drawing.RAMP[0]
    assert drawing.light_colour(level, level.start_light) == drawing.RAMP[-1]
    assert drawing.light_colour(level, 10 * level.start_light) == drawing.RAMP[-1]
    ramp = [drawing.light_colour(level, light) for light in range(level.start_light + 1)]
    assert [drawing.RAMP.index(colour) for colour in ramp] == sorted(drawing.RAMP.index(colour) for colour in ramp)


def test_wall_is_crossed(cave: torch_cave.Level) -> None:
    r, c = divmod(cave.start, cave.width)
    walk = torch_cave.run(cave, "rru")
    assert walk.verdict.reason == "wall"
    svg = render.svg(cave, "rru")
    root = checks.parse(svg)
    crosses = checks.classed(root, "blocked")
    assert len(crosses) == 2
    assert {checks.cell_at(root, *checks.centre_of(x)) for x in crosses} == {(r - 1, c + 2)}
    assert checks.robot_cell(svg) == (r, c + 2)
    before = checks.parse(render.svg(cave, "rru", step=1))  # the X comes with the step that fails, at the end
    assert checks.classed(before, "blocked") == []


def test_gif_frames(cave: torch_cave.Level, solution: str) -> None:
    assert checks.gif_frames(render.gif(cave, solution, frames=7)) == 7
    assert checks.gif_frames(render.gif(cave, solution[:5], frames=50)) == 6
    assert checks.gif_frames(render.gif(cave)) == 1


def test_deterministic(cave: torch_cave.Level, solution: str) -> None:
    checks.check_deterministic(cave, solution)


def test_golden(cave: torch_cave.Level) -> None:
    checks.check_golden("torch_cave", "prob16_sample", render.scene(cave))
    # a walk of its own, not the answer: to the first torch, back, and into a wall
    checks.check_golden("torch_cave", "prob16_sample-walk", render.scene(cave, "rrrrrruruullrrrrd"))
    small = torch_cave.Level.parse("H..t|\n-x..T", "small")
    checks.check_golden("torch_cave", "small", render.scene(small, "rrrdr"))


@pytest.mark.parametrize("side", [32, 100])
def test_big_caves_stay_legible(side: int) -> None:
    level = random_level(side, side, seed=side)
    path = gridbot.solve(level, time_limit=60).solution
    assert path is not None
    scene = render.scene(level, path)
    assert scene.board is not None and scene.width <= 820 and scene.height <= 820
    checks.check_text_fits(scene)
    svg = render.svg(level, path)
    assert len(checks.classed(checks.parse(svg), "cell")) == side * side
    assert checks.robot_cell(svg) == divmod(level.treasure, level.width)


def test_steps_are_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    level = torch_cave.Level.parse("H" + "t" * 30 + "T")
    monkeypatch.setattr(drawing, "MAX_STEPS", 10)
    assert drawing.steps(level, "r" * 31) == 10
    caption = render.scene(level, "r" * 31).caption
    assert caption == "<level>: step 10, 155 light left; reached the treasure at step 31 with 434 light left"


def test_edit_cycles_and_round_trips(cave: torch_cave.Level) -> None:
    rows = cave.rows
    wall = next((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "x")
    torch = divmod(cave.torches[0], cave.width)
    floor = next((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == " ")
    border = (0, 3)  # a `-`: a wall, which turns to a torch next
    for r, c in (wall, torch, floor, border):
        checks.check_cycle(torch_cave, drawing, cave, r, c)
    assert torch_cave.Level.parse(drawing.edit(cave, *floor)).rows[floor[0]][floor[1]] == "x"
    assert torch_cave.Level.parse(drawing.edit(cave, *border)).rows[0][3] == "t"
    for keep in (cave.start, cave.treasure):
        r, c = divmod(keep, cave.width)
        assert torch_cave.Level.parse(drawing.edit(cave, r, c)).rows == rows
    with pytest.raises(ValueError):
        drawing.edit(cave, 0, cave.width)
