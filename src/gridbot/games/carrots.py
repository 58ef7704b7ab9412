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

import numpy as np

from gridbot.errors import GridbotError, LevelError, ProgramError
from gridbot.grid import Direction, Positions, grid_rows, grid_text
from gridbot.grid import trace_parts as _trace_parts
from gridbot.result import Outcome, Pictured, PicturedRun, Verdict

NAME = "carrots"
# `gridbot --help`: a solution's syntax in brief: what it must do; what its length counts (one line)
SUMMARY = "F L R LOOP(n){...} LOOP{...}: mark every square; tokens"
VOID, SQUARE, MARKED, START = " ", "#", "O", "S"
MAX_NESTING = 100
MAX_COUNT_DIGITS = 100
# ASCII only: str.upper() can lengthen text ('ﬀ' -> 'FF') and isdigit() accepts '²'
_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_DIGITS = frozenset("0123456789")

State = tuple[int, int]  # (square index, facing)


# ---------------------------------------------------------------- levels


@dataclass(frozen=True, slots=True)
class Level(Pictured):
    """An immutable board. Squares are numbered row by row; bit i of a mark mask is square i.

    `hops[4 * square + facing]` is the square an `F` leads to (the same square
    when ahead is void or off the grid). Two levels are equal when their rows,
    start and name are (the other fields follow from the rows).
    """

    rows: tuple[str, ...]
    squares: Positions = field(repr=False, compare=False)
    start: int
    hops: tuple[int, ...] = field(repr=False, compare=False)
    initial_marks: int = field(repr=False, compare=False)
    name: str = ""

    @classmethod
    def parse(cls, text: str, name: str = "<level>") -> Level:
        """Read a board; raises LevelError naming line and column of the first problem.

        O(rows x columns), the per-square work in whole-board array operations.
        """
        rows = grid_rows(text, VOID, source=name)
        width = len(rows[0])
        starts: list[tuple[int, int]] = []
        for r, row in enumerate(rows):
            if not set(row) <= _LEVEL_CHARS:
                c = next(c for c, ch in enumerate(row) if ch not in _LEVEL_CHARS)
                raise LevelError(f"unknown character {row[c]!r} (expected S, #, O or space)", r + 1, c + 1, name)
            c = row.find(START)
            while c >= 0:
                starts.append((r, c))
                c = row.find(START, c + 1)
        if not starts:
            raise LevelError("no start square S", 1, 1, name)
        if len(starts) > 1:
            r, c = starts[1]
            raise LevelError("a second start square S", r + 1, c + 1, name)
        # numbered row by row; per direction, the square ahead (-1 for void or off the grid, read from a padded
        # index grid) becomes the square itself: F into void stays put. Whole-board array operations, so that a
        # 1000 x 1000 board reads in a fraction of a second.
        is_square = np.frombuffer("".join(rows).encode("ascii"), np.uint8).reshape(len(rows), width) != ord(VOID)
        n = int(np.count_nonzero(is_square))
        index = np.full((len(rows) + 2, width + 2), -1, np.int64)
        index[1:-1, 1:-1][is_square] = np.arange(n)
        ahead = np.empty((n, 4), np.int64)
        for facing, view in enumerate((index[:-2, 1:-1], index[1:-1, 2:], index[2:, 1:-1], index[1:-1, :-2])):
            ahead[:, facing] = view[is_square]
        np.copyto(ahead, np.arange(n)[:, None], where=ahead < 0)
        hops = ahead.ravel().tolist()
        squares = Positions(*np.nonzero(is_square))  # row by row: in the squares' order
        bits = "".join(row.replace(VOID, "") for row in rows).translate(_MARK_BITS)
        marks = int(bits[::-1], 2)
        r, c = starts[0]
        start = int(index[r + 1, c + 1])
        return cls(tuple(rows), squares, start, tuple(hops), marks, name)

    def __str__(self) -> str:
        return grid_text(self.rows)

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
        return self.hops[4 * square + facing]

    def picture(self, marks: int, state: State | None = None) -> str:
        """The board as text: `o` marked, `#` unmarked, the bunny as an arrow. O(rows x columns)."""
        bits = bin(marks)[:1:-1].ljust(len(self.squares), "0").translate(_MARK_CHARS)
        grid = [list(row) for row in self.rows]
        for i, (r, c) in enumerate(self.squares):
            grid[r][c] = bits[i]
        if state is not None:
            r, c = self.squares[state[0]]
            grid[r][c] = Direction(state[1]).arrow
        return "\n".join("".join(row).rstrip() for row in grid)


