"""Light-Bot and RoboZZle together: one program for a set of levels, decided slot by slot as the runs reach them.

The program is *lazy*: a slot is decided (a command, or the end of its function) only when a run first reaches
it, as the per-level exact solvers do. The levels are run one after another on the same partial program: level
1 until it wins (every slot it reached is then decided), then level 2 from its start, deciding the slots it
reaches first, and so on; a decision never changes a run already made, since that run never reached the slot.
So every program that wins every level is met (its slots, as the runs reach them), and iterative deepening on
the number of commands makes the first length at which one wins the optimum.

A branch is dropped only when the run of one level, fixed by the slots decided so far, is lost whatever the
undecided slots hold (it never reaches one again): RoboZZle's fall off the board, end of F1, 1000th action,
stack overflow and action-free recursion (a function entered again, at a frame still open, with no action
since: the same calls repeat until the stack overflows); Light-Bot's end of main and its repeated control state
at a stack height not below the first (gridbot.games.lightbot.run's proof of an endless run). These hold for
every completion on that level, so for the set.

The only other cuts are syntactic, valid on every board because they replace a program by one no longer that
does the same on any board (and the shorter or kept one is still searched):

1. *No empty function.* A call of a function whose slots are all empty does nothing: its first slot is never
   decided "end" (the call could go). Main (F1) never ends at its first slot (it would lose at once).
2. *Renaming.* Procedures of the same size can swap names. Take the runs in the search's order (level 1,
   then 2, ...): renaming so that the first called comes first keeps every run, so a procedure is called only
   after every lower-numbered one of its size has been entered.
3. *Turns.* Within one function, adjacent unconditioned turns: `L R` and `R L` do nothing (both could go; in
   RoboZZle this only saves actions, so a win comes no later), three alike turn once the other way (shorter),
   and of `L L` and `R R` only one is kept (Light-Bot: `R R`; RoboZZle: `L L`).
4. *Conditions* (RoboZZle) only on a colour some tile of some level has or a paint makes; others never run.
5. *Budget.* A command is offered only while the length has room, a call of a function not yet entered only
   with room for its first command too (rule 1).

What the search omits on purpose: every cut of the one-level solvers that reads the board (a move that stands
still, lights or stars out of reach, dominance of runs): on another level of the set the same program may
behave differently. Complexity: exponential in the length, branching over the 7 Light-Bot commands or the
RoboZZle commands times their conditions at each slot a run reaches.
"""

from __future__ import annotations

from typing import Any

from gridbot.deadline import Clock
from gridbot.games import lightbot, robozzle
from gridbot.games.entries import Entries

END = "end"


class _Found(Exception):
    pass


class LazySearch:
    """One length: is there a program of at most K commands that wins every level? (`run`: the slots of one
    found, or None.) Subclasses give the machine and the commands."""

    sizes: tuple[int, ...] = ()

    def __init__(self, levels: list[Any], K: int, clock: Clock) -> None:
        self.levels = levels
        self.K = K
        self.clock = clock
        self.slots: list[list[Any]] = [[None] * n for n in self.sizes]
        self.used = 0
        self.nodes = 0
        self.found: list[list[Any]] | None = None

    def run(self) -> list[list[Any]] | None:
        try:
            self._level(0, self.start(0))
        except _Found:
            return self.found
        return None

    def _level(self, i: int, state: Any) -> None:
        event = self.advance(i, state)
        if event == "won":
            if i + 1 == len(self.levels):
                self.found = [list(body) for body in self.slots]
                raise _Found
            self._level(i + 1, self.start(i + 1))
        elif event is not None:  # (function, slot): undecided
            f, pc = event
            old = self.slots[f][pc]  # None, or a conditioned slot whose command is not decided (paid already)
            self.nodes += 1
            if self.nodes % 512 == 0:
                self.clock.check(length=self.K, candidates=self.nodes)
            for choice in self.options(i, state, f, pc):
                self.slots[f][pc] = choice
                cost = 0 if old is not None or choice == END else 1
                self.used += cost
                self._level(i, self.copy(state))
                self.used -= cost
            self.slots[f][pc] = old

    def entered(self, f: int) -> bool:
        return f == 0 or self.slots[f][0] is not None

    def may_call(self, f: int, room: int = 2) -> bool:
        """Rules 2 and 5 for a new call of function f: `room` slots are needed when f is not entered yet (the
        call's, unless paid already, and f's first command)."""
        if self.sizes[f] == 0:
            return False
        if not self.entered(f):
            if self.used + room > self.K:
                return False
            if any(self.sizes[h] == self.sizes[f] and not self.entered(h) for h in range(1, f)):
                return False
        return True

    # subclasses
    def start(self, i: int) -> Any:
        raise NotImplementedError

    def advance(self, i: int, state: Any) -> Any:
        raise NotImplementedError

    def options(self, i: int, state: Any, f: int, pc: int) -> list[Any]:
        raise NotImplementedError

    def copy(self, state: Any) -> Any:
        raise NotImplementedError


