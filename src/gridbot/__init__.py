"""gridbot: simulate and solve grid-robot puzzles, with proofs of optimality.

The front door for scripts, the same four calls for every game:

>>> import gridbot
>>> level = gridbot.load("carrots:2")  # or gridbot.parse("carrots", text), or a file with game=
>>> gridbot.run(level, "LOOP{F F R}").verdict.status
'completed'
>>> result = gridbot.solve(level, time_limit=60)
>>> result.status is gridbot.Status.OPTIMAL, str(result.solution)
(True, 'LOOP{F F R}')

The layers above the rules load when first named (`gridbot.solve`, `gridbot.generate`), so that `import gridbot`
stays cheap: neither numba nor any solver is imported until one is used. For type checkers, `load`, `parse`, `run`
and `solve` say each game's own types (overloads), and `Level`, `Program` and `Run` are the unions of every game's
(built on first use at run time: they import every game's rules).
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Literal, overload

from gridbot import games, levels, result
from gridbot.errors import GridbotError, LevelError, ProgramError
from gridbot.result import Outcome, SolveResult, Status, Verdict

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import TypeAlias, TypedDict, Unpack

    from gridbot.deadline import Progress
    from gridbot.games import bender, carrots, lightbot, pellet, robos_escape, robozzle, torch_cave
    from gridbot.parallel.executors import Executor
    from gridbot.solve import StopEvent

    Level: TypeAlias = (
        carrots.Level | pellet.Level | torch_cave.Level | bender.Level | lightbot.Level | robos_escape.Level
        | robozzle.Level
    )  # fmt: skip
    Program: TypeAlias = (
        carrots.Program | pellet.Moves | torch_cave.Path | bender.Answer | lightbot.Program | robos_escape.Program
        | robozzle.Program
    )  # fmt: skip
    Run: TypeAlias = (
        carrots.Run | pellet.Walk | torch_cave.Run | bender.Run | lightbot.Run | robos_escape.Run | robozzle.Run
    )  # fmt: skip

    class SolveOptions(TypedDict, total=False):
        """A solver's own options (gridbot.solve.SOLVERS says which solver takes which; another raises TypeError)."""

        max_length: int | None
        memory_budget: int | None
        settings: object
        seed: int
        restarts: bool
        construct: bool
        shortcuts: bool
        jit: bool
        beam: bool
        stack_cap: int
        workers: int | None
        executor: Executor | None


# subpackages loaded on first use: `gridbot.solve(level)` (the package is callable as its front, see
# gridbot.solve), `gridbot.generate.random_level(game, width, height, seed)`
_LAZY = ("solve", "generate")
_UNIONS = ("Level", "Program", "Run")  # built from every game's module on first use
_RUN_TYPE = {"pellet": "Walk"}  # a game's run type where it is not `Run`
_PROGRAM_TYPE = {"pellet": "Moves", "torch_cave": "Path", "bender": "Answer"}  # where it is not `Program`

__all__ = [
    "GridbotError",
    "Level",
    "LevelError",
    "Outcome",
    "Program",
    "ProgramError",
    "Run",
    "SolveResult",
    "analyze",
    "Status",
    "Verdict",
    "load",
    "parse",
    "run",
    *_LAZY,
]
__version__ = "0.1.0"

GameName = Literal["carrots", "pellet", "torch_cave", "bender", "lightbot", "robos_escape", "robozzle"]


def _union(kind: str) -> object:
    """The union of every game's `kind` type ("Level", "Program", "Run"), importing every game's rules."""
    table = {"Level": {}, "Program": _PROGRAM_TYPE, "Run": _RUN_TYPE}[kind]
    members = tuple(getattr(games.get(name), table.get(name, kind)) for name in games.GAMES)
    union: object = members[0]
    for member in members[1:]:
        union = union | member  # type: ignore[operator]  # types make a types.UnionType
    return union


