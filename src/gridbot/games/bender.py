"""Bender (CodinGame "Bender - Episode 1"): follow a robot's fixed rules to the suicide booth, or prove a loop.

Levels use `@` (start), `$` (the booth), `#` (wall), `X` (breakable wall),
`N E S W` (path modifiers), `I` (inverter), `B` (beer), `T` (teleporter, zero or
two) and space. A file may start with CodinGame's `L C` line. Bender's moves
are forced, so the answer is unique: his moves (`SOUTH`, `EAST`, `NORTH`,
`WEST`) to the booth, or `LOOP`.

>>> from gridbot.games import bender
>>> level = bender.Level.parse("#####\\n#@  #\\n#   #\\n#  $#\\n#####")
>>> bender.journey(level).answer
('SOUTH', 'SOUTH', 'EAST', 'EAST')
>>> bender.run(level, "SOUTH SOUTH EAST EAST").verdict.status
'completed'

The rules live in `journey` alone; `run`, the trace and the solver go through it.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from gridbot.errors import GridbotError, LevelError, ProgramError
from gridbot.grid import Direction, grid_rows, grid_text, plural
from gridbot.result import Outcome, Pictured, PicturedRun, SolveResult, Status, Verdict

NAME = "bender"
# `gridbot --help`: a solution's syntax in brief: what it must do; what its length counts (one line)
SUMMARY = "his forced moves SOUTH EAST NORTH WEST to the booth, or LOOP"
LISTS_ALL = False  # the answer is unique: Bender's moves are determined
PROGRAM_OPTIONAL = True  # `gridbot run bender LEVEL` without an answer shows his journey
START, BOOTH, WALL, BREAKABLE, EMPTY = "@", "$", "#", "X", " "
INVERTER, BEER, TELEPORTER = "I", "B", "T"
MODIFIERS = {"N": Direction.NORTH, "E": Direction.EAST, "S": Direction.SOUTH, "W": Direction.WEST}
KNOWN = frozenset("@$#X NESWIBT")
LOOP = "LOOP"
PRIORITIES = (Direction.SOUTH, Direction.EAST, Direction.NORTH, Direction.WEST)
INVERTED = PRIORITIES[::-1]
MOVE_NAMES = tuple(d.name for d in Direction)  # indexed by Direction value
MAX_HEADER = 1000
_HEADER = re.compile(r"[ \t]*(\d{1,9})[ \t]+(\d{1,9})[ \t]*\r?")  # longer numbers are not a header

# cell codes of the simulation grid (a bytearray); also what `journey` branches on
_EMPTY, _WALL, _BREAKABLE, _BOOTH, _INVERTER, _BEER, _TELEPORTER = range(7)
_MODIFIER = 8  # + Direction value
_CODE = {
    EMPTY: _EMPTY,
    START: _EMPTY,
    WALL: _WALL,
    BREAKABLE: _BREAKABLE,
    BOOTH: _BOOTH,
    INVERTER: _INVERTER,
    BEER: _BEER,
    TELEPORTER: _TELEPORTER,
    **{ch: _MODIFIER + d for ch, d in MODIFIERS.items()},
}


# ---------------------------------------------------------------- levels


def _special_cells(rows: tuple[str, ...]) -> Iterator[tuple[int, int, str]]:
    """(row, column, character) of every cell of the rows that hold an unknown character, `@`, `$` or `T`, in
    reading order: the only rows `Level.parse` must look at cell by cell. A plain row is passed over by string
    methods, so that a map of a million cells reads in a fraction of a second. O(cells)."""
    for r, row in enumerate(rows):
        if KNOWN.issuperset(row) and START not in row and BOOTH not in row and TELEPORTER not in row:
            continue
        for c, ch in enumerate(row):
            yield r, c, ch


@dataclass(frozen=True, slots=True)
class Level(Pictured):
    """An immutable map. Positions are (row, column), 0-based; off the map counts as `#`."""

    rows: tuple[str, ...]
    start: tuple[int, int]
    booth: tuple[int, int]
    teleporters: tuple[tuple[int, int], ...]
    name: str = ""
    header: tuple[int, int] | None = field(default=None, compare=False)

    @classmethod
    def parse(cls, text: str, name: str = "<level>") -> Level:
        """Read a map, with or without the `L C` first line; raises LevelError with line and column.

        Requires one `@`, one `$` and zero or two `T`; rows may be ragged (padded
        with spaces). With a header the map must have at most L rows (padded with
        blank rows to L: trailing blank lines are dropped) of at most C columns. O(cells).
        """
        header = None
        offset = 0  # lines before the map
        first, _, rest = text.partition("\n")
        match = _HEADER.fullmatch(first)
        if match:
            header = (int(match.group(1)), int(match.group(2)))
            if not (1 <= header[0] <= MAX_HEADER and 1 <= header[1] <= MAX_HEADER):
                raise LevelError(f"map size {header[0]} x {header[1]} out of range 1..{MAX_HEADER}", 1, 1, name)
            text, offset = rest, 1
        try:
            rows = grid_rows(text, EMPTY, source=name)
        except LevelError as exc:
            raise LevelError(exc.message, exc.line + offset, exc.column, name) from None
        if header is not None:
            lines, columns = header
            if len(rows) > lines:
                raise LevelError(f"more than the {lines} map lines the first line announces", lines + 2, 1, name)
            for r, row in enumerate(rows):
                if len(row.rstrip(EMPTY)) > columns:
                    raise LevelError(
                        f"row longer than the {columns} columns the first line announces", r + 2, columns + 1, name
                    )
            rows = tuple(row[:columns].ljust(columns) for row in rows) + (EMPTY * columns,) * (lines - len(rows))
        starts, booths, teleporters = [], [], []
        for r, c, ch in _special_cells(rows):
            if ch not in KNOWN:
                raise LevelError(
                    f"unknown character {ch!r} (expected one of @$#X NESWIBT or space)", r + 1 + offset, c + 1, name
                )
            where = (r + 1 + offset, c + 1)
            if ch == START:
                if starts:
                    raise LevelError("a second start @", *where, name)
                starts.append((r, c))
            elif ch == BOOTH:
                if booths:
                    raise LevelError("a second suicide booth $", *where, name)
                booths.append((r, c))
            elif ch == TELEPORTER:
                if len(teleporters) == 2:
                    raise LevelError("a third teleporter T (there must be zero or two)", *where, name)
                teleporters.append((r, c))
        if not starts:
            raise LevelError("no start @", 1 + offset, 1, name)
        if not booths:
            raise LevelError("no suicide booth $", 1 + offset, 1, name)
        if len(teleporters) == 1:
            r, c = teleporters[0]
            raise LevelError("a teleporter T without its pair (there must be zero or two)", r + 1 + offset, c + 1, name)
        return cls(tuple(rows), starts[0], booths[0], tuple(teleporters), name, header)

    def __str__(self) -> str:
        if self.rows[-1].strip(EMPTY):
            return grid_text(self.rows)
        # blank rows at the bottom are no text lines: the header keeps them
        return f"{self.height} {self.width}\n" + grid_text(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)


# ---------------------------------------------------------------- the journey


@dataclass(frozen=True, slots=True)
class Step:
    """One move: Bender went `heading` and ended on `position` (after any teleport).

    `event` says what the cell did ('booth', 'broke X', 'modifier', 'inverter',
    'beer', 'teleport' or ''); `inverted` and `breaker` are his modes afterwards.
    """

    number: int
    heading: Direction
    position: tuple[int, int]
    inverted: bool
    breaker: bool
    event: str


@dataclass(frozen=True, slots=True)
class Journey:
    """Where Bender's rules lead on a map.

    `moves` are the headings of his moves (Direction values, bytes); `outcome` is
    'booth' (he reached `$` with the last move), 'loop' (the state before move
    `len(moves) + 1` repeats an earlier one, so he never arrives) or 'stuck'
    (walls on all four sides: he never moves again, a loop too). `states` counts
    the states recorded; `broken` the `X` destroyed.
    """

    moves: bytes
    outcome: str
    states: int
    broken: int
    steps: tuple[Step, ...] | None = field(default=None, repr=False)

    @property
    def loops(self) -> bool:
        return self.outcome != "booth"

    @property
    def answer(self) -> tuple[str, ...] | str:
        """What CodinGame expects: the move names, or the string LOOP."""
        if self.loops:
            return LOOP
        return tuple(MOVE_NAMES[m] for m in self.moves)


def journey(
    level: Level,
    record: bool = False,
    check: Callable[[int], None] | None = None,
    check_every: int = 1 << 16,
    record_limit: int | None = None,
) -> Journey:
    """Follow Bender's rules (GAMES.md section 4) until the booth or a proven loop.

    A state is (position, heading, priorities inverted, breaker mode, destroyed
    X). The destroyed set only grows, so after an X is destroyed no earlier
    state can come back: the seen states are forgotten (a new epoch), and only
    (position, heading, inverted, breaker) is stored, as one byte per possible
    state. A repeat within one epoch is exactly a repeated full state, and the
    rules are deterministic, so he loops forever. Time O((broken X + 1) x 16 x
    cells) in the worst case, usually far less; memory about 18 bytes per cell
    for the states (and the list of an epoch's states), plus a byte per move.

    `record` also returns the Steps (for traces), at most `record_limit` of
    them when given; `check(moves so far)` is called every `check_every` moves
    (e.g. to enforce a deadline or a memory budget by raising).
    """
    width, height = level.width + 2, level.height + 2  # one ring of wall around the map
    grid = bytearray([_WALL]) * (width * height)
    for r, row in enumerate(level.rows):
        base = (r + 1) * width + 1
        grid[base : base + len(row)] = bytes(_CODE[ch] for ch in row)
    delta = [0] * 4
    for d in Direction:
        dr, dc = d.delta
        delta[d] = dr * width + dc
    priorities = (tuple(map(int, PRIORITIES)), tuple(map(int, INVERTED)))

    def index(position: tuple[int, int]) -> int:
        return (position[0] + 1) * width + position[1] + 1

    other = {}
    if level.teleporters:
        a, b = map(index, level.teleporters)
        other = {a: b, b: a}
    pos = index(level.start)
    heading = int(Direction.SOUTH)
    inverted = breaker = 0
    # seen[state] == 1 for (position, heading, inverted, breaker) seen since the last X was destroyed. The states
    # of an epoch are listed to be forgotten one by one, up to a 64th of the table; past that the table is
    # made afresh (its cost then spread over the many moves of that epoch).
    seen = bytearray(16 * width * height)
    listed: array | None = array("q")
    most = len(seen) // 64
    moves = bytearray()
    steps: list[Step] | None = [] if record else None
    keep = len(seen) * 16 if record_limit is None else record_limit  # more steps than any journey has
    states = broken = 0
    outcome = ""
    while True:
        key = pos << 4 | heading << 2 | inverted << 1 | breaker
        if seen[key]:
            outcome = "loop"
            break
        seen[key] = 1
        if listed is not None:
            if len(listed) < most:
                listed.append(key)
            else:
                listed = None
        states += 1
        ahead = grid[pos + delta[heading]]
        if ahead == _WALL or (ahead == _BREAKABLE and not breaker):
            # rule 2: the first direction in priority order that is not an obstacle
            for d in priorities[inverted]:
                ahead = grid[pos + delta[d]]
                if not (ahead == _WALL or (ahead == _BREAKABLE and not breaker)):
                    heading = d
                    break
            else:
                outcome = "stuck"
                break
        pos += delta[heading]
        moves.append(heading)
        code = grid[pos]
        event = ""
        if code == _EMPTY:
            pass
        elif code == _BREAKABLE:  # only reachable in breaker mode
            grid[pos] = _EMPTY
            broken += 1
            # a new epoch: no earlier state can come back
            if listed is None:
                seen = bytearray(len(seen))
            else:
                for old in listed:
                    seen[old] = 0
            listed = array("q")
            event = "broke X"
        elif code == _BOOTH:
            outcome = "booth"
        elif code >= _MODIFIER:
            heading = code - _MODIFIER
            event = "modifier"
        elif code == _INVERTER:
            inverted ^= 1
            event = "inverter"
        elif code == _BEER:
            breaker ^= 1
            event = "beer"
        elif code == _TELEPORTER:
            pos = other[pos]
            event = "teleport"
        if steps is not None and len(steps) < keep:
            steps.append(
                Step(
                    len(moves),
                    Direction(moves[-1]),
                    (pos // width - 1, pos % width - 1),
                    bool(inverted),
                    bool(breaker),
                    "booth" if outcome == "booth" else event,
                )
            )
        if outcome:
            break
        if check is not None and len(moves) % check_every == 0:
            check(len(moves))
    return Journey(bytes(moves), outcome, states, broken, None if steps is None else tuple(steps))


# ---------------------------------------------------------------- answers


@dataclass(frozen=True, slots=True)
class Answer:
    """An answer as CodinGame expects it: move names, or LOOP; empty means "no answer, just show the journey"."""

    moves: tuple[str, ...] = ()
    loop: bool = False

    def __str__(self) -> str:
        return LOOP if self.loop else " ".join(self.moves)

    @property
    def given(self) -> bool:
        return self.loop or bool(self.moves)

    @classmethod
    def parse(cls, text: str) -> Answer:
        return parse_program(text)


_WORD = re.compile(r"\S+")
_NAMES = {name: name for name in MOVE_NAMES}


def parse_program(text: str | Iterable[str]) -> Answer:
    """Read an answer: move names separated by whitespace (any case), or the single word LOOP. O(len(text)).

    Also takes a list of words. Raises ProgramError with the 1-based column
    (counted over the whole text) of the first bad word.
    """
    if not isinstance(text, str):
        text = " ".join(text)
    moves: list[str] = []
    loop_column = 0
    for match in _WORD.finditer(text):
        word = match.group().upper() if match.group().isascii() else match.group()
        column = match.start() + 1
        if word == LOOP:
            if loop_column or moves:
                raise ProgramError("LOOP must be the whole answer", column, text)
            loop_column = column
        elif word in _NAMES:
            if loop_column:
                raise ProgramError("LOOP must be the whole answer", column, text)
            moves.append(word)
        else:
            raise ProgramError(
                f"unexpected {match.group()!r} (expected SOUTH, EAST, NORTH, WEST or LOOP)", column, text
            )
    return Answer(tuple(moves), bool(loop_column))


# ---------------------------------------------------------------- runs


@dataclass(frozen=True, slots=True)
class BenderVerdict(Verdict):
    """How Bender's journey ends, and whether an answer matches it.

    `status`: 'completed' (he reaches the booth at move `step`; the answer, if
    any, is exactly his moves), 'forever' (a state repeats before move `step`+1:
    LOOP; the answer, if any, is LOOP) or 'wrong' (an answer was given and it is
    not what he does; `reason` says where).
    """

    reason: str = ""

    def __str__(self) -> str:
        if self.status == Outcome.COMPLETED:
            return f"reaches the suicide booth at move {self.step}"
        if self.status == Outcome.FOREVER:
            return f"LOOP: {self.reason} (state before move {self.step + 1} seen before)"
        return f"wrong answer: {self.reason}"


@dataclass(frozen=True, slots=True)
class Run(PicturedRun):
    """Bender's journey on a level, checked against an answer when one was given."""

    level: Level
    answer: Answer
    journey: Journey
    verdict: BenderVerdict


def run(level: Level, answer: Answer | str | Iterable[str] | None = None) -> Run:
    """Bender's journey on `level`, and the verdict on `answer` (move names or LOOP) if given.

    O(length of the journey); see `journey`.
    """
    if answer is None:
        answer = Answer()
    elif not isinstance(answer, Answer):
        answer = parse_program(answer)
    trip = journey(level)
    actual = trip.answer
    n = len(trip.moves)
    if trip.loops:
        reason = "walls on all four sides" if trip.outcome == "stuck" else "he never reaches the booth"
        verdict = BenderVerdict(Outcome.FOREVER, n, 1, reason=reason)
        if answer.given and not answer.loop:
            verdict = BenderVerdict(
                "wrong", n, 1, reason=f"he loops forever, the answer has {plural(len(answer.moves), 'move')}"
            )
    else:
        verdict = BenderVerdict(Outcome.COMPLETED, n, 0)
        if answer.loop:
            verdict = BenderVerdict("wrong", n, 0, reason=f"he reaches the booth at move {n}, the answer says LOOP")
        elif answer.given and answer.moves != actual:
            verdict = BenderVerdict("wrong", n, 0, reason=_difference(answer.moves, actual))
    return Run(level, answer, trip, verdict)


def _difference(given: tuple[str, ...], actual: tuple[str, ...]) -> str:
    for k, (a, b) in enumerate(zip(given, actual, strict=False), 1):
        if a != b:
            return f"move {k} is {b}, the answer says {a}"
    if len(given) < len(actual):
        return f"the answer stops after {plural(len(given), 'move')}, he reaches the booth at move {len(actual)}"
    return f"he reaches the booth at move {len(actual)}, the answer has {plural(len(given), 'move')}"


def picture(level: Level, steps: Iterable[Step]) -> str:
    """The map with the cells Bender left drawn as arrows of his heading there (later moves draw over earlier)."""
    grid = [list(row) for row in level.rows]
    position = level.start
    for s in steps:
        r, c = position
        if grid[r][c] in (EMPTY, "X"):
            grid[r][c] = s.heading.arrow
        position = s.position
    return "\n".join("".join(row).rstrip() for row in grid)


def format_trace(level: Level, result: Run, limit: int = 200) -> str:
    """One line per move (at most `limit`): heading, position, modes and what happened; then the map with his path
    as far as the trace goes. Memory O(limit + cells), whatever the length of the journey."""
    trip = journey(level, record=True, record_limit=limit)
    steps = trip.steps or ()
    lines = ["move  heading  line  column  modes            event"]
    for s in steps:
        modes = ", ".join(m for m, on in (("inverted", s.inverted), ("breaker", s.breaker)) if on) or "-"
        line, column = s.position[0] + 1 + _offset(level), s.position[1] + 1
        text = f"{s.number:>4}  {s.heading.name:<7}  {line:>4}  {column:>6}  {modes:<15}  {s.event}"
        lines.append(text.rstrip())
    if len(trip.moves) > limit:
        lines.append(f"... (trace cut after {plural(limit, 'move')})")
    lines += ["", picture(level, steps), "", str(result.verdict)]
    return "\n".join(lines)


def _offset(level: Level) -> int:
    """Lines before the map in the level text (1 with the `L C` line), so positions match the file."""
    return 0 if level.header is None else 1


# ---------------------------------------------------------------- solving


def describe(level: Level, result: SolveResult) -> str:
    """The CLI's human output, as CodinGame expects it: one move per line, or LOOP (status 'unsolvable')."""
    if result.status == Status.TIMEOUT:
        reason = (result.stats or {}).get("reason")
        return f"{result.level}: timeout after {result.seconds:.3f} s, no answer" + (f" ({reason})" if reason else "")
    if result.status == Status.UNSOLVABLE:
        return LOOP
    return "\n".join(result.solution.moves if isinstance(result.solution, Answer) else ())


__all__ = [
    "Answer",
    "BenderVerdict",
    "GridbotError",
    "Journey",
    "Level",
    "Run",
    "Step",
    "describe",
    "format_trace",
    "journey",
    "parse_program",
    "run",
]
