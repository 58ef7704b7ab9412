"""Shortest Carrots programs, with a proof that none is shorter.

>>> import gridbot
>>> from gridbot.solve.carrots import solve
>>> result = solve(gridbot.load("carrots:2"))
>>> result.status, result.length, str(result.program)
('optimal', 4, 'LOOP{F F R}')

How the search works, and why each cut is safe
----------------------------------------------
1. *Marks never steer the bunny.* `F`, `L`, `R` depend only on the board, so a
   program's path is fixed and the board is complete iff the squares it lands on
   (plus those marked at the start) are all of them. Stopping at completion
   changes nothing about *whether* a program completes.
2. *A fragment is a function.* Any piece of program, run from a state
   (square, facing), ends in a fixed state having marked a fixed set of squares.
   We store that function for all 4 x squares states as a row of a table
   (`FragmentTables`), and keep one fragment per distinct function, the first
   (cheapest) found. Two fragments with equal functions can replace each other
   anywhere (in sequence or as a loop body) without changing any run, so keeping
   one loses no program length. This single rule subsumes the syntactic ones
   (`L R` = nothing, `L L` = `R R`, `LOOP(1){X}` = `X`, loops of turns, a loop
   whose body is one loop).
3. *Loop counts are finite in effect.* For a body f, the powers f^1, f^2, ...
   (as whole functions, marks included) are eventually periodic because there
   are finitely many functions; `loop_powers` stops at the first repeat, so
   every count, however large, is represented. Of two counts i < j whose powers
   end alike from every state, j marks a superset from every state at the same
   cost, so i is dropped (dominance; see FragmentTables._build). `LOOP{...}`
   never ends, so only its marks matter, and those equal the marks of a large
   enough count: it is searched as such and printed as `LOOP{...}` when it is
   the last statement.
4. *Fragments of cost c* are: statements of cost c (loops over fragments of cost
   c-1 with every distinct count) and a statement of cost a followed by a
   fragment of cost c-a. With rules 2 and 3 applied at every cost, by
   induction every function reachable at cost <= c is in the tables, or one
   that dominates it (ends alike from every state, marks a superset, costs no
   more), and putting a dominating fragment in place of another, anywhere in a
   program, leaves every later state alike and marks at least as much.
5. *Top level.* A program is a sequence run once from the start, so only the
   state and marks reached after a prefix matter for what follows. Iterative
   deepening on the length K: tables up to m = K-2 are built; the search expands
   the first one or two top-level statements, then asks the tables whether any
   fragment of the remaining budget completes the board. A top-level loop runs
   once, from one state: its iteration states repeat after mu + lam iterations,
   so counts n in [mu, mu+lam) are dominated by n + lam (same end, more marks)
   and only n < mu and n in [mu+lam, mu+2 lam) are tried (`loop_children`).
   The only statement too big for the tables is a final loop of cost K whose
   body costs K-1 = m+1: its body is a statement followed by a table fragment,
   and only its coverage from the start matters (`pair_covers`).
   A length K is declared impossible only after all of this fails, so the first
   K that succeeds is optimal.
6. *A guess can end the proof.* Once K is excluded, the same search for K + 1
   with the tables already built (incomplete, but what it finds is a real
   program) often finds one: K + 1 is then optimal and the larger table is
   never built. Every printed program is re-run by the simulator.

Complexity: dominated by the table for cost K-2, which grows about 6-7x per
token; memory is about 4 x squares x (4 + 8 x words) bytes per fragment.
"""

from __future__ import annotations

import contextlib
import functools
import os
import time
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
from numba.typed import Dict as NumbaDict

from gridbot.games import carrots
from gridbot.games.carrots import Level, Loop, Move, Program, Statement
from gridbot.kernels import carrots as kern
from gridbot.result import SolveResult
from gridbot.solve.search import Clock, Progress, Timeout

PRIMS = "FLR"
PAIR_CHUNK = 50_000
BODIES_PER_CALL = 256
CANDIDATES_PER_CALL = 50_000
MAX_ALL = 100


