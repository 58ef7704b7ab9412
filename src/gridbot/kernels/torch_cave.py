"""Breadth-first searches of the torch cave solver (gridbot.solve.torch_cave), plain and compiled.

The cave is flat: cell = row x width + column; `walls[cell]` is 1 for a wall.
Distances are -1 for a cell not reached. Every function takes its work arrays
from the caller (sized to the cave once per solve), so that nothing is
allocated per call. Move codes: 0 up, 1 down, 2 left, 3 right (`u d l r`).

The functions are plain Python that works on lists and bytes as well as on
numpy arrays: on a small cave they run as they are, which spares loading the
compiled ones (about a second in a fresh process). `compiled()` gives the
same functions compiled by gridbot.kernels.kernel (each plain function is the
compiled one's twin, `py_func`), for big caves and many searches.
"""

from __future__ import annotations

import functools
from types import SimpleNamespace

import numpy as np

from gridbot.kernels import kernel

UP, DOWN, LEFT, RIGHT = range(4)
EVERYTHING = -1  # `wanted` of a search that covers every reachable cell
FAR = 1 << 40  # "no other source" in nearest_other
_LETTERS = bytes.maketrans(bytes(range(4)), b"udlr")


@kernel(plain=True)  # plain Python in the plain searches, compiled into the compiled ones
def neighbour(cell, k, width, size):  # type: ignore[no-untyped-def]
    """The k-th neighbour of `cell` (k = 0 up, 1 down, 2 left, 3 right), or -1 off the grid. Found by
    position, not by value: when the cave is one cell wide, cell - 1 is the cell above. O(1)."""
    if k == 0:
        return cell - width if cell >= width else -1
    if k == 1:
        return cell + width if cell + width < size else -1
    if k == 2:
        return cell - 1 if cell % width > 0 else -1
    return cell + 1 if cell % width + 1 < width else -1


# the move made from neighbour k to the cell: from the one above it is down, and so on. Walking a path
# back tries them in this order (d, u, r, l), that of the first solver.
_CAME = (DOWN, UP, RIGHT, LEFT)


def bfs(walls, width, source, marks, wanted, radius, dist, queue):  # type: ignore[no-untyped-def]
    """Grid distances from `source` (steps, ignoring light) into `dist`, which must be -1 everywhere on entry.

    `queue` receives the cells reached in order of distance; the return value is
    how many. The search stops once `wanted` cells with marks[cell] != 0 (the
    source included) have been taken from the queue (a distance is final when
    set), so that a search for a few cells need not cover the whole cave; with
    `wanted` < 0 it covers everything reachable. It goes no farther than
    `radius` steps. O(cells reached).
    """
    size = len(walls)
    dist[source] = 0
    queue[0] = source
    found = 0
    head = 0
    tail = 1
    while head < tail:
        cell = queue[head]
        head += 1
        if marks[cell]:
            found += 1
            if found == wanted:
                break
        d = dist[cell] + 1
        if d > radius:
            break  # every cell left in the queue is as far
        c = cell % width
        # the four neighbours written out, not a loop nor `neighbour`: the plain solver's hot spot (20 % faster)
        if cell >= width and dist[cell - width] < 0 and walls[cell - width] == 0:
            dist[cell - width] = d
            queue[tail] = cell - width
            tail += 1
        if cell + width < size and dist[cell + width] < 0 and walls[cell + width] == 0:
            dist[cell + width] = d
            queue[tail] = cell + width
            tail += 1
        if c > 0 and dist[cell - 1] < 0 and walls[cell - 1] == 0:
            dist[cell - 1] = d
            queue[tail] = cell - 1
            tail += 1
        if c + 1 < width and dist[cell + 1] < 0 and walls[cell + 1] == 0:
            dist[cell + 1] = d
            queue[tail] = cell + 1
            tail += 1
    return tail


def lit_shortest(walls, width, dist, order, count, torch, start_light, torch_light, best):  # type: ignore[no-untyped-def]
    """Into best[cell]: the most torches on a shortest path from the source of `dist` that the light allows; -1
    if none does. Only the `count` cells of `order` (reached, in order of distance, from `bfs`) are written.

    `torch[cell]` is 1 on a torch. A shortest path visits no cell twice, so
    every torch on it gives its light, and the light on arriving at a cell at
    distance s with k torches taken is start + torch_light x k - s: a path
    with more torches is never worse, so best[cell] is exact. A step from u
    needs light >= 1 at u. O(cells).
    """
    size = len(walls)
    best[order[0]] = 0
    for i in range(1, count):
        v = order[i]
        want = dist[v] - 1
        found = -1
        for k in range(4):
            u = neighbour(v, k, width, size)
            lit = u >= 0 and dist[u] == want and best[u] >= 0 and start_light + torch_light * best[u] - want >= 1
            if lit and best[u] + torch[v] > found:
                found = best[u] + torch[v]
        best[v] = found
    return count


