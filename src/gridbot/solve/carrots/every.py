"""Every way an optimal Carrots program marks the board: the exact count of behaviours at the proven par.

>>> import gridbot
>>> from gridbot.deadline import Clock
>>> found = behaviours(gridbot.load("carrots:2"), 4, 100, Clock(None))
>>> len(found.keys), found.complete, str(found.programs[0])
(1, True, 'LOOP(2){F F R}')

What is counted
---------------
A Carrots program's *behaviour* is the order in which its run marks the board (`carrots.marks_in_order`: each
newly marked square, with the direction the bunny hopped onto it). The whole sequence of states is no good as a
key: an optimal program's loop counts can often grow without changing whether it wins (`LOOP{R LOOP(n){F}}` wins
carrots:2 for every n >= 2, each n a different run, because the extra hops are blocked), so almost every board
would have infinitely many optimal runs. What grows with such a count marks nothing; the marking order does not
change, and there are finitely many of them.

How, and why nothing is missed
------------------------------
1. *A fragment's visits.* Any piece of program run from a state s = 4 x square + facing ends in a fixed state
   and hops onto squares in a fixed order; its contribution to a behaviour, whatever is marked already, is the
   list of its *first* hops onto each square (those not yet marked become new marks, in that order). So a
   fragment is known, for behaviours, by its *visit function*: for every state, the end state and the first
   hops. Two fragments with the same visit function can replace each other anywhere without changing any
   behaviour, and both sequences (x then y) and loops are computed from their parts' visit functions; the
   tables keep one fragment of each visit function at each cost, all of them.
2. *Loop counts.* LOOP(n){x}'s visit function depends on n only through its *mark function* (end state and
   the set of squares hopped on, from every state): once the lists of first hops from every state stop
   growing, more iterations add nothing but the end state, and two counts with the same mark function have
   the same first hops (one list is a prefix of the other, with the same squares). The powers of x's mark
   function are eventually periodic, so the counts 1, 2, ... up to the first repeat of the mark function give
   every visit function of every count, however large. `LOOP{x}` never ends, so it wins only by completing
   inside its one run, as LOOP(n){x} does for some count n: it adds no behaviour and is not tried.
3. *Pruning valid at the par.* A fragment whose mark function is also that of a cheaper fragment never
   appears in a program of `par` tokens that wins: putting the cheaper one in its place leaves every later
   state alike and marks at least as much, so a shorter program would win. Nor does a program that completes
   the board before its last top-level statement (the rest could go). The tables drop both; the empty
   fragment (cost 0) is the first, so `L R`, `LOOP(4){L}` and LOOP(1){x} go at once. Nothing else is cut:
   every program of `par` tokens that wins is, part by part, made of fragments the tables hold.
4. *The top level* runs once from the start: its statements are tried in order, each applied to the state and
   marks it starts from; the last one may be a loop of cost `par` whose body (a statement and a fragment of
   the tables, as the solver's final pairs) is run only along its one orbit.

Every behaviour found is that of a program the search puts together (kept, one per behaviour), re-run by the
simulator in `gridbot.solve.analyze`. Exponential in the par and slow in plain Python: `work` bounds the
fragments and top-level tries (`Every.complete` False when it ran out, or `most` stopped it: a lower bound).
"""

from __future__ import annotations

from dataclasses import dataclass

from gridbot.deadline import Clock
from gridbot.games import carrots
from gridbot.games.carrots import MOVES, Level, Loop, Program, Statement

# the work an exact count may do before it gives up (a lower bound then), in steps: a fragment made costs one per
# state of the board, a top-level statement tried one, an orbit of a final loop one per iteration; about ten
# seconds of plain Python on a small board, half a minute on a 13 x 13 one
WORK = 25_000_000


@dataclass(frozen=True, slots=True)
class Every:
    """The behaviours of the winning programs of one length: `keys` (marks_in_order of each), one program of
    each (`programs`, in the same order), `complete` (every program of that length was accounted for: the count
    is exact), and `work` (fragments and top-level tries made)."""

    keys: tuple[tuple[int, ...], ...]
    programs: tuple[Program, ...]
    complete: bool
    work: int


