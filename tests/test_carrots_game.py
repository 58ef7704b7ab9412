"""The Carrots simulator: its fast verdicts against plain step-by-step interpretation."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridbot
from gridbot.games import carrots
from gridbot.games.carrots import Level, Loop, Move, Program

from .test_solve_carrots import small_boards

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
