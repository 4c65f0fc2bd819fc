"""Chance and ranged yields as a player plans for them: the amount delivered with 95% probability.

A yield that comes by chance (a 10% flint from gravel) or in a range (0 to 2 sticks from a dead bush, 4 to 9
lapis from an ore) is planned for what it gives with high probability, not for its average. After ``t`` tries
the *sure total* is the largest ``k`` with ``P(total >= k) >= CONFIDENCE``: gravel gives its first sure flint
on the 29th try (``1 - 0.9 ** 29 = 0.953``), not the 10th; a dead bush gives a sure stick only on the third bush;
one lapis ore gives a sure 4. The text world delivers a yield's units on the tries where its sure total grows,
so a plan made for the text world holds in the game 95 times in 100, and the planner, the cost model, the
graphs and the batched kernels all price a yield by the same schedule.

The totals are exact (the distribution of ``t`` tries, convolved one try at a time) until the average total
reaches ``EXACT_MEAN`` units and at least ``EXACT_TRIES`` tries; beyond that the Cornish-Fisher expansion of the
quantile with a continuity correction, ``floor(t * mean - z * sd * sqrt(t) + shift)`` where ``shift = 1/2 +
sd * (z**2 - 1) * skew / 6``, continues them (never below the last exact total). Against the exact totals up to
12,000 tries it is the same in about 99 tries of 100, and otherwise almost always one unit short (a plan is then
a little more careful than it needs to be).

Example:
    >>> sure_total(0.1, 1, 1, 28), sure_total(0.1, 1, 1, 29)
    (0, 1)
    >>> [sure_total(1.0, 0, 2, t) for t in (1, 2, 3)]
    [0, 0, 1]
    >>> sure_total(1.0, 4, 9, 1)
    4

"""

from __future__ import annotations

import math
from functools import cache
from statistics import NormalDist

import numpy as np

CONFIDENCE = 0.95
"""The probability with which a plan's chance yields come at least as planned."""
Z = NormalDist().inv_cdf(CONFIDENCE)
EXACT_TRIES = 64
EXACT_MEAN = 8.0
MAX_EXACT_TRIES = 200_000
"""A bound on the exact part (a yield of chance 1 in 100,000 is priced by the approximation past it)."""


@cache
def schedule(chance: float, low: int, high: int) -> tuple[np.ndarray, float, float, float]:
    """(exact sure totals for 0..T tries, one try's mean and standard deviation, the expansion's shift) of a yield.

    ``chance``: the chance a try gives any; ``low..high``: the count it then gives, uniform (``low`` may be 0).
    """
    one = np.zeros(high + 1)
    one[0] += 1.0 - chance
    one[low:high + 1] += chance / (high - low + 1)
    values = np.arange(high + 1, dtype=np.float64)
    mean = float((one * values).sum())
    sd = math.sqrt(max(0.0, float((one * (values - mean) ** 2).sum())))
    skew = float((one * (values - mean) ** 3).sum()) / sd ** 3 if sd > 0 else 0.0
    shift = 0.5 + sd * (Z * Z - 1) * skew / 6
    totals = [0]
    dist = np.ones(1)
    t = 0
    while (t < EXACT_TRIES or t * mean < EXACT_MEAN) and t < MAX_EXACT_TRIES and mean > 0:
        t += 1
        dist = np.convolve(dist, one)
        # Entries at or below an index depend only on entries at or below it, so cutting the top is exact for the
        # low quantile; keep well above where it can be after this try.
        keep = int(t * mean + 12 * sd * math.sqrt(t) + high + 2)
        if dist.size > keep:
            dist = dist[:keep]
        cdf = np.cumsum(dist)
        # P(total < k) = cdf[k - 1] <= 1 - CONFIDENCE: the sure total is how many leading entries stay at or below.
        totals.append(max(totals[-1], int(np.searchsorted(cdf, 1.0 - CONFIDENCE + 1e-12, side="right"))))
    return np.asarray(totals, dtype=np.int64), mean, sd, shift


def sure_total(chance: float, low: int, high: int, tries: int) -> int:
    """Units a yield gives with 95% probability in ``tries`` tries (see the module's rule)."""
    table, mean, sd, shift = schedule(chance, low, high)
    if tries < table.size:
        return int(table[tries])
    return max(int(table[-1]), math.floor(tries * mean - Z * sd * math.sqrt(tries) + shift))


def sure_delivery(chance: float, low: int, high: int, tries: int) -> int:
    """Units the ``tries``-th try of a yield delivers in the text world (where its sure total grows)."""
    totals = _totals(chance, low, high)  # a list: the environment's step reads it on every uncertain yield
    if tries < len(totals):
        return totals[tries] - totals[tries - 1]
    return sure_total(chance, low, high, tries) - sure_total(chance, low, high, tries - 1)


@cache
def _totals(chance: float, low: int, high: int) -> list[int]:
    """The exact sure totals as a list of ints (quicker to index one at a time than the array)."""
    return [int(t) for t in schedule(chance, low, high)[0]]


@cache
def tries_for(chance: float, low: int, high: int, units: int) -> int:
    """The fewest tries whose sure total reaches ``units`` (0 for none)."""
    if units <= 0:
        return 0
    table, mean, _, _ = schedule(chance, low, high)
    found = int(np.searchsorted(table, units, side="left"))
    if found < table.size:
        return found
    t = max(table.size, math.ceil(units / mean))
    while sure_total(chance, low, high, t) < units:
        t = max(t + 1, math.ceil(t * 1.01))
    lo = table.size
    while lo < t:  # the least such t
        mid = (lo + t) // 2
        if sure_total(chance, low, high, mid) >= units:
            t = mid
        else:
            lo = mid + 1
    return t


@cache
def excess(chance: float, low: int, high: int) -> float:
    """The least ``b >= 0`` with ``sure_total(t) <= mean * t + b`` for every ``t`` (a planner's linear bound).

    Past the exact part the approximation stays below ``mean * t``; the exact part is checked try by try.
    """
    table, mean, _, _ = schedule(chance, low, high)
    return max(0.0, float((table - mean * np.arange(table.size)).max()))


@cache
def sure_rate(chance: float, low: int, high: int) -> float:
    """Units per try a yield is priced at: its first sure units over the tries they take (flint: 1 in 29)."""
    first = tries_for(chance, low, high, 1)
    return sure_total(chance, low, high, first) / first if first else 0.0


__all__ = ["CONFIDENCE", "excess", "schedule", "sure_delivery", "sure_rate", "sure_total", "tries_for"]
