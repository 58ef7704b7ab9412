"""Pictures of every game: SVG text, PNG and animated GIF bytes, from one drawing per game.

>>> import gridbot
>>> from gridbot import render
>>> level = gridbot.load("carrots:1")
>>> render.svg(level).startswith("<svg")
True
>>> render.png(level, "LOOP{F}")[:4] == b"\\x89PNG"
True

A game's drawing lives in `gridbot.render.<game>` and offers:

- `steps(level, program) -> int`: how many steps the run of `program` shows (its trace's length, capped);
- `draw(level, program, at) -> list[Scene]`: the picture after each step number in `at` (ascending; 0 is the
  start); with `program` None, one picture of the level itself;
- `PALETTE`: the cell characters a click on the web page cycles through, and `edit(level, row, col) -> str`,
  the level's text with that cell turned to the next one.

Every back end draws the same Scene (`gridbot.render.scene`): `svg_text.to_svg` and `raster.png/gif`.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from typing import Any

from gridbot import games
from gridbot.errors import GridbotError

from . import raster, svg_text
from .scene import Scene

MAX_FRAMES = 150  # a GIF's frames at most: a longer run is sampled evenly, first and last step kept
MAX_STEPS = 100_000  # steps a picture follows at most (a longer run is shown as far as this)


def has_drawing(game: str) -> bool:
    """Has `game` (a name from gridbot.games.GAMES) a drawing module yet? Nothing is imported to tell."""
    return importlib.util.find_spec(f"{__name__}.{game}") is not None


def drawing(of: Any) -> ModuleType:
    """The drawing module (gridbot.render.<game>) of a level's game, of a game module or of a game's name: the one
    lookup the command line, the playground and the functions below make. GridbotError for a game that has none
    yet."""
    game = games.get(of) if isinstance(of, str) else games.get(of.NAME) if isinstance(of, ModuleType) else games.of(of)
    if not has_drawing(game.NAME):
        raise GridbotError(f"{game.NAME} has no drawing yet ({__name__}.{game.NAME}); nothing to render")
    return importlib.import_module(f"{__name__}.{game.NAME}")


def _program(level: Any, program: Any) -> Any:
    if isinstance(program, str):
        return games.of(level).parse_program(program)
    return program


def scene(level: Any, program: Any = None, step: int | None = None) -> Scene:
    """The level alone (no program), or the state after `step` steps of the program's run (None: its end)."""
    draw = drawing(level)
    program = _program(level, program)
    if program is None:
        return draw.draw(level, None, [0])[0]
    if step is not None and step < 0:
        raise ValueError(f"step must be 0 or more, not {step}")
    last = draw.steps(level, program)
    return draw.draw(level, program, [last if step is None else min(step, last)])[0]


def frame_steps(last: int, frames: int = MAX_FRAMES) -> list[int]:
    """Step numbers of at most `frames` frames spread evenly over 0..last, both ends kept.

    >>> frame_steps(3), frame_steps(1000, 5)
    ([0, 1, 2, 3], [0, 250, 500, 750, 1000])
    """
    if frames < 2 or last + 1 <= frames:
        return list(range(last + 1)) if frames >= 2 else [last]
    return sorted({round(i * last / (frames - 1)) for i in range(frames)})


def film(level: Any, program: Any, frames: int = MAX_FRAMES) -> list[Scene]:
    """The pictures of a run, at most `frames` of them (see frame_steps); the level alone without a program."""
    draw = drawing(level)
    program = _program(level, program)
    if program is None:
        return draw.draw(level, None, [0])
    return draw.draw(level, program, frame_steps(draw.steps(level, program), frames))


def svg(level: Any, program: Any = None, step: int | None = None) -> str:
    """The picture as SVG text (see `scene`)."""
    return svg_text.to_svg(scene(level, program, step))


def png(level: Any, program: Any = None, step: int | None = None) -> bytes:
    """The picture as PNG bytes (see `scene`)."""
    return raster.png(scene(level, program, step))


def gif(level: Any, program: Any = None, frames: int = MAX_FRAMES) -> bytes:
    """The run as an animated GIF of at most `frames` frames, the last held (see `film`)."""
    return raster.gif(film(level, program, frames))


def edit(level: Any, row: int, col: int) -> str:
    """The level's text with cell (row, col) turned to the next character of its game's palette."""
    return drawing(level).edit(level, row, col)


__all__ = ["Scene", "svg", "png", "gif", "scene", "film", "frame_steps", "edit", "drawing", "has_drawing"]
