"""Values every game's simulator and solver return, shared so the CLI stays generic."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

STATUSES = ("optimal", "solved", "unsolvable", "timeout")


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@dataclass(frozen=True, slots=True)
class Verdict:
    """How a run ended.

    `status` is 'completed' (the goal was reached at step `step`), 'incomplete'
    (the program ended after `step` steps with `remaining` goals left) or
    'forever' (a repeated state proves the goal is never reached; `step` is where
    the repetition was seen).
    """

    status: str
    step: int
    remaining: int = 0
    noun: str = "square"  # what `remaining` counts, and what state they are left in
    left: str = "unmarked"

    def __str__(self) -> str:
        if self.status == "completed":
            return f"completed at step {self.step}"
        if self.status == "incomplete":
            return f"ended after {_count(self.step, 'step')} with {_count(self.remaining, self.noun)} {self.left}"
        return (
            f"runs forever without completing ({_count(self.remaining, self.noun)} {self.left} for good;"
            f" a repeated state seen at step {self.step})"
        )

    @property
    def won(self) -> bool:
        return self.status == "completed"


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The answer of a solver for one level.

    status: 'optimal' (solution proven shortest), 'solved' (a solution, not proven
    shortest, e.g. under a time limit), 'unsolvable' (proven: no solution at all)
    or 'timeout' (no solution found in time). `lower_bound` is the smallest length
    not yet excluded: every length below it is proven impossible.
    """

    game: str
    level: str
    status: str
    solution: Any | None
    length: int | None
    seconds: float
    lower_bound: int
    stats: dict[str, Any] = field(default_factory=dict)
    solutions: tuple[Any, ...] = ()
    solutions_capped: bool = False

    @property
    def program(self) -> Any | None:
        return self.solution

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
