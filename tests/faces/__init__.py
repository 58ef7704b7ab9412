"""The faces: the command line and the playground (its API, and the page in a browser)."""
