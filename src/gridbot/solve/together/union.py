"""Carrots together: the shortest program that covers every board of a set, by fragment tables on their union.

The Carrots solver's cuts (gridbot.solve.carrots, rules 2 to 4) keep one fragment per *function*: where a
fragment, run from each state of the board, ends and which squares it marks. On one board they are unsound for a
set of boards: two fragments alike on board 1 may differ on board 2. Here the state space is the disjoint union
of the boards' states (board i, square, facing), so a function says what a fragment does on *every* board of the
set at once, and each cut holds for the set:

- *Equal functions* (same end and same marks from every state of every board) can replace each other anywhere
  in a program, on every board: one is kept, the first (cheapest) found.
- *Loop counts.* The powers g, g^2, ... of a body g, as whole functions on the union, are eventually periodic
  (finitely many functions), so the powers up to the first repeat stand for every count. Of two powers with the
  same end from every state, the larger marks a superset from every state (it runs the smaller first): the
  smaller is dropped (dominance). The largest power kept marks all that the unbounded `LOOP{g}` marks.
- *Fragments of cost c* are the loops over fragments of cost c - 1 (every power kept) and a statement of cost
  a followed by a fragment of cost c - a. Putting a dominating fragment in place of another leaves every later
  state alike and marks at least as much, so by induction every function of cost <= c is in the tables or
  dominated by one that is.
- *Top level.* The program runs once, from the tuple of start states (one per board); only that tuple and the
  squares marked so far matter for what follows (a memo keeps one visit per tuple, marks and budget). With
  tables up to cost m = K - 1 a program of at most K tokens is a table fragment, or a statement followed by a
  table fragment, or one loop of cost K whose body is in the table, and a final loop's marks from one state are
  those of its trajectory until it repeats (`_final_loops`). So failing at K excludes every length <= K.

Every board's squares are in the goal: the program wins when the union of its marks covers them (the run stops
at completion on each board, which changes nothing about whether it completes). Only `gridbot.games.carrots.step`
(the rule of F, L and R) is read; everything else is composition of functions.

Complexity: the table of cost K - 1 dominates; it grows roughly 6-10x per token (more than on one board: the
union tells more fragments apart), each row holding 4 x squares x (4 + 8 x words) bytes.

>>> import gridbot
>>> from gridbot.deadline import Clock
>>> tables = UnionTables([gridbot.load("carrots:1"), gridbot.load("carrots:2")], Clock(None), max_rows=10**6)
>>> tables.ensure(2)
>>> [len(tables.ends[c]) for c in (1, 2)]
[3, 7]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from gridbot.deadline import Clock
from gridbot.games import carrots
from gridbot.games.carrots import MOVES, Level, Loop, Program, Statement
from gridbot.solve.carrots.tables import TablesStopped

PRIMS = "FLR"


@dataclass(frozen=True, slots=True)
class Origin:
    """How a table row was made: a primitive (`op`), a loop (`body` = (cost, row), `count`; None: unbounded) or a
    statement followed by a fragment (`head`, `tail`, each (cost, row))."""

    op: str = ""
    body: tuple[int, int] | None = None
    count: int | None = None
    head: tuple[int, int] | None = None
    tail: tuple[int, int] | None = None


class UnionTables:
    """Fragment tables over the disjoint union of the boards' states (see the module docstring).

    `ends[c]` (rows x N int32) and `vis[c]` (rows x N x W uint64) hold the functions of the fragments of cost c
    kept, `statement[c]` which rows are statements (primitives and loops), `origin[c]` how each was made. A
    table past `max_rows` rows in all raises TablesStopped (the caller answers unproven)."""

    def __init__(self, levels: list[Level], clock: Clock, max_rows: int) -> None:
        self.levels = levels
        self.clock = clock
        self.max_rows = max_rows
        self.state_base: list[int] = []
        self.square_base: list[int] = []
        n = b = 0
        for level in levels:
            self.state_base.append(n)
            self.square_base.append(b)
            n += 4 * level.size
            b += level.size
        self.N, self.B = n, b
        self.W = max(1, (b + 63) // 64)
        self.square_of = np.zeros(n, np.int64)  # union square of each union state
        for i, level in enumerate(levels):
            for sq in range(level.size):
                for facing in range(4):
                    self.square_of[self.state_base[i] + 4 * sq + facing] = self.square_base[i] + sq
        self.ends: dict[int, np.ndarray] = {}
        self.vis: dict[int, np.ndarray] = {}
        self.statement: dict[int, np.ndarray] = {}
        self.origin: dict[int, list[Origin]] = {}
        self.seen: set[bytes] = set()
        self.built = 0
        self.candidates = 0
        self.rows = 0

    # ------------------------------------------------------------ building

    def bits(self, squares: np.ndarray) -> np.ndarray:
        """Mark words (len(squares) x W) with one bit set per union square."""
        out = np.zeros((len(squares), self.W), np.uint64)
        out[np.arange(len(squares)), squares // 64] = np.left_shift(np.uint64(1), (squares % 64).astype(np.uint64))
        return out

    def _prims(self) -> tuple[np.ndarray, np.ndarray]:
        ends = np.empty((3, self.N), np.int32)
        for k, op in enumerate(PRIMS):
            for i, level in enumerate(self.levels):
                base = self.state_base[i]
                for sq in range(level.size):
                    for facing in range(4):
                        sq2, f2 = carrots.step(level, (sq, facing), op)
                        ends[k, base + 4 * sq + facing] = base + 4 * sq2 + f2
        here = self.bits(self.square_of)
        vis = np.stack([here | self.bits(self.square_of[ends[k]]) for k in range(3)])
        return ends, vis

    def _keep(self, ends: np.ndarray, vis: np.ndarray) -> bool:
        """Whether this function is new (then it is remembered)."""
        self.candidates += 1
        key = ends.tobytes() + vis.tobytes()
        if key in self.seen:
            return False
        self.seen.add(key)
        return True

    def ensure(self, m: int) -> None:
        """Build the tables up to cost m (Timeout past the clock's deadline, TablesStopped past `max_rows`)."""
        while self.built < m:
            self._build(self.built + 1)
            self.built += 1

    def _build(self, c: int) -> None:
        ends_out: list[np.ndarray] = []
        vis_out: list[np.ndarray] = []
        is_stmt: list[bool] = []
        origin: list[Origin] = []

        def add(e: np.ndarray, v: np.ndarray, stmt: bool, how: Origin) -> None:
            if self._keep(e, v):
                ends_out.append(e)
                vis_out.append(v)
                is_stmt.append(stmt)
                origin.append(how)
                self.rows += 1
                if self.rows > self.max_rows:
                    raise TablesStopped(f"the tables passed {self.max_rows:,} fragments")

        if c == 1:
            pe, pv = self._prims()
            for k, op in enumerate(PRIMS):
                add(pe[k], pv[k], True, Origin(op=op))
        else:
            self._loops(c, add)
            for a in range(1, c):
                heads = np.nonzero(self.statement[a])[0]
                te, tv = self.ends[c - a], self.vis[c - a]
                for h in heads.tolist():
                    he, hv = self.ends[a][h], self.vis[a][h]
                    ce = te[:, he]
                    cv = tv[:, he, :] | hv[None]
                    for t in range(len(te)):
                        add(ce[t], cv[t], False, Origin(head=(a, h), tail=(c - a, t)))
                    self.clock.check(phase=f"tables of cost {c}", candidates=self.candidates)
        self.ends[c] = np.array(ends_out, np.int32).reshape(len(ends_out), self.N)
        self.vis[c] = np.array(vis_out, np.uint64).reshape(len(vis_out), self.N, self.W)
        self.statement[c] = np.array(is_stmt, bool)
        self.origin[c] = origin

    def _loops(self, c: int, add: Any) -> None:
        """Loops of cost c over the fragments of cost c - 1, every power up to the first repeat, the powers
        dominated by a larger one with the same ends dropped."""
        be, bv = self.ends[c - 1], self.vis[c - 1]
        for g in range(len(be)):
            ge, gv = be[g], bv[g]
            powers: list[tuple[np.ndarray, np.ndarray]] = [(ge, gv)]
            met = {ge.tobytes() + gv.tobytes()}
            while True:
                pe, pv = powers[-1]
                ne, nv = ge[pe], pv | gv[pe]
                key = ne.tobytes() + nv.tobytes()
                if key in met:
                    break
                met.add(key)
                powers.append((ne, nv))
                if len(powers) % 256 == 0:
                    self.clock.check(phase=f"loops of cost {c}", candidates=self.candidates)
            last_of_ends: dict[bytes, int] = {}
            for k, (pe, _) in enumerate(powers):
                last_of_ends[pe.tobytes()] = k
            for k in sorted(last_of_ends.values()):
                if k == 0:
                    continue  # LOOP(1){g} is g itself
                add(powers[k][0], powers[k][1], True, Origin(body=(c - 1, g), count=k + 1))
            self.clock.check(phase=f"loops of cost {c}", candidates=self.candidates)

    # ------------------------------------------------------------ reading back

    def fragment(self, cost: int, row: int) -> tuple[Statement, ...]:
        """The statements of a row."""
        how = self.origin[cost][row]
        if how.op:
            return (MOVES[how.op],)
        if how.body is not None:
            return (Loop(self.fragment(*how.body), how.count),)
        assert how.head is not None and how.tail is not None
        return self.fragment(*how.head) + self.fragment(*how.tail)


class UnionSearch:
    """Is there a program of at most K tokens covering every board? With tables up to m >= K - 1 the answer is
    exact (see the module docstring); with a smaller m what it finds is real but failing proves nothing."""

    def __init__(self, tables: UnionTables, K: int, m: int) -> None:
        self.t = tables
        self.K = K
        self.m = m
        self.memo: dict[tuple[tuple[int, ...], bytes], int] = {}
        goal = np.zeros(tables.W, np.uint64)
        for w in range(tables.W):
            low = 64 * w
            count = min(64, tables.B - low)
            goal[w] = np.uint64((1 << count) - 1) if count > 0 else np.uint64(0)
        self.goal = goal
        self.children = 0

    def start(self) -> tuple[tuple[int, ...], np.ndarray]:
        t = self.t
        states = []
        marks = np.zeros(t.W, np.uint64)
        for i, level in enumerate(t.levels):
            states.append(t.state_base[i] + 4 * level.start + int(level.start_state[1]))
            initial = carrots.marked_at_start(level)
            squares = np.array([t.square_base[i] + sq for sq in range(level.size) if initial[sq]], np.int64)
            if len(squares):
                marks |= np.bitwise_or.reduce(t.bits(squares), axis=0)
        return tuple(states), marks

    def run(self) -> tuple[Statement, ...] | None:
        states, marks = self.start()
        return self._expand(states, marks, self.K)

    def _covers(self, marks: np.ndarray) -> bool:
        return bool(np.array_equal(marks, self.goal))

    def _expand(self, states: tuple[int, ...], marks: np.ndarray, b: int) -> tuple[Statement, ...] | None:
        t = self.t
        if self._covers(marks):
            return ()
        key = (states, marks.tobytes())
        if self.memo.get(key, -1) >= b:
            return None
        self.memo[key] = b
        t.clock.check(length=self.K, candidates=t.candidates + self.children)
        idx = np.array(states, np.int64)
        for c in range(1, min(b, self.m) + 1):  # a table fragment ends the program
            if not len(t.ends[c]):
                continue
            reach = np.bitwise_or.reduce(t.vis[c][:, idx, :], axis=1) | marks[None]
            self.children += len(reach)
            hit = np.nonzero((reach == self.goal[None]).all(axis=1))[0]
            if len(hit):
                return t.fragment(c, int(hit[0]))
        if b <= self.m:
            return None
        if 1 <= b - 1 <= self.m and (found := self._final_loops(idx, marks, b - 1)) is not None:
            return found
        for a in range(1, min(b - 1, self.m) + 1):  # a statement, then the rest
            ends, vis = t.ends[a], t.vis[a]
            for h in np.nonzero(t.statement[a])[0].tolist():
                after = tuple(int(s) for s in ends[h, idx])
                m2 = marks | np.bitwise_or.reduce(vis[h, idx, :], axis=0)
                self.children += 1
                rest = self._expand(after, m2, b - a)
                if rest is not None:
                    return t.fragment(a, h) + rest
        return None

    def _final_loops(self, idx: np.ndarray, marks: np.ndarray, cost: int) -> tuple[Statement, ...] | None:
        """`LOOP{g}` for every fragment g of `cost`: its marks from the start tuple are those of each board's
        trajectory of g until the state repeats (at most 4 x squares iterations on a board)."""
        t = self.t
        ends, vis = t.ends[cost], t.vis[cost]
        if not len(ends):
            return None
        rows = np.arange(len(ends))
        cur = np.repeat(idx[None], len(ends), axis=0)  # rows x boards
        acc = np.repeat(marks[None], len(ends), axis=0)
        longest = max(4 * level.size for level in t.levels) + 1
        for _ in range(longest):
            acc |= np.bitwise_or.reduce(vis[rows[:, None], cur, :], axis=1)
            cur = ends[rows[:, None], cur]
        self.children += len(ends)
        hit = np.nonzero((acc == self.goal[None]).all(axis=1))[0]
        if len(hit):
            return (Loop(t.fragment(cost, int(hit[0])), None),)
        return None


def smallest_counts(levels: list[Level], program: Program, tries: int = 64) -> Program:
    """The same program with each bounded loop's count lowered, in turn, to the smallest that still completes
    every board (each change checked by the simulator on every board). O(loops x tries x boards) runs."""

    def recount(body: tuple[Statement, ...], target: list[int], count: int) -> tuple[Statement, ...]:
        out: list[Statement] = []
        for stmt in body:
            if isinstance(stmt, Loop):
                here = target[0]
                target[0] -= stmt.count is not None
                inner = recount(stmt.body, target, count)
                out.append(Loop(inner, count if stmt.count is not None and here == 0 else stmt.count))
            else:
                out.append(stmt)
        return tuple(out)

    def loops(body: tuple[Statement, ...]) -> int:
        return sum((s.count is not None) + loops(s.body) for s in body if isinstance(s, Loop))

    for target in range(loops(program.body)):
        for count in range(1, tries):
            candidate = Program(recount(program.body, [target], count))
            if candidate == program or all(carrots.run(level, candidate).verdict.won for level in levels):
                program = candidate
                break
    return program


class Deepening:
    """The deepening over lengths, keeping what it has excluded so far for a caller that is stopped."""

    def __init__(self, levels: list[Level], clock: Clock, max_rows: int) -> None:
        self.tables = UnionTables(levels, clock, max_rows)
        self.levels = levels
        self.lower = 1  # the first length not excluded
        self.children = 0

    @property
    def candidates(self) -> int:
        return self.tables.candidates + self.children

    def run(self, start: int, max_length: int | None) -> Program | None:
        """The first program found from length `start` (every shorter length excluded by the caller), lengths
        searched in turn up to `max_length`; None when none up to it. `lower` tracks the lengths excluded."""
        K = max(1, start)
        self.lower = K
        while max_length is None or max_length >= K:
            self.tables.ensure(max(1, K - 1))
            exact = UnionSearch(self.tables, K, max(K - 1, 1))
            found = exact.run()
            self.children += exact.children
            if found is not None:
                return Program(found)
            self.lower = K + 1
            if K >= 2 and (max_length is None or max_length >= K + 1):  # a guess at K + 1 with the tables at hand
                guess = UnionSearch(self.tables, K + 1, K - 1)
                found = guess.run()
                self.children += guess.children
                if found is not None:
                    return Program(found)
            K += 1
        return None
