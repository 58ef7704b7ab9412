"""The two build steps pyproject.toml cannot declare (everything else about the package is declared there).

1. The documentation pages ship inside the package: docs/*.md and their pictures are copied to gridbot/docs/ in
   the wheel, where the command line's help finds them (gridbot.cli.manual). An editable install reads docs/ of
   the checkout instead, so nothing is copied for it.
2. The package's long description is the README made fit for a package index, which shows it without the
   repository around it: `index_readme` drops its pictures, its table of contents and the targets of its
   relative links (keeping their text), and says where the pages are instead.

tests/structure/test_package.py imports this file to test `index_readme`; setuptools runs it as __main__.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
DOCS = ROOT / "docs"
SHIPPED_DOCS = ("*.md", "pictures/*.svg", "pictures/*.png")  # the pages and the pictures they show

FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
IMAGE = re.compile(r"^!\[[^\]]*\]\((?![a-zA-Z][a-zA-Z0-9+.-]*:)[^)]*\)\s*$")  # a picture alone on its line
CAPTION = re.compile(r"^\*[^*].*\*$", re.DOTALL)  # an italic paragraph right under a picture
# [label](target) whose target has no scheme: a page or an anchor of the repository
RELATIVE_LINK = re.compile(
    r"\[(?P<label>(?:[^\[\]]|\[[^\[\]]*\])*)\]"  # the label may hold brackets one level deep
    r"\((?![a-zA-Z][a-zA-Z0-9+.-]*:)(?P<target>[^)\s]*)\)"
)
SHIPPED_PAGE = re.compile(r"docs/[\w-]+\.md")  # a page the package carries (SHIPPED_DOCS)
NOTE = (
    "*This is the README of gridbot's repository, without its pictures. The pages it names as `docs/PAGE.md` "
    "are installed with the package, in `gridbot/docs/` (`gridbot --help` prints that folder), and "
    "`DATA-NOTICE.md`, in the package's metadata, says where the bundled level sets come from and on what "
    "terms.*"
)


def index_readme(text: str) -> str:
    """README.md as a package index shows it: no picture or relative link that only resolves beside the
    repository's files, no table of contents of anchors, and a note after the first paragraph saying where the
    pages are. Fenced code is left as it is. O(len(text))."""
    paragraphs = _paragraphs(text)
    kept: list[str] = []
    skipping_section = False
    after_picture = False
    for paragraph in paragraphs:
        if paragraph.startswith("## "):
            skipping_section = paragraph.strip() == "## Contents"
        if skipping_section:
            continue
        if IMAGE.match(paragraph):
            after_picture = True
            continue
        if after_picture and CAPTION.match(paragraph):
            after_picture = False
            continue
        after_picture = False
        kept.append(paragraph)
    first_prose = next(i for i, p in enumerate(kept) if not p.startswith("#"))
    kept.insert(first_prose + 1, NOTE)
    return _unlinked("\n\n".join(kept)) + "\n"


def _unlinked(text: str) -> str:
    """`text` with each relative link outside fenced code replaced by its label (and the page it names)."""
    lines: list[str] = []
    fence = ""
    for line in text.split("\n"):
        found = FENCE.match(line)
        if fence:
            if found and found.group(1).startswith(fence) and line.strip() == found.group(1):
                fence = ""
        elif found:
            fence = found.group(1)
        else:
            line = RELATIVE_LINK.sub(_label, line)
        lines.append(line)
    return "\n".join(lines)


def _label(link: re.Match[str]) -> str:
    """A relative link's label, followed by the page's name where the package carries that page."""
    label, target = link.group("label"), link.group("target")
    return f"{label} (`{target}`)" if SHIPPED_PAGE.fullmatch(target) else label


def _paragraphs(text: str) -> list[str]:
    """The blocks of `text` split at blank lines, a fenced block whole (blank lines inside it kept)."""
    blocks: list[str] = []
    lines: list[str] = []
    fence = ""
    for line in text.splitlines():
        found = FENCE.match(line)
        if fence:
            lines.append(line)
            if found and found.group(1).startswith(fence) and line.strip() == found.group(1):
                fence = ""
            continue
        if found:
            fence = found.group(1)
        if not line.strip() and not fence:
            if lines:
                blocks.append("\n".join(lines))
            lines = []
            continue
        lines.append(line)
    if lines:
        blocks.append("\n".join(lines))
    return blocks


class BuildWithDocs(build_py):
    """build_py, then the documentation pages copied into the built package (not for an editable install)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "gridbot" / "docs"
        for pattern in SHIPPED_DOCS:
            for path in sorted(DOCS.glob(pattern)):
                destination = target / path.relative_to(DOCS)
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, destination)


if __name__ == "__main__":
    from setuptools import setup

    setup(
        cmdclass={"build_py": BuildWithDocs},
        long_description=index_readme((ROOT / "README.md").read_text(encoding="utf-8")),
        long_description_content_type="text/markdown",
    )
