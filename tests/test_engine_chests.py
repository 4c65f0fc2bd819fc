"""Chest kinds in taskverse_mc: a structure's chests of each kind its loot draws from.

A stronghold's stand-in holds its corridor chest (the marker, the main kind) and a library chest beside it; a
bastion's its other chest and, in one stand-in in four, a treasure chest (``structure_loot.yaml``'s ``chest`` and
``share``). Each draws its own table.
"""

from __future__ import annotations

import pytest

from taskverse.engine.gamegen.content import structure_node, structures
from taskverse.engine.model import game_model
from taskverse.engine.profile import load_registry

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
    assert model.chest_kinds == {LIBRARY_CHEST: "library", structure_node("stronghold", True, "library"): "library",
                                 TREASURE_CHEST: "treasure",
                                 structure_node("bastion_remnant", True, "treasure"): "treasure"}
    assert model.structures[LIBRARY_CHEST] == "stronghold"
