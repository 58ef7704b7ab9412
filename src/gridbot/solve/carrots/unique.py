"""Is an optimal Carrots program's order of marking the only one? A proof, or a program that marks in another order.

>>> import gridbot
>>> from gridbot.deadline import Clock
>>> level = gridbot.load("carrots:2")
>>> found = other_behaviour(level, 4, carrots.parse_program("LOOP{F F R}"), Clock(None))
>>> found.verdict.value, found.other
('unique', None)
>>> found = other_behaviour(gridbot.load("carrots:3"), 4, carrots.parse_program("LOOP{F F L}"), Clock(None))
>>> found.verdict.value, carrots.marks_in_order(found.level, found.other) != found.order
('other', True)

The question
------------
A board has one optimal behaviour when every program of `par` tokens (the proven optimum) that completes it marks
the squares in the same order (`carrots.marks_in_order`, the behaviour gridbot.solve.carrots.every counts). With
B, the order of one optimal program, at hand, that is: does some program of `par` tokens complete the board and
mark out of B's order? That is a search for one program, not a count: it stops at the first such program, and
its tables can merge every fragment that treats B alike.

How, and why nothing is missed
------------------------------
1. *Thresholds.* Run from a state s when exactly B's first i squares are marked, a fragment marks its new squares
   in B's order (with B's facings) for every i from some threshold th(s) on, and for no i below it: what it must
   match at i is its first hops onto B's squares from place i on, a suffix of what it must match at i - 1. So a
   fragment is known, for this question, by its *row*: for each state, its end state, the squares it hops on, the
   latest place in B of those (hi) and its threshold. Rows compose: x then g from s agrees at i iff i >= th_x(s)
   and max(i, hi_x(s) + 1) >= th_g(end_x(s)) (`_then` in the kernels); a loop's rows are its body's powers,
   eventually periodic, so the counts up to the first repeat give every count's row. Two fragments of one row
   can replace each other anywhere without changing whether a program completes or keeps to B's order, so the
   tables keep one fragment of each row at each cost. A whole program keeps to B's order iff its threshold from
   the start is 0.
2. *Pruning valid at the par* (as in gridbot.solve.carrots.every): a fragment whose marks (end and squares from
   every state) are those of a cheaper fragment is in no program of `par` tokens that completes the board, and
   neither is a program that completes it before its last top-level statement; `LOOP{x}` completes only as some
   LOOP(n){x} does. The tables hold every fragment of up to m = max(1, par - 2) tokens, so cut.
3. *The top level* runs once from the start. A point is the state and either the number of B's squares marked so
   far (the run has kept to B's order) or the marks of a run that has left it. From a point with b tokens left, a
   program is a first statement and the rest: a statement of the tables; a loop of m + 1 tokens, its body a
   fragment of the tables, every count tried along its one orbit from the point; or, for the whole program (b =
   par = m + 2), a loop whose body is a statement and a fragment of the tables. The rest is a fragment of the
   tables (one of b - c tokens completing the board out of order), nothing (the point itself completed out of
   order), or, after one command at the start, the same search with par - 1 tokens.

A program found is read back from the tables, re-run by the simulator (it must complete the board in `par` tokens
and out of B's order) and returned. Exponential in the par like the solver (tables of par - 2 tokens), but
compiled and merging more: a fraction of a second at a par of 8 on an 8 x 8 board. `work` and the memory budget
bound it (`Verdict.UNDECIDED` past them).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

import numpy as np

from gridbot.deadline import Clock
from gridbot.errors import WrongAnswer
from gridbot.games import carrots
from gridbot.games.carrots import MOVES, Level, Loop, Program, Statement
from gridbot.kernels import carrots_unique as kern
from gridbot.solve import memory

# the work the check may do before it gives up (UNDECIDED), in row steps: a fragment made costs one per state of
# the board, a row tried at the top level one; a few seconds of compiled work
WORK = 400_000_000
MEMORY_SHARE = 0.5  # of gridbot.solve.memory.memory_budget(): what the tables may take
CHUNK = 1 << 16  # candidates (or rows tried) per kernel call, so that the clock is read often
PRIMS = "FLR"


class Verdict(enum.Enum):
    """What the check found: B's order is the only one, another program marks otherwise, or neither was proven
    within the work bound or the memory budget."""

    UNIQUE = "unique"
    OTHER = "other"
    UNDECIDED = "undecided"


@dataclass(frozen=True, slots=True)
class Uniqueness:
    """The answer of `other_behaviour`: the `verdict`, the `level`, the `order` of marking of the program given
    (B), `other` (with OTHER: a program of the par that completes the level and marks out of that order), the
    `work` done and, with UNDECIDED, the `reason`."""

    verdict: Verdict
    level: Level
    order: tuple[int, ...]
    other: Program | None
    work: int
    reason: str = ""


class _Undecided(Exception):
    """The work bound or the memory budget ran out (the message says which)."""


class _Tables:
    """Every fragment row (rule 1 of the module docstring) of up to m tokens, one of each, in one growing store."""

    def __init__(self, level: Level, order: tuple[int, ...], clock: Clock, work: int, budget: int) -> None:
        self.level, self.order, self.clock, self.limit, self.budget = level, order, clock, work, budget
        n = level.size
        self.S, self.W = 4 * n, (n + 63) // 64
        self.work = 0
        pos = np.full(n, -1, np.int32)
        for place, state in enumerate(order):
            pos[state >> 2] = place
        self.pos = pos
        marks = level.initial_marks | 1 << level.start
        self.marks_at = np.empty((len(order) + 1, self.W), np.uint64)
        for i in range(len(order) + 1):
            self.marks_at[i] = _bits(marks, self.W)
            if i < len(order):
                marks |= 1 << (order[i] >> 2)
        self.goal = _bits(level.goal, self.W)
        rng = np.random.default_rng(2024)
        self.r1 = rng.integers(1, 2**63, size=self.S, dtype=np.uint64)
        self.r2 = rng.integers(1, 2**63, size=(self.S, self.W), dtype=np.uint64)
        self.r3 = rng.integers(1, 2**63, size=self.S, dtype=np.uint64)
        self.row_bytes = self.S * (4 + 8 * self.W + 4 + 4) + 8 * 3 + 4
        # the store is allocated once, as large as the budget allows: pages never written cost nothing, and rows
        # never move (no copy as the tables grow); the maps (a small part) are made again as they fill
        self.capacity = max(8, budget // self.row_bytes)
        while True:
            try:
                self.ends = memory.ARENA.empty((self.capacity, self.S), np.int32)
                self.vis = memory.ARENA.empty((self.capacity, self.S, self.W), np.uint64)
                self.hi = memory.ARENA.empty((self.capacity, self.S), np.int32)
                self.th = memory.ARENA.empty((self.capacity, self.S), np.int32)
                self.prov = memory.ARENA.empty((3, self.capacity), np.int64)
                self.costs = memory.ARENA.empty(self.capacity, np.int32)
                break
            except MemoryError:  # the system refuses even address space (strict overcommit): ask for less
                self.capacity //= 2
                if self.capacity < 8:
                    raise
        self.rows = 0
        self.mkeys, self.mrows, self.rkeys, self.rrows = self._maps(1 << 12)
        # cost -> (first row, first row that is not a statement, end row)
        self.bounds: dict[int, tuple[int, int, int]] = {}
        identity = np.arange(self.S, dtype=np.int32)
        none = np.zeros((self.S, self.W), np.uint64)
        self._admit(identity, none, np.full(self.S, -1, np.int32), np.zeros(self.S, np.int32), 0, (3, 0, 0))
        self.bounds[0] = (0, 1, 1)
        self.powers = self._power_buffers(64)

    # -- the store

    @staticmethod
    def _maps(slots: int) -> tuple[np.ndarray, ...]:
        return (
            np.zeros(slots, np.uint64),
            np.full(slots, -1, np.int64),
            np.zeros(slots, np.uint64),
            np.full(slots, -1, np.int64),
        )

    def _room(self, more: int) -> None:
        """Room for `more` rows beyond those stored: _Undecided past the store's capacity (the memory budget); the
        maps at least double (a rehash of each) when they would be more than half full."""
        need = self.rows + more
        if need > self.capacity:
            raise _Undecided(f"the tables would need more than {self.budget / 2**20:,.0f} MiB")
        if 2 * need > len(self.rkeys):
            slots = len(self.rkeys)
            while 2 * need > slots:
                slots *= 2
            maps = self._maps(slots)
            kern.rehash(self.mkeys, self.mrows, maps[0], maps[1])
            kern.rehash(self.rkeys, self.rrows, maps[2], maps[3])
            self.mkeys, self.mrows, self.rkeys, self.rrows = maps

    def _tick(self, amount: int, phase: str) -> None:
        self.work += amount
        if self.work > self.limit:
            raise _Undecided(f"the work bound of {self.limit:,} steps ran out")
        self.clock.check(phase=phase, candidates=self.work)

    def _power_buffers(self, rows: int) -> tuple[np.ndarray, ...]:
        if rows * self.row_bytes > self.budget // 4:
            raise _Undecided("a loop has more distinct counts than the memory budget holds")
        return (
            memory.ARENA.empty((rows, self.S), np.int32),
            memory.ARENA.empty((rows, self.S, self.W), np.uint64),
            memory.ARENA.empty((rows, self.S), np.int32),
            memory.ARENA.empty((rows, self.S), np.int32),
            memory.ARENA.empty(rows, np.uint64),
        )

    def _admit(self, e: np.ndarray, v: np.ndarray, h: np.ndarray, t: np.ndarray, cost: int, prov: tuple) -> None:
        self._room(1)
        self.rows = kern.admit(e, v, h, t, cost, *prov, self.ends, self.vis, self.hi, self.th, self.prov,
                               self.costs, self.rows, self.mkeys, self.mrows, self.rkeys, self.rrows, self.r1,
                               self.r2, self.r3)  # fmt: skip

    # -- building

    def build(self, c: int) -> None:
        """The rows of cost c: its statements (commands, or loops over the rows of cost c - 1) first, then a
        statement of cost a followed by a fragment of cost c - a."""
        lo = self.rows
        if c == 1:
            self._commands()
        else:
            self._loops(c)
        statements = self.rows
        for a in range(1, c):
            x_lo, x_hi, _ = self.bounds[a]
            g_lo, _, g_hi = self.bounds[c - a]
            total = (x_hi - x_lo) * (g_hi - g_lo)
            i = 0
            while i < total:
                upto = min(total, i + CHUNK)
                self._room(upto - i)
                self.rows = kern.build_sequences(
                    self.ends, self.vis, self.hi, self.th, self.prov, self.costs, self.rows, c, x_lo, x_hi, g_lo,
                    g_hi, i, upto, self.mkeys, self.mrows, self.rkeys, self.rrows, self.r1, self.r2, self.r3,
                    *self._scratch(),
                )  # fmt: skip
                self._tick((upto - i) * self.S, f"sequences of cost {c}")
                i = upto
        self.bounds[c] = (lo, statements, self.rows)

    def _scratch(self) -> tuple[np.ndarray, ...]:
        return (np.empty(self.S, np.int32), np.empty((self.S, self.W), np.uint64), np.empty(self.S, np.int32),
                np.empty(self.S, np.int32))  # fmt: skip

    def _commands(self) -> None:
        """The rows of F, L and R from the game's own rule (`carrots.step`); F's threshold from s is the place p in
        B of the square it hops onto when B hops there with the same facing, else p + 1 (0 for a square marked
        at the start, or a blocked hop). O(S)."""
        level, pos = self.level, self.pos
        for k, op in enumerate(PRIMS):
            e = np.empty(self.S, np.int32)
            v = np.zeros((self.S, self.W), np.uint64)
            h = np.full(self.S, -1, np.int32)
            t = np.zeros(self.S, np.int32)
            for s in range(self.S):
                square, facing = carrots.step(level, (s >> 2, s & 3), op)
                e[s] = 4 * square + facing
                if op == "F" and e[s] != s:
                    v[s, square // 64] = np.uint64(1) << np.uint64(square % 64)
                    place = int(pos[square])
                    if place >= 0:
                        h[s] = place
                        t[s] = place if self.order[place] == e[s] else place + 1
            self._admit(e, v, h, t, 1, (0, k, 0))

    def _loops(self, c: int) -> None:
        body, body_hi = self.bounds[c - 1][0], self.bounds[c - 1][2]
        while body < body_hi:
            upto = min(body_hi, body + 256)
            before = self.rows
            body_at, self.rows, code = kern.build_loops(
                self.ends, self.vis, self.hi, self.th, self.prov, self.costs, self.rows, c, body, upto, self.mkeys,
                self.mrows, self.rkeys, self.rrows, self.r1, self.r2, self.r3, *self.powers,
            )  # fmt: skip
            self._tick((body_at - body) * self.S + (self.rows - before) * self.S, f"loops of cost {c}")
            body = body_at
            if code == 1:
                self.powers = self._power_buffers(2 * len(self.powers[0]))
            elif code == 2:
                self._room(max(len(self.powers[0]), 2 * (self.rows - before) + 1))

    # -- reading back

    def fragment(self, row: int) -> tuple[Statement, ...]:
        """The statements of the fragment stored at `row`."""
        kind, p1, p2 = (int(x) for x in self.prov[:, row])
        if kind == 0:
            return (MOVES[PRIMS[p1]],)
        if kind == 1:
            return (Loop(self.fragment(p1), p2),)
        if kind == 2:
            return self.fragment(p1) + self.fragment(p2)
        return ()


def _bits(mask: int, words: int) -> np.ndarray:
    """The bit mask `mask` as `words` uint64 words (bit i in word i // 64). O(words)."""
    return np.frombuffer(mask.to_bytes(8 * words, "little"), dtype="<u8").astype(np.uint64)


class _Search:
    """The top-level search (rule 3 of the module docstring) over tables of up to m tokens, for programs of
    K = m + 2 tokens (or fewer, K <= 2, with m = 1)."""

    def __init__(self, tables: _Tables, K: int, m: int) -> None:
        self.t, self.K, self.m = tables, K, m
        self.seen = np.full(tables.S, -1, np.int64)
        self.visited = np.empty(tables.S + 1, np.int64)
        self.out = np.zeros(3, np.int64)

    def _finishers(self, rest: int) -> tuple[int, int]:
        """Rows that may end a program with `rest` tokens left: none (an empty range) for 0, else the table."""
        if rest == 0:
            return 0, 0
        lo, _, hi = self.t.bounds[rest]
        return lo, hi

    def _args(self) -> tuple[Any, ...]:
        t = self.t
        return t.ends, t.vis, t.hi, t.th, t.marks_at, t.goal

    def run(self, s: int, dev: int, i: int, m: np.ndarray, left: int, prefix: tuple[Any, ...]) -> tuple | None:
        """The items of a program of `left` tokens from the point that completes the board out of B's order (after
        `prefix`), or None."""
        t = self.t
        scratch = np.empty(t.W, np.uint64)
        for c in range(1, min(left, self.m) + 1):
            x_lo, x_hi, _ = t.bounds[c]
            rest = left - c
            if rest > self.m:  # a command at the start: the rest is a search of its own
                for x in range(x_lo, x_hi):
                    m2 = m.copy()
                    s2, dev2, i2 = kern._apply(t.ends, t.vis, t.hi, t.th, t.marks_at, x, s, dev, i, m2)
                    t._tick(1, "the top level")
                    found = self.run(int(s2), int(dev2), int(i2), m2, rest, (*prefix, ("row", x)))
                    if found is not None:
                        return found
                continue
            f_lo, f_hi = self._finishers(rest)
            step = max(1, CHUNK // (f_hi - f_lo + 1))
            for lo in range(x_lo, x_hi, step):
                hi = min(x_hi, lo + step)
                hit = kern.statements_then(*self._args(), lo, hi, f_lo, f_hi, s, dev, i, m, scratch, self.out)
                t._tick((hi - lo) * (f_hi - f_lo + 1), "the top level")
                if hit == kern.WITNESS:
                    x, f = int(self.out[0]), int(self.out[1])
                    return (*prefix, ("row", x), *((("row", f),) if f_hi > f_lo else ()))
        if self.m + 1 <= left:  # a loop over the fragments of m tokens
            b_lo, _, b_hi = t.bounds[self.m]
            f_lo, f_hi = self._finishers(left - self.m - 1)
            step = max(1, CHUNK // (8 * (f_hi - f_lo + 1)))
            for lo in range(b_lo, b_hi, step):
                hi = min(b_hi, lo + step)
                hit = kern.loops_then(*self._args(), lo, hi, f_lo, f_hi, s, dev, i, m, self.seen, self.visited,
                                      scratch, self.out)  # fmt: skip
                t._tick((hi - lo) * 8 * (f_hi - f_lo + 1), "loops at the top level")
                if hit == kern.WITNESS:
                    b, n, f = (int(x) for x in self.out)
                    return (*prefix, ("loop", b, n), *((("row", f),) if f_hi > f_lo else ()))
        if self.m + 2 == left:  # the whole program one loop: its body a statement and a fragment
            for a in range(1, self.m + 1):
                y_lo, y_hi, _ = t.bounds[a]
                g_lo, _, g_hi = t.bounds[self.m + 1 - a]
                step = max(1, CHUNK // (8 * max(1, g_hi - g_lo)))
                for lo in range(y_lo, y_hi, step):
                    hi = min(y_hi, lo + step)
                    hit = kern.pairs_then(*self._args(), lo, hi, g_lo, g_hi, s, dev, i, m, self.seen, self.visited,
                                          scratch, self.out)  # fmt: skip
                    t._tick((hi - lo) * 8 * (g_hi - g_lo), "final loops")
                    if hit == kern.WITNESS:
                        y, g, n = (int(x) for x in self.out)
                        return (*prefix, ("pair", y, g, n))
        return None

    def program(self, items: tuple) -> Program:
        """The program the items stand for."""
        body: list[Statement] = []
        for item in items:
            if item[0] == "row":
                body += self.t.fragment(item[1])
            elif item[0] == "loop":
                body.append(Loop(self.t.fragment(item[1]), item[2]))
            else:
                body.append(Loop(self.t.fragment(item[1]) + self.t.fragment(item[2]), item[3]))
        return Program(tuple(body))


def other_behaviour(
    level: Level, par: int, program: Program, clock: Clock, *, work: int = WORK, memory_budget: int | None = None
) -> Uniqueness:
    """Does some program of `par` tokens complete `level` marking its squares in another order than `program` does?

    `par` must be the proven optimum and `program` a program of `par` tokens that completes the level (ValueError
    otherwise: the pruning relies on both). Returns a Uniqueness: UNIQUE (proven: every program of `par` tokens that
    completes the level marks in `program`'s order), OTHER with such a program (re-run by the simulator), or
    UNDECIDED when `work` steps or the memory budget (a share of gridbot.solve.memory.memory_budget() by default)
    ran out first. Raises Timeout at the clock's deadline or a stop request, WrongAnswer if a program found does
    not do what the tables say (a bug). Exponential in the par (see the module docstring)."""
    if program.tokens != par or not carrots.run(level, program).verdict.won:
        raise ValueError(f"{program} is not a program of {par} tokens that completes the level")
    order = carrots.marks_in_order(level, program)
    if not order:  # nothing to mark: the empty program, one order
        return Uniqueness(Verdict.UNIQUE, level, order, None, 0)
    budget = int(MEMORY_SHARE * (memory.memory_budget() if memory_budget is None else memory_budget))
    m = max(1, par - 2)
    tables = _Tables(level, order, clock, work, budget)
    try:
        for c in range(1, m + 1):
            tables.build(c)
        search = _Search(tables, par, m)
        start = 4 * level.start + level.start_state[1]
        items = search.run(start, 0, 0, tables.marks_at[0].copy(), par, ())
    except _Undecided as stopped:
        return Uniqueness(Verdict.UNDECIDED, level, order, None, tables.work, str(stopped))
    if items is None:
        return Uniqueness(Verdict.UNIQUE, level, order, None, tables.work)
    other = search.program(items)
    wins = other.tokens == par and carrots.run(level, other).verdict.won
    if not wins or carrots.marks_in_order(level, other) == order:
        raise WrongAnswer(f"{other} was found to complete the level in {par} tokens out of the order of {program}")
    return Uniqueness(Verdict.OTHER, level, order, other, tables.work)


__all__ = ["WORK", "Uniqueness", "Verdict", "other_behaviour"]
