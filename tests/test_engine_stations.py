"""The generated game's stonecutter and wandering trader, played in the engine.

Both come from the knowledge the text world uses: a cut of ``stonecutting.yaml`` at the stonecutter the start gives,
and a wandering trader's rare offer (``trades.yaml``: a trader draws 1 of the 6 rare offers, so 1 in 6 sells podzol),
traded trader after trader until one sells it. Wrong plans must fail: a cut of an item whose input the player does
not hold, a trade for an item none of a trader's pools holds.
"""

from __future__ import annotations

import pytest

from engine_support import assert_solved, need_engine, play_in_engine

GAME = "taskverse_mc"

PLAYED = ("stonecut.andesite_slab", "trade.podzol")

#: Plans written here that must not complete their task, and why their step fails.
WRONG = {
    "stonecut.andesite_slab": ([{"do": "cut", "item": "minecraft:granite_slab", "node": "minecraft:stonecutter"}],
                               "no item the stonecutter cuts into minecraft:granite_slab"),
    "trade.podzol": ([{"do": "trade", "entity": "minecraft:wandering_trader", "item": "minecraft:diamond",
                       "spawn": True, "tries": 4}], "does not offer minecraft:diamond"),
}


@pytest.fixture(scope="module")
def played(library):
    need_engine(client=True)
    return play_in_engine(library, GAME, PLAYED,
                          [(f"wrong:{task_id}", library.get(task_id), steps) for task_id, (steps, _) in WRONG.items()])


@pytest.mark.parametrize("task_id", PLAYED)
def test_the_scripted_player_completes_it_and_the_replay_agrees(played, task_id):
    report = played[task_id]
    assert_solved(report)


def test_the_cut_is_the_games_craft_of_its_count(played):
    made = [(e["game_event"]["target"], e["game_event"]["count"]) for e in played["stonecut.andesite_slab"].events
            if e["game_event"]["event"] == "craft"]
    assert made == [("andesite_slab", 2)]  # a slab is 2 of a full block (stonecutting.yaml)


def test_the_podzol_came_from_a_trader_that_offered_it(played):
    report = played["trade.podzol"]
    (step,) = report.steps[:1]
    assert step["do"] == "trade" and step["ok"]
    # the summoned trader and the spawned ones: fewer than the step's tries, and each lacking one was passed over
    assert step.get("spawned", 0) < 76
    obtained = [(e["game_event"]["target"], e["game_event"]["count"]) for e in report.events
                if e["game_event"]["event"] == "obtain"]
    assert obtained == [("podzol", 3)]


@pytest.mark.parametrize("task_id", sorted(WRONG))
def test_a_wrong_plan_does_not_complete_it(played, task_id):
    report = played[f"wrong:{task_id}"]
    assert report.error is None, report.engine_errors
    assert not report.success
    assert WRONG[task_id][1] in (report.plan_error or "")
