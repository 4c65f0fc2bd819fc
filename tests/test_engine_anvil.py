"""The generated game's anvil, played in the engine.

It does what the text world's anvil atoms do (``anvil.yaml``): an enchanted book combined with an iron sword gives the
enchanted sword, a name tag renamed gives the named name tag (each taken as crafted), an iron pickaxe repaired with an
iron ingot is the anvil used holding it, and two bows repair one, as two iron pickaxes combine into one (the curated
``use.combine_with_anvil``, whose work uses the second pickaxe up). Every work is the anvil used holding an item it
took: the one in hand (the curated ``use.repair_with_anvil``'s iron ingot, which the scripted player wields), else the
item worked on (the curated ``use.rename_with_anvil``'s iron sword). Wrong plans must fail: a combine without the item
the book goes on, a repair of an item the player does not hold.
"""

from __future__ import annotations

import pytest

from engine_support import assert_solved, need_engine, play_in_engine

GAME = "taskverse_mc"

PLAYED = ("combine.iron_sword", "rename.name_tag", "repair.iron_pickaxe", "repair.bow", "use.combine_with_anvil",
          "use.repair_with_anvil", "use.rename_with_anvil")

#: Plans written here that must not complete their task, and why their step fails.
WRONG = {
    "combine.iron_sword": ([{"do": "anvil", "item": "minecraft:enchanted_diamond_sword", "node": "minecraft:anvil"}],
                           "no minecraft:diamond_sword in the inventory to combine"),
    "repair.iron_pickaxe": ([{"do": "anvil", "item": "minecraft:iron_axe", "node": "minecraft:anvil"}],
                            "no minecraft:iron_axe in the inventory to repair"),
}


@pytest.fixture(scope="module")
def played(library):
    need_engine(client=True)
    return play_in_engine(library, GAME, PLAYED,
                          [(f"wrong:{task_id}", library.get(task_id), steps) for task_id, (steps, _) in WRONG.items()])


def _events(report, event):
    return [(e["game_event"]["target"], e["game_event"].get("held"), e["game_event"]["count"]) for e in report.events
            if e["game_event"]["event"] == event]


@pytest.mark.parametrize("task_id", PLAYED)
def test_the_scripted_player_completes_it_and_the_replay_agrees(played, task_id):
    assert_solved(played[task_id])


@pytest.mark.parametrize(("task_id", "made"), [("combine.iron_sword", "enchanted_iron_sword"),
                                                ("rename.name_tag", "named_name_tag")])
def test_a_rename_or_a_combine_is_the_games_craft_of_the_new_item(played, task_id, made):
    assert [(target, count) for target, _, count in _events(played[task_id], "craft")] == [(made, 1)]


@pytest.mark.parametrize(("task_id", "item"), [("repair.iron_pickaxe", "iron_pickaxe"), ("repair.bow", "bow"),
                                                ("use.combine_with_anvil", "iron_pickaxe")])
def test_a_repair_is_the_anvil_used_holding_the_item(played, task_id, item):
    # the anvil placed beside the player is the anvil item's use (held the anvil); the repair, one use holding the item
    used = [e for e in _events(played[task_id], "use") if e[0] == "anvil"]
    assert used == [("anvil", "anvil", 1), ("anvil", item, 1)]


@pytest.mark.parametrize("task_id", sorted(WRONG))
def test_a_wrong_plan_does_not_complete_it(played, task_id):
    report = played[f"wrong:{task_id}"]
    assert report.error is None, report.engine_errors
    assert not report.success
    assert WRONG[task_id][1] in (report.plan_error or "")


@pytest.mark.parametrize(("task_id", "held"), [("use.repair_with_anvil", "iron_ingot"),
                                                ("use.rename_with_anvil", "iron_sword")])
def test_the_anvil_is_used_holding_the_item_its_work_took_from_the_hand_else_the_item_worked_on(played, task_id,
                                                                                                   held):
    used = [e for e in _events(played[task_id], "use") if e[0] == "anvil"]
    assert ("anvil", held, 1) in used
    assert all(h in ("anvil", held) for _, h, _ in used)  # the anvil placed (held the anvil), then its work
