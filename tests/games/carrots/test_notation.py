"""Carrots' notation: programs made at random print and read back, whitespace and case, the columns of errors and
the limits, the lines of level errors (every game's parsers fuzzed alike: tests/games/test_parsers.py)."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gridbot.errors import LevelError, ProgramError
from gridbot.games import carrots
from gridbot.games.carrots import Level, Loop, Move, Program, parse_program

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TREES = settings(FAST, max_examples=80)  # generating program trees is the slow part

counts = st.one_of(st.none(), st.integers(min_value=1, max_value=10**12))
moves = st.sampled_from([Move("F"), Move("L"), Move("R")])


def statements(depth: int) -> st.SearchStrategy:
    if depth == 0:
        return moves
    body = st.lists(statements(depth - 1), max_size=3).map(tuple)
    return st.one_of(moves, st.builds(Loop, body, counts))


programs = st.lists(statements(4), max_size=4).map(lambda body: Program(tuple(body)))


# ---------------------------------------------------------------- fuzzing: nothing but GridbotError


@pytest.mark.parametrize("text", ["\ufb00loop(1){}", "loop(\u00b2){f}", "\ufb02", "LOOP(1){F}\u00df}"])
def test_program_parse_rejects_non_ascii_lookalikes(text):
    # str.upper() can lengthen a string ("\ufb00" -> "FF") and str.isdigit() accepts "\u00b2":
    # neither may turn into a crash or into a program.
    with pytest.raises(ProgramError):
        parse_program(text)


# ---------------------------------------------------------------- round trip


@TREES
@given(programs)
def test_program_round_trip(program):
    text = str(program)
    assert Program.parse(text) == program
    assert parse_program(text.lower()) == program
    assert str(parse_program(text)) == text
    # the L of each LOOP stands for the loop's own token
    assert program.tokens == text.count("F") + text.count("L") + text.count("R")


def spread(text: str, gaps: list[str]) -> str:
    """The tokens of canonical `text` joined by whitespace taken in turn from `gaps`."""
    tokens = re.findall(r"LOOP|\d+|[FLR(){}]", text)
    return "".join(tok + gaps[k % len(gaps)] for k, tok in enumerate(tokens))


@TREES
@given(programs, st.lists(st.sampled_from(["", " ", "  ", "\n", "\t", " \r\n "]), min_size=1, max_size=8))
def test_whitespace_tolerance(program, gaps):
    assert parse_program(spread(str(program), gaps)) == program


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("loop ( 3 ) { f }", "LOOP(3){F}"),
        ("LOOP(3){F}", "LOOP(3){F}"),
        ("Loop{ f F r l }", "LOOP{F F R L}"),
        ("loop{loop(2){f}r}", "LOOP{LOOP(2){F} R}"),
        ("FLR", "F L R"),
        ("  \n", ""),
        ("LOOP(007){F}", "LOOP(7){F}"),
        ("LOOP{}", "LOOP{}"),
    ],
)
def test_case_and_whitespace(text, canonical):
    assert str(parse_program(text)) == canonical
    assert parse_program(text) == parse_program(canonical)


@pytest.mark.parametrize(
    ("text", "column", "fragment"),
    [
        ("LOOP(0){F}", 6, "at least 1"),
        ("F}", 2, "without an open LOOP"),
        ("LOOP{F", 1, "not closed"),
        ("F LOOP(2){F", 3, "not closed"),
        ("LOOP(){F}", 6, "expected a loop count"),
        ("LOOP(2{F}", 7, "expected ')'"),
        ("LOOP F", 6, "expected '{'"),
        ("F x", 3, "unexpected 'x'"),
        ("LOOP(-1){F}", 6, "expected a loop count"),
    ],
)
def test_program_error_columns(text, column, fragment):
    with pytest.raises(ProgramError) as info:
        parse_program(text)
    assert info.value.column == column
    assert fragment in str(info.value)
    assert str(info.value).startswith(f"program:1:{column}: ")


def test_program_nesting_and_count_limits():
    deep = "LOOP{" * (carrots.MAX_NESTING + 1) + "}" * (carrots.MAX_NESTING + 1)
    with pytest.raises(ProgramError, match="nested deeper"):
        parse_program(deep)
    with pytest.raises(ProgramError, match="digits"):
        parse_program("LOOP(" + "9" * (carrots.MAX_COUNT_DIGITS + 1) + "){F}")
    assert parse_program(f"LOOP({10**12}){{F}}").body[0].count == 10**12


# ---------------------------------------------------------------- levels


@pytest.mark.parametrize(
    ("text", "line", "column", "fragment"),
    [
        ("S#\n##x", 2, 3, "unknown character 'x'"),
        ("S#S", 1, 3, "second start"),
        ("#S\n\n# S#", 3, 3, "second start"),
        ("###\n# #", 1, 1, "no start"),
        ("", 1, 1, "empty"),
        ("\n\n  \r\n", 1, 1, "empty"),
        ("S\t#", 1, 2, "unexpected character"),
        ("S#\n#\r#", 2, 2, "unexpected character"),
        ("s##", 1, 1, "unknown character 's'"),
    ],
)
def test_level_error_positions(text, line, column, fragment):
    with pytest.raises(LevelError) as info:
        Level.parse(text, name="board.txt")
    err = info.value
    assert (err.line, err.column) == (line, column)
    assert fragment in err.message
    assert str(err).startswith(f"board.txt:{line}:{column}: ")


def test_level_too_large():
    with pytest.raises(LevelError, match="too many rows"):
        Level.parse("S\n" + "#\n" * 1000)
    with pytest.raises(LevelError, match="row too long") as info:
        Level.parse("S" + "#" * 1000)
    assert (info.value.line, info.value.column) == (1, 1001)


def test_level_reads_ragged_crlf_text():
    level = Level.parse("S##\r\n  #\r\n  #\r\n\r\n\n")
    assert level.rows == ("S##", "  #", "  #")
    assert level.size == 5
    assert carrots.run(level, "LOOP{F F R}").verdict.won
