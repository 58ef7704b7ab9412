"""The games gridbot knows, each a module with the same face.

A game module defines: `NAME`; `Level` with `Level.parse(text, name)`;
`parse_program(text)` (the solution's text form); `run(level, solution)`
returning an object with a `verdict` (gridbot.result.Verdict); `format_trace`;
and `solve(level, time_limit=None, all_solutions=False, progress=None)`
returning a gridbot.result.SolveResult. Optional: `UNIT` (what a solution's
length counts, default "tokens"), `SOLUTION` (what a solution is called,
default "program"), `LISTS_ALL = False` when the solver returns one answer only
(the CLI then refuses `--all`), `describe(level, result)` for a game's own
report, `run_fields(run)` a dict of extra facts about a run that `gridbot run`
prints and adds to its JSON. Add a game by writing such a module and naming it in GAMES.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from gridbot.grid import GridbotError

GAMES = ("carrots", "pellet", "torch_cave", "bender", "lightbot", "robos_escape", "robozzle")


def get(name: str) -> ModuleType:
    """The module of game `name`; raises GridbotError for an unknown game."""
    key = name.lower()
    if key not in GAMES:
        raise GridbotError(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    return importlib.import_module(f"gridbot.games.{key}")
