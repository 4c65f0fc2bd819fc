"""The atom library as a whole: size, categories, MCU's initialization convention, and the paper's tasks."""

import pytest

from conftest import cli_json
from taskverse.errors import TaskverseError
from taskverse.schema import Category

# Every task MCU names: Appendix B Table 1 (16 papers), Figure 3 and Section 4.2, as the paper writes them.
PAPER_TASKS = [
    # Cai et al. (2023)
    "Mine oak wood", "Hunt sheep", "Hunt cow", "Hunt pig", "Mine dirt", "Mine sand", "Mine birch wood",
    "Mine oak_leaves", "Mine birch_leaves", "Obtain wool", "Mine grass", "Mine poppy", "Mine orange_tulip",
    "Combat spider", "Combat polar bear", "Hunt chicken", "Hunt donkey", "Hunt horse", "Hunt wolf", "Hunt llama",
    "Hunt mushroom cow",
    # Wang et al. (2023b): TASK101 (Craft XXX, Equip XXX, Mine diamond)
    "Mine diamond", "Craft wooden_pickaxe", "Equip iron_helmet", "Equip shield",
    # Fan et al. (2022)
    "Milk cow", "Shear sheep", "Combat zombie", "Combat pigman", "Combat enderman", "Find Nether_portal",
    "Find ocean", "Dig hole", "Lay carpet",
    # Baker et al. (2022)
    "Mine log", "Craft planks", "Craft crafting_table", "Mine cobblestone", "Craft stone_pickaxe", "Mine iron_ore",
    "Craft furnace", "Smelt to Iron Ignot", "Craft Iron_pickaxe", "Craft diamond_pickaxe",
    # Guss et al. (2019)
    "Navigation", "Chop tree", "Obtain iron_pickaxe", "Obtain diamond", "Obtain cookedMeet", "Obtain bed", "Survival",
    # Lifshitz et al. (2023)
    "Dig as far as possible", "Get dirt", "Look at the sky", "Break leaves", "Chop a tree", "Collect Seeds",
    "Break a flower", "Go explore", "Go swimming", "Go underwater", "Open inventory", "Chop down a tree",
    "Break tall grass",
    # Zhu et al. / Wang et al. (2023a) / Nottingham et al. (2023): Minecraft Technology Tree (Obtain XXX)
    "Obtain iron_ingot", "Obtain golden_apple", "Obtain redstone",
    # Yuan et al. (2023)
    "Obtain stick", "Obtain crafting_table", "Obtain bowl", "Obtain chest", "Obtain trap_door", "Obtain sign",
    "Obtain wooden_pickaxe", "Obtain furnace", "Obtain stone_stairs", "Obtain stone_slab", "Obtain cobblestone_wall",
    "Obtain lever", "Obtain torch", "Obtain stone_pickaxe", "Obtain milk_bucket", "Obtain beef", "Obtain mutton",
    "Obtain painting", "Obtain carpet", "Obtain item_frame", "Obtain cooked_beef", "Obtain cooked_mutton",
    # Ding et al. (2023)
    "Obtain milk", "Obtain leaf", "Obtain sunflower",
    # Malato et al. (2022)
    "Find cave", "Build animal_pen", "Make waterfall", "Build house",
    # Figure 3 and Section 4.2
    "Combat an enderman", "Combat a spider", "Combat a zombie", "Combat a skeleton", "Hunt a sheep",
    "Enchant diamond_sword", "Dig three and fill one", "Craft to crafting_table", "Mine horizontally",
    "Craft to ladder", "Craft to clock", "Craft to cake", "Build snow golem", "Build a waterfall", "Build a pillar",
    "Build an archway gate", "Build a fence", "Make obsidian by water", "Manoeuvre animal with leads", "Boating",
    "Shoot with a bow", "Acquire treasure from chest", "Resist by shield", "Sleep in bed", "Eat spider_eye",
    "Make fire with flint_and_steel", "Carve pumpkin", "Mine obsidian", "Mine diamond_ore", "Hunt animals",
    "Fly with trident on a rainy day", "Chop trees", "Smelt food", "Exploring", "Find forest", "Find desert",
    "Find village", "Climb the mountain", "Dye a sheep", "Till the land", "Plant wheat seeds",
    # Section 2.1 and Figure 2
    "craft iron_sword", "craft bed", "find oak trees", "chop oak trees", "craft oak planks", "find spider",
    "find sheep", "find cobweb",
]


