"""Every game's parsers, fuzzed alike: any text is a level or a LevelError, a program or a ProgramError (nothing else
comes out), an error points inside the text, and what is read prints as text that reads back the same.

NOTATIONS says what each game's texts look like: the characters of its levels and of its programs, the words of its
programs, whole programs made at random, and texts of its own (headers, framed maps). Every test is parametrized over
gridbot.games.GAMES; a game added without its line here fails test_every_game_has_a_notation. The texts tried are
random text, text over the game's characters (with TRICKY ones mixed in), the game's words glued together, and
bundled levels and whole programs with a few characters inserted, deleted or replaced. A game's own parser tests
(its error messages, its canonical forms, its limits) are in games/<game>/.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridbot
from gridbot import games, levels
from gridbot.errors import LevelError, ProgramError
from gridbot.games import bender, lightbot, pellet, robos_escape, robozzle, torch_cave

from .bender.test_rules import maps
from .carrots.test_notation import programs as carrot_programs

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
EDITED = settings(FAST, max_examples=150)

# Characters whose upper case is longer (ligatures, sharp s, Kelvin), non-ASCII digits, a combining mark's base,
# exotic line breaks and spaces.
TRICKY = ["\ufb00", "\ufb02", "\u00df", "\u0130", "\u212a", "\u00b2", "\u0663", "\u2028", "\x85", "\u00a0", "\x0b",
          "\ufeff", "\t", "\r"]  # fmt: skip
NAME = "t.txt"  # the source a level error names


@dataclass(frozen=True)
class Notation:
    """What a game's texts look like, for the fuzzing."""

    level_chars: str  # the characters of its levels
    program_chars: str  # the characters of its programs, lower and upper case
    words: tuple[str, ...]  # pieces of programs, glued together at random
    programs: st.SearchStrategy  # whole programs (the game's program objects)
    canonical: str  # every character a program's canonical text (its str()) may hold
    levels: st.SearchStrategy = st.nothing()  # level texts of its own (headers, framed maps)
    line_after: bool = False  # a level error may name the line after the text (a part missing at its end)
    column_after: bool = False  # a program error may name the column after the text (the text ended too soon)


def _robozzle_program(functions: list[list[str]]) -> robozzle.Program:
    return robozzle.parse_program(" | ".join(f"F{n}: {' '.join(body)}" for n, body in enumerate(functions, 1)))


def _commands(alphabet: str, most: int) -> st.SearchStrategy:
    return st.text(alphabet=alphabet, max_size=most)


NOTATIONS = {
    "carrots": Notation(
        level_chars="FLRloop(){} 0123456789#SO \n\r\t",
        program_chars="FLRloop(){} 0123456789#SO \n\r\t",
        words=("F", "L", "R", "f", "LOOP", "loop", "LoOp", "(", ")", "{", "}", "0", "7", "12", " ", "\n", "x"),
        programs=carrot_programs,
        canonical="FLROP(){} 0123456789",
        column_after=True,  # "LOOP(" wants a count where the text ends
    ),
    "pellet": Notation(
        level_chars=".#S \n19x",
        program_chars="udlrUDLR \n\tx",
        words=("u", "d", "l", "r", "U", "U\u0308", " ", "\n", "x"),
        programs=_commands("udlr", 40).map(pellet.parse_program),
        canonical="udlr",
        levels=st.builds("{} {}\n{}".format, st.integers(0, 1200), st.integers(0, 1200), _commands(".#S \n19x", 80)),
        line_after=True,  # a header promising more rows than there are
    ),
    "torch_cave": Notation(
        level_chars="HTtx|-. \n\r\t",
        program_chars="udlrUDLR \n\tx",
        words=("u", "d", "l", "r", "D", " ", "\n", "x"),
        programs=_commands("udlr", 40).map(torch_cave.parse_program),
        canonical="udlr",
        levels=st.just("H" * 2000),  # a row past the format's width
    ),
    "bender": Notation(
        level_chars="@$#X NESWIBT0123456789\n\r\t",
        program_chars="SOUTHEASTNORTHWESTLOOP south \nx",
        words=("SOUTH", "east", "NORTH", "West", "LOOP", "x", " ", "\n"),
        programs=st.one_of(
            st.just(bender.Answer(loop=True)),
            st.lists(st.sampled_from(["SOUTH", "EAST", "NORTH", "WEST"]), max_size=12).map(tuple).map(bender.Answer),
        ),
        canonical="SOUTHEANRWLP ",
        levels=st.one_of(maps(), st.just("1000 1000\n@$"), st.just("9" * 5000 + " 1\n@$")),
        line_after=True,  # a header promising more lines than there are
    ),
    "lightbot": Notation(
        level_chars="0123456789.*<>^v; \n",
        program_chars="mainf12:FJLRXfjlrx ;\n",
        words=("main:", "main", "f1:", "f2:", "F", "J", "L", "R", "X", "1", "2", "x", " ", ";", "\n"),
        programs=st.builds(lightbot.Program, *[_commands(lightbot.COMMANDS, 6)] * 3),
        canonical="mainf12: FJLRX",
        line_after=True,  # heights without the blank line and the markers after them
    ),
    "robos_escape": Notation(
        level_chars="X COESC-.x\n",
        program_chars="FLRGX12345.' fq",
        words=("F", "L", "R", "G", "X", ".", "1", "5", "'", "'2", "f", " "),
        programs=st.lists(st.sampled_from(["F", "L", "R", "G", "X", ".", "1", "2", "'1", "''2"]), max_size=9)
        .map("".join)
        .map(robos_escape.parse_program),
        canonical="FLRGX12345.'",
    ),
    "robozzle": Notation(
        level_chars='rgbRGB.\n :funcstiapoe0123456789{}[]",',
        program_chars="FLRPrgbF12345: |",
        words=("F1:", "F2:", "f3:", "F", "L", "R", "F1", "F2", "rF", "gL", "bR", "PG", "rPB", "|", " ", "\n", "X"),
        programs=st.lists(
            st.lists(st.sampled_from(["F", "L", "R", "F1", "F2", "rF", "gL", "bR", "PG", "rPB"]), max_size=10),
            min_size=1,
            max_size=3,
        ).map(_robozzle_program),
        canonical="F12345: LRPGBrgb|",
    ),
}


