"""Bundled levels, addressed as `GAME:NAME` (`carrots:7`), and level files.

>>> import gridbot
>>> gridbot.load("carrots:1").size
3
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from gridbot import games
from gridbot.grid import GridbotError, LevelError

LEVEL_SUFFIXES = (".txt", ".in")


def names(game: str) -> list[str]:
    """Names of the bundled levels of `game`, in order."""
    games.get(game)
    folder = resources.files("gridbot") / "data" / game.lower()
    if not folder.is_dir():
        return []
    found = [Path(f.name) for f in folder.iterdir() if Path(f.name).suffix in LEVEL_SUFFIXES]
    return sorted(p.stem for p in found)


def _matches(stem: str, wanted: str) -> bool:
    if stem == wanted:
        return True
    return wanted.isdigit() and stem.split("_")[0].isdigit() and int(stem.split("_")[0]) == int(wanted)


def bundled(game: str, wanted: str) -> str | None:
    """The name of the bundled level of `game` that `wanted` names (`7` finds `07`), or None."""
    for stem in names(game):
        if _matches(stem, wanted):
            return stem
    return None


def read_text(spec: str, game: str | None = None) -> tuple[str, str, str]:
    """(game, display name, text) of a level given as `GAME:NAME` or as a file path."""
    if ":" in spec and not Path(spec).exists():
        game_name, wanted = spec.split(":", 1)
        if game is not None and game_name.lower() != game.lower():
            raise GridbotError(f"level {spec!r} belongs to {game_name}, not {game}")
        folder = resources.files("gridbot") / "data" / game_name.lower()
        for stem in names(game_name):
            if _matches(stem, wanted):
                for suffix in LEVEL_SUFFIXES:
                    f = folder / (stem + suffix)
                    if f.is_file():
                        return game_name.lower(), f"{game_name.lower()}:{stem}", f.read_text()
        raise GridbotError(f"no bundled level {spec!r} (see `gridbot levels {game_name}`)")
    path = Path(spec)
    if game is None:
        raise GridbotError(f"name the game of level file {spec!r}")
    try:
        return game.lower(), spec, path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise GridbotError(f"cannot read level file {spec!r}: {exc}") from exc


def load(spec: str, game: str | None = None) -> Any:
    """Parse a level given as `GAME:NAME` or (with `game`) a file path."""
    game_name, name, text = read_text(spec, game)
    try:
        return games.get(game_name).Level.parse(text, name=name)
    except LevelError as exc:
        raise exc.with_source(name) from None
