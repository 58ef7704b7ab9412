"""Highest-scoring Robo's Escape programs, proven best by exhaustive search.

>>> from gridbot.games import robos_escape
>>> from gridbot.solve.robos_escape import solve
>>> result = solve(robos_escape.Level.parse("XXXX\\nXSCX\\nX EX\\nXXXX"))
>>> result.status, str(result.program), result.stats["score"], result.stats["coins"]
('optimal', 'FGR.', 46, 1)

The score of an escape is 40 - tokens + 10 x coins, so the search deepens on
the number of tokens L = 1, 2, ... and at each L looks only for programs that
beat the best score B found so far: they need at least
c_min(L) = (B - 40 + L) // 10 + 1 coins. It stops, with a proof, at the first L
where even every reachable coin cannot beat B: 40 - L + 10 x coins <= B (every
longer program then scores at most B). Before the first length, B is seeded
with straight-line programs built from shortest paths (coins in every order),
re-run by the simulator, so the coin bound cuts from the start.

*Tokens.* A program string is a sequence of tokens, each a run of `'` and
one further character, costing 1 (the `'` are not counted). Control only ever
enters a string at the start of a token (the start, the character after an
executed command, or after the `n` of `'n`), so a token with an odd number of
`'` is skipped, one with an even number is executed, and a digit with at least
one `'` before it is a label. That leaves, besides the commands `F L R G X .`
and calls `1`..`5`: the label `'n`, and the *call-label* `''n`, which is
executed as a call of n and is also the label n (when it is the first label n,
running into it just pushes the position after it). `''n` is a quirk of the
rules (`n'n` in one token) which the search uses because the simulator allows
it. Other tokens are useless: `'F` (and the like) is a skipped no-op (drop it:
shorter), `''F` is `F`, and three `'` act as one.

*The search* builds the program while running it (as gridbot.solve.lightbot
does): the L slots start undecided; when execution reaches an undecided slot
it branches over the slot's token, and when a call `n` runs while label n is
not yet decided it branches over "no label n" (the call only pushes) and every
undecided slot for `'n` or `''n`. Programs sharing an execution prefix share
its simulation. The depth-first search runs compiled
(gridbot.kernels.robos_escape): each branch point keeps the machine's
registers and the marks of undo logs for the grid and the endless-run records,
so a backtrack restores its state instead of re-running from the start, and
the kernel pauses after a node budget so this module can check the clock.
An escape with undecided slots is skipped: those slots never ran, and
removing them gives a program with the same run and fewer tokens, found at
that length. Cuts, each safe because every program it skips has one
at least as good (the same run or a better one, no more tokens) that is
searched, or can never beat B:

1. *Adjacent pairs.* Control enters slot i+1 other than from slot i only when
   slot i is a call or a label (return address, call target) or i+1 = 0. So
   after `L`, `R`, `G` or `X` the next slot runs only right after it, and:
   `LR`, `RL` do nothing (drop both), `RRR` is `L`, `LL` is `RR` (same
   length, only `RR` kept), `GG` picks nothing the second time (the robot has
   not moved), and `LG`, `RG`, `XG` equal `GL`, `GR`, `GX` (a turn or laser
   does not touch the robot's own cell; only the G-first order is kept).
   Every rewrite shortens, or keeps the length and lowers (number of `L`, sum of
   the positions of `G`), so rewriting ends, in a program without the pairs.
2. *Labels.* Only the first `'n` of the string is a target, so a second label n
   is a no-op (drop it) and a second `''n` is the call `n`: each name gets at
   most one label. `n'n` (a call followed by its own label) is `''n`, one token
   shorter.
3. *Names.* Renaming functions changes nothing, and the order in which the
   search decides slots depends only on the run, which renaming keeps; so
   names are numbered in the order they first appear in the decisions.
4. *Endless runs.* A repeated state (slot, position, facing, number of grid
   changes, which fixes the grid and the coins along one run) at a stack
   height not below the one it was first seen at, with the stack never lower
   in between, repeats for ever: the slots decided in between stay decided and
   calls and returns do not depend on the robot (see gridbot.games.lightbot.run
   for the argument) - except when it was first seen at height 0 and is
   higher now. A `.` at height 0 restarts the string instead of returning, and
   it does not lower the stack, so between the two a `.` may have restarted
   where, from the higher state, it returns: `LF11L.` on a level whose exit is
   south of S escapes at step 41 although (slot of the second `L`, facing
   south) comes back at height 1 after height 0. So a state first seen at
   height 0 proves a loop only when it comes back at height 0 (then the whole
   state, stack included, is the same). Running off the end and the
   10,000-command limit fail exactly as in the simulator.
5. *Coins.* Coins are never added to the grid, so a branch whose coins so far
   plus the coins still on cells the robot could ever reach (through floor,
   coins and blocks) fall below c_min(L) cannot beat B.
6. *No blocks, no lasers.* On a level without blocks a laser can only stop
   at a wall or destroy a coin, and coins never stop the robot. Removing every
   `X` from a program leaves the same moves and the same escape, with fewer
   tokens and no fewer coins (a G where a coin was shot now picks it up): a
   better score. So on such levels no slot holds `X`.

*What is excluded.* The score, not the length, is maximised, and among the
programs of the best score the answer is one of the fewest tokens: a length
L below the best program's length is searched for programs that equal its
score too, not only beat it. So the common fields read: `length` is the
answer's tokens, and `proven_impossible` = n means that no program of n
tokens or fewer reaches the answer's score (with no answer: escapes at all).
For 'optimal' that is length - 1, as for every game: every program scores at
most the answer, and the shorter ones less. For 'solved' it is the lesser of
length - 1 and the lengths searched to the end; `stats["searched_up_to"]`
says how far the search went (no program of up to that many tokens scores
more than the answer). 'optimal' means the search stopped because longer
programs cannot beat the answer either (`stats["bound"]`). `gridbot.games.robos_escape.describe` prints
this in words. Each cut is checked against enumeration of every program on
small random levels, and on levels chosen so that forbidding one more adjacent
pair of commands would change the answer, in tests/games/robos_escape/test_solver.py; the kernel is
checked against its pure-Python twin (answers and node counts).
"""

