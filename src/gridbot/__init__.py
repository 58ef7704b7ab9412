"""gridbot: simulate and solve grid-robot puzzles, with proofs of optimality.

>>> import gridbot
>>> level = gridbot.load("carrots:2")
>>> from gridbot.games import carrots
>>> carrots.run(level, "LOOP{F F R}").verdict.status
'completed'
>>> print(gridbot.solve(level).solution)
LOOP{F F R}

The layers above the rules load when first named (`gridbot.solve`, `gridbot.generate`), so that `import gridbot`
stays cheap: neither numba nor any solver is imported until one is used.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from gridbot.errors import GridbotError, LevelError, ProgramError
from gridbot.levels import load

# subpackages loaded on first use: `gridbot.solve(level)` (the package is callable as its front, see
# gridbot.solve), `gridbot.generate.random_level(game, width, height, seed)`
_LAZY = ("solve", "generate")

__all__ = ["GridbotError", "LevelError", "ProgramError", "load", *_LAZY]
__version__ = "0.1.0"


def __getattr__(name: str) -> ModuleType:
    """The subpackages of _LAZY, imported when first asked for (importing them sets the attribute for good)."""
    if name in _LAZY:
        return importlib.import_module(f"gridbot.{name}")
    raise AttributeError(f"module 'gridbot' has no attribute {name!r}")
