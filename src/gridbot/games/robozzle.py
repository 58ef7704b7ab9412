"""RoboZZle (robozzle.com, 2008 on): collect every star with up to five functions, colour conditions and paint.

The rules, as the site's clients implement them (GAMES.md section 7):

- The board (16 x 12 on the site) has tiles coloured red, green or blue, and
  holes (no tile). Some tiles carry a star. The robot starts on a tile with a
  facing; no star lies under it.
- A program has functions F1..F5, each with the number of slots the puzzle
  gives it (0: the function does not exist; at most 10 each). A slot holds a
  command, optionally conditioned on a colour: it runs only when the tile under
  the robot has that colour, and is skipped otherwise. Commands: forward (`F`),
  turn left (`L`), turn right (`R`), call a function (`F1`..`F5`), paint the
  tile under the robot (`PR`, `PG`, `PB`; only the paints the puzzle allows).
- Execution starts at F1's first slot. Forward moves one tile; moving off the
  board or onto a hole loses at once. A star is collected when the robot
  enters its tile; the puzzle is won the moment the last star is collected.
  Painting changes only the colour (a star stays until it is entered).
- A call pushes the return point (no tail-call elimination) and continues at
  the callee's first slot; a function returns after its last command. When F1
  returns with nothing pushed, the program has ended: lost.
- Only forward, turns and paints are *actions*; calls and skipped commands
  cost nothing. A run is lost after 1000 actions without a win (a win on the
  1000th counts). The call stack holds at most 1024 return points (the
  reference client's cap; `stack_cap` to change it): a call beyond it loses
  (stack overflow), which also ends any endless recursion without actions.
- The size of a program is its number of occupied slots; fewer is better.

Notation. A command is an optional colour condition in lower case (`r`, `g`,
`b`) followed by `F`, `L`, `R`, `F1`..`F5` or `PR`, `PG`, `PB`: `rF` is
"forward if on red", `gF2` "call F2 if on green", `bPR` "paint red if on
blue". A program lists its functions, separated by `|` (or new lines):

    F1: F L rF F2 | F2: gR F F1

Empty functions are left out; commands before any label belong to F1.
`str(program)` is this canonical text and `Program.parse(str(p)) == p`.

Levels are read from the site's JSON (as in robozzle.com's API) or from a text
form a person can write: `key: value` lines, then the board, one character a
tile: `r`, `g`, `b` a tile of that colour, `R`, `G`, `B` the same with a star,
`.` a hole:

    title: Three steps
    functions: 3 0 0 0 0
    paint: none
    start: 1 1 east
    rrrR

>>> from gridbot.games import robozzle
>>> level = robozzle.Level.parse("functions: 3 0 0 0 0\\npaint: none\\nstart: 1 1 east\\nrrrR")
>>> robozzle.run(level, "F1: F F F").verdict.status
'completed'
>>> str(robozzle.Program.parse("f1: F L rF F2 | F2: gR F F1"))
'F1: F L rF F2 | F2: gR F F1'
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from gridbot.errors import LevelError, ProgramError
from gridbot.grid import Direction
from gridbot.grid import trace_parts as _trace_parts
from gridbot.result import Outcome, Pictured, PicturedRun, SolveResult, Verdict
from gridbot.text import is_digits

NAME = "robozzle"
# `gridbot --help`: a solution's syntax in brief: what it must do; what its length counts (one line)
SUMMARY = "F1..F5 over F L R Fn PR PG PB, rF=F on red: all stars; slots"
UNIT = "slots"
SIZE = "star"  # what `gridbot levels` counts
COLOURS = "RGB"
FUNCTIONS = 5
MAX_SLOTS = 10  # per function
MAX_TOTAL_SLOTS = 50
MAX_ACTIONS = 1000
STACK_CAP = 1024
MAX_SIDE = 100  # the site's boards are 16 x 12; the text form allows larger ones
MAX_LEVEL_BYTES = 1 << 20
HOLE = " "
SITE_FACINGS = (Direction.EAST, Direction.SOUTH, Direction.WEST, Direction.NORTH)  # the API's RobotDir 0..3
FACING_NAMES = {"north": Direction.NORTH, "east": Direction.EAST, "south": Direction.SOUTH, "west": Direction.WEST}
PAINT_BITS = {"R": 1, "G": 2, "B": 4}

Position = tuple[int, int]


# ---------------------------------------------------------------- levels


@dataclass(frozen=True, slots=True)
class Level(Pictured):
    """An immutable puzzle: tile colours per row (`R`, `G`, `B`, or a space for a hole), the stars (sorted), the
    robot's start and facing, the slots of F1..F5, the paints allowed (a subset of "RGB"), and its title/author."""

    colours: tuple[str, ...]
    stars: tuple[Position, ...]
    start: Position
    facing: Direction
    slots: tuple[int, ...]
    paints: str = ""
    name: str = ""
    title: str = ""
    author: str = ""

    @classmethod
    def parse(cls, text: str, name: str = "<level>") -> Level:
        """Read the site's JSON (text starting with `{`) or the text form; LevelError names the line and column of
        the first problem. O(len(text))."""
        if text.lstrip().startswith(("{", "[", '"')) or text.strip() == "null":
            return _from_json(text, name)
        return _from_text(text, name)

    @property
    def width(self) -> int:
        return len(self.colours[0])

    @property
    def height(self) -> int:
        return len(self.colours)

    @property
    def rows(self) -> tuple[str, ...]:
        """The board in the text form's letters (lower case a tile, upper case a tile with a star, `.` a hole)."""
        stars = set(self.stars)
        return tuple(
            "".join("." if ch == HOLE else (ch if (r, c) in stars else ch.lower()) for c, ch in enumerate(row))
            for r, row in enumerate(self.colours)
        )

    @property
    def size(self) -> int:
        """Number of stars."""
        return len(self.stars)

    def tile(self, position: Position) -> bool:
        r, c = position
        return 0 <= r < self.height and 0 <= c < self.width and self.colours[r][c] != HOLE

    def __str__(self) -> str:
        header = []
        if self.title:
            header.append(f"title: {self.title}")
        if self.author:
            header.append(f"author: {self.author}")
        header.append("functions: " + " ".join(map(str, self.slots)))
        header.append("paint: " + (" ".join(self.paints) if self.paints else "none"))
        header.append(f"start: {self.start[0] + 1} {self.start[1] + 1} {self.facing.name.lower()}")
        return "\n".join(header + list(self.rows))


