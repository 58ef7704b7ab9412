"""Light-Bot: levels, programs and the simulator (the solver is issue 5's remaining work)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridbot
from gridbot.errors import GridbotError, LevelError, ProgramError
from gridbot.games import lightbot
from gridbot.games.lightbot import Level, Program
from gridbot.generate.lightbot import random_level

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


@pytest.mark.parametrize("seed", range(40))
def test_random_levels_are_reproducible_and_every_light_can_be_stood_on(seed: int) -> None:
    width, height = 1 + seed % 8, 1 + seed // 8 % 8
    level = random_level(width, height, seed, max_height=seed % 5)
    assert level == random_level(width, height, seed, max_height=seed % 5)
    assert Level.parse(str(level), name="") == level  # a valid level: the text form reads back the same
    assert (len(level.heights), len(level.heights[0])) == (height, width)
    assert all(0 <= h <= seed % 5 for row in level.heights for h in row)
    assert len(level.lights) == min(width * height - 1, len(level.lights)) and level.start not in level.lights
    if width * height >= 8:
        assert 3 <= len(level.lights) <= 7
    reach = set(lightbot.reachable(level))
    assert set(level.lights) <= reach
    asked = random_level(8, 8, seed, lights=5)
    assert len(asked.lights) == 5 and set(asked.lights) <= set(lightbot.reachable(asked))


def test_random_levels_differ_by_seed_and_refuse_bad_arguments() -> None:
    assert len({str(random_level(6, 6, seed)) for seed in range(20)}) == 20
    for bad in ((0, 5, 1), (5, 101, 1)):
        with pytest.raises(ValueError):
            random_level(*bad)
    with pytest.raises(ValueError):
        random_level(2, 2, 0, lights=4)  # three tiles besides the robot's
    with pytest.raises(ValueError):
        random_level(3, 3, 0, max_height=10)


def test_reachable_tiles_follow_the_moves() -> None:
    level = Level.parse("0020\n0120\n\n>...\n....")
    # J climbs one: 0 -> 1 -> 2; a 2 next to a 0 cannot be climbed from it, but is reached from the 1
    assert lightbot.reachable(level) == [(r, c) for r in range(2) for c in range(4)]
    walled = Level.parse("020\n\n>..")  # the 2 stops both moves: the last tile is out of reach
    assert lightbot.reachable(walled) == [(0, 0)]


def test_boards_are_at_most_100_by_100() -> None:
    side = lightbot.MAX_SIDE
    assert side == 100
    big = Level.parse(
        "\n".join(["0" * side] * side) + "\n\n>" + "." * (side - 1) + "\n" + "\n".join(["." * side] * (side - 1))
    )
    assert len(big.heights) == side
    with pytest.raises(LevelError) as wide:
        Level.parse("; a comment\n" + "0" * (side + 1) + "\n\n>" + "." * side)
    assert (wide.value.line, wide.value.column) == (2, side + 1)
    with pytest.raises(LevelError) as tall:
        Level.parse("\n".join(["0"] * (side + 1)) + "\n\n>\n" + "\n".join(["."] * side))
    assert (tall.value.line, tall.value.column) == (side + 1, 1)
    with pytest.raises(LevelError) as markers:
        Level.parse("0" * side + "\n\n>" + "." * side)
    assert (markers.value.line, markers.value.column) == (3, side + 1)
    assert len(str(big).encode()) <= lightbot.MAX_LEVEL_BYTES


def test_a_level_file_past_the_format_cap_is_refused(tmp_path) -> None:
    """A 100 x 100 level is read; the same level behind 200 kB of comments is past what the format needs."""
    from gridbot import levels

    side = lightbot.MAX_SIDE
    text = "\n".join(["0" * side] * side) + "\n\n>" + "." * (side - 2) + "*\n" + "\n".join(["." * side] * (side - 1))
    path = tmp_path / "big.txt"
    path.write_text(text)
    assert len(levels.load(str(path), "lightbot").lights) == 1
    path.write_text("; " + "x" * 200_000 + "\n" + text)
    with pytest.raises(GridbotError, match="larger than"):
        levels.load(str(path), "lightbot")
    assert levels.max_bytes("lightbot") == lightbot.MAX_LEVEL_BYTES < 2**17


@FAST
@given(levels(rows=4, cols=(1, 5), heights="0123"))
def test_the_move_table_follows_the_game_rule(level: Level) -> None:
    """The solver's vectorised table (kernels.lightbot.board_arrays) against Level.move, tile by tile."""
    from gridbot.kernels.lightbot import board_arrays, state_table

    from .brute import board_arrays as by_rule

    mine, theirs = board_arrays(level), by_rule(level)
    assert (mine[0] == theirs[0]).all() and (mine[1] == theirs[1]).all() and mine[2:] == theirs[2:]
    after = state_table(mine[0])
    for pos in range(mine[0].shape[0]):
        for f in range(4):
            expected = (theirs[0][pos, f, 0] * 4 + f, theirs[0][pos, f, 1] * 4 + f, pos * 4 + (f + 3) % 4)
            assert tuple(after[pos * 4 + f, :3]) == expected and after[pos * 4 + f, 3] == pos * 4 + (f + 1) % 4


def test_an_endless_run_keeps_one_state_per_call_under_way() -> None:
    """A recursion that walks the diagonal of a 100 x 100 board (99 calls, 500 steps) and then stands in the
    corner for ever: the repeat is seen at a procedure's entry, and only the entries of the calls under way are
    kept (about 100 small numbers), not a state per step (which took 73 kB here)."""
    import tracemalloc

    side = lightbot.MAX_SIDE
    marks = [["."] * side for _ in range(side)]
    marks[0][0], marks[0][side - 1], marks[side - 1][0] = ">", "*", "*"
    level = Level.parse("\n".join(["0" * side] * side) + "\n\n" + "\n".join("".join(row) for row in marks))
    tracemalloc.start()
    try:
        verdict = lightbot.run(level, "main: 1 f1: FRFL1").verdict
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert verdict.status == "forever" and verdict.remaining == 2 and verdict.step == 501
    assert peak < 32 * 2**10


def test_a_long_run_calls_its_tick(monkeypatch) -> None:
    """run(..., tick): a solver's re-check of an answer looks at its clock every TICK_STEPS steps."""
    side = lightbot.MAX_SIDE
    marks = [["."] * side for _ in range(side)]
    marks[0][0], marks[side - 1][side - 1] = ">", "*"
    level = Level.parse("\n".join(["0" * side] * side) + "\n\n" + "\n".join("".join(row) for row in marks))
    program = "main: 1 f1: FRFL22X1 f2: RRRRRRRR"  # down the diagonal, two full turns and an X at each tile
    monkeypatch.setattr(lightbot, "TICK_STEPS", 64)
    ticks: list[int] = []
    run = lightbot.run(level, program, tick=lambda: ticks.append(1))
    assert run.verdict.status == "completed" and run.verdict.step > 2000
    assert len(ticks) == run.verdict.step // 64

    class Stop(Exception):
        pass

    def stop() -> None:
        raise Stop

    with pytest.raises(Stop):
        lightbot.run(level, program, tick=stop)
