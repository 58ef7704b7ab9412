"""Bender's journey as a solve: results, the command line, and every input within its time and memory limits (the
rules: test_rules.py)."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner

import gridbot
import gridbot.solve.bender as solver
from gridbot.cli import cli
from gridbot.games import bender
from gridbot.games.bender import LOOP, Answer, journey, parse_program, run
from gridbot.generate.bender import random_level
from tests.limited_child import run_limited

from .test_rules import OFFICIAL, serpentine


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_solve_results_and_timeout() -> None:
    result = gridbot.solve(gridbot.load("bender:01"))
    assert (result.status, result.length, result.lower_bound) == ("optimal", 4, 4)
    assert result.solution == Answer(("SOUTH", "SOUTH", "EAST", "EAST"))
    assert result.to_json()["solution"] == "SOUTH SOUTH EAST EAST"  # a string, as the schema of docs/cli.md says
    assert parse_program(result.to_json()["solution"]) == result.solution  # and it reads back
    looping = gridbot.solve(gridbot.load("bender:11"))
    assert (looping.status, looping.solution, looping.length) == ("unsolvable", None, None)
    assert looping.to_json()["solution"] is None  # no solution; the human output still says LOOP
    assert bender.describe(gridbot.load("bender:11"), looping) == LOOP
    # the clock is checked every `check_every` moves; with a deadline already past, the first check stops him
    timed = solver.solve(gridbot.load("bender:12"), time_limit=1e-9, settings=solver.Settings(check_every=1))
    assert (timed.status, timed.solution, timed.length) == ("timeout", None, None)
    assert bender.describe(gridbot.load("bender:12"), timed).endswith("no answer")


# ---------------------------------------------------------------- command line


def test_cli_json_and_several_levels() -> None:
    result = invoke("solve", "bender", "bender:1", "11", "--json")
    assert result.exit_code == 0
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert set(first) >= {"game", "level", "status", "solution", "length", "seconds", "stats"}
    assert first["solution"] == "SOUTH SOUTH EAST EAST" and first["length"] == 4
    assert first["level"] == "bender:01_simple_moves" and first["status"] == "optimal"
    assert first["proven_impossible"] == 3
    assert (second["solution"], second["length"], second["status"]) == (None, None, "unsolvable")


@pytest.mark.parametrize("stem", OFFICIAL)
def test_cli_json_follows_the_schema(stem: str) -> None:
    """docs/cli.md "JSON output": `solution` a string or null; optimal: proven_impossible = length - 1; unsolvable:
    null. The string is the moves separated by spaces: what `run` takes as an answer."""
    result = invoke("solve", "bender", f"bender:{stem}", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    trip = journey(gridbot.load(f"bender:{stem}"))
    if trip.loops:
        assert (data["status"], data["solution"], data["length"]) == ("unsolvable", None, None)
    else:
        assert data["status"] == "optimal" and isinstance(data["solution"], str)
        assert tuple(data["solution"].split(" ")) == trip.answer and data["length"] == len(trip.moves)
        assert data["proven_impossible"] == data["length"] - 1
        checked = invoke("run", "bender", f"bender:{stem}", data["solution"], "--json")
        assert json.loads(checked.stdout)["status"] == "completed"


def test_cli_reads_a_file_with_or_without_header(tmp_path) -> None:
    for text in ("5 5\n#####\n#@  #\n#   #\n#  $#\n#####\n", "#####\n#@  #\n#   #\n#  $#\n#####"):
        path = tmp_path / "map.txt"
        path.write_text(text)
        result = invoke("solve", "bender", str(path))
        assert result.exit_code == 0 and result.stdout == "SOUTH\nSOUTH\nEAST\nEAST\n"


def test_cli_run_with_and_without_an_answer() -> None:
    plain = invoke("run", "bender", "bender:1")
    assert plain.exit_code == 0
    assert plain.output == "level    bender:01_simple_moves\nverdict  reaches the suicide booth at move 4\n"
    checked = invoke("run", "bender", "bender:1", "SOUTH", "SOUTH", "EAST", "EAST", "--json")
    data = json.loads(checked.output)
    assert (data["status"], data["step"], data["program"]) == ("completed", 4, "SOUTH SOUTH EAST EAST")
    wrong = invoke("run", "bender", "bender:1", "LOOP")
    assert wrong.exit_code == 0 and "verdict  wrong answer: he reaches the booth at move 4" in wrong.output
    traced = invoke("run", "bender", "bender:11", "--trace", "--limit", "5")
    assert traced.exit_code == 0 and "trace cut after 5 moves" in traced.output
    assert traced.output.rstrip().endswith(
        "verdict  LOOP: he never reaches the booth (state before move 64 seen before)"
    )


def test_cli_errors(tmp_path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("3 4\n####\n#@$#\n#?##\n")
    result = invoke("solve", "bender", str(path))
    assert (
        result.exit_code == 2
        and result.stderr == f"gridbot: {path}:4:2: unknown character '?' (expected one of @$#X NESWIBT or space)\n"
    )
    bad_answer = invoke("run", "bender", "bender:1", "SOUTH", "UP")
    assert bad_answer.exit_code == 2 and bad_answer.stderr.startswith("gridbot: program:1:7: unexpected 'UP'")


# ---------------------------------------------------------------- every input, every limit (issue 15)


@pytest.mark.clock
def test_a_million_cell_map_keeps_time_and_memory() -> None:
    """1000x1000: about 500,000 moves breaking 50,000 X (as many epochs); the clock and the memory budget stop
    him when asked, with a clear status; without them the answer is checked by the simulator."""
    level = serpentine(1000, breakers=True)
    start = time.perf_counter()
    cut = gridbot.solve(level, time_limit=0.05)
    assert cut.status == "timeout" and time.perf_counter() - start < 1.05
    tight = gridbot.solve(level, memory_budget=solver.MOVE_BYTES * 100_000)
    assert tight.status == "timeout" and "memory budget" in tight.stats["reason"]
    assert "memory budget" in bender.describe(level, tight)
    full = gridbot.solve(level)
    assert full.status == "optimal" and full.length > 490_000 and full.stats["broken"] > 40_000
    assert run(level, full.solution).verdict.won


def test_the_budget_is_read_once_the_free_moves_are_past(monkeypatch) -> None:
    """Without a budget given, the shared one is read (a millisecond) only after `free_moves` moves."""
    reads: list[int] = []
    monkeypatch.setattr(solver, "_memory_budget", lambda: reads.append(1) or solver.MOVE_BYTES * 1000)
    level = serpentine(300)
    assert solver.solve(level).status == "optimal" and reads == []  # 44,000 moves: within the free ones
    settings = solver.Settings(check_every=100, free_moves=500)
    tight = solver.solve(level, settings=settings)
    assert tight.status == "timeout" and "memory budget" in tight.stats["reason"] and reads == [1]


@pytest.mark.clock
def test_random_and_hostile_maps_keep_the_time_limit() -> None:
    """From 3x4 to the 1000x1000 limit, and hostile mixes (all walls, all X in breaker mode, all inverters,
    all modifiers): within the limit + the issue's slack, a checked answer or a clear status."""
    shapes = [
        (3, 4, None, 0.5),
        (1000, 3, None, 0.5),
        (3, 1000, None, 0.5),
        (100, 100, None, 0.5),
        (1000, 1000, None, 1.0),
        (1000, 1000, {"#": 1.0}, 1.0),
        (1000, 1000, {"X": 0.9, "B": 0.1}, 1.0),
        (500, 500, {"I": 1.0}, 1.0),
        (500, 500, {"N": 1.0, "E": 1.0, "S": 1.0, "W": 1.0, " ": 2.0}, 1.0),
    ]
    for width, height, tiles, limit in shapes:
        level = random_level(width, height, 5, tiles=tiles)
        start = time.perf_counter()
        result = gridbot.solve(level, time_limit=limit)
        assert time.perf_counter() - start <= limit + 1.0, (width, height, tiles)
        assert (result.solution is not None) == (result.status == "optimal"), result.status
        if result.status == "optimal":
            assert run(level, result.solution).verdict.won
        elif result.status == "unsolvable":
            assert result.stats["reason"]  # stuck, or a state that repeats
        assert json.loads(json.dumps(result.to_json()))["solution"] in (None, str(result.solution))


BIG_MAP_CHILD = """
import time
import gridbot
from gridbot.games import bender
from gridbot.generate.bender import random_level
level = random_level(1000, 1000, 3, tiles={" ": 0.8, "X": 0.1, "B": 0.05, "I": 0.05})
start = time.perf_counter()
result = gridbot.solve(level, time_limit=2)
print(result.status, round(time.perf_counter() - start, 2))
"""


@pytest.mark.clock
def test_a_million_cell_map_in_a_memory_limited_child() -> None:
    done = run_limited(BIG_MAP_CHILD, 1 << 30, timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    status, seconds = done.stdout.split()
    assert float(seconds) <= 3.0, status