@dataclass(slots=True)
class _Table:
    """Fragments of one cost: views of rows lo..hi of the store. The first `statements` rows are single statements."""

    ends: np.ndarray  # (k, S) int32
    vis: np.ndarray  # (k, S, W) uint64
    statements: int
    kind: np.ndarray  # 0 primitive (p1 = index in PRIMS), 1 loop (p1 body row, p2 count), 2 sequence
    p1: np.ndarray  # sequence: cost a of the first statement
    p2: np.ndarray  # sequence: its row in table a
    p3: np.ndarray  # sequence: row of the rest in table c - a

    def __len__(self) -> int:
        return self.ends.shape[0]


class MemoryBudget(Exception):
    """The next table would not fit in the memory budget; the deepening stops there."""


def default_memory_budget() -> int:
    """A third of the physical memory, at most 8 GiB (4 GiB if it cannot be read)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 4 * 2**30
    return min(8 * 2**30, total // 3)


class FragmentTables:
    """Every distinct fragment function by cost, built on demand (rules 2-4 of the module doc).

    All rows live in one growing store; the table of cost c is the slice of rows
    added while building cost c. A fingerprint map finds the stored row a new
    function may equal; equality is then checked exactly, so no function is
    ever dropped on a hash match alone.
    """

    def __init__(
        self, level: Level, seed: int = 12345, weak_hash: bool = False, memory_budget: int | None = None
    ) -> None:
        """`weak_hash` (for tests) gives every function the same fingerprint, so that all go through exact checks.

        `memory_budget` bounds the store in bytes (default: a third of the
        machine's memory, at most 8 GiB); MemoryBudget is raised past it.
        """
        self.level = level
        n = level.size
        self.S = 4 * n
        self.W = (n + 63) // 64
        self.row_bytes = self.S * (4 + 8 * self.W) + 32
        self.memory_budget = default_memory_budget() if memory_budget is None else memory_budget
        rng = np.random.default_rng(seed)
        self.r1 = rng.integers(1, 2**63, size=self.S, dtype=np.uint64)
        self.r2 = rng.integers(1, 2**63, size=(self.S, self.W), dtype=np.uint64)
        if weak_hash:
            self.r1[:] = 0
            self.r2[:] = 0
        self.tables: dict[int, _Table] = {}
        self.bounds: dict[int, tuple[int, int, int]] = {}  # cost -> (first row, end row, statements)
        self.built = 0
        self.candidates = 0
        capacity = 1024
        self.ends = np.empty((capacity, self.S), np.int32)
        self.vis = np.empty((capacity, self.S, self.W), np.uint64)
        self.prov = np.zeros((4, capacity), np.int64)  # kind, p1, p2, p3 per row
        self.rows = 0
        self.fp_map = NumbaDict.empty(key_type=numba.types.uint64, value_type=numba.types.int64)
        self.overflow: dict[int, list[int]] = {}  # fingerprint -> further rows sharing it (true collisions)
        self._cand_e = np.empty(self.S, np.int32)
        self._cand_v = np.empty((self.S, self.W), np.uint64)
        # row 0 is the empty fragment (cost 0), so that nothing equal to it is kept
        self.ends[0], self.vis[0] = np.arange(self.S, dtype=np.int32), 0
        self.fp_map[kern.fingerprints(self.ends[:1], self.vis[:1], self.r1, self.r2)[0]] = 0
        self.rows = 1

    # -- the store

    def _grow(self) -> None:
        self._reserve(2 * self.ends.shape[0], required=True)

    def _reserve(self, capacity: int, required: bool = False) -> None:
        """Make room for `capacity` rows, within the memory budget.

        A wish (`required` False) is trimmed to the budget; a need that the
        budget cannot meet raises MemoryBudget.
        """
        most = max(self.ends.shape[0], self.memory_budget // self.row_bytes)
        if capacity > most:
            if required:
                raise MemoryBudget(f"the fragment tables would need more than {self.memory_budget / 2**30:.1f} GiB")
            capacity = most
        if capacity <= self.ends.shape[0]:
            return
        for name in ("ends", "vis"):
            old = getattr(self, name)
            new = np.empty((capacity, *old.shape[1:]), old.dtype)
            new[: self.rows] = old[: self.rows]
            setattr(self, name, new)
        prov = np.zeros((4, capacity), np.int64)
        prov[:, : self.rows] = self.prov[:, : self.rows]
        self.prov = prov
        for cost in self.tables:
            self.tables[cost] = self._view(cost)

    def _view(self, cost: int) -> _Table:
        lo, hi, statements = self.bounds[cost]
        kind, p1, p2, p3 = self.prov[:, lo:hi]
        return _Table(self.ends[lo:hi], self.vis[lo:hi], statements, kind, p1, p2, p3)

    def _store_row(self, ends: np.ndarray, vis: np.ndarray, provenance: tuple[int, int, int, int]) -> None:
        if self.rows >= self.ends.shape[0]:
            self._grow()
        self.ends[self.rows], self.vis[self.rows] = ends, vis
        self.prov[:, self.rows] = provenance
        self.rows += 1

    def _is_stored(self, h: int, ends: np.ndarray, vis: np.ndarray) -> bool:
        others = [self.fp_map[np.uint64(h)], *self.overflow.get(h, [])]
        return any(np.array_equal(self.ends[r], ends) and np.array_equal(self.vis[r], vis) for r in others)

    def _settle(self, clashes: np.ndarray, hashes: np.ndarray, c: int) -> None:
        """Settle candidates whose fingerprint matched a *different* stored row.

        Each is rebuilt from its provenance and compared with every stored row
        of that fingerprint; it is kept if it equals none. (With 64-bit
        fingerprints this practically never runs, but it keeps dedup exact.)
        """
        for (kind, p1, p2, p3), h in zip(clashes.tolist(), hashes.tolist(), strict=True):
            if kind == 1:  # LOOP(p2){body p1 of cost c-1}
                body = self.bounds[c - 1][0] + p1
                be, bv = self.ends[body], self.vis[body]
                e, v = be.copy(), bv.copy()
                for _ in range(p2 - 1):
                    v = v | bv[e]
                    e = be[e]
            else:  # statement p2 of cost p1, then fragment p3 of cost c - p1
                x, g = self.bounds[p1][0] + p2, self.bounds[c - p1][0] + p3
                xe = self.ends[x]
                e, v = self.ends[g][xe], self.vis[x] | self.vis[g][xe]
            if not self._is_stored(h, e, v):
                self.overflow.setdefault(h, []).append(self.rows)
                self._store_row(e, v, (kind, p1, p2, p3))

    def _admit_primitives(self) -> None:
        ends, vis = self.primitive_rows()
        status = np.zeros(3, np.int8)
        hashes = np.zeros(3, np.uint64)
        self.candidates += 3
        self._reserve(self.rows + 3)
        for k in range(3):
            before = self.rows
            _, self.rows = kern.admit_rows(
                ends, vis, k, k + 1, self.ends, self.vis, self.rows, self.fp_map, self.r1, self.r2, status, hashes
            )
            if self.rows > before:
                self.prov[:, before] = (0, k, 0, 0)
            elif status[k] == 2 and not self._is_stored(int(hashes[k]), ends[k], vis[k]):
                self.overflow.setdefault(int(hashes[k]), []).append(self.rows)
                self._store_row(ends[k], vis[k], (0, k, 0, 0))

    def ensure(self, cost: int, clock: Clock | None = None) -> None:
        """Build the tables of every cost up to `cost`."""
        while self.built < cost:
            c = self.built + 1
            lo = self.rows
            # untouched memory costs nothing, so reserve what the next cost likely needs (about 7x the last)
            if c > 1:
                self._reserve(lo + 10 * (self.bounds[c - 1][1] - self.bounds[c - 1][0]) + 1024)
            statements = self._build(c, clock)
            self.bounds[c] = (lo, self.rows, statements)
            self.tables[c] = self._view(c)
            self.built = c

    def _build(self, c: int, clock: Clock | None) -> int:
        """Append the new fragments of cost c to the store; returns how many are single statements.

        Loops first (so that a table's statements come first), then sequences.
        Loop counts: of two counts of the same body with the same end function
        the larger is kept: LOOP(i){f} and LOOP(j){f} cost the same, and for
        i < j the squares marked from every state by i iterations are a subset
        of those marked by j, so when both end in the same state from every
        state, putting LOOP(j) in place of LOOP(i) anywhere leaves every later
        state of any run unchanged and marks at least as much.
        """
        first_row = self.rows
        if c == 1:
            self._admit_primitives()
            return self.rows - first_row
        body_lo, body_hi, _ = self.bounds[c - 1]
        limit = 64
        buffers = self._power_buffers(limit)
        clash = np.empty((4096, 4), np.int64)
        clash_h = np.empty(4096, np.uint64)
        self._reserve(self.rows + 64 * (body_hi - body_lo) + 1024)
        k = body_lo
        while k < body_hi:
            stop = min(body_hi, k + BODIES_PER_CALL)  # calls short enough to check the clock between
            k, self.rows, n_clash, code, examined = kern.build_loops(
                self.ends, self.vis, self.prov, body_lo, k, stop, self.rows, self.fp_map, self.r1, self.r2,
                *buffers, clash, clash_h, 0,
            )  # fmt: skip
            self.candidates += examined
            self._settle(clash[:n_clash], clash_h[:n_clash], c)
            if code == 1:
                self._reserve(self.rows + 2 * limit + self.ends.shape[0], required=True)
            elif code == 2:
                limit *= 2
                buffers = self._power_buffers(limit)
            if clock is not None:
                clock.check(phase=f"loops of cost {c}", candidates=self.candidates)
        statements = self.rows - first_row
        plan = [(a, self.bounds[a], self.bounds[c - a]) for a in range(1, c)]
        self._reserve(self.rows + sum(st * (r_hi - r_lo) for _, (_, _, st), (r_lo, r_hi, _) in plan) + 1024)
        for a, (first_lo, _, first_statements), (rest_lo, rest_hi, _) in plan:
            x = first_lo
            self.candidates += first_statements * (rest_hi - rest_lo)
            clash = np.empty((max(4096, rest_hi - rest_lo), 4), np.int64)
            clash_h = np.empty(len(clash), np.uint64)
            x_hi = first_lo + first_statements
            step = max(1, CANDIDATES_PER_CALL // max(1, rest_hi - rest_lo))
            while x < x_hi:
                x, self.rows, n_clash, code = kern.build_sequences(
                    self.ends, self.vis, self.prov, a, first_lo, x, min(x_hi, x + step), rest_lo, rest_hi,
                    self.rows, self.fp_map, self.r1, self.r2, self._cand_e, self._cand_v, clash, clash_h, 0,
                )  # fmt: skip
                self._settle(clash[:n_clash], clash_h[:n_clash], c)
                if code == 1:
                    self._grow()
                if clock is not None:
                    clock.check(phase=f"sequences of cost {c}", candidates=self.candidates)
        return statements

    def _power_buffers(self, limit: int) -> tuple[np.ndarray, ...]:
        return (
            np.empty((limit, self.S), np.int32),
            np.empty((limit, self.S, self.W), np.uint64),
            np.empty(limit, np.uint64),
            np.empty(limit, np.int64),
        )

    # -- primitives

    def primitive_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """Rows of F, L, R, from the game's own `step` rule."""
        ends = np.zeros((3, self.S), np.int32)
        vis = np.zeros((3, self.S, self.W), np.uint64)
        for square in range(self.level.size):
            for facing in range(4):
                s = 4 * square + facing
                for k, op in enumerate(PRIMS):
                    q, f = carrots.step(self.level, (square, facing), op)
                    ends[k, s] = 4 * q + f
                    if op == "F":
                        vis[k, s, q // 64] |= np.uint64(1) << np.uint64(q % 64)
        return ends, vis

    # -- reading programs back

    def fragment(self, cost: int, row: int) -> tuple[Statement, ...]:
        """The program text (as statements) of fragment `row` of cost `cost`."""
        t = self.tables[cost]
        kind = int(t.kind[row])
        if kind == 0:
            return (Move(PRIMS[int(t.p1[row])]),)
        if kind == 1:
            return (Loop(self.fragment(cost - 1, int(t.p1[row])), int(t.p2[row])),)
        a = int(t.p1[row])
        return self.fragment(a, int(t.p2[row])) + self.fragment(cost - a, int(t.p3[row]))


class _LazyItems:
    """The solution items of loop children, made only for the few children that complete."""

    def __init__(self, prefix: tuple[Any, ...], cost: int, body: np.ndarray, count: np.ndarray) -> None:
        self.prefix, self.cost, self.body, self.count = prefix, cost, body, count

    def __getitem__(self, i: int) -> tuple[Any, ...]:
        return self.prefix + (("loop", self.cost, int(self.body[i]), int(self.count[i])),)


class _Found(Exception):
    """Unwinds the search at the first solution (when not listing all)."""


class _Search:
    """One deepening step: is there a program of at most K tokens? (rule 5 of the module doc)

    With `m` smaller than K - 2 (tables not built that far) the search is a
    heuristic: what it finds is a real program, but failing proves nothing.
    """

    def __init__(self, tables: FragmentTables, K: int, clock: Clock, all_solutions: bool, m: int | None = None) -> None:
        self.t = tables
        self.K = K
        self.m = max(K - 2, 0) if m is None else m
        self.clock = clock
        self.all = all_solutions
        self.solutions: list[tuple[Any, ...]] = []
        self.capped = False
        self.expanded: dict[tuple[int, bytes], int] = {}
        self.children = 0
        level = tables.level
        self.goal = np.zeros(tables.W, np.uint64)
        for i in range(level.size):
            self.goal[i // 64] |= np.uint64(1) << np.uint64(i % 64)
        self.prims = tables.primitive_rows()
        self.seen = np.full(tables.S, -1, np.int64)
        self.traj_s = np.empty(tables.S + 2, np.int64)
        self.traj_v = np.empty((tables.S + 2, tables.W), np.uint64)

    def run(self, s0: int, marks: np.ndarray) -> list[tuple[Any, ...]]:
        with contextlib.suppress(_Found):
            self._expand(s0, marks, self.K, ())
        return self.solutions

    def _report(self, items: tuple[Any, ...]) -> None:
        self.solutions.append(items)
        if not self.all:
            raise _Found
        if len(self.solutions) >= MAX_ALL:
            self.capped = True
            raise _Found

    def _tick(self) -> None:
        self.clock.check(length=self.K, candidates=self.t.candidates + self.children)

    def _expand(self, s: int, marks: np.ndarray, b: int, prefix: tuple[Any, ...]) -> None:
        """Try every program of at most b tokens from (s, marks); here b > m."""
        key = (s, marks.tobytes())
        if self.expanded.get(key, -1) >= b:
            return
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
            for lo in range(0, len(t), BODIES_PER_CALL * 8):
                hi = lo + BODIES_PER_CALL * 8
                body, count, state, m2 = kern.loop_children(
                    t.ends[lo:hi], t.vis[lo:hi], s, marks, self.seen, self.traj_s, self.traj_v
                )
                self.children += len(body)
                self._finish(state, m2, b - 1 - c, _LazyItems(prefix, c, body + lo, count))
                self._tick()
        if b - 1 == self.m + 1:
            self._final_pairs(s, marks, prefix)

    def _finish(self, states: np.ndarray, marks: np.ndarray, r: int, prefixes) -> None:
        """For each child, is it complete, or does a table fragment of cost <= r complete it?"""
        done = (marks == self.goal).all(axis=1)
        for i in np.nonzero(done)[0].tolist():
            self._report(prefixes[i])
        for c in range(1, min(r, self.m) + 1):
            t = self.t.tables[c]
            if not len(t):
                continue
            hit = kern.first_cover(t.vis, states, marks, self.goal)
            for i in np.nonzero((hit >= 0) & ~done)[0].tolist():
                rows = [int(hit[i])]
                if self.all:
                    cover = ((t.vis[:, states[i], :] | marks[i]) == self.goal).all(axis=1)
                    rows = np.nonzero(cover)[0].tolist()
                for k in rows:
                    self._report(prefixes[i] + (("frag", c, k),))
            self._tick()

    def _final_pairs(self, s: int, marks: np.ndarray, prefix: tuple[Any, ...]) -> None:
        """Final loops LOOP{y g} of cost m+2: y a statement of cost a, g a fragment of cost m+1-a."""
        m = self.m
        plans: list[tuple[int, int]] = [(a, m + 1 - a) for a in range(1, m + 1)]
        if m == 0:
            plans.append((1, 0))
        for a, rest_cost in plans:
            first = self.t.tables[a]
            ys = np.arange(first.statements, dtype=np.int64)
            if rest_cost:
                rest = self.t.tables[rest_cost]
                ge, gv, ng = rest.ends, rest.vis, len(rest)
            else:
                ge, gv, ng = first.ends, first.vis, 1
            if not len(ys) or not ng:
                continue
            pairs_y = np.repeat(ys, ng)
            pairs_g = np.tile(np.arange(ng, dtype=np.int64), len(ys)) if rest_cost else np.full(len(ys), -1, np.int64)
            for lo in range(0, len(pairs_y), PAIR_CHUNK):
                py, pg = pairs_y[lo : lo + PAIR_CHUNK], pairs_g[lo : lo + PAIR_CHUNK]
                ok = kern.pair_covers(
                    first.ends, first.vis, py, ge, gv, pg, s, marks, self.goal, self.seen, self.traj_s
                )
                self.children += len(py)
                for i in np.nonzero(ok)[0].tolist():
                    self._report(prefix + (("pair", a, int(py[i]), rest_cost, int(pg[i])),))
                self._tick()

    def program(self, items: tuple[Any, ...]) -> Program:
        """The program a solution's items stand for; a loop that ends it prints as LOOP{...} if that still works."""
        body: list[Statement] = []
        for item in items:
            if item[0] == "op":
                body.append(Move(item[1]))
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
        return smallest_counts(self.t.level, program)


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


def smallest_counts(level: Level, program: Program, tries: int = 400) -> Program:
    """The same program with each loop count lowered, in turn, to the smallest that still completes the level.

    The search keeps, of equal counts' behaviours, the largest count; people
    prefer `LOOP(3)` to `LOOP(19)` when both work. Every change is checked by
    the simulator, so the result completes whenever `program` does. O(loops x
    tries) runs.
    """
    _, loops = _with_count(program.body, -1, 0)
    for target in range(loops):
        for count in range(1, tries):
            body, _ = _with_count(program.body, target, count)
            candidate = Program(body)
            if candidate == program or carrots.run(level, candidate).verdict.won:
                program = candidate
                break
    return program


# ---------------------------------------------------------------- front


def reachable(level: Level) -> set[int]:
    """Squares the bunny can ever stand on: those joined to the start through neighbouring squares. O(squares)."""
    seen = {level.start}
    todo = [level.start]
    while todo:
        sq = todo.pop()
        for facing in range(4):
            nxt = level.hop(sq, facing)
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def greedy(tables: FragmentTables, s0: int, marks: np.ndarray, max_steps: int = 10_000) -> Program | None:
    """A program built by repeatedly appending the table fragment that marks most new squares per token.

    A quick upper bound for when the proof runs out of time; None if a step
    finds no fragment that marks anything new (or no tables are built).
    O(steps x fragments x words).
    """
    goal = np.zeros_like(marks)
    for i in range(tables.level.size):
        goal[i // 64] |= np.uint64(1) << np.uint64(i % 64)
    body: list[Statement] = []
    s, marks = s0, marks.copy()
    for _ in range(max_steps):
        if np.array_equal(marks, goal):
            return Program(tuple(body))
        best: tuple[float, int, int] | None = None
        for cost, t in tables.tables.items():
            if not len(t):
                continue
            gain = np.bitwise_count(t.vis[:, s, :] & ~marks).sum(axis=1)
            k = int(np.argmax(gain))
            if gain[k] and (best is None or gain[k] / cost > best[0]):
                best = (gain[k] / cost, cost, k)
        if best is None:  # nothing near marks anything new: walk to the nearest unmarked square
            moves = _to_nearest_unmarked(tables.level, s, marks)
            if not moves:
                return None
            state = (s // 4, s % 4)
            for op in moves:
                body.append(Move(op))
                state = carrots.step(tables.level, state, op)
                marks[state[0] // 64] |= np.uint64(1) << np.uint64(state[0] % 64)
            s = 4 * state[0] + state[1]
            continue
        _, cost, k = best
        t = tables.tables[cost]
        body.extend(tables.fragment(cost, k))
        marks |= t.vis[k, s]
        s = int(t.ends[k, s])
    return None


def _to_nearest_unmarked(level: Level, s: int, marks: np.ndarray) -> str:
    """Moves (F, L, R) of a shortest hop path from state s to the nearest unmarked square; '' if none. O(squares)."""
    start = s // 4
    back: dict[int, tuple[int, int]] = {start: (start, -1)}
    todo = [start]
    for sq in todo:
        if not int(marks[sq // 64]) >> (sq % 64) & 1:
            headings = []
            while sq != start:
                sq, heading = back[sq]
                headings.append(heading)
            facing, moves = s % 4, ""
            for want in reversed(headings):
                moves += {0: "", 1: "R", 2: "RR", 3: "L"}[(want - facing) % 4] + "F"
                facing = want
            return moves
        for heading in range(4):
            nxt = level.hop(sq, heading)
            if nxt not in back:
                back[nxt] = (sq, heading)
                todo.append(nxt)
    return ""


def walk(level: Level) -> Program:
    """A plain (long) program marking every reachable square: a depth-first tour. O(squares)."""
    ops: list[str] = []
    state = level.start_state
    seen = {level.start}

    def go(target_facing: int) -> None:
        nonlocal state
        turns = (target_facing - state[1]) % 4
        ops.extend({0: "", 1: "R", 2: "RR", 3: "L"}[turns])
        ops.append("F")
        state = (level.hop(state[0], target_facing), target_facing)

    def visit(sq: int) -> None:
        for facing in range(4):
            nxt = level.hop(sq, facing)
            if nxt not in seen:
                seen.add(nxt)
                go(facing)
                visit(nxt)
                go((facing + 2) % 4)

    visit(level.start)
    while ops and ops[-1] != "F":
        ops.pop()
    return Program(tuple(Move(op) for op in ops))


@functools.cache
def warm_up() -> float:
    """Load (or compile) every kernel once per process, by solving a tiny board; returns the seconds it took.

    `solve` calls it before starting its clock, so that a level's time is the
    search's own, not the one-off loading of compiled code.
    """
    start = time.perf_counter()
    # a board whose proof (5 tokens) goes through every kernel, so that none compiles inside a level's clock
    _solve(carrots.Level.parse("###\n# #\n##S##\n  # #\n  ###"), Clock(None), False, None)
    return time.perf_counter() - start


def solve(
    level: Level,
    time_limit: float | None = None,
    all_solutions: bool = False,
    progress: Progress | None = None,
    max_length: int | None = None,
    memory_budget: int | None = None,
) -> SolveResult:
    """A shortest program for `level` and the proof that it is shortest.

    Returns a SolveResult: status 'optimal' (with `solutions` when
    `all_solutions`), 'unsolvable' (a square cannot be reached; stats name it),
    or, when `time_limit` seconds, `max_length` or `memory_budget` bytes (see
    FragmentTables) run out first, 'solved' with the best program found (greedy
    from the tables, or a plain tour) and `lower_bound` = the first length not
    excluded; stats["reason"] says when the memory budget stopped it.
    Exponential in the optimal length (see the module docstring).
    """
    warm_up()
    return _solve(level, Clock(time_limit, progress), all_solutions, max_length, memory_budget)


def _solve(
    level: Level, clock: Clock, all_solutions: bool, max_length: int | None, memory_budget: int | None = None
) -> SolveResult:
    name = level.name
    start_marks = level.initial_marks | (1 << level.start)
    if start_marks == level.goal:
        return SolveResult("carrots", name, "optimal", Program(()), 0, clock.seconds, 0, {"candidates": 0})
    can_reach = reachable(level)
    missing = [sq for sq in range(level.size) if sq not in can_reach and not start_marks >> sq & 1]
    if missing:
        r, c = level.squares[missing[0]]
        stats = {"candidates": 0, "reason": f"square at line {r + 1}, column {c + 1} cannot be reached"}
        return SolveResult("carrots", name, "unsolvable", None, None, clock.seconds, 0, stats)
    tables = FragmentTables(level, memory_budget=memory_budget)
    marks = np.zeros(tables.W, np.uint64)
    for i in range(level.size):
        if start_marks >> i & 1:
            marks[i // 64] |= np.uint64(1) << np.uint64(i % 64)
    s0 = 4 * level.start + level.start_state[1]
    K = 1
    children = 0
    best: Program | None = None  # the shortest program found so far, before the proof reaches it
    stopped = ""  # why the deepening stopped short of a proof, when not the clock

    def result(status: str, program: Program, lower_bound: int, found: tuple[Program, ...] = (), capped=False):
        stats: dict[str, Any] = {"candidates": tables.candidates + children, "fragments": tables.rows - 1}
        if stopped:
            stats["reason"] = stopped
        return SolveResult(
            "carrots", name, status, program, program.tokens, clock.seconds, lower_bound, stats, found, capped
        )

    def first_verified(search: _Search, found: list[tuple[Any, ...]]) -> list[Program]:
        programs: list[Program] = []
        for items in found:
            p = search.program(items)
            if carrots.run(level, p).verdict.won and p not in programs:
                programs.append(p)
        return programs

    try:
        while max_length is None or max_length >= K:
            tables.ensure(max(1, K - 2), clock)
            search = _Search(tables, K, clock, all_solutions)
            found = search.run(s0, marks)
            children += search.children
            if found:
                programs = first_verified(search, found)
                if not programs:
                    raise AssertionError("solver and simulator disagree")  # a bug, never expected
                listed = tuple(programs) if all_solutions else ()
                return result("optimal", programs[0], K, listed, search.capped)
            # every program of K tokens or fewer is now excluded; try K + 1 with the tables at hand (a guess:
            # finding one proves it optimal and spares the larger table the proof would build)
            if not all_solutions and (best is None or best.tokens > K + 1):
                guess = _Search(tables, K + 1, clock, False, m=max(K - 2, 0))
                found = guess.run(s0, marks)
                children += guess.children
                if found and (programs := first_verified(guess, found)):
                    best = programs[0]
                    return result("optimal", best, K + 1)
            K += 1
    except Timeout:
        pass
    except MemoryBudget as exc:
        stopped = str(exc)
    if best is None:
        quick = greedy(tables, s0, marks)
        tour = walk(level)
        best = quick if quick is not None and quick.tokens < tour.tokens else tour
        if not carrots.run(level, best).verdict.won:
            best = tour
    return result("solved", best, K)
