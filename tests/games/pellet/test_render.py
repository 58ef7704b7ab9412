"""Pellet Eater pictures: every bundled board, a solved run to its end, an illegal move, GIF frames, determinism,
golden SVGs, big boards and editing cells."""

from __future__ import annotations

import pytest

import gridbot
from gridbot import levels, render
from gridbot.games import pellet
from gridbot.generate.pellet import random_level
from gridbot.render import pellet as drawing
from tests.render import checks

NAMES = levels.names("pellet")


@pytest.fixture(scope="module")
def tunnel() -> pellet.Level:
    return gridbot.load("pellet:tunnel")


@pytest.fixture(scope="module")
def solution(tunnel: pellet.Level) -> str:
    result = gridbot.solve(tunnel, time_limit=60)
    assert result.solution is not None
    return str(result.solution)


@pytest.mark.parametrize("name", NAMES)
def test_every_bundled_level_renders(name: str) -> None:
    level = gridbot.load(f"pellet:{name}")
    root = checks.check_renders(level)
    assert len(checks.classed(root, "pellet")) == level.size  # the board alone: every pellet still there
    assert checks.robot_cell(render.svg(level)) == level.start


def test_solved_run_ends_with_every_pellet_eaten(tunnel: pellet.Level, solution: str) -> None:
    walk = pellet.run(tunnel, solution)
    assert walk.verdict.status == "completed"
    assert drawing.steps(tunnel, solution) == len(solution)
    end = render.svg(tunnel, solution)
    root = checks.parse(end)
    assert checks.classed(root, "pellet") == []
    assert checks.robot_cell(end) == walk.cells[-1]
    assert "completed" in render.scene(tunnel, solution).caption
    # the path is one line through every cell entered
    (line,) = checks.classed(root, "path")
    assert len(line.get("points", "").split()) == len(solution) + 1
    middle = render.svg(tunnel, solution, step=40)
    assert checks.robot_cell(middle) == walk.cells[40]
    assert len(checks.classed(checks.parse(middle), "pellet")) == tunnel.size - 40


def test_illegal_move_is_crossed_and_ends_the_picture(tunnel: pellet.Level) -> None:
    moves = "rrrrl"  # the fifth move goes back onto a visited cell
    assert drawing.steps(tunnel, moves) == 4
    svg = render.svg(tunnel, moves)
    crosses = checks.classed(checks.parse(svg), "illegal")
    assert len(crosses) == 2
    r, c = tunnel.start
    assert checks.robot_cell(svg) == (r, c + 4)
    assert {checks.cell_at(checks.parse(svg), *checks.centre_of(x)) for x in crosses} == {(r, c + 3)}
    assert render.svg(tunnel, moves, step=99) == svg  # past the end: the end


def test_gif_frames(tunnel: pellet.Level, solution: str) -> None:
    assert checks.gif_frames(render.gif(tunnel, solution, frames=5)) == 5
    assert checks.gif_frames(render.gif(tunnel, solution[:7], frames=50)) == 8  # every step and the start
    assert checks.gif_frames(render.gif(tunnel)) == 1


def test_deterministic(tunnel: pellet.Level, solution: str) -> None:
    checks.check_deterministic(tunnel, solution)


def test_golden() -> None:
    checks.check_golden("pellet", "ctf_example", render.scene(gridbot.load("pellet:ctf_example")))
    tunnel = gridbot.load("pellet:tunnel")
    checks.check_golden("pellet", "tunnel-walk", render.scene(tunnel, "rrrrrrrrrrrruuuuuuuuulll"))


@pytest.mark.parametrize("side", [32, 100])
def test_big_boards_stay_legible(side: int) -> None:
    level = random_level(side, side, seed=side)
    moves = gridbot.solve(level, time_limit=60).solution
    assert moves is not None
    scene = render.scene(level, moves, step=side)
    assert scene.board is not None and scene.width <= 820 and scene.height <= 820
    checks.check_text_fits(scene)
    root = checks.parse(render.svg(level, moves, step=side))
    assert len(checks.classed(root, "cell")) == side * side
    # from 100 x 100 the cells are too small for dots: what is left shows as tinted cells instead
    assert bool(checks.classed(root, "pellet")) == (scene.board.cell >= drawing.DOT_MIN_CELL)
    assert checks.robot_cell(render.svg(level, moves, step=side)) == pellet.run(level, moves).cells[side]


def test_steps_are_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    level = pellet.Level.parse("S" + "." * 30)
    monkeypatch.setattr(drawing, "MAX_STEPS", 10)
    assert drawing.steps(level, "r" * 30) == 10
    caption = render.scene(level, "r" * 30).caption
    assert caption == "<level>: 10 of 30 pellets eaten; completed at move 30 (every pellet eaten once)"


def test_edit_cycles_and_round_trips(tunnel: pellet.Level) -> None:
    r, c = tunnel.start
    checks.check_cycle(pellet, drawing, tunnel, 0, 0)  # a pellet
    checks.check_cycle(pellet, drawing, tunnel, 1, 1)  # a wall
    assert drawing.edit(tunnel, r, c) == str(tunnel)  # the start stays
    with pytest.raises(ValueError):
        drawing.edit(tunnel, tunnel.height, 0)
    with pytest.raises(ValueError):
        drawing.edit(tunnel, 0, -1)


def test_edit_keeps_the_size_line() -> None:
    level = pellet.Level.parse("3 2\nS..\n#..")
    text = drawing.edit(level, 1, 0)
    assert text.splitlines()[0] == "3 2"
    edited = pellet.Level.parse(text)
    assert edited.first_line == 2 and edited.rows == ("S..", "...")
    checks.check_cycle(pellet, drawing, level, 1, 2)