def _check(level: Level, where: Any) -> Level:
    """The rules every level keeps, whatever its source; `where(field)` gives (line, column, source) of a field."""
    if not any(level.slots):
        raise LevelError("no function has a slot", *where("functions"))
    if level.slots[0] == 0:
        raise LevelError("F1 must have at least one slot (execution starts there)", *where("functions"))
    if sum(level.slots) > MAX_TOTAL_SLOTS:
        raise LevelError(f"more than {MAX_TOTAL_SLOTS} slots in all", *where("functions"))
    if not level.tile(level.start):
        raise LevelError("the robot does not start on a tile", *where("start"))
    if level.start in level.stars:
        raise LevelError("a star under the robot's start", *where("start"))
    if not level.stars:
        raise LevelError("no star to collect", *where("board"))
    return level


_HEADER = re.compile(r"\s*([A-Za-z]+)\s*:(.*)$")


def _from_text(text: str, name: str) -> Level:
    fields: dict[str, tuple[str, int]] = {}
    board: list[tuple[int, str]] = []
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.rstrip("\r")
        if not board:
            if not line.strip() or line.lstrip().startswith(";"):
                continue
            header = _HEADER.match(line)
            if header is not None:
                key = header.group(1).lower()
                if key not in ("title", "author", "functions", "paint", "start"):
                    raise LevelError(f"unknown field {header.group(1)!r}", number, 1, name)
                if key in fields:
                    raise LevelError(f"{key} given twice", number, 1, name)
                fields[key] = (header.group(2).strip(), number)
                continue
        board.append((number, line))
    while board and not board[-1][1].strip():
        board.pop()
    if not board:
        raise LevelError("no board after the header lines", len(text.split("\n")), 1, name)
    if len(board) > MAX_SIDE:
        raise LevelError(f"too many rows ({len(board)} > {MAX_SIDE})", board[MAX_SIDE][0], 1, name)
    width = max(len(line) for _, line in board)
    if width > MAX_SIDE:
        row = next(n for n, line in board if len(line) > MAX_SIDE)
        raise LevelError(f"row too long ({width} > {MAX_SIDE})", row, MAX_SIDE + 1, name)
    colours, stars = [], []
    for r, (number, line) in enumerate(board):
        row = []
        for c, ch in enumerate(line.ljust(width, ".")):
            if ch in "rgb":
                row.append(ch.upper())
            elif ch in COLOURS:
                row.append(ch)
                stars.append((r, c))
            elif ch in ". ":
                row.append(HOLE)
            else:
                raise LevelError(f"unexpected {ch!r} on the board (expected r g b R G B or .)", number, c + 1, name)
        colours.append("".join(row))
    for key in ("functions", "start"):
        if key not in fields:
            raise LevelError(f"missing field '{key}:' before the board", board[0][0], 1, name)

    def where(key: str) -> tuple[int, int, str]:
        return (fields[key][1] if key in fields else board[0][0]), 1, name

    value, line = fields["functions"]
    parts = value.split()
    if len(parts) != FUNCTIONS or not all(is_digits(p) and int(p) <= MAX_SLOTS for p in parts):
        raise LevelError(f"functions: expected {FUNCTIONS} slot counts from 0 to {MAX_SLOTS}", line, 1, name)
    paints = _paints_of(*fields.get("paint", ("none", 0)), name)
    value, line = fields["start"]
    parts = value.lower().split()
    if len(parts) != 3 or not is_digits(parts[0]) or not is_digits(parts[1]) or parts[2] not in FACING_NAMES:
        raise LevelError("start: expected ROW COLUMN FACING, e.g. '12 1 east'", line, 1, name)
    start = (int(parts[0]) - 1, int(parts[1]) - 1)
    title = fields.get("title", ("", 0))[0]
    author = fields.get("author", ("", 0))[0]
    slots = tuple(int(p) for p in fields["functions"][0].split())
    level = Level(
        tuple(colours), tuple(sorted(stars)), start, FACING_NAMES[parts[2]], slots, paints, name, title, author
    )
    return _check(level, where)


