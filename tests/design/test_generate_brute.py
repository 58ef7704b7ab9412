"""Levels made to order against unpruned brute force on small boards: Carrots and RoboZZle programs enumerated up
to the par, Pellet's Hamiltonian paths counted by a plain depth-first search, torch caves walked without torches."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

import gridbot
from gridbot.games import carrots, pellet, robozzle, torch_cave
from gridbot.games.carrots import Loop, Move, Program
from gridbot.generate.pellet import other_path, walk_level
from gridbot.result import Status

COUNTS = 12  # loop counts 1..COUNTS, and unbounded loops


def bodies(n: int) -> Iterator[tuple[carrots.Statement, ...]]:
    """Every sequence of statements of exactly n tokens: F, L, R and loops over non-empty bodies."""
    if n == 0:
        yield ()
        return
    for first in range(1, n + 1):
        for head in statements(first):
            for rest in bodies(n - first):
                yield (head, *rest)


def statements(n: int) -> Iterator[carrots.Statement]:
    if n == 1:
        yield from (Move(op) for op in "FLR")
        return
    for body in bodies(n - 1):
        for count in [*range(1, COUNTS + 1), None]:
            yield Loop(body, count)


def visit_orders(level: carrots.Level, n: int) -> set[tuple[int, ...]]:
    """The orders in which the programs of exactly n tokens that complete `level` mark its squares: one order
    for every program of that length that does the job the same way (however many idle steps it takes)."""
    found = set()
    for body in bodies(n):
        program = Program(body)
        if carrots.run(level, program).verdict.won:
            found.add(order(level, program))
    return found


def order(level: carrots.Level, program: Program) -> tuple[int, ...]:
    """The squares in the order the run first stands on them, the start first (a program that turns before its
    first hop stands on the start in its first state, one that hops does not: the same order)."""
    return tuple(dict.fromkeys([level.start, *(square for square, _ in carrots.states(level, program))]))


@pytest.mark.parametrize(("par", "size", "seed"), [(3, (4, 3), 1), (4, (4, 4), 1), (4, (5, 4), 2), (4, (4, 3), 3)])
def test_carrots_unique_levels_have_one_way_at_par_and_none_shorter(par, size, seed):
    for made in gridbot.generate("carrots", par, size=size, unique=True, count=2, seed=seed):
        level = made.level
        assert all(not visit_orders(level, n) for n in range(1, par))  # nothing shorter completes it
        orders = visit_orders(level, par)
        assert len(orders) == 1, (str(level), orders)
        example = Program.parse(made.analysis.examples[0])
        assert order(level, example) in orders


@pytest.mark.parametrize("seed", range(4))
def test_carrots_levels_have_the_par_a_brute_force_finds(seed):
    for made in gridbot.generate("carrots", 3, size=(4, 4), count=2, seed=seed):
        assert all(not visit_orders(made.level, n) for n in range(1, 3))
        assert visit_orders(made.level, 3)


MOVES = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}


def paths(level: pellet.Level, most: int = 1000) -> list[str]:
    """Every Hamiltonian path of the open cells from S (up to `most`), by a plain depth-first search."""
    cells = {(r, c) for r in range(level.height) for c in range(level.width) if level.is_open(r, c)}
    found: list[str] = []

    def walk(here: tuple[int, int], seen: set[tuple[int, int]], moves: str) -> None:
        if len(found) >= most:
            return
        if len(seen) == len(cells):
            found.append(moves)
            return
        for name, (dr, dc) in MOVES.items():
            there = (here[0] + dr, here[1] + dc)
            if there in cells and there not in seen:
                seen.add(there)
                walk(there, seen, moves + name)
                seen.remove(there)

    walk(level.start, {level.start}, "")
    return found


@pytest.mark.parametrize("size", [(4, 4), (5, 4), (6, 5)])
def test_pellet_unique_boards_have_exactly_one_path(size):
    for made in gridbot.generate("pellet", size=size, unique=True, count=3, seed=5):
        found = paths(made.level)
        assert found == [made.analysis.examples[0]]


def test_pellet_boards_without_a_path_have_none():
    for made in gridbot.generate("pellet", size=(5, 4), none=True, count=4, seed=2):
        assert paths(made.level, most=1) == []
        assert made.analysis.status is Status.UNSOLVABLE


@pytest.mark.parametrize("touch", [0.2, 0.5, 0.9])
def test_other_path_agrees_with_counting_every_path(touch):
    unique = several = 0
    for seed in range(40):
        level = walk_level(5, 5, seed, touch=touch)
        assert level is not None
        first = str(gridbot.solve(level).solution)
        other = other_path(level, first)
        count = len(paths(level, most=2))
        assert (other is None) == (count == 1), str(level)
        if other is not None:
            assert other != first and pellet.run(level, other).verdict.won
        unique += count == 1
        several += count > 1
    assert unique and several  # both kinds met


def test_torch_caves_that_need_a_torch_cannot_be_crossed_without_one():
    for made in gridbot.generate("torch_cave", torches=1, size=(12, 10), count=3, seed=4):
        text = str(made.level).replace(torch_cave.TORCH, ".")
        dark = gridbot.parse("torch_cave", text)
        assert gridbot.solve(dark).status is Status.UNSOLVABLE
        assert gridbot.solve(made.level).length == made.analysis.par


def test_random_candidates_really_vary():
    rng = random.Random(0)
    texts = {str(walk_level(6, 6, rng.randrange(10**6), touch=0.4)) for _ in range(20)}
    assert len(texts) > 15


def robozzle_winners(level: robozzle.Level, n: int) -> dict[str, tuple]:
    """{program text: its behaviour (the game's `states`)} of every program of exactly n occupied slots that fits
    `level` (its slots, its calls, its paints) and wins it, every command with every condition."""
    calls = [str(f + 1) for f, slots in enumerate(level.slots) if slots]
    ops = ["F", "L", "R", *calls, *("P" + p for p in level.paints)]
    commands = [robozzle.Command(op, cond) for op in ops for cond in ("", "R", "G", "B")]
    found = {}
    for sizes in itertools.product(*(range(slots + 1) for slots in level.slots)):
        if sum(sizes) != n:
            continue
        for chosen in itertools.product(commands, repeat=n):
            functions, at = [], 0
            for size in sizes:
                functions.append(tuple(chosen[at : at + size]))
                at += size
            program = robozzle.Program(tuple(functions))
            if robozzle.run(level, program).verdict.won:
                found[str(program)] = tuple(robozzle.states(level, program))
    return found


@pytest.mark.parametrize("seed", [1, 2])
def test_robozzle_puzzles_have_their_par_and_nothing_shorter(seed):
    for made in gridbot.generate("robozzle", 3, size=(5, 5), count=2, seed=seed):
        level = made.level
        assert all(not robozzle_winners(level, n) for n in range(1, 3))
        winners = robozzle_winners(level, 3)
        assert set(made.analysis.examples) <= set(winners)


UNIQUE_PROGRAM_GAMES = [("lightbot", 4, (3, 3), 1), ("lightbot", 5, (3, 2), 2), ("robozzle", 3, (4, 4), 1),
                        ("robozzle", 4, (5, 4), 3)]  # fmt: skip


@pytest.mark.parametrize(("game", "par", "size", "seed"), UNIQUE_PROGRAM_GAMES)
def test_unique_lightbot_and_robozzle_levels_have_one_behaviour_among_every_program(game, par, size, seed):
    """--unique for the program games: every program of the par (plain enumeration, no cuts, the tests' own
    interpreters) behaves one way, and none is shorter."""
    from gridbot.solve.behaviours import KEYS

    from .every_program import lightbot_winners
    from .every_program import robozzle_winners as every_robozzle

    winners = lightbot_winners if game == "lightbot" else every_robozzle
    made = gridbot.generate(game, par, size=size, unique=True, count=2, seed=seed)
    assert len(made) == 2
    for m in made:
        assert all(not winners(m.level, n) for n in range(1, par))
        behaviours = {KEYS[game](m.level, p) for p in winners(m.level, par)}
        assert len(behaviours) == 1 and m.analysis.behaviours == 1 and not m.analysis.behaviours_capped
