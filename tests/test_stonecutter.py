"""The stonecutter (``stonecutting.yaml``): the game's recipes with their counts, with one meaning for the world's
rules, the fast and the batched stepping, the planner and the engine compile step."""

import pytest

from stepping_support import assert_fast_path_agrees, one_step_single_and_batched
from taskverse.algebra.expr import AtomRef
from taskverse.algebra.semantics import Evaluator
from taskverse.algebra.tracker import Context, GoalTracker
from taskverse.engine.compiler import CompileError, Compiler, compile_task
from taskverse.textenv.kernel import BACKENDS
from taskverse.world.graph import ways_of
from taskverse.world.search import Planner, holdings


def test_the_table_holds_the_games_recipes_with_their_counts(library):
    ways = library.knowledge.mechanisms.stonecutting.ways()
    assert sum(len(w) for w in ways.values()) == 201  # every stonecutting recipe of the 1.20 recipe data
    assert sorted(ways["stone_brick_stairs"]) == [("stone", 1), ("stone_bricks", 1)]
    assert sorted(ways["stone_brick_slab"]) == [("stone", 2), ("stone_bricks", 2)]
    assert ways["cut_copper"] == [("copper_block", 4)] and ways["cut_copper_slab"] == [("copper_block", 8),
                                                                                      ("cut_copper", 2)]
    assert ("stone", 1) in ways["chiseled_stone_bricks"] and "cobblestone" not in dict(ways["stone_bricks"])


def test_each_result_is_an_atom_with_a_way_per_item_and_the_craft_goal(library):
    cut = library.get("stonecut.stone_brick_slab")
    assert cut.category.value == "crafting" and (cut.goal.event.value, cut.goal.target) == ("craft",
                                                                                           "stone_brick_slab")
    for way in ways_of(cut):
        assert [(n.any_of, n.count, n.kept) for n in way if n.kept] == [(["stonecutter"], 1, True)]
        assert [n.count for n in way if not n.kept] == [1]
    assert len(library.knowledge.mechanisms.stonecutting.ways()) == \
        sum(1 for t in library.tasks if t.verb == "stonecut")


def test_a_cut_takes_one_item_keeps_the_station_and_gives_the_recipes_count(rules):
    state = rules.new_state({"stonecutter": 1, "stone_bricks": 2, "copper_block": 1})
    item = lambda name: state.counts[rules.index[("item", name)]]  # noqa: E731
    events = rules.act(state, rules.action_index["stonecut.stone_brick_slab"], events=True)
    assert (item("stone_bricks"), item("stone_brick_slab"), item("stonecutter")) == (1, 2, 1)
    assert events[0][:3] == ("craft", "stone_brick_slab", 2)  # counted as crafted, as the game's statistic
    rules.act(state, rules.action_index["stonecut.stone_brick_stairs"])
    rules.act(state, rules.action_index["stonecut.cut_copper_slab"])
    assert (item("stone_bricks"), item("stone_brick_stairs"), item("cut_copper_slab")) == (0, 1, 8)
    assert not state.mask[rules.action_index["stonecut.stone_brick_wall"]]  # nothing left to cut it from


def test_cuts_step_the_same_in_the_fast_path(rules):
    start = {"stonecutter": 1, "stone": 3, "stone_bricks": 2, "cobblestone": 2, "crafting_table": 1}
    plan = ["stonecut.stone_brick_slab", "stonecut.stone_brick_stairs", "stonecut.stone_bricks",
            "stonecut.chiseled_stone_bricks", "stonecut.cobblestone_slab", "craft.stone_brick_stairs"]
    assert_fast_path_agrees(rules, start, plan, candidates_only=True)


@pytest.mark.parametrize("backend", BACKENDS)
def test_cuts_step_the_same_batched(library, backend):
    rules, inventory = one_step_single_and_batched(library, backend, "stonecut.stone_brick_slab")
    assert inventory[0, rules.index[("item", "stone_brick_slab")]] == 2


@pytest.mark.parametrize(("start", "task", "plan"), [
    ({"stonecutter": 1, "stone_bricks": 1}, "craft.stone_brick_stairs", ["stonecut.stone_brick_stairs"]),
    ({"stonecutter": 1, "stone": 1, "crafting_table": 1}, "craft.chiseled_stone_bricks",
     ["stonecut.chiseled_stone_bricks"]),
    ({"stonecutter": 1, "crafting_table": 1, "stone": 4}, "craft.chiseled_stone_bricks",
     ["stonecut.chiseled_stone_bricks"]),
])
def test_the_planner_cuts_where_cutting_is_cheaper(library, rules, start, task, plan):
    # one stone brick is one stair at the stonecutter (6 make 4 at the table); one stone is one chiseled stone
    # brick (the table needs 4 stone made into bricks, 3 bricks into slabs and 2 slabs into one)
    state = rules.new_state(start, [("dimension", "overworld")])
    planner = Planner(rules, GoalTracker(AtomRef(task=task), Evaluator.for_library(library), Context()),
                      holdings(rules, state))
    found, proven = planner.best_plan()
    assert found is not None and [rules.actions[a] for a in found] == plan and proven


def test_the_engine_compile_step_says_a_game_without_cuts_cuts_nothing(library):
    with pytest.raises(CompileError, match="done at a stonecutter, which the engine runtime does not run") as info:
        compile_task(library.get("stonecut.stone_brick_stairs"), library, game="minetest_game")
    assert "\n" not in str(info.value)


def test_every_cut_compiles_for_the_generated_game_whose_stonecutter_cuts(library):
    cuts = [t for t in library.tasks if t.verb == "stonecut"]
    assert len(cuts) == 138
    compiler = Compiler(library, "taskverse_mc")
    assert {t.id: compiler.problems(t) for t in cuts if compiler.problems(t)} == {}


def test_a_masons_trade_keeps_its_stonecutter_as_a_job_site_and_still_compiles(library):
    trade = library.get("sell.clay_ball")
    assert all(any("stonecutter" in n.any_of and n.kept for n in way) for way in ways_of(trade))
    compile_task(trade, library, game="taskverse_mc")  # the refusal is for cuts only
