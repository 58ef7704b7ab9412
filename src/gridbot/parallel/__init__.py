"""Where parallel work runs, with no knowledge of any game: executors (local processes, Dask), the worker
processes, shares of one search, and the checkpoint of finished work."""
