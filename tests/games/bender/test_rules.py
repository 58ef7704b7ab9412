"""Bender: the 12 official CodinGame tests byte for byte, the rules one by one, loops, levels, answers and the trace
(his journey as a solve, the command line and the limits: test_solver.py)."""

from __future__ import annotations

import contextlib
import tracemalloc
from importlib import resources

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import gridbot
from gridbot import levels
from gridbot.cli import cli
from gridbot.errors import GridbotError, LevelError, ProgramError
from gridbot.games import bender
from gridbot.games.bender import LOOP, Answer, Level, journey, parse_program, run
from gridbot.generate.bender import random_level
from gridbot.grid import Direction

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OFFICIAL = [stem for stem in levels.names("bender")]
NAMES = {"N": "NORTH", "E": "EAST", "S": "SOUTH", "W": "WEST"}
DELTAS = {"SOUTH": (1, 0), "EAST": (0, 1), "NORTH": (-1, 0), "WEST": (0, -1)}


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def expected(stem: str) -> str:
    return (resources.files("gridbot") / "data" / "bender" / f"{stem}.out").read_text()


def reference(level: Level, with_destroyed: bool = True) -> tuple[str, ...] | str:
    """Bender's rules written plainly: the full state, with the set of destroyed X, in a set.

    With `with_destroyed=False` the destroyed set is left out of the state, which is wrong.
    """
    rows = [list(row) for row in level.rows]

    def at(r: int, c: int) -> str:
        return rows[r][c] if 0 <= r < len(rows) and 0 <= c < len(rows[0]) else "#"

    position, heading, inverted, breaker = level.start, "SOUTH", False, False
    destroyed: frozenset = frozenset()
    seen: set = set()
    moves: list[str] = []
    while True:
        state = (position, heading, inverted, breaker, destroyed if with_destroyed else None)
        if state in seen:
            return LOOP
        seen.add(state)

        def blocked(direction: str, position: tuple[int, int] = position, breaker: bool = breaker) -> bool:
            dr, dc = DELTAS[direction]
            ch = at(position[0] + dr, position[1] + dc)
            return ch == "#" or (ch == "X" and not breaker)

        if blocked(heading):
            order = ["SOUTH", "EAST", "NORTH", "WEST"]
            free = [d for d in (order[::-1] if inverted else order) if not blocked(d)]
            if not free:
                return LOOP
            heading = free[0]
        dr, dc = DELTAS[heading]
        position = (position[0] + dr, position[1] + dc)
        moves.append(heading)
        ch = at(*position)
        if ch == "X":
            rows[position[0]][position[1]] = " "
            destroyed |= {position}
        elif ch == "$":
            return tuple(moves)
        elif ch in NAMES:
            heading = NAMES[ch]
        elif ch == "I":
            inverted = not inverted
        elif ch == "B":
            breaker = not breaker
        elif ch == "T":
            position = next(t for t in level.teleporters if t != position)


@st.composite
def maps(draw, border: bool = True) -> str:
    height, width = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    if height * width < 2:
        width = 2
    inner = [[draw(st.sampled_from("       ##XXNESWIB")) for _ in range(width)] for _ in range(height)]
    cells = [(r, c) for r in range(height) for c in range(width)]
    teleporters = draw(st.sampled_from([0, 2])) if len(cells) >= 4 else 0
    picks = draw(st.permutations(cells))[: 2 + teleporters]
    for (r, c), ch in zip(picks, "@$TT", strict=False):
        inner[r][c] = ch
    rows = ["".join(row) for row in inner]
    if border:
        rows = ["#" * (width + 2)] + ["#" + row + "#" for row in rows] + ["#" * (width + 2)]
    return "\n".join(rows)


# ---------------------------------------------------------------- the official tests


def test_all_official_tests_are_bundled() -> None:
    assert len(OFFICIAL) == 13
    assert [stem[:2] for stem in OFFICIAL[:12]] == [f"{i:02d}" for i in range(1, 13)]
    assert OFFICIAL[12] == "example"


@pytest.mark.parametrize("stem", OFFICIAL)
def test_official_tests_byte_for_byte(stem: str) -> None:
    """`gridbot solve bender LEVEL` prints exactly what CodinGame expects."""
    result = invoke("solve", "bender", f"bender:{stem}")
    assert result.exit_code == 0, result.output
    assert result.stdout == expected(stem)
    level = gridbot.load(f"bender:{stem}")
    assert reference(level) == journey(level).answer  # and the plain rules agree


