"""What every test shares: no per-example deadline for hypothesis.

A deadline measures speed, and speed belongs in benchmarks: on a busy machine (the suite on both cores) a
deadline fails a test whose result is right. Tests that check a time limit measure it themselves and carry
the `clock` mark, which `.ci/run` keeps off the parallel run.
"""

from hypothesis import settings

settings.register_profile("gridbot", deadline=None)
settings.load_profile("gridbot")
