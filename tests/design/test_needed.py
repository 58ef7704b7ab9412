"""`longer` and `needed` of gridbot.analyze for Light-Bot, RoboZZle and Robo's Escape, against the unpruned
enumerations of tests/games/lightbot/brute.py and tests/games/robozzle/brute.py on small random levels; the
solvers' smaller languages (Light-Bot's `limits`, Robo's Escape's `names`) against the same enumerations."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from click.testing import CliRunner

import gridbot
from gridbot.cli import cli
from gridbot.deadline import Clock
from gridbot.games import lightbot, robos_escape, robozzle
from gridbot.generate.lightbot import random_level as lightbot_level
from gridbot.generate.robozzle import random_level as robozzle_level
from gridbot.solve import lightbot as solve_lightbot
from gridbot.solve import robos_escape as solve_robos
from gridbot.solve.analyze import analyze
from gridbot.solve.lightbot_listing import of_length
from tests.games.lightbot import brute as lightbot_brute
from tests.games.robozzle import brute as robozzle_brute

LIMITS = (12, 8, 8)


def lightbot_minimum(level: lightbot.Level, limits: tuple[int, int, int], most: int) -> int | None:
    """The fewest commands of a winning program within `limits` (main, f1, f2), at most `most`, by trying every
    program text (a call of a procedure of no commands is a no-op there, never in a shortest program)."""
    mv, light, full, start, facing = lightbot_brute.board_arrays(level)
    memo = lightbot_brute.memo_for(level)
    found = lightbot_brute._first_winning_length(mv, light, full, start, facing, most, np.array(limits), memo)
    return None if found < 0 else int(found)


def lightbot_levels() -> list[lightbot.Level]:
    """Small random levels of par 3 to 5 (every program up to par + 1 can be tried)."""
    found = []
    for (w, h), seed in [((5, 1), s) for s in range(8)] + [((3, 2), s) for s in range(8)]:
        level = lightbot_level(w, h, seed, lights=1 + seed % 2, max_height=1)
        result = gridbot.solve(level, max_length=5)
        if result.status == "optimal" and result.length and result.length >= 3:
            found.append(level)
    return found


@pytest.mark.parametrize("level", lightbot_levels()[:8], ids=str)
def test_lightbot_longer_and_needed_against_every_program(level: lightbot.Level) -> None:
    a = analyze(level)
    assert a.status == "optimal" and lightbot_minimum(level, LIMITS, a.par) == a.par
    # needed: True exactly when no program of par commands without that procedure wins
    for k, name in ((1, "f1"), (2, "f2")):
        limits = tuple(0 if i == k else n for i, n in enumerate(LIMITS))
        without = lightbot_minimum(level, limits, a.par)
        assert (name, without is None or without > a.par) in a.needed
    # longer: distinct programs of exactly par + 1 commands, each winning by the enumeration's own interpreter
    programs, capped, _ = of_length(level, a.par + 1, 100, Clock(None))
    assert (a.longer, a.longer_capped) == (len(programs), capped)
    assert len(set(programs)) == len(programs)
    for program in programs:
        assert program.tokens == a.par + 1 and lightbot_brute.program_wins(level, str(program))
    # the listing of a length below the par is empty, as the par is the fewest commands
    assert of_length(level, a.par - 1, 100, Clock(None))[0] == ()


@pytest.mark.parametrize(
    "limits", [(3, 3, 3), (3, 3, 0), (3, 0, 3), (2, 2, 2), (4, 4, 0), (4, 0, 4), (4, 2, 2), (5, 0, 0)], ids=str
)
def test_lightbot_smaller_limits_against_every_program(limits: tuple[int, int, int]) -> None:
    """The solver on a smaller language (the setting `limits`) proves the same minimum as trying every program
    within those limits, on levels where the limits decide it (a procedure needed, or a longer par)."""
    settings = dataclasses.replace(solve_lightbot.DEFAULT, limits=limits)
    for seed in range(12):
        level = lightbot_level(4, 2, seed, lights=2, max_height=1)
        most = min(sum(limits), 7)
        result = gridbot.solve(level, max_length=most, settings=settings)
        reference = lightbot_minimum(level, limits, most)
        if reference is None:
            assert result.status in ("timeout", "unsolvable", "solved") and result.proven_impossible >= most
            assert result.solution is None or result.length > most
        else:
            assert (result.status, result.length) == ("optimal", reference)
            assert solve_lightbot.fits(result.solution, limits)  # within the limits, names as asked
            assert lightbot.run(level, result.solution).verdict.won


def test_lightbot_limits_are_checked_and_a_procedure_of_none_is_not_called() -> None:
    level = gridbot.load("lightbot:3")
    for bad in [(12, 8, 7), (0, 8, 8), (13, 8, 8), (12, -1, 8)]:
        with pytest.raises(ValueError):
            gridbot.solve(level, settings=dataclasses.replace(solve_lightbot.DEFAULT, limits=bad))
    alone = gridbot.solve(level, settings=dataclasses.replace(solve_lightbot.DEFAULT, limits=(12, 0, 0)))
    assert alone.solution.f1 == alone.solution.f2 == "" and not set("12") & set(alone.solution.main)
    second = gridbot.solve(level, settings=dataclasses.replace(solve_lightbot.DEFAULT, limits=(12, 0, 8)))
    first = gridbot.solve(level, settings=dataclasses.replace(solve_lightbot.DEFAULT, limits=(12, 8, 0)))
    assert second.length == first.length and second.solution.f1 == "" and "1" not in str(second.solution)


def test_lightbot_a_procedure_needed_and_one_not() -> None:
    """lightbot:5 (par 9) needs both procedures: with one, the solver proves 9 commands too few; lightbot:8
    (par 8) needs none of f2. Shown here by the solver on the smaller language, its minimum checked below the
    analysis' own answer."""
    needed = analyze(gridbot.load("lightbot:5"), longer=False)
    assert needed.par == 9 and needed.needed == (("f1", True), ("f2", True))
    one = gridbot.solve(
        gridbot.load("lightbot:5"), settings=dataclasses.replace(solve_lightbot.DEFAULT, limits=(12, 8, 0))
    )
    assert one.status == "optimal" and one.length > 9
    plain = analyze(gridbot.load("lightbot:8"), longer=False)
    assert plain.needed == (("f1", False), ("f2", False)) and "f2" not in plain.examples[0]