def test_example_moves() -> None:
    answer = journey(gridbot.load("bender:example")).answer
    assert answer == ("SOUTH", "EAST", "NORTH", "EAST", "EAST")


def test_loop_detection_needs_the_destroyed_walls() -> None:
    """In test 12 Bender comes back to a (position, heading, modes) after breaking an X, and still arrives."""
    level = gridbot.load("bender:12")
    assert journey(level).answer != LOOP and journey(level).broken == 4
    assert reference(level, with_destroyed=False) == LOOP  # a state without the destroyed set is wrong


def test_loop_after_walls_were_broken() -> None:
    # He breaks the X in breaker mode, then goes up and down column 6 for ever; the booth is sealed off.
    level = Level.parse("########\n#@     #\n#B     #\n#X     #\n#      #\n########\n#$######")
    trip = journey(level)
    assert (trip.outcome, trip.broken) == ("loop", 1)
    assert reference(level) == LOOP


# ---------------------------------------------------------------- the rules one by one


def moves(text: str) -> tuple[str, ...]:
    """The names of Bender's moves, also when he loops."""
    return tuple(Direction(m).name for m in journey(Level.parse(text)).moves)


def test_priorities_and_inverter() -> None:
    assert moves("#####\n#@  #\n# ###\n#$  #\n#####") == ("SOUTH", "SOUTH")  # keeps heading
    assert moves("#####\n#@ $#\n#####") == ("EAST", "EAST")  # blocked south: east
    assert moves("#####\n# $ #\n# @##\n#####") == ("NORTH",)  # blocked south and east: north
    # after the inverter, blocked east: WEST comes before NORTH
    assert moves("#####\n##  #\n#$@I#\n#####") == ("EAST", "WEST", "WEST")


def test_path_modifiers_and_beer() -> None:
    assert moves("#####\n#@  #\n#E $#\n#####") == ("SOUTH", "EAST", "EAST")
    assert moves("#####\n#@  #\n#X  #\n#$  #\n#####")[0] == "EAST"  # an X stops him without beer
    assert moves("#####\n#@  #\n#B  #\n#X  #\n#$  #\n#####") == ("SOUTH", "SOUTH", "SOUTH")  # with beer: broken
    # the second beer switches breaker mode off again
    assert moves("######\n#@   #\n#B   #\n#B   #\n#X   #\n#$   #\n######")[:3] == ("SOUTH", "SOUTH", "EAST")


def test_destroyed_walls_stay_destroyed() -> None:
    # He breaks the X going south, sobers up, and later walks west through the same cell.
    level = Level.parse("########\n#  @   #\n#  B   #\n#$ X W #\n#  B   #\n#  E N #\n########")
    trip = journey(level, record=True)
    assert trip.answer == ("SOUTH",) * 4 + ("EAST", "EAST", "NORTH", "NORTH") + ("WEST",) * 4
    steps = trip.steps or ()
    assert steps[1].event == "broke X" and steps[2].event == "beer" and not steps[2].breaker
    assert steps[9].position == (3, 3) and not steps[9].breaker
    assert reference(level) == trip.answer


def test_teleporters_keep_heading_and_modes() -> None:
    level = Level.parse("#######\n#@  T #\n#B    #\n#T  X #\n#   $ #\n#######")
    trip = journey(level, record=True)
    assert trip.answer == ("SOUTH",) * 5
    steps = trip.steps or ()
    assert [s.event for s in steps] == ["beer", "teleport", "", "broke X", "booth"]
    assert steps[1].position == (1, 4) and steps[1].breaker  # teleported, still in breaker mode


def test_walled_in_is_a_loop() -> None:
    level = Level.parse("#####\n#@#$#\n#####")
    trip = journey(level)
    assert trip.outcome == "stuck" and trip.answer == LOOP and trip.moves == b""
    assert str(run(level).verdict).startswith("LOOP: walls on all four sides")


def test_off_the_map_is_a_wall() -> None:
    assert moves("@ \n $") == ("SOUTH", "EAST")
    assert moves("@$") == ("EAST",)


