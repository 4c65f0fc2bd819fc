"""The six difficulty scores of MCU Section 3.

estimates and proxies, permutation entropy, ratings, trajectories and 5-quantile calibration.
"""