def test_library_is_large_and_covers_every_category():
    rows = cli_json("list")
    assert len(rows) >= 3000
    assert {r["category"] for r in rows} == {c.value for c in Category}
    assert all({"id", "description", "category", "kind"} <= set(r) for r in rows)
    assert len({r["id"] for r in rows}) == len(rows)


@pytest.mark.parametrize("name", PAPER_TASKS)
def test_every_task_the_paper_names_is_found_by_its_description(library, name):
    task = library.get(name)
    assert task.id in library.by_id


def test_issue_examples_resolve_to_the_intended_atoms(library):
    expected = {
        "craft iron_sword": "craft.iron_sword",
        "combat spider": "combat.spider",
        "hunt sheep": "hunt.sheep",
        "find village": "find.village",
        "build a pillar": "build.pillar",
        "mine diamond_ore": "mine.diamond_ore",
        "Mine oak wood": "mine.oak_log",
        "mine oak_wood": "mine.oak_wood",  # a near name of a different block is that block
        "Obtain wool": "obtain.any_wool",  # any colour, as the papers count it
    }
    for description, task_id in expected.items():
        assert library.get(description).id == task_id, description


def test_initialization_gives_exactly_the_prerequisites(library):
    sword = library.get("craft iron_sword")
    assert sword.initialization.inventory == {"iron_ingot": 2, "stick": 1, "crafting_table": 1}
    assert library.get("mine iron_ore").initialization.main_hand == "stone_pickaxe"
    assert library.get("mine diamond_ore").initialization.main_hand == "iron_pickaxe"
    smelt = library.get("smelt iron_ingot").initialization.inventory
    assert smelt.get("furnace") == 1 and smelt.get("raw_iron") == 1 and len(smelt) == 3
    sheep = library.get("hunt sheep").initialization
    assert [s.entity for s in sheep.summon] == ["sheep"] and not sheep.inventory
    assert library.get("find blaze").initialization.dimension.value == "nether"


def test_generated_atoms_cover_the_game_data(library):
    from taskverse.library.combat import fight_ways

    kn = library.knowledge
    ids = library.by_id
    assert all(f"craft.{item}" in ids for item in kn.craft_ways if item in kn.items)
    assert all(f"smelt.{r.output}" in ids for r in kn.smelting)
    assert all(f"eat.{food}" in ids for food in kn.foods if food in kn.items)
    assert all(f"find.{biome}" in ids for biome in kn.biomes if biome != "the_void")
    assert all(f"find.{s}" in ids for s in kn.structures)
    unbeatable = {m for m in (kn.combat.mobs if kn.combat else {}) if not fight_ways(kn, m)}  # the warden
    natural_mobs = [m for m, info in kn.mobs.items() if info.natural and m not in unbeatable]
    assert all(f"hunt.{m}" in ids or f"combat.{m}" in ids for m in natural_mobs)
    assert unbeatable == {"warden"}
    droppers = [b for b, info in kn.blocks.items() if info["diggable"] and any(not d.get("silk_touch")
                for d in info["drops"])]
    assert sum(f"mine.{b}" in ids for b in droppers) >= 0.95 * len(droppers)


def test_a_freshly_loaded_library_keeps_the_models_a_cached_one_rebuilds(library):
    """A cold load keeps the models it validated; a warm one builds them from the cached data: they must agree."""
    from taskverse.library.loader import load_library
    from taskverse.schema import AtomTask

    fresh = load_library(use_cache=False)
    assert fresh.index.data == library.index.data
    for task in fresh.tasks:
        rebuilt = AtomTask.model_validate(fresh.index.data[task.id])
        assert rebuilt == task and rebuilt.model_dump_json() == task.model_dump_json()


def test_a_task_not_found_names_each_close_task_once(library):
    # obtain.any_wool is near by its id, its description ("obtain any wool") and its alias ("obtain wool")
    with pytest.raises(TaskverseError) as caught:
        library.get("obtain 99999999 wool")
    hints = caught.value.suggestions
    assert "obtain.any_wool" in hints and len(hints) == len(set(hints))