@FAST
@given(maps())
def test_journey_matches_the_plain_rules(text: str) -> None:
    level = Level.parse(text)
    assert journey(level).answer == reference(level)


@FAST
@given(maps(border=False))
def test_journey_matches_the_plain_rules_without_a_border(text: str) -> None:
    level = Level.parse(text)
    assert journey(level).answer == reference(level)


# ---------------------------------------------------------------- levels


def test_reads_the_header_line() -> None:
    with_header = Level.parse("3 5\n#####\n#@$#\n#####\n")
    assert with_header.rows == ("#####", "#@$# ", "#####") and with_header.header == (3, 5)
    assert with_header.start == (1, 1)
    assert Level.parse("#####\n#@$#\n#####").rows == ("#####", "#@$# ", "#####")
    padded = Level.parse("4 5\r\n#####\r\n#@$ #\r\n#####\r\n")
    assert padded.rows[-1] == "     " and padded.height == 4


@pytest.mark.parametrize(
    ("text", "line", "column", "fragment"),
    [
        ("#####\n# $ #\n#####", 1, 1, "no start @"),
        ("#####\n#@@$#\n#####", 2, 3, "second start"),
        ("#####\n# @ #\n#####", 1, 1, "no suicide booth"),
        ("#$@$#", 1, 4, "second suicide booth"),
        ("#@T$#", 1, 3, "without its pair"),
        ("#@TTT$#", 1, 5, "third teleporter"),
        ("#@?$#", 1, 3, "unknown character '?'"),
        ("2 5\n#####\n#@?$#", 3, 3, "unknown character '?'"),
        ("2 5\n#####\n#@ $#\n#####", 4, 1, "more than the 2 map lines"),
        ("2 3\n#@$#\n###", 2, 4, "longer than the 3 columns"),
        ("0 5\n#@$#", 1, 1, "out of range"),
        ("1 1\n", 2, 1, "empty"),
        ("", 1, 1, "empty"),
    ],
)
def test_level_errors(text: str, line: int, column: int, fragment: str) -> None:
    with pytest.raises(LevelError) as info:
        Level.parse(text, name="map.txt")
    assert (info.value.line, info.value.column) == (line, column)
    assert fragment in info.value.message
    assert str(info.value).startswith(f"map.txt:{line}:{column}: ")


@FAST
@given(st.one_of(st.text(max_size=120), st.text(alphabet="@$#X NESWIBT0123456789\n\r\t", max_size=120), maps()))
@example("1000 1000\n@$")
@example("9" * 5000 + " 1\n@$")
def test_every_map_read_has_a_journey(text: str) -> None:
    """Every map the parser accepts has an answer or a loop (the parser itself: tests/games/test_parsers.py)."""
    with contextlib.suppress(GridbotError):
        level = Level.parse(text)
        journey(level)


# ---------------------------------------------------------------- answers and runs


def test_answer_text() -> None:
    assert parse_program("south\nEast  NORTH") == Answer(("SOUTH", "EAST", "NORTH"))
    assert parse_program(["SOUTH", "WEST"]) == Answer(("SOUTH", "WEST"))
    assert parse_program(" loop ") == Answer(loop=True) and str(Answer(loop=True)) == "LOOP"
    assert parse_program("") == Answer() and not Answer().given
    for text, column, fragment in [
        ("SOUTH up", 7, "unexpected 'up'"),
        ("LOOP SOUTH", 6, "LOOP must be the whole answer"),
        ("SOUTH LOOP", 7, "LOOP must be the whole answer"),
        ("ſouth", 1, "unexpected"),
    ]:
        with pytest.raises(ProgramError) as info:
            parse_program(text)
        assert info.value.column == column and fragment in str(info.value)


def test_run_checks_an_answer() -> None:
    level = gridbot.load("bender:01")
    assert run(level).verdict.status == "completed" and run(level).verdict.step == 4
    assert run(level, "SOUTH SOUTH EAST EAST").verdict.won
    wrong = run(level, "SOUTH EAST").verdict
    assert wrong.status == "wrong" and not wrong.won
    assert wrong.reason == "move 2 is SOUTH, the answer says EAST"
    assert run(level, "SOUTH SOUTH EAST").verdict.reason.startswith("the answer stops after 3 moves")
    assert run(level, "SOUTH SOUTH EAST EAST EAST").verdict.reason.endswith("the answer has 5 moves")
    assert run(level, "LOOP").verdict.reason == "he reaches the booth at move 4, the answer says LOOP"
    looping = gridbot.load("bender:11")
    assert run(looping, "LOOP").verdict.status == "forever"
    assert str(run(looping).verdict).startswith("LOOP: he never reaches the booth")
    assert run(looping, "SOUTH").verdict.status == "wrong"