def __getattr__(name: str) -> object:
    """The subpackages of _LAZY, imported when first asked for (importing them sets the attribute for good), and the
    unions Level, Program and Run, built when first asked for."""
    if name in _LAZY:
        return importlib.import_module(f"gridbot.{name}")
    if name == "analyze":  # a function of gridbot.solve.analyze, loaded when first named
        globals()[name] = value = importlib.import_module("gridbot.solve.analyze").analyze
        return value
    if name in _UNIONS:
        globals()[name] = value = _union(name)
        return value
    raise AttributeError(f"module 'gridbot' has no attribute {name!r}")


def _svg(level: object, program: object) -> str:
    """The picture of `program` run on `level` (None: the level alone) as SVG text: what a level, a run and a
    result show in Jupyter (gridbot.result.Pictured). gridbot.render is imported on the first picture."""
    from gridbot import render

    return render.svg(level, program)


result.painter[:] = [_svg]  # the rules' layer cannot import the drawings, a layer above it: the front lends them


@overload
def load(spec: str | os.PathLike[str], game: Literal["carrots"]) -> carrots.Level: ...
@overload
def load(spec: str | os.PathLike[str], game: Literal["pellet"]) -> pellet.Level: ...
@overload
def load(spec: str | os.PathLike[str], game: Literal["torch_cave"]) -> torch_cave.Level: ...
@overload
def load(spec: str | os.PathLike[str], game: Literal["bender"]) -> bender.Level: ...
@overload
def load(spec: str | os.PathLike[str], game: Literal["lightbot"]) -> lightbot.Level: ...
@overload
def load(spec: str | os.PathLike[str], game: Literal["robos_escape"]) -> robos_escape.Level: ...
@overload
def load(spec: str | os.PathLike[str], game: Literal["robozzle"]) -> robozzle.Level: ...
@overload
def load(spec: str | os.PathLike[str], game: str | None = None) -> Level: ...
def load(spec: str | os.PathLike[str], game: str | None = None) -> Level:
    """The level `spec` names, as the command line reads LEVEL: a bundled level `GAME:NAME` (`carrots:7`), `-`
    (standard input) or, with `game`, a file path. GridbotError for what cannot be read, LevelError (line and
    column) for text that is not a level.

    >>> load("carrots:1").size
    3
    """
    level: Level = levels.load(spec, game)
    return level


@overload
def parse(game: Literal["carrots"], text: str, name: str = ...) -> carrots.Level: ...
@overload
def parse(game: Literal["pellet"], text: str, name: str = ...) -> pellet.Level: ...
@overload
def parse(game: Literal["torch_cave"], text: str, name: str = ...) -> torch_cave.Level: ...
@overload
def parse(game: Literal["bender"], text: str, name: str = ...) -> bender.Level: ...
@overload
def parse(game: Literal["lightbot"], text: str, name: str = ...) -> lightbot.Level: ...
@overload
def parse(game: Literal["robos_escape"], text: str, name: str = ...) -> robos_escape.Level: ...
@overload
def parse(game: Literal["robozzle"], text: str, name: str = ...) -> robozzle.Level: ...
@overload
def parse(game: str, text: str, name: str = ...) -> Level: ...
def parse(game: str, text: str, name: str = "<level>") -> Level:
    """The level of `game` written in `text` (the format of the game's page), named `name`. GridbotError for an
    unknown game, LevelError (line and column) for text that is not a level.

    >>> parse("carrots", "S##\\n# #").size
    5
    """
    level: Level = games.get(game).Level.parse(text, name=name)
    return level


