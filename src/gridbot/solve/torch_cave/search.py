"""The label search of the package docstring (rules 1 to 6): A* over (key, torches taken, steps), and the two
greedy passes (weighted A*, a descent) that give it an upper bound."""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from itertools import islice
from typing import Any

from gridbot.deadline import Clock, Timeout
from gridbot.solve.memory import OutOfBudget
from gridbot.solve.torch_cave.front import _Front
from gridbot.solve.torch_cave.settings import Settings
from gridbot.solve.torch_cave.tables import _Memory, _Tables

INF = 1 << 60
LABEL_BYTES = 400  # per label besides its mask: list slots, heap entry, front entry, ints (generous)


class _Search:
    """A* over labels (key, taken mask, steps) on the key cells; see the package docstring for each cut.

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
