"""The fragment tables: every distinct fragment function by cost (rules 2 to 4 of the package docstring), in one
store sized by the memory budget, with a fingerprint map that finds equal functions exactly."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gridbot.deadline import Clock
from gridbot.games import carrots
from gridbot.games.carrots import MOVES, Level, Loop, Statement
from gridbot.kernels import carrots as kern
from gridbot.solve import memory
from gridbot.solve.carrots.settings import Settings

PRIMS = "FLR"
MIN_ROWS = 8  # a store of fewer rows cannot hold the tables of cost 1


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
    """Every distinct fragment function by cost, built on demand (rules 2-4 of the package docstring).

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
                self.ends = memory.ARENA.empty((self.capacity, self.S), np.int32)
                self.vis = memory.ARENA.empty((self.capacity, self.S, self.W), np.uint64)
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
                    memory.ARENA.empty((limit, self.S), np.int32),
                    memory.ARENA.empty((limit, self.S, self.W), np.uint64),
                    memory.ARENA.empty(limit, np.uint64),
                    memory.ARENA.empty(limit, np.uint64),
                    memory.ARENA.empty(limit, np.int64),
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
