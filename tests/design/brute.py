"""Unpruned enumerations for the analysis's counts, written for obviousness: every program of a length, run by the
game's simulator, its winners and their behaviours (the states of the run, the game's `states`)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from gridbot.games import carrots, lightbot
from gridbot.games.carrots import Loop, Move, Program


def carrots_bodies(n: int, counts: int) -> Iterator[tuple[carrots.Statement, ...]]:
    """Every sequence of statements of exactly n tokens: F, L, R, and loops (counts 1..`counts`, and unbounded)
    over non-empty bodies."""
    if n == 0:
        yield ()
        return
    for first in range(1, n + 1):
        for head in carrots_statements(first, counts):
            for rest in carrots_bodies(n - first, counts):
                yield (head, *rest)


def carrots_statements(n: int, counts: int) -> Iterator[carrots.Statement]:
    if n == 1:
        yield from (Move(op) for op in "FLR")
        return
    for body in carrots_bodies(n - 1, counts):
        for count in [*range(1, counts + 1), None]:
            yield Loop(body, count)


def carrots_winners(level: carrots.Level, n: int, counts: int) -> dict[Program, tuple]:
    """{program: its behaviour} of every program of exactly n tokens that completes `level`."""
    found = {}
    for body in carrots_bodies(n, counts):
        program = Program(body)
        if carrots.run(level, program).verdict.won:
            found[program] = tuple(carrots.states(level, program))
    return found


def lightbot_winners(level: lightbot.Level, n: int) -> dict[lightbot.Program, tuple]:
    """{program: its behaviour} of every program of exactly n commands (main, f1, f2 within their limits) that
    wins `level`."""
    found = {}
    for a in range(min(n, lightbot.LIMITS["main"]) + 1):
        for b in range(min(n - a, lightbot.LIMITS["f1"]) + 1):
            if n - a - b > lightbot.LIMITS["f2"]:
                continue
            for letters in itertools.product(lightbot.COMMANDS, repeat=n):
                word = "".join(letters)
                program = lightbot.Program(word[:a], word[a : a + b], word[a + b :])
                if lightbot.run(level, program).verdict.won:
                    found[program] = tuple(lightbot.states(level, program))
    return found