def _paints_of(value: str, line: int, name: str) -> str:
    letters = value.upper().replace(",", " ").split()
    if letters in ([], ["NONE"], ["-"]):
        return ""
    joined = "".join(letters)
    if any(ch not in COLOURS for ch in joined) or len(set(joined)) != len(joined):
        raise LevelError("paint: expected 'none' or some of R G B", line, 1, name)
    return "".join(ch for ch in COLOURS if ch in joined)


def _from_json(text: str, name: str) -> Level:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LevelError(f"not valid JSON: {exc.msg}", exc.lineno, exc.colno, name) from None
    if not isinstance(data, dict):
        raise LevelError("expected a puzzle object (this file holds no puzzle)", 1, 1, name)

    def where(key: str) -> tuple[int, int, str]:
        site = {"functions": "SubLengths", "start": "RobotRow", "board": "Items"}.get(key, key)
        found = text.find(f'"{site}"')
        if found < 0:
            return 1, 1, name
        return text.count("\n", 0, found) + 1, found - (text.rfind("\n", 0, found) + 1) + 1, name

    def field(key: str) -> Any:
        if key not in data:
            raise LevelError(f"missing field {key!r}", 1, 1, name)
        return data[key]

    def number(key: str, low: int, high: int) -> int:
        value = field(key)
        try:
            n = int(value)
        except (TypeError, ValueError):
            raise LevelError(f"{key} must be a whole number, not {value!r}", *where(key)) from None
        if not low <= n <= high:
            raise LevelError(f"{key} must be from {low} to {high}, not {n}", *where(key))
        return n

    colours, items = field("Colors"), field("Items")
    for key, rows in (("Colors", colours), ("Items", items)):
        if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
            raise LevelError(f"{key} must be a list of strings", *where(key))
        if len(rows) > MAX_SIDE or max(map(len, rows)) > MAX_SIDE or len({len(r) for r in rows}) != 1:
            raise LevelError(f"{key} must be rows of one length, at most {MAX_SIDE} x {MAX_SIDE}", *where(key))
    if (len(colours), len(colours[0])) != (len(items), len(items[0])):
        raise LevelError("Colors and Items differ in size", *where("Items"))
    board, stars = [], []
    for r, (colour_row, item_row) in enumerate(zip(colours, items, strict=True)):
        row = []
        for c, (colour, item) in enumerate(zip(colour_row, item_row, strict=True)):
            if item == "#":
                row.append(HOLE)
                continue
            if item not in ".*":
                raise LevelError(f"Items: unexpected {item!r} at row {r + 1}, column {c + 1}", *where("Items"))
            if colour not in COLOURS:
                raise LevelError(f"Colors: unexpected {colour!r} at row {r + 1}, column {c + 1}", *where("Colors"))
            row.append(colour)
            if item == "*":
                stars.append((r, c))
        board.append("".join(row))
    slots = field("SubLengths")
    if not isinstance(slots, list) or len(slots) != FUNCTIONS:
        raise LevelError(f"SubLengths must list {FUNCTIONS} slot counts", *where("functions"))
    counts = []
    for value in slots:
        try:
            n = int(value)
        except (TypeError, ValueError):
            raise LevelError(f"SubLengths: {value!r} is not a whole number", *where("functions")) from None
        if not 0 <= n <= MAX_SLOTS:
            raise LevelError(f"SubLengths: {n} is not from 0 to {MAX_SLOTS}", *where("functions"))
        counts.append(n)
    allowed = number("AllowedCommands", 0, 7)
    paints = "".join(ch for ch in COLOURS if allowed & PAINT_BITS[ch])
    start = (number("RobotRow", 0, len(board) - 1), number("RobotCol", 0, len(board[0]) - 1))
    facing = SITE_FACINGS[number("RobotDir", 0, 3)]
    # the text form keeps a title or author on its line without the spaces around it; so does the level
    title, author = str(data.get("Title") or "").strip(), str(data.get("SubmittedBy") or "").strip()
    level = Level(tuple(board), tuple(sorted(stars)), start, facing, tuple(counts), paints, name, title, author)
    return _check(level, where)


