"""Chance and ranged yields are planned for what they give with 95% probability (``taskverse.world.chance``)."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from taskverse.world.chance import CONFIDENCE, excess, schedule, sure_delivery, sure_rate, sure_total, tries_for

yields = st.tuples(st.sampled_from([1.0, 0.5, 0.1, 0.025, 0.3333, 0.95, 0.99]), st.integers(0, 3),
                   st.integers(0, 6)).map(lambda x: (x[0], x[1], x[1] + x[2])).filter(lambda x: x[2] >= 1)


def _binomial_quantile(p: float, t: int) -> int:
    """The largest k with P(Bin(t, p) >= k) >= 95%, straight from the binomial's terms."""
    below = 0.0
    for k in range(t + 1):
        below += math.exp(math.lgamma(t + 1) - math.lgamma(k + 1) - math.lgamma(t - k + 1)
                          + k * math.log(p) + (t - k) * math.log(1 - p))
        if below > 1 - CONFIDENCE + 1e-12:
            return k
    return t


@settings(max_examples=60, deadline=None)
@given(yields, st.integers(0, 600))
def test_a_sure_total_never_falls_and_stays_under_its_bound(y, t):
    assert sure_total(*y, t + 1) >= sure_total(*y, t) >= 0
    mean = schedule(*y)[1]
    assert sure_total(*y, t) <= mean * t + excess(*y) + 1e-9
    assert sure_delivery(*y, t + 1) == sure_total(*y, t + 1) - sure_total(*y, t)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([0.5, 0.1, 0.025, 0.3]), st.integers(1, 1000))
def test_a_chance_of_one_item_is_the_binomial_quantile_or_one_short_past_the_exact_part(p, t):
    exact = _binomial_quantile(p, t)
    assert sure_total(p, 1, 1, t) in ((exact,) if t < schedule(p, 1, 1)[0].size else (exact, exact - 1))


@settings(max_examples=40, deadline=None)
@given(yields, st.integers(1, 200))
def test_tries_for_is_the_fewest_tries_that_give_the_units(y, units):
    t = tries_for(*y, units)
    assert sure_total(*y, t) >= units
    assert sure_total(*y, t - 1) < units


def test_the_facts_a_player_plans_by():
    assert tries_for(0.1, 1, 1, 1) == 29  # flint from gravel: 1 - 0.9 ** 29 = 0.953
    assert tries_for(1.0, 0, 2, 1) == 3  # a dead bush's 0-2 sticks: P(no stick from 3 bushes) = 1/27
    assert tries_for(1.0, 0, 1, 1) == 5  # an evoker's 0-1 emerald: 1/32 that five give none
    assert sure_total(1.0, 4, 9, 1) == 4  # a lapis ore gives 4 to 9
    assert sure_rate(0.1, 1, 1) == 1 / 29
    # Far past the exact part the schedule still grows at the average rate.
    assert 0.99 * 6.5 * 100_000 < sure_total(1.0, 4, 9, 100_000) <= 6.5 * 100_000
