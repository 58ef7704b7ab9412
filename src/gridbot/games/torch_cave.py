"""Torch cave (CodeQuest 2014 problem 16, as written up by Red Blob Games).

The hero walks from `H` to the treasure `T` with 15 units of light; each step
costs 1 and needs at least 1 left; the first visit to a torch `t` gives 15 more.
Walls are `x`, `|` and `-`; every other character is floor. A solution is a
path over `u d l r` (`u` is up the page).

>>> from gridbot.games import torch_cave
>>> level = torch_cave.Level.parse("H.t\\n..T")
>>> path = torch_cave.parse_program("r r d")
>>> str(path), path.steps
('rrd', 3)
>>> torch_cave.run(level, path).verdict.status
'completed'

The rule that moves the hero lives in `Level.move` and `Level.enter`; the
simulator, the solver and the tests' brute force all go through them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gridbot.grid import GridbotError, LevelError, ProgramError, cells, grid_rows
from gridbot.result import SolveResult, Verdict

NAME = "torch_cave"
LISTS_ALL = False  # one shortest path is returned
START, TREASURE, TORCH = "H", "T", "t"
WALLS = frozenset("x|-")
FLOOR = " "  # ragged rows are padded with floor
START_LIGHT = 15
TORCH_LIGHT = 15
MOVES = "udlr"
_DELTAS = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}
_ARROWS = {"u": "^", "d": "v", "l": "<", "r": ">"}
_MOVE_CHARS = {"u": "u", "d": "d", "l": "l", "r": "r", "U": "u", "D": "d", "L": "l", "R": "r"}


# ---------------------------------------------------------------- levels


@dataclass(frozen=True, slots=True)
class Level:
    """An immutable cave. Cells are numbered row by row: cell = row x width + column.

    `torches` lists the torch cells in reading order; torch number i is bit i of a
    taken-torches mask. `start_light` and `torch_light` are the game's 15 and 15;
    they are fields only so that tests can exercise the light rules on tiny caves.
    """

    rows: tuple[str, ...]
    width: int
    height: int
    start: int
    treasure: int
    torches: tuple[int, ...]
    walls: bytes = field(repr=False)  # walls[cell] == 1 for a wall
    torch_of: dict[int, int] = field(repr=False, compare=False, hash=False)  # cell -> torch number
    name: str = ""
    start_light: int = START_LIGHT
    torch_light: int = TORCH_LIGHT

    @classmethod
    def parse(
        cls, text: str, name: str = "<level>", start_light: int = START_LIGHT, torch_light: int = TORCH_LIGHT
    ) -> Level:
        """Read a cave; raises LevelError naming line and column of the first problem.

        Exactly one `H` and one `T` are required. O(cells).
        """
        rows = grid_rows(text, FLOOR, source=name)
        width, height = len(rows[0]), len(rows)
        starts: list[int] = []
        treasures: list[int] = []
        torches: list[int] = []
        walls = bytearray(width * height)
        for r, c, ch in cells(rows):
            cell = r * width + c
            if ch in WALLS:
                walls[cell] = 1
            elif ch == START:
                if starts:
                    raise LevelError("a second hero start H", r + 1, c + 1, name)
                starts.append(cell)
            elif ch == TREASURE:
                if treasures:
                    raise LevelError("a second treasure T", r + 1, c + 1, name)
                treasures.append(cell)
            elif ch == TORCH:
                torches.append(cell)
        if not starts:
            raise LevelError("no hero start H", 1, 1, name)
        if not treasures:
            raise LevelError("no treasure T", 1, 1, name)
        return cls(
            rows=rows,
            width=width,
            height=height,
            start=starts[0],
            treasure=treasures[0],
            torches=tuple(torches),
            walls=bytes(walls),
            torch_of={cell: i for i, cell in enumerate(torches)},
            name=name,
            start_light=start_light,
            torch_light=torch_light,
        )

    def __str__(self) -> str:
        return "\n".join(row.rstrip() for row in self.rows)

    def position(self, cell: int) -> tuple[int, int]:
        """(line, column) of a cell, both 1-based as in the level text."""
        r, c = divmod(cell, self.width)
        return r + 1, c + 1

    def move(self, cell: int, move: str) -> int:
        """Rule of a step: the cell one step `move` from `cell`, or -1 for a wall or off the map."""
        dr, dc = _DELTAS[move]
        r, c = divmod(cell, self.width)
        r, c = r + dr, c + dc
        if not (0 <= r < self.height and 0 <= c < self.width):
            return -1
        target = r * self.width + c
        return -1 if self.walls[target] else target

    def enter(self, cell: int, light: int, taken: int) -> tuple[int, int]:
        """Rule of arriving on `cell` after paying for the step: (light, taken) afterwards.

        A torch gives `torch_light` the first time only; `taken` is the mask of torches taken.
        """
        torch = self.torch_of.get(cell)
        if torch is not None and not taken >> torch & 1:
            return light + self.torch_light, taken | 1 << torch
        return light, taken

    def picture(self, visits: Sequence[tuple[int, str]] = (), taken: int = 0) -> str:
        """The cave as text with a path drawn: each (cell, move) shows the arrow of the move made from it.

        `H` and `T` stay; torches in `taken` show as `+`. Later visits draw over earlier ones.
        """
        grid = [list(row) for row in self.rows]
        for cell, move in visits:
            r, c = divmod(cell, self.width)
            grid[r][c] = _ARROWS[move]
        for i, cell in enumerate(self.torches):
            r, c = divmod(cell, self.width)
            grid[r][c] = "+" if taken >> i & 1 else TORCH
        for cell, ch in ((self.start, START), (self.treasure, TREASURE)):
            r, c = divmod(cell, self.width)
            grid[r][c] = ch
        return "\n".join("".join(row).rstrip() for row in grid)


# ---------------------------------------------------------------- paths


@dataclass(frozen=True, slots=True)
class Path:
    """A path: a string over `udlr`. `str(p)` is its canonical text and parses back to `p`."""

    moves: str

    def __str__(self) -> str:
        return self.moves

    def __len__(self) -> int:
        return len(self.moves)

    @property
    def steps(self) -> int:
        return len(self.moves)

    @classmethod
    def parse(cls, text: str) -> Path:
        return parse_program(text)


def parse_program(text: str) -> Path:
    """Read a path: letters `u d l r` in any case, whitespace anywhere. O(len(text)).

    Raises ProgramError with the 1-based column of the first other character.
    """
    out = []
    for i, ch in enumerate(text):
        move = _MOVE_CHARS.get(ch)
        if move is not None:
            out.append(move)
        elif not ch.isspace():
            raise ProgramError(f"unexpected {ch!r} (expected u, d, l or r)", i + 1, text)
    return Path("".join(out))


# ---------------------------------------------------------------- simulation


@dataclass(frozen=True, slots=True)
class CaveVerdict(Verdict):
    """How a walk ended. `status` is 'completed' (the treasure was reached at step `step`)
    or 'incomplete' (`step` steps were taken, then `reason`: 'out of light', 'wall' or
    'ended'); `light` is the light left, `blocked` the (line, column) of a wall walked into.
    """

    reason: str = ""
    light: int = 0
    blocked: tuple[int, int] | None = None

    def __str__(self) -> str:
        if self.status == "completed":
            return f"reached the treasure at step {self.step} with {self.light} light left"
        if self.reason == "out of light":
            return f"stopped at step {self.step + 1}: no light left (after {_plural(self.step, 'step')})"
        if self.reason == "wall":
            line, column = self.blocked or (0, 0)
            return f"stopped at step {self.step + 1}: a wall at line {line}, column {column}"
        return f"ended after {_plural(self.step, 'step')} without reaching the treasure ({self.light} light left)"


@dataclass(frozen=True, slots=True)
class Step:
    """One step taken: after it the hero is on `cell` with `light` left; `torch` if it took a torch there."""

    number: int
    move: str
    cell: int
    light: int
    torch: bool


@dataclass(frozen=True, slots=True)
class Run:
    """A path walked in a cave: every step taken and the verdict."""

    level: Level
    path: Path
    steps: tuple[Step, ...]
    verdict: CaveVerdict

    @property
    def taken(self) -> int:
        """Mask of the torches taken."""
        mask = 0
        for s in self.steps:
            if s.torch:
                mask |= 1 << self.level.torch_of[s.cell]
        return mask

    @property
    def lights(self) -> list[int]:
        """Light left after each step."""
        return [s.light for s in self.steps]


def run(level: Level, path: Path | str) -> Run:
    """Walk `path` from `H` and say how it ends; stops on the treasure. O(len(path))."""
    if isinstance(path, str):
        path = parse_program(path)
    light, taken, cell = level.start_light, 0, level.start
    steps: list[Step] = []
    verdict: CaveVerdict | None = None
    for number, move in enumerate(path.moves, 1):
        if light < 1:  # checked first: without light the hero cannot even try a step
            verdict = CaveVerdict("incomplete", number - 1, 1, reason="out of light", light=light)
            break
        target = level.move(cell, move)
        if target < 0:
            dr, dc = _DELTAS[move]
            line, column = level.position(cell)
            verdict = CaveVerdict(
                "incomplete", number - 1, 1, reason="wall", light=light, blocked=(line + dr, column + dc)
            )
            break
        before = taken
        cell = target
        light, taken = level.enter(cell, light - 1, taken)
        steps.append(Step(number, move, cell, light, taken != before))
        if cell == level.treasure:
            verdict = CaveVerdict("completed", number, 0, reason="treasure", light=light)
            break
    if verdict is None:
        verdict = CaveVerdict("incomplete", len(steps), 1, reason="ended", light=light)
    return Run(level, path, tuple(steps), verdict)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def draw(level: Level, walk: Run) -> str:
    """The cave with the walk drawn on it, and a legend line."""
    visits = []
    cell = level.start
    for s in walk.steps:
        visits.append((cell, s.move))
        cell = s.cell
    legend = "(H start, T treasure, t torch, + torch taken, ^ v < > the move made from a cell)"
    return level.picture(visits, walk.taken) + "\n" + legend


def format_trace(level: Level, result: Run, limit: int = 200) -> str:
    """The path drawn on the map, then one line per step (at most `limit`): move, position, light left."""
    lines = [draw(level, result), "", "step  move  line  column  light"]
    line, column = level.position(level.start)
    lines.append(f"{0:>4}  {'-':>4}  {line:>4}  {column:>6}  {level.start_light:>5}  start")
    for s in result.steps[:limit]:
        line, column = level.position(s.cell)
        note = f"  torch +{level.torch_light}" if s.torch else ""
        if s.cell == level.treasure:
            note = "  treasure"
        lines.append(f"{s.number:>4}  {s.move:>4}  {line:>4}  {column:>6}  {s.light:>5}{note}")
    if len(result.steps) > limit:
        lines.append(f"... (trace cut after {_plural(limit, 'step')})")
    lines += ["", str(result.verdict)]
    return "\n".join(lines)


# ---------------------------------------------------------------- solving


def solve(level: Level, time_limit: float | None = None, all_solutions: bool = False, **options: Any) -> SolveResult:
    """The fewest steps from H to T with one such path, or a proof that there is none; see gridbot.solve.torch_cave."""
    from gridbot.solve.torch_cave import solve as _solve

    return _solve(level, time_limit=time_limit, all_solutions=all_solutions, **options)


def describe(level: Level, result: SolveResult) -> str:
    """The CLI's human report of a solve: the verdict, the path, the light after each step and the drawn map."""
    stats = result.stats or {}
    name = result.level
    lines = []
    if result.status == "optimal":
        lines.append(f"{name}: optimal, {_plural(result.length or 0, 'step')} (proven fewest)")
    elif result.status == "unsolvable":
        lines.append(f"{name}: no path (proven)")
    else:
        if result.status == "solved":
            lines.append(f"{name}: solved, {_plural(result.length or 0, 'step')} (not proven fewest)")
        else:
            lines.append(f"{name}: timeout, no path found")
        if result.proven_impossible > 0:
            lines.append(f"  paths of up to {_plural(result.proven_impossible, 'step')} proven impossible")
    if stats.get("reason"):
        lines.append(f"  reason      {stats['reason']}")
    walk = None
    if result.solution is not None:
        walk = run(level, result.solution)
        lines.append(f"  path        {result.solution}")
        lines.append(f"  light       {' '.join(map(str, walk.lights))}  (left after each step)")
    if "labels" in stats:
        lines.append(f"  labels      {int(stats['labels']):,}")
    lines.append(f"  seconds     {result.seconds:.3f}")
    if walk is not None:
        lines += ["", draw(level, walk)]
    return "\n".join(lines)


__all__ = [
    "CaveVerdict",
    "GridbotError",
    "Level",
    "Path",
    "Run",
    "Step",
    "describe",
    "draw",
    "format_trace",
    "parse_program",
    "run",
    "solve",
]
