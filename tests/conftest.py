"""What every test shares: no per-example deadline for hypothesis.

A deadline measures speed, and speed belongs in benchmarks: on a busy machine (the suite on both cores) a
deadline fails a test whose result is right. Tests that check a time limit measure it themselves and carry
the `clock` mark, which `.ci/run` keeps off the parallel run.
"""

from hypothesis import settings

settings.register_profile("gridbot", deadline=None)
settings.load_profile("gridbot")


def pytest_sessionstart(session: object) -> None:
    """Compile every game's kernels before the first test, as `gridbot warmup` does after installing: a first
    solve would otherwise wait for the compile no longer than its time limit (gridbot.solve.first_use), and a
    test's short limit would meet a compile instead of a search. Once compiled here, this only checks stamps."""
    from gridbot import solve as front
    from gridbot.solve import first_use

    for name, entry in front.SOLVERS.items():
        if entry.warms_up and not first_use.is_compiled(name):
            first_use.compile_here(name, entry.warm_up)
