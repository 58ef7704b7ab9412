"""Levels made by program, one module per game (`gridbot.generate.<game>`), apart from the rules in gridbot.games.

Today each module offers `random_level(width, height, seed, ..., name="")`: a random level of the game, the same
for the same arguments, which the soak suite (tests/soak/soak.py) and the benchmarks solve by the hundred. This is
also the layer where levels are to be generated to order (a given difficulty, a given shortest program): a
generator may read the rules, run the compiled kernels and call the solvers below it, and nothing below it
imports a generator.

>>> import gridbot
>>> level = gridbot.generate.random_level("carrots", 5, 4, seed=3)
>>> level == gridbot.generate.carrots.random_level(5, 4, 3)
True
"""

from __future__ import annotations

import importlib
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


__all__ = ["of", "random_level"]
