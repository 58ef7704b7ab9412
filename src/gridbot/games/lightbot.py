"""Light-Bot (2008): a robot on tiles of different heights must light every light tile.

A level is a block of digit rows (tile heights), a blank line, then a block of
the same shape with `*` (light), one of `^ > v <` (the robot and its facing)
and `.`; lines starting with `;` are comments. A program has three parts:
`main` (at most 12 commands), `f1` and `f2` (at most 8 each), over `F` (walk
onto a tile of the same height), `J` (jump onto a tile one higher or any amount
lower), `L`, `R`, `X` (toggle the light here) and `1`, `2` (call a procedure).

>>> from gridbot.games import lightbot
>>> level = lightbot.Level.parse("000\\n\\n>.*")
>>> program = lightbot.Program.parse("main: 1 f1: FFX")
>>> str(program), program.tokens
('main: 1 f1: FFX', 4)
>>> lightbot.run(level, program).verdict.status
'completed'

Steps count every executed command, calls included; returning from a
procedure is not a step. A run that can never win is recognised in bounded
time: see `run`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from gridbot.errors import LevelError, ProgramError
from gridbot.games.entries import Entries
from gridbot.grid import Direction, grid_rows
from gridbot.grid import trace_parts as _trace_parts
from gridbot.result import Outcome, Pictured, PicturedRun, Verdict

NAME = "lightbot"
# `gridbot --help`: a solution's syntax in brief: what it must do; what its length counts (one line)
SUMMARY = "main, f1, f2 over F J L R X 1 2: light every light; tokens"
LIMITS = {"main": 12, "f1": 8, "f2": 8}
# The original game's boards are at most 8 x 8; 100 x 100 leaves room for designers while keeping every
# table of the solver (sized by the board, see gridbot.solve.lightbot) small enough for the memory budget.
MAX_SIDE = 100
# Two grids of MAX_SIDE rows (with CR LF line ends) and room for comments: what `gridbot.levels` reads at most.
MAX_LEVEL_BYTES = 2 * MAX_SIDE * (MAX_SIDE + 2) + 2**16
TICK_STEPS = 4096  # run() calls its tick this often (in steps)
COMMANDS = "FJLRX12"
FACINGS = {"^": Direction.NORTH, ">": Direction.EAST, "v": Direction.SOUTH, "<": Direction.WEST}

Position = tuple[int, int]


# ---------------------------------------------------------------- levels


def _block_rows(block: list[tuple[int, str]], width: int, fill: str, name: str) -> tuple[str, ...]:
    """The rows of a block of (line number, line), padded with `fill`; a LevelError names the line of the text."""
    try:
        return grid_rows("\n".join(line.ljust(width, fill) for _, line in block), fill, source=name)
    except LevelError as exc:
        raise LevelError(exc.message, block[exc.line - 1][0], exc.column, name) from None


@dataclass(frozen=True, slots=True)
class Level(Pictured):
    """An immutable level: heights per cell, the light tiles (in reading order), the robot's start."""

    heights: tuple[tuple[int, ...], ...]
    lights: tuple[Position, ...]
    start: Position
    facing: Direction
    name: str = ""

    @classmethod
    def parse(cls, text: str, name: str = "<level>") -> Level:
        """Read a level; raises LevelError naming the line and column of the first problem. O(cells)."""
        lines = text.split("\n")
        numbered = [(i + 1, line.rstrip("\r")) for i, line in enumerate(lines)]
        numbered = [(n, line) for n, line in numbered if not line.lstrip().startswith(";")]
        while numbered and not numbered[0][1].strip():
            numbered.pop(0)
        while numbered and not numbered[-1][1].strip():
            numbered.pop()
        if not numbered:
            raise LevelError("empty level", 1, 1, name)
        blank = next((k for k, (_, line) in enumerate(numbered) if not line.strip()), None)
        if blank is None:
            raise LevelError("expected a blank line between the heights and the markers", numbered[-1][0] + 1, 1, name)
        top, bottom = numbered[:blank], numbered[blank + 1 :]
        while bottom and not bottom[0][1].strip():
            bottom.pop(0)
        if not bottom:
            raise LevelError("no marker block after the heights", numbered[blank][0] + 1, 1, name)
        if len(top) != len(bottom):
            raise LevelError(f"the marker block has {len(bottom)} rows, the heights {len(top)}", bottom[0][0], 1, name)
        too_big = f"Light-Bot boards are at most {MAX_SIDE} x {MAX_SIDE}"
        for block in (top, bottom):
            if len(block) > MAX_SIDE:
                raise LevelError(f"more than {MAX_SIDE} rows ({too_big})", block[MAX_SIDE][0], 1, name)
            for n, line in block:
                if len(line) > MAX_SIDE:
                    raise LevelError(f"a row longer than {MAX_SIDE} ({too_big})", n, MAX_SIDE + 1, name)
        width = max(len(line) for _, line in top + bottom)
        height_rows = _block_rows(top, width, "0", name)
        marker_rows = _block_rows(bottom, width, ".", name)
        heights = []
        for (n, _), row in zip(top, height_rows, strict=True):
            for c, ch in enumerate(row):
                if ch not in "0123456789":
                    raise LevelError(f"unexpected {ch!r} in the heights (expected a digit)", n, c + 1, name)
            heights.append(tuple(int(ch) for ch in row))
        lights: list[Position] = []
        starts: list[tuple[Position, Direction, int, int]] = []
        for r, ((n, _), row) in enumerate(zip(bottom, marker_rows, strict=True)):
            for c, ch in enumerate(row):
                if ch == "*":
                    lights.append((r, c))
                elif ch in FACINGS:
                    starts.append(((r, c), FACINGS[ch], n, c + 1))
                elif ch != ".":
                    raise LevelError(f"unexpected {ch!r} in the markers (expected *, ., ^, >, v or <)", n, c + 1, name)
        if not starts:
            raise LevelError("no robot (one of ^ > v <) in the markers", bottom[0][0], 1, name)
        if len(starts) > 1:
            raise LevelError("a second robot", starts[1][2], starts[1][3], name)
        return cls(tuple(heights), tuple(lights), starts[0][0], starts[0][1], name)

    def __str__(self) -> str:
        arrows = {d: a for a, d in FACINGS.items()}
        top = ["".join(str(h) for h in row) for row in self.heights]
        marks = [["."] * len(row) for row in self.heights]
        for r, c in self.lights:
            marks[r][c] = "*"
        marks[self.start[0]][self.start[1]] = arrows[self.facing]
        return "\n".join(top) + "\n\n" + "\n".join("".join(row) for row in marks)

    @property
    def rows(self) -> tuple[str, ...]:
        return tuple("".join(str(h) for h in row) for row in self.heights)

    @property
    def size(self) -> int:
        """Number of light tiles."""
        return len(self.lights)

    def ahead(self, position: Position, facing: int) -> Position | None:
        dr, dc = Direction(facing).delta
        r, c = position[0] + dr, position[1] + dc
        if 0 <= r < len(self.heights) and 0 <= c < len(self.heights[0]):
            return (r, c)
        return None

    def move(self, position: Position, facing: int, op: str) -> Position:
        """Rule of F and J: where the robot stands afterwards (the same tile when the move is not allowed)."""
        target = self.ahead(position, facing)
        if target is None:
            return position
        here = self.heights[position[0]][position[1]]
        there = self.heights[target[0]][target[1]]
        if op == "F" and there == here:
            return target
        if op == "J" and (there == here + 1 or there < here):
            return target
        return position


