"""How the code is built: the layers, the contract of a game, the kernels and their twins, the solvers' registry."""