from __future__ import annotations

import functools
import heapq
import itertools
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from gridbot.deadline import Clock, Deadline, Progress, Timeout, stop_requested
from gridbot.errors import WrongAnswer
from gridbot.games import robos_escape
from gridbot.games.robos_escape import Level, Program
from gridbot.grid import Direction
from gridbot.kernels import robos_escape as kern
from gridbot.parallel import executors
from gridbot.parallel import workers as _workers
from gridbot.parallel.checkpoint import level_digest
from gridbot.parallel.shares import Ledger, Share, collect_in_time, submit_share
from gridbot.result import SolveResult, Status
from gridbot.solve import deepening
from gridbot.solve.deepening import Schedule

if kern.MAX_COMMANDS != robos_escape.MAX_COMMANDS:  # pragma: no cover - the kernel's copy of the game's limit
    raise ImportError("gridbot.kernels.robos_escape.MAX_COMMANDS differs from the game's")

MAX_ALL = 100
NAME = robos_escape.NAME
MAX_TOKENS = 200  # no length beyond this is searched; a level's proof needs far fewer
NAMES = kern.NAMES

# Token codes (as in the kernel): the six commands, then call n, label 'n and call-label ''n for n = 1..5.
TEXT = ["F", "L", "R", "G", "X", "."]
TEXT += [str(n) for n in range(1, NAMES + 1)]
TEXT += [f"'{n}" for n in range(1, NAMES + 1)]
TEXT += [f"''{n}" for n in range(1, NAMES + 1)]
CUTS = ("pairs", "labels", "names", "endless", "limit", "coins", "dead", "laser")


CELL_CODES = {" ": kern.FLOOR, "S": kern.FLOOR, "C": kern.COIN, "O": kern.BLOCK, "X": kern.WALL, "E": kern.EXIT}


