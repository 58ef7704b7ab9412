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
   GREEDY_BUDGET expansions) usually finds some walk of U steps. The exact pass
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

Complexity: one BFS per key cell, O(keys x cells); then O(labels x keys) with
labels <= keys x 2^torches in the worst case, far fewer in practice (see
BENCHMARKS.md).
"""

from __future__ import annotations

import heapq
from collections import deque
from typing import Any

import numpy as np

from gridbot.games.torch_cave import NAME, Level, Path, run
from gridbot.result import SolveResult
from gridbot.solve.search import Clock, Progress, Timeout

INF = 1 << 60
CHECK_EVERY = 256  # expansions between clock checks


def bfs(level: Level, source: int) -> list[int]:
    """Grid distances (steps, ignoring light) from `source` to every cell; -1 for unreachable. O(cells)."""
    width, height, walls = level.width, level.height, level.walls
    dist = [-1] * (width * height)
    dist[source] = 0
    queue = deque([source])
    pop, push = queue.popleft, queue.append
    while queue:
        cell = pop()
        d = dist[cell] + 1
        c = cell % width
        if cell >= width:
            n = cell - width
            if dist[n] < 0 and not walls[n]:
                dist[n] = d
                push(n)
        if cell + width < width * height:
            n = cell + width
            if dist[n] < 0 and not walls[n]:
                dist[n] = d
                push(n)
        if c > 0:
            n = cell - 1
            if dist[n] < 0 and not walls[n]:
                dist[n] = d
                push(n)
        if c + 1 < width:
            n = cell + 1
            if dist[n] < 0 and not walls[n]:
                dist[n] = d
                push(n)
    return dist


def shortest_moves(level: Level, dist_from: list[int], target: int) -> str:
    """Moves of one shortest path to `target` from the source of the BFS table `dist_from`. O(length)."""
    out = []
    cell = target
    while dist_from[cell] > 0:
        want = dist_from[cell] - 1
        for move, back in (("d", "u"), ("u", "d"), ("r", "l"), ("l", "r")):
            prev = level.move(cell, back)  # the cell we came from, one `move` before
            if prev >= 0 and dist_from[prev] == want:
                out.append(move)
                cell = prev
                break
        else:  # pragma: no cover - a BFS table always has a predecessor
            raise AssertionError("broken distance table")
    return "".join(reversed(out))


def solve(
    level: Level,
    time_limit: float | None = None,
    all_solutions: bool = False,
    progress: Progress | None = None,
) -> SolveResult:
    """A shortest path H -> T (status 'optimal'), 'unsolvable' (proven: no path), or, when
    `time_limit` runs out first, 'solved' (a path, not proven shortest) or 'timeout' (none found).

    `all_solutions` is accepted for the common interface and ignored: one
    shortest path is returned. `lower_bound` is the length of the path when
    optimal, else the smallest f left in the queue (no path is shorter).
    """
    clock = Clock(time_limit, progress)
    name = level.name

    def result(status: str, path: Path | None, lower_bound: int, stats: dict[str, Any]) -> SolveResult:
        length = None if path is None else path.steps
        return SolveResult(NAME, name, status, path, length, clock.seconds, lower_bound, stats)

    from_start = bfs(level, level.start)
    if from_start[level.treasure] < 0:
        return result("unsolvable", None, 0, {"reason": "walls cut H off from T", "labels": 0})
    # Torches the hero can never reach do not matter; the rest are numbered 0..n-1.
    torch_cells = [cell for cell in level.torches if from_start[cell] >= 0]
    keys = [level.start, *torch_cells]  # key 0 is H, key j + 1 is torch j
    tables = [from_start] + [bfs(level, cell) for cell in torch_cells]
    search = _Search(
        dist=[[table[cell] for cell in keys] for table in tables],  # all finite: one component
        to_t=[table[level.treasure] for table in tables],
        start_light=level.start_light,
        torch_light=level.torch_light,
        clock=clock,
    )

    def walk(chain: list[int]) -> Path:
        moves = []
        for a, b in zip(chain, chain[1:], strict=False):
            target = level.treasure if b == search.goal_key else keys[b]
            moves.append(shortest_moves(level, tables[a], target))
        path = Path("".join(moves))
        verdict = run(level, path).verdict
        if not verdict.won or verdict.step != path.steps:  # pragma: no cover - would be a bug
            raise AssertionError(f"solver path {path} does not reach T: {verdict}")
        return path

    # rule 4: a quick greedy walk gives an upper bound for the exact search
    greedy, greedy_cost = None, INF
    try:
        chain, cost = search.run(weight=GREEDY_WEIGHT, budget=GREEDY_BUDGET)
        if chain is not None:
            greedy, greedy_cost = chain, cost
        chain, cost = search.run(upper=greedy_cost)
    except Timeout as exc:
        bound = exc.args[0]
        stats = search.stats(greedy_cost)
        if greedy is None:
            return result("timeout", None, bound, stats)
        return result("solved", walk(greedy), min(bound, greedy_cost), stats)
    stats = search.stats(greedy_cost)
    if chain is None:
        chain = greedy
    if chain is None:
        stats["reason"] = "every walk runs out of light (exhaustive search)"
        return result("unsolvable", None, 0, stats)
    path = walk(chain)
    return result("optimal", path, path.steps, stats)


GREEDY_WEIGHT = 3
GREEDY_BUDGET = 2000  # expansions of the greedy pass
HOPS_CACHE = 1 << 16  # masks whose heuristic `hops` are remembered (about 15 MB at most)


class _Search:
    """A* over labels (key, taken mask, steps) on the key cells; see the module docstring for each cut.

    Key 0 is H, key t + 1 is torch t, key n + 1 stands for T. `dist[a][b]` are
    grid distances between keys, `to_t[a]` the distance from key a to T.
    """

    def __init__(
        self, dist: list[list[int]], to_t: list[int], start_light: int, torch_light: int, clock: Clock
    ) -> None:
        n = len(dist) - 1
        self.n = n
        self.goal_key = n + 1
        self.dist = dist
        self.to_t = to_t
        self.start_light = start_light
        self.torch_light = torch_light
        self.clock = clock
        self._between: list[list[int] | None] = [None] * (n + 1)
        self._hops_cache: dict[int, list[int]] = {}
        self.counts = {"labels": 0, "expanded": 0, "dominated": 0, "dead": 0}
        # per torch, the other torches by distance
        self.neighbours = [sorted((dist[t + 1][u + 1], u) for u in range(n) if u != t) for t in range(n)]
        # per key: torches by d(x, t) and by d(x, t) + d(t, T); all torches by d(t, T). Scans stop early.
        self.by_near = [sorted(range(n), key=lambda t, row=row: row[t + 1]) for row in dist]
        self.by_via = [sorted(range(n), key=lambda t, row=row: row[t + 1] + to_t[t + 1]) for row in dist]
        self.by_last = sorted(range(n), key=lambda t: to_t[t + 1])

    def between(self, key: int) -> list[int]:
        """Per torch t, the mask of the other torches on some shortest path from `key` to t. O(torches^2), cached."""
        found = self._between[key]
        if found is None:
            n, dist = self.n, self.dist
            row = dist[key]
            found = []
            for t in range(n):
                d = row[t + 1]
                mask = 0
                for k in range(n):
                    if k != t and k + 1 != key and row[k + 1] + dist[k + 1][t + 1] == d:
                        mask |= 1 << k
                found.append(mask)
            self._between[key] = found
        return found

    def stats(self, greedy_cost: int) -> dict[str, Any]:
        out: dict[str, Any] = dict(self.counts)
        out["torches"] = self.n
        if greedy_cost < INF:
            out["greedy"] = greedy_cost
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
        returning a value >= `limit`, once the bound reaches `limit`.
        O(torches^2) at worst, about O(torches) in practice.
        """
        to_t = self.to_t
        d_t = to_t[key]
        if d_t <= light or d_t >= limit:
            return d_t
        row = self.dist[key]
        near = [row[t + 1] for t in self.by_near[key] if not mask >> t & 1]  # d(x, t), untaken t, ascending
        if not near or near[0] > light:
            return INF  # no new torch within the light
        torch_light = self.torch_light
        if d_t > light + torch_light * len(near):
            return INF  # all the torches left would not light the way to T
        via = [row[t + 1] + to_t[t + 1] for t in self.by_via[key] if not mask >> t & 1]  # ascending
        first = near[0]
        via_first = INF  # min d(x, t) + d(t, T) over untaken t within the light
        for t in self.by_via[key]:
            if not mask >> t & 1 and row[t + 1] <= light:
                via_first = row[t + 1] + to_t[t + 1]
                break
        last = INF  # min d(t, T) over untaken t
        for t in self.by_last:
            if not mask >> t & 1:
                last = to_t[t + 1]
                break
        floor = d_t if d_t >= via_first else via_first
        chain = first + last
        hops: list[int] | None = None
        for j in range(1, len(near) + 1):
            if j > 1:
                if hops is None:
                    hops = self._hops(mask)
                if j - 2 >= len(hops):
                    break
                chain += hops[j - 2]
            bound = max(floor, chain, via[j - 1], near[j - 1] + last)
            if bound <= light + torch_light * j or bound >= limit:
                return bound
        return INF

    def _hops(self, mask: int) -> list[int]:
        """Per untaken torch, the distance to its nearest other untaken torch; ascending. O(torches) mostly.

        Remembered per mask (up to HOPS_CACHE masks): the same mask comes back at each of its torches.
        """
        hops = self._hops_cache.get(mask)
        if hops is not None:
            return hops
        hops = []
        for t, near in enumerate(self.neighbours):
            if mask >> t & 1:
                continue
            for d, u in near:
                if not mask >> u & 1:
                    hops.append(d)
                    break
        hops.sort()
        if len(self._hops_cache) < HOPS_CACHE:
            self._hops_cache[mask] = hops
        return hops

    def run(self, weight: int = 1, budget: int | None = None, upper: int = INF) -> tuple[list[int] | None, int]:
        """(keys of a walk H .. T ending with `goal_key`, its steps), or (None, INF).

        weight 1 (A*): the walk is the shortest among walks shorter than `upper`;
        None means there is none (a proof, with upper = INF: no path at all).
        weight > 1 orders by steps + weight x h: a walk found fast, not
        necessarily shortest; gives up (None) after `budget` expansions. Raises
        Timeout(lower bound) when the clock runs out (the bound only for weight 1).
        """
        n, goal_key = self.n, self.goal_key
        dist, to_t = self.dist, self.to_t
        start_light, torch_light = self.start_light, self.torch_light
        heuristic = self.heuristic
        counts = self.counts
        full = (1 << n) - 1
        # labels are parallel lists; a label is its index
        l_key = [0]
        l_mask = [0]
        l_steps = [0]
        l_parent = [-1]
        alive = [True]
        fronts = [_Front(torch_light, n <= _Front.MAX_TORCHES_NUMPY) for _ in range(n + 2)]
        fronts[0].offer(0, 0, 0)
        h0 = heuristic(0, 0, start_light)
        heap = [(weight * h0, 0, 0)] if h0 < INF else []  # (order, -steps, label): ties go deeper first
        best_goal = upper
        expanded = dominated = dead = 0
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
                if expanded % CHECK_EVERY == 0:
                    try:
                        self.clock.check(length=order, candidates=counts["expanded"] + expanded)
                    except Timeout:  # with weight 1, `order` is the smallest f: no walk is shorter
                        raise Timeout(order if weight == 1 else 0) from None
                mask, steps = l_mask[label], l_steps[label]
                light = start_light + torch_light * mask.bit_count() - steps
                row = dist[key]
                between = self.between(key)
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
                free = full & ~mask
                while free:
                    low = free & -free
                    t = low.bit_length() - 1
                    free ^= low
                    j = t + 1
                    d = row[j]
                    if d > light or between[t] & ~mask:
                        continue  # out of reach, or rule 5: the leg passes an untaken torch
                    new_mask = mask | low
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
        finally:
            counts["labels"] += len(l_key)
            counts["expanded"] += expanded
            counts["dominated"] += dominated
            counts["dead"] += dead


