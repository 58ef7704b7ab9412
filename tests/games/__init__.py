"""Each game's tests, a folder a game (rules, solver, pictures, brute forces); test_parsers.py fuzzes every game."""
