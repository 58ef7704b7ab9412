"""The docs keep true: the pages' console examples, their links, and every module's docstring examples."""
