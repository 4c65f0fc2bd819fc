"""MCU's task texts (``text`` of MCU_benchmark/task_configs): each family read as MCU's criteria mean it, the texts
no task can judge named, and configs with such a text imported with the reason per file and line."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import cli
from phrase_support import phrase_reader as _reader
from phrase_support import reads_as
from taskverse.algebra.expr import canonical
from taskverse.language.reading import PhraseError, to_expr
from taskverse.language.vocabulary import CONTEXT_TAILS


@pytest.mark.parametrize(("text", "expected"), [
    # words that say why or where in words, read and left out
    ("Collect dirt blocks from the ground.", "obtain.dirt"),
    ("Mine iron ore from the environment.", "mine.iron_ore"),
    ("find bedrock at the bottom of the world", "find.bedrock"),
    ("look at the sky in a clear area", "look.sky"),
    ("Sleep in a bed to skip the night.", "use.sleep_in_bed"),
    ("Craft an enchanting table to enchant your items.", "craft.enchanting_table"),
    ("Craft a furnace for smelting items.", "craft.furnace"),
    ("Build a waterfall in your Minecraft world.", "build.waterfall"),
    ("Plant wheat seeds in tilled soil.", "plant.wheat_seeds"),
    ("craft oak planks from oak logs", "craft.oak_planks"),
    # what the task is done with named by no one item: the config's start says
    ("build a tower using available materials", "build.tower"),
    ("Combat zombies with given weapons and armor.", "combat.zombie"),
    ("hunt a horse using a sword or bow", "hunt.horse"),
    ("craft a cake using the necessary ingredients", "craft.cake"),
    # names in other words
    ("Mine obsidian blocks for various crafting or building purposes.", "mine.obsidian"),
    ("Explore the world to find a forest biome.", "find.forest"),
    ("craft a stone cutter", "craft.stonecutter"),
    ("drink a harming potion", "drink.potion_of_harming"),
    ("find a lava pool", "find.lava"),
    ("make fire using flint and steel", "use.make_fire"),
    ("Use flint and steel to ignite a fire.", "use.make_fire"),
    # verbs in other words
    ("construct a simple maze", "build.maze"),
    ("Engage in combat with spiders using appropriate weapons and armor.", "combat.spider"),
    ("combat and fend off wolves", "combat.wolf"),
    ("combat and kill multiple spiders", "amount(2, combat.spider)"),
    ("Shoot a phantom using a bow and arrows.", "combat.phantom @ how=arrows"),
    # building is the building atom, not crafting the block of that name (MCU's criteria: a structure)
    ("build a pillar", "build.pillar"),
    ("build a wall", "build.wall"),
    ("build a gate", "build.archway_gate"),
    ("build a bed", "craft.any_bed"),  # a bed of any colour
    # MCU's own phrasings of the library's atoms
    ("explore the contents of a chest", "use.loot_chest"),
    ("Collect wood from trees in your surroundings.", "mine.any_log"),
    ("Shear sheep to collect wool.", "use.shear_sheep"),
    ("Use lead to get animals", "use.lead_animal"),
    ("trap a witch using a boat", "init(trap.witch, main_hand=oak_boat)"),
    # MCU's building and decorating families, as the atoms that judge them (placements counted, a shape)
    ("decorate the ground using various blocks and items", "decorate.ground"),
    ("decorate a wall with various decorative items", "decorate.wall"),
    ("build a library using bookshelves and wood planks", "build.library"),
    ("stack acacia fences", "build.fence_stack"),
    ("light up the surroundings using torches at night", "light.surroundings @ when=night"),
    ("clean the weeds using a hoe", "clean.weeds"),
    ("find_blue_bed_and_stacking_acacia_fence", "find.blue_bed & build.fence_stack"),
    ("defend yourself using a shield", "use.resist_by_shield"),
    ("dig three blocks down and fill one block up", "dig.three_fill_one"),
    ("Open your inventory and craft a stonecutter.", "open.inventory & craft.stonecutter"),
    ("Smelt raw food items to create cooked food.",
     "smelt.baked_potato | smelt.cooked_beef | smelt.cooked_chicken | smelt.cooked_cod | smelt.cooked_mutton"
     " | smelt.cooked_porkchop | smelt.cooked_rabbit | smelt.cooked_salmon | smelt.dried_kelp"),
    # MCU's task names, as its compositional configs join them
    ("use_lead_and_craft_stonecut", "use.lead_animal & craft.stonecutter"),
    ("craft_diorite_or_find_bedrock", "craft.diorite | find.bedrock"),
    # an item put into a container (the store event): MCU's birthday present is a cake stored in a chest
    ("put a cake in a chest", "store.cake"),
    ("store diamonds in the chest", "store.diamond"),
    ("place a golden apple into a barrel", "store.golden_apple"),
    ("place a cake", "place.cake"),
    ("Prepare a birthday present for your neighbor using various decorative items and a cake.", "store.cake"),
    ("prepare_a_birthday_present_for_your_neighbor_and_combat_wolfs_or_lay_carpet",
     "store.cake & (combat.wolf | place.white_carpet)"),
])
def test_each_mcu_family_reads_as_the_game_means_it(text, expected):
    assert reads_as(text, expected)


@pytest.mark.parametrize(("text", "named"), [
    ("prepare a birthday present", "present"),
    ("create a bee nest-like structure", "bee nest"),
    ("create and interact with a bee nest", "use.harvest_honeycomb"),
])
def test_texts_no_task_can_judge_are_named_not_read(text, named):
    with pytest.raises(PhraseError) as caught:
        _reader().read(text)
    assert caught.value.free_form is not None and named in caught.value.message


def test_the_part_of_a_join_the_game_forbids_is_named():
    with pytest.raises(PhraseError) as caught:
        _reader().read("craft_bell_and_craft_to_cake")
    assert caught.value.status == "impossible" and "bell has no crafting recipe" in caught.value.message


BASES = ["mine iron ore", "craft a furnace", "hunt a pig", "find a village", "obtain 3 dirt", "smelt iron ore",
         "combat a zombie at night", "build a house"]
TAILS = sorted(" ".join(t) for t in CONTEXT_TAILS)


@settings(max_examples=60)
@given(st.sampled_from(BASES), st.sampled_from(TAILS))
def test_a_tail_that_adds_nothing_leaves_the_reading_as_it_was(base, tail):
    reader = _reader()
    alone = canonical(to_expr(reader.read(base).root))
    assert canonical(to_expr(reader.read(f"{base} {tail}").root)) == alone


@settings(max_examples=30)
@given(st.sampled_from(BASES), st.sampled_from(["various materials", "the appropriate tool", "a sword",
                                                "given weapons and armor"]))
def test_using_things_no_item_names_leaves_the_reading_as_it_was(base, things):
    reader = _reader()
    alone = canonical(to_expr(reader.read(base).root))
    assert canonical(to_expr(reader.read(f"{base} using {things}").root)) == alone


def test_a_config_no_task_can_judge_imports_its_start_with_the_reason_by_file_and_line(tmp_path):
    config = tmp_path / "present.yaml"
    config.write_text("custom_init_commands:\n- /give @s minecraft:poppy 3\n- /time set day\n"
                      "text: prepare a birthday present\n")
    out = tmp_path / "out"
    result = cli("import", str(config), "-o", str(out), "--format", "json")
    assert result.exit_code == 1
    warning = result.stderr.strip().splitlines()[0]
    assert warning.startswith(f"warning: {config}:4: prepare a birthday present: no task ")
    assert "present" in warning
    data = json.loads(result.stdout)
    assert data["summary"]["read_without_task"] == 1 and data["summary"]["not_imported"] == 0
    row = data["files"][0]
    assert row["imported"] is False and "present" in row["no_task"]
    assert row["config_start"]["inventory"] == {"poppy": 3} and row["config_start"]["time"] == "day"
    assert not out.exists() or not any(out.iterdir())


def test_a_config_whose_text_the_game_forbids_names_the_game_s_reason(tmp_path):
    config = tmp_path / "bell.yaml"
    config.write_text("custom_init_commands: [/give @s minecraft:iron_ingot 6]\ntext: craft a bell\n")
    result = cli("import", str(config), "--format", "json")
    assert result.exit_code == 1
    row = json.loads(result.stdout)["files"][0]
    assert row["no_task"] == "not possible in the game: bell has no crafting recipe"


FREE = ["prepare a birthday present", "create a bee nest-like structure"]


@settings(max_examples=60)
@given(st.sampled_from(BASES), st.sampled_from(FREE), st.sampled_from(["and", "or", "and then"]), st.booleans())
def test_a_join_with_a_part_no_task_can_judge_is_never_read_as_the_other_part(base, free, join, first):
    phrase = f"{free} {join} {base}" if first else f"{base} {join} {free}"
    with pytest.raises(PhraseError) as caught:
        _reader().read(phrase)
    assert caught.value.free_form is not None


def test_mcu_birthday_present_imports_as_a_cake_stored_in_a_chest_from_the_config_alone(tmp_path):
    # MCU's simple/prepare_a_birthday_present_for_your_neighbor.yaml (CraftJarvis/MCU bfb7c1d), as shipped
    config = tmp_path / "present.yaml"
    config.write_text("custom_init_commands:\n- /give @s minecraft:cake 1\n- /give @s minecraft:oak_log 4\n"
                      "- /give @s minecraft:chest 2\n- /setblock ~2 ~ ~ minecraft:crafting_table\n"
                      "text: 'Prepare a birthday present for your neighbor using various decorative items\n"
                      "  and a cake.  '\n")
    result = cli("import", str(config), "-o", str(tmp_path / "out"), "--format", "json")
    assert result.exit_code == 0, result.stderr
    row = json.loads(result.stdout)["files"][0]
    assert row["imported"] and row["beyond_config"] == {}
    assert row["expression"]["part"] == {"kind": "atom", "task": "store.cake"}
