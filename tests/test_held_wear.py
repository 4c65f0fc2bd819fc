"""A tool held at the start wears as it is used, as a made one does.

The text world breaks a tool when its durability is spent (a wooden pickaxe after 59 blocks). The prices say so
too: a held tool is had (no setup), but each run still wears its share of another at the tool's marginal price
(``rules._held_tool``), so holding it saves at most its own price once. An estimated plan from holdings counts
each held copy's durability and obtains further copies for the uses beyond it (``world.derivation``).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import run_cli
from taskverse.world.derivation import Derivation
from taskverse.world.rules import CostModel


def _worn_tools(rules) -> list[int]:
    """The tools that wear and that something makes (a price to save)."""
    costs = CostModel.for_rules(rules)
    return sorted(t for t in rules.wear_of if costs.unit[t] < float("inf"))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_a_held_tool_saves_at_most_its_own_price(rules, data):
    # Holding one tool saves its price once, however much it is used: the uses past its durability take another.
    # Checked for a unit of what its users make (however many runs that takes): from scratch a kept need takes the
    # member cheapest for one run, so for 81 blaze rods it keeps wearing wooden swords where a held diamond sword
    # wears less a kill; a price for many runs is not a price the model offers from scratch.
    base = CostModel.for_rules(rules)
    tool = data.draw(st.sampled_from(_worn_tools(rules)))
    consumers = [a for a, ways in enumerate(rules.ways)
                 if any(n.wears and tool in n.members for way in ways for n in way)]
    a = data.draw(st.sampled_from(consumers))
    made = sorted({o.resource for o in rules.outputs[a] if base.unit[o.resource] < float("inf")})
    if not made:
        return
    r = data.draw(st.sampled_from(made))
    held = CostModel.lowered(base, [rules.index[("dimension", "overworld")], tool])
    saved = base.unit[r] - held.unit[r]
    assert saved <= base.unit[tool] * (1 + 1e-9) + 1e-9, (rules.names[tool], rules.names[r])


def test_a_held_pickaxe_still_wears_per_block(rules):
    base = CostModel.for_rules(rules)
    pickaxe = rules.index[("item", "wooden_pickaxe")]
    cobblestone = rules.index[("item", "cobblestone")]
    held = CostModel.lowered(base, [rules.index[("dimension", "overworld")], pickaxe])
    built = CostModel(rules, [rules.index[("dimension", "overworld")], pickaxe])
    marginal = base.fronts[pickaxe][0][0]
    assert held.fronts[pickaxe] == built.fronts[pickaxe] == [(marginal, -marginal)]  # one had, more at the marginal
    assert held.unit[pickaxe] == 0.0
    # 81 blocks wear 81/59 of another pickaxe: a block costs more than a step
    assert held.amount_cost(cobblestone, 81) > 81 * (1 + 1 / 59 * marginal) - 1e-9


@pytest.mark.parametrize(("blocks", "more"), [(59, 0), (60, 1), (118, 1), (119, 2)])
def test_an_estimated_plan_replaces_a_held_pickaxe_past_its_durability(rules, blocks, more):
    costs = CostModel.for_rules(rules)
    held = {rules.index[("dimension", "overworld")]: 1, rules.index[("item", "wooden_pickaxe")]: 1}
    steps = Derivation.of_steps(rules, costs, held).steps_for(rules.action_index["mine.stone"], blocks)
    assert steps is not None
    crafted = sum(runs for a, runs in steps if rules.actions[a].endswith("_pickaxe"))
    assert crafted == more


def _frames(expression: str) -> float:
    result = run_cli("difficulty", expression, "--raw", "--format", "json")
    assert result.returncode == 0, result.stderr
    return float(json.loads(result.stdout)["scores"]["time_consumption"]["raw"])


def test_the_sixtieth_block_from_a_held_pickaxe_costs_a_new_pickaxe():
    # mine.stone starts with a wooden pickaxe in hand: 59 blocks wear it out, the 60th needs another
    per_block = _frames("amount(2, mine.stone)") - _frames("mine.stone")
    sixtieth = _frames("amount(60, mine.stone)") - _frames("amount(59, mine.stone)")
    assert sixtieth > 5 * per_block


def test_a_plan_from_a_held_pickaxe_makes_another_past_its_durability():
    result = run_cli("plan", "init(naive(amount(70, obtain.cobblestone)), inventory.wooden_pickaxe=1)",
                     "--format", "json")
    assert result.returncode == 0, result.stderr
    actions = [a["id"] for a in json.loads(result.stdout)["actions"]]
    assert actions.count("mine.stone") == 70
    assert any(a.startswith("craft.") and a.endswith("_pickaxe") for a in actions)
