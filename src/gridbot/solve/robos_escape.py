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
its simulation. An escape with undecided slots is skipped: those slots never
ran, and removing them gives a program with the same run and fewer tokens,
found at that length. Cuts, each safe because every program it skips has one
at least as good (same run, no more tokens) that is searched, or can never
beat B:

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
   for the argument). Running off the end and the 10,000-command limit fail
   exactly as in the simulator.
5. *Coins.* Coins are never added to the grid, so a branch whose coins so far
   plus the coins still on cells the robot could ever reach (through floor,
   coins and blocks) fall below c_min(L) cannot beat B.

*What is excluded.* The score, not the length, is maximised. `lower_bound` is
the first length not searched to the end: every program of fewer tokens scores
at most `stats["score"]`, so `proven_impossible` means "no program of this many
tokens or fewer beats the answer". For 'optimal' the search stopped because
longer programs cannot beat it either (`stats["bound"]`). `describe` prints
this in words. Each cut is checked against enumeration of every program on
small random levels in tests/test_robos_escape_solve.py.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
from dataclasses import dataclass
from typing import Any

from gridbot.games import robos_escape
from gridbot.games.robos_escape import MAX_COMMANDS, Level, Program
from gridbot.grid import Direction
from gridbot.result import SolveResult
from gridbot.solve.search import Clock, Progress, Timeout

MAX_ALL = 100
MAX_TOKENS = 200  # no length beyond this is searched; a level's proof needs far fewer
NAMES = 5

# Token codes: the six commands, then call n, label 'n and call-label ''n for n = 1..5.
F, TL, TR, G, X, RET = range(6)
CALL, LABEL, CALLABEL = 6, 6 + NAMES, 6 + 2 * NAMES
UNDECIDED = -1
UNKNOWN, ABSENT = -1, -2  # label states besides a slot index
TEXT = ["F", "L", "R", "G", "X", "."]
TEXT += [str(n) for n in range(1, NAMES + 1)]
TEXT += [f"'{n}" for n in range(1, NAMES + 1)]
TEXT += [f"''{n}" for n in range(1, NAMES + 1)]
# Rule 1: (left, right) pairs never adjacent in the text.
FORBIDDEN_PAIRS = frozenset({(TL, TR), (TR, TL), (TL, TL), (G, G), (TL, G), (TR, G), (X, G)})
COMMANDS = (F, TL, TR, G, X, RET)
CUTS = ("pairs", "labels", "names", "endless", "limit", "coins", "dead")


class _Stop(Exception):
    """Ends the search of one length early: nothing more there can count."""


def _name(token: int) -> int:
    """The function name (1..5) a call, label or call-label mentions, 0 for a command."""
    return 0 if token < CALL else (token - CALL) % NAMES + 1


def _forbidden_pair(left: int, right: int) -> bool:
    """Rules 1 and 2 on two adjacent tokens. O(1)."""
    if (left, right) in FORBIDDEN_PAIRS:
        return True
    return CALL <= left < LABEL and right == left + NAMES  # n'n is ''n, one token shorter


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