def to_json(level: Level) -> dict[str, Any]:
    """The level as the site's API writes a puzzle (the fields gridbot reads; holes coloured blue)."""
    return {
        "Title": level.title,
        "SubmittedBy": level.author,
        "Colors": [row.replace(HOLE, "B") for row in level.colours],
        "Items": [
            "".join("#" if ch == HOLE else "*" if (r, c) in set(level.stars) else "." for c, ch in enumerate(row))
            for r, row in enumerate(level.colours)
        ],
        "RobotRow": level.start[0],
        "RobotCol": level.start[1],
        "RobotDir": SITE_FACINGS.index(level.facing),
        "SubLengths": list(level.slots),
        "AllowedCommands": sum(PAINT_BITS[ch] for ch in level.paints),
    }


# ---------------------------------------------------------------- programs

ACTIONS = ("F", "L", "R", "PR", "PG", "PB")
CALLS = tuple(str(n) for n in range(1, FUNCTIONS + 1))


@dataclass(frozen=True, slots=True)
class Command:
    """One occupied slot: `op` is F, L, R, a call "1".."5", or a paint PR, PG, PB; `cond` is "", "R", "G" or "B"."""

    op: str
    cond: str = ""

    def __str__(self) -> str:
        return self.cond.lower() + (f"F{self.op}" if self.op in CALLS else self.op)

    @property
    def is_action(self) -> bool:
        return self.op not in CALLS


