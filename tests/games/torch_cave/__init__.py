"""The torch cave: levels, paths and the simulator, the solver against a plain breadth-first search, pictures."""
