"""gridbot.analyze and `gridbot analyze`: the counts against an unpruned enumeration of every program on small
random levels, the promises of the Analysis (behaviours <= programs, examples that win, JSON that reads back),
and the command's table, JSON and errors."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import gridbot
from gridbot.cli import cli
from gridbot.games import carrots, lightbot
from gridbot.generate.carrots import random_level as carrots_level
from gridbot.generate.lightbot import random_level as lightbot_level
from gridbot.solve.analyze import Analysis, analyze
from gridbot.solve.behaviours import lightbot_key

from . import brute

COUNTS = 12  # loop counts the enumeration tries (1..12 and unbounded): more than the tiny boards' states need


def carrots_boards() -> list[carrots.Level]:
    """Tiny random boards (3 to 6 squares) whose par is at most 4, small enough to enumerate every program."""
    found = []
    for seed in range(60):
        level = carrots_level(3, 2, seed, fill=0.8)
        result = gridbot.solve(level, max_length=4)
        if result.status == "optimal" and result.length and result.length <= 4:
            found.append(level)
    return found


@pytest.mark.parametrize("level", carrots_boards()[:8], ids=str)
def test_carrots_counts_against_every_program(level: carrots.Level) -> None:
    a = analyze(level)
    winners = {n: brute.carrots_winners(level, n, COUNTS) for n in range(1, a.par + 2)}
    assert a.status == "optimal"
    assert not any(winners[n] for n in range(1, a.par))  # nothing shorter wins
    optimal, longer = winners[a.par], winners[a.par + 1]
    assert 1 <= a.programs <= len(optimal)
    # behaviours are orders of marking, over every program of the par (counts up to twice the states: enough)
    behaviours = {carrots.marks_in_order(level, p) for p in brute.carrots_winners(level, a.par, 8 * level.size)}
    assert (a.behaviours, a.behaviours_capped) == (len(behaviours), False)
    for text in a.examples:  # each shown program wins, has par tokens, and behaves as some program of the brute force
        program = carrots.parse_program(text)
        assert program.tokens == a.par and carrots.run(level, program).verdict.won
        assert carrots.marks_in_order(level, program) in behaviours
    assert a.longer is not None and a.longer <= len(longer) and (a.longer > 0) == bool(longer)
    # LOOP is needed exactly when no loop-free program of par tokens wins
    loop_free = any(all(isinstance(s, carrots.Move) for s in p.body) for p in optimal)
    assert a.needed == (("LOOP", not loop_free),)


def test_carrots_listing_of_one_length_is_distinct_winning_and_of_that_length() -> None:
    from gridbot.deadline import Clock
    from gridbot.solve.carrots import of_length

    level = gridbot.load("carrots:3")
    programs, capped, candidates = of_length(level, 5, 100, Clock(None))
    assert not capped and candidates > 0 and len(set(programs)) == len(programs) > 0
    assert all(p.tokens == 5 and carrots.run(level, p).verdict.won for p in programs)
    assert len(of_length(level, 5, 3, Clock(None))[0]) == 3 and of_length(level, 5, 3, Clock(None))[1]


def lightbot_levels() -> list[lightbot.Level]:
    found = []
    for seed in range(40):
        level = lightbot_level(3, 2, seed, lights=1, max_height=1)
        result = gridbot.solve(level, max_length=4)
        if result.status == "optimal" and 0 < result.length <= 4:
            found.append(level)
    return found


@pytest.mark.parametrize("level", lightbot_levels()[:8], ids=str)
def test_lightbot_counts_against_every_program(level: lightbot.Level) -> None:
    a = analyze(level)
    assert a.status == "optimal"
    assert not any(brute.lightbot_winners(level, n) for n in range(1, a.par))
    optimal = brute.lightbot_winners(level, a.par)
    behaviours = {lightbot_key(level, p) for p in optimal}  # what shows on the board (gridbot.solve.behaviours)
    assert 1 <= a.programs <= len(optimal)
    assert (a.behaviours, a.behaviours_capped) == (len(behaviours), False)
    for text in a.examples:
        program = lightbot.parse_program(text)
        assert program in optimal


def test_bender_is_one_determined_answer() -> None:
    a = analyze(gridbot.load("bender:1"))
    assert (a.status, a.programs, a.programs_capped, a.behaviours) == ("optimal", 1, False, 1)
    assert a.longer is None and a.needed is None


def test_json_reads_back_and_is_plain() -> None:
    a = analyze(gridbot.load("carrots:2"))
    data = json.loads(json.dumps(a.to_json()))
    assert Analysis.from_json(data) == Analysis.from_json(a.to_json())
    back = Analysis.from_json(data)
    assert back.status is gridbot.Status.OPTIMAL and back.needed == (("LOOP", True),)
    assert (back.par, back.programs, back.examples) == (4, a.programs, a.examples)


def test_the_front_and_its_errors() -> None:
    assert gridbot.analyze is analyze
    with pytest.raises(ValueError):
        analyze(gridbot.load("carrots:2"), cap=0)
    with pytest.raises(ValueError):
        analyze(gridbot.load("carrots:2"), time_limit=-1)
    with pytest.raises(gridbot.GridbotError):
        analyze("not a level")


def test_cap_bounds_the_counts() -> None:
    a = analyze(gridbot.load("carrots:3"), cap=2)
    assert (a.programs, a.programs_capped, a.behaviours_capped) == (2, True, True)
    assert a.longer == 2 and a.longer_capped


def test_time_limit_gives_the_best_found_and_the_lengths_excluded() -> None:
    level = gridbot.load("carrots:12")
    a = analyze(level, time_limit=0.3)
    assert carrots.run(level, a.examples[0]).verdict.won if a.examples else a.status == "timeout"
    if a.status == "optimal":  # proven in time: a count the time cut short says it is a lower bound
        assert a.programs_capped or a.programs == analyze(level).programs
    else:
        assert a.status == "solved" and a.longer is None and a.needed is None
        assert a.excluded is None or a.excluded < a.par


def test_cli_table_json_quiet_and_bad_input() -> None:
    runner = CliRunner()
    out = runner.invoke(cli, ["analyze", "carrots:2", "carrots:1"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0].split() == ["level", "status", "par", "programs", "behaviours", "par+1", "needs", "candidates",
                                "seconds"]  # fmt: skip
    assert lines[1].split()[:7] == ["carrots:02", "optimal", "4", "4", "1", "30", "LOOP"]
    assert lines[2].split()[:7] == ["carrots:01", "optimal", "2", "2", "1", "2", "none"]
    assert "LOOP{F F R}" in out.output
    out = runner.invoke(cli, ["analyze", "carrots:2", "--json", "--cap", "2"])
    data = json.loads(out.output)
    assert (data["par"], data["programs"], data["programs_capped"], data["status"]) == (4, 2, True, "optimal")
    out = runner.invoke(cli, ["analyze", "carrots:2", "-q"])
    assert out.output == "carrots:02 4\n"
    for args in (["analyze", "carrots", "no-such-level"], ["analyze", "carrots:2", "--cap", "0"], ["analyze"]):
        out = runner.invoke(cli, args)
        assert out.exit_code == 2 and len(out.output.strip().splitlines()) == 1, (args, out.output)