_LEVEL_CHARS = frozenset((VOID, SQUARE, MARKED, START))
_MARK_BITS = str.maketrans({SQUARE: "0", MARKED: "1", START: "1"})
_MARK_CHARS = str.maketrans({"0": "#", "1": "o"})


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
    # counted once, when made: a long program's length is asked for often (the result, the output, the re-check)
    tokens: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tokens", 1 + sum(s.tokens for s in self.body))

    def __str__(self) -> str:
        head = "LOOP" if self.count is None else f"LOOP({self.count})"
        return head + "{" + " ".join(map(str, self.body)) + "}"

    @property
    def is_noop(self) -> bool:
        """A loop with no F, L or R anywhere in its body does nothing, even unbounded."""
        return all(isinstance(s, Loop) and s.is_noop for s in self.body)


Statement = Move | Loop
MOVES = {op: Move(op) for op in "FLR"}  # values, so one of each serves every program (long ones stay small)


@dataclass(frozen=True, slots=True)
class Program:
    """A whole program; `str(p)` is its canonical text and `Program.parse(str(p)) == p`."""

    body: tuple[Statement, ...]
    tokens: int = field(init=False, repr=False, compare=False)
    """Length as scored: 1 per F, L, R and per loop; counts are free."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "tokens", sum(s.tokens for s in self.body))

    def __str__(self) -> str:
        return " ".join(map(str, self.body))

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
            body.append(MOVES[ch])
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


class _Loop:
    """A loop compiled for `_Machine`: its body, its count (None: unbounded) and the memo of its finished runs."""

    __slots__ = ("body", "count", "memo")

    def __init__(self, body: list[bytes | _Loop], count: int | None) -> None:
        self.body = body
        self.count = count
        self.memo: dict[int, int] = {}  # entry state -> steps x states + end state of a run from it that ended


_OP_CODES = bytes.maketrans(b"FLR", b"\x00\x01\x02")
_FORWARD = [b"\x00"]  # the compiled body of LOOP(n){F}


def _compile(
    body: tuple[Statement, ...], plain: dict[tuple[str, int | None], _Loop] | None = None
) -> list[bytes | _Loop]:
    """Statements as runs of move codes (bytes: 0 F, 1 L, 2 R) and compiled loops; loops that contain no move (they
    do nothing, even unbounded) are left out. Loops of moves alone that read the same are compiled once (`plain`),
    so that they share one memo: a run of the same loop from the same state lands on the same squares, whichever
    copy runs it (a walk of a big board has tens of thousands of `LOOP(n){F}`). O(size of the program)."""
    plain = {} if plain is None else plain
    out: list[bytes | _Loop] = []
    run: list[str] = []
    for stmt in body:
        if type(stmt) is Move:
            run.append(stmt.op)
            continue
        loop: _Loop | None = None
        if all(type(s) is Move for s in stmt.body):
            key = ("".join(s.op for s in stmt.body), stmt.count)  # type: ignore[union-attr]
            if key[0] and key not in plain:
                plain[key] = _Loop([key[0].encode().translate(_OP_CODES)], stmt.count)
            loop = plain.get(key)
        else:
            inner = _compile(stmt.body, plain)
            loop = _Loop(inner, stmt.count) if inner else None
        if loop is not None:
            if run:
                out.append("".join(run).encode().translate(_OP_CODES))
                run = []
            out.append(loop)
    if run:
        out.append("".join(run).encode().translate(_OP_CODES))
    return out


class _Completed(Exception):
    """The board became complete at step `step`: the run stops there."""

    def __init__(self, step: int) -> None:
        super().__init__(step)
        self.step = step


class _Forever(Exception):
    """An unbounded loop came back to an iteration's starting state: it never ends."""


def marked_at_start(level: Level) -> bytearray:
    """One byte per square: 1 where the square is marked before the first step (`O` and `S`), else 0. O(squares)."""
    bits = bin(level.initial_marks | 1 << level.start)[:1:-1].ljust(level.size, "0")[: level.size]
    return bytearray(bits.encode().translate(_BIT_BYTES))


_BIT_BYTES = bytes.maketrans(b"01", b"\x00\x01")


