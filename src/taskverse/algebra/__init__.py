"""The task algebra.

molecule expressions over atoms, their parser, meaning (the event evaluator), goal tracking, files and random
generation.
"""
