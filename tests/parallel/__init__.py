"""Worker processes, executors (local and Dask), checkpoints, and signals to a solve with workers."""
