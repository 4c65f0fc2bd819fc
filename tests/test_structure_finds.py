"""Finding a block the world generates only inside structures, and a block it never generates."""

from __future__ import annotations

import json

import pytest

from conftest import run_cli
from phrase_support import reads_as
from taskverse.algebra.expr import ref
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.engine.compiler import Compiler
from taskverse.schema import ResourceKind
from taskverse.textenv.plans import plan_task


def _coverage(tmp_path, lines: list[str]) -> list[dict]:
    path = tmp_path / "tasks.txt"
    path.write_text("\n".join(lines) + "\n")
    done = run_cli("coverage", str(path), "--format", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["lines"]


def test_find_lines_of_structure_blocks_read_as_their_find_atoms(tmp_path):
    got = _coverage(tmp_path, ["find red_bed", "find wall_torch", "find smooth_sandstone_stairs", "find tnt",
                               "find grass_path", "find end_portal_frame", "find a brewing stand"])
    assert [(g["status"], g["task"]) for g in got] == [
        ("matched", "find.red_bed"), ("matched", "find.wall_torch"), ("matched", "find.smooth_sandstone_stairs"),
        ("matched", "find.tnt"), ("matched", "find.dirt_path"), ("matched", "find.end_portal_frame"),
        ("matched", "find.brewing_stand")]


def test_find_of_a_block_the_world_never_generates_is_impossible_with_the_reason(tmp_path):
    powder, command = _coverage(tmp_path, ["find yellow_concrete_powder", "find a command block"])
    assert powder["status"] == "impossible"
    assert "the 1.20 world never generates yellow_concrete_powder: a player places it" in powder["reason"]
    assert command["status"] == "impossible" and "only commands give it" in command["reason"]


def test_a_structure_block_atom_needs_a_structure_that_holds_it(library):
    task = library.get("find.red_bed")
    structures = sorted(n.any_of[0] for way in task.requires for n in way if n.kind == ResourceKind.STRUCTURE)
    assert structures == ["igloo", "village"]
    assert all(n.kept for way in task.requires for n in way)
    assert task.goal.event.value == "find" and task.goal.target == "red_bed"
    assert task.initialization.structure in structures
    # judged as every find atom: the find event on the block
    verdict = Evaluator.for_library(library).evaluate(ref("find.red_bed"), [GameEvent(event="find", target="red_bed")])
    assert verdict.status.value == "satisfied"


def test_the_plan_for_a_red_bed_from_scratch_goes_through_a_village(library):
    ids = plan_task("naive(find.red_bed)", library).actions
    assert ids[-1] == "find.red_bed" and "find.village" in ids[:-1]


def test_the_engine_says_why_a_structure_block_does_not_compile(library):
    problems = Compiler(library, "minetest_game").problems(library.get("find.tnt"))  # it generates no structures
    assert "blocks inside structures are not generated" in [p.reason for p in problems]
    assert any("desert_pyramid" in p.detail for p in problems)
    problems = Compiler(library, "taskverse_mc").problems(library.get("find.white_bed"))  # villages only
    assert [p.reason for p in problems][:1] == ["blocks inside structures are not generated"]


def test_a_structure_block_compiles_where_a_stand_in_holds_it(library):
    """taskverse_mc's stand-ins hold their structures' blocks: found as a generated block is."""
    compiler = Compiler(library, "taskverse_mc")
    ir = compiler.compile(library.get("find.tnt"))
    assert ir.trackers.find.nodes == ["minecraft:tnt"] and ir.goals["find.tnt"].targets == ["tnt"]
    # a start at a structure the game does not place moves to another that holds the block (an ancient city's
    # chest: a desert pyramid's)
    assert library.get("find.chest").initialization.structure == "ancient_city"
    assert compiler.problems(library.get("find.chest")) == []


@pytest.mark.parametrize("name", ["bell", "cobweb", "spawner"])
def test_natural_blocks_keep_their_find_atoms_without_a_structure(library, name):
    assert library.get(f"find.{name}").requires in ([[]], [])


@pytest.mark.parametrize(("text", "expected"), [
    ("find glass", "find.glass"),  # a woodland mansion's windows
    ("find a damaged anvil", "find.damaged_anvil"),  # trail ruins and mansions
    ("find cobblestone_wall", "find.cobblestone_wall"),
    ("find the white wall banner", "find.white_wall_banner"),  # an outpost's ominous banner
    ("find polished_andesite", "find.polished_andesite"),  # an igloo's basement
    ("find stripped_spruce_wood", "find.stripped_spruce_wood"),  # a snowy village's mason
    ("find coal_block", "find.coal_block"),  # trail ruins: no longer "never generated"
    ("find fire", "find.fire"),
    ("find purple_glazed_terracotta", "find.purple_glazed_terracotta"),  # cold ocean ruins
    ("find acacia_sapling", "find.acacia_sapling"),  # before a savanna village's library
    ("find a lime terracotta", "find.lime_terracotta"),  # a desert village mason's house
    ("find piston_head", "find.piston_head"),  # an ancient city centre's extended pistons (its templates)
    ("find polished_granite", "find.polished_granite"),  # ocean ruins' templates
    ("find oak_pressure_plate", "find.oak_pressure_plate"),  # plains village houses' templates
    ("find dragon_wall_head", "find.dragon_wall_head"),  # the end ship's bow
    ("find a comparator", "find.comparator"),  # no longer "a player places it": an ancient city's centre
    ("find infested_stone", "find.infested_stone"),  # ore_infested in mountain biomes
])
def test_find_lines_of_blocks_the_structures_and_the_nether_generate_read_as_their_find_atoms(text, expected):
    assert reads_as(text, expected)


@pytest.mark.parametrize(("block", "structures"), [
    ("glass", ["ancient_city", "woodland_mansion"]),  # the ancient city's centre (the 1.20.1 templates)
    ("damaged_anvil", ["trail_ruins", "woodland_mansion"]),
    ("cobblestone_wall", ["pillager_outpost", "village", "woodland_mansion"]),
    ("coal_block", ["trail_ruins"]),
    ("lime_carpet", ["village", "woodland_mansion"]),
    ("light_blue_carpet", ["ancient_city", "woodland_mansion"]),  # the wiki says none in mansions: 1x2_c3 has one
    ("ender_chest", ["end_city"]),  # no longer "a player places it"
    ("potted_dandelion", ["village", "woodland_mansion"]),
    ("acacia_wood", ["village"]),
    ("orange_glazed_terracotta", ["trail_ruins", "village"]),  # a savanna armorer's house too
    ("yellow_glazed_terracotta", ["trail_ruins", "village"]),
    ("light_blue_terracotta", ["ocean_ruins"]),
    ("brown_stained_glass_pane", ["village"]),  # an abandoned village's windows
    ("yellow_wool", ["village", "woodland_mansion"]),
    ("trapped_chest", ["woodland_mansion"]),  # the fake end portal room
    ("piston_head", ["ancient_city"]),  # from here on: read from the 1.20.1 templates
    ("chain", ["bastion_remnant"]),
    ("stone_slab", ["ruined_portal"]),
    ("pumpkin_stem", ["village"]),  # a taiga village's small farm
    ("comparator", ["ancient_city"]),
    ("jungle_button", ["village"]),  # desert village houses
])
def test_a_find_atom_has_one_way_per_structure_whose_wiki_page_lists_the_block(library, block, structures):
    task = library.get(f"find.{block}")
    ways = sorted(n.any_of[0] for way in task.requires for n in way if n.kind == ResourceKind.STRUCTURE)
    assert ways == structures
    assert block not in library.knowledge.never_generated


def test_fire_is_found_in_the_nether_where_its_patches_generate(library):
    task = library.get("find.fire")
    assert task.initialization.dimension == "nether"
    assert [n.any_of for way in task.requires for n in way] == [["nether"]]
    assert set(library.knowledge.natural_blocks["fire"].biomes) == {"basalt_deltas", "nether_wastes",
                                                                   "soul_sand_valley"}


def test_the_plan_for_glass_found_from_scratch_goes_through_a_structure_that_holds_it(library):
    ids = plan_task("naive(find.glass)", library).actions
    assert ids[-1] == "find.glass" and {"find.ancient_city", "find.woodland_mansion"} & set(ids[:-1])


@pytest.mark.parametrize(("text", "why"), [
    ("find gray_stained_glass", "stained glass of two colours only"),  # magenta and brown
    ("find red_glazed_terracotta", "red comes with 1.21's trial chambers"),
    ("find purple_terracotta", "holds stained terracotta of this colour"),
    ("find pink_bed", "beds generate only in village houses"),
    ("find blue_wall_banner", "banners of six colours only"),
    ("find potted_fern", "none is empty or holds this plant"),
    ("find flower_pot", "none is empty or holds this plant"),
    ("find dead_tube_coral_fan", "coral reefs place living coral only"),
    ("find oak_sapling", "this one grows only from leaves"),
    ("find birch_wall_sign", "only an igloo's oak wall sign"),
    ("find oak_sign", "no standing sign"),
    ("find lime_stained_glass_pane", "stained glass panes of four colours only"),
    ("find pink_wool", "no structure holds this colour"),
    ("find jungle_pressure_plate", "generate only in village houses"),
    ("find chipped_anvil", "only damaged anvils"),
    ("find turtle_egg", "a turtle lays it"),
    ("find enchanting_table", "a player places it"),
    ("find prismarine_stairs", "a player crafts or stonecuts it"),  # the monument's code places full blocks
    ("find red_nether_brick_wall", "no structure template, template processor or world feature"),
    ("find white_banner", "no structure places a standing banner"),
    ("find moving_piston", "a technical block"),
    ("find stripped_birch_log", "never wood, hyphae or stripped logs"),
    ("find skeleton_wall_skull", "no structure places a skull on a wall"),
    ("find bamboo_sapling", "a shoot stands only where a player plants bamboo"),
])
def test_find_lines_of_colours_and_plants_no_structure_holds_are_impossible_with_the_wikis_reason(tmp_path, text, why):
    (got,) = _coverage(tmp_path, [text])
    assert got["status"] == "impossible" and why in got["reason"]


def test_the_plan_for_purple_glazed_terracotta_from_scratch_goes_through_ocean_ruins(library):
    ids = plan_task("naive(find.purple_glazed_terracotta)", library).actions
    assert ids[-1] == "find.purple_glazed_terracotta" and "find.ocean_ruins" in ids[:-1]


def test_a_bubble_column_is_found_over_the_magma_of_underwater_caves(tmp_path, library):
    """The 1.20 underwater_magma feature puts magma blocks under water, which make whirlpool bubble columns."""
    (got,) = _coverage(tmp_path, ["find bubble_column"])
    assert (got["status"], got["task"]) == ("matched", "find.bubble_column")
    block = library.knowledge.natural_blocks["bubble_column"]
    assert (block.dimension, block.where) == ("overworld", "cave") and "underwater_magma" in block.source
    assert library.get("find.bubble_column").requires in ([[]], [])  # no structure: a natural block


def test_a_ruined_portals_processed_shapes_are_found_there(tmp_path, library):
    """The code's ageing and blackstone processors make shapes no template holds; others they never make."""
    lines = ["find mossy_stone_brick_stairs", "find mossy_stone_brick_slab", "find mossy_stone_brick_wall",
             "find polished_blackstone_slab", "find stone_stairs", "find polished_blackstone_stairs",
             "find polished_blackstone_wall"]
    got = _coverage(tmp_path, lines)
    assert [(g["status"], g["task"]) for g in got[:4]] == [
        ("matched", "find.mossy_stone_brick_stairs"), ("matched", "find.mossy_stone_brick_slab"),
        ("matched", "find.mossy_stone_brick_wall"), ("matched", "find.polished_blackstone_slab")]
    for shape in got[4:]:
        assert shape["status"] == "impossible" and "a ruined portal's processors never make it" in shape["reason"]
    for name in ("mossy_stone_brick_stairs", "mossy_stone_brick_wall", "polished_blackstone_slab"):
        row = library.knowledge.structure_blocks[name]
        assert row.structures == ["ruined_portal"] and "Processor" in row.beside_templates["ruined_portal"]
        assert plan_task(f"naive(find.{name})", library).actions == ["find.ruined_portal", f"find.{name}"]


def test_the_dragons_blocks_are_found_after_the_dragon_dies(tmp_path, library):
    """The egg, the end gateway and the exit portal are what the dragon's death leaves: a plan kills it first."""
    got = _coverage(tmp_path, ["find end_gateway", "find dragon_egg", "find end_portal"])
    assert [(g["status"], g["task"]) for g in got] == [
        ("matched", "find.end_gateway"), ("matched", "find.dragon_egg"), ("matched", "find.end_portal")]
    for name in ("end_gateway", "dragon_egg"):
        task = library.get(f"find.{name}")
        assert [[(n.kind, n.any_of, n.kept) for n in way] for way in task.requires] == [
            [(ResourceKind.BLOCK, [name], True)]]
        assert task.initialization.dimension.value == "end"
        ids = plan_task(f"naive(find.{name})", library).actions
        assert ids[-1] == f"find.{name}" and "combat.ender_dragon" in ids[:-1]
        assert ids.index("enter.end") < ids.index("combat.ender_dragon")


def test_the_end_portal_is_opened_in_a_strongholds_portal_room(library):
    """Twelve eyes in the portal room's frames open it, so its plan locates a stronghold and leaves the dragon alone."""
    task = library.get("find.end_portal")
    ways = sorted([(n.kind.value, n.any_of[0], n.count) for n in way] for way in task.requires)
    assert ways == [[("block", "end_portal", 1)], [("structure", "stronghold", 1), ("item", "ender_eye", 12)]]
    assert task.initialization.structure == "stronghold" and task.initialization.inventory == {"ender_eye": 12}
    ids = plan_task("naive(find.end_portal)", library).actions
    assert ids[-1] == "find.end_portal" and "find.stronghold" in ids and "combat.ender_dragon" not in ids
    assert ids.count("craft.ender_eye") >= 12  # one thrown to locate the stronghold, twelve for the frames


def test_the_engine_says_why_the_end_portal_does_not_compile(library):
    """taskverse_mc's stronghold stand-in holds the frames; the portal opens only when a player fills them."""
    (problem,) = Compiler(library, "taskverse_mc").problems(library.get("find.end_portal"))
    assert problem.reason == "blocks inside structures are not generated"
    assert "only once a player uses 12 ender_eye" in problem.detail and "stand-in of stronghold" in problem.detail


def test_infested_stone_is_found_in_the_mountains_where_its_veins_generate(library):
    task = library.get("find.infested_stone")
    assert task.requires in ([[]], [])  # found as a natural block, with no structure
    assert "windswept_hills" in library.knowledge.natural_blocks["infested_stone"].biomes
    assert "infested_stone" not in library.knowledge.structure_blocks


@pytest.mark.parametrize(("text", "why"), [
    ("find cliff.", "no feature of the 1.20 world generator"),
    ("find waterfall.", "a water spring (the spring_water feature)"),
    ("find lavafall.", "a lava spring (the spring_lava feature"),
    ("find lake.", "no water lake feature"),
    ("find lava lake.", "lake_lava_surface, one in 200 chunks"),
    ("find underground lake.", "an aquifer's water in a cave"),
    ("find void_air", "outside the world's height limits"),
    ("find cave_air", "being in a cave is find.cave"),
])
def test_finds_of_terrain_the_world_model_holds_no_table_of_say_which(tmp_path, text, why):
    """Lakes and springs are 1.20 features the world model does not hold; a cliff and technical air are no finds."""
    (got,) = _coverage(tmp_path, [text])
    assert got["status"] == "not expressible" and why in got["reason"]


def test_the_upper_bound_of_the_world_is_the_build_limit(tmp_path):
    (got,) = _coverage(tmp_path, ["Reach the upperbound of the world."])
    assert (got["status"], got["task"]) == ("matched", "navigate.reach_build_limit")
