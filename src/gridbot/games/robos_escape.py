"""Robo's Escape (2008): one program string with functions, lasers and coins.

A level is a grid (at most 10x10; outside is wall): `X` wall, space floor, `C`
a coin on floor, `O` a block, `E` the exit, `S` the start (floor), and `-`,
`.`, `x` cells the robot cannot enter but a laser crosses. The robot starts on
`S` facing south. A program is one string over `F L R G X 1 2 3 4 5 . '`:

- `F` moves forward onto floor or a coin; moving into `E` escapes.
- `L`, `R` turn; `G` picks up the coin here; `X` fires a laser forward, which
  crosses every cell up to the first `X`, `O` or `C` and destroys an `O` or `C`.
- `1`..`5` push the return position and continue after the first `'n` in the
  string (no `'n`: the call only pushes); `'` is skipped with the character after
  it; `.` returns to the last pushed position, or restarts at the start.
- Running off the end, or more than 10,000 executed commands, fails.

Score of an escape: 40 - (length without `'`) + 10 x coins picked up.

>>> from gridbot.games import robos_escape
>>> level = robos_escape.Level.parse("XXXX\\nXSCX\\nX EX\\nXXXX")
>>> result = robos_escape.run(level, "LFGRF")
>>> result.verdict.status, result.coins, result.score
('completed', 1, 45)

Choices where the rules are silent: a call jumps to the first `'n` of the
string; every executed character counts as a command (`'n` markers are
skipped, not executed); a laser leaving the grid stops there.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from gridbot.errors import LevelError, ProgramError
from gridbot.grid import Direction, cells, grid_rows, grid_text
from gridbot.grid import trace_parts as _trace_parts
from gridbot.result import Outcome, Pictured, PicturedRun, SolveResult, Status, Verdict

NAME = "robos_escape"
# `gridbot --help`: a solution's syntax in brief: what it must do; what its length counts (one line)
SUMMARY = "string of F L R G X 1-5 . ': escape, score 40-tokens+10/coin"
SIDE = 10
MAX_SIDE = SIDE  # the largest board side the format takes
MAX_COMMANDS = 10_000
ALPHABET = "FLRGX12345.'"
WALKABLE = " CSE"
STOPS_LASER = "XOC"
CELLS = "X COESC-.x"

Position = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Level(Pictured):
    """An immutable level; `rows` padded with floor to a rectangle of at most 10x10."""

    rows: tuple[str, ...]
    start: Position
    name: str = ""

    @classmethod
    def parse(cls, text: str, name: str = "<level>") -> Level:
        """Read a level; raises LevelError naming line and column of the first problem. O(cells)."""
        rows = grid_rows(text, " ", source=name, max_side=SIDE)
        starts = []
        for r, c, ch in cells(rows):
            if ch not in CELLS:
                raise LevelError(
                    f"unknown character {ch!r} (expected one of X C O E S - . x or space)", r + 1, c + 1, name
                )
            if ch == "S":
                starts.append((r, c))
        if not starts:
            raise LevelError("no start S", 1, 1, name)
        if len(starts) > 1:
            raise LevelError("a second start S", starts[1][0] + 1, starts[1][1] + 1, name)
        return cls(rows, starts[0], name)

    def __str__(self) -> str:
        return grid_text(self.rows)

    @property
    def size(self) -> int:
        """Number of coins."""
        return sum(row.count("C") for row in self.rows)


@dataclass(frozen=True, slots=True)
class Program:
    """The program string; `str(p)` is its canonical text (upper case), `tokens` its length without `'`."""

    text: str

    def __str__(self) -> str:
        return self.text

    @property
    def tokens(self) -> int:
        return len(self.text) - self.text.count("'")

    @classmethod
    def parse(cls, text: str) -> Program:
        return parse_program(text)


def parse_program(text: str) -> Program:
    """Read a program (letters in any case, spaces ignored); ProgramError names the column. O(len(text))."""
    out = []
    for i, ch in enumerate(text):
        if ch.isspace():
            continue
        op = ch.upper() if ch in "flrgx" else ch
        if op not in ALPHABET:
            raise ProgramError(f"unexpected {ch!r} (expected one of {' '.join(ALPHABET)})", i + 1, text)
        out.append(op)
    program = "".join(out)
    if program.endswith("'"):
        raise ProgramError("a ' must be followed by a character", len(text), text)
    return Program(program)


@dataclass(frozen=True, slots=True)
class Step:
    """One executed command; afterwards the robot is at `position` facing `facing`."""

    number: int
    op: str
    position: Position
    facing: int
    coins: int
    grid: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Run(PicturedRun):
    """How a run ended: the verdict, coins picked up, the score of an escape, and why a run failed."""

    level: Level
    program: Program
    verdict: Verdict
    coins: int
    reason: str

    @property
    def score(self) -> int | None:
        """40 - length + 10 x coins for an escape, None otherwise."""
        if self.verdict.status != Outcome.COMPLETED:
            return None
        return 40 - self.program.tokens + 10 * self.coins

    def trace(self, limit: int = 10_000) -> list[Step]:
        return list(itertools.islice(steps(self.level, self.program), limit))


def laser_end(grid: Sequence[Sequence[str]], position: Position, facing: int) -> Position:
    """Where a laser fired from `position` facing `facing` stops: the first cell of STOPS_LASER ahead, or the
    first position off the grid. O(side)."""
    dr, dc = Direction(facing).delta
    height, width = len(grid), len(grid[0])
    r, c = position[0] + dr, position[1] + dc
    while 0 <= r < height and 0 <= c < width and grid[r][c] not in STOPS_LASER:
        r, c = r + dr, c + dc
    return (r, c)


def _machine(level: Level, program: Program) -> Iterator[tuple[Step, str]]:
    """Yields (step, outcome) per executed command; outcome '' while running, else why it stopped."""
    text = program.text
    grid = [list(row) for row in level.rows]
    height, width = len(grid), len(grid[0])
    position, facing, coins = level.start, int(Direction.SOUTH), 0
    stack: list[int] = []
    pc, number = 0, 0

    def cell(r: int, c: int) -> str:
        return grid[r][c] if 0 <= r < height and 0 <= c < width else "X"

    while True:
        while pc < len(text) and text[pc] == "'":
            pc += 2  # a definition marker and its name are skipped
        if pc >= len(text):
            return
        if number == MAX_COMMANDS:
            yield Step(number, "", position, facing, coins, tuple(map("".join, grid))), "limit"
            return
        op = text[pc]
        pc += 1
        outcome = ""
        dr, dc = Direction(facing).delta
        if op == "F":
            r, c = position[0] + dr, position[1] + dc
            if cell(r, c) == "E":
                position, outcome = (r, c), "escaped"
            elif cell(r, c) in WALKABLE:
                position = (r, c)
        elif op == "L":
            facing = (facing - 1) % 4
        elif op == "R":
            facing = (facing + 1) % 4
        elif op == "G":
            if grid[position[0]][position[1]] == "C":
                grid[position[0]][position[1]] = " "
                coins += 1
        elif op == "X":
            r, c = laser_end(grid, position, facing)
            if 0 <= r < height and 0 <= c < width and grid[r][c] in "OC":
                grid[r][c] = " "
        elif op == ".":
            pc = stack.pop() if stack else 0
        else:  # a call
            stack.append(pc)
            found = text.find("'" + op)
            if found >= 0:
                pc = found + 2
        number += 1
        yield Step(number, op, position, facing, coins, tuple(map("".join, grid))), outcome
        if outcome:
            return


def steps(level: Level, program: Program) -> Iterator[Step]:
    """Every executed command, in order (at most 10,000)."""
    for step, outcome in _machine(level, program):
        if outcome != "limit":
            yield step


def run(level: Level, program: Program | str) -> Run:
    """Run a program: escaped at step k (with score), or failed, and why. At most 10,000 commands."""
    if isinstance(program, str):
        program = parse_program(program)
    number, coins = 0, 0
    for step, outcome in _machine(level, program):
        number, coins = step.number, step.coins
        if outcome == "escaped":
            return Run(level, program, Verdict(Outcome.COMPLETED, number), coins, "escaped")
        if outcome == "limit":
            reason = f"more than {MAX_COMMANDS} commands"
            return Run(
                level, program, Verdict(Outcome.INCOMPLETE, number, 1, noun="exit", left="not reached"), coins, reason
            )
    verdict = Verdict(Outcome.INCOMPLETE, number, 1, noun="exit", left="not reached")
    return Run(level, program, verdict, coins, "ran off the end of the program")


def states(level: Level, program: Program) -> Iterator[tuple[Position, int, int, tuple[str, ...]]]:
    """The states the robot goes through, one per command that acts (calls, returns and definitions only move
    control), as `steps` makes them: (position, facing, coins, the grid). At most MAX_COMMANDS."""
    for s in steps(level, program):
        if s.op in "FLRGX":
            yield s.position, s.facing, s.coins, s.grid


def picture(grid: tuple[str, ...], position: Position, facing: int) -> str:
    rows = [list(row) for row in grid]
    rows[position[0]][position[1]] = Direction(facing).arrow
    return "\n".join("".join(row).rstrip() for row in rows)


def trace_parts(level: Level, result: Run, limit: int = 200) -> Iterator[str]:
    """The grid after each step, as text, for at most `limit` steps,
    piece by piece as it is made (see gridbot.grid.trace_parts)."""

    def show(s: Step) -> str:
        return f"step {s.number}: {s.op} (coins {s.coins})\n{picture(s.grid, s.position, s.facing)}"

    ending = f"escaped at step {result.verdict.step}" if result.verdict.won else f"failed: {result.reason}"
    score = f", score {result.score}" if result.score is not None else ""
    start = picture(level.rows, level.start, int(Direction.SOUTH))
    return _trace_parts(start, steps(level, result.program), limit, show, f"{ending}; coins {result.coins}{score}")


def format_trace(level: Level, result: Run, limit: int = 200) -> str:
    """The whole trace of `trace_parts` as one text."""
    return "\n\n".join(trace_parts(level, result, limit))


def run_fields(result: Run) -> dict[str, int | str | None]:
    """What `gridbot run` shows beside the verdict: the score (None unless escaped), coins, and why it ended."""
    return {"score": result.score, "coins": result.coins, "reason": result.reason}


# ---------------------------------------------------------------- the report of a solve


def describe(level: Level, result: SolveResult) -> str:
    """The report of a solve in the game's own terms (gridbot.solve.report): the score, the program, and what the
    search has excluded. O(1)."""
    stats = result.stats or {}
    name = result.level or level.name
    searched = stats.get("searched_up_to", 0)
    lines = []
    if result.status == Status.UNSOLVABLE:
        lines.append(f"{name}: unsolvable ({stats.get('reason', 'proven: no program escapes')})")
    elif result.status == Status.TIMEOUT:
        lines.append(f"{name}: timeout, no escape found")
    else:
        kind = "proven best" if result.status == Status.OPTIMAL else "not proven best"
        lines.append(f"{name}: {result.status}, score {stats['score']} ({kind})")
        lines.append(f"  program     {result.solution}")
        lines.append(f"  tokens      {result.length}, coins {stats['coins']}")
    if result.status == Status.OPTIMAL:
        lines.append(
            f"  proof       no program of up to {searched} tokens scores more; a longer one scores at most"
            f" {stats['bound']}"
        )
    elif result.status == Status.SOLVED:
        done = f"no program of up to {searched} tokens scores more" if searched else "nothing yet"
        lines.append(f"  excluded    {done}")
    elif result.status == Status.TIMEOUT:
        lines.append(f"  excluded    no program of up to {searched} tokens escapes")
    if "candidates" in stats:
        lines.append(f"  candidates  {int(stats['candidates']):,}")
    lines.append(f"  seconds     {result.seconds:.3f}")
    if result.solutions:
        more = " (capped: there are more)" if result.solutions_capped else ""
        lines.append(f"  {len(result.solutions)} best programs{more}:")
        lines.extend(f"    {s}" for s in result.solutions)
    return "\n".join(lines)
