"""Robo's Escape: levels, programs and the simulator (the solver: tests/games/robos_escape/test_solver.py)."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridbot
from gridbot.errors import GridbotError, LevelError, ProgramError
from gridbot.games import robos_escape
from gridbot.games.robos_escape import Level, Program

ROOM = "XXXXXX\nXS   X\nX    X\nX  E X\nXXXXXX"


def outcome(level: Level, program: str) -> tuple[str, int, int, str]:
    result = robos_escape.run(level, program)
    return result.verdict.status, result.verdict.step, result.coins, result.reason


def test_walls_exit_and_score() -> None:
    level = gridbot.load("robos_escape:1")
    run = robos_escape.run(level, "FF")
    assert run.verdict.status == "completed" and run.score == 38
    assert outcome(Level.parse(ROOM), "F") == ("incomplete", 1, 0, "ran off the end of the program")


def test_coins_lasers_and_blocks() -> None:
    level = Level.parse("XXXXXX\nXSCOEX\nXXXXXX")
    assert outcome(level, "LFFF")[0] == "incomplete"  # the block stops the robot
    assert outcome(level, "LXFFF")[0] == "incomplete"  # the laser destroys the coin first, not the block
    assert outcome(level, "LXXFFF")[:3] == ("completed", 6, 0)  # coin lost, block gone
    run = robos_escape.run(level, "LFGXFF")
    assert (run.verdict.status, run.coins, run.score) == ("completed", 1, 44)
    crossing = Level.parse("XXXXXX\nXS-OEX\nXXXXXX")
    assert outcome(crossing, "LXFFF")[0] == "incomplete"  # the laser crosses '-', the robot cannot


def test_calls_definitions_and_returns() -> None:
    level = Level.parse(ROOM)  # S at (1, 1) facing south, E at (3, 3)
    assert outcome(level, "1L1.'1FF.")[0] == "completed"  # call, body, return, turn, call again
    # running into a definition runs its body; '.' with nothing pushed restarts, so this never ends
    assert outcome(level, "'1F.")[1:] == (10_000, 0, "more than 10000 commands")
    assert outcome(level, "'1RF")[:2] == ("incomplete", 2)
    assert outcome(level, "F.")[3] == "more than 10000 commands"  # '.' with nothing pushed restarts: endless
    assert outcome(level, "1")[3] == "ran off the end of the program"  # no '1: the call only pushes


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [("", 1, 1), ("XQ\nS", 1, 2), ("X\nXX", 1, 1), ("SS", 1, 2), ("X" * 11, 1, 11), ("S\n" * 11, 11, 1)],
)
def test_level_errors(text: str, line: int, column: int) -> None:
    with pytest.raises(LevelError) as err:
        Level.parse(text)
    assert (err.value.line, err.value.column) == (line, column)


def test_program_text() -> None:
    assert str(Program.parse("f l 1 . '1 g x")) == "FL1.'1GX"
    assert Program.parse("FL1.'1GX").tokens == 7
    for bad, column in (("FQ", 2), ("F'", 2)):
        with pytest.raises(ProgramError) as err:
            Program.parse(bad)
        assert err.value.column == column


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet="FLRGX12345.' fq", max_size=20))
def test_runs_always_end(text: str) -> None:
    """Within MAX_COMMANDS commands, whatever the program (its parser: tests/games/test_parsers.py)."""
    with contextlib.suppress(GridbotError):
        program = Program.parse(text)
        result = robos_escape.run(gridbot.load("robos_escape:1"), program)
        assert result.verdict.step <= robos_escape.MAX_COMMANDS