class _Machine:
    """Exact, bounded-time run of a compiled program on one level, in execution order.

    Motion never depends on marks, so a loop run from a state always lands on
    the same squares; once such a run has ended, its squares are marked for
    good, and running the loop from that state again marks nothing new. So the
    memo keeps, per loop and entry state, only the end state and the step
    count (two numbers, not a set of squares), and the marks live once, one
    byte per square. Inside one run of a loop, the iteration states repeat
    within 4 x squares iterations; once a repeat is seen, the remaining full
    cycles add steps but no marks and are skipped arithmetically (an unbounded
    loop that repeats never ends). A count no larger than the number of states
    is simply run (no slower, and no table of iteration states).
    Memory: O(squares + (loops + nesting) x states); time: O(program x
    states x states) in the worst case, whatever the counts.
    """

    def __init__(self, level: Level) -> None:
        self.hops = level.hops
        self.states = 4 * level.size
        self.marked = marked_at_start(level)
        self.left = self.marked.count(0)
        self.steps = 0

    def body(self, items: list[bytes | _Loop], s: int) -> int:
        """Run a compiled body from state s (4 x square + facing); returns the end state."""
        for item in items:
            s = self.moves(item, s) if type(item) is bytes else self.loop(item, s)
        return s

    def moves(self, ops: bytes, s: int) -> int:
        hops, marked = self.hops, self.marked
        for i, op in enumerate(ops, 1):
            if op == 0:
                square = hops[s]
                s = 4 * square + (s & 3)
                if not marked[square]:
                    marked[square] = 1
                    self.left -= 1
                    if not self.left:
                        raise _Completed(self.steps + i)
            elif op == 1:
                s = s - 1 if s & 3 else s + 3
            else:
                s = s - 3 if s & 3 == 3 else s + 1
        self.steps += len(ops)
        return s

    def repeat(self, body: list[bytes | _Loop], count: int, s: int) -> int:
        """Run `body` `count` times from state s, plainly; returns the end state. O(count x body)."""
        if len(body) == 1 and type(body[0]) is bytes:
            moves, ops = self.moves, body[0]
            for _ in range(count):
                s = moves(ops, s)
            return s
        for _ in range(count):
            s = self.body(body, s)
        return s

    def forward(self, count: int, s: int) -> int:
        """`LOOP(count){F}` from state s: hop straight on; once blocked, the remaining F change nothing (the bunny
        stands on a marked square) but count as steps. O(squares hopped)."""
        hops, marked, facing = self.hops, self.marked, s & 3
        for i in range(count):
            square = hops[s]
            if 4 * square + facing == s:
                break
            s = 4 * square + facing
            if not marked[square]:
                marked[square] = 1
                self.left -= 1
                if not self.left:
                    raise _Completed(self.steps + i + 1)
        self.steps += count
        return s

    def loop(self, loop: _Loop, s: int) -> int:
        known = loop.memo.get(s)
        if known is not None:
            steps, end = divmod(known, self.states)
            self.steps += steps
            return end
        before = self.steps
        count = loop.count
        if count is not None and count <= self.states:  # no more iterations than a repeat may take to show
            cur = self.forward(count, s) if loop.body == _FORWARD else self.repeat(loop.body, count, s)
            loop.memo[s] = (self.steps - before) * self.states + cur
            return cur
        seen: dict[int, tuple[int, int]] = {}  # iteration start state -> (iteration, steps then)
        done, cur = 0, s
        while count is None or done < count:
            if cur in seen:
                if count is None:
                    raise _Forever
                first, steps_then = seen[cur]
                period = done - first
                cycles = (count - done) // period
                self.steps += cycles * (self.steps - steps_then)
                done += cycles * period
                seen.clear()  # the leftover (< period) iterations run plainly
                if done >= count:
                    break
            else:
                seen[cur] = (done, self.steps)
            cur = self.body(loop.body, cur)
            done += 1
        loop.memo[s] = (self.steps - before) * self.states + cur
        return cur


@dataclass(frozen=True, slots=True)
class Run(PicturedRun):
    """A program run on a level: the verdict, and the trace on demand."""

    level: Level
    program: Program
    verdict: Verdict

    def trace(self, limit: int = 10_000) -> list[Step]:
        """The first `limit` steps (fewer if the run ends or completes sooner). Each step that marks a new square
        holds a new mark mask (squares / 8 bytes), so for a long trace of a big board prefer streaming `steps`."""
        return list(itertools.islice(steps(self.level, self.program), limit))