@dataclass(frozen=True, slots=True)
class Program:
    """F1..F5, each a tuple of commands; `str(p)` is the canonical text and `Program.parse(str(p)) == p`."""

    functions: tuple[tuple[Command, ...], ...]

    def __str__(self) -> str:
        parts = [f"F{n + 1}: " + " ".join(map(str, body)) for n, body in enumerate(self.functions) if body]
        return " | ".join(parts) if parts else "F1:"

    @property
    def tokens(self) -> int:
        """The size: occupied slots in all functions."""
        return sum(len(body) for body in self.functions)

    @classmethod
    def parse(cls, text: str) -> Program:
        return parse_program(text)

    def problems(self, level: Level) -> str:
        """Why the program does not fit `level` (a function longer than its slots, a call of a function that does
        not exist, a paint not allowed), or '' when it fits. O(size)."""
        for n, body in enumerate(self.functions):
            if len(body) > level.slots[n]:
                return f"F{n + 1} has {len(body)} commands but {level.slots[n]} slots"
            for command in body:
                if command.op in CALLS and level.slots[int(command.op) - 1] == 0:
                    return f"F{n + 1} calls F{command.op}, which this puzzle does not have"
                if command.op.startswith("P") and command.op[1] not in level.paints:
                    allowed = " ".join(level.paints) or "none"
                    return f"F{n + 1} paints {command.op[1]}, which this puzzle does not allow (allowed: {allowed})"
        return ""


_TOKEN = re.compile(r"(?P<label>[Ff](?P<number>[1-9])\s*:)|(?P<cond>[rgb])?(?P<op>F[1-9]|P[RGB]|[FLR])")
_SEPARATORS = " \t\r\n|,;"


def parse_program(text: str) -> Program:
    """Read `F1: F L rF F2 | F2: gR F F1` (labels in any case, separators `|`, `,`, `;`, spaces or new lines,
    optional between commands). ProgramError names the column of the first problem. O(len(text))."""
    bodies: list[list[Command]] = [[] for _ in range(FUNCTIONS)]
    labelled: set[int] = set()
    current = 0
    i = 0
    while i < len(text):
        if text[i] in _SEPARATORS:
            i += 1
            continue
        token = _TOKEN.match(text, i)
        if token is None:
            raise ProgramError(
                f"unexpected {text[i]!r} (expected a command such as F, L, R, F2, PR, rF, or a label F1:)", i + 1, text
            )
        number = token.group("number") or token.group("op")[1:]
        if number.isdigit() and not 1 <= int(number) <= FUNCTIONS:
            raise ProgramError(f"there is no function F{number} (F1 to F{FUNCTIONS})", i + 1, text)
        if token.group("label"):
            current = int(number) - 1
            if current in labelled:
                raise ProgramError(f"F{current + 1} given twice", i + 1, text)
            labelled.add(current)
        else:
            op = token.group("op")
            command = Command(op[1:] if op[0] == "F" and len(op) == 2 else op, (token.group("cond") or "").upper())
            if len(bodies[current]) == MAX_SLOTS:
                raise ProgramError(f"F{current + 1} has more than {MAX_SLOTS} commands", i + 1, text)
            bodies[current].append(command)
        i = token.end()
    return Program(tuple(tuple(body) for body in bodies))


# ---------------------------------------------------------------- simulation

_ACTS, _SILENT, _LOOPS = 0, 1, 2


def _silence(program: Program) -> dict[tuple[int, str], tuple[int, int]]:
    """Per (function, colour under the robot): what a call does before its first action.

    (_ACTS, 0): it reaches an action; (_SILENT, d): it returns without one,
    having held at most d return points (the call's own included); (_LOOPS, 0):
    it recurses for ever without one (so it overflows the stack). Exact because
    nothing changes the board or the robot between actions, so every condition
    reads the same colour until the first action. O(functions x colours x slots).
    """
    memo: dict[tuple[int, str], tuple[int, int]] = {}

    def what(f: int, colour: str, open_calls: frozenset[int]) -> tuple[int, int]:
        if (f, colour) in memo:
            return memo[f, colour]
        if f in open_calls:
            return _LOOPS, 0
        depth, result = 1, None
        for command in program.functions[f]:
            if command.cond and command.cond != colour:
                continue
            if command.is_action:
                result = (_ACTS, 0)
                break
            kind, inner = what(int(command.op) - 1, colour, open_calls | {f})
            if kind != _SILENT:
                result = (kind, 0)
                break
            depth = max(depth, 1 + inner)
        memo[f, colour] = result if result is not None else (_SILENT, depth)
        return memo[f, colour]

    for f in range(FUNCTIONS):
        for colour in COLOURS:
            what(f, colour, frozenset())
    return memo


