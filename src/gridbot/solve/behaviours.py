"""Light-Bot's and RoboZZle's behaviours: what a level designer sees as a different solution on the board, and
every optimal program's behaviour, counted from the exact search's listing (gridbot.solve.analyze).

>>> import gridbot
>>> from gridbot.games import lightbot
>>> level = lightbot.Level.parse("000\\n\\n>**")
>>> lightbot_key(level, lightbot.parse_program("FXFX")) == lightbot_key(level, lightbot.parse_program("LLRRFXFX"))
True
>>> lightbot_key(level, lightbot.parse_program("FXFX"))
(('at', 0, 1), ('x', 0, 1), ('at', 0, 2), ('x', 0, 2))

*Definitions.* A Light-Bot behaviour (`lightbot_key`) is the sequence of the tiles the robot moves onto and of
the lights its X commands toggle, to the win: turns, moves that stay put and X commands on plain tiles show
nothing on the board, so two programs that differ only in those behave alike. A RoboZZle behaviour
(`robozzle_key`) is the sequence of the squares the robot enters and of the paints that change a tile's colour
(the tile and the colour), to the win: turns, and paints of a tile in its own colour, show nothing.

*Why the exact searches' cuts respect them.* Both searches list one program of each class of equal-length
programs they treat as one; every other program they skip has a shorter equivalent (none wins at a proven par)
or never wins. The equal-length classes:

- Light-Bot (gridbot.solve.lightbot, cuts 1-11): `L L` is kept as `R R` (cut 1; X commands between them fire on
  the same tile at the same moment, and the facing after both is the same), f1 and f2 are renamed so that f1 is
  called first (cut 3; the same run). Cuts 2, 5-11 skip programs with a shorter equivalent or none that wins.
  Neither class changes a behaviour. Two things do: the search lists one X placement per walk (the win check
  decides every placement by algebra and keeps one), and it leaves a walk as soon as a placement wins, so a
  walk that continues it (commands appended where the run had not yet reached, in a program of the same length
  with fewer X commands) is never listed. So `lightbot_every` takes each listed walk, every continuation of it
  by up to (its X commands - 1) walk commands, and every placement of X commands on each, within the slot
  limits, and runs those that the lights say win through the simulator: every optimal program is one of those,
  up to `L L` / `R R` and the procedures' names. A program of the par has no X command that toggles nothing
  and no two in one gap (both could go), so only gaps that pass a light are tried, one X each.
- RoboZZle (gridbot.solve.robozzle.exact, cuts 1-11): the renaming of functions (cut 2), `R R` kept as `L L`,
  one order of a run of commuting turns, a paint moved before an unconditioned turn (cut 6), a condition on
  the only colour there is and none (cut 3), and the conditions and commands of slots that the lazy search
  leaves open (any of those that agree with the run: the same run), all keep the squares entered and the
  paints; every other cut skips programs with fewer slots or runs that lose. A program of the par has every
  slot in use, so a walk found winning has no continuation of the same length. So the listed programs' keys
  are the behaviours of every optimal program: exact whenever the listing is not capped.

The Light-Bot count is exact when the listing is complete (not capped) and the continuations and placements fit
`work` (else a lower bound, marked so: `Every.complete` False). Every program counted is re-run by the simulator.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any

from gridbot.deadline import Clock
from gridbot.errors import WrongAnswer
from gridbot.games import lightbot, robozzle
from gridbot.games.entries import Entries
from gridbot.games.lightbot import LIMITS

WALK_OPS = "FJLR12"
BODIES = ("main", "f1", "f2")
# steps of work (a light passed by a placement tried, a command fetched) a Light-Bot count may take before it
# gives up (a lower bound then): a few seconds of plain Python
WORK = 20_000_000


@dataclass(frozen=True, slots=True)
class Every:
    """The behaviours of the winning programs of one length: `keys`, one program of each (`programs`, in the same
    order), `complete` (every program of that length was accounted for: the count is exact), `work` (steps)."""

    keys: tuple[Hashable, ...]
    programs: tuple[Any, ...]
    complete: bool
    work: int


def lightbot_key(level: lightbot.Level, program: lightbot.Program) -> tuple[tuple[Any, ...], ...]:
    """The run as a designer sees it: ('at', row, column) for each tile the robot moves onto and ('x', row,
    column) for each light an X toggles, in order, to the win (lightbot.states). O(the run); endless for a
    program that never ends (count only winners)."""
    events: list[tuple[Any, ...]] = []
    here, lit = level.start, 0
    for position, _, lights in lightbot.states(level, program):
        if position != here:
            events.append(("at", *position))
        if lights != lit:
            events.append(("x", *position))
        here, lit = position, lights
    return tuple(events)


def robozzle_key(level: robozzle.Level, program: robozzle.Program) -> tuple[tuple[Any, ...], ...]:
    """The run as a designer sees it: ('at', row, column) for each square the robot enters and ('paint', row,
    column, colour) for each paint that changes a tile's colour, in order, to the win or loss (robozzle.steps).
    O(the run), at most MAX_ACTIONS actions."""
    events: list[tuple[Any, ...]] = []
    here, colours = level.start, level.colours
    for s in robozzle.steps(level, program):
        if s.position != here:
            events.append(("at", *s.position))
        if s.colours != colours:
            r, c = s.position
            events.append(("paint", r, c, s.colours[r][c]))
        here, colours = s.position, s.colours
    return tuple(events)


# the games whose behaviour is what shows on the board rather than the states (the module docstring says why)
KEYS: dict[str, Callable[[Any, Any], Hashable]] = {"lightbot": lightbot_key, "robozzle": robozzle_key}


class _Stopped(Exception):
    """The work bound or more than `most` behaviours reached: the count is a lower bound."""


@dataclass(frozen=True, slots=True)
class _Passes:
    """A walk's control flow as the X commands see it: for each time a gap (body, index) is passed on a light,
    (gap number, light bit), in order, as far as any placement can still win (`Walk.passes`)."""

    gaps: tuple[tuple[int, int], ...]  # gap number -> (body, index)
    passes: tuple[tuple[int, int], ...]  # (gap bit, light bit)
    ends: frozenset[int]  # the bodies whose end the flow reaches (where a command appended would run)


class _Count:
    def __init__(self, level: lightbot.Level, par: int, most: int, clock: Clock, work: int) -> None:
        self.level, self.par, self.most, self.clock, self.limit = level, par, most, clock, work
        self.full = (1 << len(level.lights)) - 1
        self.index = {pos: i for i, pos in enumerate(level.lights)}
        self.work = 0
        self.found: dict[Hashable, lightbot.Program] = {}
        self.walks: set[tuple[str, str, str]] = set()

    def spend(self, steps: int) -> None:
        self.work += steps
        if self.work > self.limit:
            raise _Stopped
        self.clock.check(phase="behaviours")

    def passes(self, walk: tuple[str, str, str]) -> _Passes:
        """The gaps of `walk` passed on a light, read from the flow of the walk with an X in every gap (the X
        commands change no move: lightbot.fetches), as far as any placement can win: to the end of main, or, when
        a procedure is entered again in the same control state (position, facing, procedure) on a stack never
        lower in between, up to two periods after the first entry (from there the flow repeats for ever, and the
        lights with period two: every state the lights can take has been seen)."""
        spread = lightbot.Program(*("X" + "X".join(body) + "X" for body in walk))
        gaps: dict[tuple[int, int], int] = {}
        passes: list[tuple[int, int]] = []
        entries = Entries()  # entry state -> its fetch number, while it still proves a repeat
        ends: set[int] = set()
        end: int | None = None
        n = 0
        for n, (position, facing, proc, pc, height) in enumerate(lightbot.fetches(self.level, spread)):
            if end is not None and n >= end:
                break
            if n % 4096 == 4095:
                self.spend(4096)
            if pc == 2 * len(walk[proc]):
                ends.add(proc)
            entries.at(height)
            if pc % 2 == 0:  # an X of the spread walk: gap pc / 2 of this body
                light = self.index.get(position)
                if light is not None:
                    gap = gaps.setdefault((proc, pc // 2), len(gaps))
                    passes.append((1 << gap, 1 << light))
            if pc == 0 and proc != 0 and end is None:  # a procedure entered
                key = (position, facing, proc)
                if key in entries:
                    first = entries.first(key)
                    end = first + 2 * (n - first)
                else:
                    entries.record(key, height, n)
        self.spend(n % 4096 + 1)
        order = sorted(gaps, key=gaps.__getitem__)
        return _Passes(tuple(order), tuple(passes), frozenset(ends))

    def walk(self, walk: tuple[str, str, str], x: int, more: int) -> None:
        """Every placement of `x` X commands in `walk` that wins, then the same for each continuation of `walk`
        by one walk command at the end of a body the flow reaches (a command appended anywhere else never runs:
        no program of the par has one), with one X fewer, while `more` commands may still be appended."""
        if walk in self.walks:
            return
        self.walks.add(walk)
        flow = self.passes(walk)
        self.placements(walk, x, flow)
        if more < 1 or x < 2:
            return
        for p in sorted(flow.ends):
            if len(walk[p]) < LIMITS[BODIES[p]]:
                for op in WALK_OPS:
                    longer = list(walk)
                    longer[p] += op
                    self.walk((longer[0], longer[1], longer[2]), x - 1, more - 1)

    def placements(self, walk: tuple[str, str, str], x: int, flow: _Passes) -> None:
        """Every placement of `x` X commands (one a gap, on gaps that pass a light) in `walk` within the slot
        limits whose lights are all on at some moment: each run by the simulator, its behaviour kept."""
        room = [LIMITS[name] - len(body) for name, body in zip(BODIES, walk, strict=True)]
        full = self.full
        for chosen in itertools.combinations(range(len(flow.gaps)), x):
            per_body = [0, 0, 0]
            for g in chosen:
                per_body[flow.gaps[g][0]] += 1
            if any(k > r for k, r in zip(per_body, room, strict=True)):
                continue
            mask = sum(1 << g for g in chosen)
            self.spend(len(flow.passes) + 1)
            lit = 0
            for gap, light in flow.passes:
                if mask & gap:
                    lit ^= light
                    if lit == full:
                        self.keep(walk, {flow.gaps[g] for g in chosen})
                        break

    def keep(self, walk: tuple[str, str, str], xs: set[tuple[int, int]]) -> None:
        bodies = []
        for p, body in enumerate(walk):
            text = [("X" if (p, k) in xs else "") + op for k, op in enumerate(body)]
            bodies.append("".join(text) + ("X" if (p, len(body)) in xs else ""))
        program = lightbot.Program(*bodies)
        if program.tokens != self.par or not lightbot.run(self.level, program).verdict.won:
            raise WrongAnswer(f"{self.level.name}: {program} wins by the lights' algebra, not by the simulator")
        key = lightbot_key(self.level, program)
        if key not in self.found:
            self.found[key] = program
            if len(self.found) > self.most:
                raise _Stopped


def lightbot_every(
    level: lightbot.Level, par: int, listed: Iterable[lightbot.Program], listed_capped: bool, most: int,
    clock: Clock, work: int = WORK,
) -> Every:  # fmt: skip
    """The behaviours (`lightbot_key`) of every program of `par` commands that wins `level`, where `par` is proven
    (no shorter program wins) and `listed` is the exact search's listing at the par (one program per walk,
    `listed_capped` when it stopped at its cap): each listed walk, its continuations and every placement of X
    commands (see the module docstring for why these are all). At most `most` behaviours (more: not complete).
    Raises Timeout at the clock's deadline or a stop request, WrongAnswer when a program counted loses (a bug)."""
    count = _Count(level, par, most, clock, work)
    if not level.lights:
        return Every(((),), (lightbot.Program(""),), True, 0)
    complete = not listed_capped
    try:
        for program in listed:
            main, f1, f2 = (body.replace("X", "") for body in (program.main, program.f1, program.f2))
            x = par - len(main) - len(f1) - len(f2)
            count.walk((main, f1, f2), x, x - 1)
    except _Stopped:
        complete = False
    keys = tuple(count.found)
    return Every(keys, tuple(count.found[k] for k in keys), complete, count.work)


__all__ = ["KEYS", "WORK", "Every", "lightbot_every", "lightbot_key", "robozzle_key"]