@functools.cache
def bundled(game: str) -> tuple[str, ...]:
    """The text of the first few bundled levels of `game` (those of at most 3,000 characters)."""
    texts = (str(gridbot.load(f"{game}:{name}")) for name in levels.names(game)[:30])
    return tuple(text for text in texts if len(text) <= 3000)


def edited(texts: st.SearchStrategy, chars: str) -> st.SearchStrategy:
    """Texts from `texts` with up to three characters inserted, deleted or replaced (by one of `chars` or TRICKY)."""
    edit = st.tuples(st.integers(0, 10**6), st.sampled_from("+-="), st.sampled_from(list(chars) + TRICKY))

    def apply(text: str, edits: list[tuple[int, str, str]]) -> str:
        for where, kind, ch in edits:
            where %= len(text) + 1
            text = text[:where] + (ch if kind != "-" else "") + text[where + (kind != "+") :]
        return text

    return st.builds(apply, texts, st.lists(edit, max_size=3))


def texts_over(chars: str, words: tuple[str, ...] = ()) -> st.SearchStrategy:
    """Random text; text over `chars` (with TRICKY ones mixed in); `words` glued together."""
    return st.one_of(
        st.text(max_size=200),
        st.text(alphabet=chars, max_size=120),
        st.text(alphabet=st.sampled_from(list(chars) + TRICKY), max_size=60),
        st.lists(st.sampled_from(list(words) + TRICKY), max_size=30).map("".join) if words else st.nothing(),
    )


def level_texts(game: str) -> st.SearchStrategy:
    return texts_over(NOTATIONS[game].level_chars) | NOTATIONS[game].levels


def edited_levels(game: str) -> st.SearchStrategy:
    return edited(st.sampled_from(bundled(game)), NOTATIONS[game].level_chars)


def program_texts(game: str) -> st.SearchStrategy:
    return texts_over(NOTATIONS[game].program_chars, NOTATIONS[game].words)


def edited_programs(game: str) -> st.SearchStrategy:
    return edited(NOTATIONS[game].programs.map(str), NOTATIONS[game].program_chars)


def check_level(game: ModuleType, text: str) -> None:
    """`text` is a level or a LevelError that names a line and column of `text`; a level prints as text that reads
    back as the same level, and its rows (if it has them) are a rectangle."""
    try:
        level = game.Level.parse(text, name=NAME)
    except LevelError as error:  # any other exception fails the test
        lines = text.split("\n")
        last = len(lines) + NOTATIONS[game.NAME].line_after
        assert 1 <= error.line <= last, (error, len(lines))
        width = len(lines[error.line - 1]) if error.line <= len(lines) else 0
        assert 1 <= error.column <= width + 1, (error, width)
        assert str(error).startswith(f"{NAME}:{error.line}:{error.column}: ")
        return
    rows = getattr(level, "rows", None)
    if rows:
        assert len({len(row) for row in rows}) == 1
    assert game.Level.parse(str(level), name=NAME) == level