def run(level: Level, program: Program | str) -> Run:
    """Run `program` on `level` and say how it ends, exactly and in bounded time for any counts (see `_Machine`)."""
    if isinstance(program, str):
        program = parse_program(program)
    machine = _Machine(level)
    if not machine.left:
        return Run(level, program, Verdict(Outcome.COMPLETED, 0))
    try:
        machine.body(_compile(program.body), 4 * level.start + int(Direction.EAST))
    except _Completed as done:
        return Run(level, program, Verdict(Outcome.COMPLETED, done.step))
    except _Forever:
        return Run(level, program, Verdict(Outcome.FOREVER, machine.steps, machine.left))
    return Run(level, program, Verdict(Outcome.INCOMPLETE, machine.steps, machine.left))


def _noop_loops(program: Program) -> set[int]:
    """The ids of the program's loops that contain no move (they do nothing, even unbounded). O(size)."""
    noop: set[int] = set()
    order: list[Loop] = []
    todo = [s for s in program.body if isinstance(s, Loop)]
    while todo:
        loop = todo.pop()
        order.append(loop)
        todo.extend(s for s in loop.body if isinstance(s, Loop))
    for loop in reversed(order):  # inner loops before the loops around them
        if all(isinstance(s, Loop) and id(s) in noop for s in loop.body):
            noop.add(id(loop))
    return noop


def steps(level: Level, program: Program) -> Iterator[Step]:
    """Every executed command in order, stopping when the board is complete.

    Plain interpretation without skipping: may be endless; take what you need.
    Each step costs O(1), plus O(squares) for a step that marks a new square
    (its `marks` is a new integer); steps that mark nothing share the mask.
    """
    marked = marked_at_start(level)
    left = marked.count(0)
    if not left:
        return
    marks = level.initial_marks | (1 << level.start)
    hops = level.hops
    noop = _noop_loops(program)
    s = 4 * level.start + int(Direction.EAST)
    number = 0
    # explicit stack of (statements, next index, iterations left or None)
    stack: list[list] = [[program.body, 0, 1]]
    while stack:
        frame = stack[-1]
        body, i, iterations = frame
        if i == len(body):
            if iterations is not None:
                iterations -= 1
            if iterations == 0:
                stack.pop()
                continue
            frame[1], frame[2] = 0, iterations
            continue
        frame[1] = i + 1
        stmt = body[i]
        if isinstance(stmt, Loop):
            if id(stmt) not in noop:
                stack.append([stmt.body, 0, stmt.count])
            continue
        square, facing = s >> 2, s & 3
        if stmt.op == "F":
            square = hops[s]
            if not marked[square]:
                marked[square] = 1
                marks |= 1 << square
                left -= 1
        else:
            facing = turn(facing, stmt.op)
        s = 4 * square + facing
        number += 1
        yield Step(number, stmt.op, square, facing, marks)
        if not left:
            return


def states(level: Level, program: Program) -> Iterator[tuple[int, int]]:
    """The states the bunny goes through, one per executed command, as `steps` makes them: (square, facing). The
    marks follow from the squares, so these are the whole run; endless for a program that never completes."""
    for s in steps(level, program):
        yield s.square, s.facing


def marks_in_order(level: Level, program: Program) -> tuple[int, ...]:
    """The order in which a run marks the board: for each step that marks a new square, 4 x square + facing (the
    facing is the direction of the hop onto it), to the end of the run or its completion. Finite for every
    program (each square is marked once), and unchanged by what marks nothing: turns, blocked hops, and loops
    that go round again over squares already marked. O(the run); endless for a program that never ends."""
    out = []
    marks = level.initial_marks | 1 << level.start
    for s in steps(level, program):
        if s.marks != marks:
            marks = s.marks
            out.append(4 * s.square + s.facing)
    return tuple(out)


def trace_parts(level: Level, result: Run, limit: int = 200) -> Iterator[str]:
    """The board after each step, as text, for at most `limit` steps,
    piece by piece as it is made (see gridbot.grid.trace_parts)."""
    start = level.picture(level.initial_marks | (1 << level.start), level.start_state)

    def show(s: Step) -> str:
        return f"step {s.number}: {s.op}\n{level.picture(s.marks, (s.square, s.facing))}"

    verdict = result.verdict
    return _trace_parts(start, steps(level, result.program), limit, show, str(verdict), verdict.repeat_step)


def format_trace(level: Level, result: Run, limit: int = 200) -> str:
    """The whole trace of `trace_parts` as one text."""
    return "\n\n".join(trace_parts(level, result, limit))


__all__ = [
    "GridbotError",
    "Level",
    "Loop",
    "Move",
    "Program",
    "Run",
    "Step",
    "format_trace",
    "marked_at_start",
    "marks_in_order",
    "parse_program",
    "run",
    "states",
    "step",
    "steps",
    "turn",
]