# ---------------------------------------------------------------- Light-Bot


class LightbotSearch(LazySearch):
    """Light-Bot: main, f1, f2 (12, 8, 8 slots); a slot is a command of F J L R X 1 2 or END."""

    sizes = (lightbot.LIMITS["main"], lightbot.LIMITS["f1"], lightbot.LIMITS["f2"])

    def __init__(self, levels: list[lightbot.Level], K: int, clock: Clock) -> None:
        super().__init__(levels, K, clock)
        self.index = [{pos: k for k, pos in enumerate(level.lights)} for level in levels]
        self.full = [(1 << len(level.lights)) - 1 for level in levels]

    def start(self, i: int) -> list[Any]:
        level = self.levels[i]
        # position, facing, lit, proc, pc, stack, the entries of the calls under way (the proof of a repeat)
        return [level.start, int(level.facing), 0, 0, 0, [], Entries()]

    def copy(self, state: list[Any]) -> list[Any]:
        return state[:5] + [list(state[5]), state[6].copy()]

    def advance(self, i: int, st: list[Any]) -> Any:
        """Run level i until it wins ('won'), is lost (None) or reaches an undecided slot ((proc, pc))."""
        level = self.levels[i]
        index, full, width = self.index[i], self.full[i], len(level.heights[0])
        if full == 0:
            return "won"
        position, facing, lit, proc, pc, stack, entries = st
        try:
            while True:
                body = self.slots[proc]
                op = body[pc] if pc < len(body) else END
                if op is None:
                    return (proc, pc)
                if op == END:
                    if not stack:
                        return None  # main ended without the win
                    proc, pc = stack.pop()
                    continue
                # the entry proof of gridbot.games.lightbot.run: entries at pc 0 of a procedure
                entries.at(len(stack))
                if pc == 0 and proc != 0:
                    r, c = position
                    key = ((((r * width + c) * 4 + facing) * 3 + proc) << len(level.lights)) | lit
                    if key in entries:
                        return None  # repeats for ever without the win
                    entries.record(key, len(stack))
                pc += 1
                if op in lightbot.CALLS:
                    stack.append((proc, pc))
                    proc, pc = int(op), 0
                    continue
                position, facing, lit = lightbot.act(level, index, position, facing, lit, op)
                if lit == full:
                    return "won"
        finally:
            st[0], st[1], st[2], st[3], st[4] = position, facing, lit, proc, pc

    def options(self, i: int, state: Any, f: int, pc: int) -> list[Any]:
        out: list[Any] = []
        if pc > 0:
            out.append(END)  # rule 1
        if self.used >= self.K:
            return out
        body = self.slots[f]
        prev = body[pc - 1] if pc > 0 else None
        prev2 = body[pc - 2] if pc > 1 else None
        for op in lightbot.COMMANDS:
            if op == "L" and prev in ("L", "R"):
                continue  # L L (R R kept), R L
            if op == "R" and (prev == "L" or (prev == "R" and prev2 == "R")):
                continue  # L R, R R R
            if op in "12" and not self.may_call(int(op)):
                continue
            out.append(op)
        return out

    def program(self, slots: list[list[Any]]) -> lightbot.Program:
        bodies = []
        for body in slots:  # decided from its first slot up to its END or the first slot no run reached
            ops = []
            for op in body:
                if op is None or op == END:
                    break
                ops.append(op)
            bodies.append("".join(ops))
        return lightbot.Program(*bodies)


# ---------------------------------------------------------------- RoboZZle