class _Front:
    """The labels kept at one key cell: none dominates another (rule 2). O(size) per offer.

    Small fronts are plain lists; from SWITCH labels on, numpy arrays (masks as
    int64, so up to 62 torches) do the pairwise test, which is the hot loop of
    the search on caves where many torches are close together.
    """

    SWITCH = 48
    MAX_TORCHES_NUMPY = 62
    __slots__ = ("torch_light", "vectorize", "masks", "steps", "labels", "a_masks", "a_steps", "a_labels", "size")

    def __init__(self, torch_light: int, vectorize: bool) -> None:
        self.torch_light = torch_light
        self.vectorize = vectorize
        self.masks: list[int] = []
        self.steps: list[int] = []
        self.labels: list[int] = []
        self.a_masks = self.a_steps = self.a_labels = None
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
        if self.vectorize and len(self.masks) >= self.SWITCH:
            self.size = len(self.masks)
            capacity = 4 * self.size
            self.a_masks = np.zeros(capacity, np.int64)
            self.a_steps = np.zeros(capacity, np.int64)
            self.a_labels = np.zeros(capacity, np.int64)
            self.a_masks[: self.size] = self.masks
            self.a_steps[: self.size] = self.steps
            self.a_labels[: self.size] = self.labels
        return killed

    def _offer_arrays(self, mask: int, steps: int, label: int) -> list[int] | None:
        size = self.size
        masks = self.a_masks[:size]
        all_steps = self.a_steps[:size]
        tl = self.torch_light
        m = np.int64(mask)
        slack = steps - all_steps  # >= 0: the kept label is no slower
        if np.any((slack >= tl * np.bitwise_count(m & ~masks)) & (slack >= 0)):
            return None
        kill = (-slack >= tl * np.bitwise_count(masks & ~m)) & (slack <= 0)
        killed: list[int] = []
        if kill.any():
            killed = self.a_labels[:size][kill].tolist()
            keep = ~kill
            size = int(keep.sum())
            self.a_masks[:size] = masks[keep]
            self.a_steps[:size] = all_steps[keep]
            self.a_labels[:size] = self.a_labels[: self.size][keep]
        if size == len(self.a_masks):
            self.a_masks = np.concatenate([self.a_masks, np.zeros(size, np.int64)])
            self.a_steps = np.concatenate([self.a_steps, np.zeros(size, np.int64)])
            self.a_labels = np.concatenate([self.a_labels, np.zeros(size, np.int64)])
        self.a_masks[size] = mask
        self.a_steps[size] = steps
        self.a_labels[size] = label
        self.size = size + 1
        return killed
