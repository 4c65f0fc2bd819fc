"""A kept tool that wears is paid per run: each run costs its share ``uses / durability`` of another tool.

The state wears a tool down (``wear:<tool>``) and breaks it at its durability; the prices must say so too, or
seventeen witch kills with one wooden sword cost the sword once, and a plan from scratch takes a compass's
redstone from witches where a player mines redstone ore with the iron pickaxe the compass's iron already asks for.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taskverse.textenv.plans import plan_task
from taskverse.world.rules import CostModel, _price, _priced_way


def _wearing(rules) -> list[tuple[int, int]]:
    """The (action, way) pairs with a kept need every member of which wears (leather horse armour does not)."""
    return [(a, w) for a, ways in enumerate(rules.ways) for w, way in enumerate(ways)
            if any(n.wears and all(n.wears) for n in way)]


def _least_wear(costs: CostModel, way) -> float:
    """A lower bound on what one run of a way wears: per wearing need, its least share of a tool's least marginal."""
    return sum(min(share * min((m for m, _ in costs.fronts[member]), default=0.0)
                   for member, share in zip(need.members, need.wears, strict=True))
               for need in way if need.wears)


def test_the_shares_are_the_uses_over_the_game_durability(rules):
    # a witch takes seven hits of a wooden sword (26 health, 4 damage): 7 of its 59 durability a kill
    a = rules.action_index["combat.witch"]
    sword = next(n for n in rules.ways[a][0] if n.wears)
    shares = dict(zip((rules.names[m] for m in sword.members), sword.wears, strict=True))
    assert shares["wooden_sword"] == 7 / 59 and shares["stone_sword"] == 7 / 131
    assert shares["iron_sword"] == 7 / 250 and shares["diamond_sword"] == 7 / 1561


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_every_run_of_a_way_pays_its_wear(rules, data):
    # n runs of a way cost at least n times what a run wears, whatever the count its needs were bought for
    costs = CostModel.for_rules(rules)
    a, w = data.draw(st.sampled_from(_wearing(rules)))
    wear = _least_wear(costs, rules.ways[a][w])
    assert wear > 0
    for marginal, _ in costs.batch_prices[a][w]:  # the prices it keeps, each for some count of runs
        assert marginal >= 1.0 + wear - 1e-9
    for marginal, _ in _price(_priced_way(rules.ways[a][w]), costs.fronts, 1.0, {}):  # bought for 1 to 81 runs
        assert marginal >= 1.0 + wear - 1e-9


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_a_tool_at_hand_adds_no_setup_but_still_its_wear(rules, data):
    costs = CostModel.for_rules(rules)
    a, w = data.draw(st.sampled_from(_wearing(rules)))
    way = rules.ways[a][w]
    held = _price(_priced_way(way, lambda need: True), costs.fronts, 1.0, {})
    whole = _price(_priced_way(way), costs.fronts, 1.0, {})
    for marginal, _ in held:
        assert marginal >= 1.0 + _least_wear(costs, way) - 1e-9
    assert held[0][0] == pytest.approx(whole[0][0])  # one run wears as much with or without the tool at hand
    if not any(n.consume for n in way):
        assert held[0][1] == 0.0  # and only a consumed need can bring a setup


def test_a_witch_kill_costs_the_sword_share_it_wears(rules):
    costs = CostModel.for_rules(rules)
    a = rules.action_index["combat.witch"]
    sword = rules.index[("item", "wooden_sword")]
    marginal, setup = costs.fronts[sword][0]
    # one kill makes the one sword (its whole price); the marginal is the long-run wear, 7/59 of another sword a
    # kill, and the setup the rest of the one sword (``rules.tool_run_price``)
    run_marginal, run_setup = costs.way_prices[a][0]
    assert run_marginal == pytest.approx(1.0 + 7 / 59 * marginal)
    assert run_marginal + run_setup == pytest.approx(1.0 + marginal + setup)


@pytest.mark.parametrize("goal", ["compass", "piston"])
def test_a_redstone_item_from_scratch_takes_its_redstone_from_ore(library, goal):
    # the compass's (the piston's) own iron needs the stone pickaxe, the furnace and the iron ore that an iron
    # pickaxe needs: three more ingots and a find of redstone ore give four dust a mine, where a witch gives one
    # in seventeen kills, a wooden sword and a half worn down
    actions = plan_task(f"naive(craft {goal})", library).actions
    assert "mine.redstone_ore" in actions or "mine.deepslate_redstone_ore" in actions
    assert not any(action.startswith("combat.") for action in actions)


def test_a_sword_breaking_a_block_wears_two_and_a_tool_one(library):
    # Minecraft Wiki, Item durability: a sword loses 2 breaking a block, 1 a hit on a mob; a pickaxe 1 a block
    by_id = {t.id: t for t in library.tasks}
    assert [n.uses for n in by_id["mine.cobweb"].requires[0] if n.kept and n.kind.value == "item"] == [2]
    assert [n.uses for n in by_id["use.iron_sword"].requires[0]] == [2]
    assert [n.uses for n in by_id["use.iron_pickaxe"].requires[0]] == [1]
    assert [n.uses for n in by_id["mine.iron_ore"].requires[0] if n.kept and n.kind.value == "item"] == [1]
