"""The generated game's villagers selling the enchanted items their drawn offers name, played in the engine.

``trades.yaml``'s drawn offers: a fletcher's enchanted bow, a fisherman's enchanted fishing rod. The game's villager
sells the game's enchanted item (the one its anvil makes, as the text world's ``enchanted_<item>``) for the offer's
price, so the scripted player buys it from the villager the start summons, beside its job site, instead of
combining a book with the item at an anvil. A wrong plan must fail: a trade with a villager whose job site makes it
a profession that does not sell the item.
"""

from __future__ import annotations

import pytest

from engine_support import assert_solved, need_engine, play_in_engine

GAME = "taskverse_mc"

PLAYED = ("trade.enchanted_bow", "trade.enchanted_fishing_rod")

#: A plan written here that must not complete its task, and why its step fails: the fletcher's job site placed for
#: the fishing rod, which a fisherman (a barrel) sells.
WRONG = ("trade.enchanted_fishing_rod", [
    {"do": "place", "item": "minecraft:fletching_table", "count": 1},
    {"do": "trade", "entity": "minecraft:villager", "item": "minecraft:enchanted_fishing_rod"}],
    "a villager of profession fletcher does not trade minecraft:enchanted_fishing_rod")


@pytest.fixture(scope="module")
def played(library):
    need_engine(client=True)
    task_id, steps, _ = WRONG
    # the fishing rod's start gives a barrel; the fletcher's table comes from the bow's start, given here too
    task = library.get(task_id)
    start = task.initialization
    task = task.model_copy(update={"initialization": start.model_copy(
        update={"inventory": {**start.inventory, "fletching_table": 1}})})
    return play_in_engine(library, GAME, PLAYED, [("wrong", task, steps)])


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
