"""Finished work recorded as it completes, so that an interrupted proof or corpus run resumes without redoing it.

The file is append-only JSON Lines, one record per finished piece of work,
flushed (and synced) as soon as it is written:

- a finished level: `{"key": {"kind": "level", "game", "level", "options"}, "result": {...}, "lower_bound": n}`
  (`result` is SolveResult.to_json());
- a finished share of one length of a proof: `{"key": {"kind": "share", "game", "level", "options", "length",
  "share", "of"}, "programs": [...], "nodes": n, "capped": bool, "counts": [...]}`.

`level` is `level_digest(game, level)`, a hash of the level's text, and
`options` what changes the answer (time limit, --all, ...). A record is
written only for work that ran to its end: a share stopped early, or a
level cut short by Ctrl-C, is simply not there and is redone. A line cut off
by a crash in the middle of a write is skipped when the file is read, and
the next record starts on a line of its own. When a key occurs twice, the
last record counts.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "run.jsonl")
>>> with Checkpoint(path) as done:
...     done.put({"kind": "share", "length": 5, "share": 3}, {"nodes": 120})
>>> Checkpoint(path).get({"share": 3, "kind": "share", "length": 5})
{'nodes': 120}
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
from pathlib import Path
from types import TracebackType
from typing import Any


def level_digest(game: str, level: Any) -> str:
    """A short hash of a level's text (its canonical `str`), naming it in a checkpoint. O(len(text))."""
    return hashlib.sha256(f"{game}\n{level}".encode()).hexdigest()[:20]


def _key_text(key: dict[str, Any]) -> str:
    return json.dumps(key, sort_keys=True, separators=(",", ":"))


class Checkpoint:
    """The records of a checkpoint file (read when opened) and the handle that appends new ones.

    `get(key)` answers from memory, O(1); `put(key, value)` appends one line
    and flushes it to the disk, and may be called from several threads (the
    done callbacks of an executor's futures).
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._done: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()
        ends_cleanly = True
        if self.path.exists():
            text = self.path.read_text(encoding="utf-8")
            ends_cleanly = not text or text.endswith("\n")
            for line in text.splitlines():
                try:
                    record = json.loads(line)
                    key = record.pop("key")
                except (ValueError, KeyError, AttributeError, TypeError):
                    continue  # a line cut off by a crash mid-write: that work is redone
                if isinstance(key, dict):
                    self._done[_key_text(key)] = record
        self._file = self.path.open("a", encoding="utf-8")
        if not ends_cleanly:
            self._file.write("\n")  # the next record must not be glued onto a cut-off line

    def __len__(self) -> int:
        return len(self._done)

    def get(self, key: dict[str, Any]) -> dict[str, Any] | None:
        """The record of `key` (without the key), or None when that work has not been recorded."""
        return self._done.get(_key_text(key))

    def put(self, key: dict[str, Any], value: dict[str, Any]) -> None:
        """Record finished work: one line, flushed and synced before this returns."""
        line = json.dumps({"key": key, **value}, default=str)
        with self._lock:
            if self._file.closed:  # a share came back after the run ended: it is searched again next time
                return
            record = json.loads(line)  # as a later run will read it back
            del record["key"]
            self._done[_key_text(key)] = record
            self._file.write(line + "\n")
            self._file.flush()
            with contextlib.suppress(OSError):
                os.fsync(self._file.fileno())

    def close(self) -> None:
        with self._lock:
            self._file.close()

    def __enter__(self) -> Checkpoint:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
