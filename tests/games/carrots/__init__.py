"""Carrots: the simulator, the notation, the solver against a brute force, the kernels against references."""
