"""The generated game's villagers selling the enchanted items their drawn offers name, played in the engine.

``trades.yaml``'s drawn offers: a fletcher's enchanted bow, a fisherman's enchanted fishing rod. The game's villager
sells the game's enchanted item (the one its anvil makes, as the text world's ``enchanted_<item>``) for the offer's
price, so the scripted player buys it from the villager the start summons, beside its job site, instead of
combining a book with the item at an anvil. A wrong plan must fail: a trade with a villager whose job site makes it
a profession that does not sell the item.

Villagers level as the text world's do (``trades.yaml``'s ``xp`` and ``levels``): the start's villager has the
experience the atom's start names (an expert fletcher for the bow), and a fresh one refuses an apprentice's trade
until trades have raised it, which the scripted player makes first.
"""

from __future__ import annotations

import pytest

from engine_support import assert_solved, need_engine, play_in_engine
from taskverse.engine.compiler import compile_task
from taskverse.engine.planner import plan_task

GAME = "taskverse_mc"

PLAYED = ("trade.enchanted_bow", "trade.enchanted_fishing_rod")

#: A plan written here that must not complete its task, and why its step fails: the fletcher's job site placed for
#: the fishing rod, which a fisherman (a barrel) sells.
WRONG = ("trade.enchanted_fishing_rod", [
    {"do": "place", "item": "minecraft:fletching_table", "count": 1},
    {"do": "trade", "entity": "minecraft:villager", "item": "minecraft:enchanted_fishing_rod"}],
    "a villager of profession fletcher does not trade minecraft:enchanted_fishing_rod")


#: An apprentice farmer's trade from a fresh farmer: the library's start without the villager's experience.
FRESH = "trade.apple"  # not a pumpkin pie: its egg is a chicken's, and the pie is crafted
REFUSED = "the villager's offer of minecraft:apple needs an apprentice farmer (10 experience), has 0"


def _fresh(library):
    task = library.get(FRESH)
    start = task.initialization
    assert start.inventory.get("xp:farmer") == 10  # the library's start: a farmer raised to apprentice
    return task.model_copy(update={"initialization": start.model_copy(
        update={"inventory": {"emerald": 16, "composter": 1}})})


@pytest.fixture(scope="module")
def played(library):
    need_engine(client=True)
    fresh = _fresh(library)
    task_id, steps, _ = WRONG
    # the fishing rod's start gives a barrel; the fletcher's table comes from the bow's start, given here too
    task = library.get(task_id)
    start = task.initialization
    task = task.model_copy(update={"initialization": start.model_copy(
        update={"inventory": {**start.inventory, "fletching_table": 1}})})
    at_once = [{"do": "place", "item": "minecraft:composter", "count": 1},
               {"do": "trade", "entity": "minecraft:villager", "item": "minecraft:apple"}]
    return play_in_engine(library, GAME, [*PLAYED, ("levelled", fresh)],
                          [("wrong", task, steps), ("unlevelled", fresh, at_once)])


@pytest.mark.parametrize("task_id", PLAYED)
def test_the_villager_sells_the_enchanted_item_and_the_replay_agrees(played, task_id):
    report = played[task_id]
    assert_solved(report)
    item = "minecraft:" + task_id.removeprefix("trade.")
    # bought, not made: the job site placed and the trade, and no anvil on the way
    assert [(s["do"], s["ok"]) for s in report.steps] == [("place", True), ("trade", True)]
    assert report.plan_error is None, item


def test_a_villager_of_another_profession_does_not_sell_it(played):
    report = played["wrong"]
    assert report.error is None, report.engine_errors
    assert not report.success
    assert WRONG[2] in (report.plan_error or "")


def test_a_fresh_villager_refuses_a_trade_above_its_level(played):
    report = played["unlevelled"]
    assert report.error is None, report.engine_errors
    assert not report.success
    assert REFUSED in (report.plan_error or "")
    assert [(s["do"], s["ok"]) for s in report.steps] == [("place", True), ("trade", False)]


def test_the_scripted_player_raises_a_fresh_villager_first(played, library):
    report = played["levelled"]
    assert_solved(report)
    fresh = _fresh(library)
    plan = plan_task(fresh, compile_task(fresh, library, GAME), library)
    trades = [plan.steps[s["index"] - 1].item for s in report.steps if s["do"] == "trade" and s["ok"]]
    assert len(trades) > 1 and trades[-1] == "minecraft:apple"
    # the trades before raise the farmer to 10 experience, as trades.yaml gives each (an emerald: a purchase;
    # the record numbers the plan's steps from 1)
    farmer = next(p for p in library.knowledge.mechanisms.trading.professions if p.profession == "farmer")
    xp = {"minecraft:" + o.item: o.xp for o in farmer.sells if o.level == "novice"}
    xp["minecraft:emerald"] = 2
    assert sum(xp[item] for item in trades[:-1]) >= 10
