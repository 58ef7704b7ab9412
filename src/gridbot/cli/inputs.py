"""What every command reads, in one place: LEVEL arguments (bundled names, files, standard input), PROGRAM
arguments and program files, and time limits in seconds, counted from the command's start.
"""

from __future__ import annotations

import time
from types import ModuleType
from typing import Any

import click

from gridbot import levels
from gridbot.deadline import check_time_limit


def resolve_spec(spec: str, game: str) -> str:
    """`GAME:NAME`, `-` and file paths pass through; a bare bundled name (`7`) becomes `game:7`."""
    if ":" in spec or spec == levels.STDIN or levels.is_file(spec) or levels.bundled(game, spec) is None:
        return spec
    return f"{game}:{spec}"


def load(spec: str, game: str) -> Any:
    return levels.load(resolve_spec(spec, game), game)


def program_text(module: ModuleType, words: tuple[str, ...], program_file: str | None, level_spec: str) -> str:
    """The program's text: PROGRAM's words joined with spaces, or read from `--program-file` or PROGRAM `-` (a
    file or standard input, capped like a level; see levels.read_program)."""
    if program_file is not None and words:
        raise click.UsageError("give PROGRAM or --program-file, not both")
    source = program_file if program_file is not None else (levels.STDIN if words == (levels.STDIN,) else None)
    if source is None:
        return " ".join(words)
    if source == levels.STDIN and level_spec == levels.STDIN:
        raise click.UsageError("the level and the program cannot both come from standard input")
    return levels.read_program(source, module.NAME)


def level_name(level: Any, spec: str) -> str:
    return getattr(level, "name", "") or spec


class Seconds(click.ParamType):
    """A positive number of seconds (no NaN, no zero or less)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float | None:
        try:
            return check_time_limit(value)
        except ValueError:
            self.fail(f"{value!r} is not a positive number of seconds", param, ctx)


SECONDS = Seconds()


def command_started(ctx: click.Context) -> float:
    """When the command started (`main` records it; a test runner's call starts now)."""
    return (ctx.obj or {}).get("started", time.monotonic())


def time_left(time_limit: float | None, since: float) -> float | None:
    """The time limit still left of one counted from `since`, never below a twentieth of it (the command's start-up
    may have eaten it: the solver still gets a moment to return what it has)."""
    if time_limit is None:
        return None
    return max(time_limit - (time.monotonic() - since), time_limit / 20)