class RobozzleSearch(LazySearch):
    """RoboZZle: F1..F5 of the puzzle's sizes; a slot is END, (condition, op) or (condition, None) for a
    command conditioned on a colour that has not run yet (decided when it first runs)."""

    def __init__(self, levels: list[robozzle.Level], K: int, clock: Clock, stack_cap: int = robozzle.STACK_CAP):
        self.sizes = levels[0].slots
        super().__init__(levels, K, clock)
        self.stack_cap = stack_cap
        paints = levels[0].paints
        present = {ch for level in levels for row in level.colours for ch in row if ch != robozzle.HOLE}
        self.conds = [c for c in robozzle.COLOURS if c in present or c in paints]
        self.ops = ["F", "L", "R"] + [f"P{c}" for c in paints]

    def start(self, i: int) -> list[Any]:
        level = self.levels[i]
        colours = [list(row) for row in level.colours]
        # r, c, facing, colours, stars left, f, pc, actions, stack of (f, pc, entered f, actions at entry),
        # the entries of the calls under way (the proof of a repeat)
        return [*level.start, int(level.facing), colours, set(level.stars), 0, 0, 0, [(-1, -1, 0, 0)], Entries()]

    def copy(self, st: list[Any]) -> list[Any]:
        colours = [list(row) for row in st[3]] if self.levels[0].paints else st[3]
        return st[:3] + [colours, set(st[4])] + st[5:8] + [list(st[8]), st[9].copy()]

    def advance(self, i: int, st: list[Any]) -> Any:
        level = self.levels[i]
        r, c, facing, colours, stars, f, pc, actions, stack, entries = st
        paints = bool(self.levels[0].paints)
        try:
            while True:
                body = self.slots[f]
                slot = body[pc] if pc < len(body) else END
                if slot is None:
                    return (f, pc)
                if pc == 0:  # a repeated entry state: everything since repeats for ever without a star
                    entries.at(len(stack))
                    key = (r, c, facing, f, len(stars), tuple(map(tuple, colours)) if paints else ())
                    if key in entries:
                        return None
                    entries.record(key, len(stack))
                if slot == END:
                    if len(stack) == 1:
                        return None  # F1 ended
                    f, pc = stack.pop()[:2]
                    continue
                cond, op = slot
                here = colours[r][c]
                if cond and cond != here:
                    pc += 1
                    continue
                if op is None:
                    return (f, pc)  # a conditioned command runs for the first time: decide it
                pc += 1
                if op.isdigit():
                    g = int(op) - 1
                    for frame in reversed(stack):
                        if frame[3] != actions:
                            break
                        if frame[2] == g:
                            return None  # action-free recursion: overflows
                    if len(stack) - 1 >= self.stack_cap:
                        return None  # stack overflow
                    stack.append((f, pc, g, actions))
                    f, pc = g, 0
                    continue
                actions += 1
                (r, c), facing = robozzle.act(level, (r, c), facing, colours, stars, op)
                if not level.tile((r, c)):
                    return None  # fell off the board
                if not stars:
                    return "won"
                if actions == robozzle.MAX_ACTIONS:
                    return None
        finally:
            st[0], st[1], st[2], st[5], st[6], st[7] = r, c, facing, f, pc, actions

    def options(self, i: int, st: list[Any], f: int, pc: int) -> list[Any]:
        slot = self.slots[f][pc]
        here = st[3][st[0]][st[1]]
        if slot is not None:  # (cond, None) run for the first time on its colour: the command, slot already paid
            return [(slot[0], op) for op in self._ops(f, pc, slot[0], 1)]
        out: list[Any] = []
        if pc > 0:
            out.append(END)  # rule 1
        if self.used >= self.K:
            return out
        for cond in ("", here):
            out.extend((cond, op) for op in self._ops(f, pc, cond, 2))
        out.extend((cond, None) for cond in self.conds if cond != here)
        return out

    def _ops(self, f: int, pc: int, cond: str, room: int) -> list[str]:
        body = self.slots[f]
        prev = body[pc - 1] if pc > 0 else None
        prev2 = body[pc - 2] if pc > 1 else None
        out = []
        for op in self.ops:
            if op.startswith("P") and op[1] == cond:
                continue  # paints its own colour: does nothing
            if not cond and op == "R" and prev in (("", "L"), ("", "R")):
                continue  # L R, R R (L L kept)
            if not cond and op == "L" and (prev == ("", "R") or (prev == ("", "L") and prev2 == ("", "L"))):
                continue  # R L, L L L
            out.append(op)
        for g in range(len(self.sizes)):  # F1 too: it may be called like any other
            if self.may_call(g, room):
                out.append(str(g + 1))
        return out

    def program(self, slots: list[list[Any]]) -> robozzle.Program:
        bodies = []
        for body in slots:
            commands = []
            for slot in body:
                if slot is None or slot == END:
                    break
                cond, op = slot
                commands.append(robozzle.Command(op or "F", cond))
            bodies.append(tuple(commands))
        return robozzle.Program(tuple(bodies))
