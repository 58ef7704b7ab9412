"""Fewest-slot RoboZZle programs, proven by exhaustive lazy search, with heuristics for upper bounds.

>>> from gridbot.games import robozzle
>>> from gridbot.solve.robozzle import solve
>>> level = robozzle.Level.parse("functions: 3 0 0 0 0\\npaint: none\\nstart: 1 1 east\\nrrrrR")
>>> result = solve(level)
>>> result.status, result.length, str(result.program)
('optimal', 2, 'F1: F F1')

The modules, each importing only those above it:

- settings: Settings, every tuning value, which `solve` hands down.
- board: the puzzle as the kernels read it (Board), programs in their arrays (program_of), the stars.
- exact: the exact search and why it is exact (its cuts); a length searched whole or in shares.
- heuristic: what the heuristics share; beam: the beam search and its repair; anneal: the annealer.
- schedule: how a solve divides its time between lengths and heuristics, and where it went (Spent).
- team: the heuristics on threads of their own (Team), and the annealer beside the exact search (Beside).
- front: `solve`, length by length, in this process or over worker processes; `warm_up`.

relaxed (boards with conditions on one colour only) serves benchmarks, not `solve`.
"""

from __future__ import annotations

from gridbot.solve.robozzle.anneal import Annealer, Chain
from gridbot.solve.robozzle.beam import Beam
from gridbot.solve.robozzle.board import Board, program_of
from gridbot.solve.robozzle.exact import MAX_ALL, split_depth, subtrees
from gridbot.solve.robozzle.front import solve, warm_up
from gridbot.solve.robozzle.schedule import Spent, heuristic_share
from gridbot.solve.robozzle.settings import DEFAULT, Settings
from gridbot.solve.robozzle.team import Beside, Team, is_annealer, member_of

__all__ = [
    "DEFAULT",
    "MAX_ALL",
    "Annealer",
    "Beam",
    "Beside",
    "Board",
    "Chain",
    "Settings",
    "Spent",
    "Team",
    "heuristic_share",
    "is_annealer",
    "member_of",
    "program_of",
    "solve",
    "split_depth",
    "subtrees",
    "warm_up",
]
