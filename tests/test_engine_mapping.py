"""The committed game profile of minetest_game: its registry, and the Minecraft -> minetest_game mapping."""

from __future__ import annotations

import json
import shutil

import pytest

from engine_support import ENGINE_DIR
from taskverse.engine.profile import load_mapping, load_registry, registry_text
from taskverse.errors import TaskverseError
from taskverse.knowledge.facts import load_knowledge

PROFILE = ENGINE_DIR / "games" / "minetest_game"


@pytest.fixture(scope="module")
def registry():
    return load_registry("minetest_game")


@pytest.fixture(scope="module")
def mapping():
    return load_mapping("minetest_game")


def test_registry_is_stored_normalised(registry):
    text = (PROFILE / "registry.json").read_text()
    assert registry_text(registry) == text, "registry.json is not in normal form; run: taskverse engine dump"
    assert "null" not in text and ".0," not in text  # write_json's floats and nulls are gone


def test_registry_has_the_counts_of_minetest_game_5_6_1(registry):
    # shared/notes/engine.md: 526 items, 446 recipes without TNT; the dump enables TNT (+tnt:tnt and 2 recipes)
    # and keeps the engine's own "", air, ignore and unknown.
    kinds = [item.type for item in registry.items.values()]
    assert (kinds.count("node"), kinds.count("tool"), kinds.count("craft")) == (437, 33, 59)
    assert len(registry.items) == 531
    assert len(registry.recipes) == 448
    methods = [(r.method, r.width == 0) for r in registry.recipes]
    assert methods.count(("cooking", False)) == 15
    assert methods.count(("normal", True)) == 40
    assert (len(registry.fuels), len(registry.ores), len(registry.biomes)) == (111, 33, 43)
    assert (PROFILE / "ENGINE_VERSION").read_text().strip() == "5.6.1"


def test_registry_facts_the_runtime_relies_on(registry):
    assert registry.items["default:stone"].drop == "default:cobble"
    pick = registry.items["default:pick_wood"].tool_capabilities
    assert pick is not None and pick.groupcaps["cracky"].times == {"3": 1.6}
    torch = [r for r in registry.recipes if r.output == "default:torch"]
    assert [(r.items, r.count) for r in torch] == [(["default:coal_lump", "group:stick"], 4)]
    steel = [r for r in registry.recipes if r.output == "default:steel_ingot" and r.method == "cooking"]
    assert any(r.items == ["default:iron_lump"] and r.cooktime == 3 for r in steel)
    assert registry.fuels["bucket:bucket_lava"].replacement == "bucket:bucket_empty"
    assert registry.game.settings == {"mg_name": "v7", "enable_tnt": True}
    # recipe outputs are registered names, not aliases (minetest_game's bed recipe outputs the alias beds:bed)
    for recipe in registry.recipes:
        for name in [recipe.output, *recipe.items]:
            assert name == "" or name.startswith("group:") or name in registry.items, name


def test_every_game_side_name_is_registered(registry, mapping):
    for section, names in mapping.sections().items():
        for mc_name, counterpart in names.items():
            if counterpart.to is None or counterpart.supplied_by == "runtime":
                continue
            assert registry.has(counterpart.to), f"{section}.{mc_name}: {counterpart.to} is not registered"


def test_every_minecraft_name_is_real(mapping):
    knowledge = load_knowledge()
    assert [n for n in mapping.items if n not in knowledge.items] == []
    assert [n for n in mapping.blocks if n not in knowledge.blocks] == []
    assert [n for n in mapping.entities if n not in knowledge.entities] == []


@pytest.mark.parametrize("name, expected", [
    ("oak_log", "default:tree"), ("oak_planks", "default:wood"), ("stick", "default:stick"),
    ("cobblestone", "default:cobble"), ("iron_ore", "default:stone_with_iron"), ("raw_iron", "default:iron_lump"),
    ("iron_ingot", "default:steel_ingot"), ("coal", "default:coal_lump"), ("furnace", "default:furnace"),
    ("wooden_pickaxe", "default:pick_wood"), ("stone_pickaxe", "default:pick_stone"),
    ("iron_pickaxe", "default:pick_steel"), ("diamond_sword", "default:sword_diamond"),
    ("grass_block", "default:dirt_with_grass"), ("white_wool", "wool:white"), ("white_bed", "beds:bed_bottom"),
    ("flint_and_steel", "fire:flint_and_steel"), ("crafting_table", None), ("golden_pickaxe", None),
])
def test_survival_progression_is_mapped(mapping, name, expected):
    counterpart = mapping.lookup(name)
    assert counterpart is not None and counterpart.to == expected