def reachable(level: Level) -> list[Position]:
    """The tiles the robot can stand on by F and J moves and turns from its start, in reading order.

    Turns are free, so this is a search over tiles with the four moves each way. O(cells).
    """
    seen = {level.start}
    todo = [level.start]
    while todo:
        here = todo.pop()
        for facing in range(4):
            for op in "FJ":
                there = level.move(here, facing, op)
                if there not in seen:
                    seen.add(there)
                    todo.append(there)
    return sorted(seen)


# ---------------------------------------------------------------- programs


@dataclass(frozen=True, slots=True)
class Program:
    """`main`, `f1`, `f2` as command strings; `str(p)` is the canonical text, `Program.parse(str(p)) == p`."""

    main: str
    f1: str = ""
    f2: str = ""

    def __str__(self) -> str:
        parts = [f"main: {self.main}"]
        parts += [f"{name}: {body}" for name, body in (("f1", self.f1), ("f2", self.f2)) if body]
        return " ".join(parts)

    @property
    def tokens(self) -> int:
        """The score: commands in all three parts."""
        return len(self.main) + len(self.f1) + len(self.f2)

    def body(self, proc: int) -> str:
        return (self.main, self.f1, self.f2)[proc]

    @classmethod
    def parse(cls, text: str) -> Program:
        return parse_program(text)


