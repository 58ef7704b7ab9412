"""gridbot: simulate and solve grid-robot puzzles, with proofs of optimality.

>>> import gridbot
>>> level = gridbot.load("carrots:2")
>>> from gridbot.games import carrots
>>> carrots.run(level, "LOOP{F F R}").verdict.status
'completed'
"""

from gridbot.errors import GridbotError, LevelError, ProgramError
from gridbot.levels import load

__all__ = ["GridbotError", "LevelError", "ProgramError", "load"]
__version__ = "0.1.0"
