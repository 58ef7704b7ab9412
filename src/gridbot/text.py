"""Numbers read from text that people type (level files, level names, command options, form fields), read the same
way everywhere.

>>> is_digits("12"), is_digits("²"), is_digits("")
(True, False, False)
"""

from __future__ import annotations


def is_digits(text: str) -> bool:
    """Is `text` one or more ASCII digits, so that `int(text)` reads it? `str.isdigit()` also accepts '²' and other
    Unicode digits, which `int()` refuses with a ValueError instead of the caller's own error. O(len(text))."""
    return text.isascii() and text.isdigit()