_LABEL = re.compile(r"(main)\s*:?|f([12])\s*:", re.IGNORECASE | re.ASCII)


def parse_program(text: str, limits: dict[str, int] | None = None) -> Program:
    """Read `main: ... f1: ... f2: ...` (any case, spaces anywhere, parts in any order, f1/f2 optional).

    Commands before any part name belong to `main`. `f1`/`f2` need their colon
    (`F1` alone is "forward, call 1"). Raises ProgramError with the column of the
    problem, also when a part exceeds its slot limit. O(len(text)).
    """
    limits = LIMITS if limits is None else limits
    parts: dict[str, list[str]] = {}
    current = "main"
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        label = _LABEL.match(text, i)
        if label is not None:
            name = "main" if label.group(1) else "f" + label.group(2)
            if name in parts:
                raise ProgramError(f"{name} given twice", i + 1, text)
            current = name
            parts[name] = []
            i = label.end()
            continue
        op = ch.upper() if ch in "fjlrx" else ch
        if op not in COMMANDS:
            raise ProgramError(
                f"unexpected {ch!r} (expected one of {' '.join(COMMANDS)} or main:, f1:, f2:)", i + 1, text
            )
        body = parts.setdefault(current, [])
        body.append(op)
        if len(body) > limits[current]:
            raise ProgramError(f"{current} has more than {limits[current]} commands", i + 1, text)
        i += 1
    return Program(*("".join(parts.get(p, [])) for p in ("main", "f1", "f2")))


# ---------------------------------------------------------------- simulation


@dataclass(frozen=True, slots=True)
class Step:
    """One executed command; afterwards the robot is at `position` facing `facing` with `lit` lights on."""

    number: int
    op: str
    position: Position
    facing: int
    lit: int  # bit i: light i is on
    depth: int  # calls under way


@dataclass(frozen=True, slots=True)
class Run(PicturedRun):
    level: Level
    program: Program
    verdict: Verdict

    def trace(self, limit: int = 10_000) -> list[Step]:
        """The first `limit` steps (fewer if the run ends sooner)."""
        return list(itertools.islice(steps(self.level, self.program), limit))


CALLS = "12"  # the commands that call a procedure; the others act on the robot (`act`)


def act(level: Level, index: dict[Position, int], position: Position, facing: int, lit: int, op: str
        ) -> tuple[Position, int, int]:  # fmt: skip
    """The robot after one command that is not a call: (position, facing, lights lit as bits in the order of
    `index`, each light's position to its bit). The one place the rules of F, J, L, R and X are written: the
    simulator and the search for several levels at once (gridbot.solve.together) both step through it."""
    if op in "FJ":
        return level.move(position, facing, op), facing, lit
    if op == "L":
        return position, (facing - 1) % 4, lit
    if op == "R":
        return position, (facing + 1) % 4, lit
    if position in index:  # X on a light toggles it; on a plain tile it does nothing
        return position, facing, lit ^ 1 << index[position]
    return position, facing, lit


def _execute(level: Level, program: Program) -> Iterator[tuple[Step | None, tuple, int]]:
    """The machine: yields (step or None at a fetch, control state, stack height) until main ends.

    The control state is (position, facing, lights, procedure, pc): everything
    but the return stack.
    """
    index = {pos: i for i, pos in enumerate(level.lights)}
    position, facing, lit = level.start, int(level.facing), 0
    proc, pc = 0, 0
    stack: list[tuple[int, int]] = []
    number = 0
    while True:
        body = program.body(proc)
        if pc == len(body):
            if not stack:
                return
            proc, pc = stack.pop()
            continue
        yield None, (position, facing, lit, proc, pc), len(stack)
        op = body[pc]
        pc += 1
        if op in CALLS:
            stack.append((proc, pc))
            proc, pc = int(op), 0
        else:
            position, facing, lit = act(level, index, position, facing, lit, op)
        number += 1
        yield Step(number, op, position, facing, lit, len(stack)), (position, facing, lit, proc, pc), len(stack)


def fetches(level: Level, program: Program) -> Iterator[tuple[Position, int, int, int, int]]:
    """Every command fetched, in order, until main ends, wins ignored (endless for a program whose control never
    ends): (position, facing, procedure, pc, calls under way) before it runs. Control never depends on the
    lights, so this is the flow of every program that differs from `program` only in its X commands' effects;
    gridbot.solve.behaviours reads the gaps of a walk from it."""
    for step, control, height in _execute(level, program):
        if step is None:
            position, facing, _, proc, pc = control
            yield position, facing, proc, pc, height


