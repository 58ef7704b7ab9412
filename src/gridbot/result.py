"""Values every game's simulator and solver return, shared so the faces (CLI, web, API) stay generic.

Statuses are string-valued enums: they compare equal to their text and print as it, so the JSON output and
code that compares with plain strings see exactly the words of the documented format.

>>> Status.OPTIMAL == "optimal", f"{Status.TIMEOUT}", Status("solved").proven
(True, 'timeout', False)
>>> str(Verdict(Outcome.INCOMPLETE, 3, 1))
'ended after 3 steps with 1 square unmarked'

Levels, runs and results draw themselves in a notebook (`_repr_svg_`, see `Pictured`): the drawing is
gridbot.render's, a layer above this one, so it is reached through `painter`, which the API's front
(`gridbot/__init__.py`, loaded before any module of the package) fills with a function that imports
gridbot.render when a first picture is asked for.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from gridbot.grid import plural


class _Word(enum.StrEnum):
    """A status that is its word: it prints, compares and shows (repr) as the plain string."""

    def __repr__(self) -> str:
        return repr(self.value)


class Status(_Word):
    """How a solve ended: 'optimal' (a solution proven best), 'solved' (a solution, not proven best),
    'unsolvable' (proven: no solution at all) or 'timeout' (no solution found in time)."""

    OPTIMAL = "optimal"
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    TIMEOUT = "timeout"

    @property
    def proven(self) -> bool:
        """Is the answer a proof (best solution, or none exists)?"""
        return self in (Status.OPTIMAL, Status.UNSOLVABLE)

    @property
    def has_solution(self) -> bool:
        return self in (Status.OPTIMAL, Status.SOLVED)


class Outcome(_Word):
    """How a run of a solution ended: 'completed' (the goal reached), 'incomplete' (the solution ended, or the
    robot was stopped, short of it) or 'forever' (a repeated state proves the goal is never reached)."""

    COMPLETED = "completed"
    INCOMPLETE = "incomplete"
    FOREVER = "forever"


@dataclass(frozen=True, slots=True)
class Verdict:
    """How a run ended.

    `status` is 'completed' (the goal was reached at step `step`), 'incomplete'
    (the program ended after `step` steps with `remaining` goals left) or
    'forever' (a repeated state proves the goal is never reached; `step` is where
    the repetition was seen).
    """

    status: Outcome
    step: int
    remaining: int = 0
    noun: str = "square"  # what `remaining` counts, and what state they are left in
    left: str = "unmarked"

    def __str__(self) -> str:
        if self.status == Outcome.COMPLETED:
            return f"completed at step {self.step}"
        if self.status == Outcome.INCOMPLETE:
            return f"ended after {plural(self.step, 'step')} with {plural(self.remaining, self.noun)} {self.left}"
        return (
            f"runs forever without completing ({plural(self.remaining, self.noun)} {self.left} for good;"
            f" a repeated state seen at step {self.step})"
        )

    @property
    def won(self) -> bool:
        return self.status == Outcome.COMPLETED

    @property
    def repeat_step(self) -> int | None:
        """The step at which a repeated state proved the run endless ('forever'), else None: a trace ends there."""
        return self.step if self.status == Outcome.FOREVER else None


# (level, program or None) -> SVG text; filled by the API's front (one entry), empty only in a process that imports
# a module of the package without its front (none does: Python imports a package before its modules)
painter: list[Callable[[object, object], str]] = []


class Pictured:
    """A value that draws itself in Jupyter (IPython calls `_repr_svg_`): a level alone, a run, a result's solution
    on its level. Subclasses say what to draw in `_picture`; slot-free, so frozen slotted dataclasses keep their
    slots."""

    __slots__ = ()

    def _picture(self) -> tuple[object, object] | None:
        """(level, program or None) to draw, or None when there is nothing to draw."""
        return self, None

    def _repr_svg_(self) -> str | None:
        """The picture as SVG text (gridbot.render.svg), or None (IPython then shows the text repr)."""
        picture = self._picture()
        if picture is None or not painter:
            return None
        return painter[0](*picture)


class PicturedRun(Pictured):
    """A run draws its level with the path and the final state of its program: the run's first two fields."""

    __slots__ = ()

    def _picture(self) -> tuple[object, object] | None:
        names = self.__dataclass_fields__  # type: ignore[attr-defined]  # every run is a dataclass
        level, program = (getattr(self, name) for name in list(names)[:2])
        return level, program


P = TypeVar("P")  # a game's program type (carrots.Program, pellet.Moves, ...)


@dataclass(frozen=True, slots=True)
class SolveResult(Pictured, Generic[P]):
    """The answer of a solver for one level.

    status: 'optimal' (solution proven shortest), 'solved' (a solution, not proven
    shortest, e.g. under a time limit), 'unsolvable' (proven: no solution at all)
    or 'timeout' (no solution found in time). `lower_bound` is the smallest length
    not yet excluded: every length below it is proven impossible.
    """

    game: str
    level: str
    status: Status
    solution: P | None
    length: int | None
    seconds: float
    lower_bound: int
    stats: dict[str, Any] = field(default_factory=dict)
    solutions: tuple[P, ...] = ()
    solutions_capped: bool = False
    # the level solved, kept by gridbot.solve for the picture of the result (None when built elsewhere, e.g. read
    # back from a checkpoint); neither compared nor shown
    board: object = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.status, Status):  # e.g. read back from a checkpoint's JSON
            object.__setattr__(self, "status", Status(self.status))

    @property
    def program(self) -> P | None:
        return self.solution

    def _picture(self) -> tuple[object, object] | None:
        return None if self.board is None else (self.board, self.solution)

    @property
    def proven_impossible(self) -> int:
        """The largest length proven impossible (0 when nothing is excluded)."""
        return max(0, self.lower_bound - 1)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "level": self.level,
            "status": self.status,
            "solution": None if self.solution is None else str(self.solution),
            "length": self.length,
            "seconds": round(self.seconds, 6),
            "proven_impossible": self.proven_impossible,
            "stats": self.stats,
        }
        if self.solutions:
            data["solutions"] = [str(s) for s in self.solutions]
            data["solutions_capped"] = self.solutions_capped
        return data