def lit_path_back(walls, width, dist, best, torch, start_light, torch_light, target, out):  # type: ignore[no-untyped-def]
    """One lit shortest path to `target` as found by `lit_shortest`, last move first into `out`.

    Returns the number of moves, -1 when there is none (target not reached, or
    best[target] < 0). At each cell, a neighbour one step nearer whose light
    allows the step and whose torch count leads here, trying the last move in
    the order d, u, r, l. With `best` and `torch` all 0 and `start_light`
    beyond any distance every shortest path qualifies: that is how any table
    of `bfs` gives a shortest path (`shortest_path_back`). O(length).
    """
    size = len(walls)
    if dist[target] < 0 or best[target] < 0:
        return -1
    cell = target
    count = 0
    while dist[cell] > 0:
        want = dist[cell] - 1
        prev = -1
        for k in range(4):
            prev = neighbour(cell, k, width, size)
            if (
                prev >= 0
                and dist[prev] == want
                and best[prev] >= 0
                and best[prev] + torch[cell] == best[cell]
                and start_light + torch_light * best[prev] - want >= 1
            ):
                out[count] = _CAME[k]
                break
            prev = -1
        if prev < 0:
            return -1
        count += 1
        cell = prev
    return count


def shortest_path_back(fns, walls, width, dist, zeros, target, out):  # type: ignore[no-untyped-def]
    """Moves of one shortest path from the source of `dist` to `target`, last move first into `out`, by
    `fns.lit_path_back` (plain or compiled) without the light: `zeros` is any array of 0 as long as the cave.
    Returns the number of moves, -1 when `target` was not reached. O(length)."""
    return fns.lit_path_back(walls, width, dist, zeros, zeros, FAR, 0, target, out)


def nearest_other(walls, width, sources, dist, owner, queue, out):  # type: ignore[no-untyped-def]
    """For each source i, the grid distance to the nearest other source, into out[i] (FAR if none).

    `dist` and `owner` must be -1 everywhere on entry. One breadth-first search
    from all sources at once gives each cell its nearest source (`owner`) and
    the distance to it; the nearest other source of i is the least
    dist[u] + 1 + dist[v] over neighbouring cells u, v owned by i and by
    another source. That is exact: on a shortest path from i to its nearest
    other source, take the first step (u, v) out of i's region; the sum there is
    no more than the path's length and no less than the distance from i to
    owner[v]. O(cells).
    """
    size = len(walls)
    tail = 0
    for i in range(len(sources)):
        s = sources[i]
        dist[s] = 0
        owner[s] = i
        queue[tail] = s
        tail += 1
        out[i] = FAR
    head = 0
    while head < tail:
        cell = queue[head]
        head += 1
        for k in range(4):
            n = neighbour(cell, k, width, size)
            if n >= 0 and dist[n] < 0 and walls[n] == 0:
                dist[n] = dist[cell] + 1
                owner[n] = owner[cell]
                queue[tail] = n
                tail += 1
    for j in range(tail):
        u = queue[j]
        for k in range(4):
            v = neighbour(u, k, width, size)
            if v >= 0 and owner[v] >= 0 and owner[v] != owner[u] and dist[u] + 1 + dist[v] < out[owner[u]]:
                out[owner[u]] = dist[u] + 1 + dist[v]
    return tail


def moves_text(codes, count: int) -> str:  # type: ignore[no-untyped-def]
    """The moves written last first by `lit_path_back`, as a `udlr` string in walking order."""
    return bytes(bytearray(codes[:count]))[::-1].translate(_LETTERS).decode("ascii")


# the compiled searches: made here, loaded from numba's cache (or compiled) only when `compiled()` first runs them
_FAST = SimpleNamespace(
    bfs=kernel(bfs), lit_shortest=kernel(lit_shortest), lit_path_back=kernel(lit_path_back),
    nearest_other=kernel(nearest_other),
)  # fmt: skip


def loaded() -> bool:
    """Have the compiled functions been loaded in this process (so that using them costs nothing more)?"""
    return compiled.cache_info().currsize > 0


@functools.cache
def compiled() -> SimpleNamespace:
    """The functions above compiled by numba (cached on disk), loaded once per process and run once on a tiny
    cave, so that none loads later. About a second in a fresh process (numba's own start), more the very
    first time, when numba compiles them."""
    fast = _FAST
    # the types the solver passes: walls read-only uint8, work arrays int32, codes int8, marks uint8
    walls = np.frombuffer(bytes(4), np.uint8)
    dist, queue, best, owner = (np.full(4, -1, np.int32) for _ in range(4))
    codes, marks = np.zeros(4, np.int8), np.zeros(4, np.uint8)
    count = fast.bfs(walls, 2, 0, marks, EVERYTHING, 4, dist, queue)
    shortest_path_back(fast, walls, 2, dist, marks, 3, codes)
    fast.lit_shortest(walls, 2, dist, queue, count, marks, 15, 15, best)
    fast.lit_path_back(walls, 2, dist, best, marks, 15, 15, 3, codes)
    dist[:] = -1
    fast.nearest_other(walls, 2, np.array([0, 3], np.int64), dist, owner, queue, np.zeros(2, np.int64))
    return fast
