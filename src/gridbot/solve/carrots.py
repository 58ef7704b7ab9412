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

Limits (every board the format allows, up to 1000 x 1000)
---------------------------------------------------------
- *Memory.* The tables get a share of `gridbot.solve.memory.memory_budget()`
  (which respects RLIMIT_AS and cgroup limits): the store is allocated once at
  that size (pages never written cost nothing, rows never move); the search's
  memo and the loop outcomes it holds at once get shares too. A board whose
  first tables do not fit (or whose single function would exceed
  `Settings.max_state_bytes`) skips the tables; a table that outgrows the budget stops
  the deepening. Either way the answer is 'solved' with stats["reason"].
- *Time.* The clock starts first; loading the kernels, setting up the tables
  and every kernel call (bounded to `Settings.work_per_call` words) are
  followed by a look at it. The finishing work (smaller counts, the greedy
  program) stops a little past the deadline (`Settings.grace_*`), well inside
  the slack of max(1 s, 10 %) that the time bound allows.
- *Fallback.* A depth-first tour (iterative, cut after the last square it
  must mark, runs of F written as loops) answers whenever the proof does not.
  It marks every square by construction; the greedy program, shorter when it
  works, is re-run by the simulator before it is returned.
"""

from __future__ import annotations

import contextlib
import functools
import re
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from gridbot.deadline import Clock, Progress, Timeout
from gridbot.errors import WrongAnswer
from gridbot.games import carrots
from gridbot.games.carrots import MOVES, Level, Loop, Program, Statement
from gridbot.kernels import carrots as kern
from gridbot.result import SolveResult, Status
from gridbot.solve import memory

PRIMS = "FLR"
MAX_ALL = 100  # the most programs `all_solutions` lists; past it the result says it is capped
MIN_ROWS = 8  # a store of fewer rows cannot hold the tables of cost 1


@dataclass(frozen=True, slots=True)
class Settings:
    """How the solver spends its time and memory. None of them changes which length is proven shortest: they
    change how fast, when the tables stop for memory, and how long the finishing work may take."""

    # table words a kernel call may go through (tens of milliseconds at most), so that the clock is read often
    work_per_call: int = 2**23
    # loop bodies per build_loops call, at most: a body's powers are many when its cycles are long, so the words
    # bound alone would let one call run long
    bodies_per_call: int = 256
    # final-loop pairs per pair_covers call, at most (fewer when work_per_call allows fewer)
    pair_chunk: int = 50_000
    # (child, fragment) coverage tests per first_cover call: a test stops at the first word that differs, but on
    # a big board whose marks are complete in their first words it reads many
    finish_pairs: int = 2**22
    # shares of the memory budget: the fragment store with its fingerprint map and loop power buffers (what
    # decides how far the proof gets); the top-level search's memo of expanded (state, marks), which only prunes
    # repeats; the outcomes of top-level loops examined at once. The rest is slack for the interpreter.
    table_share: float = 0.75
    memo_share: float = 1 / 8
    children_share: float = 1 / 16
    # of the tables' share, what the loop power buffers get (the store gets the rest): a body's distinct powers
    # are few on most boards, and the store is what the tables grow in
    power_share: float = 1 / 4
    # rows the fingerprint map is first made for: it doubles as the store fills, so a small board's map stays
    # small and a big board's is rehashed only a few times
    first_map_rows: int = 1024
    # the largest function (every state's end and marks; about squares^2 / 2 bytes) the tables take: past it
    # (boards of more than about 11,500 squares) each table step touches hundreds of megabytes, too slow to keep
    # a time limit, and a store that fits in memory holds too few rows to prove more than a few tokens
    max_state_bytes: int = 2**26
    # the finishing work (lowering loop counts, the greedy program) may go past the deadline by grace_share of
    # the limit, at least grace_min and at most grace_max seconds: well inside the time bound's slack of
    # max(1 s, 10 %), and enough to turn a found program into a readable one
    grace_min: float = 0.1
    grace_share: float = 0.05
    grace_max: float = 0.5
    # seconds the greedy program may take when there is no time limit: it is a fallback, and past a couple of
    # seconds the tour is the better answer to wait for
    greedy_untimed: float = 2.0
    # the first solve of a process loads the compiled kernels (0.5 to 1 s) under its clock; with less time left
    # than this it does not start them (the plain tour answers), so that loading ends well inside the slack
    warm_up_min_left: float = 0.5
    # from this many squares the compiled tour, loaded alone from numba's cache (about 0.4 s), beats the plain
    # one, even before the other kernels are loaded
    kernel_tour_squares: int = 200_000
    # lowering a loop's count (`smallest_counts`) tries the counts below this: people prefer LOOP(3) to
    # LOOP(19), and each try is a run of the simulator
    count_tries: int = 400


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


class TablesStopped(Exception):
    """The fragment tables stop short (their message says why); the solver answers with what it has."""


class MemoryBudget(TablesStopped):
    """The next table would not fit in the memory budget; the deepening stops there."""


def _gib(size: float) -> str:
    """Bytes in GiB, to the MiB: `0.003 GiB`, `11,590.431 GiB`."""
    return f"{size / 2**30:,.3f} GiB"


@dataclass(frozen=True, slots=True)
class _Sizes:
    """Bytes the tables of a level take: per function (`state`: every state's end and marks), per store row (with its
    provenance and fingerprint-map slots), per loop power row, and fixed (hash weights, primitives, scratch rows);
    with the settings that share the budget out."""

    state: int
    row: int
    power: int
    fixed: int
    settings: Settings

    @classmethod
    def of(cls, level: Level, settings: Settings) -> _Sizes:
        S, W = 4 * level.size, (level.size + 63) // 64
        state = S * (4 + 8 * W)
        return cls(state, state + 4 * 8 + 4 * 16, state + 3 * 8, 6 * state + 40 * S + 4096, settings)

    def _store_share(self) -> float:
        return self.settings.table_share * (1 - self.settings.power_share)

    def store_rows(self, budget: int) -> int:
        """Rows of the store that `budget` bytes allow (the tables' share of it, less the power buffers and fixed
        part)."""
        return max(0, int(self._store_share() * budget - self.fixed) // self.row)

    def power_rows(self, budget: int) -> int:
        """Rows of the loop power buffers that `budget` bytes allow."""
        return int(self.settings.table_share * self.settings.power_share * budget) // self.power

    def check(self, budget: int) -> None:
        """Raise MemoryBudget if a function is larger than `settings.max_state_bytes` or even the first tables
        (MIN_ROWS rows) do not fit in `budget` bytes."""
        most = self.settings.max_state_bytes
        if self.state > most:
            raise MemoryBudget(
                f"a fragment function of this board takes {self.state / 2**20:,.0f} MiB, more than the"
                f" {most / 2**20:,.0f} MiB the tables take (they would not get past a few tokens)"
            )
        if self.store_rows(budget) < MIN_ROWS:
            need = (self.fixed + MIN_ROWS * self.row) / self._store_share()
            raise MemoryBudget(
                f"the first fragment tables would need {_gib(need)} of memory, more than the budget of {_gib(budget)}"
            )


def _bitset(mask: int, words: int) -> np.ndarray:
    """The bit mask `mask` as `words` uint64 words (bit i of the mask is bit i % 64 of word i // 64). O(words)."""
    return np.frombuffer(mask.to_bytes(8 * words, "little"), dtype="<u8").astype(np.uint64)


def _hops_array(level: Level) -> np.ndarray:
    """The level's hop table (`hops[4 x square + facing]`, the rule of F) as an int64 array. O(squares)."""
    return np.array(level.hops, dtype=np.int64)


class FragmentTables:
    """Every distinct fragment function by cost, built on demand (rules 2-4 of the module doc).

    All rows live in one growing store; the table of cost c is the slice of rows
    added while building cost c. A fingerprint map finds the stored row a new
    function may equal; equality is then checked exactly, so no function is
    ever dropped on a hash match alone.
    """

    def __init__(
        self,
        level: Level,
        seed: int = 12345,
        weak_hash: bool = False,
        memory_budget: int | None = None,
        clock: Clock | None = None,
        settings: Settings | None = None,
    ) -> None:
        """`weak_hash` (for tests) gives every function the same fingerprint, so that all go through exact checks.

        `memory_budget` bounds what the tables and the search allocate, in
        bytes (default `gridbot.solve.memory.memory_budget()`, which respects
        RLIMIT_AS and cgroup limits); the store, its map and the loop power
        buffers get `settings.table_share` of it. MemoryBudget is raised when
        even the first tables do not fit, and later when a table outgrows it.
        On a big board each set-up step touches up to a few hundred megabytes,
        so `clock` (if given) is checked between them (Timeout). `settings`
        (default `Settings()`) also bounds the work of each kernel call; the
        search of the same solve reads them from here.
        """
        self.level = level
        self.settings = settings = Settings() if settings is None else settings
        n = level.size
        self.S = 4 * n
        self.W = (n + 63) // 64
        self.sizes = _Sizes.of(level, settings)
        self.memory_budget = memory.memory_budget() if memory_budget is None else memory_budget
        self.sizes.check(self.memory_budget)
        rng = np.random.default_rng(seed)
        self.r1 = rng.integers(1, 2**63, size=self.S, dtype=np.uint64)
        self.r2 = rng.integers(1, 2**63, size=(self.S, self.W), dtype=np.uint64)
        if weak_hash:
            self.r1[:] = 0
            self.r2[:] = 0
        self._check(clock)
        self.prims = self.primitive_rows()
        self._check(clock)
        self.tables: dict[int, _Table] = {}
        self.bounds: dict[int, tuple[int, int, int]] = {}  # cost -> (first row, end row, statements)
        self.built = 0
        self.candidates = 0
        self._powers: tuple[np.ndarray, ...] = ()  # loop power buffers, made when first needed
        # the store is allocated once, as large as the budget allows: pages never written cost no memory, and rows
        # never move, so the tables' views stay valid and no growth copies gigabytes outside the clock's sight
        self.capacity = self.sizes.store_rows(self.memory_budget)
        while True:
            try:
                self.ends = np.empty((self.capacity, self.S), np.int32)
                self.vis = np.empty((self.capacity, self.S, self.W), np.uint64)
                self.prov = np.zeros((4, self.capacity), np.int64)  # kind, p1, p2, p3 per row
                break
            except MemoryError:  # the system refuses even address space (strict overcommit): ask for less
                self.capacity //= 2
                if self.capacity < MIN_ROWS:
                    raise self._full() from None
        self.fp_keys = np.zeros(kern.map_slots(min(self.capacity, settings.first_map_rows)), np.uint64)
        self.fp_rows = np.full(len(self.fp_keys), -1, np.int64)
        self.overflow: dict[int, list[int]] = {}  # fingerprint -> further rows sharing it (true collisions)
        self._cand_e = np.empty(self.S, np.int32)
        self._cand_v = np.empty((self.S, self.W), np.uint64)
        # row 0 is the empty fragment (cost 0), so that nothing equal to it is kept
        self.ends[0], self.vis[0] = np.arange(self.S, dtype=np.int32), 0
        kern.map_put(self.fp_keys, self.fp_rows, kern.fingerprints(self.ends[:1], self.vis[:1], self.r1, self.r2)[0], 0)
        self.rows = 1
        self._check(clock)

    @staticmethod
    def _check(clock: Clock | None) -> None:
        if clock is not None:
            clock.check(phase="setting up the tables")

    # -- the store

    def _full(self) -> MemoryBudget:
        return MemoryBudget(f"the fragment tables would need more than {_gib(self.memory_budget)}")

    def _limit(self) -> int:
        """Rows the kernels may fill now: the store's capacity, or fewer while the fingerprint map is small."""
        return min(self.capacity, len(self.fp_keys) // 2)

    def _make_room(self, need: int) -> None:
        """Room for `need` rows in all: MemoryBudget past the store's capacity; the fingerprint map at least doubles
        (O(rows) rehash) when it would be more than half full."""
        if need > self.capacity:
            raise self._full()
        if 2 * need > len(self.fp_keys):
            slots = kern.map_slots(min(self.capacity, max(need, 2 * self.rows)))
            keys, rows = np.zeros(slots, np.uint64), np.full(slots, -1, np.int64)
            kern.map_move(self.fp_keys, self.fp_rows, keys, rows)
            self.fp_keys, self.fp_rows = keys, rows

    def _store(self) -> tuple[np.ndarray, np.ndarray]:
        """The store's ends and marks as far as the kernels may fill them now (see _limit)."""
        limit = self._limit()
        return self.ends[:limit], self.vis[:limit]

    def _power_buffers(self) -> tuple[np.ndarray, ...]:
        """The loop power buffers: allocated once, at their share of the budget (a body's distinct powers can
        number far more than the states: the period of f, f^2, ... is the lcm of f's cycle lengths); MemoryBudget if
        that is fewer than 2 rows."""
        if not self._powers:
            limit = self.sizes.power_rows(self.memory_budget)
            if limit < 2:
                raise self._full()
            try:
                self._powers = (
                    np.empty((limit, self.S), np.int32),
                    np.empty((limit, self.S, self.W), np.uint64),
                    np.empty(limit, np.uint64),
                    np.empty(limit, np.uint64),
                    np.empty(limit, np.int64),
                )
            except MemoryError:
                raise self._full() from None
        return self._powers

    def _view(self, cost: int) -> _Table:
        lo, hi, statements = self.bounds[cost]
        kind, p1, p2, p3 = self.prov[:, lo:hi]
        return _Table(self.ends[lo:hi], self.vis[lo:hi], statements, kind, p1, p2, p3)

    def _store_row(self, ends: np.ndarray, vis: np.ndarray, provenance: tuple[int, int, int, int]) -> None:
        self._make_room(self.rows + 1)
        self.ends[self.rows], self.vis[self.rows] = ends, vis
        self.prov[:, self.rows] = provenance
        self.rows += 1

    def _is_stored(self, h: int, ends: np.ndarray, vis: np.ndarray) -> bool:
        others = [int(kern.map_get(self.fp_keys, self.fp_rows, np.uint64(h))), *self.overflow.get(h, [])]
        return any(np.array_equal(self.ends[r], ends) and np.array_equal(self.vis[r], vis) for r in others if r >= 0)

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
        ends, vis = self.prims
        status = np.zeros(3, np.int8)
        hashes = np.zeros(3, np.uint64)
        self.candidates += 3
        self._make_room(self.rows + 3)
        for k in range(3):
            before = self.rows
            _, self.rows = kern.admit_rows(
                ends, vis, k, k + 1, *self._store(), self.rows, self.fp_keys, self.fp_rows, self.r1, self.r2,
                status, hashes,
            )  # fmt: skip
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
        state of any run unchanged and marks at least as much. Every kernel
        call does a bounded amount of work (`settings.work_per_call`), and the
        clock is read between calls.
        """
        first_row = self.rows
        if c == 1:
            self._admit_primitives()
            if clock is not None:
                clock.check(phase="primitives")
            return self.rows - first_row
        body_lo, body_hi, _ = self.bounds[c - 1]
        per_call = max(1, self.settings.work_per_call // (self.S * self.W))
        bodies_per_call = self.settings.bodies_per_call
        powers_buffers = self._power_buffers()
        clash = np.empty((4096, 4), np.int64)
        clash_h = np.empty(4096, np.uint64)
        k, powers, admitted = body_lo, 0, 0
        while k < body_hi:
            stop = min(body_hi, k + bodies_per_call)
            k, powers, admitted, self.rows, n_clash, code, examined = kern.build_loops(
                *self._store(), self.prov, body_lo, k, powers, admitted, stop, self.rows, self.fp_keys,
                self.fp_rows, self.r1, self.r2, *powers_buffers, clash, clash_h, 0, per_call,
            )  # fmt: skip
            self.candidates += examined
            self._settle(clash[:n_clash], clash_h[:n_clash], c)
            if code == 1:
                self._make_room(self.rows + powers)
            elif code == 2:  # a loop with more distinct powers than the buffers hold
                raise self._full()
            if clock is not None:
                clock.check(phase=f"loops of cost {c}", candidates=self.candidates)
        statements = self.rows - first_row
        plan = [(a, self.bounds[a], self.bounds[c - a]) for a in range(1, c)]
        for a, (first_lo, _, first_statements), (rest_lo, rest_hi, _) in plan:
            total = first_statements * (rest_hi - rest_lo)
            self.candidates += total
            i = 0
            while i < total:
                i, self.rows, n_clash, code = kern.build_sequences(
                    *self._store(), self.prov, a, first_lo, rest_lo, rest_hi, i, min(total, i + per_call),
                    self.rows, self.fp_keys, self.fp_rows, self.r1, self.r2, self._cand_e, self._cand_v, clash,
                    clash_h, 0,
                )  # fmt: skip
                self._settle(clash[:n_clash], clash_h[:n_clash], c)
                if code == 1:
                    self._make_room(self.rows + 1)
                if clock is not None:
                    clock.check(phase=f"sequences of cost {c}", candidates=self.candidates)
        return statements

    # -- primitives

    def primitive_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """Rows of F, L, R, from the game's own rules (the level's hop table for F, `turn` for L and R). O(S x W)."""
        states = np.arange(self.S, dtype=np.int64)
        square, facing = states // 4, states % 4
        ahead = _hops_array(self.level)
        ends = np.empty((3, self.S), np.int32)
        ends[0] = 4 * ahead + facing
        for k, op in enumerate("LR", 1):
            ends[k] = 4 * square + np.array([carrots.turn(f, op) for f in range(4)])[facing]
        vis = np.zeros((3, self.S, self.W), np.uint64)
        vis[0, states, ahead // 64] = np.uint64(1) << (ahead % 64).astype(np.uint64)
        return ends, vis

    # -- reading programs back

    def fragment(self, cost: int, row: int) -> tuple[Statement, ...]:
        """The program text (as statements) of fragment `row` of cost `cost`."""
        t = self.tables[cost]
        kind = int(t.kind[row])
        if kind == 0:
            return (MOVES[PRIMS[int(t.p1[row])]],)
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
    Its memo of expanded (state, marks) and the loop outcomes it examines at
    once are bounded by shares of the tables' memory budget; a full memo only
    stops remembering (it prunes repeats, nothing else). It reads the settings
    of its tables.
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
        for i in np.nonzero(done)[0].tolist():
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


# ---------------------------------------------------------------- fallbacks


_TURN_THEN_F = (b"\x00", b"\x02\x00", b"\x02\x02\x00", b"\x01\x00")  # by (heading - facing) % 4: F, R F, R R F, L F


def _py_tour(level: Level, marked: bytearray) -> tuple[bytes, int, bytearray]:
    """A depth-first tour of the squares joined to the start, as move codes (0 F, 1 L, 2 R).

    From each square the headings are tried in order 0..3 and the tour comes
    back the way it went; iterative (an explicit stack), so any board size.
    It stops as soon as every square not in `marked` (one byte per square) is
    reached, and the codes end with the F onto the last of them. Returns
    (codes, unreached, seen): `unreached` counts the squares to mark that the
    tour could not reach (not 0: the level has no solution), `seen` has a 1 per
    square reached. Plain Python, the twin of kern.tour: used until the
    kernels are loaded (loading them takes about a second). O(squares).
    """
    hops = level.hops
    seen = bytearray(level.size)
    left = marked.count(0)
    seen[level.start] = 1
    facing = level.start_state[1]
    codes = bytearray()
    cut = 0
    # the square being left is known by `tried`, the hop index 4 x square + heading last tried from it; the stack
    # holds, per square on the way back, tried << 2 | the heading it was entered by (ints: cheaper than tuples)
    tried, came = 4 * level.start - 1, 0
    stop = tried + 5
    stack: list[int] = []
    while left:
        i = tried + 1
        while i < stop and seen[hops[i]]:
            i += 1
        if i < stop:
            nxt = hops[i]
            seen[nxt] = 1
            heading = i & 3
            codes += _TURN_THEN_F[(heading - facing) & 3]
            facing = heading
            if not marked[nxt]:
                left -= 1
                cut = len(codes)
            stack.append(i << 2 | came)
            tried, came = 4 * nxt - 1, heading
            stop = tried + 5
        elif stack:
            back = (came + 2) & 3
            codes += _TURN_THEN_F[(back - facing) & 3]
            facing = back
            top = stack.pop()
            tried, came = top >> 2, top & 3
            stop = (tried | 3) + 1
        else:
            break
    return bytes(codes[:cut]), left, seen


def _tour(level: Level, marked: bytearray, settings: Settings) -> tuple[bytes, int, bytearray]:
    """(move codes, unreached, seen) of the depth-first tour from the start: kern.tour once the kernels are loaded
    or on a board of `settings.kernel_tour_squares` squares or more, else its plain-Python twin `_py_tour`.
    `marked` has one byte per square marked before the first step. O(squares)."""
    warm = warm_up.cache_info().currsize or level.size >= settings.kernel_tour_squares
    return _kernel_tour(level, marked) if warm else _py_tour(level, marked)


def _kernel_tour(level: Level, marked: bytearray) -> tuple[bytes, int, bytearray]:
    """`_tour` by the compiled kernel."""
    seen = np.zeros(level.size, np.uint8)
    out = np.empty(6 * level.size, np.uint8)
    length, unreached = kern.tour(
        _hops_array(level), level.start, level.start_state[1], np.frombuffer(marked, np.uint8), seen, out
    )
    return out[:length].tobytes(), int(unreached), bytearray(seen.tobytes())


def _program_of_moves(codes: bytes | bytearray) -> Program:
    """Move codes (0 F, 1 L, 2 R) as a program, each run of three or more F written LOOP(n){F}: the same moves, so
    the same run, in fewer tokens. O(len(codes))."""
    moves = [MOVES[op] for op in PRIMS]
    forward = (moves[0],)
    loops: dict[int, Loop] = {}  # one value per count: a big board's walk has tens of thousands of runs
    body: list[Statement] = []
    done = 0
    for run in re.finditer(rb"\x00{3,}", codes):
        body.extend(map(moves.__getitem__, codes[done : run.start()]))
        count = run.end() - run.start()
        if count not in loops:
            loops[count] = Loop(forward, count)
        body.append(loops[count])
        done = run.end()
    body.extend(map(moves.__getitem__, codes[done:]))
    return Program(tuple(body))


def reachable(level: Level, settings: Settings | None = None) -> set[int]:
    """Squares the bunny can ever stand on: those joined to the start through neighbouring squares. O(squares)."""
    _, _, seen = _tour(level, bytearray(level.size), Settings() if settings is None else settings)
    return {sq for sq, reached in enumerate(seen) if reached}


def walk(level: Level, settings: Settings | None = None) -> Program:
    """A plain (long) program marking every reachable square: a depth-first tour, cut after the last square it
    needs to mark, runs of F written as loops. Iterative, O(squares)."""
    marked = carrots.marked_at_start(level)
    return _program_of_moves(_tour(level, marked, Settings() if settings is None else settings)[0])


def greedy(
    tables: FragmentTables, s0: int, marks: np.ndarray, max_steps: int | None = None, deadline: float | None = None
) -> Program | None:
    """A program built by repeatedly appending the table fragment that marks most new squares per token.

    A quick upper bound for when the proof runs out of time; None if a step
    finds no fragment that marks anything new (or no tables are built), after
    `max_steps` steps (default: one per square), or once time.monotonic()
    passes `deadline`. O(steps x (fragments x words + squares)).
    """
    goal = _bitset(tables.level.goal, tables.W)
    body: list[Statement] = []
    s, marks = s0, marks.copy()
    for _ in range(tables.level.size + 1 if max_steps is None else max_steps):
        if np.array_equal(marks, goal):
            return Program(tuple(body))
        if deadline is not None and time.monotonic() > deadline:
            return None
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
                body.append(MOVES[op])
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


# ---------------------------------------------------------------- front


@functools.cache
def warm_up() -> float:
    """Load (or compile) every kernel once per process, by solving a tiny board; returns the seconds it took.

    `solve` calls it under the level's clock (after the checks that need no
    kernel), so the time limit holds even for the first level of a process.
    """
    start = time.monotonic()
    # a board whose proof (5 tokens) goes through every kernel, so that none compiles inside a level's clock
    tiny = carrots.Level.parse("###\n# #\n##S##\n  # #\n  ###")
    _solve(tiny, Clock(None), False, None, settings=Settings())
    _kernel_tour(tiny, carrots.marked_at_start(tiny))
    keys, rows = np.zeros(16, np.uint64), np.full(16, -1, np.int64)  # the map helpers the tiny board may not need
    kern.map_put(keys, rows, np.uint64(7), 0)
    kern.map_move(keys, rows, np.zeros(32, np.uint64), np.full(32, -1, np.int64))
    kern.map_get(keys, rows, np.uint64(7))
    return time.monotonic() - start


def _finish_by(clock: Clock, settings: Settings) -> float | None:
    """When the finishing work (lowering counts, the greedy program) must stop, as a time.monotonic() value: the
    deadline plus a grace of `settings.grace_share` of the limit, at least `grace_min` and at most `grace_max`
    seconds, well inside the time bound's slack of max(1 s, 10 %); from now if the deadline has passed. None
    without a limit."""
    if clock.deadline.at is None or clock.time_limit is None:
        return None
    grace = min(settings.grace_max, max(settings.grace_min, settings.grace_share * clock.time_limit))
    return max(clock.deadline.at, time.monotonic()) + grace


def solve(
    level: Level,
    time_limit: float | None = None,
    all_solutions: bool = False,
    progress: Progress | None = None,
    max_length: int | None = None,
    memory_budget: int | None = None,
    *,
    settings: Settings | None = None,
) -> SolveResult:
    """A shortest program for `level` and the proof that it is shortest.

    Returns a SolveResult: status 'optimal' (with `solutions` when
    `all_solutions`), 'unsolvable' (a square cannot be reached; stats name it),
    or, when `time_limit` seconds, `max_length` or `memory_budget` bytes (see
    FragmentTables) run out first, 'solved' with the best program found (greedy
    from the tables, or a plain tour) and `lower_bound` = the first length not
    excluded; stats["reason"] says when the memory budget stopped it. The time
    limit covers everything, loading the kernels included: the answer comes
    within it plus a fraction of a second. Raises ValueError for a time limit
    that is not a positive number. `settings` (default `Settings()`) says how
    the time and the memory are spent. Exponential in the optimal length (see
    the module docstring).
    """
    clock = Clock(time_limit, progress)  # first: it rejects a bad limit before any work
    settings = Settings() if settings is None else settings
    return _solve(level, clock, all_solutions, max_length, memory_budget, warm=True, settings=settings)


def _solve(
    level: Level,
    clock: Clock,
    all_solutions: bool,
    max_length: int | None,
    memory_budget: int | None = None,
    warm: bool = False,
    *,
    settings: Settings,
) -> SolveResult:
    name = level.name
    marked = carrots.marked_at_start(level)
    if marked.count(0) == 0:
        return SolveResult("carrots", name, Status.OPTIMAL, Program(()), 0, clock.seconds, 0, {"candidates": 0})
    codes, unreached, seen = _tour(level, marked, settings)
    if unreached:
        missing = next(sq for sq in range(level.size) if not seen[sq] and not marked[sq])
        r, c = level.squares[missing]
        stats = {"candidates": 0, "reason": f"square at line {r + 1}, column {c + 1} cannot be reached"}
        return SolveResult("carrots", name, Status.UNSOLVABLE, None, None, clock.seconds, 0, stats)
    tables: FragmentTables | None = None
    s0 = 4 * level.start + level.start_state[1]
    K = 1
    children = 0
    dropped = 0  # fragments of tables given up after a failed allocation
    stopped = ""  # why the deepening stopped short of a proof, when not the clock

    def result(status: str, program: Program, lower_bound: int, found: tuple[Program, ...] = (), capped=False):
        stats: dict[str, Any] = {
            "candidates": (tables.candidates if tables else 0) + children,
            "fragments": tables.rows - 1 if tables else dropped,
        }
        if stopped:
            stats["reason"] = stopped
        return SolveResult(
            "carrots", name, status, program, program.tokens, clock.seconds, lower_bound, stats, found, capped
        )

    def first_verified(proof: _Search, found: list[tuple[Any, ...]]) -> list[Program]:
        programs: list[Program] = []
        finish_by = _finish_by(clock, settings)
        for items in found:
            p = proof.program(items, finish_by)
            if carrots.run(level, p).verdict.won and p not in programs:
                programs.append(p)
        return programs

    try:
        # known before loading any kernel: a board too big for even the first tables goes straight to the tour
        _Sizes.of(level, settings).check(memory.memory_budget() if memory_budget is None else memory_budget)
        if warm and not warm_up.cache_info().currsize:
            left = clock.left()
            if left is not None and left < settings.warm_up_min_left:
                raise TablesStopped("too little time left to load the compiled kernels (about a second)")
            warm_up()
            clock.check(phase="loading the kernels")
        # the budget is read again: after loading the kernels
        tables = FragmentTables(level, memory_budget=memory_budget, clock=clock, settings=settings)
        marks = _bitset(level.initial_marks | 1 << level.start, tables.W)
        while max_length is None or max_length >= K:
            tables.ensure(max(1, K - 2), clock)
            proof = _Search(tables, K, clock, all_solutions)
            found = proof.run(s0, marks)
            children += proof.children
            if found:
                programs = first_verified(proof, found)
                if not programs:
                    raise WrongAnswer(f"no program of {K} tokens the search found completes {name or 'the board'}")
                listed = tuple(programs) if all_solutions else ()
                return result(Status.OPTIMAL, programs[0], K, listed, proof.capped)
            # every program of K tokens or fewer is now excluded; try K + 1 with the tables at hand (a guess:
            # finding one proves it optimal and spares the larger table the proof would build)
            if not all_solutions:
                guess = _Search(tables, K + 1, clock, False, m=max(K - 2, 0))
                found = guess.run(s0, marks)
                children += guess.children
                if found and (programs := first_verified(guess, found)):
                    return result(Status.OPTIMAL, programs[0], K + 1)
                del guess
            del proof  # its memo goes before the next tables are built
            K += 1
    except Timeout:
        pass
    except TablesStopped as exc:
        stopped = str(exc)
    except MemoryError:  # the system refused memory within the budget (another process took it): drop the tables
        stopped = "the system refused memory the tables needed; they were dropped"
        if tables is not None:
            children += tables.candidates
            dropped = tables.rows - 1
            tables = None
    # no proof: the greedy program from the tables (in the grace time) or the tour, whichever is shorter and works
    finish_by = _finish_by(clock, settings)
    quick = None
    if tables is not None:
        deadline = time.monotonic() + settings.greedy_untimed if finish_by is None else finish_by
        quick = greedy(tables, s0, _bitset(level.initial_marks | 1 << level.start, tables.W), deadline=deadline)
    tour = _program_of_moves(codes)
    if quick is None or quick.tokens >= tour.tokens:
        # the tour marks every square by construction (the command re-checks what it prints): on a big board
        # a second run of it here would take the time the limit leaves for the command's own check
        return result(Status.SOLVED, tour, K)
    return result(Status.SOLVED, quick if carrots.run(level, quick).verdict.won else tour, K)
