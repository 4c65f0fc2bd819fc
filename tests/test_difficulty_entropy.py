import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taskverse.difficulty.entropy import PatternSummary, ordinal_pattern, pattern_counts, permutation_entropy

actions = st.lists(st.integers(min_value=1, max_value=19), max_size=120)


def reference_counts(seq, d):
    """Straight from MCU Appendix A: rank each window, ties in order of occurrence."""
    out = Counter()
    for i in range(len(seq) - d + 1):
        window = seq[i:i + d]
        order = sorted(range(d), key=lambda k: (window[k], k))
        ranks = [0] * d
        for rank, k in enumerate(order, start=1):
            ranks[k] = rank
        out[tuple(ranks)] += 1
    return out


def test_footnote_ties_rank_in_order_of_occurrence():
    assert ordinal_pattern((1, 2, 1)) == ordinal_pattern((1, 3, 2)) == (1, 3, 2)
    assert ordinal_pattern((3, 3, 1)) == ordinal_pattern((2, 3, 1)) == (2, 3, 1)
    assert ordinal_pattern((5, 5, 5)) == (1, 2, 3)


def test_monotone_and_constant_sequences_have_zero_entropy():
    assert permutation_entropy(list(range(50))) == 0.0
    assert permutation_entropy(list(range(50, 0, -1))) == 0.0
    assert permutation_entropy([7] * 500) == 0.0  # a long run of 'forward'
    assert permutation_entropy([1, 2]) == 0.0  # shorter than D: no windows


def test_hand_computed_values():
    # Bandt & Pompe (2002): x = (4, 7, 9, 10, 6, 11, 3) gives patterns 123, 123, 231, 213, 231
    p = np.array([2, 2, 1]) / 5
    expected = float(-(p * np.log(p)).sum() / math.log(6))
    assert permutation_entropy([4, 7, 9, 10, 6, 11, 3]) == pytest.approx(expected)
    assert expected == pytest.approx(0.5888, abs=1e-4)
    # all six patterns of D=3 once each: the maximum, 1
    sequence = [1, 2, 3, 1, 3, 2, 2, 1, 3, 3, 1, 2, 3, 2, 1]
    windows = [tuple(sequence[i:i + 3]) for i in range(0, 15, 3)]
    assert len({ordinal_pattern(w) for w in windows}) == 5
    six = [(1, 2, 3), (1, 3, 2), (2, 1, 3), (2, 3, 1), (3, 1, 2), (3, 2, 1)]
    counts = Counter({p: 1 for p in six})
    from taskverse.difficulty.entropy import entropy_of_counts

    assert entropy_of_counts(counts) == pytest.approx(1.0)
    # a period-2 alternation has two patterns, equally often: ln 2 / ln 6
    assert permutation_entropy([1, 2] * 20) == pytest.approx(math.log(2) / math.log(6))


@given(actions, st.integers(min_value=1, max_value=5))
def test_bounded_between_zero_and_one(sequence, d):
    value = permutation_entropy(sequence, d)
    assert 0.0 <= value <= 1.0


@given(actions, st.integers(min_value=2, max_value=4))
def test_counts_match_the_definition(sequence, d):
    assert pattern_counts(sequence, d) == reference_counts(sequence, d)
    long = sequence * 3  # past the plain-Python threshold: the NumPy path
    assert pattern_counts(long, d) == reference_counts(long, d)


@settings(max_examples=200)
@given(st.lists(actions, max_size=5), st.integers(min_value=0, max_value=6), st.integers(min_value=1, max_value=4))
def test_summaries_join_and_repeat_exactly(pieces, times, d):
    summary = PatternSummary.empty(d)
    for piece in pieces:
        summary = summary + PatternSummary.of(piece, d)
    written = [a for piece in pieces for a in piece]
    assert summary.counts == dict(reference_counts(written, d)) and summary.length == len(written)
    repeated = summary.repeat(times)
    assert repeated.counts == dict(reference_counts(written * times, d))
    assert repeated.entropy() == pytest.approx(permutation_entropy(written * times, d))


def test_bad_segment_length():
    with pytest.raises(ValueError):
        permutation_entropy([1, 2, 3], 0)
