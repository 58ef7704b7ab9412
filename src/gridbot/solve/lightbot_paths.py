"""Short Light-Bot programs built from pieces of the shortest winning walks (a heuristic, no proof).

>>> from gridbot.games import lightbot
>>> level = lightbot.Level.parse("00000\\n\\n>.*.*")
>>> str(from_paths(level, seconds=5))
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
from collections import Counter, deque

import numpy as np

from gridbot.games import lightbot
from gridbot.games.lightbot import LIMITS, Level, Program
from gridbot.kernels import lightbot_paths as kern
from gridbot.kernels.lightbot import board_arrays

MAX_LIGHTS = 6  # a call's passing light patterns are a 64-bit set
OPS = "FJLRX12"
PIECE = 8  # the longest procedure body tried


def winning_walks(level: Level, slack: int = 2, limit: int = 5000) -> list[str]:
    """Walks of single commands (F J L R X) that win, at most `slack` longer than the shortest; at most `limit`.

    Breadth-first over (tile, facing, lights on), then every walk that keeps
    within `slack` of the distances found. O(states x 5) plus the walks listed.
    """
    index = {tile: i for i, tile in enumerate(level.lights)}
    full = (1 << len(index)) - 1

    def step(state: tuple, op: str) -> tuple | None:
        tile, facing, lit = state
        if op in "FJ":
            to = level.move(tile, facing, op)
            return None if to == tile else (to, facing, lit)
        if op == "L":
            return tile, (facing - 1) % 4, lit
        if op == "R":
            return tile, (facing + 1) % 4, lit
        return (tile, facing, lit ^ (1 << index[tile])) if tile in index else None

    start = (level.start, int(level.facing), 0)
    dist = {start: 0}
    todo = deque([start])
    while todo:
        state = todo.popleft()
        for op in "FJLRX":
            nxt = step(state, op)
            if nxt is not None and nxt not in dist:
                dist[nxt] = dist[state] + 1
                todo.append(nxt)
    ends = [d for (_, _, lit), d in dist.items() if lit == full]
    if not ends:
        return []
    budget = min(ends) + slack
    walks: list[str] = []

    def extend(state: tuple, walk: str) -> None:
        if len(walks) >= limit:
            return
        if state[2] == full:
            walks.append(walk)
            return
        for op in "FJLRX":
            nxt = step(state, op)
            if nxt is not None and dist[nxt] <= len(walk) + 1 <= budget and len(walk) + 1 - dist[nxt] <= slack:
                extend(nxt, walk + op)

    extend(start, "")
    return walks


def candidates(walks: list[str]) -> tuple[list[str], list[str]]:
    """Bodies to try: every piece of up to PIECE commands (f1), and every piece met twice in one walk (f2)."""
    pieces: set[str] = set()
    repeated: set[str] = set()
    for walk in walks:
        counts: Counter[str] = Counter()
        for a in range(len(walk)):
            for b in range(a + 1, min(a + PIECE, len(walk)) + 1):
                counts[walk[a:b]] += 1
        pieces.update(counts)
        repeated.update(piece for piece, n in counts.items() if n >= 2)
    # longest first: long pieces compress most, so a good bound comes early and shortens every later search
    return sorted(pieces, key=lambda s: (-len(s), s)), sorted(repeated, key=lambda s: (-len(s), s)) + [""]


def from_paths(level: Level, seconds: float = 10.0, slack: int = 2) -> Program | None:
    """The shortest program found from pieces of winning walks within `seconds`, re-checked; None if none.

    Only for levels of at most MAX_LIGHTS lights (None otherwise). O(pairs x
    states x 7) for the pairs tried in time.
    """
    if not level.lights or len(level.lights) > MAX_LIGHTS:
        return None
    stop = time.monotonic() + seconds
    walks = winning_walks(level, slack)
    f1s, f2s = candidates(walks)
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
                    if program.tokens < best_length and lightbot.run(level, program).verdict.won:
                        best, best_length = program, program.tokens
            if time.monotonic() > stop:
                return best
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