class _Search:
    """Programs of exactly L tokens that escape with at least c_min coins; depth-first over slots."""

    def __init__(self, board: _Board, L: int, best: int, clock: Clock, all_solutions: bool) -> None:
        self.board = board
        self.L = L
        self.clock = clock
        self.all = all_solutions
        self.best = best  # the score to beat (or to equal, when listing all)
        self.cells = list(board.cells)
        self.slots = [UNDECIDED] * L
        self.label_at = [UNKNOWN] * (NAMES + 1)
        self.names = 0  # names 1..names appear in decided slots
        self.seen: dict[int, int] = {}
        self.at_height: list[list[int]] = [[]]
        self.log: list[tuple] = []
        self.nodes = 0
        self.found: list[tuple[int, int, str]] = []  # (score, coins, text)
        self.capped = False
        self.cuts = dict.fromkeys(CUTS, 0)  # how often each cut fired (tests check every one is exercised)
        self.c_min = self._needed()

    def _needed(self) -> int:
        """Fewest coins an L-token program needs to beat (or, listing all, equal) the best score. O(1)."""
        need = self.best - 40 + self.L + (0 if self.all else 1)
        return max(0, -(-need // 10))

    # -- rule 4: endless runs, with an undo log

    def _rebalance(self, height: int) -> None:
        """Make the records match a new stack height: a lower stack voids the records above it (rule 4).

        Amortised O(1) per record."""
        at_height, seen, log = self.at_height, self.seen, self.log
        while len(at_height) > height + 1:
            dropped = at_height.pop()
            level = len(at_height)
            removed = [(k, seen.pop(k)) for k in dropped if seen.get(k) == level]
            log.append((1, dropped, removed))
        while len(at_height) < height + 1:
            at_height.append([])
            log.append((2,))

    def _undo(self, mark: int) -> None:
        """Take back every record and grid change made since `mark`. O(entries)."""
        log, seen, at_height = self.log, self.seen, self.at_height
        while len(log) > mark:
            entry = log.pop()
            if entry.__class__ is int:  # a record of a state (the common case)
                at_height[seen.pop(entry)].pop()
                continue
            kind = entry[0]
            if kind == 2:
                at_height.pop()
            elif kind == 1:
                at_height.append(entry[1])
                seen.update(entry[2])
            else:
                self.cells[entry[1]] = entry[2]

    # -- execution

    def run(self) -> None:
        """Search every program of L tokens; results in `found`. Exponential in L."""
        if self.c_min > self.board.coins:
            return
        with contextlib.suppress(_Stop):
            self._advance(0, (), self.board.start, int(Direction.SOUTH), 0, self.board.coins, 0, 0)

    def _advance(
        self, pc: int, stack: tuple[int, ...], pos: int, facing: int, coins: int, left: int, changes: int, steps: int
    ) -> None:
        """Execute decided slots until an escape, a dead end, or a decision (where it branches)."""
        slots, cells, deltas, L = self.slots, self.cells, self.board.deltas, self.L
        seen, at_height, log = self.seen, self.at_height, self.log
        size = len(cells)
        while True:
            if pc >= L:
                return  # ran off the end
            token = slots[pc]
            if token == UNDECIDED:
                if steps < MAX_COMMANDS:
                    self._branch_slot(pc, stack, pos, facing, coins, left, changes, steps)
                else:
                    self.cuts["limit"] += 1
                return
            if LABEL <= token < CALLABEL:
                pc += 1  # a label is skipped, not executed
                continue
            if steps >= MAX_COMMANDS:
                self.cuts["limit"] += 1
                return
            # rule 4, inlined for speed: record (slot, position, facing, grid) at this stack height
            height = len(stack)
            if len(at_height) != height + 1:
                self._rebalance(height)
            key = pc + L * (pos + size * (facing + 4 * changes))
            if key in seen:
                self.cuts["endless"] += 1
                return
            seen[key] = height
            at_height[height].append(key)
            log.append(key)
            steps += 1
            if token == F:
                there = pos + deltas[facing]
                cell = cells[there]
                if cell == "E":
                    self._escape(coins)
                    return
                if cell in " CS":
                    pos = there
            elif token == TL:
                facing = (facing - 1) & 3
            elif token == TR:
                facing = (facing + 1) & 3
            elif token == G:
                if cells[pos] == "C":
                    log.append((3, pos, "C"))
                    cells[pos] = " "
                    coins += 1
                    left -= 1
                    changes += 1
            elif token == X:
                d = deltas[facing]
                there = pos + d
                while cells[there] not in "XOC":
                    there += d
                cell = cells[there]
                if cell != "X":
                    log.append((3, there, cell))
                    cells[there] = " "
                    changes += 1
                    if cell == "C" and there in self.board.reachable:
                        left -= 1
                        if coins + left < self.c_min:
                            self.cuts["coins"] += 1
                            return  # rule 5
            elif token == RET:
                if stack:
                    pc, stack = stack[-1], stack[:-1]
                else:
                    pc = 0
                continue
            elif token < LABEL:  # a call
                stack = (*stack, pc + 1)
                name = token - CALL + 1
                target = self.label_at[name]
                if target >= 0:
                    pc = target + 1
                elif target == ABSENT:
                    pc += 1
                else:
                    self._branch_label(name, pc, stack, pos, facing, coins, left, changes, steps)
                    return
                continue
            else:  # a call-label, the only label of its name: the call lands right after it
                stack = (*stack, pc + 1)
            pc += 1

    def _escape(self, coins: int) -> None:
        if UNDECIDED in self.slots:
            self.cuts["dead"] += 1
            return  # undecided slots never ran: the program without them is shorter (searched before)
        if coins < self.c_min:
            return
        score = 40 - self.L + 10 * coins
        text = "".join(TEXT[t] for t in self.slots)
        if self.all:
            if score > self.best:
                self.found.clear()
            self.found.append((score, coins, text))
            if len(self.found) >= MAX_ALL:
                self.capped = True
                raise _Stop
        else:
            self.found = [(score, coins, text)]
        self.best = max(self.best, score)
        self.c_min = self._needed()
        if self.c_min > self.board.coins:
            raise _Stop  # nothing else of this length can count

    # -- branching

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes & 4095 == 0:
            self.clock.check(length=self.L, candidates=self.nodes)

    def _allowed(self, p: int, token: int) -> bool:
        """Rules 1 and 2 on the neighbours already decided around slot p. O(1)."""
        slots, L = self.slots, self.L
        left = slots[p - 1] if p > 0 else UNDECIDED
        right = slots[p + 1] if p + 1 < L else UNDECIDED
        if (left != UNDECIDED and _forbidden_pair(left, token)) or (
            right != UNDECIDED and _forbidden_pair(token, right)
        ):
            self.cuts["labels" if token >= LABEL else "pairs"] += 1
            return False
        if token == TR:  # RRR is L
            far_left = slots[p - 2] if p > 1 else UNDECIDED
            far_right = slots[p + 2] if p + 2 < L else UNDECIDED
            if (left == TR and (far_left == TR or right == TR)) or (right == TR and far_right == TR):
                self.cuts["pairs"] += 1
                return False
        return True

    def _branch_slot(
        self, pc: int, stack: tuple[int, ...], pos: int, facing: int, coins: int, left: int, changes: int, steps: int
    ) -> None:
        """Decide the slot execution has reached: a command, a call, a label or a call-label."""
        self._tick()
        if coins + left < self.c_min:
            self.cuts["coins"] += 1
            return
        slots = self.slots
        names = self.names
        self.cuts["names"] += max(0, NAMES - names - 1)
        options: list[int] = [t for t in COMMANDS if self._allowed(pc, t)]
        for name in range(1, min(names + 1, NAMES) + 1):  # rule 3: a new name is the next number
            options.append(CALL + name - 1)
            if self.label_at[name] == UNKNOWN and pc + 1 < self.L:  # rule 2: one label per name
                options += (LABEL + name - 1, CALLABEL + name - 1)
            elif self.label_at[name] != UNKNOWN:
                self.cuts["labels"] += 1
        for token in options:
            if token >= CALL and not self._allowed(pc, token):
                continue
            name = _name(token)
            slots[pc] = token
            if name > names:
                self.names = name
            if token >= LABEL:
                self.label_at[name] = pc
            mark = len(self.log)
            self._advance(pc, stack, pos, facing, coins, left, changes, steps)
            self._undo(mark)
            if token >= LABEL:
                self.label_at[name] = UNKNOWN
            self.names = names
            slots[pc] = UNDECIDED

    def _branch_label(
        self,
        name: int,
        pc: int,
        stack: tuple[int, ...],
        pos: int,
        facing: int,
        coins: int,
        left: int,
        changes: int,
        steps: int,
    ) -> None:
        """A call of `name` ran (already pushed) and label `name` is undecided: no label, or one at a free slot."""
        self._tick()
        slots, label_at = self.slots, self.label_at
        mark = len(self.log)
        label_at[name] = ABSENT
        self._advance(pc + 1, stack, pos, facing, coins, left, changes, steps)
        self._undo(mark)
        for p in range(self.L - 1):  # a label in the last slot would jump off the end
            if slots[p] != UNDECIDED:
                continue
            for token in (LABEL + name - 1, CALLABEL + name - 1):
                if not self._allowed(p, token):
                    continue
                slots[p] = token
                label_at[name] = p
                self._advance(p + 1, stack, pos, facing, coins, left, changes, steps)
                self._undo(mark)
                slots[p] = UNDECIDED
        label_at[name] = UNKNOWN


# ---------------------------------------------------------------- seeds: straight-line programs


def _walk(board: _Board, cells: list[str], pos: int, facing: int, goal: int) -> tuple[str, int] | None:
    """Fewest tokens from (pos, facing) onto cell `goal` (an `E` is entered, not crossed): the text and the
    facing at the end, or None. Blocks on the way cost `XF`. Dijkstra over (cell, facing): O(cells log cells)."""
    heap = [(0, pos, facing, "")]
    done: set[tuple[int, int]] = set()
    while heap:
        cost, here, face, text = heapq.heappop(heap)
        if here == goal:
            return text, face
        if (here, face) in done:
            continue
        done.add((here, face))
        for turn, word in ((-1, "L"), (1, "R"), (2, "RR")):
            heapq.heappush(heap, (cost + len(word), here, (face + turn) & 3, text + word))
        there = here + board.deltas[face]
        cell = cells[there]
        if there == goal or cell in " CS":
            heapq.heappush(heap, (cost + 1, there, face, text + "F"))
        elif cell == "O":
            heapq.heappush(heap, (cost + 2, there, face, text + "XF"))
    return None


def _seeds(level: Level, board: _Board) -> list[Program]:
    """Straight-line programs: to each subset of the coins (every order, up to 5 coins) and out. O(2^c c!)."""
    coins = sorted(i for i in board.reachable if board.cells[i] == "C")
    exits = [i for i, cell in enumerate(board.cells) if cell == "E"]
    orders: list[tuple[int, ...]] = []
    if len(coins) <= 5:
        for k in range(len(coins) + 1):
            orders += itertools.permutations(coins, k)
    else:
        orders = [(), tuple(coins)]
    programs = []
    for order in orders:
        cells = list(board.cells)
        pos, facing, text = board.start, int(Direction.SOUTH), ""
        for coin in order:
            leg = _walk(board, cells, pos, facing, coin)
            if leg is None:
                break
            text, facing, pos = text + leg[0] + "G", leg[1], coin
            cells = _replay(board, text)  # blocks shot and coins taken on the way are gone
        else:
            legs = [leg for leg in (_walk(board, cells, pos, facing, e) for e in exits) if leg is not None]
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
) -> SolveResult:
    """The highest-scoring escape, proven; see the module docstring.

    Returns 'optimal' (proven best; with every best program up to the cuts'
    equivalences when `all_solutions`), 'solved' (the best found when the time
    limit or `max_length` ended the search first; `lower_bound` is the first
    length not searched), 'unsolvable' (no exit can be reached) or 'timeout'
    (no escape found). With `max_length`, only programs of at most that many
    tokens count. Every answer has been re-run by the simulator. Exponential
    in the length searched.
    """
    clock = Clock(time_limit, progress)
    board = _Board.of(level)
    top = MAX_TOKENS if max_length is None else min(max_length, MAX_TOKENS)
    nodes = 0
    cuts = dict.fromkeys(CUTS, 0)
    if not board.exit_reachable():
        stats = {"candidates": 0, "reason": "no exit the robot can reach"}
        return SolveResult("robos_escape", level.name, "unsolvable", None, None, clock.seconds, 1, stats)
    # (score, coins, text) of the best programs so far, each re-run by the simulator
    best: list[tuple[int, int, str]] = []
    for seed in _seeds(level, board):
        outcome = robos_escape.run(level, seed)
        if outcome.score is not None and seed.tokens <= top and (not best or outcome.score > best[0][0]):
            best = [(outcome.score, outcome.coins, seed.text)]
    seeded = list(best)
    L = 1
    proven = False
    capped = False
    try:
        while top >= L:
            if best and 40 - L + 10 * board.coins < best[0][0] + (0 if all_solutions else 1):
                proven = True
                break
            score = best[0][0] if best else -(10**9)
            search = _Search(board, L, score, clock, all_solutions)
            try:
                search.run()
            finally:
                nodes += search.nodes  # a length cut by the clock still counts its nodes
                for cut, count in search.cuts.items():
                    cuts[cut] += count
            for found in search.found:
                assert robos_escape.run(level, found[2]).score == found[0], found  # re-run by the simulator
            if search.found:
                if not best or search.found[0][0] > best[0][0]:
                    best = []
                best = [b for b in best if b[2] not in {f[2] for f in search.found}] + search.found
            capped = capped or search.capped
            L += 1
        else:
            proven = bool(best) and 40 - L + 10 * board.coins < best[0][0] + (0 if all_solutions else 1)
    except Timeout:
        pass
    stats: dict[str, Any] = {"candidates": nodes, "searched_up_to": L - 1, "cuts": cuts}
    if not best:
        return SolveResult("robos_escape", level.name, "timeout", None, None, clock.seconds, L, stats)
    score, coins, text = best[0]
    program = Program(text)
    outcome = robos_escape.run(level, program)
    assert outcome.score == score and outcome.coins == coins, (text, outcome)
    if all_solutions and seeded and seeded[0] in best and len(best) > 1:
        best.remove(seeded[0])  # a seed need not be in the cuts' canonical form; the search found its equals
    stats.update(score=score, coins=coins, reachable_coins=board.coins)
    if proven:
        stats["bound"] = f"40 - {L} + 10 x {board.coins} = {40 - L + 10 * board.coins}"
    listed = tuple(Program(b[2]) for b in best) if all_solutions else ()
    return SolveResult(
        "robos_escape",
        level.name,
        "optimal" if proven else "solved",
        program,
        program.tokens,
        clock.seconds,
        L,
        stats,
        listed,
        capped,
    )


def describe(level: Level, result: SolveResult) -> str:
    """The CLI's human report: the score, the program, and what the search has excluded. O(1)."""
    stats = result.stats or {}
    name = result.level or level.name
    searched = stats.get("searched_up_to", 0)
    lines = []
    if result.status == "unsolvable":
        lines.append(f"{name}: unsolvable ({stats.get('reason', 'proven: no program escapes')})")
    elif result.status == "timeout":
        lines.append(f"{name}: timeout, no escape found")
    else:
        kind = "proven best" if result.status == "optimal" else "not proven best"
        lines.append(f"{name}: {result.status}, score {stats['score']} ({kind})")
        lines.append(f"  program     {result.solution}")
        lines.append(f"  tokens      {result.length}, coins {stats['coins']}")
    if result.status == "optimal":
        lines.append(
            f"  proof       no program of up to {searched} tokens scores more; a longer one scores at most"
            f" {stats['bound']}"
        )
    elif result.status == "solved":
        done = f"no program of up to {searched} tokens scores more" if searched else "nothing yet"
        lines.append(f"  excluded    {done}")
    elif result.status == "timeout":
        lines.append(f"  excluded    no program of up to {searched} tokens escapes")
    if "candidates" in stats:
        lines.append(f"  candidates  {int(stats['candidates']):,}")
    lines.append(f"  seconds     {result.seconds:.3f}")
    if result.solutions:
        more = " (capped: there are more)" if result.solutions_capped else ""
        lines.append(f"  {len(result.solutions)} best programs{more}:")
        lines.extend(f"    {s}" for s in result.solutions)
    return "\n".join(lines)
