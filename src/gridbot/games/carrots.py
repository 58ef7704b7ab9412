"""Coding for Carrots: a bunny hops over squares and must mark them all.

Levels use `S` (start, marked), `#` (unmarked square), `O` (marked square) and
space (void). Programs use `F`, `L`, `R`, `LOOP(n){...}` and `LOOP{...}`.

>>> from gridbot.games import carrots
>>> level = carrots.Level.parse("S##\\n  #\\n  #")
>>> program = carrots.Program.parse("loop{ f f r }")
>>> str(program), program.tokens
('LOOP{F F R}', 4)
>>> carrots.run(level, program).verdict.status
'completed'

The rules that move the bunny live in `Level.hop` and `turn`; the simulator and
the solver both go through them.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field

from gridbot.grid import Direction, GridbotError, LevelError, ProgramError, cells, grid_rows
from gridbot.grid import trace_parts as _trace_parts
from gridbot.result import SolveResult, Verdict

NAME = "carrots"
VOID, SQUARE, MARKED, START = " ", "#", "O", "S"
MAX_NESTING = 100
MAX_COUNT_DIGITS = 100
# ASCII only: str.upper() can lengthen text ('ﬀ' -> 'FF') and isdigit() accepts '²'
_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_DIGITS = frozenset("0123456789")

State = tuple[int, int]  # (square index, facing)


# ---------------------------------------------------------------- levels


@dataclass(frozen=True, slots=True)
class Level:
    """An immutable board. Squares are numbered row by row; bit i of a mark mask is square i."""

    rows: tuple[str, ...]
    squares: tuple[tuple[int, int], ...]
    start: int
    hops: tuple[tuple[int, int, int, int], ...] = field(repr=False)
    initial_marks: int = field(repr=False)
    name: str = ""

    @classmethod
    def parse(cls, text: str, name: str = "<level>") -> Level:
        """Read a board; raises LevelError naming line and column of the first problem."""
        rows = grid_rows(text, VOID, source=name)
        squares: list[tuple[int, int]] = []
        starts: list[tuple[int, int]] = []
        for r, c, ch in cells(rows):
            if ch not in (VOID, SQUARE, MARKED, START):
                raise LevelError(f"unknown character {ch!r} (expected S, #, O or space)", r + 1, c + 1, name)
            if ch == START:
                starts.append((r, c))
            if ch != VOID:
                squares.append((r, c))
        if not starts:
            raise LevelError("no start square S", 1, 1, name)
        if len(starts) > 1:
            r, c = starts[1]
            raise LevelError("a second start square S", r + 1, c + 1, name)
        index = {sq: i for i, sq in enumerate(squares)}
        hops = []
        for r, c in squares:
            targets = []
            for d in Direction:
                dr, dc = d.delta
                targets.append(index.get((r + dr, c + dc), index[(r, c)]))
            hops.append(tuple(targets))
        marks = 0
        for i, (r, c) in enumerate(squares):
            if rows[r][c] in (MARKED, START):
                marks |= 1 << i
        return cls(tuple(rows), tuple(squares), index[starts[0]], tuple(hops), marks, name)

    def __str__(self) -> str:
        return "\n".join(row.rstrip() for row in self.rows)

    @property
    def size(self) -> int:
        """Number of squares."""
        return len(self.squares)

    @property
    def goal(self) -> int:
        """The mark mask of a completed board."""
        return (1 << len(self.squares)) - 1

    @property
    def start_state(self) -> State:
        return (self.start, int(Direction.EAST))

    def hop(self, square: int, facing: int) -> int:
        """Rule of F: the square ahead, or the same square when ahead is void or off the grid."""
        return self.hops[square][facing]

    def picture(self, marks: int, state: State | None = None) -> str:
        """The board as text: `o` marked, `#` unmarked, the bunny as an arrow."""
        grid = [list(row) for row in self.rows]
        for i, (r, c) in enumerate(self.squares):
            grid[r][c] = "o" if marks >> i & 1 else "#"
        if state is not None:
            r, c = self.squares[state[0]]
            grid[r][c] = Direction(state[1]).arrow
        return "\n".join("".join(row).rstrip() for row in grid)


def turn(facing: int, op: str) -> int:
    """Rule of L and R: a quarter turn counter-clockwise or clockwise."""
    return (facing + (1 if op == "R" else -1)) % 4


def step(level: Level, state: State, op: str) -> State:
    """One primitive command F, L or R applied to (square, facing)."""
    square, facing = state
    if op == "F":
        return (level.hop(square, facing), facing)
    return (square, turn(facing, op))


# ---------------------------------------------------------------- programs


@dataclass(frozen=True, slots=True)
class Move:
    """A primitive command: 'F', 'L' or 'R'."""

    op: str

    def __str__(self) -> str:
        return self.op

    @property
    def tokens(self) -> int:
        return 1


@dataclass(frozen=True, slots=True)
class Loop:
    """`LOOP(count){body}`; count None is the unbounded `LOOP{body}`."""

    body: tuple[Statement, ...]
    count: int | None = None

    def __str__(self) -> str:
        head = "LOOP" if self.count is None else f"LOOP({self.count})"
        return head + "{" + " ".join(map(str, self.body)) + "}"

    @property
    def tokens(self) -> int:
        return 1 + sum(s.tokens for s in self.body)

    @property
    def is_noop(self) -> bool:
        """A loop with no F, L or R anywhere in its body does nothing, even unbounded."""
        return all(isinstance(s, Loop) and s.is_noop for s in self.body)


Statement = Move | Loop


@dataclass(frozen=True, slots=True)
class Program:
    """A whole program; `str(p)` is its canonical text and `Program.parse(str(p)) == p`."""

    body: tuple[Statement, ...]

    def __str__(self) -> str:
        return " ".join(map(str, self.body))

    @property
    def tokens(self) -> int:
        """Length as scored: 1 per F, L, R and per loop; counts are free."""
        return sum(s.tokens for s in self.body)

    @classmethod
    def parse(cls, text: str) -> Program:
        return parse_program(text)


def parse_program(text: str) -> Program:
    """Read a program (any case, whitespace between tokens optional).

    Raises ProgramError with the 1-based column of the problem. Runs in O(len(text)).
    """
    stack: list[tuple[list[Statement], int | None, int]] = []  # (outer body, count, column of LOOP)
    body: list[Statement] = []
    upper = text.translate(_UPPER)
    i, n = 0, len(text)

    def skip_space(j: int) -> int:
        while j < n and upper[j].isspace():
            j += 1
        return j

    while True:
        i = skip_space(i)
        if i >= n:
            break
        ch = upper[i]
        if ch in "FLR" and not upper.startswith("LOOP", i):
            body.append(Move(ch))
            i += 1
        elif upper.startswith("LOOP", i):
            col = i + 1
            i = skip_space(i + 4)
            count: int | None = None
            if i < n and upper[i] == "(":
                i = skip_space(i + 1)
                j = i
                while j < n and upper[j] in _DIGITS:
                    j += 1
                if j == i:
                    raise ProgramError("expected a loop count after '('", i + 1, text)
                if j - i > MAX_COUNT_DIGITS:
                    raise ProgramError(f"loop count longer than {MAX_COUNT_DIGITS} digits", i + 1, text)
                count = int(text[i:j])
                if count < 1:
                    raise ProgramError("loop count must be at least 1", i + 1, text)
                i = skip_space(j)
                if i >= n or upper[i] != ")":
                    raise ProgramError("expected ')' after the loop count", i + 1, text)
                i = skip_space(i + 1)
            if i >= n or upper[i] != "{":
                raise ProgramError("expected '{' after LOOP", i + 1, text)
            if len(stack) >= MAX_NESTING:
                raise ProgramError(f"loops nested deeper than {MAX_NESTING}", col, text)
            stack.append((body, count, col))
            body = []
            i += 1
        elif ch == "}":
            if not stack:
                raise ProgramError("'}' without an open LOOP", i + 1, text)
            outer, count, _ = stack.pop()
            outer.append(Loop(tuple(body), count))
            body = outer
            i += 1
        else:
            raise ProgramError(f"unexpected {text[i]!r} (expected F, L, R, LOOP or '}}')", i + 1, text)
    if stack:
        raise ProgramError("LOOP not closed with '}'", stack[-1][2], text)
    return Program(tuple(body))


# ---------------------------------------------------------------- simulation


@dataclass(frozen=True, slots=True)
class Step:
    """One executed command: after it, the bunny is at `square` facing `facing` with `marks`."""

    number: int
    op: str
    square: int
    facing: int
    marks: int


@dataclass(frozen=True, slots=True)
class _Effect:
    """What a fragment does from one state: end state (None: never ends), new marks, steps."""

    end: State | None
    visited: int
    steps: int


class _Evaluator:
    """Exact, bounded-time evaluation of a program on one level.

    Motion never depends on marks, so a fragment's effect from a state is fixed;
    effects are memoised per (fragment, state). A loop's iteration states repeat
    within 4 x squares iterations; once a repeat is seen, the remaining full
    cycles add steps but no marks and are skipped arithmetically. Time is
    O(size of program x 4 x squares) whatever the counts.
    """

    def __init__(self, level: Level) -> None:
        self.level = level
        self.memo: dict[tuple[int, State], _Effect] = {}
        self.keep: list[object] = []

    def effect(self, node: Statement | tuple[Statement, ...], state: State) -> _Effect:
        key = (id(node), state)
        found = self.memo.get(key)
        if found is None:
            self.keep.append(node)
            found = self._compute(node, state)
            self.memo[key] = found
        return found

    def _compute(self, node: Statement | tuple[Statement, ...], state: State) -> _Effect:
        if isinstance(node, Move):
            new = step(self.level, state, node.op)
            return _Effect(new, 1 << new[0], 1)
        if isinstance(node, tuple):
            visited, steps, cur = 0, 0, state
            for stmt in node:
                eff = self.effect(stmt, cur)
                visited |= eff.visited
                steps += eff.steps
                if eff.end is None:
                    return _Effect(None, visited, steps)
                cur = eff.end
            return _Effect(cur, visited, steps)
        return self._loop(node, state)

    def _loop(self, loop: Loop, state: State) -> _Effect:
        if loop.is_noop:
            return _Effect(state, 0, 0)
        seen: dict[State, tuple[int, int]] = {}
        visited, steps, cur, done = 0, 0, state, 0
        while loop.count is None or done < loop.count:
            if cur in seen:
                first, steps_then = seen[cur]
                if loop.count is None:
                    return _Effect(None, visited, steps)
                period = done - first
                cycles = (loop.count - done) // period
                steps += cycles * (steps - steps_then)
                done += cycles * period
                seen.clear()  # the leftover (< period) iterations run plainly
                if done >= loop.count:
                    break
            else:
                seen[cur] = (done, steps)
            eff = self.effect(loop.body, cur)
            visited |= eff.visited
            steps += eff.steps
            done += 1
            if eff.end is None:
                return _Effect(None, visited, steps)
            cur = eff.end
        return _Effect(cur, visited, steps)

    def completion_step(self, node: Statement | tuple[Statement, ...], state: State, marks: int, before: int) -> int:
        """The step at which marks first reach the goal inside `node`; the caller knows they do."""
        goal = self.level.goal
        if isinstance(node, Move):
            return before + 1
        if isinstance(node, tuple):
            cur = state
            for stmt in node:
                eff = self.effect(stmt, cur)
                if marks | eff.visited == goal:
                    return self.completion_step(stmt, cur, marks, before)
                marks |= eff.visited
                before += eff.steps
                assert eff.end is not None
                cur = eff.end
            raise AssertionError("fragment does not complete")
        cur = state
        while True:  # a completing loop completes within 4 x squares iterations
            eff = self.effect(node.body, cur)
            if marks | eff.visited == goal:
                return self.completion_step(node.body, cur, marks, before)
            marks |= eff.visited
            before += eff.steps
            assert eff.end is not None
            cur = eff.end


@dataclass(frozen=True, slots=True)
class Run:
    """A program run on a level: the verdict, and the trace on demand."""

    level: Level
    program: Program
    verdict: Verdict

    def trace(self, limit: int = 10_000) -> list[Step]:
        """The first `limit` steps (fewer if the run ends or completes sooner)."""
        return list(itertools.islice(steps(self.level, self.program), limit))


def run(level: Level, program: Program | str) -> Run:
    """Run `program` on `level` and say how it ends, in bounded time for any counts."""
    if isinstance(program, str):
        program = parse_program(program)
    ev = _Evaluator(level)
    marks = level.initial_marks | (1 << level.start)
    goal = level.goal
    if marks == goal:
        return Run(level, program, Verdict("completed", 0))
    eff = ev.effect(program.body, level.start_state)
    if marks | eff.visited == goal:
        k = ev.completion_step(program.body, level.start_state, marks, 0)
        return Run(level, program, Verdict("completed", k))
    left = bin(goal & ~(marks | eff.visited)).count("1")
    return Run(level, program, Verdict("forever" if eff.end is None else "incomplete", eff.steps, left))


def steps(level: Level, program: Program) -> Iterator[Step]:
    """Every executed command in order, stopping when the board is complete.

    Plain interpretation without skipping: may be endless; take what you need.
    """
    marks = level.initial_marks | (1 << level.start)
    if marks == level.goal:
        return
    state = level.start_state
    number = 0
    # explicit stack of (statements, next index, iterations left or None)
    stack: list[list] = [[program.body, 0, 1]]
    while stack:
        frame = stack[-1]
        body, i, left = frame
        if i == len(body):
            if left is not None:
                left -= 1
            if left == 0:
                stack.pop()
                continue
            frame[1], frame[2] = 0, left
            continue
        frame[1] = i + 1
        stmt = body[i]
        if isinstance(stmt, Loop):
            if not stmt.is_noop:
                stack.append([stmt.body, 0, stmt.count])
            continue
        state = step(level, state, stmt.op)
        marks |= 1 << state[0]
        number += 1
        yield Step(number, stmt.op, state[0], state[1], marks)
        if marks == level.goal:
            return


def trace_parts(level: Level, result: Run, limit: int = 200) -> Iterator[str]:
    """The board after each step, as text, for at most `limit` steps,
    piece by piece as it is made (see gridbot.grid.trace_parts)."""
    start = level.picture(level.initial_marks | (1 << level.start), level.start_state)

    def show(s: Step) -> str:
        return f"step {s.number}: {s.op}\n{level.picture(s.marks, (s.square, s.facing))}"

    return _trace_parts(start, steps(level, result.program), limit, show, str(result.verdict))


def format_trace(level: Level, result: Run, limit: int = 200) -> str:
    """The whole trace of `trace_parts` as one text."""
    return "\n\n".join(trace_parts(level, result, limit))


def solve(level: Level, time_limit: float | None = None, all_solutions: bool = False, **options) -> SolveResult:
    """A shortest program for `level`, proven shortest; see gridbot.solve.carrots."""
    from gridbot.solve.carrots import solve as _solve

    return _solve(level, time_limit=time_limit, all_solutions=all_solutions, **options)


__all__ = [
    "GridbotError",
    "Level",
    "Loop",
    "Move",
    "Program",
    "Run",
    "Step",
    "format_trace",
    "parse_program",
    "run",
    "solve",
    "step",
    "steps",
    "turn",
]
