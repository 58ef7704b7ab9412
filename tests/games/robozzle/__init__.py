"""RoboZZle: levels, the notation and the simulator, the solver against a brute force, pictures."""
