"""RoboZZle's annealer (Annealer): simulated annealing over whole programs, in chains at several temperatures
(Chain, parallel tempering)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from gridbot.deadline import Clock
from gridbot.games.robozzle import FUNCTIONS, Program
from gridbot.kernels import robozzle as kern
from gridbot.solve.robozzle.board import Board, _star_distances, program_of
from gridbot.solve.robozzle.heuristic import _Heuristic, _Lane
from gridbot.solve.robozzle.settings import DEFAULT, Settings


@dataclass(slots=True)
class Chain:
    """One chain of the annealer: its generator and what it knows of its current program (`state`, kern.N_ANNEAL
    values), its current program (`current`: op, cs, nd) and its temperature."""

    state: np.ndarray
    current: tuple[np.ndarray, np.ndarray, np.ndarray]
    temperature: float


class Annealer(_Heuristic):
    """The second heuristic: simulated annealing over whole programs (kern.anneal), each run from the start by the
    same machine as the exact search and scored by the stars it collects, then by how near it ends to a star
    left. Unlike the beam, which fixes each slot when execution first reaches it, the annealer changes any
    slot at any time (kern._mutate: rewrites, inserts and deletes a slot, swaps two, moves or copies one, also from
    one function to another), so a program that collects the first stars the wrong way can still turn into one
    that collects them all, and it finds programs for puzzles the beam does not (docs/perf-log/). A change that does
    what the current program did wherever its run looked (slots it never reached; at the others, on the colours
    seen there) is kept without being run: it would run the same, so the steps are the same and faster.

    Parallel tempering: `chains` chains, each from a random program at a fixed temperature from `anneal_cold`
    to `anneal_hot` (evenly apart in ratio), take their steps in turn; after each turn two neighbouring chains swap
    programs with probability min(1, exp((s_hot - s_cold) x (1/T_cold - 1/T_hot))) for scores s, so a program
    that a hot chain has carried over a ridge goes down to the cold chains, which refine it: the chains find more
    programs than one chain cooled from a new random program again and again (docs/perf-log/). A new condition
    names a colour the run saw at the slot (kern._seen_condition), as only those split what the slot does. A
    program found is trimmed (slots whose removal still wins go) and kept. Proves nothing.
    """

    def __init__(self, board: Board, stack_cap: int, seed: int = 0, stop: Callable[[], bool] | None = None, *,
                 settings: Settings = DEFAULT) -> None:  # fmt: skip
        self.board = board
        self.settings = settings
        chains = settings.chains
        cold, hot = settings.anneal_cold, settings.anneal_hot
        self.stop_asked = stop
        self.lane = _Lane(board, stack_cap)
        op, cs, nd = self.lane.search.op, self.lane.search.cs, self.lane.search.nd
        self.chains = []
        for k in range(chains):
            state = np.zeros(kern.N_ANNEAL, np.int64)
            state[kern.A_RNG] = (seed * 7919 + 1 + 104_729 * k) % kern.RNG_MOD
            ratio = k / (chains - 1) if chains > 1 else 0.0
            temperature = cold * (hot / cold) ** ratio
            self.chains.append(Chain(state, (np.zeros_like(op), np.zeros_like(cs), np.zeros_like(nd)), temperature))
        self.rng = np.random.default_rng(seed)  # the swaps' draws
        self.alphabet = np.array(
            [kern.OP_F, kern.OP_L, kern.OP_R]
            + [kern.OP_CALL + g for g in range(FUNCTIONS) if board.slots[g]]
            + [kern.OP_PAINT + c for c in range(3) if board.paints >> c & 1],
            np.int64,
        )
        self.conds = np.array(board.condition_bits, np.int64)
        self.spos, self.sdist, self.snear = _star_distances(board, settings.many_stars)
        self.nodes = 0
        self.swaps = 0
        self.best: Program | None = None

    @property
    def taken(self) -> int:
        """The steps all chains have taken (each chain's A_ITER counts its own; a swap leaves them in place)."""
        return sum(int(chain.state[kern.A_ITER]) for chain in self.chains)

    @property
    def state(self) -> np.ndarray:
        """The coldest chain's state (see Chain)."""
        return self.chains[0].state

    @property
    def current(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The coldest chain's current program."""
        return self.chains[0].current

    def guess(self, most_slots: int, clock: Clock, seconds: float) -> Program | None:
        """Anneal for about `seconds` (anneal_chunk steps or anneal_work work between looks at the clock and the
        stop flag): a winning program of at most `most_slots` slots (kept as `best` when shorter), or None.
        O(steps x MAX_ACTIONS)."""
        stop = clock.seconds + seconds
        while True:
            if self.steps(self.settings.anneal_chunk, most_slots):
                found = self._trimmed()
                self.keep(found)
                return found
            if clock.seconds >= stop or (self.stop_asked is not None and self.stop_asked()):
                return None

    def steps(self, count: int, most_slots: int, work: int | None = None) -> bool:
        """About `count` steps in all: each chain's share of them (kern.anneal at its temperature; fewer once their
        runs have done its share of `work`, by default the settings' anneal_work), going on from where its last
        ones left off, then a swap tried between each pair of neighbours (swap). Whether a program of at most
        `most_slots` slots won (it is then in the lane's arrays). O(min(count x MAX_ACTIONS x stack cap, work))."""
        b, s, lane = self.board, self.lane.search, self.lane
        work = self.settings.anneal_work if work is None else work
        share, work_share = max(1, count // len(self.chains)), max(1, work // len(self.chains))
        for chain in self.chains:
            node, won = kern.anneal(
                share, work_share, chain.temperature, most_slots, b.slots, self.alphabet,
                self.conds, chain.state, *chain.current, lane.node, b.step, b.start, b.facing,
                b.stars, s.colour, s.star, s.op, s.cs, s.nd, s.closed, s.stack, s.trail, s.stamp, s.records,
                lane.rpath, s.dropped, s.sc, self.spos, self.sdist, self.snear,
            )  # fmt: skip
            self.nodes += int(node) - lane.node
            lane.node = int(node)
            if won:
                return True
        for k in range(len(self.chains) - 1):
            self.swap(k)
        return False

    def swap(self, k: int) -> bool:
        """Try to swap the programs of chains k and k + 1 (with their scores and what their runs saw; each keeps
        its temperature and generator): always when the hotter one's scores at least as well, else with
        probability exp((s_hot - s_cold) x (1/T_cold - 1/T_hot)). Whether they swapped. O(slots)."""
        cold, hot = self.chains[k], self.chains[k + 1]
        if cold.state[kern.A_KNOWN] == 0 or hot.state[kern.A_KNOWN] == 0:  # a score not yet known
            return False
        gain = float(hot.state[kern.A_SCORE] - cold.state[kern.A_SCORE])
        rate = gain * (1 / cold.temperature - 1 / hot.temperature)
        if rate < 0 and self.rng.random() >= np.exp(rate):
            return False
        known = slice(kern.A_SCORE, kern.N_ANNEAL)
        cold.state[known], hot.state[known] = hot.state[known].copy(), cold.state[known].copy()
        cold.current, hot.current = hot.current, cold.current
        self.swaps += 1
        return True

    def start_from(self, program: Program) -> Program | None:
        """Go on from `program` in the middle chain (of the middle temperature: its next steps change it, and the
        swaps take it up or down). Returns it (trimmed, kept) when it wins. O(MAX_ACTIONS x slots)."""
        score = self.score(program)
        if score == kern.WON:
            found = self._trimmed()
            self.keep(found)
            return found
        s = self.lane.search
        chain = self.chains[len(self.chains) // 2]
        for mine, loaded in zip(chain.current, (s.op, s.cs, s.nd), strict=True):
            mine[:] = loaded
        chain.state[kern.A_SCORE] = score
        chain.state[kern.A_ITER] = max(1, int(chain.state[kern.A_ITER]))  # 0 would start from a random program
        chain.state[kern.A_KNOWN] = 0
        return None

    def score(self, program: Program) -> int:
        """kern.whole_score of `program` (of this puzzle): kern.WON when it wins, else kern.STAR_SCORE per star it
        collects less the moves from where it ends to the nearest star left. O(MAX_ACTIONS x slots)."""
        self.lane.search.load(program)
        return self._score()

    def _score(self) -> int:
        """kern.whole_score of the program in the lane's arrays, as a new node."""
        b, s, lane = self.board, self.lane.search, self.lane
        lane.node += 1
        return int(kern.whole_score(
            lane.node, b.step, b.start, b.facing, b.stars, s.colour, s.star, s.op, s.cs, s.nd,
            s.closed, s.stack, s.trail, s.stamp, s.records, lane.rpath, s.dropped, s.sc, self.spos, self.sdist,
            self.snear,
        ))  # fmt: skip

    def _trimmed(self) -> Program:
        """The winning program in the lane's arrays with every slot whose removal still wins removed (each tried
        once, last first). O(slots x MAX_ACTIONS x slots)."""
        s = self.lane.search
        for f in range(FUNCTIONS):
            for i in range(int(s.nd[f]) - 1, -1, -1):
                op, cs, nd = s.op.copy(), s.cs.copy(), s.nd.copy()
                s.op[f, i:-1], s.cs[f, i:-1] = op[f, i + 1 :], cs[f, i + 1 :]
                s.nd[f] -= 1
                if self._score() != kern.WON:
                    s.op[:], s.cs[:], s.nd[:] = op, cs, nd
        return program_of(s.op, s.cs, s.nd)
