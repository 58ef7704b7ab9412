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

from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field

from gridbot.errors import GridbotError, LevelError, ProgramError
from gridbot.grid import grid_rows, grid_text, plural
from gridbot.result import Outcome, Pictured, PicturedRun, SolveResult, Status, Verdict

NAME = "torch_cave"
# `gridbot --help`: a solution's syntax in brief: what it must do; what its length counts (one line)
SUMMARY = "moves u d l r: reach the treasure before the light ends; steps"
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
_WALL_TABLE = bytes(1 if chr(b) in WALLS else 0 for b in range(256))  # ASCII row -> wall flags
LONG_WALK = 20_000  # moves from which `run` walks by array operations
LIGHTS_SHOWN = 1000  # steps whose light `describe` lists


# ---------------------------------------------------------------- levels


@dataclass(frozen=True, slots=True)
class Level(Pictured):
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
    torch_of: array = field(repr=False, compare=False, hash=False)  # torch_of[cell]: its torch number, or -1
    name: str = ""
    start_light: int = START_LIGHT
    torch_light: int = TORCH_LIGHT

    @classmethod
    def parse(
        cls, text: str, name: str = "<level>", start_light: int = START_LIGHT, torch_light: int = TORCH_LIGHT
    ) -> Level:
        """Read a cave; raises LevelError naming line and column of the first problem.

        Exactly one `H` and one `T` are required. O(cells), in string methods
        (about 0.05 s for a million cells).
        """
        rows = grid_rows(text, FLOOR, source=name)
        width, height = len(rows[0]), len(rows)
        walls = bytearray(width * height)
        found: dict[str, list[int]] = {START: [], TREASURE: [], TORCH: []}
        for r, row in enumerate(rows):
            base = r * width
            # C-speed string methods, not a loop over every cell: a cave may have a million cells
            if row.isascii():
                walls[base : base + width] = row.encode("ascii").translate(_WALL_TABLE)
            else:
                walls[base : base + width] = bytes(ch in WALLS for ch in row)
            for ch, cells_of in found.items():
                c = row.find(ch)
                while c >= 0:
                    cells_of.append(base + c)
                    c = row.find(ch, c + 1)
        starts, treasures, torches = found[START], found[TREASURE], found[TORCH]
        second = sorted(
            (cells_of[1], message)
            for cells_of, message in ((starts, "a second hero start H"), (treasures, "a second treasure T"))
            if len(cells_of) > 1
        )
        if second:
            cell, message = second[0]
            raise LevelError(message, cell // width + 1, cell % width + 1, name)
        if not starts:
            raise LevelError("no hero start H", 1, 1, name)
        if not treasures:
            raise LevelError("no treasure T", 1, 1, name)
        torch_of = array("l", [-1]) * (width * height)
        for i, cell in enumerate(torches):
            torch_of[cell] = i
        return cls(
            rows=rows,
            width=width,
            height=height,
            start=starts[0],
            treasure=treasures[0],
            torches=tuple(torches),
            walls=bytes(walls),
            torch_of=torch_of,
            name=name,
            start_light=start_light,
            torch_light=torch_light,
        )

    def __str__(self) -> str:
        return grid_text(self.rows)

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
        torch = self.torch_of[cell]
        if torch >= 0 and not taken >> torch & 1:
            return light + self.torch_light, taken | 1 << torch
        return light, taken

    def picture(self, visits: Sequence[tuple[int, str]] = (), taken: int = 0) -> str:
        """The cave as text with a path drawn: each (cell, move) shows the arrow of the move made from it.

        `H` and `T` stay; torches in `taken` show as `+`. Later visits draw over earlier ones.
        """
        grid = list("".join(self.rows))  # flat, cell by cell: O(cells + visits) for a million of each
        for cell, move in visits:
            grid[cell] = _ARROWS[move]
        marks = bin(taken)[:1:-1]  # marks[i] == "1": torch i taken; O(torches), not a shift per torch
        for i, cell in enumerate(self.torches):
            grid[cell] = "+" if marks[i : i + 1] == "1" else TORCH
        grid[self.start], grid[self.treasure] = START, TREASURE
        width = self.width
        return "\n".join("".join(grid[r * width : (r + 1) * width]).rstrip() for r in range(self.height))


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
        if self.status == Outcome.COMPLETED:
            return f"reached the treasure at step {self.step} with {self.light} light left"
        if self.reason == "out of light":
            return f"stopped at step {self.step + 1}: no light left (after {plural(self.step, 'step')})"
        if self.reason == "wall":
            line, column = self.blocked or (0, 0)
            return f"stopped at step {self.step + 1}: a wall at line {line}, column {column}"
        return f"ended after {plural(self.step, 'step')} without reaching the treasure ({self.light} light left)"


@dataclass(frozen=True, slots=True)
class Step:
    """One step taken: after it the hero is on `cell` with `light` left; `torch` if it took a torch there."""

    number: int
    move: str
    cell: int
    light: int
    torch: bool


@dataclass(frozen=True, slots=True)
class Run(PicturedRun):
    """A path walked in a cave: every step taken and the verdict.

    The steps are kept compactly (`cells`, `light_left`, `fresh`: the cell,
    the light and whether a torch was taken after each step, about 13 bytes a
    step); `steps` makes Step values of them.
    """

    level: Level
    path: Path
    cells: array = field(repr=False)
    light_left: array = field(repr=False)
    fresh: bytearray = field(repr=False)
    verdict: CaveVerdict

    @property
    def steps(self) -> tuple[Step, ...]:
        """Every step taken, as Step values. O(steps)."""
        return self.first_steps(len(self.cells))

    def first_steps(self, limit: int) -> tuple[Step, ...]:
        """The first `limit` steps taken, as Step values. O(limit)."""
        moves, cells, lights, fresh = self.path.moves, self.cells, self.light_left, self.fresh
        count = min(limit, len(cells))
        return tuple(Step(i + 1, moves[i], cells[i], lights[i], bool(fresh[i])) for i in range(count))

    @property
    def taken(self) -> int:
        """Mask of the torches taken. O(steps + torches)."""
        bits = bytearray((len(self.level.torches) + 7) // 8)
        torch_of = self.level.torch_of
        for cell, fresh in zip(self.cells, self.fresh, strict=True):
            if fresh:
                torch = torch_of[cell]
                bits[torch >> 3] |= 1 << (torch & 7)
        return int.from_bytes(bits, "little")

    @property
    def lights(self) -> list[int]:
        """Light left after each step."""
        return self.light_left.tolist()


def run(level: Level, path: Path | str) -> Run:
    """Walk `path` from `H` and say how it ends; stops on the treasure. O(len(path)), about 17 bytes a step.

    A walk of LONG_WALK moves or more is walked by array operations (`_run_long`, the same rules, which the
    tests compare with this loop): a solver's answer may be half a million steps.
    """
    if isinstance(path, str):
        path = parse_program(path)
    if len(path.moves) >= LONG_WALK:
        return _run_long(level, path)
    light, cell = level.start_light, level.start
    # Level.enter's rule, with the torches taken as flags rather than a mask, so that a walk over many
    # torches stays linear in its length
    taken = bytearray(len(level.torches))
    torch_of, torch_light, treasure, walls = level.torch_of, level.torch_light, level.treasure, level.walls
    width, size = level.width, level.width * level.height
    cells, lights, fresh = array("q"), array("q"), bytearray()
    verdict: CaveVerdict | None = None
    for number, move in enumerate(path.moves, 1):
        if light < 1:  # checked first: without light the hero cannot even try a step
            verdict = CaveVerdict(Outcome.INCOMPLETE, number - 1, 1, reason="out of light", light=light)
            break
        # Level.move inlined (a long walk is a million steps; the tests compare the two)
        if move == "u":
            target = cell - width
        elif move == "d":
            target = cell + width
        elif move == "l":
            target = cell - 1 if cell % width else -1
        else:
            target = cell + 1 if (cell + 1) % width else -1
        if not 0 <= target < size or walls[target]:
            dr, dc = _DELTAS[move]
            line, column = level.position(cell)
            verdict = CaveVerdict(
                Outcome.INCOMPLETE, number - 1, 1, reason="wall", light=light, blocked=(line + dr, column + dc)
            )
            break
        cell = target
        light -= 1
        torch = torch_of[cell]
        if torch >= 0 and not taken[torch]:  # a torch gives its light the first time only
            taken[torch] = 1
            light += torch_light
            fresh.append(1)
        else:
            fresh.append(0)
        cells.append(cell)
        lights.append(light)
        if cell == treasure:
            verdict = CaveVerdict(Outcome.COMPLETED, number, 0, reason="treasure", light=light)
            break
    if verdict is None:
        verdict = CaveVerdict(Outcome.INCOMPLETE, len(cells), 1, reason="ended", light=light)
    return Run(level, path, cells, lights, fresh, verdict)


def _run_long(level: Level, path: Path) -> Run:
    """`run` by array operations: every position of the walk as if nothing stopped it, then the first step
    that cannot be made (no light before it, which is checked first, or a wall or the edge), or the first
    arrival on T. A torch gives its light at its first visit, which only depends on the steps before. O(steps
    log steps), a few array operations."""
    import numpy as np

    moves = np.frombuffer(path.moves.encode("ascii"), np.uint8)
    steps = len(moves)
    width, height = level.width, level.height
    drow, dcol = np.zeros(256, np.int64), np.zeros(256, np.int64)
    for move, (dr, dc) in _DELTAS.items():
        drow[ord(move)], dcol[ord(move)] = dr, dc
    row0, col0 = divmod(level.start, width)
    rows, cols = row0 + np.cumsum(drow[moves]), col0 + np.cumsum(dcol[moves])
    cells = rows * width + cols
    ok = (rows >= 0) & (rows < height) & (cols >= 0) & (cols < width)
    ok[ok] = np.frombuffer(level.walls, np.uint8)[cells[ok]] == 0
    blocked = int(np.argmin(ok)) if not ok.all() else steps  # the first move that cannot be made
    cells = cells[:blocked]
    torch = np.frombuffer(level.torch_of, f"i{level.torch_of.itemsize}")[cells]
    visits = np.flatnonzero(torch >= 0)
    fresh = np.zeros(blocked, np.uint8)
    fresh[visits[np.unique(torch[visits], return_index=True)[1]]] = 1  # the first visit of each torch
    lights = level.start_light - np.arange(1, blocked + 1) + level.torch_light * np.cumsum(fresh, dtype=np.int64)
    # the light before each step that is tried: the blocked one too, as the light is checked first
    before = np.concatenate(([level.start_light], lights))[: min(blocked + 1, steps)]
    dark = int(np.argmax(before < 1)) if (before < 1).any() else steps  # the first step with no light for it
    arrive = np.flatnonzero(cells == level.treasure)
    end = min(blocked, dark)
    if len(arrive) and arrive[0] < end:
        end = int(arrive[0]) + 1
        verdict = CaveVerdict(Outcome.COMPLETED, end, 0, reason="treasure", light=int(lights[end - 1]))
    elif dark < steps:
        verdict = CaveVerdict(Outcome.INCOMPLETE, end, 1, reason="out of light", light=int(before[dark]))
    elif blocked < steps:
        light = int(lights[end - 1]) if end else level.start_light
        line, column = (int(rows[end - 1]) + 1, int(cols[end - 1]) + 1) if end else level.position(level.start)
        dr, dc = _DELTAS[path.moves[end]]
        verdict = CaveVerdict(Outcome.INCOMPLETE, end, 1, reason="wall", light=light, blocked=(line + dr, column + dc))
    else:
        verdict = CaveVerdict(
            Outcome.INCOMPLETE, end, 1, reason="ended", light=int(lights[-1]) if end else level.start_light
        )
    kept_cells, kept_lights = array("q"), array("q")
    kept_cells.frombytes(cells[:end].astype(np.int64).tobytes())
    kept_lights.frombytes(lights[:end].astype(np.int64).tobytes())
    return Run(level, path, kept_cells, kept_lights, bytearray(fresh[:end].tobytes()), verdict)


def draw(level: Level, walk: Run) -> str:
    """The cave with the walk drawn on it, and a legend line."""
    # (the cell left, the move made) for each step taken
    visits = zip((level.start, *walk.cells), walk.path.moves[: len(walk.cells)], strict=False)
    legend = "(H start, T treasure, t torch, + torch taken, ^ v < > the move made from a cell)"
    return level.picture(visits, walk.taken) + "\n" + legend


def format_trace(level: Level, result: Run, limit: int = 200) -> str:
    """The path drawn on the map, then one line per step (at most `limit`): move, position, light left."""
    lines = [draw(level, result), "", "step  move  line  column  light"]
    line, column = level.position(level.start)
    lines.append(f"{0:>4}  {'-':>4}  {line:>4}  {column:>6}  {level.start_light:>5}  start")
    for s in result.first_steps(limit):
        line, column = level.position(s.cell)
        note = f"  torch +{level.torch_light}" if s.torch else ""
        if s.cell == level.treasure:
            note = "  treasure"
        lines.append(f"{s.number:>4}  {s.move:>4}  {line:>4}  {column:>6}  {s.light:>5}{note}")
    if len(result.cells) > limit:
        lines.append(f"... (trace cut after {plural(limit, 'step')})")
    lines += ["", str(result.verdict)]
    return "\n".join(lines)


# ---------------------------------------------------------------- solving


def describe(level: Level, result: SolveResult) -> str:
    """The CLI's human report of a solve: the verdict, the path, the light after each step and the drawn map."""
    stats = result.stats or {}
    name = result.level
    lines = []
    if result.status == Status.OPTIMAL:
        lines.append(f"{name}: optimal, {plural(result.length or 0, 'step')} (proven fewest)")
    elif result.status == Status.UNSOLVABLE:
        lines.append(f"{name}: no path (proven)")
    else:
        if result.status == Status.SOLVED:
            lines.append(f"{name}: solved, {plural(result.length or 0, 'step')} (not proven fewest)")
        else:
            lines.append(f"{name}: timeout, no path found")
        if result.proven_impossible > 0:
            lines.append(f"  paths of up to {plural(result.proven_impossible, 'step')} proven impossible")
    for what in ("reason", "proof"):
        if stats.get(what):
            lines.append(f"  {what:<11} {stats[what]}")
    walk = None
    if result.solution is not None:
        walk = run(level, result.solution)
        lines.append(f"  path        {result.solution}")
        lights = walk.light_left[:LIGHTS_SHOWN]
        steps = len(walk.light_left)
        more = f", the first {LIGHTS_SHOWN:,} of {steps:,}" if steps > LIGHTS_SHOWN else ""
        lines.append(f"  light       {' '.join(map(str, lights))}  (left after each step{more})")
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
]
