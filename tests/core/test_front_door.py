"""The front door for scripts (gridbot.load, parse, run, solve) for every game: each better program heard as it is
found, a stop request answered as a time limit, the status an enum of the documented words, and levels, runs and
results that draw themselves in Jupyter."""

from __future__ import annotations

import json
import threading
import time
import xml.etree.ElementTree as ET

import pytest

import gridbot
from gridbot import games
from gridbot.errors import GridbotError, WrongAnswer
from gridbot.solve import SOLVERS
from tests.structure.test_solve_front import QUICK


@pytest.fixture(scope="module")
def solved() -> dict[str, tuple[object, gridbot.SolveResult, list[object]]]:
    """(level, result, programs heard) of a quick bundled level of every game, solved once."""
    out = {}
    for game, spec in QUICK.items():
        level = gridbot.load(spec)
        heard: list[object] = []
        out[game] = (level, gridbot.solve(level, time_limit=60, on_solution=heard.append), heard)
    return out


@pytest.mark.parametrize("game", games.GAMES)
def test_load_parse_and_run_every_game(game: str, solved):
    level, result, _ = solved[game]
    assert gridbot.parse(game, str(level), name="again") == gridbot.parse(game.upper(), str(level), name="again")
    assert gridbot.run(level, result.solution).verdict.won
    assert gridbot.run(level, str(result.solution)).verdict.status == gridbot.Outcome.COMPLETED


def test_run_wants_a_program_except_for_bender():
    with pytest.raises(TypeError, match="needs a program"):
        gridbot.run(gridbot.load("carrots:2"), None)  # type: ignore[call-overload]
    assert gridbot.run(gridbot.load("bender:01")).verdict.won
    with pytest.raises(GridbotError, match="unknown game"):
        gridbot.parse("chess", "S")


@pytest.mark.parametrize("game", games.GAMES)
def test_on_solution_hears_better_programs_each_rechecked_the_last_the_answer(game: str, solved):
    level, result, heard = solved[game]
    assert heard and heard[-1] == result.solution
    assert all(gridbot.run(level, program).verdict.won for program in heard)
    assert len(set(map(str, heard))) == len(heard)  # none heard twice


def test_a_better_program_is_heard_before_the_answer():
    """Robo's Escape's heuristic meets an escape before the search finds the best score: both are heard."""
    _, result, heard = _solve("robos_escape:2")
    assert len(heard) >= 2 and heard[-1] == result.solution


def _solve(spec: str, **options):
    level = gridbot.load(spec)
    heard: list[object] = []
    return level, gridbot.solve(level, on_solution=heard.append, **options), heard


def test_a_program_the_simulator_rejects_is_never_heard(monkeypatch):
    from gridbot.solve import robos_escape as solver

    wrong = solver.Program("F")
    monkeypatch.setattr(solver._Lengths, "incumbent", lambda self, d: wrong)
    heard: list[object] = []
    with pytest.raises(WrongAnswer, match="does not complete it"):
        gridbot.solve(gridbot.load("robos_escape:2"), on_solution=heard.append)
    assert heard == []


def test_a_stop_set_before_the_solve_answers_as_an_expired_time_limit():
    stop = threading.Event()
    stop.set()
    result = gridbot.solve(gridbot.load("lightbot:10"), stop=stop)
    assert result.status == "timeout" and not result.status.proven and result.solution is None


def test_a_stop_ends_a_long_solve_with_the_best_found_and_the_lengths_excluded():
    """lightbot:10 takes minutes to prove: stopped after a second, it answers as its time limit would."""
    stop = threading.Event()
    timer = threading.Timer(1.0, stop.set)
    heard: list[object] = []
    started = time.monotonic()
    timer.start()
    try:
        result = gridbot.solve(gridbot.load("lightbot:10"), stop=stop, on_solution=heard.append)
    finally:
        timer.cancel()
    assert time.monotonic() - started < 30
    assert result.status in ("solved", "timeout") and result.proven_impossible > 0
    if result.solution is not None:
        assert heard[-1] == result.solution
    assert gridbot.solve(gridbot.load("lightbot:1")).status == "optimal"  # the stop was this solve's alone


def test_the_status_is_an_enum_of_the_documented_words(solved):
    _, result, _ = solved["carrots"]
    assert isinstance(result.status, gridbot.Status) and result.status is gridbot.Status.OPTIMAL
    assert gridbot.Status.OPTIMAL == "optimal" and json.loads(json.dumps(result.to_json()))["status"] == "optimal"
    assert [s.value for s in gridbot.Status] == ["optimal", "solved", "unsolvable", "timeout"]


def _is_svg(text: object) -> bool:
    assert isinstance(text, str)
    return ET.fromstring(text).tag == "{http://www.w3.org/2000/svg}svg"


@pytest.mark.parametrize("game", games.GAMES)
def test_a_level_a_run_and_a_result_draw_themselves(game: str, solved):
    level, result, _ = solved[game]
    assert _is_svg(level._repr_svg_())
    assert _is_svg(gridbot.run(level, result.solution)._repr_svg_())
    assert _is_svg(result._repr_svg_())
    assert result._repr_svg_() == gridbot.run(level, result.solution)._repr_svg_() != level._repr_svg_()


def test_a_result_without_its_level_shows_as_text():
    """A result read back (a checkpoint) or made by hand holds no level: IPython then shows its text repr."""
    result = gridbot.SolveResult("carrots", "carrots:02", "optimal", None, None, 0.1, 1)
    assert result._repr_svg_() is None and result.status is gridbot.Status.OPTIMAL


def test_the_front_door_loads_no_solver_and_no_drawing_until_used():
    import subprocess
    import sys

    from tests import SRC

    code = (
        "import sys, gridbot; level = gridbot.load('carrots:2'); gridbot.run(level, 'F');"
        " print(sorted(m for m in sys.modules if m.startswith(('numba', 'gridbot.solve', 'gridbot.render'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={"PYTHONPATH": str(SRC)}
    )
    assert done.stdout.strip() == "[]"
    assert sorted(SOLVERS) == sorted(games.GAMES)
