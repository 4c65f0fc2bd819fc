"""Benchmarks.

the filter language, suite files and their builder, literature coverage, bias analysis and the task space.
"""
