"""The cost fixpoint's prices do not depend on the order it visits the actions (``CostModel._settle``).

A settle runs in rounds: every action of a round is priced from the fronts the round started with, and only then
are the new prices offered; a front keeps the cheapest price at each of a few amounts, ties broken by the price
itself, which is what the set of offered prices keeps in any order. When a way's price replaced the old one as it
came and a front was pruned as prices arrived, a black banner's 81 cost 347 steps from the library's own order and
1,305 from a shuffled one.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taskverse.world.rules import INF, CostModel

AMOUNTS = (1.0, 2.0, 3.0, 9.0, 27.0, 81.0)


def _settled(rules, order: list[int]) -> CostModel:
    """A model from scratch (only the overworld held) settled from the actions in ``order`` (the Python loop)."""
    model = CostModel.__new__(CostModel)  # __init__ settles in index order; the order is what is under test
    model.rules, model.steps = rules, None
    model.fronts = [[] for _ in range(rules.n_resources)]
    model.fronts[rules.index[("dimension", "overworld")]] = [(0.0, 0.0)]
    model.way_prices = [[(INF, INF)] * len(ways) for ways in rules.ways]
    model._settle(model.fronts, model.way_prices, order)
    return model


@settings(max_examples=5, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_the_settled_prices_do_not_depend_on_the_order_the_actions_are_visited(rules, seed):
    order = list(range(len(rules.actions)))
    base = _settled(rules, order)
    random.Random(seed).shuffle(order)
    shuffled = _settled(rules, order)
    for r in range(rules.n_resources):
        for amount in AMOUNTS:
            assert shuffled.amount_cost(r, amount) == base.amount_cost(r, amount), (rules.resources[r], amount)
    assert shuffled.way_prices == base.way_prices
