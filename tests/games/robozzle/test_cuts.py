"""The exact search's cuts 9 to 11 (gridbot.solve.robozzle.exact): programs too short for the length, functions
that could be written out at their one call, paints that change nothing; each against every program tried
(tests/games/robozzle/brute.py) and on the machine's registers."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gridbot.games import robozzle
from gridbot.games.robozzle import Level
from gridbot.kernels import robozzle as kern
from gridbot.kernels.robozzle.exact import _apply, _inlined, _option, _short
from gridbot.kernels.robozzle.machine import _undo
from gridbot.solve import robozzle as solve_robozzle
from gridbot.solve.robozzle import exact, solve

from . import brute as brute_robozzle


@st.composite
def helped(draw, paints: tuple[str, ...] = ("none", "R", "G B")) -> Level:
    """Small puzzles whose F1 often has room for a helper's body (so a helper called once could be written out in
    it), and sometimes not: F1 of two to four slots, two helpers of one to three, two or three colours, 1 to 3 stars."""
    h, w = draw(st.integers(1, 3)), draw(st.integers(2, 4))
    palette = draw(st.sampled_from(["rg", "rgb", "rrg"]))
    cells = [draw(st.sampled_from(palette + ".")) for _ in range(h * w)]
    start = draw(st.integers(0, h * w - 1))
    cells[start] = cells[start] if cells[start] != "." else palette[0]
    others = [k for k in range(h * w) if k != start]
    for k in draw(st.lists(st.sampled_from(others), min_size=1, max_size=3, unique=True)):
        cells[k] = (cells[k] if cells[k] != "." else palette[-1]).upper()
    board = "\n".join("".join(cells[r * w : (r + 1) * w]) for r in range(h))
    slots = [draw(st.integers(2, 4)), draw(st.integers(1, 3)), draw(st.integers(1, 2))]
    slots += [0] * (5 - len(slots))
    facing = draw(st.sampled_from(["north", "east", "south", "west"]))
    head = f"functions: {' '.join(map(str, slots))}\npaint: {draw(st.sampled_from(paints))}\n"
    return Level.parse(head + f"start: {start // w + 1} {start % w + 1} {facing}\n" + board)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(helped())
def test_the_fewest_slots_up_to_4_with_helpers_equal_every_program_tried(level: Level) -> None:
    """Too-short programs, inlinable helpers and paints that change nothing, cut or not decided, against no cuts at
    all: the same fewest slots, and a program that wins by the game's simulator."""
    agrees_with_every_program(level, 4)


def agrees_with_every_program(level: Level, max_length: int) -> None:
    """The exact search alone up to `max_length` slots finds the fewest slots every program tried finds, and its
    program wins by the game's simulator."""
    result = solve(level, max_length=max_length, beam=False, workers=1)
    reference = brute_robozzle.minimum(level, max_length)
    assert (result.length if result.status == "optimal" else None) == reference
    if reference is not None:
        assert robozzle.run(level, result.program).verdict.won


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(helped(paints=("R", "G", "R G B")))
def test_every_program_met_at_the_fewest_slots_wins_with_paints(level: Level) -> None:
    """With paints allowed, every program the search meets at the fewest slots (a paint whose set keeps a colour
    reads as that colour) wins by the game's simulator, and the fewest slots are every program's."""
    result = solve(level, max_length=4, beam=False, workers=1, all_solutions=True)
    reference = brute_robozzle.minimum(level, 4)
    assert (result.length if result.status == "optimal" else None) == reference
    for program in result.solutions if reference is not None else ():
        assert robozzle.run(level, program).verdict.won, program


def loaded(level: Level, text: str, length: int) -> exact._Search:
    search = exact._Search(solve_robozzle.Board.of(level), length, robozzle.STACK_CAP, least=length)
    search.load(robozzle.Program.parse(text))
    search.sc[kern.S_USED] = search.nd.sum()
    return search


def test_a_helper_called_once_unconditioned_with_room_at_its_call_is_inlinable() -> None:
    level = Level.parse("functions: 5 3 2 0 0\npaint: none\nstart: 1 1 east\nrrrR")
    s = loaded(level, "F1: F2 L F1 | F2: F F", 5)
    assert _inlined(s.board.slots, s.op, s.cs, s.nd)  # F1: F F L F1, one slot fewer
    for text in (
        "F1: F2 L F2 F1 | F2: F F",  # called twice
        "F1: gF2 L F1 | F2: F F",  # conditioned call
        "F1: F2 L F F1 | F2: F F F",  # no room in F1 for three more
        "F1: F2 L F1 | F2: F F2",  # recursive
    ):
        s = loaded(level, text, 6)
        assert not _inlined(s.board.slots, s.op, s.cs, s.nd), text
    s = loaded(level, "F1: F2 L F1 | F2: F F", 5)
    s.op[0, 1] = kern.UNKNOWN  # a command not decided could call F2 too
    assert not _inlined(s.board.slots, s.op, s.cs, s.nd)


