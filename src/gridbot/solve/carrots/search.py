"""The top-level search of one deepening step (rule 5 of the package docstring), and the reading back of the
programs it finds, loop counts lowered."""

from __future__ import annotations

import contextlib
import time
from typing import Any

import numpy as np

from gridbot.deadline import Clock
from gridbot.games import carrots
from gridbot.games.carrots import MOVES, Level, Loop, Program, Statement
from gridbot.kernels import carrots as kern
from gridbot.solve.carrots.settings import Settings
from gridbot.solve.carrots.tables import PRIMS, FragmentTables, _bitset

MAX_ALL = 100  # the most programs `all_solutions` lists; past it the result says it is capped


def cost(items: tuple[Any, ...]) -> int:
    """The tokens of the program a solution's items stand for: a command 1, a loop 1 + its body's cost, a table
    fragment its cost, a final pair loop 1 + both parts'. O(items)."""
    total = 0
    for item in items:
        if item[0] == "op":
            total += 1
        elif item[0] == "loop":
            total += 1 + item[1]
        elif item[0] == "frag":
            total += item[1]
        else:
            total += 1 + item[1] + item[3]
    return total


class _LazyItems:
    """The solution items of loop children, made only for the few children that complete."""

    def __init__(self, prefix: tuple[Any, ...], cost: int, body: np.ndarray, count: np.ndarray) -> None:
        self.prefix, self.cost, self.body, self.count = prefix, cost, body, count

    def __getitem__(self, i: int) -> tuple[Any, ...]:
        return self.prefix + (("loop", self.cost, int(self.body[i]), int(self.count[i])),)


class _Found(Exception):
    """Unwinds the search at the first solution (when not listing all)."""