class _Fragment:
    """A piece of program and its visit function: for each state, the end state, the first hops (states after
    the hop onto a square not hopped on before in this run) and the squares hopped on (a mask)."""

    __slots__ = ("body", "ends", "masks", "visits")

    def __init__(self, body: tuple[Statement, ...], ends: tuple[int, ...], visits: tuple, masks: tuple) -> None:
        self.body, self.ends, self.visits, self.masks = body, ends, visits, masks

    @property
    def key(self) -> tuple:
        return (self.ends, self.visits)

    @property
    def marks(self) -> tuple:
        return (self.ends, self.masks)

    def then(self, other: _Fragment, body: tuple[Statement, ...]) -> _Fragment:
        """This fragment followed by `other` (as `body`). O(states x visits)."""
        ends, visits, masks = [], [], []
        oe, ov, om = other.ends, other.visits, other.masks
        for end, seen, mask in zip(self.ends, self.visits, self.masks, strict=True):
            ends.append(oe[end])
            more = ov[end]
            if more and om[end] & ~mask:
                if om[end] & mask:
                    more = tuple(v for v in more if not mask >> (v >> 2) & 1)
                seen = seen + more
                mask |= om[end]
            visits.append(seen)
            masks.append(mask)
        return _Fragment(body, tuple(ends), tuple(visits), tuple(masks))


class _Stopped(Exception):
    """The work bound or `most` behaviours reached."""


class _Enumeration:
    def __init__(self, level: Level, K: int, most: int, clock: Clock, work: int) -> None:
        self.level, self.K, self.most, self.clock, self.limit = level, K, most, clock, work
        self.n = 4 * level.size
        self.work = 0
        self.next_check = 0
        self.goal = level.goal
        self.cheapest: dict[tuple, int] = {}  # mark function -> the least cost seen
        self.tables: list[list[_Fragment]] = [[]]  # cost -> fragments, one per visit function
        self.statements: list[list[_Fragment]] = [[]]  # cost -> statements (moves, loops), one per visit function
        self.found: dict[tuple[int, ...], Program] = {}
        identity = tuple(range(self.n))
        self.cheapest[(identity, (0,) * self.n)] = 0

    def tick(self, amount: int = 1) -> None:
        self.work += amount
        if self.work > self.limit:
            raise _Stopped
        if self.work >= self.next_check:
            self.next_check = self.work + 65536
            self.clock.check(phase="counting behaviours", candidates=self.work)

    def move(self, op: str) -> _Fragment:
        ends, visits, masks = [], [], []
        for s in range(self.n):
            e = carrots.step(self.level, (s >> 2, s & 3), op)
            t = 4 * e[0] + e[1]
            ends.append(t)
            hopped = op == "F" and t != s
            visits.append((t,) if hopped else ())
            masks.append(1 << e[0] if hopped else 0)
        return _Fragment((MOVES[op],), tuple(ends), tuple(visits), tuple(masks))

    def keep(self, cost: int, fragment: _Fragment, into: dict[tuple, _Fragment]) -> None:
        """Add `fragment` (of `cost` tokens) to `into` unless a cheaper fragment has its mark function (rule 3) or
        `into` has its visit function."""
        self.tick(self.n)
        marks = fragment.marks
        least = self.cheapest.get(marks)
        if least is not None and least < cost:
            return
        if least is None:
            self.cheapest[marks] = cost
        into.setdefault(fragment.key, fragment)

    def loops(self, body: _Fragment, cost: int, into: dict[tuple, _Fragment]) -> None:
        """LOOP(n){body} for each n up to the first repeat of the powers' mark function (rule 2)."""
        seen: set[tuple] = set()
        power = body
        n = 1
        while power.marks not in seen:
            seen.add(power.marks)
            self.keep(cost, _Fragment((Loop(body.body, n),), power.ends, power.visits, power.masks), into)
            power = power.then(body, ())
            n += 1

    def build(self, c: int, fragments_too: bool = True) -> None:
        """The statements and (with `fragments_too`) the fragments of cost c (rule 1), from those of lower
        costs."""
        statements: dict[tuple, _Fragment] = {}
        if c == 1:
            for op in "FLR":
                self.keep(1, self.move(op), statements)
        else:
            for body in self.tables[c - 1]:
                self.loops(body, c, statements)
        fragments = dict(statements)
        for a in range(1, c if fragments_too else 1):
            for first in self.statements[a]:
                for rest in self.tables[c - a]:
                    self.keep(c, first.then(rest, first.body + rest.body), fragments)
        self.statements.append(list(statements.values()))
        self.tables.append(list(fragments.values()))

    # ------------------------------------------------------------ the top level (rule 4)

    def report(self, key: tuple[int, ...], body: tuple[Statement, ...]) -> None:
        if key not in self.found:
            self.found[key] = Program(body)
            if len(self.found) > self.most:
                raise _Stopped

    def top(self, s: int, marks: int, left: int, key: tuple[int, ...], body: tuple[Statement, ...]) -> None:
        """Every top-level statement from state s with `marks`, `left` tokens to spend."""
        for cost in range(1, min(left, max(1, self.K - 1)) + 1):
            for statement in self.statements[cost]:
                self.tick()
                new, m = self.apply(statement.visits[s], marks)
                if m == self.goal:
                    if cost == left:  # completes with its last statement (rule 3)
                        self.report(key + new, body + statement.body)
                elif cost < left:
                    self.top(statement.ends[s], m, left - cost, key + new, body + statement.body)
        if left == self.K and self.K >= 2:
            self.final_pairs(s, marks, key, body)

    def apply(self, visits: tuple[int, ...], marks: int) -> tuple[tuple[int, ...], int]:
        """The new marks of `visits` over `marks` (to completion) and the marks after."""
        new = []
        for v in visits:
            bit = 1 << (v >> 2)
            if not marks & bit:
                marks |= bit
                new.append(v)
                if marks == self.goal:
                    break
        return tuple(new), marks

    def final_pairs(self, s0: int, marks0: int, key: tuple[int, ...], body: tuple[Statement, ...]) -> None:
        """A whole program that is one loop of K tokens: its body a statement and a fragment of K - 2 tokens in
        all, run along its one orbit from s0 until the board is complete or an iteration's state repeats."""
        for a in range(1, self.K - 1 + 1):
            rests = self.tables[self.K - 1 - a] if self.K - 1 - a else [None]
            for first in self.statements[a]:
                for rest in rests:
                    s, marks, got, seen = s0, marks0, key, set()
                    while s not in seen:
                        seen.add(s)
                        new, marks = self.apply(first.visits[s], marks)
                        got += new
                        s = first.ends[s]
                        if rest is not None and marks != self.goal:
                            new, marks = self.apply(rest.visits[s], marks)
                            got += new
                            s = rest.ends[s]
                        self.tick()
                        if marks == self.goal:
                            inner = first.body + (rest.body if rest is not None else ())
                            self.report(got, (*body, Loop(inner, len(seen))))
                            break


