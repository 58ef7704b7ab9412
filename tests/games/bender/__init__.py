"""Bender: the official tests, the rules, his journey as the solver, the command line, pictures."""
