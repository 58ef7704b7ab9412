"""The Carrots simulator: its fast verdicts against plain step-by-step interpretation."""

from __future__ import annotations

import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridbot
from gridbot.games import carrots
from gridbot.games.carrots import Level, Loop, Move, Program
from gridbot.generate.carrots import random_level

from .test_solver import small_boards

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def bounded_programs() -> st.SearchStrategy[Program]:
    """Programs with small counts only, so that plain interpretation ends quickly."""
    statements = st.recursive(
        st.sampled_from("FLR").map(Move),
        lambda inner: st.builds(Loop, st.lists(inner, min_size=0, max_size=3).map(tuple), st.integers(1, 6)),
        max_leaves=8,
    )
    return st.lists(statements, max_size=5).map(lambda body: Program(tuple(body)))


def plain_verdict(level: Level, program: Program) -> tuple[str, int, int]:
    """(status, step, remaining) from the step-by-step interpreter `carrots.steps`."""
    marks = level.initial_marks | 1 << level.start
    number = 0
    for step in carrots.steps(level, program):
        number, marks = step.number, step.marks
    remaining = bin(level.goal & ~marks).count("1")
    return ("completed" if remaining == 0 else "incomplete"), number, remaining


@FAST
@given(small_boards(max_squares=6), bounded_programs())
def test_verdict_matches_plain_interpretation(level: Level, program: Program) -> None:
    verdict = carrots.run(level, program).verdict
    assert (verdict.status, verdict.step, verdict.remaining) == plain_verdict(level, program)


@FAST
@given(small_boards(max_squares=6), bounded_programs())
def test_trace_follows_the_rules_step_by_step(level: Level, program: Program) -> None:
    run = carrots.run(level, program)
    state, marks = level.start_state, level.initial_marks | 1 << level.start
    trace = run.trace(limit=500)
    for step in trace:
        state = carrots.step(level, state, step.op)
        marks |= 1 << state[0] if step.op == "F" else 0
        assert (step.square, step.facing, step.marks) == (state[0], state[1], marks)
    if run.verdict.won and 0 < run.verdict.step <= 500:
        assert trace[-1].number == run.verdict.step and trace[-1].marks == level.goal


def test_huge_counts_are_answered_exactly_and_at_once() -> None:
    level = Level.parse("S#")
    verdict = carrots.run(level, "LOOP(1000000000){L} F").verdict
    assert (verdict.status, verdict.step) == ("completed", 1_000_000_001)
    nested = carrots.run(level, "LOOP(1000000000){LOOP(1000000000){L}} R").verdict
    assert (nested.status, nested.step, nested.remaining) == ("incomplete", 10**18 + 1, 1)
    board = gridbot.load("carrots:3")
    assert str(carrots.run(board, "LOOP(1000000000){F F R}").verdict) == "completed at step 10"


def test_unbounded_loops_that_cannot_complete_are_reported_as_forever() -> None:
    board = gridbot.load("carrots:3")
    verdict = carrots.run(board, "LOOP{F R}").verdict
    assert verdict.status == "forever" and verdict.remaining == 6
    assert carrots.run(board, "LOOP{LOOP{}} F").verdict.status == "incomplete"  # a loop of nothing does nothing
    assert carrots.run(board, "LOOP{L}").verdict.status == "forever"


def test_completion_stops_the_program_mid_loop() -> None:
    level = Level.parse("S##")
    run = carrots.run(level, "LOOP{F} L L L")
    assert run.verdict.status == "completed" and run.verdict.step == 2
    assert [s.op for s in run.trace()] == ["F", "F"]


def test_level_text_round_trip_and_picture() -> None:
    level = gridbot.load("carrots:6")
    assert Level.parse(str(level)).rows == level.rows
    picture = level.picture(level.initial_marks | 1 << level.start, level.start_state)
    assert picture.splitlines()[2] == "#o>o#"


# ---------------------------------------------------------------- big boards, exact and in linear memory


def full_board(width: int, height: int) -> Level:
    """A board of squares only, the start in the top left corner."""
    return Level.parse("\n".join(["S" + "#" * (width - 1)] + ["#" * width] * (height - 1)))


SNAKE_300 = "LOOP{LOOP(299){F} R F R LOOP(299){F} L F L}"  # 11 tokens: rows east and west, down the 300 x 300 board


def test_simulator_memory_stays_linear_on_a_300_by_300_board() -> None:
    """The memo keeps two numbers per (loop, state), not a set of squares: the 11-token snake on 90,000 squares used
    over 1 GB when each memo entry held a mark mask; the board itself is a few MB."""
    level = full_board(300, 300)
    cases = [
        (SNAKE_300, "completed at step 90597"),
        ("LOOP(1000000000){LOOP(1000000000){F L F R} R}", None),
        ("LOOP{F LOOP(1000){F L F R} R F}", None),
    ]
    for text, expected in cases:
        tracemalloc.start()
        try:
            verdict = carrots.run(level, text).verdict
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert peak < 50 * 2**20, (text, peak)
        if expected is not None:
            assert str(verdict) == expected


def test_big_board_verdicts_match_plain_interpretation() -> None:
    """The shortcuts (plain repetition of small counts, straight LOOP(n){F}, cycle skipping) against step-by-step
    interpretation on a board where runs are long."""
    level = full_board(60, 40)
    for text in [
        "LOOP{LOOP(59){F} R F R LOOP(59){F} L F L}",
        "LOOP(30){LOOP(59){F} R F R LOOP(59){F} L F L}",
        "LOOP(7){LOOP(100){F} R} LOOP(3000){F L F R}",
        "LOOP(20000){F R F L} LOOP(5){LOOP(9){F} L}",
    ]:
        program = Program.parse(text)
        verdict = carrots.run(level, program).verdict
        assert (verdict.status, verdict.step, verdict.remaining) == plain_verdict(level, program), text


