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
2^torches in the worst case, far fewer in practice (BENCHMARKS.md#torch-cave).

Layout: `solve` here runs the phases in order; `cave` holds the breadth-first
searches and rules 7 and 8; `tables` the distances between keys and the memory
budget; `search` the label search (rules 1 to 6) and its greedy passes;
`front` the labels kept per key (rule 2); `settings` how time and memory are
spent.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gridbot.deadline import Clock, Progress, Timeout
from gridbot.errors import WrongAnswer
from gridbot.games.torch_cave import NAME, Level, Path, run
from gridbot.result import SolveResult, Status
from gridbot.solve.memory import OutOfBudget
from gridbot.solve.torch_cave.cave import _Cave, _ellipse, _horizon
from gridbot.solve.torch_cave.search import INF, _Search
from gridbot.solve.torch_cave.settings import Settings
from gridbot.solve.torch_cave.tables import _Memory, _Tables

__all__ = ["Settings", "solve"]

CELL_BYTES = 32  # work arrays per cell: walls, distances from H, T and a source, queue, moves, torches, DP


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
