"""RoboZZle's beam search (Beam): the exact search's decisions taken a depth at a time, keeping the partial
programs that score best, then the repair of its best line by the exact search below it."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent import futures
from typing import Any

import numpy as np

from gridbot.deadline import Clock
from gridbot.errors import WrongAnswer
from gridbot.games.robozzle import Program
from gridbot.kernels import robozzle as kern
from gridbot.solve.deepening import run_share
from gridbot.solve.robozzle.board import Board, _star_distances, program_of
from gridbot.solve.robozzle.exact import _Search
from gridbot.solve.robozzle.heuristic import _Heuristic, _Lane
from gridbot.solve.robozzle.settings import DEFAULT, Settings

DEAD = -(1 << 62)  # the score of a partial program every next decision of which loses


class Beam(_Heuristic):
    """The heuristic: a beam search over the same decisions as the exact search, keeping at each depth the
    `width` partial programs that have collected the most stars with the fewest slots (ties broken at random,
    seeded). Every other pass (`_spread`) keeps first the best of each place the robot stands at (tile,
    facing, stars left) and only then more of one place: a beam full of programs that all leave the robot
    at the same place explores one line of play many times over. It proves nothing; a program it finds is an
    upper bound for the exact search, and the answer when time runs out. The kernel (beam_step) runs the beam's
    partial programs in lexicographic order, each going on from the decisions it shares with the one before
    (as the exact search backtracks), so a depth costs about O(width x options x actions to the next decision)
    rather than a run from the start per child, which costs the whole run again for every child.

    With `rollout`, every other pair of passes scores each child instead by playing its run out as it stands
    (kern.beam_step: ends not decided end their function, commands not decided are skipped): what the
    program's shape already does counts, not only the stars met before its next decision; the beam then finds
    programs for puzzles it misses without (docs/perf-log/).
    """

    def __init__(
        self,
        board: Board,
        stack_cap: int,
        width: int | None = None,
        seed: int = 0,
        stop: Callable[[], bool] | None = None,
        threads: int = 1,
        lookahead: int = 0,
        rollout: bool = False,
        *,
        settings: Settings = DEFAULT,
    ) -> None:
        self.board = board
        self.settings = settings
        self.rollout = rollout  # children scored by their runs played out as they stand (kern.beam_step)...
        self.rolling = rollout  # ...in this pass
        self.stop_asked = stop  # asked between depths and repairs (a worker's stop flag), besides the clock
        self.width = settings.beam_width if width is None else width  # the first width of every pass
        self.rng = np.random.default_rng(seed)
        self.lookahead = lookahead
        self.threads = max(1, threads)
        # per thread, the arrays its runs go on in (the first thread's are also the replay's)
        self.lanes = [_Lane(board, stack_cap) for _ in range(self.threads)]
        self.search, self.rpath, self.frame = self.lanes[0].search, self.lanes[0].rpath, self.lanes[0].frame
        self.nodes = 0
        self.passes = 0
        self.best: Program | None = None
        self.lead: tuple[int, np.ndarray] | None = None  # the best-scored partial program met: score, decisions
        self.repaired: tuple[Any, int, int] = (None, 1, settings.repair_nodes)  # lead repaired, next cut, budget
        self.spos, self.sdist, self.snear = _star_distances(board, settings.many_stars)
        self.weights = np.array(settings.weights, np.int64)

    def guess(self, most_slots: int, clock: Clock, seconds: float) -> Program | None:
        """The beam (`run`) for part of `seconds`, then the repair of its best line for the rest (the settings'
        repair_share): a program of at most `most_slots` slots, or None."""
        stop = clock.seconds + seconds
        found = self.run(most_slots, clock, (1 - self.settings.repair_share) * seconds)
        if found is None:
            found = self.repair(most_slots, clock, max(0.0, stop - clock.seconds))
        return found

    def run(self, most_slots: int, clock: Clock, seconds: float) -> Program | None:
        """Look for a program of at most `most_slots` slots for about `seconds` (one depth at least); returns it
        (also kept as `best` when shorter than the best so far) or None. A beam that dies out (every partial
        program in it lost) starts again twice as wide, with other ties broken; past `max_beam`, as wide as at
        first again (see Settings.max_beam)."""
        stop = clock.seconds + seconds
        width = self.width
        with futures.ThreadPoolExecutor(self.threads) as pool:
            while True:
                found = self._pass(pool, most_slots, clock, stop, width)
                if found is not None or self._time_up(clock, stop):
                    return found
                width = width * 2 if width < self.settings.max_beam else self.width

    def _pass(self, pool: futures.Executor, most_slots: int, clock: Clock, stop: float, width: int) -> Program | None:
        b, s = self.board, self.search
        for lane in self.lanes:
            lane.search.sc[kern.S_LENGTH] = most_slots
        spread = self.passes % 2 == 1  # every other pass keeps the best of each place first
        # with roll-outs, every other pair of passes (one spread, one not) scores its children played out
        self.rolling = self.rollout and (self.passes // 2) % 2 == 0
        # the look-ahead's passes are in pairs, one spread and one not; a depth of theirs runs about as many
        # grandchildren as one of the widest beam's runs children
        ahead = self.lookahead > 0 and (self.passes // 2) % self.lookahead == self.lookahead - 1
        if ahead:
            width = min(width, self.settings.max_beam // kern.MAX_OPTIONS)
        self.passes += 1
        depth_cap = kern.MAX_FRAMES
        parents = np.zeros((width, depth_cap), np.int64)
        children = [_Children(width * kern.MAX_OPTIONS) for _ in self.lanes]  # one list per thread
        out = children[0] if len(children) == 1 else _Children(width * kern.MAX_OPTIONS)
        won = np.zeros(depth_cap + 2, np.int64)
        won[-1] = most_slots + 1
        count, depth = 1, 0  # every parent is as deep as the others, so every child is one deeper
        while count and not self._time_up(clock, stop):
            m = self._expand(pool, parents, depth, count, children, out, won)
            self.nodes += m
            if won[-1] <= most_slots:
                break
            scores = out.scores
            self._note_lead(parents, depth, out, m)
            if ahead and m:
                scores = self._ahead(pool, parents, depth, m, out, won)
                if won[-1] <= most_slots:
                    break
            keep = np.argsort(-(scores[:m] + self.rng.random(m) * self.settings.noise), kind="stable")
            if ahead:
                keep = keep[scores[keep] > DEAD]
            keep = (_spread(keep, out.places[:m], width) if spread else keep)[:width]
            count = len(keep)
            if count:
                depth += 1
                lines = parents[out.parent[keep], :depth]
                lines[:, -1] = out.option[keep]
                # in lexicographic order, so that each parent goes on from the decisions it shares with the one
                # before
                parents[:count, :depth] = lines[np.lexsort(lines.T[::-1])]
        if won[-1] > most_slots:
            return None
        lane = self.lanes[0]
        lane.node += 1
        kern._replay(won, won[-2], lane.node, b.step, b.colour, b.star, b.start, b.facing, b.stars, s.colour,
                     s.star, s.op, s.cs, s.nd, s.closed, s.stack, s.trail, s.stamp, s.records, self.rpath, s.dropped,
                     s.sc)  # fmt: skip
        found = program_of(s.op, s.cs, s.nd)
        self.keep(found)
        return found

    def _note_lead(self, parents: np.ndarray, depth: int, out: _Children, m: int) -> None:
        """The best-scored of the `m` children in `out` (of `parents`, `depth` decisions each) becomes the lead
        when it scores above it."""
        if m:
            top = int(np.argmax(out.scores[:m]))
            if self.lead is None or out.scores[top] > self.lead[0]:
                self.lead = (int(out.scores[top]), np.append(parents[out.parent[top], :depth], out.option[top]))

    def _ahead(self, pool: futures.Executor, parents: np.ndarray, depth: int, m: int, out: _Children,
               won: np.ndarray) -> np.ndarray:  # fmt: skip
        """The score of each of the `m` children in `out` (of `parents`, `depth` decisions each) as the best of its
        own children's, DEAD when it has none (every next decision loses); a win among them goes into `won`."""
        rows = np.zeros((m, depth + 2), np.int64)  # the last column: where the kernel writes each next decision
        rows[:, :depth] = parents[out.parent[:m], :depth]
        rows[:, depth] = out.option[:m]
        order = np.lexsort(rows[:, : depth + 1].T[::-1])
        rows = rows[order]
        grand = [_Children(m * kern.MAX_OPTIONS) for _ in self.lanes]
        into = grand[0] if len(grand) == 1 else _Children(m * kern.MAX_OPTIONS)
        g = self._expand(pool, rows, depth + 1, m, grand, into, won)
        self.nodes += g
        best = np.full(m, DEAD, np.int64)
        if g:
            self._note_lead(rows, depth + 1, into, g)
            # the children come in their parents' order: the best of each parent's run
            parent = into.parent[:g]
            starts = np.flatnonzero(np.r_[True, parent[1:] != parent[:-1]])
            best[parent[starts]] = np.maximum.reduceat(into.scores[:g], starts)
        value = np.empty(m, np.int64)
        value[order] = best
        return value

    def _expand(
        self,
        pool: futures.Executor,
        parents: np.ndarray,
        depth: int,
        count: int,
        children: list[_Children],
        out: _Children,
        won: np.ndarray,
    ) -> int:
        """Expand the first `count` rows of `parents` (beam_step), in as many runs of consecutive rows as there
        are threads (at least `min_parents` rows each), each on a thread of `pool` in its own arrays (the kernel
        lets go of the GIL); their children are put together in `out` in the rows' order, as one run over all
        the rows would list them. Returns how many children there are."""
        parts = max(1, min(len(self.lanes), count // self.settings.min_parents))
        bounds = [count * k // parts for k in range(parts + 1)]

        def part(k: int) -> int:
            children[k].won[:] = won
            rows = parents[bounds[k] : bounds[k + 1]]
            return self._step(self.lanes[k], rows, depth, bounds[k + 1] - bounds[k], children[k])

        # one part runs on this thread: no hand-over
        counts = [part(0)] if parts == 1 else [job.result() for job in [pool.submit(part, k) for k in range(parts)]]
        m = 0
        for k, n in enumerate(counts):
            _gather(out, children[k], m, n, bounds[k], won)
            m += n
        return m

    def _step(self, lane: _Lane, rows: np.ndarray, depth: int, count: int, out: _Children) -> int:
        """beam_step over `rows` in `lane`'s arrays, its children into `out`: how many there are."""
        b, s = self.board, lane.search
        m, lane.node = kern.beam_step(
            rows, depth, count, out.parent, out.option, out.scores, out.won, b.step, b.colour, b.star, b.start,
            b.facing, b.stars, b.slots, b.paints, b.present, b.prev_same, s.colour, s.star, s.op, s.cs, s.nd,
            s.closed, s.stack, s.trail, s.stamp, s.records, lane.rpath, s.dropped, s.frames, lane.frame, s.sc,
            lane.node, self.spos, self.sdist, self.snear, self.weights, out.places, self.rolling,
        )  # fmt: skip
        return int(m)

    def _time_up(self, clock: Clock, stop: float) -> bool:
        """Has the heuristic's time (to `stop` on `clock`) run out, or has it been asked to stop?"""
        return clock.seconds >= stop or (self.stop_asked is not None and self.stop_asked())

    def repair(self, most_slots: int, clock: Clock, seconds: float) -> Program | None:
        """Search exhaustively, at most `most_slots` slots, below ever earlier ancestors of the best-scored
        partial program the beam met (its last decision undone, then its last two, ...), each with a node
        budget that doubles: the near misses the beam leaves are often a few wrong decisions from a win. With
        several threads, each searches below the next ancestor as soon as it is free; the first program found
        stops the others. Returns a winning program (kept as `best` when shorter) or None. Proves nothing."""
        if self.lead is None:
            return None
        stop = clock.seconds + seconds
        path = self.lead[1]
        if self.repaired[0] is not path:  # a new lead: from its last decision; else on where the last call stopped
            self.repaired = (path, 1, self.settings.repair_nodes)
        _, cut, budget = self.repaired
        halt = threading.Event()

        def halted() -> bool:  # a program found by another thread, or a stop asked for
            return halt.is_set() or (self.stop_asked is not None and self.stop_asked())

        running: dict[futures.Future[tuple[Program | None, int, bool]], tuple[int, int]] = {}  # its cut, budget
        cut_short: list[tuple[int, int]] = []  # cuts stopped or won: the next call starts again at the first
        found: Program | None = None
        with futures.ThreadPoolExecutor(self.threads) as pool:
            while True:
                while found is None and len(running) < self.threads and cut <= len(path):
                    if self._time_up(clock, stop):
                        break
                    search = self._below(path, cut, most_slots)
                    if search is not None:
                        deadline = time.monotonic() + max(0.0, stop - clock.seconds)
                        job = pool.submit(_repair_below, search, budget, most_slots, deadline, halted,
                                          self.settings.chunk)  # fmt: skip
                        running[job] = (cut, budget)
                        budget *= 2
                    cut += 1
                if not running:
                    self.repaired = (path, *min(cut_short, default=(cut, budget)))
                    return found
                done, _ = futures.wait(running, return_when=futures.FIRST_COMPLETED)
                for job in done:
                    program, nodes, whole = job.result()
                    self.nodes += nodes
                    if program is not None or (not whole and found is None):  # again, under the next bound
                        cut_short.append(running[job])
                    del running[job]
                    if program is not None:
                        self.keep(program)
                        if found is None or program.tokens < found.tokens:
                            found = program
                        halt.set()

    def lead_program(self) -> Program | None:
        """The best-scored partial program the beam has met (its lead) as a whole program: each slot as decided,
        a command never decided as F, each function ending after its last decided slot; None before a lead.
        O(slots + the lead's run)."""
        lead = self.lead
        if lead is None:
            return None
        s, _ = self._replayed(lead[1], len(lead[1]), sum(int(n) for n in self.board.slots))
        return program_of(s.op, s.cs, s.nd)

    def _replayed(self, path: np.ndarray, upto: int, most_slots: int) -> tuple[_Search, int]:
        """A fresh search of at most `most_slots` slots with the first `upto` decisions of `path` replayed into
        it, and what the replay stopped at (kern._DECIDE, ...)."""
        b = self.board
        s = _Search(b, most_slots, self.search.stack.shape[0])
        rpath = np.zeros(kern.MAX_FRAMES + 1, np.int64)  # the replay's own (the search's path starts empty)
        status = kern._replay(path, upto, 1, b.step, b.colour, b.star, b.start, b.facing, b.stars, s.colour, s.star,
                              s.op, s.cs, s.nd, s.closed, s.stack, s.trail, s.stamp, s.records, rpath, s.dropped,
                              s.sc)  # fmt: skip
        return s, int(status)

    def _below(self, path: np.ndarray, cut: int, most_slots: int) -> _Search | None:
        """A search of at most `most_slots` slots from `path` with its last `cut` decisions undone, or None when
        that point wins or loses at once, or was met under a looser bound."""
        s, status = self._replayed(path, len(path) - cut, most_slots)
        if status != kern._DECIDE or s.sc[kern.S_USED] > most_slots:
            return None
        s.sc[kern.S_DEPTH], s.sc[kern.S_LENGTH], s.sc[kern.S_NODES] = 0, most_slots, 1
        return s


class _Children:
    """One depth's children in the beam: each its parent's row and last decision, score and place, and the
    fewest-slot win met (its decisions, their number in won[-2] and its slots in won[-1])."""

    def __init__(self, size: int) -> None:
        self.parent = np.zeros(size, np.int64)
        self.option = np.zeros(size, np.int64)
        self.scores = np.zeros(size, np.int64)
        self.places = np.zeros(size, np.int64)
        self.won = np.zeros(kern.MAX_FRAMES + 2, np.int64)


def _gather(out: _Children, part: _Children, at: int, n: int, first_row: int, won: np.ndarray) -> None:
    """Put the `n` children of `part` (of parents from row `first_row` on) into `out` from index `at`; its win
    replaces `won` when it has fewer slots (a later part's win with as many would come second in one run)."""
    if part is not out:
        out.parent[at : at + n] = part.parent[:n] + first_row
        out.option[at : at + n] = part.option[:n]
        out.scores[at : at + n] = part.scores[:n]
        out.places[at : at + n] = part.places[:n]
    if part.won[-1] < won[-1]:
        won[:] = part.won


def _spread(order: np.ndarray, places: np.ndarray, width: int) -> np.ndarray:
    """`order` (best first) with the first of each place first, then the rest in order (to fill the beam's
    width). O(n log n) for n = len(order), in numpy: this runs at every other depth of the beam, over all its
    children (a loop in Python would take a fifth of the beam's time)."""
    _, first = np.unique(places[order], return_index=True)
    first.sort()
    later = np.ones(len(order), np.bool_)
    later[first] = False
    return np.concatenate((order[first], order[later]))


class _Halted(Exception):
    """Another thread's repair found a program."""


def _repair_below(
    search: _Search, budget: int, most_slots: int, deadline: float, halted: Callable[[], bool], chunk: int
) -> tuple[Program | None, int, bool]:
    """Run `search` (Beam._below) for at most `budget` nodes (`chunk` nodes a kernel call), to `deadline` or until
    `halted()`: the first
    program it finds or None, the nodes it ran, and whether it ran whole (to a program, its end or its
    budget) rather than stopped by the deadline or `halted`."""

    def look(_: int) -> None:
        if halted():
            raise _Halted

    start = search.nodes
    try:
        done = run_share(search, lambda: search.step(chunk), False, 1, deadline, look, until_nodes=start + budget)
    except _Halted:
        return None, search.nodes - start, False
    if done.programs and done.programs[0].tokens > most_slots:  # pragma: no cover - the kernel keeps to S_LENGTH
        raise WrongAnswer(f"the repair went past {most_slots} slots: {done.programs[0]}")
    whole = done.finished or done.nodes - start >= budget
    return (done.programs[0] if done.programs else None), done.nodes - start, whole
