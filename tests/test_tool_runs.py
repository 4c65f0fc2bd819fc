"""A tool that wears is chosen by the run it serves, as a player chooses it.

For ``n`` uses a tool costs its price once and its marginal again for each further one the run wears out:
``setup + marginal * ceil(n * uses / durability)`` (``rules.tool_run_price``). Three stones take the wooden pickaxe
at hand; a hundred and fifty make a stone pickaxe once the wooden one breaks; a thousand a diamond one. The cost
fixpoint prices each run count it keeps so (Python and compiled alike: ``test_cost_fixpoint``), the derivation
for the runs of the action it plans, and the planner for the uses the target still asks for.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taskverse.textenv.plans import plan_task
from taskverse.world.derivation import Derivation
from taskverse.world.rules import CostModel, tool_run_price, tools_for_run

TOOLS = ("pickaxe", "sword")


def _tools_made(names: list[str]) -> list[str]:
    """The pickaxes and swords a plan crafts, in its order (a name per craft)."""
    return [a[len("craft."):] for a in names if a.startswith("craft.") and a.endswith(TOOLS)]


@pytest.mark.parametrize(("action", "runs", "made"), [
    ("mine.stone", 3, {"wooden_pickaxe": 1}),  # a few blocks: the cheapest pickaxe
    ("mine.stone", 120, {"wooden_pickaxe": 1, "stone_pickaxe": 1}),  # three wooden ones wear out: one stone
    ("mine.stone", 1000, {"wooden_pickaxe": 1, "stone_pickaxe": 1, "iron_pickaxe": 1, "diamond_pickaxe": 1}),
    ("combat.witch", 1, {"wooden_sword": 1}),
    ("combat.witch", 17, {"wooden_pickaxe": 1, "stone_sword": 1}),  # 119 uses: three wooden swords or one stone
])
def test_the_derivation_chooses_the_tool_by_the_run(rules, action, runs, made):
    overworld = {rules.index[("dimension", "overworld")]: 1}
    plan = Derivation.of_steps(rules, CostModel.for_rules(rules), overworld)
    steps = plan.plan_action(rules.action_index[action], runs)
    crafted: dict[str, int] = {}
    for a, n in steps:
        for tool in _tools_made([rules.actions[a]]):
            crafted[tool] = crafted.get(tool, 0) + n
    assert crafted == made


@pytest.mark.parametrize(("goal", "made"), [
    ("naive(amount(3, mine.stone))", ["wooden_pickaxe"]),
    # the wooden pickaxe breaks after 59: the stone one, of the cobblestone and table at hand, lasts the rest
    ("naive(amount(150, mine.stone))", ["wooden_pickaxe", "stone_pickaxe"]),
    ("naive(amount(300, mine.stone))", ["wooden_pickaxe", "stone_pickaxe", "stone_pickaxe"]),
])
def test_the_planner_chooses_the_tool_by_the_uses_left(library, goal, made):
    assert _tools_made(plan_task(goal, library).actions) == made


def test_the_fixpoint_prices_many_kills_with_the_tool_for_that_many(rules):
    # 81 witch kills wear 567 of a sword: ten wooden swords, five stone ones or one diamond one. The price the
    # fixpoint keeps for 81 kills is the least of these runs', not 81 times one kill's wear of a wooden sword.
    costs = CostModel.for_rules(rules)
    a = rules.action_index["combat.witch"]
    way = 0  # with a sword (the other: in armour, bare-handed)
    sword = next(n for n in rules.ways[a][way] if n.wears)
    assert "stone_sword" in {rules.names[m] for m in sword.members}
    runs = 81.0
    tools = min(tool_run_price(costs.fronts[m], 1.0, wear, runs)[0]
                for m, wear in zip(sword.members, sword.wears, strict=True))
    others = max((costs.unit[m] for n in rules.ways[a][way] if not n.consume and not n.wears
                  for m in n.members[:1]), default=0.0)
    assert others < tools  # the sword is the dearest setup: the way's price for 81 runs is the sword run's
    kept = min(runs * m + s for m, s in costs.batch_prices[a][way])
    assert kept == pytest.approx(runs * (costs.steps[a] if costs.steps else 1.0) + tools)


def test_a_held_tool_counts_as_made():
    # a tool held at the start has the front (m, -m): the run's tools beyond it cost m each
    held = [(3.5, -3.5)]
    assert tool_run_price(held, 1.0, 1 / 59, 59)[0] == 0.0
    assert tool_run_price(held, 1.0, 1 / 59, 60)[0] == pytest.approx(3.5)
    # 300 stones wear out six wooden pickaxes: the one held and five more
    assert tool_run_price(held, 1.0, 1 / 59, 300)[0] == pytest.approx(17.5)


@settings(max_examples=200, deadline=None)
@given(marginal=st.floats(0.0, 100.0), setup=st.floats(-100.0, 100.0), durability=st.integers(1, 2000),
       uses=st.integers(1, 4), n=st.integers(1, 5000), more=st.integers(0, 5000))
def test_a_run_costs_whole_tools_and_never_less_for_more_uses(marginal, setup, durability, uses, n, more):
    setup = max(setup, -marginal)  # a front's setup is never below minus its marginal (a held tool's)
    wear = uses / durability
    total, per_run, rest = tool_run_price([(marginal, setup)], 1.0, wear, n)
    assert total == pytest.approx(setup + marginal * max(1, math.ceil(n * uses / durability)))
    assert n * per_run + rest == pytest.approx(total, abs=1e-6)  # the price it comes as is the run's total
    assert tool_run_price([(marginal, setup)], 1.0, wear, n + more)[0] >= total - 1e-9
    assert tools_for_run(n, wear) >= n * wear - 1e-9


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_the_least_run_over_a_needs_tools_never_falls_with_more_uses(rules, data):
    # each tool's run total is non-decreasing in the uses, so the least over the tools is too
    costs = CostModel.for_rules(rules)
    needs = [n for ways in rules.ways for way in ways for n in way if n.wears and not n.consume]
    need = data.draw(st.sampled_from(needs))
    n = data.draw(st.integers(1, 3000))
    more = data.draw(st.integers(1, 3000))

    def least(runs: int) -> float:
        return min(tool_run_price(costs.fronts[m], 1.0, wear, runs)[0]
                   for m, wear in zip(need.members, need.wears, strict=True))

    assert least(n + more) >= least(n) - 1e-9
