"""The one hierarchy of errors gridbot raises on purpose: every one a GridbotError.

>>> from gridbot.errors import LevelError
>>> str(LevelError("no robot", 2, 5, "carrots:7"))
'carrots:7:2:5: no robot'
"""

from __future__ import annotations


class GridbotError(Exception):
    """Base of every error gridbot raises on purpose (bad levels, bad programs)."""


class WrongAnswer(GridbotError):
    """A solver's answer that the game's simulator rejects (gridbot.solve.check): a bug in the solver, never bad
    input. The command line reports it as a failed re-check and exits with status 1."""


class LevelError(GridbotError):
    """A level text that cannot be read; knows the source, line and column (1-based)."""

    def __init__(self, message: str, line: int = 0, column: int = 0, source: str = "<level>") -> None:
        self.message = message
        self.line = line
        self.column = column
        self.source = source
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.source
        if self.line:
            where += f":{self.line}"
            if self.column:
                where += f":{self.column}"
        return f"{where}: {self.message}"

    def with_source(self, source: str) -> LevelError:
        """The same error, naming `source` (a file path or `game:name`)."""
        return LevelError(self.message, self.line, self.column, source)


class ProgramError(GridbotError):
    """A program (or path) text that cannot be read; `column` is 1-based, 0 if unknown."""

    def __init__(self, message: str, column: int = 0, text: str = "") -> None:
        self.message = message
        self.column = column
        self.text = text
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"program:1:{self.column}" if self.column else "program"
        return f"{where}: {self.message}"


class OrderError(GridbotError):
    """A request for levels made to order that no level can meet (gridbot.generate.order): a par, size or option
    out of reach of the game, or a game the generator does not make to order."""


class Stopped(GridbotError):
    """Work on a level made to order stopped before it could decide (the time limit, or a stop request): the
    level is neither kept nor rejected."""