def behaviours(level: Level, K: int, most: int, clock: Clock, work: int = WORK, known: Program | None = None) -> Every:
    """The behaviours (marks_in_order) of the programs of exactly `K` tokens that complete `level`, where no
    shorter program completes it (K is the proven par: rule 3 relies on it), at most `most` of them, with one
    program of each. Raises Timeout at the clock's deadline or a stop request. Exponential in K; `work` bounds
    it (see the module docstring).

    `known`, a program of K tokens that completes the level, is first asked whether its order is the only one
    (gridbot.solve.carrots.unique, far faster than the count): proven, the answer is that one behaviour, exactly;
    another order found with `most` < 2, the two (a lower bound, as `most` asks no more); otherwise the count."""
    spent = 0
    if known is not None:
        from gridbot.solve.carrots.unique import Verdict, other_behaviour

        check = other_behaviour(level, K, known, clock)
        spent = check.work
        if check.verdict is Verdict.UNIQUE:
            return Every((check.order,), (known,), True, spent)
        if check.verdict is Verdict.OTHER and check.other is not None and most < 2:
            other = carrots.marks_in_order(level, check.other)
            return Every((check.order, other), (known, check.other), False, spent)
    found = _count(level, K, most, clock, work)
    return Every(found.keys, found.programs, found.complete, found.work + spent)


def _count(level: Level, K: int, most: int, clock: Clock, work: int) -> Every:
    """`behaviours` by the enumeration of the module docstring."""
    enum = _Enumeration(level, K, most, clock, work)
    marks = level.initial_marks | 1 << level.start
    complete = True
    if marks == level.goal:
        return Every(((),), (Program(()),), True, 0)
    try:
        for c in range(1, max(1, K - 1) + 1):
            enum.build(c, fragments_too=c <= K - 2)
        enum.top(4 * level.start + level.start_state[1], marks, K, (), ())
    except _Stopped:
        complete = False
    keys = tuple(enum.found)[:most]
    return Every(keys, tuple(enum.found[k] for k in keys), complete, enum.work)


__all__ = ["WORK", "Every", "behaviours"]
