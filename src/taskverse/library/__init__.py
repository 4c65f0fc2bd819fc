"""The atom library: the task files, their generator from game knowledge, loading and validation, and graph drawings."""