def robozzle_wins(level: robozzle.Level, program: robozzle.Program) -> bool:
    """Does `program` win by the enumeration's own interpreter (tests/games/robozzle/brute.py)?"""
    op_code = {"F": 0, "L": 1, "R": 2, **{str(g + 1): 3 + g for g in range(5)}, "PR": 8, "PG": 9, "PB": 10}
    ops = np.zeros((5, 10), np.int64)
    conds = np.zeros((5, 10), np.int64)
    lengths = np.zeros(5, np.int64)
    for f, body in enumerate(program.functions):
        lengths[f] = len(body)
        for i, command in enumerate(body):
            ops[f, i] = op_code[command.op]
            conds[f, i] = robozzle.COLOURS.index(command.cond) if command.cond else -1
    return bool(robozzle_brute._wins(*robozzle_brute._board(level), ops, conds, lengths))


def robozzle_levels() -> list[robozzle.Level]:
    """Small random puzzles of par 2 to 4, with F1 of few slots so that a second function is often needed."""
    found = []
    for seed in range(24):
        base = robozzle_level(4, 3, seed, stars=1 + seed % 3, holes=0.3)
        slots = [(2, 2, 0, 0, 0), (1, 2, 2, 0, 0), (2, 1, 1, 0, 0)][seed % 3]
        level = dataclasses.replace(base, slots=slots, paints=base.paints[:1])
        result = gridbot.solve(level, max_length=4)
        if result.status == "optimal" and result.length >= 2:
            found.append(level)
    return found


def test_robozzle_longer_and_needed_against_every_program() -> None:
    kinds = set()
    for level in robozzle_levels()[:10]:
        a = analyze(level)
        assert a.status == "optimal" and robozzle_brute.minimum(level, a.par) == a.par
        expected = []
        for g in range(1, 5):
            if level.slots[g]:
                smaller = dataclasses.replace(level, slots=tuple(0 if f == g else n for f, n in enumerate(level.slots)))
                without = robozzle_brute.minimum(smaller, a.par)
                expected.append((f"F{g + 1}", without is None or without > a.par))
        assert a.needed == tuple(expected), (level, a.needed, expected)
        kinds |= {flag for _, flag in expected}
        assert a.longer is not None and a.longer_capped is False
        from gridbot.solve.robozzle import DEFAULT
        from gridbot.solve.robozzle.exact import of_length as robozzle_of_length

        programs, _, _ = robozzle_of_length(level, a.par + 1, 100, Clock(None), DEFAULT)
        assert len(programs) == a.longer == len(set(programs))
        for program in programs:
            assert program.tokens == a.par + 1 and robozzle_wins(level, program)
            assert all(len(body) <= n for body, n in zip(program.functions, level.slots, strict=True))
    assert kinds == {True, False}  # a function needed, and one not


def test_robos_escape_functions_needed_against_the_names_setting() -> None:
    """Robo's Escape: `needed` says whether the best score needs a function; the solver without names finds only
    programs without calls or labels, and the analysis' answer agrees with its score."""
    settings = dataclasses.replace(solve_robos.DEFAULT, names=0)
    seen = set()
    for spec in ("robos_escape:2", "robos_escape:3", "robos_escape:4", "robos_escape:5"):
        level = gridbot.load(spec)
        a = analyze(level)
        best = gridbot.solve(level)
        plain = gridbot.solve(level, settings=settings)
        assert plain.status == "optimal" and not set("12345'") & set(str(plain.solution))
        assert robos_escape.run(level, plain.solution).score == plain.stats["score"]
        needs = plain.stats["score"] < best.stats["score"] or plain.length > best.length
        assert a.needed == (("functions", needs),) and a.longer is None
        seen.add(needs)
    assert seen == {True, False}
    with pytest.raises(ValueError):
        gridbot.solve(gridbot.load("robos_escape:2"), settings=dataclasses.replace(settings, names=6))


def test_a_time_limit_too_short_leaves_them_none() -> None:
    a = analyze(gridbot.load("lightbot:6"), time_limit=2.0)
    assert a.longer is None and a.needed is None


def test_cli_shows_longer_and_needed() -> None:
    runner = CliRunner()
    out = runner.invoke(cli, ["analyze", "lightbot", "lightbot:1", "lightbot:2", "--json"])
    assert out.exit_code == 0, out.output
    rows = [json.loads(line) for line in out.output.splitlines()]
    assert [row["level"] for row in rows] == ["lightbot:01", "lightbot:02"]
    for row in rows:
        assert isinstance(row["longer"], int) and [name for name, _ in row["needed"]] == ["f1", "f2"]
    out = runner.invoke(cli, ["analyze", "lightbot:5"])
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[1].split()[6:8] == ["f1", "f2"]  # the needs column
