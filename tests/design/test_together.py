"""`solve --together` and gridbot.solve_together: the shortest program for a set of levels, against brute forces
that run every program up to a small length on every level with the simulator."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random

import pytest
from click.testing import CliRunner

import gridbot
from gridbot.cli import cli
from gridbot.games import carrots, lightbot, robozzle
from gridbot.generate import carrots as gen_carrots
from gridbot.generate import lightbot as gen_lightbot
from gridbot.generate import robozzle as gen_robozzle
from gridbot.result import Status
from gridbot.solve.together import TogetherError, solve_together

COUNTS = (1, 2, 3, 4, 5, 6, None)  # enough for boards of at most 4 squares (a trajectory repeats within 16)


def carrots_programs(n: int):
    """Every Carrots statement sequence of exactly n tokens (loop counts from COUNTS)."""

    def sequences(k: int):
        if k == 0:
            yield ()
            return
        for first in range(1, k + 1):
            for head in statements(first):
                for tail in sequences(k - first):
                    yield (head, *tail)

    def statements(k: int):
        if k == 1:
            yield from carrots.MOVES.values()
        elif k >= 2:
            for body in sequences(k - 1):
                for count in COUNTS:
                    yield carrots.Loop(body, count)

    for body in sequences(n):
        yield carrots.Program(body)


def brute(levels, programs_of, up_to: int) -> int | None:
    """The shortest length <= up_to at which some program wins every level, by the simulator; None: none."""
    for n in range(1, up_to + 1):
        for program in programs_of(n):
            if all(gridbot.run(level, program).verdict.won for level in levels):
                return n
    return None


def check(levels, programs_of, up_to: int) -> tuple[int | None, list]:
    expected = brute(levels, programs_of, up_to)
    result = solve_together(levels, max_length=up_to, per_level=False)
    if expected is None:
        assert result.status == Status.TIMEOUT and result.solution is None
        assert result.lower_bound == up_to + 1
    else:
        assert result.status == Status.OPTIMAL, result
        assert result.length == expected
        assert all(gridbot.run(level, result.solution).verdict.won for level in levels)
    alone = [brute([level], programs_of, up_to) for level in levels]
    return expected, alone


def test_carrots_against_brute_force():
    differ = 0
    for seed in range(14):
        levels = [gen_carrots.random_level(3, 2, seed * 3 + k, fill=0.67, marked=0.0) for k in range(2 + seed % 2)]
        expected, alone = check(levels, carrots_programs, 4)
        if None not in alone and (expected is None or expected > max(alone)):
            differ += 1
    assert differ >= 1  # some sets need a longer program than any of their boards alone (here: none within 4)


def lightbot_programs(n: int):
    for a in range(1, n + 1):
        for b in range(0, n - a + 1):
            c = n - a - b
            if c and not b:
                continue
            for ops in itertools.product(lightbot.COMMANDS, repeat=n):
                yield lightbot.Program("".join(ops[:a]), "".join(ops[a : a + b]), "".join(ops[a + b :]))


def test_lightbot_against_brute_force():
    found = none = 0
    for seed in range(8):
        levels = [gen_lightbot.random_level(2, 2, seed * 7 + k, lights=1, max_height=1) for k in range(2)]
        expected, _ = check(levels, lightbot_programs, 4)
        found += expected is not None
        none += expected is None
    assert found and none


def robozzle_programs(sizes, paints):
    def programs_of(n: int):
        ops = ["F", "L", "R", *[str(f + 1) for f, size in enumerate(sizes) if size], *[f"P{c}" for c in paints]]
        commands = [robozzle.Command(op, cond) for op in ops for cond in ("", "R", "G", "B")]
        for split in itertools.product(*[range(size + 1) for size in sizes]):
            if sum(split) != n:
                continue
            for chosen in itertools.product(commands, repeat=n):
                bodies, at = [], 0
                for k in split:
                    bodies.append(tuple(chosen[at : at + k]))
                    at += k
                yield robozzle.Program(tuple(bodies))

    return programs_of


def one_row(seed: int, sizes: tuple[int, ...], paints: str) -> robozzle.Level:
    """A puzzle of one row of 2 to 4 random colours, the robot facing east, a star elsewhere in the row."""
    rng = random.Random(seed)
    cells = [rng.choice("rgb") for _ in range(rng.randint(2, 4))]
    robot, star = rng.sample(range(len(cells)), 2)
    cells[star] = cells[star].upper()
    paint = " ".join(paints) or "none"
    head = f"functions: {' '.join(map(str, sizes))}\npaint: {paint}\nstart: 1 {robot + 1} east\n"
    return robozzle.Level.parse(head + "".join(cells), f"row{seed}")


def test_robozzle_against_brute_force():
    sizes, paints = (2, 1, 0, 0, 0), "G"
    found = none = 0
    for seed in range(8):
        levels = [one_row(seed * 5 + k, sizes, paints) for k in range(2 + seed % 2)]
        expected, _ = check(levels, robozzle_programs(sizes, paints), 3)
        found += expected is not None
        none += expected is None
    assert found and none


def test_bundled_carrots_boards():
    result = gridbot.solve_together([gridbot.load(f"carrots:{i}") for i in (1, 2, 3)])
    assert result.status == Status.OPTIMAL and result.length == 4
    assert result.level == "carrots:01 + carrots:02 + carrots:03"


def test_errors():
    with pytest.raises(TogetherError, match="two levels or more"):
        solve_together([gridbot.load("carrots:1")])
    with pytest.raises(TogetherError, match="one game"):
        solve_together([gridbot.load("carrots:1"), gridbot.load("lightbot:1")])
    with pytest.raises(TogetherError, match="no together search"):
        solve_together([gridbot.load("pellet:tunnel"), gridbot.load("pellet:tunnel")])
    a = gen_robozzle.random_level(3, 2, 1, stars=1)
    b = dataclasses.replace(a, slots=(3, 2, 0, 0, 0))
    with pytest.raises(TogetherError, match="same function sizes"):
        solve_together([dataclasses.replace(a, slots=(2, 0, 0, 0, 0)), b])
    with pytest.raises(TogetherError, match="same paints"):
        solve_together([dataclasses.replace(b, paints="R"), dataclasses.replace(b, paints="")])


def test_cli_together_text_and_json():
    runner = CliRunner()
    out = runner.invoke(cli, ["solve", "carrots:1", "carrots:2", "--together"])
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[0] == "carrots:01 + carrots:02: optimal, 4 tokens (proven shortest)"
    out = runner.invoke(cli, ["solve", "carrots:1", "carrots:2", "--together", "--json"])
    data = json.loads(out.output)
    assert data["status"] == "optimal" and data["solution"] == "LOOP{F F R}" and data["proven_impossible"] == 3


def test_cli_together_errors():
    runner = CliRunner()
    for args in (["carrots:1", "--together"], ["carrots:1", "carrots:2", "--together", "--all"]):
        out = runner.invoke(cli, ["solve", *args])
        assert out.exit_code == 2, out.output
    out = runner.invoke(cli, ["solve", "pellet:tunnel", "pellet:tunnel", "--together"])
    assert out.exit_code == 2 and "no together search" in out.output
