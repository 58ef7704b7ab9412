"""Light-Bot: the simulator, the solver against a brute force and the first solver, paths from walks, pictures."""
