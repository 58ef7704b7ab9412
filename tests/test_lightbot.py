"""Light-Bot: levels, programs and the simulator (the solver is issue 5's remaining work)."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridbot
from gridbot.games import lightbot
from gridbot.games.lightbot import Level, Program
from gridbot.grid import GridbotError, LevelError, ProgramError

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_all_bundled_levels_load() -> None:
    sizes = [gridbot.load(f"lightbot:{i}").size for i in range(1, 13)]
    assert all(size >= 1 for size in sizes)


def test_the_published_sixteen_command_program_wins_level_12() -> None:
    level = gridbot.load("lightbot:12")
    program = Program.parse("main: FJ1 f1: X2XR22R1 f2: JXJXJ")
    assert program.tokens == 16
    verdict = lightbot.run(level, program).verdict
    assert verdict.status == "completed"


def test_moves_follow_the_height_rules() -> None:
    level = Level.parse("0121\n\n>...")
    assert level.move((0, 0), 1, "F") == (0, 0)  # one higher: F cannot
    assert level.move((0, 0), 1, "J") == (0, 1)  # J can
    assert level.move((0, 1), 1, "J") == (0, 2)
    assert level.move((0, 2), 1, "J") == (0, 3)  # any amount lower
    assert level.move((0, 2), 1, "F") == (0, 2)
    assert level.move((0, 3), 1, "F") == (0, 3)  # the edge
    assert Level.parse("00\n\n>.").move((0, 0), 1, "F") == (0, 1)
    assert Level.parse("03\n\n>.").move((0, 0), 1, "J") == (0, 0)  # two higher: no


def test_x_toggles_and_the_win_stops_the_run() -> None:
    level = Level.parse("000\n\n>**")
    assert lightbot.run(level, "main: FXFX").verdict.step == 4
    assert lightbot.run(level, "main: FXXFX").verdict.status == "incomplete"  # XX leaves it off
    run = lightbot.run(level, "main: FXFXLL")
    assert run.verdict.step == 4 and len(run.trace()) == 4


def test_calls_return_and_recursion_without_end_is_forever() -> None:
    level = Level.parse("0000\n\n>..*")
    assert lightbot.run(level, "main: 1 1 1 X f1: F").verdict.status == "completed"
    assert lightbot.run(level, "main: 1 X f1: F F").verdict.status == "incomplete"
    deep = lightbot.run(level, "main: 1 f1: L L 1").verdict  # the stack grows for ever
    assert deep.status == "forever"
    mutual = lightbot.run(level, "main: 1 f1: 2 f2: 1").verdict
    assert mutual.status == "forever"
    assert lightbot.run(level, "main: 1 f1: F 1").verdict.status == "forever"
    assert lightbot.run(level, "main: 1 f1: FX1").verdict.status == "completed"
    two = Level.parse("000\n\n>**")
    assert lightbot.run(two, "main: F 1 f1: XX1").verdict.status == "forever"  # on, off, on, off, ...


def test_level_without_lights_is_complete_at_once() -> None:
    assert lightbot.run(Level.parse("0\n\n>"), "main: F").verdict.step == 0


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("", 1, 1),
        ("00\n", 2, 1),
        ("0a\n\n>.", 1, 2),
        ("00\n\n>x", 3, 2),
        ("00\n\n..", 3, 1),
        ("00\n\n>>", 3, 2),
        ("00\n00\n\n>.", 4, 1),
        ("; comment\n00\n\n>?", 4, 2),
    ],
)
def test_level_errors_name_line_and_column(text: str, line: int, column: int) -> None:
    with pytest.raises(LevelError) as err:
        Level.parse(text)
    assert (err.value.line, err.value.column) == (line, column)


def test_program_text_forms() -> None:
    assert str(Program.parse("main: F F J 1 f2: x x f1: r")) == "main: FFJ1 f1: R f2: XX"
    assert Program.parse("FJ1") == Program("FJ1")
    assert Program.parse("MAIN:1 F1:F2 f2 : x") == Program("1", "F2", "X")
    with pytest.raises(ProgramError) as err:
        Program.parse("main: FFFFFFFFFFFFF")
    assert err.value.column == 19
    for bad in ("main: Q", "main: F main: F", "f3: F"):
        with pytest.raises(ProgramError):
            Program.parse(bad)


commands = st.text(alphabet="FJLRX12", max_size=6)


@FAST
@given(commands, commands, commands)
def test_program_round_trip(main: str, f1: str, f2: str) -> None:
    program = Program(main, f1, f2)
    assert Program.parse(str(program)) == program


@FAST
@given(st.text(alphabet="mainf12:FJLRXfjlrx ;\n", max_size=30))
def test_program_parser_raises_only_its_own_errors(text: str) -> None:
    with contextlib.suppress(GridbotError):
        Program.parse(text)


@FAST
@given(st.text(max_size=60))
def test_level_parser_raises_only_its_own_errors(text: str) -> None:
    with contextlib.suppress(GridbotError):
        Level.parse(text)


@st.composite
def levels(
    draw, rows: int = 3, cols: tuple[int, int] = (1, 4), heights: str = "00012", marks: str = "..*", light: bool = False
) -> Level:
    """Up to `rows` x cols[1] tiles (at least cols[0] columns) over `heights` and `marks`; with `light`
    (and cols[0] >= 2), at least one light."""
    n_rows = draw(st.integers(1, rows))
    n_cols = draw(st.integers(*cols))
    tiles = ["".join(draw(st.sampled_from(heights)) for _ in range(n_cols)) for _ in range(n_rows)]
    grid = [[draw(st.sampled_from(marks)) for _ in range(n_cols)] for _ in range(n_rows)]
    r, c = draw(st.integers(0, n_rows - 1)), draw(st.integers(0, n_cols - 1))
    grid[r][c] = draw(st.sampled_from("^>v<"))
    if light and not any("*" in row for row in grid):
        grid[(r + 1) % n_rows][(c + 1) % n_cols] = "*"
    return Level.parse("\n".join(tiles) + "\n\n" + "\n".join("".join(m) for m in grid))


@FAST
@given(levels(), commands, commands, commands)
def test_verdict_agrees_with_plain_interpretation(level: Level, main: str, f1: str, f2: str) -> None:
    program = Program(main, f1, f2)
    verdict = lightbot.run(level, program).verdict
    cap = 3000
    seen = list(zip(range(cap + 1), lightbot.steps(level, program), strict=False))
    full = (1 << level.size) - 1
    if verdict.status == "completed":
        assert verdict.step == 0 or (seen[-1][1].number == verdict.step and seen[-1][1].lit == full)
    elif verdict.status == "incomplete":
        assert len(seen) <= cap and (not seen or seen[-1][1].number == verdict.step)
        assert not seen or seen[-1][1].lit != full
    else:  # forever: plain interpretation neither wins nor ends within the cap
        assert len(seen) == cap + 1
        assert all(step.lit != full for _, step in seen)
