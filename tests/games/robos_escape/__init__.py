"""Robo's Escape: levels, programs and the simulator, the solver against a brute force, pictures."""
