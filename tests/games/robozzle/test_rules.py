"""RoboZZle: levels (the site's JSON and the text form), the notation, and the simulator against the rules."""

from __future__ import annotations

import json
import time

import pytest

import gridbot
from gridbot import levels
from gridbot.errors import LevelError, ProgramError
from gridbot.games import robozzle
from gridbot.games.robozzle import Level, Program
from gridbot.grid import Direction

LINE = "functions: 3 2 0 0 0\npaint: G\nstart: 1 1 east\nrrrR\nbbgg"


def test_the_whole_corpus_is_bundled_with_titles_and_authors() -> None:
    names = levels.names("robozzle")
    assert len(names) == 982
    assert names[:3] == ["14", "15", "16"]  # numeric order
    level = gridbot.load("robozzle:100")
    assert (level.title, level.author, level.slots) == ("3-2-1... Start!", "evko", (4, 3, 2, 2, 0))
    assert (level.width, level.height, level.start, level.facing) == (16, 12, (11, 0), Direction.EAST)


def test_every_bundled_puzzle_reads_back_from_both_forms() -> None:
    for name in levels.names("robozzle")[::7]:
        level = gridbot.load(f"robozzle:{name}")
        assert Level.parse(str(level), name=level.name) == level
        assert Level.parse(json.dumps(robozzle.to_json(level)), name=level.name) == level


def test_the_later_puzzles_are_a_second_set_named_like_the_first() -> None:
    assert levels.level_sets("robozzle") == ["main", "later"]
    later = levels.names("robozzle", "later")
    assert len(later) == 249 and later[0] == "1008"
    assert not set(later) & set(levels.names("robozzle"))  # a name is unique across the sets
    level = gridbot.load("robozzle:1008")
    assert level.name == "robozzle:1008" and levels.bundled("robozzle", "1008") == "1008"
    for name in later[::5]:
        level = gridbot.load(f"robozzle:{name}")
        assert Level.parse(str(level), name=level.name) == level
    with pytest.raises(gridbot.GridbotError, match="no level set 'nope'"):
        levels.names("robozzle", "nope")


def test_a_title_with_spaces_around_it_reads_back_from_the_text_form() -> None:
    site = {
        "Colors": ["RRRR"], "Items": ["...*"], "RobotRow": "0", "RobotCol": "0", "RobotDir": "0",
        "SubLengths": ["3", "0", "0", "0", "0"], "AllowedCommands": "0", "Title": " margin ", "SubmittedBy": "me ",
    }  # fmt: skip
    level = Level.parse(json.dumps(site))
    assert (level.title, level.author) == ("margin", "me")
    assert Level.parse(str(level)) == level


def test_the_sites_json_and_the_text_form_give_one_level() -> None:
    site = {
        "Colors": ["RRRR", "BBGG"], "Items": ["...*", "...."], "RobotRow": "0", "RobotCol": "0", "RobotDir": "0",
        "SubLengths": ["3", "2", "0", "0", "0"], "AllowedCommands": "2", "Title": "", "SubmittedBy": "",
    }  # fmt: skip
    assert Level.parse(json.dumps(site)) == Level.parse(LINE)


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("functions: 3 0 0 0 0\npaint: none\nstart: 1 1 east\nrrxR", 4, 3, "unexpected 'x'"),
        ("functions: 3 0 0 0\npaint: none\nstart: 1 1 east\nrrR", 1, 1, "5 slot counts"),
        ("functions: 3 0 0 0 0\npaint: purple\nstart: 1 1 east\nrrR", 2, 1, "paint"),
        ("functions: 3 0 0 0 0\npaint: none\nstart: 1 1 up\nrrR", 3, 1, "ROW COLUMN FACING"),
        ("functions: 3 0 0 0 0\npaint: none\nstart: 1 3 east\nrrR", 3, 1, "star under the robot"),
        ("functions: 3 0 0 0 0\npaint: none\nstart: 1 2 east\nr.R", 3, 1, "does not start on a tile"),
        ("functions: 3 0 0 0 0\npaint: none\nstart: 1 1 east\nrrr", 4, 1, "no star"),
        ("functions: 0 3 0 0 0\npaint: none\nstart: 1 1 east\nrrR", 1, 1, "F1 must have"),
        ("colour: red\nfunctions: 3 0 0 0 0", 1, 1, "unknown field"),
        ("functions: 3 0 0 0 0\npaint: none\nrrR", 3, 1, "missing field 'start:'"),
        (
            '{"Colors": ["RR"], "Items": [".*"], "RobotRow": 0, "RobotCol": 0, "RobotDir": 9,'
            ' "SubLengths": [1, 0, 0, 0, 0], "AllowedCommands": 0}',
            1,
            67,
            "RobotDir must be from 0 to 3",
        ),
        ('{"Colors": ["RR"],\n "Items": [".*"', 2, 16, "not valid JSON"),
        ("null", 1, 1, "holds no puzzle"),
    ],
)
def test_bad_levels_name_line_and_column(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(LevelError) as caught:
        Level.parse(text, name="p")
    assert (caught.value.line, caught.value.column) == (line, column), str(caught.value)
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("F1: F L rF F2 | F2: gR F F1", "F1: F L rF F2 | F2: gR F F1"),
        ("F L rF F2\nf2: gR F F1", "F1: F L rF F2 | F2: gR F F1"),
        ("F2: L | F1: bPR F2", "F1: bPR F2 | F2: L"),
        ("FLRF2", "F1: F L R F2"),
        ("", "F1:"),
    ],
)
def test_programs_print_canonically_and_parse_back(text: str, canonical: str) -> None:
    program = Program.parse(text)
    assert str(program) == canonical
    assert Program.parse(str(program)) == program


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [("F1: F X", 7, "unexpected 'X'"), ("F1: F F6", 7, "no function F6"), ("F1: F | F1: L", 9, "given twice"),
     ("F1: " + "F " * 11, 25, "more than 10")],
)  # fmt: skip
def test_bad_programs_name_the_column(text: str, column: int, message: str) -> None:
    with pytest.raises(ProgramError) as caught:
        Program.parse(text)
    assert caught.value.column == column and message in str(caught.value)


