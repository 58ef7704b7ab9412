"""Bundled levels, addressed as `GAME:NAME` (`carrots:7`), level files, and standard input (`-`).

>>> import gridbot
>>> gridbot.load("carrots:1").size
3

Level text is read with a cap (`max_bytes`, by default what the game's format
can hold) and without waiting for ever: a pipe or device that sends nothing
for `READ_TIMEOUT` seconds, or more than the cap, is an error, never a hang or
a runaway allocation.
"""

from __future__ import annotations

import errno
import functools
import gzip
import json
import os
import select
import stat
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, BinaryIO

from gridbot import games
from gridbot.errors import GridbotError, LevelError
from gridbot.grid import MAX_GRID_SIDE
from gridbot.text import is_digits

LEVEL_SUFFIXES = (".txt", ".in")
# Two grids at the largest side (Light-Bot has heights and markers), with room for comments: no level is larger.
MAX_LEVEL_BYTES = 4 * (MAX_GRID_SIDE + 2) ** 2
READ_TIMEOUT = 10.0  # seconds a pipe may stay silent before reading gives up
STDIN = "-"


BUNDLE = "levels.json.gz"  # a game with many levels ships them in one file: {name: level text}
# A Pellet path over the largest board, one move a cell with a space after each, fits twice over; no other game's
# program comes near it.
MAX_PROGRAM_BYTES = 4 * 2**20
PROOFS = "proofs.json"  # measured proof times of a game's bundled levels (see proof_time)
SLOW_PROOF = 30.0  # seconds from which `gridbot levels` marks a level's proof as slow


def _natural(name: str) -> tuple[int, int, str]:
    """Sort key: numbers in numeric order (`2` before `10`), before other names."""
    head = name.split("_")[0]
    return (0, int(head), name) if is_digits(head) else (1, 0, name)


MAIN = "main"  # the level set a game's levels belong to unless a bundle file of another set holds them


@functools.cache
def _bundle(game: str, level_set: str = MAIN) -> dict[str, str]:
    """The levels of `game`'s bundle file of `level_set` (name -> text), or {} when it has none. Read once per
    process. The main set's file is BUNDLE; another set's is `SET.json.gz` (RoboZZle's `later.json.gz`)."""
    f = resources.files("gridbot") / "data" / game / (BUNDLE if level_set == MAIN else f"{level_set}.json.gz")
    if not f.is_file():
        return {}
    return json.loads(gzip.decompress(f.read_bytes()))


def level_sets(game: str) -> list[str]:
    """The bundled level sets of `game`: MAIN first, then the sets of its other bundle files, by name.

    >>> level_sets("robozzle")
    ['main', 'later']
    """
    folder = resources.files("gridbot") / "data" / games.get(game).NAME
    if not folder.is_dir():
        return [MAIN]
    extra = sorted(f.name.removesuffix(".json.gz") for f in folder.iterdir() if f.name.endswith(".json.gz"))
    return [MAIN] + [name for name in extra if name != BUNDLE.removesuffix(".json.gz")]


def names(game: str, level_set: str = MAIN) -> list[str]:
    """Names of the bundled levels of `game` in `level_set`, in order (numbers in numeric order). A name is unique
    across a game's sets, so `GAME:NAME` needs no set; GridbotError for a set the game does not have."""
    games.get(game)
    game = game.lower()
    if level_set != MAIN:
        if level_set not in level_sets(game):
            raise GridbotError(f"{game} has no level set {level_set!r} (its sets: {', '.join(level_sets(game))})")
        return sorted(_bundle(game, level_set), key=_natural)
    folder = resources.files("gridbot") / "data" / game
    if not folder.is_dir():
        return []
    found = {Path(f.name).stem for f in folder.iterdir() if Path(f.name).suffix in LEVEL_SUFFIXES}
    return sorted(found | set(_bundle(game)), key=_natural)


def _matches(stem: str, wanted: str) -> bool:
    if stem == wanted:
        return True
    return is_digits(wanted) and is_digits(stem.split("_")[0]) and int(stem.split("_")[0]) == int(wanted)


def bundled(game: str, wanted: str) -> str | None:
    """The name of the bundled level of `game` that `wanted` names (`7` finds `07`), in any of its sets, or None."""
    for level_set in level_sets(game):
        for stem in names(game, level_set):
            if _matches(stem, wanted):
                return stem
    return None


