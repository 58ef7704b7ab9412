"""What RoboZZle's heuristics (Beam, Annealer) share: the best program found so far (_Heuristic), and the arrays
a thread runs programs in (_Lane)."""

from __future__ import annotations

import numpy as np

from gridbot.games.robozzle import Program
from gridbot.kernels import robozzle as kern
from gridbot.solve.robozzle.board import Board
from gridbot.solve.robozzle.exact import _Search


class _Heuristic:
    """What the heuristics (Beam, Annealer) share: the program of fewest slots found so far."""

    best: Program | None  # set by each heuristic's __init__

    def keep(self, found: Program) -> None:
        """`found` becomes `best` when it has fewer slots than the best so far."""
        if self.best is None or found.tokens < self.best.tokens:
            self.best = found


class _Lane:
    """The arrays one thread of a heuristic runs its programs in, and the node number it is at."""

    def __init__(self, board: Board, stack_cap: int) -> None:
        self.search = _Search(board, sum(int(s) for s in board.slots), stack_cap)
        self.rpath = np.zeros(kern.MAX_FRAMES + 1, np.int64)
        self.frame = np.zeros(kern.N_FRAME, np.int64)
        self.node = 0