def test_mobs_are_supplied_by_the_runtime(mapping):
    assert {"sheep", "cow", "pig", "chicken", "zombie", "skeleton", "spider", "creeper"} <= set(mapping.entities)
    for name, counterpart in mapping.entities.items():
        assert counterpart.supplied_by == "runtime" and counterpart.to == f"taskverse:{name}"


def test_blocks_are_looked_up_before_items(mapping):
    assert mapping.lookup("wheat", "block").to == "farming:wheat_8"
    assert mapping.lookup("wheat", "item").to == "farming:wheat"
    assert mapping.lookup("oak_log", "block").to == "default:tree"


def _profile_copy(tmp_path, edit):
    for name in ("registry.json", "mapping.yaml"):
        shutil.copy(PROFILE / name, tmp_path / name)
    path = tmp_path / "mapping.yaml"
    path.write_text(edit(path.read_text()))
    return path


def test_an_unregistered_game_name_is_reported_with_its_line(tmp_path):
    path = _profile_copy(tmp_path, lambda t: t.replace('"default:pick_stone"', '"default:pick_stnoe"'))
    with pytest.raises(TaskverseError) as caught:
        load_mapping("minetest_game", tmp_path)
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "pick_stnoe" in text)
    assert caught.value.line == line and caught.value.field == "items.stone_pickaxe.to"
    assert "default:pick_stone" in caught.value.suggestions


def test_a_null_counterpart_needs_a_note(tmp_path):
    _profile_copy(tmp_path, lambda t: t + "  netherite_ingot: {to: null}\n")
    with pytest.raises(TaskverseError, match="needs a note"):
        load_mapping("minetest_game", tmp_path)


def test_a_registry_dump_with_nulls_and_float_ints_is_normalised():
    from taskverse.engine.profile import parse_dump

    raw = json.loads(json.dumps({
        "format": 1.0, "game": {"mapgen": "v7", "mods": ["default"]},
        "items": [{"name": "a:b", "type": "node", "groups": None, "stack_max": 99.0, "drop": {"max_items": 1.0,
                   "items": [{"items": ["a:c"], "rarity": 20.0, "tools": None, "inherit_color": False}]}}],
        "recipes": [{"method": "normal", "width": 0.0, "items": ["a:c"], "output": "a:alias", "count": 2.0}],
        "fuels": None, "ores": None, "biomes": None, "decorations": None, "entities": None,
        "aliases": [{"alias": "a:alias", "target": "a:b"}],
    }))
    registry = parse_dump(raw)
    item = registry.items["a:b"]
    assert item.groups == {} and item.stack_max == 99 and isinstance(item.stack_max, int)
    assert item.drop.items[0].rarity == 20 and item.drop.items[0].tools == []
    assert registry.recipes[0].output == "a:b" and registry.recipes[0].count == 2
    assert registry.fuels == {} and registry.ores == []


def test_biomes_map_real_minecraft_biomes_to_registered_game_biomes(registry, mapping):
    knowledge = load_knowledge()
    assert [n for n in mapping.biomes if n not in knowledge.biomes] == []
    game_biomes = mapping.biome_names()
    assert set(game_biomes) <= set(registry.biomes)
    assert game_biomes["desert"] == "desert" and game_biomes["deciduous_forest"] == "forest"
    assert game_biomes["taiga"] == "snowy_taiga" and game_biomes["coniferous_forest"] == "taiga"
    assert mapping.biomes["river"].to is None and mapping.biomes["river"].note


def test_a_game_biome_stands_for_one_minecraft_biome(tmp_path):
    _profile_copy(tmp_path, lambda t: t + "  meadow: {to: [grassland]}\n")
    with pytest.raises(TaskverseError, match="already the counterpart of 'plains'"):
        load_mapping("minetest_game", tmp_path)


def test_unneeded_things_are_marked(mapping):
    assert mapping.items["crafting_table"].needed is False
    assert all(c.needed for name, c in mapping.items.items() if name != "crafting_table")


def test_decorations_know_the_nodes_of_their_schematics(registry):
    apple = next(d for d in registry.decorations if d.name == "default:apple_tree")
    assert apple.schematic_nodes == ["default:apple", "default:leaves", "default:tree"]
    assert registry.items["bucket:bucket_empty"].callbacks == ["on_use"]
    assert "on_rightclick" in registry.items["default:chest"].callbacks
    assert registry.items["default:pick_wood"].callbacks == []
