"""Unpruned enumeration of Robo's Escape programs, the reference for the solver's tests.

Every program string of up to n tokens is tried. A token is a run of `'` and
one further character; only the runs that can matter are enumerated: a command
`F L R G X .`, a call `n`, a label `'n` and `''n` (a call that is also the label
n). The other strings behave as one of these or are longer versions of them:
`'F` (and `'L`, ...) is skipped as a whole, so it is a one-token no-op; `''F` runs
as `F`; three quotes act as one (tests/games/robos_escape/test_solver.py checks these
facts on the simulator). Function names are numbered in order of first
appearance in the text: renaming changes nothing.

The interpreter here runs the raw string, independently of gridbot's code, and
stops a run that can never escape by a plain scan of its whole history: the same
(pc, position, facing, grid) at a stack height not below the earlier one, with
the stack never lower in between, repeats for ever - when the earlier height is
above 0, or both are 0 (at height 0 a `.` restarts instead of returning). Every escape it reports is
re-run by `gridbot.games.robos_escape.run` in the tests.
"""

from __future__ import annotations

from collections.abc import Iterator

from gridbot.games.robos_escape import Level

DELTAS = ((-1, 0), (0, 1), (1, 0), (0, -1))
COMMANDS = ("F", "L", "R", "G", "X", ".")


def programs(tokens: int) -> Iterator[str]:
    """Every program of exactly `tokens` tokens, names in order of first appearance. O(21^tokens)."""

    def extend(prefix: str, left: int, used: int) -> Iterator[str]:
        if left == 0:
            yield prefix
            return
        for command in COMMANDS:
            yield from extend(prefix + command, left - 1, used)
        for n in range(1, min(used + 1, 5) + 1):
            for word in (str(n), f"'{n}", f"''{n}"):
                yield from extend(prefix + word, left - 1, max(used, n))

    yield from extend("", tokens, 0)


def outcome(level: Level, text: str) -> tuple[bool, int]:
    """(escaped, coins picked up) of one program string. O(steps^2) with the history scan."""
    grid = [list(row) for row in level.rows]
    height, width = len(grid), len(grid[0])

    def cell(r: int, c: int) -> str:
        return grid[r][c] if 0 <= r < height and 0 <= c < width else "X"

    (r, c), facing, coins, changes = level.start, 2, 0, 0
    stack: list[int] = []
    history: list[tuple[tuple[int, int, int, int, int], int]] = []
    pc = 0
    while True:
        while pc < len(text) and text[pc] == "'":
            pc += 2
        if pc >= len(text) or len(history) == 10_000:
            return False, coins
        state = (pc, r, c, facing, changes)
        lowest = len(stack)
        for earlier, depth in reversed(history):
            lowest = min(lowest, depth)
            # a state first seen at height 0 repeats for ever only if it comes back at height 0: in between a
            # `.` may have restarted the string at height 0, which from a higher state would return instead
            if earlier == state and depth <= len(stack) and lowest >= depth and (depth > 0 or not stack):
                return False, coins
        history.append((state, len(stack)))
        op = text[pc]
        pc += 1
        dr, dc = DELTAS[facing]
        if op == "F":
            if cell(r + dr, c + dc) == "E":
                return True, coins
            if cell(r + dr, c + dc) in " CS":
                r, c = r + dr, c + dc
        elif op == "L":
            facing = (facing - 1) % 4
        elif op == "R":
            facing = (facing + 1) % 4
        elif op == "G":
            if grid[r][c] == "C":
                grid[r][c] = " "
                coins += 1
                changes += 1
        elif op == "X":
            rr, cc = r + dr, c + dc
            while cell(rr, cc) not in "XOC":
                rr, cc = rr + dr, cc + dc
            if cell(rr, cc) in "OC":
                grid[rr][cc] = " "
                changes += 1
        elif op == ".":
            pc = stack.pop() if stack else 0
        else:
            stack.append(pc)
            found = text.find("'" + op)
            if found >= 0:
                pc = found + 2


def best(level: Level, max_tokens: int) -> tuple[int, str] | None:
    """The highest score of an escape with at most `max_tokens` tokens and a program getting it, or None."""
    top: tuple[int, str] | None = None
    for tokens in range(1, max_tokens + 1):
        for text in programs(tokens):
            escaped, coins = outcome(level, text)
            if escaped and (top is None or 40 - tokens + 10 * coins > top[0]):
                top = (40 - tokens + 10 * coins, text)
    return top
