"""The proof of an endless run shared by the machines with a call stack (Light-Bot, RoboZZle, and the searches
that run them): the entry states of the calls under way, one per stack height.

A state met again at the entry of a call, at a stack height not below the one it was first met at, with the stack
never lower in between, means that everything between the two moments repeats for ever (what the state leaves
out cannot change where control goes: each game's `run` says why). An entry stops proving anything once the stack
goes below the height it was met at, so `at(height)` forgets those.

>>> e = Entries()
>>> e.at(1); e.record("b", 1)
>>> "b" in e
True
>>> e.at(0); "b" in e
False
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any


class Entries:
    """Entry states of the calls under way: key -> (stack height met at, a value the caller keeps with it)."""

    __slots__ = ("_at_height", "_seen")

    def __init__(self) -> None:
        self._seen: dict[Hashable, tuple[int, Any]] = {}
        self._at_height: list[Hashable | None] = [None]  # the key recorded at each stack height

    def at(self, height: int) -> None:
        """The stack is now `height` high: entries recorded above it no longer prove anything. O(levels dropped)."""
        at_height, seen = self._at_height, self._seen
        while len(at_height) > height + 1:
            old = at_height.pop()
            if old is not None and old in seen and seen[old][0] == len(at_height):
                del seen[old]
        while len(at_height) < height + 1:
            at_height.append(None)

    def first(self, key: Hashable) -> Any:
        """The value recorded with `key` when it was met, if it still stands (a repeat), else None."""
        found = self._seen.get(key)
        return None if found is None else found[1]

    def __contains__(self, key: Hashable) -> bool:
        return key in self._seen

    def record(self, key: Hashable, height: int, value: Any = None) -> None:
        """`key` met at the entry of a call at stack `height` (after `at(height)`), with `value` kept for `first`."""
        self._seen[key] = (height, height if value is None else value)
        self._at_height[height] = key

    def copy(self) -> Entries:
        other = Entries()
        other._seen, other._at_height = dict(self._seen), list(self._at_height)
        return other
