"""The puzzle as RoboZZle's kernels read it (Board), the program in their arrays (program_of), and what the
solver and the heuristics know of the stars before any search (_stars_cut_off, _star_distances)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gridbot.games.robozzle import COLOURS, FUNCTIONS, Command, Level, Program
from gridbot.grid import mirror_symmetric
from gridbot.kernels import robozzle as kern


@dataclass(frozen=True, slots=True)
class Board:
    """The puzzle as the kernel reads it (layout in gridbot.kernels.robozzle)."""

    step: np.ndarray
    colour: np.ndarray
    star: np.ndarray
    slots: np.ndarray
    paints: int
    present: int
    prev_same: np.ndarray
    start: int
    facing: int
    stars: int
    cells: int
    # the puzzle is its own mirror image across the robot's line of travel (gridbot.grid.mirror_symmetric): the
    # exact search keeps one program of each mirrored pair (gridbot.solve.robozzle.exact, cut 14)
    mirror: bool = False

    @classmethod
    def of(cls, level: Level) -> Board:
        """Tabulate `level`. O(tiles)."""
        h, w = level.height, level.width
        step = np.full(h * w * 4, -1, np.int64)
        colour = np.full(h * w, -1, np.int64)
        star = np.zeros(h * w, np.int64)
        for r, row in enumerate(level.colours):
            for c, ch in enumerate(row):
                if not level.tile((r, c)):
                    continue
                colour[r * w + c] = COLOURS.index(ch)
                for facing in range(4):
                    dr, dc = ((-1, 0), (0, 1), (1, 0), (0, -1))[facing]
                    if level.tile((r + dr, c + dc)):
                        step[(r * w + c) * 4 + facing] = (r + dr) * w + c + dc
        for r, c in level.stars:
            star[r * w + c] = 1
        paints = sum(1 << COLOURS.index(ch) for ch in level.paints)
        present = 0
        for k in range(3):
            if (colour == k).any() or paints >> k & 1:
                present |= kern.NO_COND << (k + 1)
        prev_same = np.full(FUNCTIONS, -1, np.int64)
        for g in range(2, FUNCTIONS):
            for h_ in range(g - 1, 0, -1):
                if level.slots[h_] == level.slots[g]:
                    prev_same[g] = h_
                    break
        start = level.start[0] * w + level.start[1]
        stars = set(level.stars)

        def square(p: tuple[int, int]) -> tuple[str, bool] | None:
            return (level.colours[p[0]][p[1]], p in stars) if level.tile(p) else None  # off the board: a hole

        mirror = mirror_symmetric(h, w, level.start, level.facing, square)
        return cls(
            step, colour, star, np.array(level.slots, np.int64), paints, present, prev_same, start,
            int(level.facing), len(level.stars), h * w, mirror,
        )  # fmt: skip

    @property
    def named(self) -> int:
        """The colours a condition may name (condition bits): those that can occur, less those a relaxed board
        leaves out."""
        return self.present & kern.COLOUR_BITS & ~(self.present >> kern.CONDS_OFF)

    @property
    def condition_bits(self) -> list[int]:
        """The condition bit of each colour a condition may name (`named`), red first."""
        return [2 << c for c in range(3) if self.named & (2 << c)]


def program_of(op: np.ndarray, cs: np.ndarray, nd: np.ndarray) -> Program:
    """The program in the kernel's arrays: each slot's condition the first its set allows (none first; for a paint,
    a colour first: reached on its own colour, it was run as skipped, machine._run), a command never decided (a
    slot only ever skipped) as F. O(slots)."""
    bodies = []
    for f in range(FUNCTIONS):
        body = []
        for i in range(int(nd[f])):
            o, conds = int(op[f, i]), int(cs[f, i])
            if o >= kern.OP_PAINT and conds & kern.COLOUR_BITS:
                conds &= kern.COLOUR_BITS
            cond = "" if conds & kern.NO_COND else next(COLOURS[k] for k in range(3) if conds >> (k + 1) & 1)
            body.append(Command(_op_text(o), cond))
        bodies.append(tuple(body))
    return Program(tuple(bodies))


def _op_code(text: str) -> int:
    """The kernel's op of a command's op text (the inverse of _op_text). O(1)."""
    if text in ("F", "L", "R"):
        return "FLR".index(text)
    if text.startswith("P"):
        return kern.OP_PAINT + COLOURS.index(text[1])
    return kern.OP_CALL + int(text) - 1


def _op_text(o: int) -> str:
    if o < kern.OP_CALL:
        return "FLR"[max(o, 0)]
    if o < kern.OP_PAINT:
        return str(o - kern.OP_CALL + 1)
    return "P" + COLOURS[o - kern.OP_PAINT]


def _stars_cut_off(level: Level) -> list[tuple[int, int]]:
    """The stars no walk over tiles from the robot's tile reaches (holes never become tiles, so no program
    collects them). O(tiles)."""
    seen, todo = {level.start}, [level.start]
    while todo:
        r, c = todo.pop()
        for there in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if level.tile(there) and there not in seen:
                seen.add(there)
                todo.append(there)
    return [star for star in level.stars if star not in seen]


def _star_distances(board: Board, many_stars: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The stars' tiles; per star the number of moves from every tile to it over tiles (1 << 20 where it
    cannot be reached); and per tile the stars it reaches, nearest first (-1 after them), so that the beam
    finds the nearest star left in about one look rather than one per star. With more than `many_stars` stars,
    one star row instead: the moves to the nearest star of the start (and the tiles [-1], "any star left"), to
    keep the tables small. O(min(stars, many_stars) x tiles x log)."""
    spos = np.flatnonzero(board.star).astype(np.int64)
    sources = [[int(t)] for t in spos] if len(spos) <= many_stars else [[int(t) for t in spos]]
    sdist = np.full((len(sources), board.cells), 1 << 20, np.int64)
    for k, targets in enumerate(sources):
        sdist[k, targets] = 0
        frontier = targets
        while frontier:
            nxt = []
            for tile in frontier:
                for facing in range(4):
                    other = int(board.step[tile * 4 + facing])
                    if other >= 0 and sdist[k, other] > sdist[k, tile] + 1:
                        sdist[k, other] = sdist[k, tile] + 1
                        nxt.append(other)
            frontier = nxt
    near = np.argsort(sdist.T, axis=1, kind="stable")
    snear = np.where(np.take_along_axis(sdist.T, near, axis=1) < 1 << 20, near, -1)
    return (spos if len(spos) <= many_stars else np.array([-1], np.int64)), sdist, snear
