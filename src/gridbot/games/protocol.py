"""The contract of a game module, in one place: what every game offers (`Game`), what a game may add (`Extras`),
and what the faces assume when it does not (`DEFAULTS`, read through `optional`).

The command line, the playground, the level reader and the pictures read a game only through these names, so a
module that keeps the contract gets `levels`, `run`, `solve`, `render` and the JSON output for free.
docs/development.md gives the same names in a table, and tests/structure/test_contract.py checks that the two agree
and that every game keeps the contract.

>>> from gridbot.games import carrots, pellet
>>> isinstance(carrots, Game), optional(carrots, "UNIT"), optional(pellet, "UNIT")
(True, 'tokens', 'moves')
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

from gridbot.grid import MAX_GRID_SIDE
from gridbot.result import SolveResult, Verdict


class GameLevel(Protocol):
    """A game's board. `str(level)` is text that `Level.parse` reads back to an equal level. The faces also show,
    where a level has them, `rows` (its text rows: the board's size), `size` (what `gridbot levels` counts, an
    int), `title` and `author`."""

    name: str

    @classmethod
    def parse(cls, text: str, name: str = ...) -> Any:
        """The level of `text`; gridbot.LevelError(message, line, column, source) for text it cannot read."""
        ...


class GameRun(Protocol):
    """What `run` returns: at least how the run ended. A verdict may carry a `reason`, which `run --json` adds."""

    verdict: Verdict


@runtime_checkable
class Game(Protocol):
    """What every game module offers."""

    NAME: str  # the game's name, as typed on the command line
    # the game's line in `gridbot --help`: a solution's syntax in brief, what it must do and what its length counts,
    # at most 62 characters, so that help fits 80 columns
    SUMMARY: str
    Level: type[GameLevel]

    def parse_program(self, text: str) -> Any:
        """A solution from its text; gridbot.ProgramError(message, column, text) for text it cannot read. `str()` of
        the result is the canonical text and parses back to an equal value; `.tokens` is its length."""
        ...

    def run(self, level: Any, program: Any) -> GameRun:
        """The simulation of `program` (parsed, or its text) on `level`, in bounded time for every program."""
        ...

    def format_trace(self, level: Any, run: Any, limit: int = 200) -> str:
        """The run step by step as text, at most `limit` steps (`gridbot run --trace`)."""
        ...


class Extras(Protocol):
    """What a game module may add; the faces use `DEFAULTS` where it does not."""

    UNIT: str  # what a solution's length counts, in the plural ("slots")
    SOLUTION: str  # what a solution is called ("path")
    SIZE: str | None  # what `gridbot levels` counts of a level's `size` ("star"; None: "size N")
    MAX_SIDE: int  # the largest board side the level format takes
    MAX_LEVEL_BYTES: int | None  # the most a level text may hold (None: gridbot.levels.MAX_LEVEL_BYTES)
    MAX_PROGRAM_BYTES: int | None  # the most a program file may hold (None: gridbot.levels.MAX_PROGRAM_BYTES)
    LISTS_ALL: bool  # False when the solver returns one answer only: `solve --all` is refused, not ignored
    PROGRAM_OPTIONAL: bool  # True when `run` goes without a program (Bender's own journey)

    def describe(self, level: Any, result: SolveResult) -> str:
        """The game's own report of a solve, in its own notation, instead of the generic one (Bender prints bare
        moves, as CodinGame expects)."""
        ...

    def report_lines(self, result: SolveResult) -> list[str]:
        """Lines the generic report of a solve adds after its seconds (RoboZZle: where the seconds went)."""
        ...

    def run_fields(self, run: Any) -> dict[str, Any]:
        """Facts about a run beside its verdict (Robo's Escape: score, coins, reason), which `gridbot run` prints and
        adds to its JSON."""
        ...

    def trace_parts(self, level: Any, run: Any, limit: int = 200) -> Iterator[str]:
        """The trace of `format_trace` in pieces, which `run --trace` prints as they are made."""
        ...

    def states(self, level: Any, program: Any) -> Iterator[Hashable]:
        """The states a run goes through, one per executed step, as the simulator makes them (endless for a run
        that never ends: take what you need); `gridbot analyze` tells two solutions apart by them (its
        behaviours). None: a solution is its own behaviour (a path's moves)."""
        ...


DEFAULTS: dict[str, Any] = {
    "UNIT": "tokens",
    "SOLUTION": "program",
    "SIZE": None,
    "MAX_SIDE": MAX_GRID_SIDE,
    "MAX_LEVEL_BYTES": None,
    "MAX_PROGRAM_BYTES": None,
    "LISTS_ALL": True,
    "PROGRAM_OPTIONAL": False,
    "describe": None,
    "report_lines": None,
    "run_fields": None,
    "trace_parts": None,
    "states": None,
}


def members(protocol: type) -> list[str]:
    """The names a protocol class declares (its annotated attributes and its methods), in order."""
    names = list(protocol.__dict__.get("__annotations__", {}))
    names += [name for name, value in vars(protocol).items() if callable(value) and not name.startswith("_")]
    return names


def optional(game: ModuleType, name: str) -> Any:
    """The optional attribute `name` (one of Extras) of a game module, or its default; KeyError for a name that is
    not one of Extras (a misspelt name fails, rather than quietly giving None)."""
    return getattr(game, name, DEFAULTS[name])


__all__ = ["DEFAULTS", "Extras", "Game", "GameLevel", "GameRun", "members", "optional"]