def test_a_helper_with_no_room_at_its_one_call_is_kept() -> None:
    """Round a ring of eight tiles, F F R at each side: F1 has two slots, so F2's three are not written out in it."""
    for corner in ("R", "r"):
        level = Level.parse(f"functions: 2 3 0 0 0\npaint: none\nstart: 1 1 east\nrrR\nr.r\nRr{corner}")
        result = solve(level, beam=False, workers=1)
        assert (result.status, result.length) == ("optimal", 5)


def test_a_program_that_cannot_gain_the_slots_the_length_needs_is_short() -> None:
    level = Level.parse("functions: 4 2 0 0 0\npaint: none\nstart: 1 1 east\nrrrR")
    s = loaded(level, "F1: F F2 | F2: F", 5)  # three slots, every function ended: no more
    assert _short(s.sc, s.board.slots, s.nd, s.closed)
    s.closed[0] = 0  # F1 open: two more slots, five in all...
    assert not _short(s.sc, s.board.slots, s.nd, s.closed)
    s.sc[kern.S_LEAST] = 6  # ...but not six
    assert _short(s.sc, s.board.slots, s.nd, s.closed)


def test_a_paint_reached_on_its_own_colour_is_not_decided_and_counts_as_an_action_only_as_none() -> None:
    """`PR F F1` with the paint's set still "none" or green: on red it changes nothing either way, so the run goes
    past it, counting it; on blue the set splits, and only the part "none" adds the count to the actions. A count
    that takes the actions past the limit loses the run at once; the part on green walks on and wins."""
    level = Level.parse("functions: 3 0 0 0 0\npaint: R\nstart: 1 1 east\nrbB")
    green = 2 << robozzle.COLOURS.index("G")

    def at_blue(actions: int) -> tuple[exact._Search, int]:
        s = loaded(level, "F1: PR F F1", 3)
        s.cs[0, 0] = kern.NO_COND | green
        s.sc[kern.S_ACT] = actions
        stopped = kern._run(s.board.step, s.colour, s.star, s.op, s.cs, s.nd, s.closed, s.stack, s.trail, s.stamp,
                            s.records, s.path, s.dropped, s.sc)  # fmt: skip
        return s, stopped

    s, stopped = at_blue(0)
    assert stopped == kern._DECIDE and (s.sc[kern.S_F], s.sc[kern.S_PC]) == (0, 0)
    assert s.sc[kern.S_ACT] == 1 and s.cs[kern.NOOPS, 0] == 1  # the F only; the paint counted apart
    assert str(s.program()).startswith("F1: gPR")  # a set that keeps a colour reads as it
    mark = s.sc[kern.S_TTOP]
    _apply(_option(kern.K_RUN, kern.OP_PAINT, kern.NO_COND), s.sc, s.op, s.cs, s.nd, s.closed, s.trail)
    assert s.sc[kern.S_ACT] == 2 and s.cs[kern.NOOPS, 0] == 0
    _undo(s.trail, s.sc, mark, s.colour, s.star, s.op, s.cs, s.nd, s.closed, s.stack)
    assert (s.cs[0, 0], s.cs[kern.NOOPS, 0], s.sc[kern.S_ACT]) == (kern.NO_COND | green, 1, 2)  # registers: frames'

    def then(code: int, actions: int) -> int:
        s, _ = at_blue(actions)
        _apply(code, s.sc, s.op, s.cs, s.nd, s.closed, s.trail)
        return kern._run(s.board.step, s.colour, s.star, s.op, s.cs, s.nd, s.closed, s.stack, s.trail, s.stamp,
                         s.records, s.path, s.dropped, s.sc)  # fmt: skip

    # 998 actions before: the F is the 999th; "none" makes the paint the 1000th, so the last F is one too many
    assert then(_option(kern.K_RUN, kern.OP_PAINT, kern.NO_COND), 998) == kern._LOSE
    assert then(_option(kern.K_SKIP, kern.OP_PAINT, green), 998) == kern._WIN