def check_program(game: ModuleType, text: str) -> None:
    """`text` is a program or a ProgramError that names a column of `text`; a program prints as its canonical text,
    which reads back as the same program."""
    try:
        program = game.parse_program(text)
    except ProgramError as error:  # any other exception fails the test
        last = len(text) + NOTATIONS[game.NAME].column_after
        assert 1 <= error.column <= last, (error, len(text))
        assert str(error).startswith(f"program:1:{error.column}: ")
        return
    check_prints_back(game, program)


def check_prints_back(game: ModuleType, program: object) -> None:
    canonical = str(program)
    assert set(canonical) <= set(NOTATIONS[game.NAME].canonical), canonical
    again = game.parse_program(canonical)
    assert again == program and str(again) == canonical


def test_every_game_has_a_notation() -> None:
    assert sorted(NOTATIONS) == sorted(games.GAMES)


@FAST
@pytest.mark.parametrize("name", games.GAMES)
@given(data=st.data())
def test_any_text_is_a_level_or_a_level_error(name: str, data: st.DataObject) -> None:
    check_level(games.get(name), data.draw(level_texts(name), label="text"))


@EDITED
@pytest.mark.parametrize("name", games.GAMES)
@given(data=st.data())
def test_a_bundled_level_with_a_few_characters_changed_is_a_level_or_a_level_error(
    name: str, data: st.DataObject
) -> None:
    check_level(games.get(name), data.draw(edited_levels(name), label="text"))


@FAST
@pytest.mark.parametrize("name", games.GAMES)
@given(data=st.data())
def test_any_text_is_a_program_or_a_program_error(name: str, data: st.DataObject) -> None:
    check_program(games.get(name), data.draw(program_texts(name), label="text"))


@EDITED
@pytest.mark.parametrize("name", games.GAMES)
@given(data=st.data())
def test_a_program_with_a_few_characters_changed_is_a_program_or_a_program_error(
    name: str, data: st.DataObject
) -> None:
    check_program(games.get(name), data.draw(edited_programs(name), label="text"))


@FAST
@pytest.mark.parametrize("name", games.GAMES)
@given(data=st.data())
def test_programs_print_as_text_that_reads_back(name: str, data: st.DataObject) -> None:
    check_prints_back(games.get(name), data.draw(NOTATIONS[name].programs, label="program"))


# Texts that once broke a parser, or that the random ones reach seldom.
KNOWN = [
    pytest.param("carrots", "program", "\ufb00LOOP", id="carrots-ligature"),  # upper case "FFLOOP": one longer
    pytest.param("carrots", "program", "LOOP(1\u00b22){F}", id="carrots-superscript"),  # a digit to str.isdigit()
    pytest.param("carrots", "program", "\ufb00LOOP(1){F}", id="carrots-ligature-loop"),
    pytest.param("torch_cave", "level", "H" * 2000, id="torch_cave-wide"),
    pytest.param("bender", "level", "1000 1000\n@$", id="bender-header-promises-more"),
    pytest.param("bender", "level", "9" * 5000 + " 1\n@$", id="bender-header-too-long"),
]


@pytest.mark.parametrize(("name", "kind", "text"), KNOWN)
def test_known_texts(name: str, kind: str, text: str) -> None:
    (check_level if kind == "level" else check_program)(games.get(name), text)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("bender", "@ $ "),
        ("bender", "3 4\n@ $"),
        ("torch_cave", "H..T "),
        ("carrots", "SO \nOO "),
        ("robos_escape", "S. \n.. "),
    ],
)
def test_a_blank_right_column_prints_back(name: str, text: str) -> None:
    game = games.get(name)
    level = game.Level.parse(text)
    assert game.Level.parse(str(level)) == level


def test_lightbot_names_the_line_of_a_bad_character_in_the_text() -> None:
    with pytest.raises(LevelError) as info:
        lightbot.Level.parse("00\n00\n\n>.\n.\t")
    assert (info.value.line, info.value.column) == (5, 2)


def test_a_pellet_board_read_with_a_header_equals_its_text_without_one() -> None:
    """`first_line` says where the rows were read from (for messages), not what the board is."""
    from gridbot.games import pellet

    headed = pellet.Level.parse("1 1\nS")
    assert headed.first_line == 2 and pellet.Level.parse(str(headed)) == headed
    assert hash(pellet.Level.parse(str(headed))) == hash(headed)
