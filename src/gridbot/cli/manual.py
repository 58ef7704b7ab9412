"""Where the documentation pages are, so that the help's pointers to them resolve wherever gridbot is installed.

A wheel carries the pages in gridbot/docs/ (setup.py copies docs/*.md and their pictures there when it builds);
an editable install or a checkout run from src/ reads docs/ of the checkout. The help names a page as
docs/PAGE.md in the source, and `pointers` turns that into the path of the folder that exists here.

>>> pointers("See docs/cluster.md.").endswith("docs/cluster.md.")
True
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import click

_PACKAGE = Path(__file__).resolve().parent.parent  # .../gridbot, installed or in the checkout's src/
_POINTER = re.compile(r"(?<![\w/.-])docs/(?=[\w-]+\.md\b)")  # docs/PAGE.md not already inside a longer path


@functools.cache
def folder() -> Path | None:
    """The folder of the documentation pages: the package's own, else the checkout's docs/; None without either."""
    for candidate in (_PACKAGE / "docs", _PACKAGE.parent.parent / "docs"):
        if (candidate / "index.md").is_file():
            return candidate
    return None


def pointers(text: str) -> str:
    """`text` with every docs/PAGE.md made a path in folder(); unchanged where there is no such folder. O(len)."""
    where = folder()
    if where is None:
        return text
    return _POINTER.sub(lambda _: f"{where}/", text)  # a function: the path is not read as a template


_FOLDER = "\ue000"  # stands for folder() while the help is wrapped (a private-use character: in no help text)


class _Formatter(click.HelpFormatter):
    """click's help formatter, but the path of the pages is never cut: wrapped as one character, then put back
    (a line holding it may be longer than the terminal, and the path stays whole for copying)."""

    def write_text(self, text: str) -> None:
        where = folder()
        super().write_text(text if where is None else text.replace(str(where), _FOLDER))

    def write_dl(self, rows: Any, col_max: int = 30, col_spacing: int = 2) -> None:
        where = folder()
        if where is not None:
            rows = [(term, text.replace(str(where), _FOLDER)) for term, text in rows]
        super().write_dl(rows, col_max, col_spacing)

    def getvalue(self) -> str:
        where = folder()
        text = super().getvalue()
        return text if where is None else text.replace(_FOLDER, str(where))


def point_help(command: click.Command) -> None:
    """Make the pointers of `command`'s help, and its subcommands', name the installed pages (in place), and
    format that help with _Formatter."""
    if command.help:
        command.help = pointers(command.help)
    for param in command.params:
        if isinstance(param, click.Option) and param.help:
            param.help = pointers(param.help)
    base = command.context_class
    command.context_class = type(base.__name__, (base,), {"formatter_class": _Formatter})
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            point_help(sub)
