"""The cost fixpoint's prices do not depend on the order it visits the actions (``CostModel._settle``).

A settle runs in rounds: every action of a round is priced from the fronts the round started with, and only then
are the new prices offered; a front keeps the cheapest price at each of a few amounts, ties broken by the price
itself, which is what the set of offered prices keeps in any order. A way offers its price for each of as many run
counts (its needs bought for that many runs), so a route with a high setup and a cheap marginal reaches the
consumers of many units. When a way's price replaced the old one as it came and a front was pruned as prices
arrived, a black banner's 81 cost 347 steps from the library's own order and 1,305 from a shuffled one. A front
takes a round's offers at once and changes only when its cost at an amount falls by more than ``TOLERANCE`` of
itself, so offers split between rounds reach the same front up to that tolerance.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taskverse.world.rules import _AMOUNTS, _RUNS, INF, TOLERANCE, CostModel, _offer, _price, _priced_way, _run_counts

AMOUNTS = (1.0, 2.0, 3.0, 9.0, 27.0, 81.0)


def _settled(rules, order: list[int]) -> CostModel:
    """A model from scratch (only the overworld held) settled from the actions in ``order`` (the Python loop)."""
    model = CostModel.__new__(CostModel)  # __init__ settles in index order; the order is what is under test
    model.rules, model.steps = rules, None
    model.fronts = [[] for _ in range(rules.n_resources)]
    model.fronts[rules.index[("dimension", "overworld")]] = [(0.0, 0.0)]
    model.way_prices = [[(INF, INF)] * len(ways) for ways in rules.ways]
    model.batch_prices = [[()] * len(ways) for ways in rules.ways]
    model._settle(model.fronts, model.way_prices, model.batch_prices, order)
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
    assert shuffled.way_prices == base.way_prices and shuffled.batch_prices == base.batch_prices


_PRICES = st.lists(st.tuples(st.sampled_from([0.5, 1.0, 2.0, 4.0, 9.0, INF]),
                             st.sampled_from([0.0, 1.0, 6.5, 22.5, 40.0])), max_size=12)


@settings(max_examples=200, deadline=None)
@given(prices=_PRICES, seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 12))
def test_a_front_keeps_what_the_set_of_offered_prices_keeps(prices, seed, cut):
    # offered at once, in any order: the same front, the least of the prices at each amount; in two offers, never
    # dearer at an amount after the second, and as cheap as at once up to the tolerance a front falls by to change
    at_once: list[tuple[float, float]] = []
    _offer(at_once, prices)
    shuffled = list(prices)
    random.Random(seed).shuffle(shuffled)
    reordered: list[tuple[float, float]] = []
    _offer(reordered, shuffled)
    assert reordered == at_once
    in_parts: list[tuple[float, float]] = []
    _offer(in_parts, shuffled[:cut])
    before = [min((a * m + s for m, s in in_parts), default=INF) for a in _RUNS]
    _offer(in_parts, shuffled[cut:])
    for a, old in zip(_RUNS, before, strict=True):
        least = min((a * m + s for m, s in prices), default=INF)
        assert min((a * m + s for m, s in at_once), default=INF) == least
        cost = min((a * m + s for m, s in in_parts), default=INF)
        assert cost <= old and (cost == least or least >= cost * (1 - TOLERANCE))


def test_the_settled_prices_are_a_fixpoint_at_every_run_count(rules):
    # pricing any way again from the settled fronts gives no price the way or a front would keep
    model = CostModel.for_rules(rules)
    for a, ways in enumerate(rules.ways):
        for w, way in enumerate(ways):
            prices = _price(_priced_way(way), model.fronts, 1.0, {})
            kept = list(model.batch_prices[a][w])
            assert not _offer(kept, prices, _run_counts(rules, rules.way_outputs[a][w])), rules.actions[a]
            assert model.way_prices[a][w] == prices[0]
            for out in rules.way_outputs[a][w]:
                per = out.units(rules.n_items)
                front = list(model.fronts[out.resource])
                assert not _offer(front, [(m / per, s) for m, s in prices]), (rules.actions[a], out.resource)
    # a front's cost at each amount is its producers' least kept price for it, up to the tolerance a front
    # falls by to change (held: free)
    for r, front in enumerate(model.fronts):
        if not front or front == [(0.0, 0.0)]:
            continue
        for amount in _AMOUNTS:
            kept = min(pm / o.units(rules.n_items) * amount + ps for p in rules.producers[r]
                       for v, outputs in enumerate(rules.way_outputs[p]) for o in outputs if o.resource == r
                       for pm, ps in model.batch_prices[p][v])
            cost = model.amount_cost(r, amount)
            assert kept <= cost * (1 + 1e-12) and cost <= kept * (1 + 2 * TOLERANCE), (rules.resources[r], amount)


def test_many_shears_take_the_route_whose_setup_pays_off(rules):
    # shears traded for two emeralds (a novice shepherd's): for one trade they are best had the way cheapest for
    # two (16 steps a pair); for 81 trades, mined with an iron pickaxe (3 steps a pair once the pickaxe is made), a
    # price only a way priced for many runs offers
    model = CostModel.for_rules(rules)
    banner = rules.index[("item", "shears")]
    trade = rules.action_index["trade.shears"]
    one_run = model.way_prices[trade][0]
    many_runs = min(model.batch_prices[trade][0])  # the least marginal
    assert many_runs[0] < one_run[0]
    assert model.amount_cost(banner, 81.0) == 81.0 * many_runs[0] + many_runs[1] < 81.0 * one_run[0] + one_run[1]
