"""The Light-Bot search's mirror cut (gridbot.solve.lightbot, cut 12): on a level that is its own mirror image
across the robot's line of travel, only programs whose first turn is R are searched. Against every program tried
(tests/games/lightbot/brute.py), against the search without the cut, and on the candidates counted."""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridbot
from gridbot.games import lightbot
from gridbot.games.lightbot import Level
from gridbot.solve.lightbot import DEFAULT, solve, tables

from .test_solver import agrees_with_every_program

NO_LOOK_AHEAD = dataclasses.replace(DEFAULT, guess_after=float("inf"))  # the exact search alone
PLAIN = dataclasses.replace(NO_LOOK_AHEAD, mirror_cut=False)


@st.composite
def mirrored(draw, cols: tuple[int, int] = (2, 4), heights: str = "000112") -> Level:
    """Levels that are their own mirror image across the robot's row: one row or three (the third the first
    again), the robot on the middle row facing east or west, lights in mirrored pairs or on the middle row; the
    grid turned a quarter half of the time (the robot's column is then the line)."""
    w = draw(st.integers(*cols))
    three = draw(st.booleans())
    above = "".join(draw(st.sampled_from(heights)) for _ in range(w))
    middle = "".join(draw(st.sampled_from(heights)) for _ in range(w))
    marks_above = [draw(st.sampled_from("..*")) for _ in range(w)]
    marks_middle = [draw(st.sampled_from("..*")) for _ in range(w)]
    start = draw(st.integers(0, w - 1))
    marks_middle[start] = draw(st.sampled_from("><"))
    if "*" not in marks_middle and not (three and "*" in marks_above):
        marks_middle[(start + 1) % w] = "*"
    rows = [above, middle, above] if three else [middle]
    marks = [marks_above, marks_middle, marks_above] if three else [marks_middle]
    if draw(st.booleans()):  # a quarter turn clockwise: the robot faces south or north along its column
        turn = {">": "v", "<": "^"}
        rows = ["".join(row[c] for row in reversed(rows)) for c in range(w)]
        marks = [[turn.get(m[c], m[c]) for m in reversed(marks)] for c in range(w)]
    return Level.parse("\n".join(rows) + "\n\n" + "\n".join("".join(m) for m in marks))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mirrored())
def test_the_fewest_commands_with_the_mirror_cut_equal_every_program_tried(level: Level) -> None:
    assert tables(level).mirror
    agrees_with_every_program(level, 6)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mirrored(cols=(3, 5), heights="0001123"))
def test_the_mirror_cut_keeps_the_fewest_commands_at_lengths_the_brute_force_cannot_reach(level: Level) -> None:
    """The same answer up to 10 commands with the cut and without it (Settings.mirror_cut)."""
    cut = solve(level, max_length=10, settings=NO_LOOK_AHEAD, workers=1)
    plain = solve(level, max_length=10, settings=PLAIN, workers=1)
    assert (cut.status, cut.length) == (plain.status, plain.length)
    if cut.program is not None:
        assert lightbot.run(level, cut.program).verdict.won


def test_a_level_is_its_own_mirror_image_only_across_the_robots_line_of_travel() -> None:
    def mirror(text: str) -> bool:
        return tables(Level.parse(text)).mirror

    assert mirror("010\n000\n010\n\n..*\n>..\n..*")
    assert mirror("010\n000\n010\n\n..*\n..<\n..*")
    assert not mirror("010\n000\n010\n\n..*\nv..\n..*")  # across column 1: the columns differ
    assert not mirror("010\n000\n011\n\n..*\n>..\n..*")  # a height without its mirror image
    assert not mirror("010\n000\n010\n\n..*\n>..\n...")  # a light without its mirror image
    assert not mirror("000\n000\n\n>.*\n...")  # the grid's edge above, a tile below: not the same
    assert mirror("000\n\n>.*")
    assert not tables(gridbot.load("lightbot:12")).mirror  # its top row has no mirror image below


def test_a_u_turn_first_is_kept() -> None:
    """The light behind the robot: the first turn is half a U-turn, R R (cut 1 keeps R R, not L L), so the cut
    must keep R."""
    level = Level.parse("000\n\n*>.")
    assert tables(level).mirror
    result = solve(level, settings=NO_LOOK_AHEAD, workers=1)
    assert result.status == "optimal" and result.length == 4 and str(result.program) == "main: RRFX"


def test_turns_both_ways_after_the_first_are_searched() -> None:
    """Four corner lights that a loop of 9 commands lights only with turns both ways (with rights alone, 10). The
    cut narrows the first turn only: the same fewest commands as without it, in fewer candidates."""
    level = Level.parse("0201\n1013\n0201\n\n*..*\n>...\n*..*")
    assert tables(level).mirror
    cut = solve(level, settings=NO_LOOK_AHEAD, workers=1)
    plain = solve(level, settings=PLAIN, workers=1)
    assert cut.status == plain.status == "optimal" and cut.length == plain.length == 9
    assert lightbot.run(level, cut.program).verdict.won
    assert cut.stats["candidates"] < 0.7 * plain.stats["candidates"]


def test_every_optimal_program_is_listed_with_its_mirror_image() -> None:
    level = Level.parse("000\n020\n000\n\n...\n>.*\n...")
    listed = solve(level, all_solutions=True, settings=NO_LOOK_AHEAD, workers=1)
    firsts = {next(ch for ch in str(p).replace("main:", "") if ch in "LR") for p in listed.solutions}
    assert listed.status == "optimal" and firsts == {"L", "R"}