def bundled_text(game: str, stem: str) -> str | None:
    """The text of bundled level `game:stem` (a name from `names`, never a path), from any set; None if none."""
    game = games.get(game).NAME
    for level_set in level_sets(game):
        bundle = _bundle(game, level_set)
        if stem in bundle:
            return bundle[stem]
    folder = resources.files("gridbot") / "data" / game
    for suffix in LEVEL_SUFFIXES:
        f = folder / (stem + suffix)
        if f.is_file():
            return f.read_text()
    return None


def is_file(spec: str | os.PathLike[str]) -> bool:
    """Does `spec` name something that exists on disk? False, not an error, for names the system refuses."""
    try:
        return Path(spec).exists()
    except (OSError, ValueError):  # a name too long, a NUL byte
        return False


def max_bytes(game: str) -> int:
    """The largest level text `game` reads: its module's MAX_LEVEL_BYTES, else the shared cap."""
    return int(games.optional(games.get(game), "MAX_LEVEL_BYTES") or MAX_LEVEL_BYTES)


def _limit_text(limit: int) -> str:
    return f"{limit / 2**20:.0f} MiB" if limit >= 2**20 else f"{limit} bytes"


def read_capped(
    stream: BinaryIO | int, limit: int, source: str, timeout: float | None = READ_TIMEOUT, what: str = "level"
) -> bytes:
    """At most `limit` bytes from a file object or descriptor, up to its end; GridbotError past the cap or after
    `timeout` seconds without data (None: wait as long as it takes, for a person typing at a terminal). `what`
    names the text in errors ("level", "program"). O(limit) memory."""
    fd = stream if isinstance(stream, int) else stream.fileno()
    chunks: list[bytes] = []
    size = 0
    while True:
        try:
            ready, _, _ = select.select([fd], [], [], timeout)
        except (OSError, ValueError):  # not selectable (a regular file on some systems): read blocks briefly anyway
            ready = [fd]
        if not ready:
            raise GridbotError(f"cannot read {what} {source!r}: nothing arrived for {timeout or 0:g} s")
        try:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
        except BlockingIOError:
            continue
        except OSError as exc:
            raise GridbotError(f"cannot read {what} {source!r}: {exc.strerror or exc}") from None
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise GridbotError(f"{what} {source!r} is larger than {_limit_text(limit)}, the most this game reads")


