"""Every solution of the path games, each once: Pellet's Hamiltonian paths from S and the torch cave's shortest
walks, listed up to a cap (what `gridbot analyze` counts, and what tells a designer whether a path is unique).

>>> from gridbot.deadline import Clock
>>> from gridbot.games import pellet, torch_cave
>>> found = pellet_paths(pellet.Level.parse("S..\\n..."), 10, Clock(None))
>>> sorted(found.moves), found.capped
(['drrul', 'drurd', 'rrdll'], False)
>>> cave = torch_cave.Level.parse("H..\\n..T")
>>> found = torch_paths(cave, 3, 10, Clock(None))
>>> sorted(found.moves), found.capped
(['drr', 'rdr', 'rrd'], False)

*Pellet* (`pellet_paths`). The solver's compiled depth-first search (gridbot.kernels.pellet.search) is run to the
end instead of to the first path: at each path found the leaf is given no children, so that the next call
backtracks from it, and the search goes on until the tree is exhausted or `most` + 1 paths are found. The search
tree has one node per prefix of a path from S (a node is the cells eaten so far in their order), so each
Hamiltonian path is one leaf and is found once, and the move order (Warnsdorff, ties by fixed keys) only changes
which comes first. Each rule that cuts a node is a proof that no path extends it (kernels.pellet.search says why
each holds), so no path is lost:

- a free cell with no free neighbour left, or two with one (each could only be the last cell);
- a neighbour of the head with no way on is entered only as the last cell;
- block_check: free cells cut off from the head, a head that separates the free cells, a cut cell with three
  parts, two parts that each need the path's end, checkerboard colour parity of every segment;
- forced-edge propagation, once the last cell is known: a contradiction proves the node dead.

What the solver adds to find one path fast is left out: its table of failed positions (a position whose subtree
held a path would be stored as failed once the listing backtracks out of it, and a later prefix reaching the same
position would be cut with its paths) and its restarts (each re-explores the tree from the root).

*Torch cave* (`torch_paths`). The walks of exactly `length` steps from H that reach T at their last step, each
once, counted over the layered graph of the hero's states. A state after s steps is (cell, torches taken); its
light follows from the two and s (start light + 15 x taken - s) and is kept with it. Layer s + 1 is every state
one legal step (Level.move, Level.enter: not into a wall, with at least 1 light) from a state of layer s, less
those from which T is farther than the steps left (no walk of `length` goes on from them), less those whose
light is less than the distance to T and to every torch (it runs out before more can be had or T reached), and
less the states on T before the last layer (the walk ends at T: the simulator stops there). Then, from the last
layer back, each state's number of completions (walks on to T in the steps left), saturated at `most` + 1; the
count at H is the number of walks (or more than `most`).

A walk is one path through the layers: a move sequence gives one state sequence (the rules are deterministic)
and a state sequence gives its moves back (consecutive cells are neighbours, one move apart), so distinct walks
are distinct state paths and the other way round. The walks listed are read off by a depth-first descent into
states with completions, which never meets a dead end: listing `most` of them costs `most` x `length` steps.

The grid is bipartite: every step changes the colour of the cell on a chessboard, so every walk from H to T has
the parity of d(H, T), and none of par + 1 steps exists (`torch_paths` answers that at once).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from gridbot.deadline import Clock, Timeout
from gridbot.errors import GridbotError
from gridbot.games import pellet as pellet_game
from gridbot.games import torch_cave as cave_game
from gridbot.kernels import pellet as kern
from gridbot.solve import pellet as pellet_solver
from gridbot.solve.memory import memory_budget

# bytes a state of the torch cave's layers costs, for the memory budget: the (cell, taken) key of the layer dict,
# its light, its entry in the completions dict (measured with tracemalloc: about 200; twice that to spare)
STATE_BYTES = 400


class TooManyStates(GridbotError):
    """The torch cave's layers of states would not fit the memory budget: the count stops (a lower bound)."""


@dataclass(frozen=True, slots=True)
class Paths:
    """The solutions a listing found: `moves`, each once, at most `most` of them; `capped` when there are more, or
    may be (`stopped`: the clock ran out first, so len(moves) is a lower bound); `nodes`: the search's work (nodes
    of Pellet's search tree, states of the torch cave's layers)."""

    moves: tuple[str, ...]
    capped: bool
    stopped: bool
    nodes: int