@dataclass(frozen=True, slots=True)
class Settings:
    """How the Robo's Escape solver spends its time; `schedule` is the deepening's (gridbot.solve.deepening)."""

    # each length takes about 4x the one before; splitting pays once a length takes seconds
    schedule: Schedule = Schedule(parallel_after=2.0, growth=4.0, max_growth=4.0)
    chunk: int = 20_000  # nodes per kernel call at most, between clock checks
    work: int = 1_000_000  # commands executed per kernel call at most (each node runs up to 10,000)
    seed_share: float = 0.2  # of the time left, at most, for the straight-line seeds: the search needs the rest
    split_depth: int = 3  # shares deal out the subtrees at this depth of decisions (kern.split_owner)
    # function names a program may use (calls, labels): every one, or fewer for a smaller language, as analyze's
    # question "does the best score need a function?" asks (0: F L R G X . alone); names are interchangeable
    # (cut 3), so n names are any n of them
    names: int = NAMES


DEFAULT = Settings()


@dataclass(frozen=True, slots=True)
class _Board:
    """The level as a flat grid with a border of walls: cell index r * width + c."""

    cells: tuple[str, ...]
    width: int
    start: int
    deltas: tuple[int, int, int, int]  # index change of one step facing N, E, S, W
    reachable: frozenset[int]  # cells the robot could ever stand on (blocks can be shot)
    coins: int  # coins on reachable cells

    @classmethod
    def of(cls, level: Level) -> _Board:
        """The padded board; O(cells)."""
        width = len(level.rows[0]) + 2
        cells = ["X"] * width
        for row in level.rows:
            cells += ["X", *row, "X"]
        cells += ["X"] * width
        deltas = tuple(dr * width + dc for dr, dc in (Direction(d).delta for d in range(4)))
        start = (level.start[0] + 1) * width + level.start[1] + 1
        seen, todo = {start}, [start]
        while todo:  # flood fill through everything the robot can enter or shoot away
            here = todo.pop()
            for d in deltas:
                there = here + d
                if there not in seen and cells[there] in " CSO":
                    seen.add(there)
                    todo.append(there)
        coins = sum(1 for i in seen if cells[i] == "C")
        return cls(tuple(cells), width, start, deltas, frozenset(seen), coins)  # type: ignore[arg-type]

    def exit_reachable(self) -> bool:
        return any(self.cells[i + d] == "E" for i in self.reachable for d in self.deltas)

    def codes(self) -> np.ndarray:
        """The cells as the kernel's codes (gridbot.kernels.robos_escape). O(cells)."""
        return np.array([CELL_CODES.get(cell, kern.LASER) for cell in self.cells], np.int64)


