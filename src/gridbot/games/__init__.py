"""The games gridbot knows, each a module with the same face.

A game module defines: `NAME`; `Level` with `Level.parse(text, name)` (and
`str(level)` giving text that parses back to it); `parse_program(text)` (the
solution's text form); `run(level, solution)` returning an object with a
`verdict` (gridbot.result.Verdict); `format_trace`; `solve(level,
time_limit=None, all_solutions=False, progress=None)` returning a
gridbot.result.SolveResult; and `SUMMARY`, the game's line in
`gridbot --help` (a solution's syntax in brief: what it must do; what its
length counts; at most 62 characters, so that help fits 80 columns).
Optional: `MAX_PROGRAM_BYTES` (the most a program file may hold, default
levels.MAX_PROGRAM_BYTES), `UNIT` (what a solution's
length counts, default "tokens"), `SOLUTION` (what a solution is called,
default "program"), `SIZE` (what `gridbot levels` counts, e.g. "star"),
`MAX_SIDE` (the largest board side the format takes), `MAX_LEVEL_BYTES` (the
most a level text may hold), `LISTS_ALL = False` when the solver returns one
answer only (the CLI then refuses `--all`), `describe(level, result)` for a
game's own report, `run_fields(run)` a dict of extra facts about a run that
`gridbot run` prints and adds to its JSON, `trace_parts(level, run, limit)`
the trace as pieces that `run --trace` prints as they are made. Add a game by
writing such a module and naming it in GAMES.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from gridbot.errors import GridbotError

GAMES = ("carrots", "pellet", "torch_cave", "bender", "lightbot", "robos_escape", "robozzle")


def get(name: str) -> ModuleType:
    """The module of game `name`; raises GridbotError for an unknown game."""
    key = name.lower()
    if key not in GAMES:
        raise GridbotError(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    return importlib.import_module(f"gridbot.games.{key}")