def steps(level: Level, program: Program) -> Iterator[Step]:
    """Every executed command in order, stopping at the win or when main ends (may be endless)."""
    full = (1 << len(level.lights)) - 1
    if not level.lights:
        return
    for step, _, _ in _execute(level, program):
        if step is not None:
            yield step
            if step.lit == full:
                return


def run(level: Level, program: Program | str, tick: Callable[[], None] | None = None) -> Run:
    """Run a program and say how it ends: a win at step k, the end of main, or never winning.

    `tick()`, when given, is called every TICK_STEPS steps (a solver's clock:
    it may raise to stop a long run).

    Never winning is proven by a repeated control state (position, facing,
    lights, procedure, pc) at stack height h >= g, where g is the height it was
    first seen at and the stack has not gone below g since: everything between
    the two moments then repeats for ever, one level deeper each time, without
    a win and without main ending. The states compared are those at the entry
    of a procedure (pc 0), and every endless run shows such a repeat: with no
    conditions, a procedure entered again before it returns never returns, so
    an endless run enters procedures for ever on a stack that never comes back
    down, and those entries take finitely many states. Only the entries of the
    calls under way are kept (one per stack level), and the stack is at most
    about 16 x cells high before the repeat (the position, facing and procedure
    at the entries repeat within 8 x cells of them, the lights two periods
    later): memory O(cells), time O(cells x program length), whatever the
    program.
    """
    if isinstance(program, str):
        program = parse_program(program)
    full = (1 << len(level.lights)) - 1
    if not level.lights:
        return Run(level, program, _verdict(Outcome.COMPLETED, 0))
    width = len(level.heights[0])
    shift = len(level.lights)
    entries = Entries()
    number, lit = 0, 0
    for step, control, height in _execute(level, program):
        entries.at(height)
        if step is not None:
            number, lit = step.number, step.lit
            if lit == full:
                return Run(level, program, _verdict(Outcome.COMPLETED, number))
            if tick is not None and number % TICK_STEPS == 0:
                tick()
            continue
        (r, c), facing, lit, proc, pc = control
        if pc != 0 or proc == 0:
            continue
        key = ((((r * width + c) * 4 + facing) * 3 + proc) << shift) | lit
        if key in entries:
            return Run(level, program, _verdict(Outcome.FOREVER, number, _off(lit, full)))
        entries.record(key, height)
    return Run(level, program, _verdict(Outcome.INCOMPLETE, number, _off(lit, full)))


def _verdict(status: str, step: int, remaining: int = 0) -> Verdict:
    return Verdict(status, step, remaining, noun="light", left="off")


def _off(lit: int, full: int) -> int:
    return bin(full & ~lit).count("1")


def picture(level: Level, position: Position, facing: int, lit: int) -> str:
    """The level as text: heights as digits, `*` an unlit light, `+` a lit one, the robot as an arrow."""
    grid = [[str(h) for h in row] for row in level.heights]
    for i, (r, c) in enumerate(level.lights):
        grid[r][c] = "+" if lit >> i & 1 else "*"
    grid[position[0]][position[1]] = Direction(facing).arrow
    return "\n".join("".join(row) for row in grid)


def states(level: Level, program: Program) -> Iterator[tuple[Position, int, int]]:
    """The states the robot goes through, one per command that acts (a call only passes control, so it has
    none), as `steps` makes them: (position, facing, lights on). Endless for a program that never ends."""
    for s in steps(level, program):
        if s.op not in "12":
            yield s.position, s.facing, s.lit


def trace_parts(level: Level, result: Run, limit: int = 200) -> Iterator[str]:
    """The level after each step, as text, for at most `limit` steps,
    piece by piece as it is made (see gridbot.grid.trace_parts)."""

    def show(s: Step) -> str:
        return f"step {s.number}: {s.op} (calls under way: {s.depth})\n{picture(level, s.position, s.facing, s.lit)}"

    start = picture(level, level.start, level.facing, 0)
    verdict = result.verdict
    return _trace_parts(start, steps(level, result.program), limit, show, str(verdict), verdict.repeat_step)


def format_trace(level: Level, result: Run, limit: int = 200) -> str:
    """The whole trace of `trace_parts` as one text."""
    return "\n\n".join(trace_parts(level, result, limit))
