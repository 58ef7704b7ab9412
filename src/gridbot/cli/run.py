"""`gridbot run [GAME] LEVEL PROGRAM`: run a program by the game's simulator and say how it ends (or trace it); with
`--check`, exit 1 unless it completes the level; with `--pairs FILE`, check many level/program pairs in one call."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import click

from gridbot import games, levels
from gridbot.cli import display, inputs
from gridbot.errors import GridbotError
from gridbot.grid import plural

RUN_EPILOG = (
    "Exit status: 0 the program ran (with --check or --pairs: and completed every level); 1 with --check or "
    "--pairs, some program did not complete its level; 2 bad input or usage; 130 interrupted."
)


@click.command(cls=display.GameCommand, epilog=RUN_EPILOG)
@click.argument("words", metavar="[GAME] LEVEL [PROGRAM]", nargs=-1, shell_complete=inputs.level_completer(1))
@inputs.GAME_OPTION
@click.option("--trace", is_flag=True, help="Show the board after every step, up to the end or a repeated state.")
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=200,
    show_default=True,
    metavar="N",
    help="With --trace: show at most N steps.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (with --pairs: one a pair).")
@click.option("--program-file", metavar="FILE", help="Read the program from FILE (- for standard input).")
@click.option("--check", is_flag=True, help="Exit with status 1 unless the program completes the level.")
@click.option(
    "--pairs",
    metavar="FILE",
    default=None,
    help="Check every LEVEL<TAB>PROGRAM line of FILE (- for standard input; JSON Lines too): one line a pair.",
)
@display.QUIET_OPTION
@click.pass_context
def run(
    ctx: click.Context,
    words: tuple[str, ...],
    game_option: str | None,
    trace: bool,
    limit: int,
    as_json: bool,
    program_file: str | None = None,
    check: bool = False,
    pairs: str | None = None,
    quiet: bool = False,
) -> None:
    """Run PROGRAM on LEVEL and print how it ends.

    LEVEL is GAME:NAME (carrots:7); a bundled NAME (7), a level file or - (standard
    input) with GAME before it or --game. Quote the program (gridbot run carrots:2
    'LOOP{F F R}'); several words are joined with spaces; PROGRAM - reads it from
    standard input. For bender, PROGRAM is optional: an answer to check (moves or
    LOOP); without it, Bender's own journey is shown.

    --check makes the verdict the exit status (0 completed, 1 not); --pairs FILE
    checks one pair a line (see docs/cli.md). --quiet prints the verdict alone, and
    with --check or --pairs nothing: the exit status says it all.
    """
    quiet = display.quiet(ctx, quiet)
    display.no_quiet_json(quiet, as_json)
    if trace and as_json:
        raise click.UsageError("--trace and --json cannot be combined")
    if pairs is not None:
        if trace or program_file is not None:
            raise click.UsageError("--pairs takes its levels and programs from its file: no --trace, --program-file")
        game, rest = inputs.split_game(words, game_option, need_level=False) if words else (game_option, ())
        if rest:
            raise click.UsageError(f"--pairs takes its levels and programs from its file, not {' '.join(rest)!r}")
        _check_pairs(pairs, game, as_json, quiet)
        return
    game, (level_spec, *program_words) = inputs.split_game(words, game_option, leading=1)
    module = games.get(game)
    optional = games.optional(module, "PROGRAM_OPTIONAL")
    if not program_words and program_file is None and not optional:
        raise click.UsageError("Missing argument 'PROGRAM...'.")
    given = bool(program_words) or program_file is not None
    text = inputs.program_text(module, tuple(program_words), program_file, level_spec)
    level = inputs.load(level_spec, module.NAME)
    program = module.parse_program(text)
    outcome = module.run(level, program)
    name = inputs.level_name(level, level_spec)
    if as_json:
        click.echo(display.dumps(_run_json(module, name, program, outcome)))
    elif quiet:
        if not check:  # a check's answer is its exit status alone
            click.echo(str(outcome.verdict))
    else:
        _print_run(module, level, name, program, outcome, given or not optional, limit if trace else None)
    if check and not outcome.verdict.won:
        raise click.exceptions.Exit(display.EXIT_FAILED)


def _run_json(module: ModuleType, name: str, program: Any, outcome: Any) -> dict[str, Any]:
    """A run as `run --json` prints it: the level, the program, the verdict's fields and the game's own facts."""
    verdict = outcome.verdict
    data = {
        "game": module.NAME,
        "level": name,
        "program": str(program),
        "status": verdict.status,
        "won": verdict.won,
        "step": verdict.step,
        "remaining": verdict.remaining,
        "tokens": getattr(program, "tokens", None),
    }
    if getattr(verdict, "reason", None):
        data["reason"] = verdict.reason
    fields = games.optional(module, "run_fields")  # a game's own facts (Robo's Escape: score, coins, reason)
    data.update({} if fields is None else fields(outcome))
    return data


def _print_run(
    module: ModuleType, level: Any, name: str, program: Any, outcome: Any, show_program: bool, trace: int | None
) -> None:
    """A run for a person: the level, the program and its size, the trace (at most `trace` steps) and the verdict."""
    tokens = getattr(program, "tokens", None)
    size = f"  ({plural(tokens, games.optional(module, 'UNIT'), unit=True)})" if tokens is not None else ""
    click.echo(f"level    {name}")
    if show_program:
        click.echo(f"program  {program}{size}")
    if trace is not None:
        click.echo()
        parts = games.optional(module, "trace_parts")
        if parts is not None:  # printed as it is made: a long trace is never held whole
            for number, part in enumerate(parts(level, outcome, trace)):
                click.echo(f"\n{part}" if number else part)
        else:
            click.echo(module.format_trace(level, outcome, trace))
        click.echo()
    click.echo(f"verdict  {outcome.verdict}")
    fields = games.optional(module, "run_fields")
    for key, value in ({} if fields is None else fields(outcome)).items():
        if value is not None:
            click.echo(f"{key:<8} {value}")


def _check_pairs(source: str, game: str | None, as_json: bool, quiet: bool) -> None:
    """Run every pair of `source` and print one line (or JSON object) a pair as it is checked; a pair that cannot
    be read or run is reported on stderr with its line number and the rest still checked. Exit status: 2 if some
    pair was bad input, else 1 if some program did not complete its level, else 0."""
    failed = bad = False
    for number, pair in inputs.read_pairs(source):
        where = f"{inputs.source_name(source)}:{number}"
        try:
            if isinstance(pair, GridbotError):
                raise pair
            level_spec, program_text, pair_game = pair
            spec_game, _ = levels.split_spec(level_spec)
            pair_game = pair_game or spec_game or game
            if pair_game is None:
                raise GridbotError(f"name the game of level {level_spec!r}: GAME:NAME, or GAME before --pairs")
            module = games.get(pair_game)
            level = inputs.load(level_spec, module.NAME)
            program = module.parse_program(program_text)
            outcome = module.run(level, program)
        except GridbotError as exc:
            bad = True
            display.report_error("pair", f"{where}: {display.one_line(str(exc))}", as_json, exc)
            continue
        won = outcome.verdict.won
        failed = failed or not won
        name = inputs.level_name(level, level_spec)
        if as_json:
            click.echo(display.dumps({**_run_json(module, name, program, outcome), "line": number}))
        elif not quiet:
            click.echo(f"{'ok' if won else 'FAIL':<5} {name}  {program}  {outcome.verdict}")
    if bad or failed:
        raise click.exceptions.Exit(display.EXIT_BAD_INPUT if bad else display.EXIT_FAILED)
