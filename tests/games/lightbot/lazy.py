"""The first Light-Bot solver (lazy over whole programs, X included), kept as a reference for the tests.

>>> from gridbot.games import lightbot
>>> from tests.games.lightbot.lazy import solve
>>> result = solve(lightbot.Level.parse("000\\n\\n>.*"))
>>> result.status, result.length, str(result.program)
('optimal', 3, 'main: FFX')

The search deepens on the total number of commands L. For each L it runs the
program *while building it* (the technique of the strongest RoboZZle solvers):
a slot of main, f1 or f2 is chosen only when execution reaches it, so programs
that share an execution prefix share its simulation. A length is excluded only
when every branch has failed; the first L that wins is optimal. Cuts, each
safe because it only skips programs that have an equal-or-shorter equivalent
that is still searched, or runs that can never win:

1. *Turns.* In one body, `L R` and `R L` do nothing (drop both: shorter),
   `R R R` is `L` (shorter), and `L L` equals `R R` (same length; only `R R`
   is kept). Turns mark nothing, so every later move and toggle is unchanged.
2. *Main runs once.* A main command that changes nothing (`X` off a light, `F`
   or `J` that cannot move) can be dropped: every later state is the same.
3. *Procedures.* Swapping the names f1 and f2 changes nothing, so f1 is the
   first procedure called. A called procedure has at least 2 commands: calls
   to an empty one can be dropped, and a one-command body can replace each call
   to it (same length in main, so the slot limits still hold).
4. *Endless runs.* A repeated control state (position, facing, lights,
   procedure, pc) at a stack height not below the one it was first seen at,
   with the stack never lower in between, repeats for ever (see
   gridbot.games.lightbot.run); the slots decided in between stay decided, so
   the branch can never win.

Each cut is checked against unpruned enumeration on small random levels in
tests/games/lightbot/test_solver.py. This first version has none of the heavier
leverage (memoised procedure effects, X-free walks, lower bounds): it proves
the small levels and reports, for the others, the lengths it has excluded.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from gridbot.deadline import Clock, Progress, Timeout
from gridbot.games import lightbot
from gridbot.games.lightbot import LIMITS, Level, Program
from gridbot.result import SolveResult

PROCS = ("main", "f1", "f2")
MAX_ALL = 100


class _Found(Exception):
    pass


@dataclass(slots=True)
class _Machine:
    position: tuple[int, int]
    facing: int
    lit: int
    proc: int
    pc: int
    stack: tuple[tuple[int, int], ...]
    steps: int


class _Search:
    """Is there a program of at most L commands? Depth-first over slots as execution reaches them."""

    def __init__(self, level: Level, L: int, clock: Clock, all_solutions: bool) -> None:
        self.level = level
        self.L = L
        self.clock = clock
        self.all = all_solutions
        self.index = {pos: i for i, pos in enumerate(level.lights)}
        self.full = (1 << len(level.lights)) - 1
        self.body = ["", "", ""]
        self.closed = [False, False, False]
        self.seen: dict[tuple, int] = {}
        self.at_height: list[list[tuple]] = [[]]
        self.log: list[tuple] = []
        self.nodes = 0
        self.solutions: list[Program] = []
        self.capped = False

    # -- loop detection with an undo log

    def _visit(self, control: tuple, height: int) -> bool:
        """Record a fetch; True if it proves an endless run (rule 4)."""
        while len(self.at_height) > height + 1:
            dropped = self.at_height.pop()
            removed = [(c, self.seen.pop(c)) for c in dropped if self.seen.get(c) == len(self.at_height)]
            self.log.append(("drop", dropped, removed))
        while len(self.at_height) < height + 1:
            self.at_height.append([])
            self.log.append(("grow",))
        if control in self.seen:
            return True
        self.seen[control] = height
        self.at_height[height].append(control)
        self.log.append(("rec", control, height))
        return False

    def _undo(self, mark: int) -> None:
        while len(self.log) > mark:
            entry = self.log.pop()
            if entry[0] == "rec":
                _, control, height = entry
                self.at_height[height].pop()
                del self.seen[control]
            elif entry[0] == "grow":
                self.at_height.pop()
            else:
                _, dropped, removed = entry
                self.at_height.append(dropped)
                self.seen.update(removed)

    # -- the search

    def run(self) -> list[Program]:
        start = _Machine(self.level.start, int(self.level.facing), 0, 0, 0, (), 0)
        with contextlib.suppress(_Found):
            self._advance(start)
        return self.solutions

    def _committed(self) -> int:
        return sum(map(len, self.body))

    def _advance(self, m: _Machine) -> None:
        """Execute decided commands until a win, a dead end, or an undecided slot (where it branches)."""
        level = self.level
        while True:
            body = self.body[m.proc]
            if m.pc == len(body):
                if self.closed[m.proc]:
                    if not m.stack:
                        return  # main ended without a win
                    (m.proc, m.pc), m.stack = m.stack[-1], m.stack[:-1]
                    continue
                self._branch(m)
                return
            if self._visit((m.position, m.facing, m.lit, m.proc, m.pc), len(m.stack)):
                return
            op = body[m.pc]
            m.pc += 1
            m.steps += 1
            if op in "FJ":
                m.position = level.move(m.position, m.facing, op)
            elif op == "L":
                m.facing = (m.facing - 1) % 4
            elif op == "R":
                m.facing = (m.facing + 1) % 4
            elif op == "X":
                light = self.index.get(m.position)
                if light is not None:
                    m.lit ^= 1 << light
                    if m.lit == self.full:
                        self._win()
                        return
            else:
                m.stack = (*m.stack, (m.proc, m.pc))
                m.proc, m.pc = int(op), 0

    def _win(self) -> None:
        program = Program(*self.body)
        if program not in self.solutions:
            self.solutions.append(program)
        if not self.all:
            raise _Found
        if len(self.solutions) >= MAX_ALL:
            self.capped = True
            raise _Found

    def _branch(self, m: _Machine) -> None:
        """Choose the slot at (m.proc, m.pc): close the procedure here, or put a command in it."""
        self.nodes += 1
        if self.nodes % 4096 == 0:
            self.clock.check(length=self.L, candidates=self.nodes)
        proc, body = m.proc, self.body[m.proc]
        if proc and len(body) >= 2:  # rule 3: a procedure has at least 2 commands
            self.closed[proc] = True
            self._try(m, None)
            self.closed[proc] = False
        if self._committed() >= self.L or len(body) >= LIMITS[PROCS[proc]]:
            return
        for op in self._options(m):
            self.body[proc] = body + op
            self._try(m, op)
            self.body[proc] = body

    def _options(self, m: _Machine) -> list[str]:
        body = self.body[m.proc]
        last = body[-1:]
        options = []
        for op in "FJLRX12":
            if op in "LR":  # rule 1
                if last and last in "LR" and (op != last or op == "L"):
                    continue
                if op == "R" and body[-2:] == "RR":
                    continue
            if m.proc == 0:  # rule 2: main runs once
                if op == "X" and m.position not in self.index:
                    continue
                if op in "FJ" and self.level.move(m.position, m.facing, op) == m.position:
                    continue
            if op == "2" and not self._ever_called(1):  # rule 3: f1 is called first
                continue
            options.append(op)
        return options

    def _ever_called(self, proc: int) -> bool:
        return any(str(proc) in b for b in self.body)

    def _try(self, m: _Machine, op: str | None) -> None:
        mark = len(self.log)
        self._advance(_Machine(m.position, m.facing, m.lit, m.proc, m.pc, m.stack, m.steps))
        self._undo(mark)


def solve(
    level: Level,
    time_limit: float | None = None,
    all_solutions: bool = False,
    progress: Progress | None = None,
    max_length: int | None = None,
) -> SolveResult:
    """The fewest commands of a winning program, proven; see the module docstring.

    Returns status 'optimal' (with the programs when `all_solutions`), or, when
    the time limit or `max_length` ends the search first, 'timeout' with
    `lower_bound` the first length not excluded. Exponential in the length.
    """
    clock = Clock(time_limit, progress)
    limit = sum(LIMITS.values()) if max_length is None else min(max_length, sum(LIMITS.values()))
    nodes = 0
    L = 0 if not level.lights else 1
    try:
        while limit >= L:
            search = _Search(level, L, clock, all_solutions)
            found = search.run()
            nodes += search.nodes
            found = [p for p in found if lightbot.run(level, p).verdict.won]
            if found or L == 0:
                best = found[0] if found else Program("")
                stats: dict[str, Any] = {"candidates": nodes}
                listed = tuple(found) if all_solutions else ()
                return SolveResult(
                    "lightbot", level.name, "optimal", best, best.tokens, clock.seconds, L, stats, listed, search.capped
                )
            L += 1
    except Timeout:
        pass
    status = "unsolvable" if sum(LIMITS.values()) < L else "timeout"
    return SolveResult("lightbot", level.name, status, None, None, clock.seconds, L, {"candidates": nodes})