@dataclass(frozen=True, slots=True)
class Step:
    """One action: the number-th, by command `command` in slot `slot` (0-based) of F`function`; afterwards the
    robot is at `position` facing `facing`, the tiles are coloured `colours`, and `stars` are left."""

    number: int
    function: int
    slot: int
    command: str
    position: Position
    facing: int
    colours: tuple[str, ...]
    stars: tuple[Position, ...]
    depth: int  # return points held


@dataclass(frozen=True, slots=True)
class Run(PicturedRun):
    """How a run ended: the verdict (won at action k, or lost with stars left) and why it ended."""

    level: Level
    program: Program
    verdict: Verdict
    reason: str
    stack_cap: int = STACK_CAP

    @property
    def actions(self) -> int:
        return self.verdict.step


def act(level: Level, position: Position, facing: int, colours: list[list[str]], stars: set[Position], op: str
        ) -> tuple[Position, int]:  # fmt: skip
    """The robot after one action (F, L, R or a paint): (position, facing). A move onto a tile collects its star
    (`stars` loses it); a paint colours the tile under the robot (`colours`, rows of one-letter colours, changes).
    A move off the board returns a position where `level.tile` is False (the run is lost). The one place the
    rules of the actions are written: the simulator and the search for several puzzles at once
    (gridbot.solve.together) both step through it."""
    if op == "F":
        dr, dc = Direction(facing).delta
        position = (position[0] + dr, position[1] + dc)
        if level.tile(position):
            stars.discard(position)
        return position, facing
    if op == "L":
        return position, (facing - 1) % 4
    if op == "R":
        return position, (facing + 1) % 4
    colours[position[0]][position[1]] = op[1]
    return position, facing


def _machine(level: Level, program: Program, stack_cap: int) -> Iterator[tuple[Step | None, str]]:
    """Yields (step, '') per action, then (last step or None, why it ended): 'won', 'fell off the board',
    'the program ended', 'out of actions' or 'stack overflow'. At most MAX_ACTIONS actions, and O(slots) work
    between two actions (see _silence)."""
    silence = _silence(program)
    colours = [list(row) for row in level.colours]
    stars = set(level.stars)
    (r, c), facing = level.start, int(level.facing)
    stack: list[tuple[int, int]] = []
    f, pc, actions = 0, 0, 0
    snapshot = level.colours
    last: Step | None = None
    while True:
        body = program.functions[f]
        if pc == len(body):
            if not stack:
                yield last, "the program ended"
                return
            f, pc = stack.pop()
            continue
        command, slot = body[pc], pc
        pc += 1
        here = colours[r][c]
        if command.cond and command.cond != here:
            continue
        if not command.is_action:
            kind, depth = silence[int(command.op) - 1, here]
            if kind == _LOOPS or len(stack) + max(depth, 1) > stack_cap:
                yield last, "stack overflow"
                return
            if kind == _ACTS:
                stack.append((f, pc))
                f, pc = int(command.op) - 1, 0
            continue
        actions += 1
        (r, c), facing = act(level, (r, c), facing, colours, stars, command.op)
        if not level.tile((r, c)):  # the last step shows the robot gone
            last = Step(actions, f + 1, slot, str(command), (r, c), facing, snapshot, tuple(sorted(stars)), len(stack))
            yield last, ""
            yield last, "fell off the board"
            return
        if command.op[0] == "P":
            snapshot = tuple(map("".join, colours))
        last = Step(actions, f + 1, slot, str(command), (r, c), facing, snapshot, tuple(sorted(stars)), len(stack))
        yield last, ""
        if not stars:
            yield last, "won"
            return
        if actions == MAX_ACTIONS:
            yield last, "out of actions"
            return


def _fits(level: Level, program: Program) -> None:
    problem = program.problems(level)
    if problem:
        raise ProgramError(problem, 0, str(program))


def steps(level: Level, program: Program, stack_cap: int = STACK_CAP) -> Iterator[Step]:
    """Every action in order, to the win or the loss (at most MAX_ACTIONS)."""
    for step, outcome in _machine(level, program, stack_cap):
        if not outcome and step is not None:
            yield step


