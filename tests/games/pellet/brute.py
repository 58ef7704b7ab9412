"""An unpruned brute force for Pellet Eater, the reference the solver is checked against.

Plain depth-first search over every self-avoiding walk from the head: no move
order, no dead-end, connectivity or parity rule. Only for tiny boards.
"""

from __future__ import annotations

from gridbot.games.pellet import WALL, Level


def open_cells(level: Level) -> set[tuple[int, int]]:
    return {(r, c) for r, row in enumerate(level.rows) for c, ch in enumerate(row) if ch != WALL}


def complete(cells: set[tuple[int, int]], head: tuple[int, int], unvisited: set[tuple[int, int]]) -> list | None:
    """A walk from `head` through every cell of `unvisited` exactly once (cells after head), or None."""
    if not unvisited:
        return [head]
    r, c = head
    for nxt in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)):
        if nxt in unvisited:
            unvisited.discard(nxt)
            rest = complete(cells, nxt, unvisited)
            unvisited.add(nxt)
            if rest is not None:
                return [head, *rest]
    return None


def hamiltonian_path(level: Level) -> list | None:
    """A path of cells from S through every open cell, or None if there is none."""
    cells = open_cells(level)
    return complete(cells, level.start, cells - {level.start})
