"""The fewest steps through a torch cave, with a proof: exact label search with A*.

>>> import gridbot
>>> from gridbot.solve.torch_cave import solve
>>> result = solve(gridbot.load("torch_cave:prob16_sample"))
>>> result.status, result.length
('optimal', 73)

The state of the hero is (cell, torches taken, light); light is not free: after
`s` steps with torch set K it is start + 15 x |K| - s. The search works on
*labels* (cell, K, steps) and is exact. Each rule below is safe for the reason
given; the tests compare the result with a plain breadth-first search over
(cell, K, light) without any pruning on thousands of random caves.

1. *Key cells only (reduction).* Cut a walk at the moments it takes a torch for
   the first time. Between two such moments it takes no new torch, so it may
   replace that piece by a shortest path between the same two cells: that is no
   longer, and it costs no more light, so every later step has at least as much
   light as before (light is only ever spent, never capped). A shortest path may
   cross an untaken torch: taking it early only adds light sooner. So the fewest
   steps are found among walks H -> t1 -> ... -> tm -> T over *distinct* torches
   joined by shortest paths (grid distances d from one BFS per key cell), where
   the leg from x to y is allowed iff the light at x is at least d(x, y). Labels
   therefore live on H and the torch cells only, and the search is over the
   order in which torches are taken. An optimal walk never crosses T on a leg to
   a torch: going to T directly from that leg's start would be shorter.
2. *Dominance (GAMES.md).* For two labels at the same cell, A dominates B when
   steps(A) <= steps(B) and light(A) >= light(B) + 15 x |K(A) \\ K(B)|. Safe:
   let B go on along any walk P. Walking P from A, A spends the same light per
   step; the torches on P give A at least what they give B, except those A has
   and B has not, each worth at most 15 to B, which the margin covers. So A's
   light never falls below B's, A can take every step B takes, and reaches T no
   later. With light = start + 15 |K| - steps the test reads
   steps(B) - steps(A) >= 15 x |K(B) \\ K(A)|. It is transitive, so a label
   dropped for a dominated one is never needed. A new label that some live label
   dominates is not stored; stored labels the new one dominates are dropped.
3. *A\\* with an admissible heuristic* (`_Search.heuristic`). When the light
   reaches T, h = d(x, T). Otherwise the walk must first take j >= 1 untaken
   torches t1..tj, t1 within the light, and its length L is at least d(x, T);
   at least d(x, ti) + d(ti, T) for each ti it passes, so at least the j-th
   smallest such sum over the untaken torches; at least the j-th smallest
   d(x, t) (it reaches the farthest of j distinct torches) plus the smallest
   d(t, T); and at least d(x, t1) + d(t1, t2) + ... + d(tj, T) >= (nearest
   untaken torch from x) + (the j - 1 smallest distances from an untaken
   torch to its nearest other untaken torch) + (nearest untaken torch to T).
   And the light must pay for it: light + 15 j >= L. Every bound grows with
   j; h is the bound for the smallest j for which that can hold, and infinity
   when no j can (the label is dead). h never overestimates, so whatever
   label on T leaves the queue (ordered by f = steps + h) first is optimal: at
   every moment some queued label extends a prefix of an optimal walk, or
   dominates one (rule 2), with f <= the optimum. When the queue runs dry,
   every walk was covered: a proof that there is no path. The smallest f in
   the queue is a proven lower bound at any moment (reported on a timeout).
4. *Upper bound.* A quick weighted pass (f = steps + 3 h, at most
   `Settings.greedy_budget` expansions), or when it finds none a descent that
   never goes back (`_Search.descend`), usually finds some walk of U steps,
   within a share of the time (`Settings.greedy_share`). The exact pass
   then drops every label with steps + h >= U (and, likewise, >= the best walk
   to T already queued): by rule 3 it cannot lead to a shorter walk. If the
   exact pass finds nothing shorter than U, the greedy walk is optimal.
5. *No leg past an untaken torch.* If an untaken torch k lies on a shortest
   path from x to t (d(x, k) + d(k, t) = d(x, t)), the leg x -> t is not
   generated: x -> k -> t has the same steps, is affordable whenever x -> t
   is (the light at x covers d(x, k), and after k's 15 it covers d(k, t)),
   and ends at t with k taken as well, so it dominates by rule 2.
6. *Enough light: straight to T.* A label whose light covers d(x, T) gets
   only the walk straight to T (d(x, T) steps, the least any walk can take);
   no torch leg is generated from it.

7. *Light runs out (horizon).* Let d_1 <= d_2 <= ... be the distances from
   H of the torches. Before step s a walk has taken only torches within
   s - 1 of H, so it has light start + 15 x |{i : d_i <= s - 1}| - (s - 1)
   at most, and it needs 1: no walk is longer than R, the first s - 1 where
   that fails (R = start + 15 k for the first k with d_(k+1) > start + 15 k).
   If d(H, T) > R there is no path. A walk of at most R steps that takes
   torch t is at least d(H, t) + d(t, T) long, so only torches inside that
   ellipse are keys; counting only those torches gives a smaller R, and so on
   until nothing changes (each round is again a bound on every walk to T).
8. *A lit shortest path.* No walk is shorter than d(H, T). A shortest path
   visits no cell twice, so each torch on it gives its light, and arriving at
   distance s with k torches taken leaves start + 15 k - s: one breadth-first
   pass over the cells in order of distance keeps, per cell, the most torches
   of a shortest path to it that never runs dark. If T gets a value, that path
   is optimal, proven at once (rule 6 applied at the start, with the torches
   on the way counted).

*Time and memory.* The breadth-first searches are those of
gridbot.kernels.torch_cave, plain Python until loading the compiled ones pays
(see _Cave). Rules 7 and 8 need two of them, from H and
from T. The distances between keys are computed a row at a time, when a key
is first expanded or reached (one search from that key, the clock looked at
before each), kept as Python lists within a share of `memory_budget()`, and
dropped all at once (to be computed again if needed) when they would not
fit. Rule 5 asks, per leg x -> t, for the untaken torches k nearer to x than
t with d(x, k) + d(k, t) = d(x, t), read off the rows of x and t, and
remembered per leg. With up to `Settings.exact_hops` keys every row is computed up front
and the hop term of rule 3 uses each torch's nearest *untaken* other torch;
with more, it uses each torch's nearest other torch at all (one compiled
search from all torches at once): never more, so still a lower bound. The
label store is counted against the other share of the budget; past it, or
past the time limit, the answer is the best walk found ('solved') or none
('timeout'), with stats["reason"] for the memory.

Complexity: two searches over the cells, O(cells); then one per key expanded
or reached, O(cells) each; then O(labels x keys) with labels <= keys x
2^torches in the worst case, far fewer in practice (see BENCHMARKS.md).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

import numpy as np

from gridbot.deadline import Clock, Progress, Timeout
from gridbot.errors import WrongAnswer
from gridbot.games.torch_cave import NAME, Level, Path, run
from gridbot.kernels import torch_cave as kern
from gridbot.result import SolveResult, Status
from gridbot.solve.memory import OutOfBudget
from gridbot.solve.memory import memory_budget as _memory_budget

INF = 1 << 60
CELL_BYTES = 32  # work arrays per cell: walls, distances from H, T and a source, queue, moves, torches, DP
ROW_BYTES = 3 * 40  # per entry of a kept row: distance and two orders, Python lists of ints (generous)
PATH_BYTES = 64  # per leg remembered for rule 5, besides its mask
LABEL_BYTES = 400  # per label besides its mask: list slots, heap entry, front entry, ints (generous)


@dataclass(frozen=True, slots=True)
class Settings:
    """How the solver spends its time and memory. None of them changes which walk is proven shortest (the tests
    run the search with extreme values against a plain breadth-first search); they change how fast, and when the
    search gives up on the clock or the memory budget."""

    # expansions between looks at the clock: an expansion costs from microseconds to about a millisecond, so
    # the clock is read every few milliseconds at most and costs nothing beside the expansions between
    check_every: int = 16
    # candidates of one expansion between looks at the clock: from a key with thousands of torches within its
    # light one expansion is long
    candidate_check: int = 64
    # expansions between looks at the size of the label store (at a look at the clock, so a multiple of
    # check_every): an expansion adds at most a label per torch, so the store passes its share by little
    memory_every: int = 256
    # sorted values of rule 3's bound made at once: the bound mostly stops at a small j, so with more torches
    # left than this the values are read lazily, in doubling chunks, as far as j goes
    whole: int = 64
    # with up to this many keys every row of distances is computed up front (a search per key) and the hop term
    # of rule 3 uses each torch's nearest *untaken* torch; with more, rows come on demand and the hop term uses
    # each torch's nearest torch at all (one search from every torch), a weaker bound that costs no rows
    exact_hops: int = 64
    # rounds of rule 7 at most: every round's bound is valid, so stopping early costs pruning, never an answer
    ellipse_rounds: int = 64
    # the weighted pass of rule 4 orders by steps + weight x h: a larger weight goes deeper faster and finds
    # a walk in fewer expansions, a smaller one a shorter walk (a tighter bound for the exact pass)
    greedy_weight: int = 3
    # expansions of the weighted pass: enough to reach T on caves where it is quick to, after which the
    # descent (one search per torch taken) tries instead; 0 turns the weighted pass off
    greedy_budget: int = 2000
    # share of the time left that the two greedy passes may take, at most (half each): an upper bound helps the
    # exact pass prune, but must never starve it
    greedy_share: float = 0.25
    # torches a step of the descent chooses from, the nearest untaken ones: enough to find one that lights the
    # way on, while each step's search stays short; 0 turns the descent off
    descend_choices: int = 64
    # caves of more cells use the compiled breadth-first searches from the start: a plain search of such a cave
    # costs about what loading the compiled ones costs (numba's start, about a second)
    jit_cells: int = 200_000
    # cells reached by plain searches (about 0.4 s of them), after which the compiled searches are loaded: by
    # then the searches still to come are likely to cost more than the load
    jit_work: int = 1_000_000
    # seconds the clock must leave for loading the compiled searches in the middle of a solve (the load takes
    # about a second; with less time left the plain searches go on, and cost only what they reach)
    jit_load: float = 2.0
    # seconds the clock must leave for loading them at the start, for a cave of more than jit_cells cells
    jit_start: float = 0.9
    # shares of the memory budget: the rows of distances and rule 5's masks (dropped all at once and computed
    # again when they outgrow it: time, never the answer), the hop bounds remembered per mask (a cache), and the
    # labels of the search (what grows without bound on a hard cave, and what stops it when full)
    table_share: float = 0.4
    hops_share: float = 0.1
    label_share: float = 0.5
    # bytes a table may take before the memory budget is read (reading it takes a millisecond: it reads the
    # control groups): every machine that loads numba has this much to spare
    free_bytes: int = 32 << 20
    # labels at one key from which the dominance test of rule 2 runs on numpy arrays: below it plain lists are
    # faster (numpy's fixed cost per call), above it the arrays are, on caves with many torches close together
    front_switch: int = 48


class _Memory:
    """The memory budget in bytes, asked for (a millisecond: it reads the control groups) only once a table
    grows past `free` bytes; `given` replaces it (the tests give small budgets)."""

    def __init__(self, given: int | None, free: int) -> None:
        self.value = given
        self.free = free

    def allows(self, nbytes: int, share: float = 1.0) -> bool:
        """Do `nbytes` fit in `share` of the budget? O(1), after the first real look."""
        if self.value is None:
            if nbytes <= self.free * share:
                return True
            self.value = _memory_budget()
        return nbytes <= self.value * share

    def describe(self) -> str:
        return "the memory budget" if self.value is None else f"the memory budget ({self.value:,} bytes)"


class _Cave:
    """The cave for the breadth-first searches of gridbot.kernels.torch_cave, with work arrays shared by every
    search: compiled on numpy arrays when they are loaded in this process already or the cave has more than
    `settings.jit_cells` cells and the clock leaves `jit_start` seconds, else plain Python on lists until the
    searches have reached `jit_work` cells and the clock leaves `jit_load` seconds to load them (numba's start
    takes about a second, in which plain Python searches a few hundred thousand cells, and a plain search costs
    only what it reaches). `jit` forces one or the other. O(cells) memory."""

    def __init__(self, level: Level, jit: bool | None, clock: Clock, settings: Settings) -> None:
        self.level = level
        self.settings = settings
        self.width = level.width
        self.size = level.width * level.height
        self.clock = clock
        self.auto = jit is None
        self.torch_cells = np.array(level.torches, np.int64)
        self.searches = 0  # breadth-first searches run
        self.work = 0  # cells they reached
        self.key_cells: list[int] = []
        big = self.size > settings.jit_cells and self._time_to_load(settings.jit_start)
        self._use(kern.loaded() or big if jit is None else jit)

    def _time_to_load(self, seconds: float) -> bool:
        """Does the clock leave `seconds` or more (or no limit)?"""
        left = self.clock.left()
        return left is None or left >= seconds

    def _use(self, jit: bool) -> None:
        self.jit = jit
        size = self.size
        self.k: Any
        if jit:
            self.k = kern.compiled()
            self.walls: Any = np.frombuffer(self.level.walls, np.uint8)
            self.dist: Any = np.empty(size, np.int32)
            self.queue: Any = np.empty(size, np.int32)
            self.codes: Any = np.empty(max(1, size), np.int8)
            self.nothing: Any = np.zeros(size, np.uint8)  # marks of a search that covers everything
            self.spot: Any = np.zeros(size, np.uint8)  # the mark of a search for one cell
            self.keys: Any = np.zeros(size, np.uint8)  # the marks of the key cells
            self.keys[np.array(self.key_cells, np.int64)] = 1
        else:
            self.k = kern
            self.walls = self.level.walls
            self.dist = []
            self.queue = [0] * size
            self.codes = [0] * max(1, size)
            self.nothing, self.spot, self.keys = bytearray(size), bytearray(size), bytearray(size)
            for cell in self.key_cells:
                self.keys[cell] = 1

    def mark_keys(self, cells: list[int]) -> None:
        """The key cells, where searches by `to_keys` stop once all have their distance. O(cells)."""
        for cell in self.key_cells:
            self.keys[cell] = 0
        self.key_cells = list(cells)
        for cell in self.key_cells:
            self.keys[cell] = 1

    def _minus_ones(self) -> Any:
        return np.full(self.size, -1, np.int32) if self.jit else [-1] * self.size

    def distances(self, source: int) -> tuple[Any, int]:
        """(distances from `source` to every cell, -1 where not reached; the number of cells reached, in
        `self.queue` in order of distance). The compiled searches overwrite the array at the next search.
        O(cells)."""
        return self._search(source, self.nothing, kern.EVERYTHING)

    def to_keys(self, source: int) -> Any:
        """Distances from `source`, final on every key cell (the search stops once all are reached), -1 on
        cells not reached. O(cells)."""
        return self._search(source, self.keys, len(self.key_cells))[0]

    def keys_within(self, source: int, radius: int, wanted: int) -> tuple[list[int], list[int]]:
        """(the `wanted` key cells nearest to `source` (fewer if fewer are within `radius` steps), nearest first;
        their distances). O(cells searched)."""
        dist, count = self._search(source, self.keys, wanted, radius)
        if self.jit:
            reached = self.queue[:count]
            cells = reached[self.keys[reached] != 0]
            return cells.tolist(), dist[cells].tolist()
        cells = [cell for cell in self.queue[:count] if self.keys[cell]]
        return cells, [dist[cell] for cell in cells]

    def expect(self, work: int) -> None:
        """Searches reaching about `work` more cells are to come: load the compiled ones now if they pay for
        it (see the class), rather than in the middle of a phase with a share of the time."""
        settings = self.settings
        if (
            self.auto
            and not self.jit
            and self.work + work > settings.jit_work
            and self._time_to_load(settings.jit_load)
        ):
            self._use(True)

    def _search(self, source: int, marks: Any, wanted: int, radius: int | None = None) -> tuple[Any, int]:
        self.expect(0)
        self.searches += 1
        if self.jit:
            self.dist.fill(-1)
        else:
            self.dist = [-1] * self.size
        reach = self.size if radius is None else radius
        count = self.k.bfs(self.walls, self.width, source, marks, wanted, reach, self.dist, self.queue)
        self.work += count
        return self.dist, count

    def gather(self, dist: Any, cells: np.ndarray) -> np.ndarray:
        """dist[cells] as an int64 array. O(len(cells))."""
        if isinstance(dist, list):
            return np.array([dist[c] for c in cells.tolist()], np.int64)
        return dist[cells].astype(np.int64)

    def path(self, source: int, target: int) -> str:
        """The moves of one shortest path from `source` to `target` (joined cells). O(cells)."""
        self.spot[target] = 1
        try:
            dist, _ = self._search(source, self.spot, 1)
        finally:
            self.spot[target] = 0
        count = kern.shortest_path_back(self.k, self.walls, self.width, dist, self.nothing, target, self.codes)
        if count < 0:  # pragma: no cover - would be a bug
            raise AssertionError("broken distance table")
        return kern.moves_text(self.codes, count)

    def lit_shortest_path(self, dist: Any, order: Any, count: int) -> str | None:
        """Rule 8: the moves of a shortest path H -> T that never runs dark, or None. `dist` and `order`, `count`
        are the distances and the `count` cells in order of distance of the search from H. O(cells)."""
        level = self.level
        if self.jit:  # (the search from H may have been a plain one)
            dist, order = np.asarray(dist, np.int32), np.asarray(order, np.int32)
            torch: Any = np.zeros(self.size, np.uint8)
            torch[self.torch_cells] = 1
            best: Any = np.empty(self.size, np.int32)
        else:
            torch = bytearray(self.size)
            for cell in level.torches:
                torch[cell] = 1
            best = [0] * self.size
        light = (level.start_light, level.torch_light)
        self.k.lit_shortest(self.walls, self.width, dist, order, count, torch, *light, best)
        found = self.k.lit_path_back(self.walls, self.width, dist, best, torch, *light, level.treasure, self.codes)
        return None if found < 0 else kern.moves_text(self.codes, found)

    def nearest_other(self, torch_cells: list[int]) -> list[int]:
        """Per torch of `torch_cells`, the grid distance to its nearest other one (kern.nearest_other). O(cells)."""
        self.searches += 1
        out = [0] * len(torch_cells)
        sources: Any = torch_cells
        if self.jit:
            sources = np.array(torch_cells, np.int64)
            out = np.zeros(len(torch_cells), np.int64)
        dist, owner = self._minus_ones(), self._minus_ones()
        self.k.nearest_other(self.walls, self.width, sources, dist, owner, self.queue, out)
        return out.tolist() if self.jit else out


def _horizon(near_first: np.ndarray, start_light: int, torch_light: int) -> int:
    """Rule 7: the most steps any walk can take, given the distances from H of the torches it may take, in
    ascending order. O(torches)."""
    afford = start_light + torch_light * np.arange(len(near_first), dtype=np.int64)
    short = np.flatnonzero(near_first > afford)  # torch i (0-based) is out of reach with i torches taken
    taken = int(short[0]) if len(short) else len(near_first)
    return start_light + torch_light * taken


def _ellipse(
    dh: np.ndarray, dt: np.ndarray, start_light: int, torch_light: int, clock: Clock, rounds: int
) -> tuple[np.ndarray, int]:
    """Rule 7 from the torches' distances to H and T (-1: not reached), in at most `rounds` rounds: (which torches
    are inside the ellipse, as booleans; the horizon R). O(rounds x torches + torches log torches)."""
    keep = dh >= 0
    order = np.argsort(dh, kind="stable")
    sorted_dh = dh[order]
    horizon = _horizon(sorted_dh[keep[order]], start_light, torch_light)
    for _ in range(rounds):
        clock.check()
        inside = keep & (dh + dt <= horizon)
        if np.array_equal(inside, keep):
            break
        keep = inside
        horizon = _horizon(sorted_dh[keep[order]], start_light, torch_light)
    return keep, horizon


class _Tables:
    """Distances between the keys (key 0 is H, key t + 1 is torch t), a row per key computed on demand.

    A row is (distances from the key to every key, torches by that distance,
    torches by it plus their distance to T), as lists. Rows and the rule 5
    masks are kept while they fit in `share` of the memory budget, then
    dropped all at once.
    """

    def __init__(
        self,
        cave: _Cave,
        cells: list[int],
        to_t: list[int],
        from_h: np.ndarray,
        clock: Clock,
        memory: _Memory,
        share: float,
    ) -> None:
        self.cave = cave
        self.share = share
        self.cells = np.array(cells, np.int64)
        self.index = {cell: key for key, cell in enumerate(cells)}  # key cell -> key
        self.n = len(cells) - 1
        self.to_t = to_t
        self._to_t = np.array(to_t[1:], np.int64)
        self.clock = clock
        self.memory = memory
        self.used = 0
        self.drops = 0  # times the kept rows were dropped for memory
        self._rows: dict[int, tuple[list[int], list[int], list[int]]] = {}
        self._paths: dict[int, int] = {}
        cave.mark_keys(cells)
        self.row_cost = ROW_BYTES * (self.n + 1)
        if not memory.allows(self.row_cost, share):
            raise OutOfBudget(f"a row of distances between {self.n + 1:,} keys does not fit in {memory.describe()}")
        self.from_h = from_h[self.cells].astype(np.int64)  # the row of H, from the search already made

    def row(self, key: int) -> tuple[list[int], list[int], list[int]]:
        """(dist, by_near, by_via) of `key`: dist[k] the distance to key k, by_near the torches by distance from
        `key`, by_via the torches by that plus their distance to T (ties by number). O(cells) the first time."""
        found = self._rows.get(key)
        if found is None:
            found = self._compute(key, self.from_h if key == 0 else None)
        return found

    def _compute(self, key: int, row: np.ndarray | None = None) -> tuple[list[int], list[int], list[int]]:
        """The row of `key` from `row` (its distances to the keys) or from a search from it."""
        self.clock.check()  # one search per source: the clock is looked at between them
        self._charge(self.row_cost)
        if row is None:
            row = self.cave.gather(self.cave.to_keys(int(self.cells[key])), self.cells)
        torches = row[1:]
        found = (
            row.tolist(),
            np.argsort(torches, kind="stable").tolist(),
            np.argsort(torches + self._to_t, kind="stable").tolist(),
        )
        self._rows[key] = found
        return found

    def _charge(self, cost: int) -> None:
        if not self.memory.allows(self.used + cost, self.share):
            self._rows.clear()
            self._paths.clear()
            self.used = 0
            self.drops += 1
        self.used += cost

    def compute_all(self) -> None:
        """Every row, the clock looked at between them. O(keys x cells)."""
        for key in range(self.n + 1):
            self.row(key)

    def passing(self, key: int, t: int) -> int:
        """Rule 5: the mask of the torches k (not t, not `key`) on some shortest path from `key` to torch t.

        O(torches nearer to `key` than t), remembered per leg.
        """
        index = key * (self.n + 1) + t
        mask = self._paths.get(index)
        if mask is not None:
            return mask
        dist, by_near, _ = self.row(key)
        through = self.row(t + 1)[0]  # the grid is undirected: d(k, t) = d(t, k)
        d = dist[t + 1]
        mask = 0
        for k in by_near:
            dk = dist[k + 1]
            if dk >= d:
                break
            if k + 1 != key and through[k + 1] == d - dk:
                mask |= 1 << k
        self._charge(PATH_BYTES + mask.bit_length() // 8)
        self._paths[index] = mask
        return mask

    def all_rows(self) -> list[list[int]]:
        """The full table, row by row (small caves: every row is computed). O(keys^2)."""
        return [self.row(key)[0] for key in range(self.n + 1)]


def solve(
    level: Level,
    time_limit: float | None = None,
    all_solutions: bool = False,
    progress: Progress | None = None,
    memory_budget: int | None = None,
    shortcuts: bool = True,
    jit: bool | None = None,
    *,
    settings: Settings | None = None,
) -> SolveResult:
    """A shortest path H -> T (status 'optimal'), 'unsolvable' (proven: no path), or, when the time limit or
    the memory budget runs out first, 'solved' (a path, not proven shortest) or 'timeout' (none found).

    `all_solutions` is accepted for the common interface and ignored: one
    shortest path is returned. `lower_bound` is the length of the path when
    optimal, else the least length not excluded (no path is shorter).
    `memory_budget` (bytes) defaults to gridbot.solve.memory.memory_budget();
    stats["reason"] says when it stopped the search. `shortcuts=False` skips
    rules 7 and 8 (tests check the search on its own). `jit` True or False
    forces the compiled or the plain breadth-first searches; by default
    the plain ones come first, unless the compiled ones are loaded (see _Cave). `settings` (default
    `Settings()`) says how the time and the memory are spent. See the module docstring for the rules and the
    complexity.
    """
    clock = Clock(time_limit, progress)  # first: it checks the limit, and loading the kernels counts
    settings = Settings() if settings is None else settings
    memory = _Memory(memory_budget, settings.free_bytes)
    name = level.name
    light = (level.start_light, level.torch_light)
    stats: dict[str, Any] = {"labels": 0}
    lower = 0  # no walk is shorter: d(H, T) once known, or the search's bound

    def result(status: str, path: Path | None, lower_bound: int) -> SolveResult:
        length = None if path is None else path.steps
        return SolveResult(NAME, name, status, path, length, clock.seconds, lower_bound, stats)

    def dark(horizon: int) -> SolveResult:  # rule 7: every walk runs out of light before it can reach T
        stats["reason"] = f"the light runs out: no walk lasts more than {horizon} steps, and T is {lower} away"
        return result(Status.UNSOLVABLE, None, 0)

    cells = level.width * level.height
    if not memory.allows(CELL_BYTES * cells):
        stats["reason"] = f"the cave's {cells:,} cells do not fit in {memory.describe()}"
        return result(Status.TIMEOUT, None, 0)
    cave = _Cave(level, jit, clock, settings)
    search: _Search | None = None
    greedy: Path | None = None
    try:
        dist, count = cave.distances(level.start)
        lower = int(dist[level.treasure])
        if lower < 0:
            stats["reason"] = "walls cut H off from T"
            return result(Status.UNSOLVABLE, None, 0)
        from_h = np.array(dist, np.int32)  # a copy: the compiled searches reuse their array
        dh = from_h[cave.torch_cells].astype(np.int64)
        stats["torches"] = int(np.count_nonzero(dh >= 0))
        # for rule 8, the distances and the cells by distance from H, kept from the next search (the plain
        # searches make a new list each time and a slice of a list is a copy)
        dist, order = (dist, cave.queue[:count]) if isinstance(dist, list) else (from_h, cave.queue[:count].copy())
        if shortcuts:  # cheap next to the search from H: the clock is looked at after it
            horizon = _horizon(np.sort(dh[dh >= 0]), *light)
            if lower > horizon:
                return dark(horizon)
        clock.check()
        from_t = np.array(cave.distances(level.treasure)[0], np.int32)
        dt = from_t[cave.torch_cells].astype(np.int64)
        inside = dh >= 0
        if shortcuts:
            # rule 8, unless too few torches lie on shortest paths to light one (the horizon of those alone)
            on_shortest = np.sort(dh[(dh >= 0) & (dh + dt == lower)])
            if lower <= _horizon(on_shortest, *light):
                clock.check()  # a pass over the cells, as long as a search from H (a second in plain Python)
                moves = cave.lit_shortest_path(dist, order, count)
                if moves is not None:
                    path = _verified(level, moves)
                    stats["proof"] = "a shortest path is lit all the way"
                    return result(Status.OPTIMAL, path, path.steps)
            clock.check()
            inside, horizon = _ellipse(dh, dt, *light, clock, settings.ellipse_rounds)
            if lower > horizon:
                return dark(horizon)
        torch_cells = cave.torch_cells[inside].tolist()
        keys = [level.start, *torch_cells]
        stats["keys"] = len(torch_cells)
        to_t = from_t[keys].astype(np.int64).tolist()
        tables = _Tables(cave, keys, to_t, from_h, clock, memory, settings.table_share)
        nearest: list[int] | None = None
        cave.expect(len(keys) * int(np.count_nonzero(from_h >= 0)))  # a search per key, if the search needs them
        if tables.n <= settings.exact_hops:
            tables.compute_all()
        else:
            nearest = cave.nearest_other(torch_cells)
        search = _Search(tables, level.start_light, level.torch_light, clock, memory, settings, nearest)

        legs: dict[tuple[int, int], str] = {}  # the greedy walk and the optimal one share legs

        def walk(chain: list[int]) -> Path:
            for a, b in zip(chain, chain[1:], strict=False):
                if (a, b) not in legs:
                    legs[a, b] = cave.path(keys[a], level.treasure if b == search.goal_key else keys[b])
            return _verified(level, "".join(legs[a, b] for a, b in zip(chain, chain[1:], strict=False)))

        # rule 4: a quick greedy walk gives an upper bound for the exact search: the weighted pass, or when it
        # finds none (it may not, with many torches) the descent. They get a bounded share of the time left,
        # half each, so that they never starve the exact search.
        found: tuple[list[int] | None, int] = (None, INF)
        for attempt in (search.weighted, search.descend):
            left = clock.left()
            share = None if left is None else max(settings.greedy_share / 2 * left, 1e-3)
            search.clock = tables.clock = Clock(share)
            try:
                chain, cost = attempt()
            except Timeout:
                chain = None
            finally:
                search.clock = tables.clock = clock
            if chain is not None:
                found = (chain, cost)
                break
        if found[0] is not None:
            greedy = walk(found[0])
            stats["greedy"] = found[1]
        chain, cost = search.run(upper=INF if greedy is None else greedy.steps)
    except (Timeout, OutOfBudget) as exc:
        if isinstance(exc, OutOfBudget):
            stats["reason"] = str(exc.args[0]) if exc.args else "memory budget"
        bound = max(lower, exc.args[1] if len(exc.args) > 1 else 0)
        if search is not None:
            stats.update(search.stats())
        if greedy is None:
            return result(Status.TIMEOUT, None, bound)
        return result(Status.SOLVED, greedy, min(bound, greedy.steps))
    stats.update(search.stats())
    if chain is None:
        if greedy is not None:
            return result(Status.OPTIMAL, greedy, greedy.steps)
        stats["reason"] = "every walk runs out of light (exhaustive search)"
        return result(Status.UNSOLVABLE, None, 0)
    path = walk(chain)
    return result(Status.OPTIMAL, path, path.steps)


def _verified(level: Level, moves: str) -> Path:
    """The path of `moves`, re-run by the simulator: it must reach T at its last step. O(steps)."""
    path = Path(moves)
    verdict = run(level, path).verdict
    if not verdict.won or verdict.step != path.steps:
        raise WrongAnswer(f"the solver's path {path} does not reach T at its last step: {verdict}")
    return path


class _Search:
    """A* over labels (key, taken mask, steps) on the key cells; see the module docstring for each cut.

    Key 0 is H, key t + 1 is torch t, key n + 1 stands for T. Distances come
    from `tables`; `nearest` (with many keys) gives each torch's nearest other
    torch for the hop bound, else the exact bound over untaken torches is used.
    """

    def __init__(
        self,
        tables: _Tables,
        start_light: int,
        torch_light: int,
        clock: Clock,
        memory: _Memory,
        settings: Settings,
        nearest: list[int] | None = None,
    ) -> None:
        n = tables.n
        self.settings = settings
        self.whole = settings.whole
        self.n = n
        self.goal_key = n + 1
        self.tables = tables
        self.to_t = tables.to_t
        self.start_light = start_light
        self.torch_light = torch_light
        self.clock = clock
        self.words = max(1, (n + 63) // 64)
        self.label_cost = LABEL_BYTES + 2 * 8 * self.words  # the mask as an int and in a front's array
        self.memory = memory
        self.counts = {"labels": 0, "expanded": 0, "dominated": 0, "dead": 0}
        self.by_last = sorted(range(n), key=lambda t: self.to_t[t + 1])  # all torches by d(t, T)
        self.nearest = nearest
        self._hops_cache: dict[int, list[int]] = {}
        self._hops_used = 0
        if nearest is None:  # per torch, the other torches by distance (every row is known)
            dist = tables.all_rows()
            self.neighbours = [sorted((dist[t + 1][u + 1], u) for u in range(n) if u != t) for t in range(n)]
        else:  # the torches by distance to their nearest other torch
            self.by_hop = sorted(range(n), key=lambda t: nearest[t])

    def stats(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(self.counts)
        out["searches"] = self.tables.cave.searches
        if self.tables.drops:
            out["rows_dropped"] = self.tables.drops
        return out

    def heuristic(self, key: int, mask: int, light: int, limit: int = INF) -> int:
        """A lower bound on the steps from `key` to T with `light` left and torches `mask` taken; INF: dead.

        d(x, T) when the light reaches T. Otherwise the walk must take j >= 1 new
        torches t1..tj before T, t1 within the light. Its length L is at least:
        d(x, T); d(x, t1) + d(t1, T); for each ti, d(x, ti) + d(ti, T), hence
        the j-th smallest d(x, t) + d(t, T) over untaken t; the j-th smallest
        d(x, t) (the farthest of j distinct torches) plus the smallest d(t, T);
        and d(x, t1) + d(t1, t2) + ... + d(tj, T), where each d(ti, ti+1) is at
        least the distance from ti to its nearest other untaken torch: first +
        (the j - 1 smallest such distances) + last. And the light must pay for
        it: light + 15 j >= L. Every bound grows with j, so h is the bound for
        the smallest j for which that can hold; INF when none can. Stops early,
        returning a value >= `limit`, once the bound reaches `limit`. The
        sorted values are read lazily, as far as j goes: O(j + taken torches)
        mostly, O(torches) at worst.
        """
        to_t = self.to_t
        d_t = to_t[key]
        if d_t <= light or d_t >= limit:
            return d_t
        left = self.n - mask.bit_count()
        torch_light = self.torch_light
        if left == 0 or d_t > light + torch_light * left:
            return INF  # all the torches left would not light the way to T
        row, by_near, by_via = self.tables.row(key)
        # d(x, t) and d(x, t) + d(t, T) over untaken t, ascending: whole lists when few are left, else read
        # lazily in doubling chunks, as far as j goes
        more_near = more_via = None
        whole = self.whole
        if left <= whole:
            near = [row[t + 1] for t in by_near if not mask >> t & 1]
        else:
            more_near = (row[t + 1] for t in by_near if not mask >> t & 1)
            near = list(islice(more_near, whole))
        first = near[0]
        if first > light:
            return INF  # no new torch within the light
        via_first = INF  # min d(x, t) + d(t, T) over untaken t within the light
        for t in by_via:
            if not mask >> t & 1 and row[t + 1] <= light:
                via_first = row[t + 1] + to_t[t + 1]
                break
        if left <= whole:
            via = [row[t + 1] + to_t[t + 1] for t in by_via if not mask >> t & 1]
        else:
            more_via = (row[t + 1] + to_t[t + 1] for t in by_via if not mask >> t & 1)
            via = list(islice(more_via, whole))
        last = INF  # min d(t, T) over untaken t
        for t in self.by_last:
            if not mask >> t & 1:
                last = to_t[t + 1]
                break
        floor = d_t if d_t >= via_first else via_first
        chain = first + last
        hops: list[int] | None = None
        more_hops: Iterator[int] | None = None
        for j in range(1, left + 1):
            if more_near is not None and more_via is not None and j > len(near):
                near.extend(islice(more_near, len(near)))
                via.extend(islice(more_via, len(via)))
            if j > 1:
                if hops is None:
                    hops, more_hops = self._hops(mask)
                if more_hops is not None and j - 1 > len(hops):
                    hops.extend(islice(more_hops, max(whole, len(hops))))
                if j - 1 > len(hops):
                    break
                chain += hops[j - 2]
            bound = max(floor, chain, via[j - 1], near[j - 1] + last)
            if bound <= light + torch_light * j or bound >= limit:
                return bound
        return INF

    def _hops(self, mask: int) -> tuple[list[int], Iterator[int] | None]:
        """Ascending, per untaken torch, a lower bound on the distance to its nearest other untaken torch: (a
        list, and an iterator of the rest or None).

        With every row known: that distance itself, the whole list, remembered
        per mask while it fits (the same mask comes back at each of its
        torches), O(torches) mostly. Otherwise the distance to the nearest
        other torch at all, read lazily.
        """
        if self.nearest is not None:
            nearest = self.nearest
            rest = (nearest[t] for t in self.by_hop if not mask >> t & 1)
            return list(islice(rest, self.whole)), rest
        hops = self._hops_cache.get(mask)
        if hops is not None:
            return hops, None
        hops = []
        for t, near in enumerate(self.neighbours):
            if mask >> t & 1:
                continue
            for d, u in near:
                if not mask >> u & 1:
                    hops.append(d)
                    break
        hops.sort()
        cost = 100 + 40 * len(hops)
        if not self.memory.allows(
            self._hops_used + cost, self.settings.hops_share
        ):  # a bounded share: forget, start again
            self._hops_cache.clear()
            self._hops_used = 0
        self._hops_used += cost
        self._hops_cache[mask] = hops
        return hops, None

    def weighted(self, upper: int = INF) -> tuple[list[int] | None, int]:
        """The weighted pass of rule 4 (see `run`): a walk shorter than `upper` found fast, or (None, INF) after
        `settings.greedy_budget` expansions."""
        return self.run(weight=self.settings.greedy_weight, budget=self.settings.greedy_budget, upper=upper)

    def descend(self, upper: int = INF) -> tuple[list[int] | None, int]:
        """A walk found without going back: from each key, the leg to the one of the `settings.descend_choices`
        nearest untaken torches within the light that leaves the least shortfall d(t, T) - light at t, until the
        light reaches T. (keys of the walk ending with `goal_key`, its steps), or (None, INF) at a dead end, when it
        is not shorter than `upper`, or when descend_choices is 0. One search from each key it stands on, only as
        far as the light: O(torches taken x cells) at worst."""
        choices = self.settings.descend_choices
        if not choices:
            return None, INF
        key, mask, steps, light = 0, 0, 0, self.start_light
        to_t, torch_light = self.to_t, self.torch_light
        index = self.tables.index
        chain = [0]
        while to_t[key] > light:
            self.clock.check()
            # the nearest `choices` untaken torches at most (the taken ones are keys too)
            wanted = min(len(chain) + choices, self.n + 1)
            cells, dists = self.tables.cave.keys_within(int(self.tables.cells[key]), light, wanted)
            best, best_short, best_d = -1, INF, 0
            for cell, d in zip(cells, dists, strict=True):
                t = index[cell] - 1
                if t < 0 or mask >> t & 1:
                    continue
                short = to_t[t + 1] - (light - d + torch_light)
                if short < best_short:
                    best, best_short, best_d = t, short, d
            if best < 0:
                return None, INF
            key, mask, steps, light = best + 1, mask | 1 << best, steps + best_d, light - best_d + torch_light
            chain.append(key)
        if steps + to_t[key] >= upper:
            return None, INF
        chain.append(self.goal_key)
        return chain, steps + to_t[key]

    def run(self, weight: int = 1, budget: int | None = None, upper: int = INF) -> tuple[list[int] | None, int]:
        """(keys of a walk H .. T ending with `goal_key`, its steps), or (None, INF).

        weight 1 (A*): the walk is the shortest among walks shorter than `upper`;
        None means there is none (a proof, with upper = INF: no path at all).
        weight > 1 orders by steps + weight x h: a walk found fast, not
        necessarily shortest; gives up (None) after `budget` expansions. Raises
        Timeout(message, lower bound) when the clock runs out and
        OutOfBudget(message, lower bound) when the labels outgrow their budget
        (the bound only for weight 1, else 0).
        """
        n, goal_key = self.n, self.goal_key
        to_t = self.to_t
        tables = self.tables
        start_light, torch_light = self.start_light, self.torch_light
        heuristic = self.heuristic
        counts = self.counts
        clock = self.clock
        check_every, memory_every = self.settings.check_every, self.settings.memory_every
        candidate_check, label_share = self.settings.candidate_check, self.settings.label_share
        switch = self.settings.front_switch
        # labels are parallel lists; a label is its index
        l_key = [0]
        l_mask = [0]
        l_steps = [0]
        l_parent = [-1]
        alive = [True]
        fronts = [_Front(torch_light, switch, self.words) for _ in range(n + 2)]
        fronts[0].offer(0, 0, 0)
        h0 = heuristic(0, 0, start_light)
        heap = [(weight * h0, 0, 0)] if h0 < INF else []  # (order, -steps, label): ties go deeper first
        best_goal = upper
        expanded = dominated = dead = 0
        order = 0
        try:
            while heap:
                order, _, label = heapq.heappop(heap)
                if not alive[label]:
                    continue
                key = l_key[label]
                if key == goal_key:
                    chain = []
                    cost = l_steps[label]
                    while label >= 0:
                        chain.append(l_key[label])
                        label = l_parent[label]
                    return chain[::-1], cost
                expanded += 1
                if budget is not None and expanded > budget:
                    return None, INF
                if expanded % check_every == 0:
                    clock.check(length=order, candidates=counts["expanded"] + expanded)
                    labels = len(l_key) * self.label_cost
                    if expanded % memory_every == 0 and not self.memory.allows(labels, label_share):
                        raise OutOfBudget(f"the search's {len(l_key):,} labels filled {self.memory.describe()}")
                mask, steps = l_mask[label], l_steps[label]
                light = start_light + torch_light * mask.bit_count() - steps
                d = to_t[key]
                if d <= light:  # rule 6: straight to T is best, no torch can help
                    if steps + d < best_goal:
                        best_goal = steps + d
                        l_key.append(goal_key)
                        l_mask.append(mask)
                        l_steps.append(best_goal)
                        l_parent.append(label)
                        alive.append(True)
                        heapq.heappush(heap, (best_goal, -best_goal, len(l_key) - 1))
                    continue
                row, by_near, _ = tables.row(key)
                tried = 0
                for t in by_near:  # every torch within the light, nearest first
                    d = row[t + 1]
                    if d > light:
                        break
                    if mask >> t & 1:
                        continue
                    tried += 1
                    if tried % candidate_check == 0:
                        clock.check()
                    if tables.passing(key, t) & ~mask:
                        continue  # rule 5: the leg passes an untaken torch
                    j = t + 1
                    new_mask = mask | 1 << t
                    new_steps = steps + d
                    h = heuristic(j, new_mask, light - d + torch_light, best_goal - new_steps)
                    if h >= INF:
                        dead += 1
                        continue
                    if new_steps + h >= best_goal:
                        continue  # rule 4: it cannot lead to a walk shorter than one already known
                    new = len(l_key)
                    killed = fronts[j].offer(new_mask, new_steps, new)  # rule 2, both ways
                    if killed is None:
                        dominated += 1
                        continue
                    for other in killed:
                        alive[other] = False
                    dominated += len(killed)
                    l_key.append(j)
                    l_mask.append(new_mask)
                    l_steps.append(new_steps)
                    l_parent.append(label)
                    alive.append(True)
                    heapq.heappush(heap, (new_steps + weight * h, -new_steps, new))
            return None, INF
        except Timeout:  # with weight 1, `order` is the smallest f: no walk is shorter
            raise Timeout("time limit", order if weight == 1 else 0) from None
        except OutOfBudget as exc:
            raise OutOfBudget(str(exc.args[0]), order if weight == 1 else 0) from None
        finally:
            counts["labels"] += len(l_key)
            counts["expanded"] += expanded
            counts["dominated"] += dominated
            counts["dead"] += dead


def _words(mask: int, words: int) -> np.ndarray:
    """A taken-torches mask as `words` little-endian 64-bit words. O(words)."""
    return np.frombuffer(mask.to_bytes(8 * words, "little"), "<u8")


class _Front:
    """The labels kept at one key cell: none dominates another (rule 2). O(size) per offer.

    Small fronts are plain lists; from `switch` labels on (never when `switch` is None),
    numpy arrays of the masks as `words` 64-bit words each do the pairwise
    test, which is the hot loop of the search on caves where many torches are
    close together.
    """

    __slots__ = (
        "torch_light",
        "switch",
        "words",
        "masks",
        "steps",
        "labels",
        "a_masks",
        "a_steps",
        "a_labels",
        "size",
    )

    def __init__(self, torch_light: int, switch: int | None, words: int = 1) -> None:
        self.torch_light = torch_light
        self.switch = switch
        self.words = words
        self.masks: list[int] = []
        self.steps: list[int] = []
        self.labels: list[int] = []
        self.a_masks: np.ndarray | None = None
        self.a_steps: np.ndarray | None = None
        self.a_labels: np.ndarray | None = None
        self.size = 0

    def offer(self, mask: int, steps: int, label: int) -> list[int] | None:
        """Add label (mask, steps) unless a kept label dominates it (then None); returns the labels it dominates."""
        if self.a_masks is not None:
            return self._offer_arrays(mask, steps, label)
        tl = self.torch_light
        masks, all_steps = self.masks, self.steps
        killed: list[int] = []
        for i in range(len(masks)):
            o_steps = all_steps[i]
            if o_steps <= steps and steps - o_steps >= tl * (mask & ~masks[i]).bit_count():
                return None
        for i in range(len(masks)):
            o_steps = all_steps[i]
            if steps <= o_steps and o_steps - steps >= tl * (masks[i] & ~mask).bit_count():
                killed.append(i)
        if killed:
            gone = set(killed)
            killed = [self.labels[i] for i in killed]
            keep = [i for i in range(len(masks)) if i not in gone]
            self.masks = [masks[i] for i in keep]
            self.steps = [all_steps[i] for i in keep]
            self.labels = [self.labels[i] for i in keep]
        self.masks.append(mask)
        self.steps.append(steps)
        self.labels.append(label)
        if self.switch is not None and len(self.masks) >= self.switch:
            self.size = len(self.masks)
            capacity = 4 * self.size
            self.a_masks = np.zeros((capacity, self.words) if self.words > 1 else capacity, np.uint64)
            self.a_steps = np.zeros(capacity, np.int64)
            self.a_labels = np.zeros(capacity, np.int64)
            for i, m in enumerate(self.masks):
                self.a_masks[i] = _words(m, self.words) if self.words > 1 else m
            self.a_steps[: self.size] = self.steps
            self.a_labels[: self.size] = self.labels
            self.masks, self.steps, self.labels = [], [], []
        return killed

    def _offer_arrays(self, mask: int, steps: int, label: int) -> list[int] | None:
        assert self.a_masks is not None and self.a_steps is not None and self.a_labels is not None
        size = self.size
        masks = self.a_masks[:size]
        all_steps = self.a_steps[:size]
        tl = self.torch_light
        wide = self.words > 1
        m = _words(mask, self.words) if wide else np.uint64(mask)
        slack = steps - all_steps  # >= 0: the kept label is no slower
        theirs = np.bitwise_count(m & ~masks)  # torches the new label has and a kept one has not
        if ((slack >= tl * (theirs.sum(axis=1) if wide else theirs)) & (slack >= 0)).any():
            return None
        mine = np.bitwise_count(masks & ~m)
        kill = (-slack >= tl * (mine.sum(axis=1) if wide else mine)) & (slack <= 0)
        killed: list[int] = []
        if kill.any():
            killed = self.a_labels[:size][kill].tolist()
            keep = ~kill
            size = int(keep.sum())
            self.a_masks[:size] = masks[keep]
            self.a_steps[:size] = all_steps[keep]
            self.a_labels[:size] = self.a_labels[: self.size][keep]
        if size == len(self.a_masks):
            self.a_masks = np.concatenate([self.a_masks, np.zeros_like(self.a_masks)])
            self.a_steps = np.concatenate([self.a_steps, np.zeros(size, np.int64)])
            self.a_labels = np.concatenate([self.a_labels, np.zeros(size, np.int64)])
        self.a_masks[size] = m
        self.a_steps[size] = steps
        self.a_labels[size] = label
        self.size = size + 1
        return killed