class _Search:
    """One deepening step: is there a program of at most K tokens? (rule 5 of the package docstring)

    With `m` smaller than K - 2 (tables not built that far) the search is a
    heuristic: what it finds is a real program, but failing proves nothing.
    Its memo of expanded (state, marks) and the loop outcomes it examines at
    once are bounded by shares of the tables' memory budget; a full memo only
    stops remembering (it prunes repeats, nothing else). It reads the settings
    of its tables.
    """

    def __init__(
        self,
        tables: FragmentTables,
        K: int,
        clock: Clock,
        all_solutions: bool,
        m: int | None = None,
        *,
        most: int = MAX_ALL,
        exact: bool = False,
        distinct: bool = False,
    ) -> None:
        self.t = tables
        self.K = K
        self.m = max(K - 2, 0) if m is None else m
        self.clock = clock
        self.all = all_solutions
        self.most = most  # with all_solutions: the most solutions listed (then `capped`)
        self.exact = exact  # list only solutions of exactly K tokens (those of fewer are passed over)
        # list a solution only when it reads back (`program`) to a new program that completes the board: `most`
        # then counts distinct programs; `programs` holds them
        self.distinct = distinct
        self.programs: dict[Program, None] = {}
        self.solutions: list[tuple[Any, ...]] = []
        self.capped = False
        self.expanded: dict[tuple[int, bytes], int] = {}
        self.settings = settings = tables.settings
        self.memo_room = int(settings.memo_share * tables.memory_budget) // (8 * tables.W + 160)
        self.max_children = max(1, int(settings.children_share * tables.memory_budget) // (8 * tables.W + 48))
        self.children = 0
        self.goal = _bitset(tables.level.goal, tables.W)
        self.prims = tables.prims
        self.seen = np.full(tables.S, -1, np.int64)
        self.traj_s = np.empty(tables.S + 2, np.int64)
        self.traj_v = np.empty((tables.S + 2, tables.W), np.uint64)
        # calls of bounded work: a pair's or a loop's orbit from one state is mostly tens of states (at most S)
        orbit = tables.W * min(tables.S, 32)
        self.pair_chunk = max(1, min(settings.pair_chunk, settings.work_per_call // orbit))
        self.loop_chunk = max(1, min(settings.bodies_per_call * 8, settings.work_per_call // orbit))

    def run(self, s0: int, marks: np.ndarray) -> list[tuple[Any, ...]]:
        with contextlib.suppress(_Found):
            self._expand(s0, marks, self.K, ())
        return self.solutions

    def _report(self, items: tuple[Any, ...]) -> None:
        if self.exact and cost(items) != self.K:
            return
        if self.distinct:
            program = self.program(items)
            if program in self.programs or not carrots.run(self.t.level, program).verdict.won:
                return
            self.programs[program] = None
        self.solutions.append(items)
        if not self.all:
            raise _Found
        if len(self.solutions) >= self.most:
            self.capped = True
            raise _Found

    def _tick(self) -> None:
        self.clock.check(length=self.K, candidates=self.t.candidates + self.children)

    def _expand(self, s: int, marks: np.ndarray, b: int, prefix: tuple[Any, ...]) -> None:
        """Try every program of at most b tokens from (s, marks); here b > m."""
        key = (s, marks.tobytes())
        if self.expanded.get(key, -1) >= b:
            return
        if len(self.expanded) < self.memo_room or key in self.expanded:
            self.expanded[key] = b
        self._tick()
        pe, pv = self.prims
        for k, op in enumerate(PRIMS):
            s2 = int(pe[k, s])
            m2 = marks | pv[k, s]
            if s2 == s and np.array_equal(m2, marks):
                continue
            item = prefix + (("op", op),)
            if b - 1 > self.m:
                self._expand(s2, m2, b - 1, item)
            else:
                self._finish(np.array([s2]), m2[None, :], b - 1, [item])
        for c in range(1, min(self.m, b - 1) + 1):
            t = self.t.tables[c]
            lo = 0
            while lo < len(t):
                hi = min(len(t), lo + self.loop_chunk)
                done, body, count, state, m2 = kern.loop_children(
                    t.ends[lo:hi], t.vis[lo:hi], s, marks, self.seen, self.traj_s, self.traj_v, self.max_children
                )
                self.children += len(body)
                self._finish(state, m2, b - 1 - c, _LazyItems(prefix, c, body + lo, count))
                self._tick()
                lo += done
        if b - 1 == self.m + 1:
            self._final_pairs(s, marks, prefix)

    def _finish(self, states: np.ndarray, marks: np.ndarray, r: int, prefixes) -> None:
        """For each child, is it complete, or does a table fragment of cost <= r complete it?"""
        done = (marks == self.goal).all(axis=1)
        complete = np.nonzero(done)[0].tolist()
        if isinstance(prefixes, _LazyItems) and self.all:
            # a loop that completes the board ends the program: every count that gets there reads back as the same
            # program (LOOP{body}, see `program`), so one count of each body is listed
            listed: set[int] = set()
            unique = []
            for i in complete:
                body = int(prefixes.body[i])
                if body not in listed:
                    listed.add(body)
                    unique.append(i)
            complete = unique
        for i in complete:
            self._report(prefixes[i])
        for c in range(1, min(r, self.m) + 1):
            t = self.t.tables[c]
            if not len(t):
                continue
            # children per call, so that a call's time stays bounded (a test stops at the first word that differs,
            # but on a big board whose marks are complete in their first words it reads many)
            step = max(1, self.settings.finish_pairs // (len(t) * max(1, self.t.W // 4)))
            for lo in range(0, len(states), step):
                hit = kern.first_cover(t.vis, states[lo : lo + step], marks[lo : lo + step], self.goal)
                for i in np.nonzero((hit >= 0) & ~done[lo : lo + step])[0].tolist():
                    rows = [int(hit[i])]
                    if self.all:
                        cover = ((t.vis[:, states[lo + i], :] | marks[lo + i]) == self.goal).all(axis=1)
                        rows = np.nonzero(cover)[0].tolist()
                    for k in rows:
                        self._report(prefixes[lo + i] + (("frag", c, k),))
                self._tick()

    def _final_pairs(self, s: int, marks: np.ndarray, prefix: tuple[Any, ...]) -> None:
        """Final loops LOOP{y g} of cost m+2: y a statement of cost a, g a fragment of cost m+1-a.

        The pairs are numbered y-major and taken in bounded chunks (`pair_chunk`).
        """
        m = self.m
        plans: list[tuple[int, int]] = [(a, m + 1 - a) for a in range(1, m + 1)]
        if m == 0:
            plans.append((1, 0))
        for a, rest_cost in plans:
            first = self.t.tables[a]
            if rest_cost:
                rest = self.t.tables[rest_cost]
                ge, gv, ng = rest.ends, rest.vis, len(rest)
            else:
                ge, gv, ng = first.ends, first.vis, 1
            total = first.statements * ng
            for lo in range(0, total, self.pair_chunk):
                pair = np.arange(lo, min(total, lo + self.pair_chunk), dtype=np.int64)
                py = pair // ng
                pg = pair % ng if rest_cost else np.full(len(pair), -1, np.int64)
                ok = kern.pair_covers(
                    first.ends, first.vis, py, ge, gv, pg, s, marks, self.goal, self.seen, self.traj_s
                )
                self.children += len(py)
                for i in np.nonzero(ok)[0].tolist():
                    self._report(prefix + (("pair", a, int(py[i]), rest_cost, int(pg[i])),))
                self._tick()

    def program(self, items: tuple[Any, ...], deadline: float | None = None) -> Program:
        """The program a solution's items stand for; a loop that ends it prints as LOOP{...} if that still works.

        Counts are then lowered (`smallest_counts`) until `deadline` (a
        time.monotonic() value; None: no limit).
        """
        body: list[Statement] = []
        for item in items:
            if item[0] == "op":
                body.append(MOVES[item[1]])
            elif item[0] == "loop":
                body.append(Loop(self.t.fragment(item[1], item[2]), item[3]))
            elif item[0] == "frag":
                body.extend(self.t.fragment(item[1], item[2]))
            else:
                _, a, y, rest_cost, g = item
                inner = self.t.fragment(a, y) + (self.t.fragment(rest_cost, g) if rest_cost else ())
                body.append(Loop(inner, None))
        program = Program(tuple(body))
        last = body[-1] if body else None
        if isinstance(last, Loop) and last.count is not None:
            unbounded = Program(tuple(body[:-1]) + (Loop(last.body, None),))
            if carrots.run(self.t.level, unbounded).verdict.won:
                program = unbounded
        return smallest_counts(self.t.level, program, self.settings.count_tries, deadline)


def _with_count(body: tuple[Statement, ...], target: int, count: int) -> tuple[tuple[Statement, ...], int]:
    """`body` with its `target`-th bounded loop (pre-order) given `count`; also the number of bounded loops seen."""
    out: list[Statement] = []
    seen = 0
    for stmt in body:
        if isinstance(stmt, Loop):
            here = seen
            seen += stmt.count is not None
            inner, inside = _with_count(stmt.body, target - seen, count)
            new_count = count if stmt.count is not None and here == target else stmt.count
            out.append(Loop(inner, new_count))
            seen += inside
        else:
            out.append(stmt)
    return tuple(out), seen


def smallest_counts(level: Level, program: Program, tries: int | None = None, deadline: float | None = None) -> Program:
    """The same program with each loop count lowered, in turn, to the smallest that still completes the level.

    The search keeps, of equal counts' behaviours, the largest count; people
    prefer `LOOP(3)` to `LOOP(19)` when both work. Every change is checked by
    the simulator, so the result completes whenever `program` does. O(loops x
    tries) runs (counts 1 to tries - 1 a loop; default `Settings().count_tries`),
    stopping (with the counts lowered so far) once time.monotonic() passes
    `deadline`.
    """
    tries = Settings().count_tries if tries is None else tries
    _, loops = _with_count(program.body, -1, 0)
    for target in range(loops):
        for count in range(1, tries):
            if deadline is not None and time.monotonic() > deadline:
                return program
            body, _ = _with_count(program.body, target, count)
            candidate = Program(body)
            if candidate == program or carrots.run(level, candidate).verdict.won:
                program = candidate
                break
    return program
