"""The cave as the breadth-first searches see it (plain Python or compiled), and rules 7 and 8 of the package
docstring: the horizon and ellipse that bound every walk, and the lit shortest path."""

from __future__ import annotations

from typing import Any

import numpy as np

from gridbot.deadline import Clock
from gridbot.games.torch_cave import Level
from gridbot.kernels import torch_cave as kern
from gridbot.solve.torch_cave.settings import Settings


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
