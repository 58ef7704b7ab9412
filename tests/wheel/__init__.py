"""The built wheel: smoke.py checks it installed in a fresh venv (.ci/run runs it; pytest does not)."""
