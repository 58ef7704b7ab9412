"""Light-Bot's and RoboZZle's behaviour counts (gridbot.solve.behaviours) against every program of the par: on
small random levels, every program of the proven par is enumerated without cuts and run by the tests' own
interpreter (tests/design/every_program.py), and the analysis's count, where it says it is exact, must equal the
number of distinct behaviours among them. The listing alone (what analyze counted before) differs on some of
these levels, so the tests can fail."""

from __future__ import annotations

from functools import cache

import pytest

import gridbot
from gridbot.deadline import Clock
from gridbot.games import lightbot, robozzle
from gridbot.generate.lightbot import random_level as lightbot_level
from gridbot.generate.robozzle import random_level as robozzle_level
from gridbot.solve.analyze import analyze
from gridbot.solve.behaviours import lightbot_every, lightbot_key, robozzle_key

from . import every_program

# (width, height, lights, highest tile, seeds): boards whose pars run from 4 to 7
LIGHTBOT_SETS = ((3, 2, 2, 1, range(12)), (4, 2, 3, 0, range(20)), (3, 3, 3, 1, range(8)))
LIGHTBOT_PAR = 7  # 7^7 programs per split of the commands: seconds for the compiled enumeration


@cache
def lightbot_levels() -> tuple[lightbot.Level, ...]:
    found = []
    for width, height, lights, top, seeds in LIGHTBOT_SETS:
        for seed in seeds:
            level = lightbot_level(width, height, seed, lights=lights, max_height=top)
            result = gridbot.solve(level, max_length=LIGHTBOT_PAR)
            if result.status == "optimal" and result.length:
                found.append(level)
    return tuple(found)


@cache
def truth(level: lightbot.Level | robozzle.Level) -> tuple[int, frozenset, frozenset]:
    """(par, the behaviours of every winning program of the par, their runs as state sequences)."""
    game, winners_of, key = (
        (lightbot, every_program.lightbot_winners, lightbot_key)
        if isinstance(level, lightbot.Level)
        else (robozzle, every_program.robozzle_winners, robozzle_key)
    )
    par = gridbot.solve(level).length
    winners = winners_of(level, par)
    keys = frozenset(key(level, p) for p in winners)
    states = frozenset(tuple(game.states(level, p)) for p in winners)
    return par, keys, states


@pytest.mark.parametrize("level", lightbot_levels()[::2], ids=str)
def test_lightbot_count_is_every_programs(level: lightbot.Level) -> None:
    par, keys, _ = truth(level)
    assert not every_program.lightbot_winners(level, par - 1)  # the par is the par
    a = analyze(level, longer=False, needed=False)
    assert (a.status, a.par) == ("optimal", par)
    assert not a.behaviours_capped, "small levels are counted exactly"
    assert a.behaviours == len(keys)


def test_lightbot_listing_alone_undercounts() -> None:
    """The listed programs (one X placement per walk) miss behaviours on some of these levels, and their runs as
    state sequences (the count before) differ from every program's: so the test above can fail."""
    short_by_listing = short_by_states = 0
    for level in lightbot_levels():
        par, keys, states = truth(level)
        result = gridbot.solve(level, all_solutions=True)
        listed = (result.solution, *result.solutions)
        short_by_listing += len({lightbot_key(level, p) for p in listed}) < len(keys)
        short_by_states += len({tuple(lightbot.states(level, p)) for p in listed}) < len(states)
        every = lightbot_every(level, par, listed, result.solutions_capped, 1000, Clock(None))
        assert every.complete and set(every.keys) == keys
    assert short_by_listing >= 2 and short_by_states >= 2


def test_lightbot_bounded_work_is_a_lower_bound() -> None:
    level = lightbot_levels()[0]
    par, keys, _ = truth(level)
    result = gridbot.solve(level, all_solutions=True)
    every = lightbot_every(level, par, (result.solution,), False, 1000, Clock(None), work=10)
    assert not every.complete and len(every.keys) <= len(keys)
    capped = lightbot_every(level, par, (result.solution,), True, 1000, Clock(None))
    assert not capped.complete  # a capped listing: never exact


def test_lightbot_key_ignores_what_shows_nothing() -> None:
    level = lightbot.Level.parse("000\n\n>*.")
    same = [lightbot.parse_program(t) for t in ("FX", "LLRRFX", "XFX", "FLLX", "JFX")]
    assert len({lightbot_key(level, p) for p in same}) == 1
    assert lightbot_key(level, same[0]) == (("at", 0, 1), ("x", 0, 1))


ROBOZZLE_PAR = 4  # (commands x 4 conditions)^4 programs per split


def small_puzzle(seed: int) -> robozzle.Level:
    """A random 3 x 3 or 4 x 3 puzzle with F1 and F2 of at most 4 slots (so that every program can be tried)."""
    level = robozzle_level(3 + seed % 2, 3, seed, holes=0.2)
    slots = tuple(min(s, 4) if f < 2 else 0 for f, s in enumerate(level.slots))
    return robozzle.Level(level.colours, level.stars, level.start, level.facing, slots, level.paints, level.name)


@cache
def robozzle_puzzles() -> tuple[robozzle.Level, ...]:
    found = []
    for seed in range(60):
        level = small_puzzle(seed)
        result = gridbot.solve(level, max_length=ROBOZZLE_PAR)
        if result.status == "optimal" and result.length and result.length >= 3:
            found.append(level)
    return tuple(found)


@pytest.mark.parametrize("level", robozzle_puzzles()[:10], ids=str)
def test_robozzle_count_is_every_programs(level: robozzle.Level) -> None:
    par, keys, _ = truth(level)
    a = analyze(level, longer=False, needed=False)
    assert (a.status, a.par) == ("optimal", par)
    assert not a.behaviours_capped
    assert a.behaviours == len(keys)


def test_robozzle_states_of_the_listing_differ() -> None:
    """The count before (the listed programs' runs as state sequences) differs from every program's count on
    some of these puzzles, so the test above can fail."""
    differ = 0
    for level in robozzle_puzzles()[:10]:
        par, keys, states = truth(level)
        result = gridbot.solve(level, all_solutions=True)
        listed = (result.solution, *result.solutions)
        before = len({tuple(robozzle.states(level, p)) for p in listed})
        differ += before not in (len(keys), len(states))
        assert {robozzle_key(level, p) for p in listed} == keys
    assert differ >= 1


def test_robozzle_key_counts_paints_that_show() -> None:
    level = robozzle.Level.parse("functions: 3 0 0 0 0\npaint: RG\nstart: 1 1 east\nrgR")
    plain, painted, same = (robozzle.parse_program(t) for t in ("F1: F F", "F1: F gPR F", "F1: F rPR F"))
    assert robozzle_key(level, plain) == robozzle_key(level, same) == (("at", 0, 1), ("at", 0, 2))
    assert robozzle_key(level, painted) == (("at", 0, 1), ("paint", 0, 1, "R"), ("at", 0, 2))
