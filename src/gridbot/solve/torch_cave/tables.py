"""The memory budget as the solver counts it, and the distances between key cells (H and the torches), a row
per key computed on demand and dropped when the rows outgrow their share."""

from __future__ import annotations

import numpy as np

from gridbot.deadline import Clock
from gridbot.solve.memory import OutOfBudget
from gridbot.solve.memory import memory_budget as _memory_budget
from gridbot.solve.torch_cave.cave import _Cave

ROW_BYTES = 3 * 40  # per entry of a kept row: distance and two orders, Python lists of ints (generous)
PATH_BYTES = 64  # per leg remembered for rule 5, besides its mask


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
