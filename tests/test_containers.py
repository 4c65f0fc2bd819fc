"""Containers as the game has them (``containers.yaml``, ``buckets.yaml``): a filled bucket is the bucket, and what
is used up in a crafting grid, a furnace's fuel slot or a brewing stand leaves its container, as eating a stew
leaves its bowl. The same facts hold in the text world, its batched kernel and the generated game's data."""

from __future__ import annotations

import numpy as np
import pytest


def _after(rules, inventory, action, found=()):
    state = rules.new_state(inventory, found=list(found))
    rules.act(state, rules.action_index[action])
    return rules.inventory(state)


def test_a_milked_bucket_is_the_bucket_so_a_cake_takes_three_and_gives_them_back(rules):
    after = _after(rules, {"bucket": 1}, "use.milk_cow", [("entity", "cow")])
    assert after.get("milk_bucket") == 1 and "bucket" not in after  # one bucket, one milking
    state = rules.new_state({"milk_bucket": 1}, found=[("entity", "cow")])
    assert not state.mask[rules.action_index["use.milk_cow"]]  # no empty bucket left to milk with
    cake = _after(rules, {"milk_bucket": 3, "sugar": 2, "egg": 1, "wheat": 3, "crafting_table": 1}, "craft.cake")
    assert cake.get("cake") == 1 and cake.get("bucket") == 3 and "milk_bucket" not in cake


@pytest.mark.parametrize("action, inventory, back", [
    ("use.fill_water_bucket", {"bucket": 1}, {"water_bucket": 1}),
    ("use.fill_lava_bucket", {"bucket": 1}, {"lava_bucket": 1}),
    ("craft.honey_block", {"honey_bottle": 4}, {"honey_block": 1, "glass_bottle": 4}),
    ("eat.mushroom_stew", {"mushroom_stew": 1}, {"bowl": 1}),
    ("eat.rabbit_stew", {"rabbit_stew": 1}, {"bowl": 1}),
    ("eat.honey_bottle", {"honey_bottle": 1}, {"glass_bottle": 1}),
])
def test_containers_come_back_or_are_used_up_as_in_the_game(rules, action, inventory, back):
    found = {"use.fill_water_bucket": [("block", "water")], "use.fill_lava_bucket": [("block", "lava")]}
    assert _after(rules, inventory, action, found.get(action, ())) == back


def test_a_burnt_lava_bucket_leaves_its_bucket_and_its_heat(rules):
    after = _after(rules, {"lava_bucket": 1, "iron_ore": 1, "furnace": 1}, "smelt.iron_ingot")
    assert after == {"iron_ingot": 1, "bucket": 1, "furnace": 1}
    state = rules.new_state({"lava_bucket": 1, "iron_ore": 2, "furnace": 1})
    for _ in range(2):  # the second smelt burns the heat the bucket left (one bucket smelts 100 items)
        rules.act(state, rules.action_index["smelt.iron_ingot"])
    assert rules.inventory(state) == {"iron_ingot": 2, "bucket": 1, "furnace": 1}


def test_brewing_with_dragons_breath_leaves_the_bottle(library):
    from taskverse.world.graph import way_yields, ways_of

    for task_id, breath in [("brew.lingering_potion_of_swiftness", True), ("brew.splash_potion_of_swiftness", False)]:
        brew = library.get(task_id)
        for needs, given in zip(ways_of(brew), way_yields(brew), strict=True):
            assert any("dragon_breath" in n.any_of for n in needs) == breath
            assert ("glass_bottle" in {y.name for y in given}) == breath


@pytest.mark.parametrize("backend", ["numpy", "numba"])
def test_the_batched_kernel_gives_the_lava_bucket_back_as_the_rules_do(rules, backend):
    from taskverse.textenv.kernel import BACKENDS, Tables, kernel

    if backend not in BACKENDS:
        pytest.skip("numba not installed")
    tables = Tables.for_rules(rules)
    state = rules.new_state({"lava_bucket": 1, "raw_iron": 2, "furnace": 1})
    rows = [np.array([state.counts], np.int32), np.array([state.virtual], np.int32),
            np.array([state.way_missing], np.int16), np.array([state.ok_ways], np.int16),
            np.frombuffer(state.mask, dtype=np.int8).copy()[None], np.array([state.tries], np.int64),
            np.array([state.place], np.int32)]
    smelt = rules.action_index["smelt.iron_ingot"]
    for _ in range(2):
        rules.act(state, smelt)
        kernel(backend)(np.array([smelt]), np.ones(1, np.bool_), np.zeros(1, np.bool_),
                        np.zeros((1, tables.max_uncertain), np.int64), *rows, np.ones(1, np.uint8),
                        np.zeros(1, np.int64), np.zeros((1, tables.max_needs), np.int64),
                        np.zeros((1, tables.max_outputs), np.int64), *tables.arrays())
        assert np.array_equal(rows[0][0], np.array(state.counts, np.int32))
    assert rules.inventory(state) == {"iron_ingot": 2, "bucket": 1, "furnace": 1}


def test_the_generated_game_gives_the_same_containers_back(library):
    from taskverse.engine.gamegen.content import brewing, crafts, items

    kn = library.knowledge
    recipes = crafts(kn)
    cake = next(r for r in recipes if r.get("output") == "minecraft:cake")
    assert cake["replacements"] == [["minecraft:milk_bucket", "minecraft:bucket"]] * 3
    lava = next(r for r in recipes if r.get("type") == "fuel" and r["recipe"] == "minecraft:lava_bucket")
    assert lava["replacements"] == [["minecraft:lava_bucket", "minecraft:bucket"]]
    assert brewing(kn)["leaves"] == {"minecraft:dragon_breath": "minecraft:glass_bottle"}
    stew = next(i for i in items(kn) if i["name"] == "minecraft:mushroom_stew")
    assert stew["returns"] == "minecraft:bowl"