# ---------------------------------------------------------------- Pellet


def _each_pellet_path(
    level: pellet_game.Level, clock: Clock, counter: list[int], settings: pellet_solver.Settings | None = None
) -> Iterator[str]:
    """Yield every Hamiltonian path of `level` from S, each once, as its move string (the module docstring says
    why each is found once and none is lost); `counter[0]` counts the search's nodes. Raises Timeout when the
    clock runs out (between chunks of at most about 70 ms of work, as the solver's search)."""
    settings = pellet_solver.Settings() if settings is None else settings
    board = pellet_solver.Board(level, settings)
    if board.pellets == 0:
        yield ""
        return
    free, deg, sc = board.fresh_state()
    scratch = board.scratch()
    m = board.pellets + 1
    work = np.zeros(7 * m, np.int32)
    path, cand, ncand, cidx = work[:m], work[m : 5 * m], work[5 * m : 6 * m], work[6 * m :]
    info = np.zeros(2, np.int64)
    key = pellet_solver._keys(board, 0, 0, settings.cache_max_padded)
    no_memo = (np.zeros(board.n, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int32))
    path[0] = board.start
    # forced-edge propagation on every board: it only ever proves a node dead, and a listing runs the whole tree
    sc[kern.S_FORCED] = 1
    chunk = max(1, settings.chunk_cells // m)
    while True:
        before = int(sc[kern.S_NODES])
        status = kern.search(
            board.off, free, deg, board.col, key, sc, path, cand, ncand, cidx, scratch, info,
            before + chunk, 1, *no_memo,
        )  # fmt: skip
        counter[0] += int(sc[kern.S_NODES]) - before
        if status == kern.EXHAUSTED:
            return
        if status == kern.FOUND:
            depth = int(sc[kern.S_DEPTH])
            yield pellet_game.moves_of_indices(path[: depth + 1], board.pw)
            # the leaf has no children: the next call backtracks from it (with no memo, nothing is stored)
            ncand[depth] = 0
            cidx[depth] = 0
        clock.check(candidates=counter[0])


def pellet_paths(
    level: pellet_game.Level, most: int, clock: Clock, settings: pellet_solver.Settings | None = None
) -> Paths:
    """The Hamiltonian paths of `level` from S (its solutions), each once, at most `most`; capped when there are
    more. When the clock runs out, the paths found so far, `stopped` and capped (a lower bound). Every path has
    one move per pellet. Time: the search tree's nodes (all of them when there are at most `most` paths),
    O(cells) each; memory O(cells)."""
    found: list[str] = []
    counter = [0]
    try:
        for moves in _each_pellet_path(level, clock, counter, settings):
            if len(found) == most:
                return Paths(tuple(found), True, False, counter[0])
            found.append(moves)
    except Timeout:
        return Paths(tuple(found), True, True, counter[0])
    return Paths(tuple(found), False, False, counter[0])


def other_pellet_path(
    level: pellet_game.Level, moves: str, clock: Clock, settings: pellet_solver.Settings | None = None
) -> str | None:
    """A Hamiltonian path of `level` from S other than `moves`, or None when there is none (`moves` is then the
    only path, if it is one): the listing's first two paths decide it. Raises Timeout when the clock runs out."""
    counter = [0]
    for found in _each_pellet_path(level, clock, counter, settings):
        if found != moves:
            return found
    return None


# ---------------------------------------------------------------- torch cave


def _distances(level: cave_game.Level, sources: list[int]) -> list[int]:
    """The fewest steps from each cell to the nearest of `sources` (the light ignored), -1 where none can be
    reached: a breadth-first search over Level.move from them (steps are symmetric: a cell next to another is
    next to it back). O(cells)."""
    dist = [-1] * (level.width * level.height)
    for source in sources:
        dist[source] = 0
    frontier = list(sources)
    d = 0
    while frontier:
        d += 1
        after = []
        for cell in frontier:
            for move in cave_game.MOVES:
                nxt = level.move(cell, move)
                if nxt >= 0 and dist[nxt] < 0:
                    dist[nxt] = d
                    after.append(nxt)
        frontier = after
    return dist


State = tuple[int, int]  # (cell, torches taken as a mask)


def _steps(level: cave_game.Level, state: State, light: int) -> Iterator[tuple[str, State, int]]:
    """(move, next state, its light) of each legal step from `state` with `light` (the game's rules: at least 1
    light, not into a wall, a torch's light the first time)."""
    if light < 1:
        return
    cell, taken = state
    for move in cave_game.MOVES:
        nxt = level.move(cell, move)
        if nxt >= 0:
            after, now_taken = level.enter(nxt, light - 1, taken)
            yield move, (nxt, now_taken), after


def torch_paths(level: cave_game.Level, length: int, most: int, clock: Clock, budget: int | None = None) -> Paths:
    """The walks of exactly `length` steps from H whose last step, and no other, reaches T, each once, at most
    `most`; capped when there are more (the module docstring says how they are counted, and why each walk is
    one path through the layers). Raises Timeout when the clock runs out and TooManyStates when the layers would
    not fit `budget` bytes (default: memory_budget()); either way nothing is counted. Time and memory: the states
    of the layers (cells within reach of H and of T at each step, times the sets of torches taken), O(that x 4)."""
    budget = memory_budget() if budget is None else budget
    start, treasure = level.start, level.treasure
    rs, cs = divmod(start, level.width)
    rt, ct = divmod(treasure, level.width)
    if length < 1 or (length - (rs + cs + rt + ct)) % 2:  # each step changes the cell's colour
        return Paths((), False, False, 0)
    dist = _distances(level, [treasure])
    # light that reaches neither T nor any torch runs out on the way: such a state has no walk on to T
    near = [min(a if a >= 0 else length + 1, b if b >= 0 else length + 1)
            for a, b in zip(dist, _distances(level, list(level.torches)), strict=True)]  # fmt: skip
    if dist[start] < 0 or dist[start] > length:
        return Paths((), False, False, 0)
    layers: list[dict[State, int]] = [{(start, 0): level.start_light}]
    states = 1
    for s in range(length):
        clock.check(candidates=states)
        left = length - s - 1
        nxt: dict[State, int] = {}
        for state, light in layers[-1].items():
            if state[0] == treasure:  # the walk ends on T: the simulator stops there
                continue
            for _, after, after_light in _steps(level, state, light):
                cell = after[0]
                if 0 <= dist[cell] <= left and after_light >= near[cell]:
                    nxt[after] = after_light
        layers.append(nxt)
        states += len(nxt)
        if states * STATE_BYTES > budget:
            raise TooManyStates(f"the walks of {length} steps pass more than {states:,} states")
    # completions of each state, saturated at most + 1; only states with some are kept
    ways: list[dict[State, int]] = [{} for _ in layers]
    ways[length] = {state: 1 for state in layers[length] if state[0] == treasure}
    for s in range(length - 1, -1, -1):
        clock.check(candidates=states)
        later = ways[s + 1]
        here = ways[s]
        for state, light in layers[s].items():
            if state[0] == treasure:
                continue
            total = 0
            for _, after, _light in _steps(level, state, light):
                total += later.get(after, 0)
            if total:
                here[state] = min(total, most + 1)
    count = ways[0].get((start, 0), 0)
    found: list[str] = []
    if count:
        _descend_iteratively(level, ways, length, most, found)
    return Paths(tuple(found), count > most, False, states)


def _descend_iteratively(
    level: cave_game.Level, ways: list[dict[State, int]], length: int, most: int, found: list[str]
) -> None:
    """Append to `found` the first `most` walks through states with completions, in move order: a depth-first
    descent with an explicit stack (walks may be thousands of steps). Each state entered has a completion, so
    every branch ends in a walk: O(most x length) steps."""
    walk: list[str] = []
    stack = [_steps(level, (level.start, 0), level.start_light)]
    while stack:
        s = len(walk)
        for move, after, light in stack[-1]:
            if after not in ways[s + 1]:
                continue
            if s + 1 == length:  # on T
                found.append("".join(walk) + move)
                if len(found) == most:
                    return
                continue
            walk.append(move)
            stack.append(_steps(level, after, light))
            break
        else:  # every step from this state tried: back to the one before
            stack.pop()
            if walk:
                walk.pop()


__all__ = ["Paths", "TooManyStates", "other_pellet_path", "pellet_paths", "torch_paths"]