class _Search:
    """Programs of exactly L tokens that escape with at least c_min coins: the kernel's arrays and its driver."""

    def __init__(
        self,
        board: _Board,
        L: int,
        best: int,
        clock: Clock,
        all_solutions: bool,
        jit: bool = True,
        settings: Settings = DEFAULT,
        shortest: int = 0,
    ) -> None:
        self.board = board
        self.settings = settings
        self.L = L
        self.clock = clock
        self.all = all_solutions
        self.best = best  # the score to beat (or to equal, when listing all)
        self.shortest = shortest  # tokens of the best program so far: one of fewer tokens may equal its score
        self.found: list[tuple[int, int, str]] = []  # (score, coins, text)
        self.capped = False
        self.kernel = kern.search if jit else kern.search.py_func
        self.cells = board.codes()
        self.deltas = np.array(board.deltas, np.int64)
        self.reach = np.zeros(len(board.cells), np.int64)
        self.reach[sorted(board.reachable)] = 1
        # a grid change destroys a block or a coin, so the number of changes is at most their count
        changes = sum(1 for cell in board.cells if cell in "OC")
        # one byte per state: at most 200 tokens x 144 cells x 4 facings x 101 grids, 12 MB
        self.seen = np.zeros(L * len(board.cells) * 4 * (changes + 1), np.int8)
        self.slots = np.full(L, kern.UNDECIDED, np.int64)
        self.label_at = np.full(NAMES + 1, kern.UNKNOWN, np.int64)
        self.sc = np.zeros(kern.N_SCALARS, np.int64)
        self.sc[kern.S_UNDECIDED] = L
        self.sc[kern.S_NO_LASER] = "O" not in board.cells  # rule 6
        self.sc[kern.S_MAX_NAMES] = settings.names
        # a path decides each slot once and each label once
        self.frames = np.zeros((L + NAMES + 2, kern.N_FRAME), np.int64)
        self.pool = np.zeros((2, kern.CAPACITY), np.int64)
        self.recs = np.zeros((3, kern.CAPACITY), np.int64)
        self.slog = np.zeros((2, 2 * kern.CAPACITY), np.int64)  # a record is written once and killed once
        self.clog = np.zeros((2, kern.CAPACITY), np.int64)
        self.c_min = self._needed()

    def _needed(self) -> int:
        """Fewest coins an L-token program needs to beat the best score, or to equal it when listing all or
        when the best program so far is longer (the answer is the shortest of the best). O(1)."""
        need = self.best - 40 + self.L + (0 if self.all or self.shortest > self.L else 1)
        return max(0, -(-need // 10))

    @property
    def c_min(self) -> int:
        return int(self.sc[kern.S_CMIN])

    @c_min.setter
    def c_min(self, value: int) -> None:
        self.sc[kern.S_CMIN] = value

    @property
    def nodes(self) -> int:
        return int(self.sc[kern.S_NODES])

    @property
    def cuts(self) -> dict[str, int]:
        """How often each cut fired (tests check every one is exercised)."""
        return {cut: int(self.sc[kern.C_PAIRS + i]) for i, cut in enumerate(CUTS)}

    def step(self, budget: int) -> int:
        """Run the kernel for at most `budget` more nodes: FOUND, EXHAUSTED or PAUSED."""
        b = self.board
        return self.kernel(
            self.cells, self.deltas, self.reach, b.start, b.coins, self.L, len(b.cells), self.slots, self.label_at,
            self.sc, self.frames, self.pool, self.recs, self.seen, self.slog, self.clog, budget, self.settings.work,
        )  # fmt: skip

    def run(self) -> None:
        """Search every program of L tokens; results in `found`. Exponential in L."""
        if self.c_min > self.board.coins:
            return
        while True:
            status = self.step(self.settings.chunk)
            if status == kern.EXHAUSTED:
                return
            if status == kern.FOUND and self._escape(int(self.sc[kern.S_FOUND_COINS])):
                return
            self.clock.check(length=self.L, candidates=self.nodes)

    def _escape(self, coins: int) -> bool:
        """Take the escape in `slots`; True when nothing else of this length can count. O(L)."""
        score = 40 - self.L + 10 * coins
        text = "".join(TEXT[t] for t in self.slots)
        if self.all:
            if score > self.best:
                self.found.clear()
            self.found.append((score, coins, text))
            if len(self.found) >= MAX_ALL:
                self.capped = True
                return True
        else:
            self.found = [(score, coins, text)]
        if score > self.best or self.shortest > self.L:
            self.best, self.shortest = score, self.L
        self.c_min = self._needed()
        return self.c_min > self.board.coins


def _share(
    board: _Board, L: int, best: int, shortest: int, all_solutions: bool, settings: Settings, seconds: float | None,
    k: int, n: int,
) -> Share:  # fmt: skip
    """Share k of n of length L on a worker (the subtrees kern.split_owner gives it): its escapes as (score, coins,
    text), the best last, as _Search.run leaves them; finished unless `seconds` (from its start: clocks differ
    between machines) ran out or the parent asked it to stop. Its coin bound rises with what it finds, not with
    what the other shares find: each share's best is the best of its subtrees. O(its subtrees)."""
    deadline = None if seconds is None else time.monotonic() + seconds
    search = _Search(board, L, best, Clock(None), all_solutions, True, settings, shortest)
    search.sc[kern.S_SPLIT_DEPTH], search.sc[kern.S_WORKER], search.sc[kern.S_WORKERS] = settings.split_depth, k, n
    finished = True
    if search.c_min <= board.coins:
        while True:
            status = search.step(settings.chunk)
            if status == kern.EXHAUSTED:
                break
            if status == kern.FOUND and search._escape(int(search.sc[kern.S_FOUND_COINS])):
                break
            if (deadline is not None and time.monotonic() > deadline) or stop_requested():
                finished = False
                break
    counts = tuple(search.cuts.values())
    return Share(tuple(search.found), search.nodes, finished, search.capped, counts)


def _in_shares(
    run_on: executors.Executor, board: _Board, L: int, score: int, shortest: int, all_solutions: bool,
    settings: Settings, clock: Clock, tick: Any, key: dict[str, Any],
) -> Share:  # fmt: skip
    """Length L in `shares_per_worker` shares per worker of `run_on`; every escape the shares found, and whether
    every share ran to its end. When the time runs out first (`tick()` raises Timeout, or no share of a round
    ends), the length is unfinished, with the nodes its shares searched.

    A share's coin bound rises only with the escapes it finds itself, so when
    a share comes back with an escape (unless listing all) the others are
    stopped and sent again, with the better bound, from their start: each
    round ends at least one share, and the rest search less. O(shares) per
    round, as many rounds as shares at most.
    """
    count = settings.schedule.shares_per_worker * run_on.workers
    todo = list(range(count))
    finished: list[Share] = []
    nodes = 0
    while todo:
        run_on.stop.clear()
        part = functools.partial(_share, board, L, score, shortest, all_solutions, settings, clock.left())
        options = {"all": all_solutions, "best": score, "shortest": shortest}
        ledger = Ledger({**key, "options": options}, list, tuple)
        jobs = [submit_share(run_on, ledger, k, count, part, k, count) for k in todo]
        shares, in_time = collect_in_time(jobs, run_on.stop, tick, all_solutions)
        nodes += sum(share.nodes for share in shares if not share.finished)
        finished += [share for share in shares if share.finished]
        if not in_time or len(todo) == sum(not share.finished for share in shares):
            # the time ran out (no share ended, or `tick` said so): what was searched counts, the length is unfinished
            return Share((), nodes + sum(share.nodes for share in finished), False)
        todo = [k for k, share in zip(todo, shares, strict=True) if not share.finished]
        best, _ = _merge([escape for share in finished for escape in share.programs], all_solutions)
        if best and (best[0][0] > score or shortest > L):
            score, shortest = best[0][0], L
    return Share(
        tuple(escape for share in finished for escape in share.programs),
        nodes + sum(share.nodes for share in finished),
        True,
        any(share.capped for share in finished),
        tuple(map(sum, zip(*(share.counts for share in finished), strict=True))),
    )


def _merge(found: list[tuple[int, int, str]], all_solutions: bool) -> tuple[list[tuple[int, int, str]], bool]:
    """The escapes of one length's shares as one search of the whole length would leave them: the best score
    (every program of it when listing all, at most MAX_ALL, in share order; else the first), and whether the
    list was capped. O(len(found))."""
    if not found:
        return [], False
    top = max(score for score, _, _ in found)
    best = list({text: (score, coins, text) for score, coins, text in found if score == top}.values())
    if not all_solutions:
        return best[:1], False
    return best[:MAX_ALL], len(best) > MAX_ALL


# ---------------------------------------------------------------- seeds: straight-line programs


def _walk(board: _Board, cells: list[str], pos: int, facing: int, goal: int) -> tuple[str, int] | None:
    """Fewest tokens from (pos, facing) onto cell `goal` (an `E` is entered, not crossed): the text and the
    facing at the end, or None. Blocks on the way cost `XF`. Dijkstra over (cell, facing), each state keeping
    the state and the word it came from: O(cells log cells)."""
    heap = [(0, pos, facing)]
    came: dict[tuple[int, int], tuple[tuple[int, int], str] | None] = {(pos, facing): None}
    cost_of = {(pos, facing): 0}
    done: set[tuple[int, int]] = set()
    while heap:
        cost, here, face = heapq.heappop(heap)
        if (here, face) in done:
            continue
        if here == goal:
            words = []
            link = came[here, face]
            while link is not None:
                state, word = link
                words.append(word)
                link = came[state]
            return "".join(reversed(words)), face
        done.add((here, face))
        moves = [(cost + len(word), here, (face + turn) & 3, word) for turn, word in ((-1, "L"), (1, "R"), (2, "RR"))]
        there = here + board.deltas[face]
        cell = cells[there]
        if there == goal or cell in " CS":
            moves.append((cost + 1, there, face, "F"))
        elif cell == "O":
            moves.append((cost + 2, there, face, "XF"))
        for new_cost, at, new_face, word in moves:
            if new_cost < cost_of.get((at, new_face), new_cost + 1):
                cost_of[at, new_face] = new_cost
                came[at, new_face] = ((here, face), word)
                heapq.heappush(heap, (new_cost, at, new_face))
    return None


def _seeds(level: Level, board: _Board, clock: Clock, settings: Settings = DEFAULT) -> list[Program]:
    """Straight-line programs: to each subset of the coins (every order, up to 5 coins) and out, as far as the
    time allows (`seed_share` of what is left, at most). O(2^c c! x cells log cells)."""
    coins = sorted(i for i in board.reachable if board.cells[i] == "C")
    exits = [i for i, cell in enumerate(board.cells) if cell == "E"]
    orders: list[tuple[int, ...]] = []
    if len(coins) <= 5:
        for k in range(len(coins) + 1):
            orders += itertools.permutations(coins, k)
    else:
        orders = [(), tuple(coins)]
    left = clock.left()
    until = None if left is None else time.monotonic() + settings.seed_share * left
    programs = []
    known: dict[tuple[int, int, int, str], tuple[str, int] | None] = {}  # orders share their legs

    def walk(cells: list[str], pos: int, facing: int, goal: int) -> tuple[str, int] | None:
        key = (pos, facing, goal, "".join(cells).replace("C", " "))  # a coin or not: the robot walks on
        if key not in known:
            known[key] = _walk(board, cells, pos, facing, goal)
        return known[key]

    for order in orders:
        if until is not None and time.monotonic() > until:
            break  # seeds only sharpen the search's first bound: the search needs the time more
        cells = list(board.cells)
        pos, facing, text = board.start, int(Direction.SOUTH), ""
        for coin in order:
            leg = walk(cells, pos, facing, coin)
            if leg is None:
                break
            text, facing, pos = text + leg[0] + "G", leg[1], coin
            cells = _replay(board, text)  # blocks shot and coins taken on the way are gone
        else:
            legs = [leg for leg in (walk(cells, pos, facing, e) for e in exits) if leg is not None]
            if legs:
                programs.append(Program(text + min(legs, key=lambda leg: len(leg[0]))[0]))
    return programs


def _replay(board: _Board, text: str) -> list[str]:
    """The grid after a straight-line program (no calls) has run; O(len(text) x side)."""
    cells = list(board.cells)
    pos, facing = board.start, int(Direction.SOUTH)
    for op in text:
        if op == "F":
            pos += board.deltas[facing]
        elif op == "L":
            facing = (facing - 1) & 3
        elif op == "R":
            facing = (facing + 1) & 3
        elif op == "G":
            cells[pos] = " "
        elif op == "X":
            there = pos + board.deltas[facing]
            while cells[there] not in "XOC":
                there += board.deltas[facing]
            if cells[there] != "X":
                cells[there] = " "
    return cells


# ---------------------------------------------------------------- the front


def solve(
    level: Level,
    time_limit: float | None = None,
    all_solutions: bool = False,
    progress: Progress | None = None,
    max_length: int | None = None,
    jit: bool = True,
    workers: int | None = None,
    executor: executors.Executor | None = None,
    settings: Settings | None = None,
) -> SolveResult:
    """The highest-scoring escape, proven; see the module docstring.

    Returns 'optimal' (proven best; with every best program up to the cuts'
    equivalences when `all_solutions`), 'solved' (the best found when the time
    limit or `max_length` ended the search first; `lower_bound` is the first
    length not searched), 'unsolvable' (no exit can be reached) or 'timeout'
    (no escape found). With `max_length`, only programs of at most that many
    tokens count. Every answer has been re-run by the simulator. Exponential
    in the length searched. `jit=False` runs the kernel as plain Python (its
    twin, for the tests); `settings` tunes the schedule and the kernel calls
    (default: DEFAULT; the tests make the calls small to exercise resuming).
    The lengths are searched by the deepening driver (gridbot.solve.deepening):
    a length expected to take more than `parallel_after` seconds is split into
    shares over `executor`'s workers (gridbot.parallel.executors), or else over
    `workers` local processes (default: every core); it counts as searched
    only when every share came back finished, and with the executor's
    checkpoint each finished share is recorded (and not searched again by a
    run that resumes). Which program of the best score and length is the
    answer may then differ (each share meets its own first).
    """
    clock = Clock(time_limit, progress)  # first: it checks the limit, and loading the kernel counts
    settings = DEFAULT if settings is None else settings
    if not (isinstance(settings.names, int) and 0 <= settings.names <= NAMES):
        raise ValueError(f"a program of Robo's Escape may use 0 to {NAMES} function names, not {settings.names!r}")
    if jit:
        warm_up()
    board = _Board.of(level)
    top = MAX_TOKENS if max_length is None else min(max_length, MAX_TOKENS)
    if not board.exit_reachable():
        stats = {"candidates": 0, "reason": "no exit the robot can reach"}
        return SolveResult(NAME, level.name, Status.UNSOLVABLE, None, None, clock.seconds, 1, stats)
    # (score, coins, text) of the best programs so far, each re-run by the simulator
    best: list[tuple[int, int, str]] = []
    for seed in _seeds(level, board, clock, settings):
        outcome = robos_escape.run(level, seed)
        if outcome.score is not None and seed.tokens <= top and (not best or outcome.score > best[0][0]):
            best = [(outcome.score, outcome.coins, seed.text)]
    cores = _workers.cores() if workers is None else max(1, workers)
    lengths = _Lengths(level, board, all_solutions, jit, settings, best)
    return deepening.Deepening(lengths, clock, cores, executor, jit).run(top)


class _Lengths(deepening.Lengths):
    """Robo's Escape's part of the deepening: the score to beat rises with each escape found, and the search
    ends, proven, at the first length where every reachable coin cannot beat the best score."""

    def __init__(
        self, level: Level, board: _Board, all_solutions: bool, jit: bool, settings: Settings,
        best: list[tuple[int, int, str]],
    ) -> None:  # fmt: skip
        super().__init__(level, all_solutions, jit, settings)
        self.board = board
        self.best = best  # (score, coins, text) of the best programs so far, each re-run by the simulator
        self.seeded = list(best)
        self.cuts = dict.fromkeys(CUTS, 0)
        self.capped = False
        self.ledger: dict[str, Any] = {"game": NAME, "level": level_digest(NAME, level)}
        if settings.names != NAMES:  # a smaller language's shares are not the game's
            self.ledger["names"] = settings.names

    def beaten(self, L: int) -> bool:
        """Can no program of L tokens or more beat the best score (or equal it, when listing all)?"""
        best = self.best
        return bool(best) and 40 - L + 10 * self.board.coins < best[0][0] + (0 if self.all_solutions else 1)

    def to_beat(self) -> tuple[int, int]:
        """(the score to beat, the tokens of the shortest program of it)."""
        if not self.best:
            return -(10**9), 0
        return self.best[0][0], min(Program(b[2]).tokens for b in self.best)

    def settled(self, d: deepening.Deepening) -> bool:
        return self.beaten(d.low)

    def incumbent(self, d: deepening.Deepening) -> Program | None:
        """The best program so far: the highest score, then the fewest tokens."""
        best = min(self.best, key=lambda b: (-b[0], Program(b[2]).tokens, b[2]), default=None)
        return None if best is None else Program(best[2])

    def here(self, d: deepening.Deepening, L: int, deadline: Deadline) -> Share:
        score, shortest = self.to_beat()
        search = _Search(self.board, L, score, d.clock, self.all_solutions, self.jit, self.settings, shortest)
        try:
            search.run()
        except Timeout:  # a length cut by the clock still counts its nodes
            raise deepening.Stopped(Share((), search.nodes, False, False, tuple(search.cuts.values()))) from None
        return Share(tuple(search.found), search.nodes, True, search.capped, tuple(search.cuts.values()))

    def split(self, d: deepening.Deepening, run: executors.Executor, L: int, check: Any) -> Share:
        score, shortest = self.to_beat()
        key = {**self.ledger, "length": L}
        done = _in_shares(run, self.board, L, score, shortest, self.all_solutions, self.settings, d.clock, check, key)
        if not done.finished:
            return done
        found, more = _merge(list(done.programs), self.all_solutions)
        return Share(tuple(found), done.nodes, True, done.capped or more, done.counts)

    def recheck(self, d: deepening.Deepening, programs: tuple[Any, ...]) -> list[Any]:
        for score, _coins, text in programs:
            if robos_escape.run(self.level, text).score != score:
                raise WrongAnswer(f"the Robo's Escape solver's program {text} does not score {score}")
        return list(programs)

    def stopped(self, d: deepening.Deepening, share: Share) -> None:
        for cut, count in zip(CUTS, share.counts, strict=False):
            self.cuts[cut] += count

    def after(self, d: deepening.Deepening, L: int, share: Share, found: list[Any]) -> deepening.Step:
        self.stopped(d, share)
        if not share.finished:
            raise Timeout
        self.capped = self.capped or share.capped
        best = self.best
        if found:  # better, or as good and shorter (listing all: as good)
            if not best or found[0][0] > best[0][0] or not self.all_solutions:
                best = []
            self.best = [b for b in best if b[2] not in {f[2] for f in found}] + found
        return deepening.Step.NEXT

    def finish(self, d: deepening.Deepening, end: deepening.End) -> SolveResult:
        L = d.low
        proven = end is deepening.End.SETTLED or (end is deepening.End.EXHAUSTED and self.beaten(L))
        stats: dict[str, Any] = {"candidates": d.nodes, "searched_up_to": L - 1, "cuts": self.cuts}
        best = self.best
        if not best:
            return SolveResult(NAME, self.level.name, Status.TIMEOUT, None, None, d.clock.seconds, L, stats)
        if self.all_solutions and self.seeded and self.seeded[0] in best and len(best) > 1:
            best.remove(self.seeded[0])  # a seed need not be in the cuts' canonical form; the search found its equals
        score, coins, text = min(best, key=lambda b: Program(b[2]).tokens)  # the shortest of the best, first found
        program = Program(text)
        outcome = robos_escape.run(self.level, program)
        if outcome.score != score or outcome.coins != coins:
            raise WrongAnswer(f"the Robo's Escape solver's answer {text} does not score {score} with {coins} coins")
        stats.update(score=score, coins=coins, reachable_coins=self.board.coins)
        if proven:
            stats["bound"] = f"40 - {L} + 10 x {self.board.coins} = {40 - L + 10 * self.board.coins}"
        listed = tuple(Program(b[2]) for b in best) if self.all_solutions else ()
        # no program of fewer tokens than `lower` reaches the answer's score (see "What is excluded")
        lower = program.tokens if proven else min(L, program.tokens)
        status = Status.OPTIMAL if proven else Status.SOLVED
        return SolveResult(
            NAME, self.level.name, status, program, program.tokens, d.clock.seconds, lower, stats, listed, self.capped
        )


def _load() -> None:
    board = _Board.of(Level.parse("XXXX\nXSCX\nX EX\nXXXX"))
    _Search(board, 4, 0, Clock(None), False).run()


def warm_up() -> None:
    """Load (or compile) the kernel on a tiny level, once per process, before any clock starts."""
    deepening.warm(NAME, _load)
