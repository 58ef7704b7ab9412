"""What every command reads, in one place: LEVEL arguments (bundled names, files, standard input), PROGRAM
arguments and program files, and time limits in seconds, counted from the command's start.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import click
from click.shell_completion import CompletionItem

from gridbot import games, levels
from gridbot.deadline import check_time_limit
from gridbot.errors import GridbotError

GAME_OPTION = click.option(
    "--game",
    "game_option",
    type=click.Choice(games.GAMES, case_sensitive=False),
    default=None,
    metavar="GAME",
    help="The game of level files, - and bare names (a GAME:NAME level names its own).",
)


def is_game(word: str) -> bool:
    """Does `word` name a game (and no file of that name exists, which would be a level file)?"""
    return word.lower() in games.GAMES and not levels.is_file(word)


def split_game(
    words: tuple[str, ...], game_option: str | None, leading: int | None = None, need_level: bool = True
) -> tuple[str, tuple[str, ...]]:
    """(game, the words after GAME) of a command's `[GAME] LEVEL...` arguments.

    The game is the first word when it names one (the two-word form `solve carrots carrots:12`), else `--game`,
    else the game of the GAME:NAME levels among the first `leading` words (every word when None). UsageError when
    nothing names the game, or the levels name several (one call solves, runs or shows one game's levels)."""
    if words and is_game(words[0]):
        game, rest = games.get(words[0]).NAME, words[1:]
        if game_option is not None and game_option.lower() != game:
            raise click.UsageError(f"the game {game} and --game {game_option} disagree")
    else:
        first = words[0] if words else ""
        if game_option is None and first.replace("_", "").isalpha() and not levels.is_file(first):
            games.get(first)  # a word where GAME goes that names no game: say so, not that no level is called so
        rest = words
        specs = words if leading is None else words[:leading]
        named = sorted({name.lower() for name, _ in map(levels.split_spec, specs) if name is not None})
        if len(named) > 1:
            raise click.UsageError(f"levels of several games in one call ({', '.join(named)}): give one game's")
        game = (game_option or (named[0] if named else "")).lower()
        if not game and specs:
            raise click.UsageError(f"name the game of level {specs[0]!r}: GAME:NAME, GAME before it, or --game GAME")
    if need_level and not rest:
        raise click.UsageError("Missing argument 'LEVEL'.")
    return game, rest


def complete_game(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Shell completion of a GAME: the games whose names start with what is typed."""
    return [CompletionItem(name) for name in games.GAMES if name.startswith(incomplete.lower())]


def level_completer(most: int | None) -> Callable[[click.Context, click.Parameter, str], list[CompletionItem]]:
    """Shell completion of `[GAME] LEVEL...` (at most `most` levels; None: any number): the games, and the
    bundled levels as GAME:NAME (every set) of the game typed so far, before or in the word."""

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        before = tuple(ctx.params.get(param.name or "") or ())
        game = games.get(before[0]).NAME if before and is_game(before[0]) else None
        given = len(before) - (game is not None)
        if most is not None and given >= most:
            return []  # past the levels: a program, which the shell cannot guess
        typed, colon, name = incomplete.partition(":")
        if colon or game is not None:
            game, name = (typed.lower(), name) if colon else (game, incomplete)
            if game not in games.GAMES:
                return []
            stems = (stem for level_set in levels.level_sets(game) for stem in levels.names(game, level_set))
            # `carrots:1` offers carrots:01 as well as carrots:10: a number is named with or without its zeros
            wanted = [stem for stem in stems if stem.startswith(name) or stem.lstrip("0").startswith(name)]
            return [CompletionItem(f"{game}:{stem}") for stem in wanted]
        return [] if given else complete_game(ctx, param, incomplete)

    return complete


def resolve_spec(spec: str, game: str) -> str:
    """`GAME:NAME`, `-` and file paths pass through; a bare bundled name (`7`) becomes `game:7`."""
    if ":" in spec or spec == levels.STDIN or levels.is_file(spec) or levels.bundled(game, spec) is None:
        return spec
    return f"{game}:{spec}"


def load(spec: str, game: str) -> Any:
    return levels.load(resolve_spec(spec, game), game)


def program_text(module: ModuleType, words: tuple[str, ...], program_file: str | None, level_spec: str) -> str:
    """The program's text: PROGRAM's words joined with spaces, or read from `--program-file` or PROGRAM `-` (a
    file or standard input, capped like a level; see levels.read_program)."""
    if program_file is not None and words:
        raise click.UsageError("give PROGRAM or --program-file, not both")
    source = program_file if program_file is not None else (levels.STDIN if words == (levels.STDIN,) else None)
    if source is None:
        return " ".join(words)
    if source == levels.STDIN and level_spec == levels.STDIN:
        raise click.UsageError("the level and the program cannot both come from standard input")
    return levels.read_program(source, module.NAME)


MAX_PAIRS_BYTES = 64 * 2**20  # a --pairs file: thousands of pairs with long programs fit many times over

Pair = tuple[str, str, str | None]  # (level spec, program text, game or None) of a --pairs line


def source_name(source: str) -> str:
    return "<stdin>" if source == levels.STDIN else source


def read_pairs(source: str) -> Iterator[tuple[int, Pair | GridbotError]]:
    """(line number, pair) of each pair of a `--pairs` file or `-` (standard input), blank and `#` lines skipped:
    `LEVEL<TAB>PROGRAM`, or a JSON object with `level` and `program` (or `solution`, as `solve --json` prints it)
    and maybe `game`. A line that is neither is yielded as its GridbotError, so the other pairs are still checked.
    The file is read whole, with a cap of MAX_PAIRS_BYTES; GridbotError if it cannot be read."""
    if source == levels.STDIN:
        wait = None if sys.stdin.isatty() else levels.READ_TIMEOUT
        text = levels.decode(levels.read_capped(sys.stdin.buffer, MAX_PAIRS_BYTES, "<stdin>", wait, "pairs"), "<stdin>")
    else:
        text = levels.read_file(source, MAX_PAIRS_BYTES, what="pairs")
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            yield number, _pair(line)


def _pair(line: str) -> Pair | GridbotError:
    if line.lstrip().startswith("{"):
        try:
            data = json.loads(line)
        except ValueError as exc:
            return GridbotError(f"not a JSON object: {exc}")
        data = data if isinstance(data, dict) else {}
        program = data.get("program", data.get("solution"))
        if not isinstance(data.get("level"), str) or not isinstance(program, str):
            return GridbotError('a JSON pair needs "level" and "program" (or "solution") strings')
        game = data.get("game")
        return data["level"], program, game if isinstance(game, str) else None
    level, tab, program = line.partition("\t")
    if not tab:
        return GridbotError("expected LEVEL<TAB>PROGRAM")
    return level.strip(), program.strip(), None


def level_name(level: Any, spec: str) -> str:
    return getattr(level, "name", "") or spec


class Seconds(click.ParamType):
    """A positive number of seconds (no NaN, no zero or less)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float | None:
        try:
            return check_time_limit(value)
        except ValueError:
            self.fail(f"{value!r} is not a positive number of seconds", param, ctx)


SECONDS = Seconds()


def command_started(ctx: click.Context) -> float:
    """When the command started (`main` records it; a test runner's call starts now)."""
    return (ctx.obj or {}).get("started", time.monotonic())


def time_left(time_limit: float | None, since: float) -> float | None:
    """The time limit still left of one counted from `since`, never below a twentieth of it (the command's start-up
    may have eaten it: the solver still gets a moment to return what it has)."""
    if time_limit is None:
        return None
    return max(time_limit - (time.monotonic() - since), time_limit / 20)