def run(level: Level, program: Program | str, stack_cap: int = STACK_CAP) -> Run:
    """Run a program: won at action k, or lost (fell off, the program ended, out of actions, stack overflow).

    Raises ProgramError when the program does not fit the puzzle (more commands
    than slots, a call of a missing function, a paint not allowed). O(MAX_ACTIONS
    x slots) time, O(board + stack) memory.
    """
    if isinstance(program, str):
        program = parse_program(program)
    _fits(level, program)
    if stack_cap < 1:
        raise ValueError(f"stack_cap must be at least 1, not {stack_cap}")
    for step, outcome in _machine(level, program, stack_cap):
        if outcome:
            actions = 0 if step is None else step.number
            left = len(level.stars) if step is None else len(step.stars)
            if outcome == "won":
                return Run(level, program, Verdict(Outcome.COMPLETED, actions), "won", stack_cap)
            verdict = Verdict(Outcome.INCOMPLETE, actions, left, noun="star", left="left")
            return Run(level, program, verdict, outcome, stack_cap)
    raise AssertionError("the machine always says how a run ends")  # pragma: no cover


def states(level: Level, program: Program) -> Iterator[tuple[Position, int, tuple[str, ...]]]:
    """The states the robot goes through, one per action, as `steps` makes them: (position, facing, the tiles'
    colours); the stars left follow from the positions. At most MAX_ACTIONS."""
    for s in steps(level, program):
        yield s.position, s.facing, s.colours


def picture(
    level: Level, colours: tuple[str, ...], stars: tuple[Position, ...], position: Position, facing: int
) -> str:
    """The board as text: `r g b` tiles, `R G B` tiles with a star still there, `.` holes, the robot as an arrow."""
    left = set(stars)
    rows = [
        ["." if ch == HOLE else (ch if (r, c) in left else ch.lower()) for c, ch in enumerate(row)]
        for r, row in enumerate(colours)
    ]
    if level.tile(position):
        rows[position[0]][position[1]] = Direction(facing).arrow
    return "\n".join("".join(row) for row in rows)


def trace_parts(level: Level, result: Run, limit: int = 200) -> Iterator[str]:
    """The board after each action, as text, for at most `limit` actions, piece by piece as it is made (see
    gridbot.grid.trace_parts)."""

    def show(s: Step) -> str:
        head = f"step {s.number}: {s.command} (F{s.function} slot {s.slot + 1}, calls under way: {s.depth})"
        return f"{head}\n{picture(level, s.colours, s.stars, s.position, s.facing)}"

    start = picture(level, level.colours, level.stars, level.start, int(level.facing))
    ending = str(result.verdict) if result.verdict.won else f"{result.verdict} ({result.reason})"
    return _trace_parts(start, steps(level, result.program, result.stack_cap), limit, show, ending)


def format_trace(level: Level, result: Run, limit: int = 200) -> str:
    """The whole trace of `trace_parts` as one text."""
    return "\n\n".join(trace_parts(level, result, limit))


def run_fields(result: Run) -> dict[str, Any]:
    """What `gridbot run` shows beside the verdict: why the run ended."""
    return {"reason": result.reason}


# ---------------------------------------------------------------- the report of a solve

HEURISTIC_SHOWN = 0.005  # seconds a heuristic must have run for the report to say where the seconds went


def report_lines(result: SolveResult) -> list[str]:
    """The line the generic report of a solve adds (gridbot.solve.report): where the seconds went, when the
    heuristic or the annealer ran long enough to show (a solve the search ends at once may start them). The
    seconds are the solver's stats (gridbot.solve.robozzle.Spent). O(1)."""
    stats = result.stats or {}
    if max(stats.get("seconds_heuristic", 0.0), stats.get("seconds_annealer", 0.0)) < HEURISTIC_SHOWN:
        return []
    search = stats["seconds_exact"] + stats["seconds_split"]
    last, beside = stats["seconds_unfinished"], stats["seconds_annealer"]
    return [
        f"  of which    heuristic {stats['seconds_heuristic']:.2f}, search {search:.2f} (its last length,"
        f" unfinished, {last:.2f}); annealer beside {beside:.2f}"
    ]
