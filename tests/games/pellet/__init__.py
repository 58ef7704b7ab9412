"""Pellet Eater: levels and moves, the solver against a brute force, its limits, the server and client, pictures."""
