"""`python -m gridbot.cli`: the `gridbot` command."""

from gridbot.cli import main

main()
