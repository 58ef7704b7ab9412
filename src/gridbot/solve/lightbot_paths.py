"""Short Light-Bot programs built from pieces of the shortest winning walks (a heuristic, no proof).

>>> from gridbot.games import lightbot
>>> level = lightbot.Level.parse("00000\\n\\n>.*.*")
>>> str(from_paths(level, seconds=120))  # the clock counts the first compile; the walks take ms
'main: 11 f1: FFX'

On a level of few lights the robot's states (tile, facing, lights on) are few,
so a breadth-first search finds the shortest walks of single commands that
win (31 commands on level 10). A short program must repeat pieces of such a
walk: every piece of up to 8 commands is tried as f1, every piece that occurs
twice in one walk as f2 (and f1 with that piece replaced by a call of f2), and
for each pair the shortest main is found exactly
(gridbot.kernels.lightbot_paths). The best program is re-run by the game's
simulator. It proves nothing: gridbot.solve.lightbot uses it only as an upper
bound that the exact search may then prove or beat.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable

import numpy as np

from gridbot.games import lightbot
from gridbot.games.lightbot import LIMITS, Level, Program
from gridbot.kernels import lightbot_paths as kern
from gridbot.kernels.lightbot import board_arrays
from gridbot.solve.memory import memory_budget

MAX_LIGHTS = 6  # a call's passing light patterns are a 64-bit set
OPS = "FJLRX12"
PIECE = 8  # the longest procedure body tried
MAX_WALK_COMMANDS = 200_000  # winning_walks lists no more commands than this in all (long walks on big boards)
# seconds per state that the distances and their lists take at most (a 100 x 100 board with 6 lights has 2.56
# million states): the kernel cannot look at the clock, so it is not begun without that much time left
SECONDS_PER_STATE = 1e-6


def _states_bytes(level: Level) -> int:
    """Bytes of the per-state arrays (distances, the breadth-first queue and parents) on this level. O(1)."""
    states = len(level.heights) * len(level.heights[0]) * 4 * (1 << len(level.lights))
    return 8 * 6 * (states + 1)


def winning_walks(
    level: Level,
    slack: int = 2,
    limit: int = 5000,
    deadline: float | None = None,
    tick: Callable[[], None] | None = None,
    seconds_per_state: float = SECONDS_PER_STATE,
) -> list[str]:
    """Walks of single commands (F J L R X) that win, at most `slack` longer than the shortest; at most `limit`.

    Breadth-first distances over (tile, facing, lights on) from the start and
    to the goal (compiled: kern.distances), then every walk that keeps within
    `slack` of the distances from the start, depth first. A branch is entered
    only if its distance to the goal lets it end within the budget, so every
    branch ends in a walk: O(states x 5 + walks listed x length x 5). Stops
    (with the walks so far) at `deadline` (time.monotonic()) or after
    MAX_WALK_COMMANDS commands listed in all, and lists none when the
    distances cannot end by `deadline` at `seconds_per_state`; `tick()` is
    called now and then (it may raise).
    """
    if not level.lights:
        return [""]
    mv, light, full, start, facing = board_arrays(level)
    patterns = full + 1
    states = mv.shape[0] * 4 * patterns
    if deadline is not None and time.monotonic() + states * seconds_per_state > deadline:
        return []
    dist_from = np.empty(states, np.int64)
    dist_to = np.empty(states, np.int64)
    queue = np.empty(states, np.int64)
    kern.distances(mv, light, full, start, facing, len(level.heights[0]), dist_from, dist_to, queue)
    s0 = (start * 4 + facing) * patterns
    if dist_to[s0] < 0:
        return []
    budget = int(dist_to[s0]) + slack
    moves = mv.tolist()
    lights = light.tolist()
    d_from = dist_from.tolist()
    d_to = dist_to.tolist()

    def step(s: int, op: int) -> int:
        lit = s % patterns
        pos, f = divmod(s // patterns, 4)
        if op <= 1:
            to = moves[pos][f][op]
            return -1 if to == pos else (to * 4 + f) * patterns + lit
        if op == 2:
            return (pos * 4 + (f + 3) % 4) * patterns + lit
        if op == 3:
            return (pos * 4 + (f + 1) % 4) * patterns + lit
        return -1 if lights[pos] < 0 else s ^ (1 << lights[pos])

    walks: list[str] = []
    listed = 0
    path: list[int] = []  # the ops of the walk under way
    todo = [(s0, 0, 0)]  # (state, length, first op still to try), depth first without recursion
    expanded = 0
    while todo and len(walks) < limit and listed < MAX_WALK_COMMANDS:
        s, n, op = todo.pop()
        del path[n:]
        if op == 0 and s % patterns == full:
            walks.append("".join("FJLRX"[o] for o in path))
            listed += n
            continue
        expanded += 1
        if expanded % 4096 == 0:
            if deadline is not None and time.monotonic() > deadline:
                break
            if tick is not None:
                tick()
        while op < 5:
            nxt = step(s, op)
            op += 1
            if nxt < 0 or not d_from[nxt] <= n + 1 <= budget or n + 1 - d_from[nxt] > slack:
                continue
            if 0 <= d_to[nxt] <= budget - n - 1:  # the goal is still in reach: this branch lists a walk
                todo.append((s, n, op))  # come back for the next op
                path.append(op - 1)
                todo.append((nxt, n + 1, 0))
                break
    return walks


def candidates(walks: list[str], deadline: float | None = None) -> tuple[list[str], list[str]]:
    """Bodies to try: every piece of up to PIECE commands (f1), and every piece met twice in one walk (f2).

    O(walks x length x PIECE); stops with the pieces so far at `deadline`."""
    pieces: set[str] = set()
    repeated: set[str] = set()
    for number, walk in enumerate(walks):
        if number % 64 == 63 and deadline is not None and time.monotonic() > deadline:
            break
        counts: Counter[str] = Counter()
        for a in range(len(walk)):
            for b in range(a + 1, min(a + PIECE, len(walk)) + 1):
                counts[walk[a:b]] += 1
        pieces.update(counts)
        repeated.update(piece for piece, n in counts.items() if n >= 2)
    # longest first: long pieces compress most, so a good bound comes early and shortens every later search
    return sorted(pieces, key=lambda s: (-len(s), s)), sorted(repeated, key=lambda s: (-len(s), s)) + [""]


def from_paths(
    level: Level,
    seconds: float = 10.0,
    slack: int = 2,
    tick: Callable[[], None] | None = None,
    max_bytes: int | None = None,
) -> Program | None:
    """The shortest program found from pieces of winning walks within `seconds`, re-checked; None if none.

    Only for levels of at most MAX_LIGHTS lights whose per-state arrays fit in
    `max_bytes` (default: the memory budget; None otherwise). Every phase
    looks at the clock; `tick()` is called between steps of work (it may
    raise, e.g. the solver's Timeout). O(states x 5 + pairs x states x 7) for
    the pairs tried in time.
    """
    if not level.lights or len(level.lights) > MAX_LIGHTS:
        return None
    if _states_bytes(level) > (memory_budget() if max_bytes is None else max_bytes):
        return None
    stop = time.monotonic() + seconds
    walks = winning_walks(level, slack, deadline=stop, tick=tick)
    f1s, f2s = candidates(walks, deadline=stop)
    mv, light, full, start, facing = board_arrays(level)
    cells = len(mv)
    states = cells * 4 * (full + 1)
    dist = np.zeros(states, np.int64)
    queue = np.zeros(states, np.int64)
    parent = np.zeros((states + 1, 2), np.int64)
    eff = np.zeros((cells * 4, 3, 5), np.int64)
    best: Program | None = None
    best_length = sum(LIMITS.values()) + 1
    for f2 in f2s:
        for piece in f1s:
            if time.monotonic() > stop:
                return best
            if tick is not None:
                tick()
            for f1 in {piece, piece.replace(f2, "2")} if f2 and f2 in piece else {piece}:
                room = min(LIMITS["main"], best_length - 1 - len(f1) - len(f2))
                if room < 1 or len(f1) > LIMITS["f1"] or len(f2) > LIMITS["f2"]:
                    continue
                body = np.zeros((3, PIECE + 1), np.int64)
                blen = np.array([0, len(f1), len(f2)], np.int64)
                for p, text in ((1, f1), (2, f2)):
                    for i, ch in enumerate(text):
                        body[p, i] = OPS.index(ch)
                length = kern.shortest_main(mv, light, full, start, facing, body, blen, room, eff, dist, parent, queue)
                if length > 0:
                    program = _trim(Program(_main(parent, length, full + 1), f1, f2))
                    if program.tokens < best_length and lightbot.run(level, program, tick).verdict.won:
                        best, best_length = program, program.tokens
    return best


def _trim(program: Program) -> Program:
    """The same run, written shorter: a procedure called once is written out at its call (when it fits)
    and one nothing calls is dropped (f2 renamed f1 when f1 goes)."""
    main, f1, f2 = program.main, program.f1, program.f2
    if (main + f1).count("2") == 1 and "2" not in f2:
        main, f1 = main.replace("2", f2), f1.replace("2", f2)
        if len(main) <= LIMITS["main"] and len(f1) <= LIMITS["f1"]:
            f2 = ""
        else:
            main, f1 = program.main, program.f1
    if (main + f2).count("1") == 1 and "1" not in f1:
        inlined = main.replace("1", f1), f2.replace("1", f1)
        if len(inlined[0]) <= LIMITS["main"] and len(inlined[1]) <= LIMITS["f2"]:
            main, f2, f1 = inlined[0], inlined[1], ""
    if "2" not in main + f1:
        f2 = ""
    if "1" not in main + f2:
        main, f1, f2 = main.replace("2", "1"), f2.replace("2", "1"), ""
    return Program(main, f1, f2)


def _main(parent: np.ndarray, length: int, patterns: int) -> str:
    """Main's commands, read back from the breadth-first search's parents (the last step in parent[-1])."""
    ops = [OPS[int(parent[-1, 1])]]
    state = int(parent[-1, 0])
    for _ in range(length - 1):
        ops.append(OPS[int(parent[state, 1])])
        state = int(parent[state, 0])
    return "".join(reversed(ops))
