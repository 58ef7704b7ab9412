"""Relaxations of a RoboZZle board: conditions on one colour only (relaxations). Not part of `solve`: beams on
them find programs for other puzzles than the plain beam, but no more in all when they share its time or the
annealer's (docs/perf-log/). They serve benchmarks/robozzle_heuristics.py (`--kind beam-R`, ...), where a
heuristic of another kind is looked for."""

from __future__ import annotations

from dataclasses import replace

from gridbot.kernels import robozzle as kern
from gridbot.solve.robozzle.board import Board


def relaxed(board: Board, named: int) -> Board:
    """`board` for a narrower search (a heuristic's): conditions name only colours in `named` (condition bits).
    Every program that wins there wins on the board itself. O(1)."""
    off = kern.COLOUR_BITS & ~named
    return replace(board, present=board.present & kern.COLOUR_BITS | off << kern.CONDS_OFF)


def relaxations(board: Board) -> list[Board]:
    """The board with conditions on one colour only, one board per colour its conditions may name, when they may
    name two or more (else none): narrower searches, each of whose programs wins on `board` too. O(1)."""
    colours = board.condition_bits
    return [relaxed(board, bit) for bit in colours] if len(colours) > 1 else []
