"""Permutation entropy of action sequences (MCU Appendix A; Bandt and Pompe, 2002).

Each window of ``D`` consecutive actions is mapped to its ordinal pattern: the rank of every entry, with equal
values ranked in order of occurrence (MCU footnote 5: (1,2,1) is (1,3,2) and (3,3,1) is (2,3,1)). The entropy of
the pattern distribution is divided by ``ln D!``, so it lies in [0, 1]: 0 for a fully predictable sequence (one
long run of ``forward``), near 1 for a random one.

``PatternSummary`` computes the same pattern counts for sequences given as concatenations and repetitions of
short pieces without writing them out: it keeps only the counts and the first and last ``D - 1`` actions, and
concatenation is exact (the windows that straddle a joint are counted from those ends).

Example:
    >>> ordinal_pattern((1, 2, 1))
    (1, 3, 2)
    >>> permutation_entropy([1, 2, 3, 4, 5])
    0.0

"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

DEFAULT_D = 3
"""The segment length MCU uses in its example (six ordinal patterns)."""


_PATTERNS: dict[tuple[float, ...], tuple[int, ...]] = {}
"""Patterns of windows already seen (action sequences repeat the same few windows)."""


def ordinal_pattern(window: Sequence[float]) -> tuple[int, ...]:
    """The 1-based rank of each entry of ``window``; equal values are ranked in order of occurrence.

    The rank of entry i is one plus the number of earlier entries not above it and of later entries below it.
    """
    key = tuple(window)
    found = _PATTERNS.get(key)
    if found is None:
        n = len(key)
        found = tuple(1 + sum(1 for j in range(i) if key[j] <= key[i])
                      + sum(1 for j in range(i + 1, n) if key[j] < key[i]) for i in range(n))
        if len(_PATTERNS) < 100_000:
            _PATTERNS[key] = found
    return found


SHORT = 64
"""Sequences up to this length are counted in plain Python (NumPy's set-up costs more than it saves)."""


def pattern_counts(sequence: Sequence[float], d: int = DEFAULT_D) -> Counter[tuple[int, ...]]:
    """How many windows of length ``d`` of ``sequence`` have each ordinal pattern."""
    _check_d(d)
    if len(sequence) <= SHORT:
        return Counter(ordinal_pattern(sequence[i:i + d]) for i in range(len(sequence) - d + 1))
    values = np.asarray(sequence, dtype=float)
    if values.ndim != 1:
        raise ValueError("an action sequence is one-dimensional")
    if len(values) < d:
        return Counter()
    windows = np.lib.stride_tricks.sliding_window_view(values, d)
    # argsort of a stable argsort gives 0-based ranks with ties in order of occurrence
    ranks = np.argsort(np.argsort(windows, axis=1, kind="stable"), axis=1, kind="stable") + 1
    codes = ranks @ (d ** np.arange(d - 1, -1, -1))
    found, counts = np.unique(codes, return_counts=True)
    patterns = {int(code): tuple(int(r) for r in row) for code, row in zip(codes, ranks, strict=True)}
    return Counter({patterns[int(code)]: int(n) for code, n in zip(found, counts, strict=True)})


def entropy_of_counts(counts: Counter[tuple[int, ...]] | dict[tuple[int, ...], int], d: int = DEFAULT_D) -> float:
    """Normalised Shannon entropy of ordinal-pattern counts (0 when there are no windows)."""
    _check_d(d)
    total = sum(counts.values())
    if total == 0 or d == 1:
        return 0.0
    entropy = -sum(n / total * math.log(n / total) for n in counts.values() if n)
    return min(1.0, max(0.0, entropy / math.log(math.factorial(d))))


def permutation_entropy(sequence: Sequence[float], d: int = DEFAULT_D) -> float:
    """Normalised permutation entropy PE_D of a sequence, in [0, 1] (MCU Appendix A).

    Args:
        sequence: Action numbers, one per frame.
        d: Segment length D (at least 1).

    Returns:
        The entropy of the ordinal-pattern distribution divided by ``ln D!``; 0 for a sequence shorter than D.

    Example:
        >>> round(permutation_entropy([4, 7, 9, 10, 6, 11, 3]), 4)
        0.5888

    """
    return entropy_of_counts(pattern_counts(sequence, d), d)


def _check_d(d: int) -> None:
    if d < 1:
        raise ValueError(f"segment length D must be at least 1, got {d}")


@dataclass(frozen=True)
class PatternSummary:
    """The ordinal-pattern counts of a sequence, with its length and first and last ``d - 1`` entries.

    Summaries concatenate exactly (``a + b`` summarises the joined sequences) and repeat in O(log n) steps, so
    long synthetic sequences (a 72,000-frame wait) cost no more than short ones.
    """

    d: int
    length: int
    counts: dict[tuple[int, ...], int] = field(default_factory=dict)
    head: tuple[int, ...] = ()
    tail: tuple[int, ...] = ()

    @classmethod
    def of(cls, sequence: Sequence[int], d: int = DEFAULT_D) -> PatternSummary:
        """Summarise a written-out sequence."""
        seq = tuple(sequence)
        keep = d - 1
        return cls(d, len(seq), dict(pattern_counts(seq, d)), seq[:keep], seq[max(0, len(seq) - keep):] if keep else ())

    @classmethod
    def empty(cls, d: int = DEFAULT_D) -> PatternSummary:
        """The summary of the empty sequence (the identity of ``+``)."""
        return cls(d, 0)

    def __add__(self, other: PatternSummary) -> PatternSummary:
        if self.d != other.d:
            raise ValueError("cannot join summaries of different segment lengths")
        if not self.length:
            return other
        if not other.length:
            return self
        keep = self.d - 1
        counts = dict(self.counts)
        for pattern, n in other.counts.items():
            counts[pattern] = counts.get(pattern, 0) + n
        joined = self.tail + other.head  # the windows that straddle the joint
        for i in range(len(joined) - self.d + 1):
            pattern = ordinal_pattern(joined[i:i + self.d])
            counts[pattern] = counts.get(pattern, 0) + 1
        head = self.head if len(self.head) >= keep else (self.head + other.head)[:keep]
        joined = self.tail + other.tail
        tail = other.tail if len(other.tail) >= keep else joined[max(0, len(joined) - keep):]
        return PatternSummary(self.d, self.length + other.length, counts, head, tail)

    def repeat(self, times: int) -> PatternSummary:
        """The summary of this sequence written ``times`` times in a row."""
        result = PatternSummary.empty(self.d)
        power = self
        while times > 0:
            if times & 1:
                result = result + power
            power = power + power
            times >>= 1
        return result

    def entropy(self) -> float:
        """The normalised permutation entropy of the summarised sequence."""
        return entropy_of_counts(self.counts, self.d)
