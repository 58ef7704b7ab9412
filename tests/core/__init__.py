"""The bottom layer and the shared ground: board helpers, reading input with caps, time limits, the memory budget."""
