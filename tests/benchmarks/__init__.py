"""The benchmark scripts, as BENCHMARKS.md runs them: the rows their --csv writes."""