def decode(data: bytes, source: str) -> str:
    """UTF-8 text; LevelError naming the line and column of the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise LevelError("not UTF-8 text", line, column, source) from None


def read_file(
    path: str | os.PathLike[str], limit: int = MAX_LEVEL_BYTES, timeout: float = READ_TIMEOUT, what: str = "level"
) -> str:
    """The text of a level (or `what`) file, pipe or device, read with a cap (see read_capped); GridbotError if it
    cannot be read. Opening does not block: a FIFO nobody writes to is given up after `timeout` seconds."""
    source = os.fspath(path)
    try:
        fd = os.open(source, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        why = "name too long" if exc.errno == errno.ENAMETOOLONG else (exc.strerror or str(exc))
        shown = source if len(source) <= 80 else source[:77] + "..."
        raise GridbotError(f"cannot read {what} file {shown!r}: {why}") from None
    except ValueError as exc:  # e.g. an embedded NUL
        raise GridbotError(f"cannot read {what} file: {exc}") from None
    try:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise GridbotError(f"cannot read {what} file {source!r}: it is a directory")
        data = read_capped(fd, limit, source, timeout, what)
    finally:
        os.close(fd)
    return decode(data, source)


def split_spec(spec: str) -> tuple[str | None, str]:
    """(game, name) of a bundled level's spec `GAME:NAME` (the game as written), or (None, spec) for a file path,
    `-` or a bare name: a path that exists is a file, even with a `:` in it.

    >>> split_spec("carrots:7"), split_spec("7"), split_spec("-")
    (('carrots', '7'), (None, '7'), (None, '-'))
    """
    if ":" in spec and not is_file(spec):
        game, name = spec.split(":", 1)
        return game, name
    return None, spec


def check_game(spec: str, game_name: str, game: str) -> None:
    """GridbotError unless the game `game_name` of level `spec` is `game` (in any case)."""
    if game_name.lower() != game.lower():
        raise GridbotError(f"level {spec!r} belongs to {game_name}, not {game}")


def read_text(spec: str | os.PathLike[str], game: str | None = None) -> tuple[str, str, str]:
    """(game, display name, text) of a level given as `GAME:NAME`, a file path, or `-` (standard input)."""
    if isinstance(spec, os.PathLike):
        spec = os.fspath(spec)
    if not isinstance(spec, str):
        raise TypeError(f"a level is named by a str or a path, not {type(spec).__name__}")
    game_name, wanted = split_spec(spec)
    if game_name is not None:
        if game is not None:
            check_game(spec, game_name, game)
        games.get(game_name)
        stem = bundled(game_name, wanted)
        text = None if stem is None else bundled_text(game_name, stem)
        if stem is not None and text is not None:
            return game_name.lower(), f"{game_name.lower()}:{stem}", text
        raise GridbotError(f"no bundled level {spec!r} (see `gridbot levels {game_name}`)")
    if game is None:
        raise GridbotError(f"name the game of level file {spec!r}")
    games.get(game)
    if spec == STDIN:
        wait = None if sys.stdin.isatty() else READ_TIMEOUT  # a person typing takes the time they need
        text = decode(read_capped(sys.stdin.buffer, max_bytes(game), "<stdin>", wait), "<stdin>")
        return game.lower(), "<stdin>", text
    return game.lower(), spec, read_file(spec, max_bytes(game))


def load(spec: str | os.PathLike[str], game: str | None = None) -> Any:
    """Parse a level given as `GAME:NAME`, `-` (standard input) or (with `game`) a file path."""
    game_name, name, text = read_text(spec, game)
    try:
        return games.get(game_name).Level.parse(text, name=name)
    except LevelError as exc:
        raise exc.with_source(name) from None


def read_program(source: str, game: str) -> str:
    """The text of a program given as a file path or `-` (standard input), read with a cap of MAX_PROGRAM_BYTES
    (a game module's own MAX_PROGRAM_BYTES when it has one); GridbotError if it cannot be read. O(its size)."""
    limit = int(games.optional(games.get(game), "MAX_PROGRAM_BYTES") or MAX_PROGRAM_BYTES)
    if source == STDIN:
        wait = None if sys.stdin.isatty() else READ_TIMEOUT
        return decode(read_capped(sys.stdin.buffer, limit, "<stdin>", wait, "program"), "<stdin>")
    return read_file(source, limit, what="program")


@dataclass(frozen=True, slots=True)
class ProofTime:
    """How long the proof of a bundled level's optimum took when it was measured: `seconds`, or None when the
    solver did not prove it within `limit` seconds (see the game's data/GAME/proofs.json for where and how)."""

    seconds: float | None
    limit: float | None = None

    @property
    def slow(self) -> bool:
        """Does the proof take SLOW_PROOF seconds or more (or was it not reached in the time measured)?"""
        return self.seconds is None or self.seconds >= SLOW_PROOF

    def __str__(self) -> str:
        """`~11 min`, `~45 s`, `0.04 s`, or `no proof in 10 s`."""
        if self.seconds is None:
            return f"no proof in {self.limit:g} s" if self.limit else "no proof"
        if self.seconds >= 90:
            return f"~{round(self.seconds / 60)} min"
        return f"~{self.seconds:.0f} s" if self.seconds >= 10 else f"{self.seconds:.2g} s"


@functools.cache
def _proofs(game: str) -> dict[str, ProofTime]:
    f = resources.files("gridbot") / "data" / game / PROOFS
    if not f.is_file():
        return {}
    data = json.loads(f.read_text())
    limit = data.get("limit")
    out = {name: ProofTime(float(seconds), limit) for name, seconds in data.get("seconds", {}).items()}
    out.update((name, ProofTime(None, limit)) for name in data.get("unproven", ()))
    return out


def proof_time(game: str, name: str) -> ProofTime | None:
    """The measured proof time of bundled level `game:name`, or None when none was recorded. O(1) after the first
    call per game.

    >>> str(proof_time("lightbot", "10"))
    '~11 min'
    """
    return _proofs(games.get(game).NAME).get(name)
