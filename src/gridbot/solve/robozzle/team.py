"""RoboZZle's heuristics together: a team of them on threads of their own (Team, member_of), and the annealer
on a thread beside the exact search (Beside)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from concurrent import futures

from gridbot.deadline import Clock
from gridbot.games.robozzle import Program
from gridbot.solve.robozzle.anneal import Annealer
from gridbot.solve.robozzle.beam import Beam
from gridbot.solve.robozzle.board import Board
from gridbot.solve.robozzle.schedule import _timed
from gridbot.solve.robozzle.settings import DEFAULT, Settings


class Team:
    """The heuristics on several threads: up to `team` members (member_of: a plain beam, the annealer, a look-ahead
    beam, in that order), each on its own thread, the beams' ties broken by their own seeds; threads beyond `team`
    go to the beams, each splitting its partial programs among its share. They find programs for different
    puzzles, so together they find more than any one of them in the same time (docs/perf-log/). The first program
    found stops the others; the shortest found counts.
    """

    def __init__(self, board: Board, stack_cap: int, threads: int = 1, annealer: bool = True, *,
                 settings: Settings = DEFAULT) -> None:  # fmt: skip
        self.board, self.stack_cap, self.settings = board, stack_cap, settings
        self.found = threading.Event()
        self.outside_nodes = 0  # nodes of the helpers on a cluster's workers (_guess_beside)
        threads = max(1, threads)
        kinds = [k for k in range(settings.team) if annealer or not is_annealer(k, settings)][:threads]
        beams = [k for k in kinds if not is_annealer(k, settings)]
        extra = threads - len(kinds)  # more threads for the beams, dealt out in turn
        self.members = [
            member_of(board, stack_cap, k, settings, self.found.is_set,
                      1 + extra // len(beams) + (beams.index(k) < extra % len(beams)) if k in beams else 1)
            for k in kinds
        ]  # fmt: skip

    @property
    def best(self) -> Program | None:
        """The program of fewest slots any member found, or None."""
        return min((m.best for m in self.members if m.best is not None), key=lambda p: p.tokens, default=None)

    @property
    def nodes(self) -> int:
        return sum(m.nodes for m in self.members) + self.outside_nodes

    def lead_program(self) -> Program | None:
        """The first beam's lead as a whole program (Beam.lead_program), or None."""
        beam = next((m for m in self.members if isinstance(m, Beam)), None)
        return None if beam is None else beam.lead_program()

    def keep(self, found: Program) -> None:
        """`found` counts as found by the team (see Beam.keep)."""
        self.members[0].keep(found)

    def guess(self, most_slots: int, clock: Clock, seconds: float) -> Program | None:
        """Every member's guess for `seconds`, on threads of their own, until one finds a program of at most
        `most_slots` slots, or `found` is set from outside (Beside): the shortest found, or None."""
        self.found.clear()
        if len(self.members) == 1:
            return self.members[0].guess(most_slots, clock, seconds)

        def one(member: Beam | Annealer) -> Program | None:
            found = member.guess(most_slots, clock, seconds)
            if found is not None:
                self.found.set()
            return found

        with futures.ThreadPoolExecutor(len(self.members)) as pool:
            found = [p for p in pool.map(one, self.members) if p is not None]
        self.found.clear()
        return min(found, key=lambda p: p.tokens, default=None)


def is_annealer(seed: int, settings: Settings) -> bool:
    """Is the heuristic with this seed (member_of) the annealer? O(1)."""
    return seed % settings.team == 1


def member_of(
    board: Board, stack_cap: int, seed: int, settings: Settings, stop: Callable[[], bool] | None = None,
    threads: int = 1,
) -> Beam | Annealer:  # fmt: skip
    """The heuristic of a team's member or a cluster's helper with this seed, by seed modulo the settings' `team`:
    a plain beam on `threads` threads (with roll-outs), the annealer, or a beam that looks ahead (`lookahead`).
    O(board)."""
    if is_annealer(seed, settings):
        return Annealer(board, stack_cap, seed=seed, stop=stop, settings=settings)
    look = settings.lookahead if seed % settings.team == 2 else 0
    return Beam(board, stack_cap, seed=seed, stop=stop, threads=threads, lookahead=look, rollout=look == 0,
                settings=settings)  # fmt: skip


class Beside:
    """The annealer on a thread of its own for the rest of a solve once started, beside the exact search and the
    beams' turns (paused while the exact search takes every core): it looks for a program of at most `most`
    slots, and after each one it finds, for a shorter one, and sets `tell`. `best` is the shortest found so far.
    Given `lead` (in `solve`: the team's beam's lead, Team.lead_program), the annealer's middle chain goes on from
    that program every `lead_every` steps (Annealer.start_from): the beam extends a line slot by slot and
    cannot go back on its early slots, which the annealer can, and the pair finds programs that neither finds
    alone (docs/perf-log/). Started by `start`, stopped by `stop`."""

    def __init__(
        self, board: Board, stack_cap: int, most: int, seed: int = 1, tell: threading.Event | None = None,
        lead: Callable[[], Program | None] | None = None, *, settings: Settings = DEFAULT,
    ) -> None:  # fmt: skip
        self.settings = settings
        self.tell = tell  # set at each find (a team's turn then ends: what it was looking for is found)
        self.lead = lead  # the middle chain goes on from this program now and then, when there is one (a beam's lead)
        self.rounds = 0  # starts from the lead
        self.led = 0  # the annealer's steps at the last of them
        self.done = threading.Event()
        self.hold = threading.Event()  # asked to pause (paused)
        self.lock = threading.Lock()  # held by the annealer while it runs a slice
        self.annealer = Annealer(board, stack_cap, seed=seed, stop=self.done.is_set, settings=settings)
        self.most = most
        self.seconds = 0.0  # spent annealing (pauses left out)
        self.thread = threading.Thread(target=self._anneal, name="gridbot-annealer", daemon=True)

    @property
    def best(self) -> Program | None:
        return self.annealer.best

    @property
    def nodes(self) -> int:
        return self.annealer.nodes

    def start(self) -> Beside:
        self.thread.start()
        return self

    @property
    def started(self) -> bool:
        return self.thread.ident is not None

    def stop(self) -> None:
        """Stop the annealer and wait for it (it looks at the stop flag every anneal_chunk steps: milliseconds)."""
        self.done.set()
        if self.started:
            self.thread.join()

    def bound(self, most: int) -> None:
        """From now on, only programs of at most `most` slots are worth finding (one is known of `most` + 1)."""
        self.most = min(self.most, most)

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """The annealer paused between two slices for the block (forking worker processes while another thread
        runs is only safe when that thread holds no lock the children may need)."""
        self.hold.set()
        try:
            with self.lock:
                yield
        finally:
            self.hold.clear()

    def _anneal(self) -> None:
        while not self.done.is_set() and self.most >= 1:
            if self.hold.is_set():
                time.sleep(0.001)
                continue
            with self.lock, _timed(self, "seconds"):
                found = self.annealer.guess(self.most, Clock(None), self.settings.beside_slice)
                every = self.settings.lead_every
                if found is None and self.lead is not None and self.annealer.taken >= self.led + every:
                    self.led = self.annealer.taken
                    seed = self.lead()
                    if seed is not None:
                        self.rounds += 1
                        found = self.annealer.start_from(seed)
                if found is not None:
                    self.bound(found.tokens - 1)
                    if self.tell is not None:
                        self.tell.set()
