"""The public API's types: tests/typing/usage.py, a script's use of it, checked by mypy --strict."""
