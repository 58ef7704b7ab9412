"""Parsers of levels and programs: only gridbot's own errors come out, programs round-trip."""

from __future__ import annotations

import contextlib
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gridbot.errors import GridbotError, LevelError, ProgramError
from gridbot.games import carrots
from gridbot.games.carrots import Level, Loop, Move, Program, parse_program
from gridbot.grid import grid_rows

NOTATION = "FLRloop(){} 0123456789#SO \n\r\t"
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TREES = settings(FAST, max_examples=80)  # generating program trees is the slow part
# Characters whose upper case is longer (ligatures, sharp s), non-ASCII digits and exotic line breaks.
TRICKY = ["\ufb00", "\ufb02", "\u00df", "\u0130", "\u00b2", "\u0663", "\u2028", "\x85", "\u00a0", "\x0b", "\ufeff"]

notation_text = st.text(alphabet=NOTATION, max_size=80)
tricky_text = st.text(alphabet=st.sampled_from(list(NOTATION) + TRICKY), max_size=40)
# Words of the notation glued at random, so that well-formed and near-miss programs both come up.
notation_words = st.lists(
    st.sampled_from(
        ["F", "L", "R", "f", "LOOP", "loop", "LoOp", "(", ")", "{", "}", "0", "7", "12", " ", "\n", "x", *TRICKY]
    ),
    max_size=30,
).map("".join)


counts = st.one_of(st.none(), st.integers(min_value=1, max_value=10**12))
moves = st.sampled_from([Move("F"), Move("L"), Move("R")])


def statements(depth: int) -> st.SearchStrategy:
    if depth == 0:
        return moves
    body = st.lists(statements(depth - 1), max_size=3).map(tuple)
    return st.one_of(moves, st.builds(Loop, body, counts))


programs = st.lists(statements(4), max_size=4).map(lambda body: Program(tuple(body)))


def only_gridbot_errors(parse, text: str) -> None:
    with contextlib.suppress(GridbotError):  # any other exception fails the test
        parse(text)


# ---------------------------------------------------------------- fuzzing: nothing but GridbotError


@FAST
@given(st.text(max_size=200))
def test_level_parse_random_text(text):
    only_gridbot_errors(Level.parse, text)


@FAST
@given(st.one_of(notation_text, tricky_text))
def test_level_parse_notation_text(text):
    only_gridbot_errors(Level.parse, text)


@FAST
@given(st.text(max_size=200))
def test_program_parse_random_text(text):
    only_gridbot_errors(parse_program, text)


@FAST
@given(st.one_of(notation_text, notation_words, tricky_text))
def test_program_parse_notation_text(text):
    only_gridbot_errors(parse_program, text)


@TREES
@given(
    programs, st.lists(st.tuples(st.integers(0, 200), st.sampled_from(NOTATION) | st.sampled_from(TRICKY)), max_size=3)
)
@example(Program((Loop((Move("F"),), 12),)), [(6, "\u00b2")])  # "LOOP(1" + superscript two + "2){F}"
@example(Program((Loop((Move("F"),), 1),)), [(0, "\ufb00")])  # the ligature ff, then "LOOP(1){F}"
def test_program_parse_mutated_programs(program, edits):
    """Valid programs with a few characters inserted: errors must still be gridbot's own."""
    text = str(program)
    for where, ch in edits:
        where %= len(text) + 1
        text = text[:where] + ch + text[where:]
    only_gridbot_errors(parse_program, text)


@pytest.mark.parametrize("text", ["\ufb00loop(1){}", "loop(\u00b2){f}", "\ufb02", "LOOP(1){F}\u00df}"])
def test_program_parse_rejects_non_ascii_lookalikes(text):
    # str.upper() can lengthen a string ("\ufb00" -> "FF") and str.isdigit() accepts "\u00b2":
    # neither may turn into a crash or into a program.
    with pytest.raises(ProgramError):
        parse_program(text)


@FAST
@given(st.one_of(notation_text, notation_words))
@example("\ufb00LOOP")
def test_program_errors_point_inside_the_text(text):
    try:
        parse_program(text)
    except ProgramError as exc:
        assert 1 <= exc.column <= len(text) + 1
        assert str(exc).startswith(f"program:1:{exc.column}: ")


@FAST
@given(notation_text)
def test_level_errors_point_inside_the_text(text):
    try:
        Level.parse(text, name="t.txt")
    except LevelError as exc:
        lines = text.split("\n") or [""]
        assert 1 <= exc.line <= max(1, len(lines))
        assert exc.column >= 1
        assert str(exc).startswith(f"t.txt:{exc.line}:{exc.column}: ")


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


def test_grid_rows_pads_ragged_rows():
    assert grid_rows("S##\n#\n##", fill=" ") == ("S##", "#  ", "## ")
    assert grid_rows("ab\ncdef", fill=".") == ("ab..", "cdef")


def test_grid_rows_ignores_trailing_cr_and_blank_lines():
    assert grid_rows("S#\r\n#\r\n\r\n\n\n", fill=" ") == ("S#", "# ")
    assert grid_rows("S#\r", fill=" ") == ("S#",)
    assert grid_rows("\nS", fill=" ") == (" ", "S")  # leading blank lines are rows


def test_grid_rows_empty():
    for text in ("", "\n", "\r\n\r\n", "   \n"):
        with pytest.raises(LevelError, match="empty"):
            grid_rows(text, fill=" ", source="x")


@FAST
@given(st.lists(st.text(alphabet="S#O ", max_size=8), min_size=1, max_size=8), st.booleans())
def test_grid_rows_is_rectangular(lines, crlf):
    text = ("\r\n" if crlf else "\n").join(lines)
    if not any(line.strip() for line in lines):
        with pytest.raises(LevelError):
            grid_rows(text, fill=" ")
        return
    rows = grid_rows(text, fill=" ")
    assert len({len(r) for r in rows}) == 1
    assert [r.rstrip() for r in rows] == [line.rstrip() for line in lines][: len(rows)]
    assert all(not line.strip() for line in lines[len(rows) :])
