"""Levels made by program, one module per game (`gridbot.generate.<game>`), apart from the rules in gridbot.games.

Each module offers `random_level(width, height, seed, ..., name="")`: a random level of the game, the same for the
same arguments, which the soak suite (tests/soak/soak.py) and the benchmarks solve by the hundred. Levels made to
order (a proven par, one optimal solution, no path at all) come from gridbot.generate.order, whose `generate` is
this package's front: the package is callable as it, as gridbot.solve is as its solver's front. A generator may
read the rules, run the compiled kernels and call the solvers below it, and nothing below it imports a generator.

>>> import gridbot
>>> level = gridbot.generate.random_level("carrots", 5, 4, seed=3)
>>> level == gridbot.generate.carrots.random_level(5, 4, 3)
True
>>> [made.analysis.par for made in gridbot.generate("carrots", 2, size=(3, 3), count=2)]
[2, 2]
"""

from __future__ import annotations

import importlib
import sys
import types
from types import ModuleType
from typing import Any

from gridbot import games


def of(game: str) -> ModuleType:
    """The generator module of `game` (gridbot.generate.<game>); GridbotError for an unknown game."""
    return importlib.import_module(f"gridbot.generate.{games.get(game).NAME}")


def random_level(game: str, width: int, height: int, seed: int, **options: Any) -> Any:
    """A random level of `game`: gridbot.generate.<game>.random_level(width, height, seed, **options), whose
    docstring gives the options and what the level promises (solvable by construction or not)."""
    return of(game).random_level(width, height, seed, **options)


class _Front(types.ModuleType):
    """This package, callable as its front: `gridbot.generate(game, par, ...)` is
    `gridbot.generate.order.generate(game, par, ...)` (loaded on the first call; see gridbot.solve's `_Front`)."""

    def __call__(self, game: str, par: int | None = None, **options: Any) -> Any:
        from gridbot.generate.order import generate

        return generate(game, par, **options)


sys.modules[__name__].__class__ = _Front

__all__ = ["of", "random_level"]
