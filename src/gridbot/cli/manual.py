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


_KEEP = "\N{NON-BREAKING HYPHEN}"  # stands for a path's "-" while the help is wrapped: one column, never a break


class _Formatter(click.HelpFormatter):
    """click's help formatter, but a path to the pages is never cut at one of its hyphens (site-packages)."""

    def write_text(self, text: str) -> None:
        where = folder()
        if where is not None:
            text = text.replace(str(where), str(where).replace("-", _KEEP))
        super().write_text(text)

    def getvalue(self) -> str:
        return super().getvalue().replace(_KEEP, "-")


def point_help(command: click.Command) -> None:
    """Make the pointers of `command`'s help, and its subcommands', name the installed pages (in place), and
    format that help with _Formatter."""
    if command.help:
        command.help = pointers(command.help)
    base = command.context_class
    command.context_class = type(base.__name__, (base,), {"formatter_class": _Formatter})
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            point_help(sub)