@pytest.mark.parametrize(
    ("program", "status", "step", "reason"),
    [
        ("F1: F F F", "completed", 3, "won"),
        ("F1: F F", "incomplete", 2, "the program ended"),
        ("F1: L F", "incomplete", 2, "fell off the board"),
        ("F1: F1", "incomplete", 0, "stack overflow"),
        ("F1: L F1", "incomplete", 1000, "out of actions"),
        ("F1: F F2 | F2: bF F2", "incomplete", 1, "stack overflow"),  # on red F2 calls itself without an action
        ("F1: PG gF F1", "completed", 6, "won"),
        ("F1: rF F1", "completed", 3, "won"),
    ],
)
def test_the_rules(program: str, status: str, step: int, reason: str) -> None:
    result = robozzle.run(Level.parse(LINE), program)
    assert (result.verdict.status, result.verdict.step, result.reason) == (status, step, reason)


def _snake(star: int) -> Level:
    """Ten rows of 100 tiles walked as a snake by `F1: F bR gL F1` (blue ends turn right, green ends left), with
    the star at path index `star`: reached after star + (corners passed) actions."""
    rows = []
    for r in range(10):
        row = ["r"] * 100
        row[99] = "b" if r % 2 == 0 or r > 0 else "r"
        if r > 0:
            row[0] = "g"
            row[99] = "b"
        rows.append(row)
    r, k = divmod(star, 100)
    c = k if r % 2 == 0 else 99 - k
    rows[r][c] = rows[r][c].upper()
    return Level.parse("functions: 4 0 0 0 0\npaint: none\nstart: 1 1 east\n" + "\n".join(map("".join, rows)))


def test_a_win_on_the_last_action_counts() -> None:
    # path index 982 is in row 9; corners before it: (0, 99), both ends of rows 1 to 8, the first of row 9: 18
    assert robozzle.run(_snake(982), "F1: F bR gL F1").verdict.step == 1000
    assert robozzle.run(_snake(983), "F1: F bR gL F1").reason == "out of actions"


def test_the_stack_cap_is_configurable() -> None:
    level = Level.parse("functions: 2 0 0 0 0\npaint: none\nstart: 1 1 east\n" + "r" * 60 + "R")
    assert robozzle.run(level, "F1: F F1").verdict.won  # 60 calls deep
    assert robozzle.run(level, "F1: F F1", stack_cap=10).reason == "stack overflow"


def test_a_program_that_does_not_fit_the_puzzle_is_refused() -> None:
    level = Level.parse(LINE)
    for program, message in [("F1: F F F F", "3 slots"), ("F1: F3", "does not have"), ("F1: PR", "allow")]:
        with pytest.raises(ProgramError, match=message):
            robozzle.run(level, program)


@pytest.mark.clock
def test_action_free_call_storms_end_quickly() -> None:
    """Every function calls the next five times, none acts on red: 5^4 calls per round without the shortcut."""
    level = Level.parse("functions: 10 10 10 10 10\npaint: none\nstart: 1 1 east\nrrrR")
    storm = "F1: F2 F2 F2 F2 F2 F F1 | F2: F3 F3 F3 F3 F3 | F3: F4 F4 F4 F4 F4 | F4: F5 F5 F5 F5 F5 | F5: bL"
    started = time.perf_counter()
    assert robozzle.run(level, storm).verdict.won
    assert time.perf_counter() - started < 1.0


def test_trace_shows_each_action() -> None:
    level = Level.parse(LINE)
    text = robozzle.format_trace(level, robozzle.run(level, "F1: F F F"), limit=2)
    assert "step 1: F (F1 slot 1, calls under way: 0)" in text
    assert "... (trace cut after 2 steps)" in text and text.endswith("completed at step 3")


@pytest.mark.parametrize(
    ("field", "typed"),
    [("functions", "functions: ²3 0 0 0 0"), ("start", "start: ²1 1 east")],
    ids=["functions", "start"],
)
def test_a_unicode_digit_in_a_number_field_is_a_level_error_on_its_line(field: str, typed: str) -> None:
    # '²'.isdigit() holds, but int('²') raises ValueError: the parser must answer with its own error
    lines = str(gridbot.load("robozzle:27")).split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith(field + ":"))
    lines[at] = typed
    with pytest.raises(LevelError) as caught:
        Level.parse("\n".join(lines))
    assert caught.value.line == at + 1
