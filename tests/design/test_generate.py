"""gridbot.generate: levels made to order, each par proven; the same seed gives the same levels; a request no level
can meet is refused; a time limit returns what was made (tests/design/test_generate_brute.py: against brute force)."""

from __future__ import annotations

import time

import pytest

import gridbot
from gridbot.errors import GridbotError, OrderError
from gridbot.games import robozzle, torch_cave
from gridbot.generate import order
from gridbot.generate.robozzle import random_program, trail_level
from gridbot.result import Status

REQUESTS = [
    {"game": "carrots", "par": 4, "size": (5, 4)},
    {"game": "carrots", "par": 5, "size": (6, 5), "unique": True},
    {"game": "lightbot", "par": 6, "size": (3, 3)},
    {"game": "lightbot", "par": 5, "size": (3, 3), "unique": True},
    {"game": "robozzle", "par": 4, "size": (6, 6)},
    {"game": "robozzle", "par": 5, "size": (6, 6)},
    {"game": "robozzle", "par": 4, "size": (5, 5), "unique": True},
    {"game": "pellet", "size": (6, 5), "unique": True},
    {"game": "pellet", "size": (5, 4), "none": True},
    {"game": "pellet", "par": 11, "size": (4, 4)},
    {"game": "torch_cave", "torches": 1, "size": (10, 8)},
    {"game": "torch_cave", "par": 20, "size": (9, 9)},
]


def _label(request: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in request.items())


@pytest.fixture(scope="module", params=REQUESTS, ids=_label)
def made(request: pytest.FixtureRequest) -> tuple[dict, list[order.Made]]:
    return request.param, gridbot.generate(**request.param, seed=7, count=3)


def test_the_same_seed_gives_the_same_levels(made):
    request, levels = made
    again = gridbot.generate(**request, seed=7, count=3)
    assert [str(m.level) for m in again] == [str(m.level) for m in levels]
    assert [m.tried for m in again] == [m.tried for m in levels]
    other = gridbot.generate(**request, seed=8, count=3)
    assert [str(m.level) for m in other] != [str(m.level) for m in levels]


def test_every_level_read_back_and_solved_again_has_the_par_asked_for(made):
    request, levels = made
    assert len(levels) == 3
    assert len({str(m.level) for m in levels}) == 3  # three different levels
    game = request["game"]
    for number, m in enumerate(levels, 1):
        stem = order.make_order(**{k: v for k, v in request.items()}, seed=7).stem(number)
        assert m.level.name == stem
        level = gridbot.parse(game, str(m.level), name=stem)
        assert level == m.level
        result = gridbot.solve(level)
        if request.get("none"):
            assert result.status is Status.UNSOLVABLE and m.analysis.status is Status.UNSOLVABLE
            continue
        assert result.status is Status.OPTIMAL and m.analysis.status is Status.OPTIMAL
        assert result.length == m.analysis.par
        if "par" in request:
            assert result.length == request["par"]
        if request.get("torches"):
            assert result.length > torch_cave.TORCH_LIGHT * request["torches"]
        if game in ("lightbot", "robozzle", "pellet", "torch_cave"):  # exactly the size asked for
            assert (len(level.rows[0]), len(level.rows)) == request["size"]
        else:  # Carrots crops to the squares
            assert len(level.rows[0]) <= request["size"][0] and len(level.rows) <= request["size"][1]
        if request.get("unique") and game != "pellet":
            assert m.analysis.behaviours == 1 and not m.analysis.behaviours_capped
            assert not m.analysis.programs_capped


