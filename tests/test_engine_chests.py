"""Chest kinds in taskverse_mc: a structure's chests of each kind its loot draws from, told apart by the runtime.

A stronghold's stand-in holds its corridor chest (the marker, the main kind) and a library chest beside it; a
bastion's its other chest and, in one stand-in in four, a treasure chest (``structure_loot.yaml``'s ``chest`` and
``share``). Each draws its own table, the event of opening one names its kind, and a goal naming a kind counts that
kind alone. The engine tests play them with the scripted player, and wrong plans that open the other kind.
"""

from __future__ import annotations

from functools import partial

import pytest

from engine_support import assert_solved, need_engine, play_in_engine
from taskverse.engine.compiler import Compiler, compile_task
from taskverse.engine.gamegen.content import structure_node, structures
from taskverse.engine.harness import Plan
from taskverse.engine.model import game_model
from taskverse.engine.planner import plan_task
from taskverse.engine.profile import load_registry
from taskverse.schema import Goal, Metrics

GAME = "taskverse_mc"
LIBRARY_CHEST = structure_node("stronghold", chest="library")
TREASURE_CHEST = structure_node("bastion_remnant", chest="treasure")


@pytest.fixture(scope="module")
def kinds(library):
    return library.knowledge.mechanisms.structure_loot.kinds()


def test_every_kind_the_knowledge_names_is_a_chest_of_its_structure_s_stand_in(library, kinds):
    assert {(t.structure, t.chest) for t in kinds} >= {("stronghold", "library"), ("bastion_remnant", "treasure")}
    placed = {entry["name"]: entry for entry in structures(library.knowledge)}
    registry = load_registry(GAME)
    for table in kinds:
        entry = placed[table.structure]
        (chest,) = [c for c in entry["chests"] if c["kind"] == table.chest]
        assert chest["node"] == structure_node(table.structure, chest=table.chest)
        assert chest["share"] == table.share
        assert [p["total_weight"] for p in chest["pools"]] == [p.total_weight for p in table.pools]
        for node in (chest["node"], chest["looted"]):  # the engine registered both, the full one opens
            assert node in registry.items
        assert "on_rightclick" in registry.items[chest["node"]].callbacks
        # the kind's chest stands beside the marker, in the stand-in's schematic (the share's part of them)
        decorations = [d for d in registry.decorations if d.name.startswith(entry["node"])]
        assert any(chest["node"] in d.schematic_nodes for d in decorations)
        assert all(chest["node"] in d.schematic_nodes for d in decorations) == (table.share == 1.0)


def test_a_kind_s_chest_gives_its_own_table_and_the_marker_the_main_one(library):
    # 1.20: the library table always holds an eye armor trim, the corridor's one time in ten; the treasure table
    # always the netherite upgrade, the other chests' one time in ten
    model = game_model(GAME, library.knowledge)
    rules = model.rules

    def gives(node):
        action = rules.action_index[f"interact.{node}"]
        return {o.resource: o.at_least_one for o in rules.way_outputs[action][0]}

    eye, upgrade = model.item("minecraft:eye_armor_trim_smithing_template"), \
        model.item("minecraft:netherite_upgrade_smithing_template")
    assert gives(LIBRARY_CHEST) == {eye: 1.0}
    assert gives(structure_node("stronghold"))[eye] == pytest.approx(0.1)
    assert gives(TREASURE_CHEST)[upgrade] == 1.0
    assert gives(structure_node("bastion_remnant"))[upgrade] == pytest.approx(0.1)
    # a bastion's hoglin stables (one in four) hold a saddle in 12 of 100 chests (chests/bastion_hoglin_stable)
    stables = structure_node("bastion_remnant", chest="hoglin_stable")
    assert gives(stables)[model.item("minecraft:saddle")] == pytest.approx(0.12)
    assert model.chest_kinds == {LIBRARY_CHEST: "library", structure_node("stronghold", True, "library"): "library",
                                 TREASURE_CHEST: "treasure",
                                 structure_node("bastion_remnant", True, "treasure"): "treasure",
                                 stables: "hoglin_stable",
                                 structure_node("bastion_remnant", True, "hoglin_stable"): "hoglin_stable"}
    assert model.structures[LIBRARY_CHEST] == "stronghold"


