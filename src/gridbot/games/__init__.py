"""The games gridbot knows: the rules of each, one module a game, and nothing else.

A game module keeps the contract of gridbot.games.protocol: what every game offers (`Game`: NAME, SUMMARY,
Level, parse_program, run, format_trace) and what a game may add (`Extras`: UNIT, LISTS_ALL, describe,
run_fields, ..., read through `optional`, which gives the default of one a game leaves out). The rules import
nothing of gridbot above the bottom layer (errors, grid, result, deadline): a game's solver is in
gridbot.solve.<game> (found through the registry of gridbot.solve), its generator of random levels in
gridbot.generate.<game>, its drawing in gridbot.render.<game>. Add a game by writing such a module and naming it
in GAMES (docs/development.md, "Adding a game").

>>> of(get("carrots").Level.parse("S##")).NAME
'carrots'
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from gridbot.errors import GridbotError
from gridbot.games.protocol import DEFAULTS, Extras, Game, optional

GAMES = ("carrots", "pellet", "torch_cave", "bender", "lightbot", "robos_escape", "robozzle")


def get(name: str) -> ModuleType:
    """The module of game `name`; raises GridbotError for an unknown game."""
    key = name.lower()
    if key not in GAMES:
        raise GridbotError(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    return importlib.import_module(f"gridbot.games.{key}")


def of(level: Any) -> ModuleType:
    """The module of the game `level` belongs to, found from its type (gridbot.games.<game>.Level); GridbotError
    for anything that is not a game's level. O(1)."""
    for kind in type(level).__mro__:
        home, _, game = kind.__module__.rpartition(".")
        if home == __name__ and game in GAMES:
            return get(game)
    raise GridbotError(f"not a level of any game: a {type(level).__name__} (known games: {', '.join(GAMES)})")


__all__ = ["DEFAULTS", "GAMES", "Extras", "Game", "get", "of", "optional"]
