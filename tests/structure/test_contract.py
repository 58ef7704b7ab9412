"""The contract of a game module (gridbot.games.protocol): every game keeps it, and docs/development.md's table
says exactly what the protocol says."""

from __future__ import annotations

import inspect
import re
from types import FunctionType

import pytest

from gridbot import games, generate
from gridbot.games.protocol import DEFAULTS, Extras, Game, members
from tests import ROOT

TABLE = ROOT / "docs" / "development.md"
TYPES = {"UNIT": str, "SOLUTION": str, "SIZE": str, "MAX_SIDE": int, "MAX_LEVEL_BYTES": int, "MAX_PROGRAM_BYTES": int}
TYPES |= {"LISTS_ALL": bool, "PROGRAM_OPTIONAL": bool}


def documented() -> dict[str, str]:
    """{name: "required" or its default} from the table of "Adding a game": its rows start with a name in
    backquotes (a function's arguments dropped)."""
    text = TABLE.read_text()
    section = text[text.index("## Adding a game") :]
    section = section[: section.index("\n## ")]
    rows = re.findall(r"^\| `([A-Za-z_]+)(?:\([^`]*\))?` \| ([^|]+) \|", section, re.MULTILINE)
    return {name: cell.strip() for name, cell in rows}


def test_the_table_of_development_md_is_the_protocol():
    table = documented()
    required, optional = members(Game), members(Extras)
    assert set(required) == {"NAME", "SUMMARY", "Level", "parse_program", "run", "format_trace"}
    assert list(table) == required + optional  # the same names, in the same order
    assert all(table[name] == "required" for name in required)
    assert all(table[name] != "required" for name in optional)
    assert set(DEFAULTS) == set(optional)


@pytest.mark.parametrize("game", games.GAMES)
def test_every_game_keeps_the_contract(game: str):
    module = games.get(game)
    assert isinstance(module, Game)
    assert game == module.NAME
    assert 0 < len(module.SUMMARY) <= 62
    assert callable(module.Level.parse)
    for name, arguments in (("parse_program", 1), ("run", 2), ("format_trace", 3)):
        assert len(inspect.signature(getattr(module, name)).parameters) >= arguments, name
    for name in members(Extras):
        value = games.optional(module, name)
        if name in TYPES:
            assert value is None or isinstance(value, TYPES[name]), (name, value)
        else:
            assert value is None or isinstance(value, FunctionType), (name, value)


@pytest.mark.parametrize("game", games.GAMES)
def test_the_rules_leave_solving_and_generating_to_their_layers(game: str):
    """No game module offers what moved out of the rules: its solver is found by the registry, its random levels
    made by gridbot.generate."""
    module = games.get(game)
    assert not hasattr(module, "solve") and not hasattr(module, "random_level")
    assert generate.of(game).random_level(6, 5, 1) == generate.random_level(game, 6, 5, 1)


def test_an_unknown_optional_name_is_an_error():
    with pytest.raises(KeyError):
        games.optional(games.get("carrots"), "UNITS")