def test_format_trace() -> None:
    level = gridbot.load("bender:06")
    text = bender.format_trace(level, run(level))
    lines = text.splitlines()
    assert lines[1].split() == ["1", "SOUTH", "4", "3", "breaker", "beer"]  # line 4 of the file (after `L C`)
    assert lines[2].split() == ["2", "SOUTH", "5", "3", "breaker", "broke", "X"]
    assert "# >>>B>>$#" in text
    assert text.endswith("reaches the suicide booth at move 10")
    assert "trace cut after 2 moves" in bender.format_trace(level, run(level), limit=2)


# ---------------------------------------------------------------- long journeys and random maps


def serpentine(side: int, breakers: bool = False) -> Level:
    """A side x side map whose corridor winds through every other row: about side^2 / 2 moves to the booth.
    With `breakers`, beer at the start and an X in every tenth cell of the corridors (an epoch each)."""
    inner = side - 2
    grid = [[" "] * inner for _ in range(inner)]
    for r in range(1, inner - 1, 2):
        gap = inner - 1 if (r // 2) % 2 == 0 else 0
        for c in range(inner):
            if c != gap:
                grid[r][c] = "#"
    for r in range(0, inner - 1, 2):
        if breakers:
            for c in range(3, inner - 3, 10):
                grid[r][c] = "X"
        if r > 0:
            grid[r][inner - 1 if (r // 2) % 2 == 1 else 0] = "W" if (r // 2) % 2 == 1 else "E"
    grid[0][0], grid[0][1] = "@", "B" if breakers else " "
    last = inner - 2 if (inner - 2) % 2 == 0 else inner - 1
    grid[last][inner - 1 if (last // 2) % 2 == 0 else 0] = "$"
    return Level.parse("\n".join(["#" * side] + ["#" + "".join(row) + "#" for row in grid] + ["#" * side]))


def test_journey_memory_is_a_table_of_the_map_not_a_set_of_states() -> None:
    """The seen states take about 17 bytes per cell whatever the journey (a Python set took about 70 per state)."""
    level = serpentine(300)
    tracemalloc.start()
    try:
        trip = journey(level)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert trip.outcome == "booth" and len(trip.moves) > 44_000
    assert peak <= 19 * (level.width + 2) * (level.height + 2) + 4 * len(trip.moves) + (64 << 10)


def test_trace_records_only_what_it_shows() -> None:
    level = serpentine(300)
    trip = journey(level, record=True, record_limit=5)
    assert len(trip.steps or ()) == 5 and len(trip.moves) > 44_000
    text = bender.format_trace(level, run(level), limit=3)
    assert "trace cut after 3 moves" in text and text.count("\n") < 320


def test_random_level_is_deterministic_and_mostly_reached() -> None:
    reached = 0
    for seed in range(60):
        level = random_level(30, 20, seed)
        assert level == random_level(30, 20, seed) and level.header == (20, 30)
        assert (level.width, level.height) == (30, 20)
        assert set(level.rows[0]) == set(level.rows[-1]) == {"#"} and {row[0] for row in level.rows} == {"#"}
        assert len(level.teleporters) == 2
        trip = journey(level)
        assert reference(level) == trip.answer
        reached += not trip.loops
    assert reached >= 55  # the booth is put on his way (not when he is walled in at the start)
    assert sum(journey(random_level(30, 20, seed, reach=False)).loops for seed in range(30)) > 15
    small = random_level(3, 4, 1, teleporters=False)
    assert small.height == 4 and not small.teleporters
    for bad in ((2, 5), (1001, 3), (3, 3)):
        with pytest.raises(ValueError):
            random_level(*bad, 1)
    with pytest.raises(ValueError):
        random_level(10, 10, 1, tiles={"@": 1.0})
