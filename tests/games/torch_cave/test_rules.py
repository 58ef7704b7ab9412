"""Torch cave: levels, paths and the simulator (the solver: test_solver.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, settings

import gridbot.solve.torch_cave as solver
from gridbot.errors import LevelError, ProgramError
from gridbot.games import torch_cave
from gridbot.games.torch_cave import Level, parse_program, run

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_cave(rng: random.Random, height: int, width: int, torches: int, walls: float) -> str:
    torches = min(torches, height * width - 2)
    grid = [["x" if rng.random() < walls else "." for _ in range(width)] for _ in range(height)]
    picks = rng.sample([(r, c) for r in range(height) for c in range(width)], 2 + torches)
    for (r, c), ch in zip(picks, "HT" + "t" * torches, strict=True):
        grid[r][c] = ch
    return "\n".join("".join(row) for row in grid)


# ---------------------------------------------------------------- levels


def test_parse_reads_walls_floor_torches_and_ragged_rows() -> None:
    level = Level.parse("|-x.\r\nHt#o\nT\n\n", name="c.txt")
    assert level.rows == ("|-x.", "Ht#o", "T   ")  # padded with floor
    assert (level.width, level.height) == (4, 3)
    assert level.start == 4 and level.treasure == 8 and level.torches == (5,)
    assert [level.walls[i] for i in range(4)] == [1, 1, 1, 0]
    assert level.move(4, "r") == 5 and level.move(4, "u") == -1 and level.move(4, "l") == -1
    assert level.move(8, "r") == 9  # padding is floor
    assert level.move(8, "d") == -1  # off the map
    assert level.position(5) == (2, 2)


@pytest.mark.parametrize(
    ("text", "line", "column", "fragment"),
    [
        ("..T\n...", 1, 1, "no hero start H"),
        ("H.H\nT", 1, 3, "second hero start"),
        ("H..\n..t", 1, 1, "no treasure T"),
        ("HT\n.T", 2, 2, "second treasure"),
        ("", 1, 1, "empty"),
        ("H\tT", 1, 2, "unexpected character"),
    ],
)
def test_level_errors_name_line_and_column(text: str, line: int, column: int, fragment: str) -> None:
    with pytest.raises(LevelError) as info:
        Level.parse(text, name="cave.txt")
    assert (info.value.line, info.value.column) == (line, column)
    assert fragment in info.value.message
    assert str(info.value).startswith(f"cave.txt:{line}:{column}: ")


def test_path_text() -> None:
    assert str(parse_program(" U d\nL r ")) == "udlr"
    with pytest.raises(ProgramError) as info:
        parse_program("uu x")
    assert info.value.column == 4 and "unexpected 'x'" in str(info.value)


# ---------------------------------------------------------------- the simulator


def test_light_rules_step_by_step() -> None:
    level = Level.parse("Ht..T")
    walk = run(level, "rlrrrr")  # the torch gives light the first time only
    assert [s.light for s in walk.steps] == [29, 28, 27, 26, 25, 24]
    assert [s.torch for s in walk.steps] == [True, False, False, False, False, False]
    assert [level.position(s.cell) for s in walk.steps[:3]] == [(1, 2), (1, 1), (1, 2)]
    assert walk.verdict.status == "completed" and walk.verdict.step == 6 and walk.verdict.light == 24
    assert str(walk.verdict) == "reached the treasure at step 6 with 24 light left"
    assert walk.taken == 1


def test_the_last_unit_of_light_may_be_spent() -> None:
    corridor = "H" + "." * 14 + "T"  # 15 steps: exactly the light
    assert run(Level.parse(corridor), "r" * 15).verdict.won
    far = Level.parse("H" + "." * 15 + "T")
    verdict = run(far, "r" * 16).verdict
    assert (verdict.status, verdict.reason, verdict.step, verdict.light) == ("incomplete", "out of light", 15, 0)
    assert str(verdict) == "stopped at step 16: no light left (after 15 steps)"
    assert solver.solve(far).status == "unsolvable"


def test_walls_and_the_end_of_the_path() -> None:
    level = Level.parse("H.x\n..T")
    verdict = run(level, "rr").verdict
    assert (verdict.status, verdict.reason, verdict.step, verdict.blocked) == ("incomplete", "wall", 1, (1, 3))
    assert str(verdict) == "stopped at step 2: a wall at line 1, column 3"
    off = run(level, "u").verdict
    assert off.reason == "wall" and off.blocked == (0, 1)
    ended = run(level, "d").verdict
    assert (ended.status, ended.reason, ended.step, ended.remaining) == ("incomplete", "ended", 1, 1)
    assert str(ended) == "ended after 1 step without reaching the treasure (14 light left)"
    assert run(level, "drrlll").verdict.step == 3  # the walk stops on the treasure


def test_format_trace_draws_the_path_and_the_light() -> None:
    level = Level.parse("Ht.\n..T")
    walk = run(level, "rrd")
    text = torch_cave.format_trace(level, walk)
    assert text.splitlines()[:2] == ["H+v", "..T"]
    assert "   1     r     1       2     29  torch +15" in text
    assert "   3     d     2       3     27  treasure" in text
    assert text.endswith("reached the treasure at step 3 with 27 light left")
    cut = torch_cave.format_trace(level, walk, limit=1)
    assert not any(line.startswith("   2 ") for line in cut.splitlines()) and "trace cut after 1 step" in cut


def random_walk(rng: random.Random) -> tuple[Level, str]:
    """A small cave with random lights and up to 40 random moves (often into walls, off the map or dark)."""
    level = Level.parse(
        random_cave(rng, rng.randint(1, 9), rng.randint(2, 9), rng.randint(0, 9), rng.random() * 0.3),
        start_light=rng.randint(1, 9),
        torch_light=rng.randint(1, 9),
    )
    return level, "".join(rng.choice("udlr") for _ in range(rng.randint(0, 40)))


def test_run_agrees_with_the_move_and_enter_rules() -> None:
    """The simulator inlines Level.move and keeps taken torches as flags: the same light, cells and verdicts."""
    rng = random.Random(22)
    for _ in range(300):
        level, moves = random_walk(rng)
        walk = run(level, moves)
        cell, light, taken, expected = level.start, level.start_light, 0, []
        for move in moves:
            target = level.move(cell, move)
            if light < 1 or target < 0:
                break
            cell = target
            light, taken = level.enter(cell, light - 1, taken)
            expected.append((cell, light))
            if cell == level.treasure:
                break
        assert [(s.cell, s.light) for s in walk.steps] == expected
        assert walk.taken == taken and walk.verdict.step == len(expected)


def test_long_walks_by_arrays_agree_with_the_loop(monkeypatch) -> None:
    """`run` walks LONG_WALK moves or more by array operations: the same steps, lights, torches and verdict."""
    rng = random.Random(23)
    for _ in range(400):
        level, moves = random_walk(rng)
        monkeypatch.setattr(torch_cave, "LONG_WALK", 10**9)
        loop = run(level, moves)
        monkeypatch.setattr(torch_cave, "LONG_WALK", 0)
        arrays = run(level, moves)
        assert arrays.verdict == loop.verdict, (str(level), moves)
        assert (arrays.cells, arrays.light_left, arrays.fresh) == (loop.cells, loop.light_left, loop.fresh)
        assert arrays.taken == loop.taken
