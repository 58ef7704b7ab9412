"""The soak suite: every solver, through the command, on random and hostile levels under time and memory limits."""
