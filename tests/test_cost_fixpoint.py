"""The cost fixpoint compiled (``world.settle``) gives the Python loop's prices to the last bit."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taskverse.world.jit import HAVE_NUMBA
from taskverse.world.rules import CostModel

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="numba (the [fast] extra) is not installed")


def _model(compiled: bool, build: object) -> CostModel:
    before = CostModel.compiled
    CostModel.compiled = compiled
    try:
        return build()  # type: ignore[operator]
    finally:
        CostModel.compiled = before


def _same(a: CostModel, b: CostModel) -> None:
    assert a.fronts == b.fronts
    assert a.way_prices == b.way_prices
    assert a.batch_prices == b.batch_prices
    assert a.unit == b.unit and a.action == b.action


@pytest.fixture(scope="module")
def overworld(rules):
    return rules.index[("dimension", "overworld")]


@pytest.mark.parametrize("weighted", [False, True])
def test_a_model_lowered_for_a_table_and_tools_is_the_same_compiled(rules, overworld, weighted):
    # what a crafting start holds: the prices of most of the library's crafts fall
    steps = [1.0 + 0.001 * (a % 97) for a in range(len(rules.actions))] if weighted else None
    base = CostModel.for_rules(rules, steps)
    held = [overworld, *(rules.index[("item", name)] for name in ("crafting_table", "furnace", "iron_pickaxe"))]
    _same(_model(False, lambda: CostModel.lowered(base, held)), _model(True, lambda: CostModel.lowered(base, held)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_a_model_lowered_for_any_holdings_is_the_same_compiled(rules, overworld, data):
    # kept items (tables, tools) and places lower most of the prices; a random resource mostly few
    kept = sorted(rules.kept_items)
    held = data.draw(st.lists(st.sampled_from(kept), max_size=4) | st.lists(
        st.integers(0, rules.n_resources - 1), max_size=6))
    base = CostModel.for_rules(rules)
    _same(_model(False, lambda: CostModel.lowered(base, [overworld, *held])),
          _model(True, lambda: CostModel.lowered(base, [overworld, *held])))