def counted_programs() -> st.SearchStrategy[Program]:
    """Programs whose counts reach past the number of states of a small board (4 x squares), so that both the plain
    repetition and the cycle skipping of the simulator are exercised, yet short enough to interpret step by step."""
    statements = st.recursive(
        st.sampled_from("FLR").map(Move),
        lambda inner: st.builds(Loop, st.lists(inner, min_size=1, max_size=2).map(tuple), st.integers(1, 40)),
        max_leaves=5,
    )
    return st.lists(statements, max_size=3).map(lambda body: Program(tuple(body)))


@FAST
@given(small_boards(max_squares=6), counted_programs())
def test_verdict_matches_plain_interpretation_for_counts_past_the_states(level: Level, program: Program) -> None:
    verdict = carrots.run(level, program).verdict
    assert (verdict.status, verdict.step, verdict.remaining) == plain_verdict(level, program)


def repeated_loops() -> st.SearchStrategy[Program]:
    """Programs that use a few loops of moves again and again (as the walk of a big board uses `LOOP(n){F}`), with
    other statements between: the simulator compiles each such loop once, and its copies share what it learnt."""
    loop = st.builds(Loop, st.lists(st.sampled_from("FLR").map(Move), min_size=1, max_size=3).map(tuple),
                     st.integers(1, 6))  # fmt: skip
    move = st.sampled_from("FLR").map(Move)
    bodies = st.lists(loop, min_size=1, max_size=3).flatmap(
        lambda pool: st.lists(st.one_of(st.sampled_from(pool), move), max_size=12)
    )
    return bodies.map(lambda body: Program(tuple(body)))


@FAST
@given(small_boards(max_squares=6), repeated_loops())
def test_verdict_matches_plain_interpretation_for_repeated_loops(level: Level, program: Program) -> None:
    verdict = carrots.run(level, program).verdict
    assert (verdict.status, verdict.step, verdict.remaining) == plain_verdict(level, program)


def naive_hop(level: Level, square: int, facing: int) -> int:
    """The rule of F read straight from the rows: the neighbour that way if it is a square, else stay."""
    r, c = level.squares[square]
    dr, dc = ((-1, 0), (0, 1), (1, 0), (0, -1))[facing]
    inside = 0 <= r + dr < len(level.rows) and 0 <= c + dc < len(level.rows[0])
    if not inside or level.rows[r + dr][c + dc] == " ":
        return square
    return level.squares.index((r + dr, c + dc))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.integers(0, 10**6), st.floats(0.05, 1.0), st.booleans())
def test_hop_table_follows_the_grid(width: int, height: int, seed: int, fill: float, ragged: bool) -> None:
    level = random_level(width, height, seed, fill=fill, marked=0.3)
    text = str(level) if ragged else "\n".join(level.rows)  # str() strips trailing void: ragged rows
    level = Level.parse(text)
    assert level.squares == tuple((r, c) for r, row in enumerate(level.rows) for c, ch in enumerate(row) if ch != " ")
    for square in range(level.size):
        for facing in range(4):
            assert level.hop(square, facing) == naive_hop(level, square, facing)
    marks = sum(1 << i for i, (r, c) in enumerate(level.squares) if level.rows[r][c] in "OS")
    assert level.initial_marks == marks
    assert level.picture(marks) == str(level).replace("S", "o").replace("O", "o")


# ---------------------------------------------------------------- random levels


def test_random_levels_are_deterministic_connected_and_filled_as_asked() -> None:
    from gridbot.solve.carrots import reachable

    for width, height, seed, fill in [(2, 2, 0, 1.0), (40, 40, 1, 0.6), (17, 5, 2, 0.3), (1, 30, 3, 0.5)]:
        level = random_level(width, height, seed, fill=fill)
        assert level.rows == random_level(width, height, seed, fill=fill).rows
        assert len(level.rows) <= height and len(level.rows[0]) <= width  # cropped to the squares
        assert any(row[0] != " " for row in level.rows) and any(row.rstrip() == row for row in level.rows)
        assert level.rows[0].strip() and level.rows[-1].strip()
        assert level.size == max(1, round(fill * width * height))
        assert reachable(level) == set(range(level.size))  # every square joined to S: solvable
        assert str(level).count("S") == 1
    assert random_level(30, 30, 5).rows != random_level(30, 30, 6).rows
    assert "O" not in str(random_level(20, 20, 7, marked=0.0))
    assert "#" not in str(random_level(20, 20, 7, marked=1.0))
    assert random_level(20, 20, 7, name="mine").name == "mine"


@pytest.mark.parametrize(
    "args",
    [(0, 5, 1), (5, 1001, 1), (5, 5, 1, 0.0), (5, 5, 1, 1.5), (5, 5, 1, 0.5, -0.1), (5, 5, 1, float("nan"))],
)
def test_random_level_rejects_bad_arguments(args) -> None:
    with pytest.raises(ValueError):
        random_level(*args)


def test_the_squares_read_as_a_sequence_of_row_and_column() -> None:
    level = Level.parse("S #\n ##\n#")
    expected = [(0, 0), (0, 2), (1, 1), (1, 2), (2, 0)]
    assert list(level.squares) == expected and len(level.squares) == 5
    assert level.squares[1] == (0, 2) and level.squares[-1] == (2, 0) and level.squares[1:3] == tuple(expected[1:3])
    assert level.squares.index((1, 1)) == 2 and (2, 2) not in level.squares
