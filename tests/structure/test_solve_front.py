"""The registry of solvers, the front `gridbot.solve`, the one re-check of an answer and the one report of a solve."""

from __future__ import annotations

import dataclasses
import inspect
import subprocess
import sys

import pytest

import gridbot
from gridbot import games
from gridbot.errors import GridbotError, WrongAnswer
from gridbot.result import SolveResult
from gridbot.solve import COMMON, SOLVERS, check, report


def test_the_registry_names_every_game_once():
    assert sorted(SOLVERS) == sorted(games.GAMES)
    assert all(entry.game == game for game, entry in SOLVERS.items())


@pytest.mark.parametrize("game", games.GAMES)
def test_the_registry_says_what_each_solver_takes(game: str):
    """The table, not the signature, is what the faces read: it must say exactly what the solver takes."""
    entry = SOLVERS[game]
    module = entry.load()
    parameters = list(inspect.signature(module.solve).parameters)
    assert parameters[: 1 + len(COMMON)] == ["level", *COMMON]
    assert tuple(parameters[1 + len(COMMON) :]) == entry.options
    assert hasattr(module, "warm_up") == entry.warms_up


def test_importing_gridbot_and_the_registry_loads_no_solver():
    code = (
        "import sys, gridbot, gridbot.solve, gridbot.generate; gridbot.solve.solver('robozzle');"
        " print(sorted(m for m in sys.modules if m.startswith(('numba', 'gridbot.solve.', 'gridbot.kernels'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['gridbot.solve.check', 'gridbot.solve.first_use']"  # neither loads numba


def test_solving_a_bender_map_imports_no_numpy():
    """Bender's solver is a walk with a memory budget: a fresh process that solves a map stays without numpy, whose
    import would double its start-up."""
    code = (
        "import sys, gridbot; from gridbot.solve.bender import solve;"
        " print(solve(gridbot.load('bender:01')).status, 'numpy' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["optimal", "False"]


QUICK = {  # a bundled level of each game that its solver proves in well under a second
    "carrots": "carrots:2",
    "pellet": "pellet:tunnel",
    "torch_cave": "torch_cave:prob16_sample",
    "bender": "bender:01",
    "lightbot": "lightbot:1",
    "robos_escape": "robos_escape:2",
    "robozzle": "robozzle:16",
}


@pytest.mark.parametrize("game", games.GAMES)
def test_the_front_solves_a_level_of_every_game(game: str):
    level = gridbot.load(QUICK[game])
    result = gridbot.solve(level, time_limit=60)
    assert result.game == game and result.status in ("optimal", "unsolvable")
    assert gridbot.solve.solver(level) is SOLVERS[game] is gridbot.solve.solver(games.get(game))


def test_the_front_refuses_what_is_not_a_level_or_an_option_of_the_solver():
    with pytest.raises(GridbotError, match="not a level of any game"):
        gridbot.solve("carrots:2")
    level = gridbot.load("carrots:2")
    with pytest.raises(TypeError, match="no option 'workers'"):
        gridbot.solve(level, workers=2)
    with pytest.raises(ValueError):
        gridbot.solve(level, time_limit=0)


def test_the_front_rechecks_every_answer(monkeypatch):
    level = gridbot.load("carrots:2")
    solver = SOLVERS["carrots"].load()
    wrong = SolveResult("carrots", "carrots:02", "optimal", games.get("carrots").parse_program("F"), 1, 0.1, 1)
    monkeypatch.setattr(solver, "solve", lambda level, **options: wrong)
    with pytest.raises(WrongAnswer, match=r"the solver's answer F for carrots:02 does not complete it"):
        gridbot.solve(level)


def test_recheck_refuses_each_kind_of_wrong_answer():
    level = gridbot.load("carrots:2")
    program = games.get("carrots").parse_program
    right = SolveResult("carrots", "carrots:02", "optimal", program("LOOP{F F R}"), 4, 0.1, 4)
    check.recheck(level, right)
    for wrong, message in (
        (dataclasses.replace(right, solution=program("F"), length=1), "does not complete it"),
        (dataclasses.replace(right, length=3), "LOOP{F F R} has 4 tokens, not 3, for carrots:02"),
        (dataclasses.replace(right, solution=None), "reported optimal for carrots:02 without a program"),
        (dataclasses.replace(right, solutions=(program("LOOP{F F R}"), program("LOOP{R F}"))), "LOOP{R F}"),
    ):
        with pytest.raises(WrongAnswer, match=message):
            check.recheck(level, wrong)
    check.recheck(level, dataclasses.replace(right, status="timeout", solution=None, length=None))


def test_the_report_is_the_games_own_or_the_generic_one():
    cave = gridbot.load("torch_cave:prob16_sample")
    solved = gridbot.solve(cave)
    assert report.describe(cave, solved) == games.get("torch_cave").describe(cave, solved)
    pellet = gridbot.load("pellet:tunnel")
    text = report.describe(pellet, gridbot.solve(pellet), name="mine")
    assert text.startswith("mine: optimal, ") and "moves (every path has this length)" in text
    assert "\n  path        " in text