def test_a_goal_naming_a_kind_watches_its_chests_and_the_event_names_the_kind(library, kinds):
    compiler = Compiler(library, GAME)
    for table in kinds:
        assert not compiler.problems(library.by_id[table.atom_id]), table.atom_id
    ir = compile_task(library.get("loot.stronghold.library"), library, GAME)
    assert ir.goals["loot.stronghold.library"].chest == "library"
    assert ir.trackers.interact.chests == {LIBRARY_CHEST: "library",
                                           structure_node("stronghold", True, "library"): "library"}
    assert LIBRARY_CHEST in ir.trackers.interact.nodes and ir.names[LIBRARY_CHEST] == "stronghold"
    # a goal naming no kind counts any chest of the structure (Minecraft's loot.stronghold: a library's too)
    main = compile_task(library.get("loot.stronghold"), library, GAME)
    assert {structure_node("stronghold"), LIBRARY_CHEST} <= set(main.trackers.interact.nodes)
    assert main.trackers.interact.chests == ir.trackers.interact.chests
    # a kind the stand-in does not hold is refused, named; a game with no stand-ins refuses the structure
    vault = library.by_id["loot.stronghold.library"].model_copy(update={"metrics": Metrics(
        success=Goal(event="interact", target="stronghold", chest="vault"))})  # type: ignore[arg-type]
    (problem,) = compiler.problems(vault)
    assert problem.reason == "no chest of the kind in the structure's stand-in"
    assert "holds no vault chest" in problem.detail
    assert [p.reason for p in Compiler(library, "minetest_game").problems(library.by_id["loot.stronghold.library"])] \
        == ["structures are not generated"]


def test_the_scripted_player_goes_to_a_chest_of_the_kind_its_plan_names(library):
    for task_id, node in (("loot.stronghold.library", LIBRARY_CHEST), ("loot.bastion_remnant.treasure", TREASURE_CHEST),
                          ("loot.stronghold", structure_node("stronghold"))):
        task = library.get(task_id)
        plan = plan_task(task, compile_task(task, library, GAME), library)
        assert [s.node for s in plan.steps if s.do == "loot"] == [node], task_id


# --- the engine ---------------------------------------------------------------------------------------------

#: (task, the chest its plan opens instead, whether that completes it): the other kind opened does not count for a
#: goal naming a kind; any kind counts for a goal naming none.
SWAPPED = (("loot.stronghold.library", structure_node("stronghold"), False),
           ("loot.bastion_remnant.treasure", structure_node("bastion_remnant"), False),
           ("loot.stronghold", LIBRARY_CHEST, True))
KINDED = ("loot.stronghold.library", "loot.bastion_remnant.treasure")


def _swapped(plan: Plan, node: str) -> Plan:
    steps = [s.model_copy(update={"node": node}) if s.do == "loot" else s for s in plan.steps]
    return plan.model_copy(update={"steps": steps})


@pytest.fixture(scope="module")
def played(library):
    need_engine(client=True)
    swapped = [(f"swapped:{task_id}", library.get(task_id), partial(_swapped, node=node))
               for task_id, node, _ in SWAPPED]  # the scripted plans with the other chest opened
    return play_in_engine(library, GAME, KINDED, swapped)


def _opened(report) -> list[tuple[str, str | None]]:
    return [(e["game_event"]["target"], e["game_event"].get("chest")) for e in report.events
            if e["game_event"]["event"] == "interact"]


@pytest.mark.parametrize("task_id", KINDED)
def test_the_scripted_player_loots_a_chest_of_the_kind_and_the_replay_agrees(played, library, task_id):
    report = played[task_id]
    assert_solved(report)
    goal = library.get(task_id).goal
    assert _opened(report) == [(goal.target, goal.chest)]
    got = {e["game_event"]["target"] for e in report.events if e["game_event"]["event"] == "obtain"}
    always = {"loot.stronghold.library": "minecraft:eye_armor_trim_smithing_template",
              "loot.bastion_remnant.treasure": "minecraft:netherite_upgrade_smithing_template"}[task_id]
    assert always in got  # the kind's own table, which always holds it


@pytest.mark.parametrize(("task_id", "node", "counts"), SWAPPED)
def test_a_chest_of_another_kind_counts_only_for_a_goal_naming_none(played, library, task_id, node, counts):
    report = played[f"swapped:{task_id}"]
    assert report.error is None, report.engine_errors
    assert report.plan_completed, report.plan_error  # the chest was opened
    kind = game_model(GAME, library.knowledge).chest_kinds.get(node)
    assert _opened(report) == [(library.get(task_id).goal.target, kind)]
    assert report.success == counts  # the runtime's evaluator (eval.lua) judged it
    assert report.replay is not None and report.replay.agrees  # and the Python evaluator agrees