@overload
def run(level: carrots.Level, program: carrots.Program | str) -> carrots.Run: ...
@overload
def run(level: pellet.Level, program: pellet.Moves | str) -> pellet.Walk: ...
@overload
def run(level: torch_cave.Level, program: torch_cave.Path | str) -> torch_cave.Run: ...
@overload
def run(level: bender.Level, program: bender.Answer | str | Iterable[str] | None = None) -> bender.Run: ...
@overload
def run(level: lightbot.Level, program: lightbot.Program | str) -> lightbot.Run: ...
@overload
def run(level: robos_escape.Level, program: robos_escape.Program | str) -> robos_escape.Run: ...
@overload
def run(level: robozzle.Level, program: robozzle.Program | str) -> robozzle.Run: ...
@overload
def run(level: Level, program: Program | str | None = None) -> Run: ...
def run(level: Level, program: Program | str | Iterable[str] | None = None) -> Run:
    """The run of `program` (its text, or a parsed program) on `level` by the game's simulator, in bounded time for
    every program: `.verdict` says how it ended (gridbot.result.Verdict: `status` an Outcome, `step`, `remaining`).
    Bender alone goes without a program (his own journey). ProgramError (its column) for text that is not a program.

    >>> print(run(load("carrots:2"), "LOOP{F R}").verdict)
    runs forever without completing (3 squares unmarked for good; a repeated state seen at step 8)
    """
    game = games.of(level)
    if program is None and not games.optional(game, "PROGRAM_OPTIONAL"):
        raise TypeError(f"a run of {game.NAME} needs a program")
    done: Run = game.run(level, program)
    return done


if TYPE_CHECKING:  # at run time `solve` is the package gridbot.solve, callable as this front (see its docstring)

    @overload
    def solve(
        level: carrots.Level,
        time_limit: float | None = None,
        all_solutions: bool = False,
        progress: Progress | None = None,
        on_solution: Callable[[carrots.Program], object] | None = None,
        stop: StopEvent | None = None,
        **options: Unpack[SolveOptions],
    ) -> SolveResult[carrots.Program]: ...
    @overload
    def solve(
        level: pellet.Level,
        time_limit: float | None = None,
        all_solutions: bool = False,
        progress: Progress | None = None,
        on_solution: Callable[[pellet.Moves], object] | None = None,
        stop: StopEvent | None = None,
        **options: Unpack[SolveOptions],
    ) -> SolveResult[pellet.Moves]: ...
    @overload
    def solve(
        level: torch_cave.Level,
        time_limit: float | None = None,
        all_solutions: bool = False,
        progress: Progress | None = None,
        on_solution: Callable[[torch_cave.Path], object] | None = None,
        stop: StopEvent | None = None,
        **options: Unpack[SolveOptions],
    ) -> SolveResult[torch_cave.Path]: ...
    @overload
    def solve(
        level: bender.Level,
        time_limit: float | None = None,
        all_solutions: bool = False,
        progress: Progress | None = None,
        on_solution: Callable[[bender.Answer], object] | None = None,
        stop: StopEvent | None = None,
        **options: Unpack[SolveOptions],
    ) -> SolveResult[bender.Answer]: ...
    @overload
    def solve(
        level: lightbot.Level,
        time_limit: float | None = None,
        all_solutions: bool = False,
        progress: Progress | None = None,
        on_solution: Callable[[lightbot.Program], object] | None = None,
        stop: StopEvent | None = None,
        **options: Unpack[SolveOptions],
    ) -> SolveResult[lightbot.Program]: ...
    @overload
    def solve(
        level: robos_escape.Level,
        time_limit: float | None = None,
        all_solutions: bool = False,
        progress: Progress | None = None,
        on_solution: Callable[[robos_escape.Program], object] | None = None,
        stop: StopEvent | None = None,
        **options: Unpack[SolveOptions],
    ) -> SolveResult[robos_escape.Program]: ...
    @overload
    def solve(
        level: robozzle.Level,
        time_limit: float | None = None,
        all_solutions: bool = False,
        progress: Progress | None = None,
        on_solution: Callable[[robozzle.Program], object] | None = None,
        stop: StopEvent | None = None,
        **options: Unpack[SolveOptions],
    ) -> SolveResult[robozzle.Program]: ...
    @overload
    def solve(
        level: Level,
        time_limit: float | None = None,
        all_solutions: bool = False,
        progress: Progress | None = None,
        on_solution: Callable[[Program], object] | None = None,
        stop: StopEvent | None = None,
        **options: Unpack[SolveOptions],
    ) -> SolveResult[Program]: ...