def test_the_trail_of_a_random_program_is_won_by_it():
    won = 0
    for seed in range(200):
        program = random_program(3 + seed % 8, seed)
        level = trail_level(7, 6, seed, program)
        if level is None:
            continue
        assert (level.width, level.height) == (7, 6)
        assert robozzle.Level.parse(str(level), name="") == level
        assert robozzle.run(level, program).verdict.won
        assert level.start not in level.stars
        won += 1
    assert won >= 20


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        ({"game": "lightbot", "par": 29}, "at most 28 commands"),
        ({"game": "lightbot", "par": 1}, "a light is never under the robot"),
        ({"game": "robozzle", "par": 51}, "at most 50 slots"),
        ({"game": "carrots", "par": 0}, "no carrots level has par 0"),
        ({"game": "carrots", "par": 7, "size": (2, 1)}, "covered by 6 tokens or fewer"),
        ({"game": "carrots"}, "give --par N"),
        ({"game": "carrots", "par": 3, "size": (1, 1)}, "at least 2 cells"),
        ({"game": "lightbot", "par": 3, "size": (0, 4)}, "cells a side"),
        ({"game": "pellet", "par": 16, "size": (4, 4)}, "at most 15 moves"),
        ({"game": "pellet", "size": (1, 2), "none": True}, "every board of 1x2 has a path"),
        ({"game": "pellet", "none": True, "unique": True}, "takes neither"),
        ({"game": "torch_cave"}, "--par N or --torches K"),
        ({"game": "torch_cave", "par": 30, "torches": 2}, "par 31 or more"),
        ({"game": "torch_cave", "torches": 3, "size": (6, 6)}, "needs 3 torches"),
        ({"game": "carrots", "par": 3, "none": True}, "--none is for pellet"),
        ({"game": "bender", "par": 3}, "not made to order yet"),
        ({"game": "robos_escape", "par": 3}, "not made to order yet"),
    ],
)
def test_a_request_no_level_can_meet_is_refused_at_once(arguments, fragment):
    started = time.monotonic()
    with pytest.raises(OrderError, match=".*") as caught:
        gridbot.generate(**arguments)
    assert fragment in str(caught.value) and "\n" not in str(caught.value)
    assert isinstance(caught.value, GridbotError)
    assert time.monotonic() - started < 5


SMALLEST = [("carrots", 1), ("carrots", 2), ("lightbot", 2), ("robozzle", 1), ("robozzle", 2)]


@pytest.mark.parametrize(("game", "par"), SMALLEST)
def test_the_smallest_pars_are_made_too(game, par):
    made = gridbot.generate(game, par, count=1, time_limit=120)
    assert len(made) == 1 and gridbot.solve(made[0].level).length == par


def test_bad_counts_and_limits_are_value_errors():
    with pytest.raises(ValueError):
        gridbot.generate("carrots", 3, count=0)
    with pytest.raises(ValueError):
        gridbot.generate("carrots", 3, time_limit=-1)


def test_progress_and_on_level_hear_each_step():
    reports, heard = [], []
    made = gridbot.generate("carrots", 3, size=(4, 4), count=2, progress=reports.append, on_level=heard.append)
    assert heard == made
    assert reports[-1]["made"] == 2 and reports[-1]["tried"] == made[-1].tried == len(reports)
    assert [r["tried"] for r in reports] == list(range(1, len(reports) + 1))


@pytest.mark.clock
def test_a_time_limit_stops_with_what_was_made():
    started = time.monotonic()
    made = gridbot.generate("carrots", 3, size=(4, 4), count=10_000, time_limit=3)
    assert time.monotonic() - started < 3 + 3
    assert 0 < len(made) < 10_000
    first = gridbot.generate("carrots", 3, size=(4, 4), count=len(made))  # a prefix of the same sequence
    assert [str(m.level) for m in first] == [str(m.level) for m in made]
    for m in made:
        assert gridbot.solve(gridbot.parse("carrots", str(m.level))).length == 3


@pytest.mark.clock
def test_a_time_limit_on_a_hard_request_returns_nothing_in_time():
    started = time.monotonic()
    assert gridbot.generate("carrots", 40, size=(12, 12), time_limit=2) == []
    assert time.monotonic() - started < 2 + 3


def test_a_stop_event_stops_like_a_time_limit():
    class Soon:
        def __init__(self) -> None:
            self.asked = 0

        def is_set(self) -> bool:
            self.asked += 1
            return self.asked > 200

    made = gridbot.generate("carrots", 3, size=(4, 4), count=10_000, stop=Soon())
    assert len(made) < 10_000
