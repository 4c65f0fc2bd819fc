"""The library is true to the game's numbers: one test per family of game facts, read through the public API.

Each expected value below is the game's (Java Edition 1.20 recipes and loot tables, as the Minecraft Wiki gives
them), not a copy of the data package: where the package flattens a fact, the curated files correct it.
"""

from __future__ import annotations

import pytest

from taskverse.knowledge.facts import collapse_recipes, load_knowledge
from taskverse.library.generate import curated_tasks
from taskverse.paths import atoms_dir
from taskverse.schema import AtomTask, Need, WaySpec, Yield


def _ways(task: AtomTask) -> list[tuple[list[Need], list[Yield]]]:
    assert task.requires is not None
    return [(list(w.needs), list(w.yields)) if isinstance(w, WaySpec) else (list(w), list(task.yields))
            for w in task.requires]


def _given(task: AtomTask, item: str, way: int = 0) -> tuple[int, int, float]:
    """(least, most, chance) of ``item`` that one go of the way gives."""
    (found,) = [y for y in _ways(task)[way][1] if y.name == item]
    return found.count, found.upper, found.chance


# -- 1. every recipe way keeps its own ingredients and output count -------------------------------------------

@pytest.mark.parametrize(("task_id", "first_input", "count", "other_input", "other_count"), [
    ("craft.stick", "oak_planks", 4, "bamboo", 1),
    ("craft.white_carpet", "white_wool", 3, "white_dye", 1),
    ("craft.iron_ingot", "iron_block", 9, "iron_nugget", 1),
    ("craft.red_stained_glass_pane", "red_stained_glass", 16, "glass_pane", 8),
    ("craft.bone_meal", "bone_block", 9, "bone", 3),
])
def test_each_recipe_way_gives_its_own_count_and_the_players_way_comes_first(
        library, task_id, first_input, count, other_input, other_count):
    ways = _ways(library.get(task_id))
    counts = {n: y[0].count for needs, y in ways for need in needs for n in need.any_of}
    assert counts[first_input] == count and counts[other_input] == other_count
    first_needs, first_yields = ways[0]
    assert any(first_input in n.any_of for n in first_needs) and first_yields[0].count == count
    assert library.get(task_id).yields[0].count == count  # the task's own yields are the first way's


def test_a_way_never_mixes_recipes_that_give_different_counts():
    kn = load_knowledge()
    stick = kn.craft_ways["stick"]
    assert sorted((w.count, "bamboo" in w.ingredients[0].items) for w in stick) == [(1, True), (4, False)]
    for result, variants in kn.raw_recipes.items():  # the package's recipes (special recipes are curated)
        for way in collapse_recipes(variants):
            counts = {v["count"] for v in variants
                      if _uses_only(v, {i for ing in way.ingredients for i in ing.items})}
            assert way.count in counts, (result, way)


def _uses_only(variant: dict, items: set[str]) -> bool:
    cells = [c for row in variant.get("shape", []) for c in row if c] + list(variant.get("ingredients", []))
    return set(cells) <= items


# -- 2. block drops: counts (ranges) and conditions -----------------------------------------------------------

@pytest.mark.parametrize(("block", "item", "least", "most", "chance"), [
    ("lapis_ore", "lapis_lazuli", 4, 9, 1.0),
    ("deepslate_lapis_ore", "lapis_lazuli", 4, 9, 1.0),
    ("redstone_ore", "redstone", 4, 5, 1.0),
    ("copper_ore", "raw_copper", 2, 5, 1.0),
    ("iron_ore", "raw_iron", 1, 1, 1.0),
    ("diamond_ore", "diamond", 1, 1, 1.0),
    ("coal_ore", "coal", 1, 1, 1.0),
    ("nether_gold_ore", "gold_nugget", 2, 6, 1.0),
    ("sea_lantern", "prismarine_crystals", 2, 3, 1.0),
    ("glowstone", "glowstone_dust", 2, 4, 1.0),
    ("melon", "melon_slice", 3, 7, 1.0),
    ("gravel", "flint", 1, 1, 0.1),
    ("oak_leaves", "stick", 1, 2, 0.02),
    ("dead_bush", "stick", 0, 2, 1.0),
    ("grass", "wheat_seeds", 1, 1, 0.125),
    ("clay", "clay_ball", 4, 4, 1.0),
])
def test_block_drops_have_the_games_counts(library, block, item, least, most, chance):
    assert _given(library.get(f"mine.{block}"), item) == (least, most, chance)


def test_block_drops_need_the_right_tool(library):
    def tools(task_id: str) -> set[str]:
        return {m for n in _ways(library.get(task_id))[0][0] if n.kept for m in n.any_of}

    assert "wooden_pickaxe" not in tools("mine.iron_ore") and "stone_pickaxe" in tools("mine.iron_ore")
    assert "stone_pickaxe" not in tools("mine.diamond_ore") and "iron_pickaxe" in tools("mine.diamond_ore")
    assert tools("mine.cobweb") == {f"{t}_sword" for t in ("wooden", "stone", "iron", "golden", "diamond",
                                                             "netherite")}
    assert [y.name for y in library.get("shear.cobweb").yields] == ["cobweb"]
    assert [y.name for y in library.get("shear.oak_leaves").yields] == ["oak_leaves"]


# -- 3. entity loot: chances, counts, player-kill conditions --------------------------------------------------

@pytest.mark.parametrize(("mob", "item", "least", "most", "chance"), [
    ("spider", "spider_eye", 1, 1, 0.333333),
    ("spider", "string", 0, 2, 1.0),
    ("blaze", "blaze_rod", 0, 1, 1.0),
    ("enderman", "ender_pearl", 0, 1, 1.0),
    ("ghast", "ghast_tear", 0, 1, 1.0),
    ("iron_golem", "iron_ingot", 3, 5, 1.0),
    ("iron_golem", "poppy", 0, 2, 1.0),
    ("turtle", "seagrass", 0, 2, 1.0),
    ("magma_cube", "magma_cream", 1, 1, 0.25),
    ("cow", "leather", 0, 2, 1.0),
    ("cow", "beef", 1, 3, 1.0),
    ("zombie", "iron_ingot", 1, 1, 0.008333),
    ("wither_skeleton", "wither_skeleton_skull", 1, 1, 0.025),
])
def test_mob_drops_have_the_games_chances_and_counts(library, mob, item, least, most, chance):
    (task,) = [t for t in library.tasks if t.verb in ("hunt", "combat") and t.goal.target == mob]
    assert _given(task, item) == (least, most, chance)


def test_drops_no_player_kill_gives_are_left_out_with_a_reason(library):
    def drops(mob: str) -> set[str]:
        (task,) = [t for t in library.tasks if t.verb in ("hunt", "combat") and t.goal.target == mob]
        return {y.name for y in task.yields}

    assert "bowl" not in drops("turtle")
    assert not drops("magma_cube") & {"ochre_froglight", "pearlescent_froglight", "verdant_froglight"}
    tables = load_knowledge().loot_tables
    assert {o.item for o in tables["turtle"].omitted} == {"bowl"}
    assert "lightning" in tables["turtle"].omitted[0].reason
    assert "frog" in tables["magma_cube"].omitted[0].reason
    # the killed_by_player condition is kept as a fact: these kill atoms are player kills, so such drops count
    blaze = [d for d in load_knowledge().entity_loot["blaze"] if d["item"] == "blaze_rod"]
    assert blaze[0]["player_kill"] is True


def test_every_naturally_spawning_mob_has_a_curated_loot_table():
    kn = load_knowledge()
    missing = sorted(m for m, mob in kn.mobs.items() if mob.natural and m not in kn.loot_tables)
    assert missing == []


def test_curated_atoms_load():
    assert curated_tasks(atoms_dir())


# -- 6. hunt and combat mean different things; no two atoms are the same -------------------------------------

def test_hunt_is_for_mobs_that_never_fight_back_and_combat_for_those_that_do(library):
    mobs = load_knowledge().mobs
    kills = [t for t in library.tasks if t.verb in ("hunt", "combat") and t.goal.target in mobs]
    assert kills
    for task in kills:
        passive = mobs[task.goal.target].disposition == "passive"
        assert task.verb == ("hunt" if passive else "combat"), task.id
    assert len({t.goal.target for t in kills}) == len(kills)  # one kill atom per mob
    assert library.get("hunt wolf").id == "combat.wolf"  # the literature's phrasing still resolves


def test_no_two_atoms_are_identical(library):
    """No two actions do the same; two goals reached by the same actions differ in their start at least."""
    from taskverse.world.graph import way_yields, ways_of

    seen: dict[tuple[str, ...], str] = {}
    for task in library.tasks:
        start = task.initialization.model_dump_json() if task.goal_only else ""
        key = (repr(ways_of(task)), repr(way_yields(task)), repr(task.goal), start)
        assert key not in seen, f"{task.id} is the same atom as {seen[key]}"
        seen[key] = task.id


# -- 4. kept, consumed and worn -------------------------------------------------------------------------------

def _kept(task: AtomTask, way: int = 0) -> dict[str, bool]:
    return {m: n.kept for n in _ways(task)[way][0] if n.kind.value == "item" for m in n.any_of}


@pytest.mark.parametrize(("task_id", "kept", "spent"), [
    ("enter.nether", [], []),  # first way: through a portal already built
    ("build.nether_portal", ["flint_and_steel"], ["obsidian"]),
    ("enchant.diamond_sword", ["enchanting_table", "bookshelf"], ["lapis_lazuli", "diamond_sword"]),
    ("use.brew_potion", ["brewing_stand"], ["blaze_powder", "glass_bottle", "nether_wart"]),
    ("navigate.sail_ocean", ["oak_boat"], []),
    ("navigate.cross_river", ["oak_boat"], []),
    ("use.ride_horse", ["saddle"], []),
    ("use.lead_animal", ["lead"], []),
    ("smelt.iron_ingot", ["furnace"], ["raw_iron"]),
    ("craft.iron_sword", ["crafting_table"], ["iron_ingot", "stick"]),
])
def test_stations_and_tools_are_kept_and_materials_spent(library, task_id, kept, spent):
    needs = _kept(library.get(task_id))
    assert all(needs[k] for k in kept), needs
    assert not any(needs[s] for s in spent), needs


def test_portals_stay_and_can_be_walked_back_through(library):
    build, enter, back = (library.get(t) for t in ("build.nether_portal", "enter.nether", "enter.overworld"))
    assert any(y.kind.value == "block" and y.name == "nether_portal" for y in build.yields)
    assert any(y.kind.value == "block" and y.name == "nether_portal" for y in enter.yields)
    lighting = _kept(enter, 1)
    assert lighting["flint_and_steel"] and not lighting["obsidian"]
    through = [n for n in _ways(back)[0][0]]
    assert {n.any_of[0] for n in through} == {"nether_portal", "nether"}  # no obsidian: the portal stays
    assert load_knowledge().items["flint_and_steel"]["durability"] == 64  # each lighting wears one use


# -- 5. combat as a survival player meets it ------------------------------------------------------------------

def test_armour_reduces_damage_as_the_game_computes_it():
    from taskverse.library.combat import armour_reduction

    assert armour_reduction(0, 0, 5) == 0
    assert armour_reduction(15, 0, 3) == pytest.approx(13.5 / 25)  # iron armour against a zombie: 15 - 12/8
    assert armour_reduction(20, 8, 30) == pytest.approx(0.5)  # diamond against a warden's blow
    assert armour_reduction(30, 20, 1) == pytest.approx(0.8)  # capped at 80%


def test_the_combat_table_holds_the_games_numbers():
    table = load_knowledge().combat
    assert table is not None and table.player.health == 20
    damage = {i: w.damage for w in table.weapons for i in w.items}
    assert (damage["wooden_sword"], damage["stone_sword"], damage["iron_sword"], damage["diamond_sword"],
            damage["netherite_sword"]) == (4, 5, 6, 7, 8)
    points = {a.tier: (a.points, a.toughness) for a in table.armour}
    assert points["iron"] == (15, 0) and points["diamond"] == (20, 8) and points["netherite"] == (20, 12)
    assert table.mobs["zombie"].damage == 3 and table.mobs["iron_golem"].damage == 14.5


def _gear(task: AtomTask) -> list[tuple[set[str], int]]:
    """Per way: the kept items it needs (weapon, armour) and the food it eats."""
    out = []
    for needs, _ in _ways(task):
        kept = {m for n in needs if n.kept and n.kind.value == "item" for m in n.any_of}
        food = sum(n.count for n in needs if not n.kept and n.kind.value == "item")
        out.append((kept, food))
    return out


def test_weak_mobs_are_fought_bare_handed_and_strong_ones_need_weapon_and_armour(library):
    assert _gear(library.get("combat.spider"))[0] == (set(), 0)
    assert _gear(library.get("combat.skeleton"))[0] == (set(), 0)
    assert ({"wooden_sword", "golden_sword", "stone_sword", "iron_sword", "diamond_sword", "netherite_sword"}, 0) \
        in _gear(library.get("combat.zombie"))
    golem = _gear(library.get("combat.iron_golem"))
    for kept, food in golem:  # no bare-handed way: every way needs a sword, diamond armour and food
        assert kept & {"wooden_sword", "stone_sword", "iron_sword", "diamond_sword", "netherite_sword"}
        assert "diamond_chestplate" in kept and "iron_chestplate" not in kept
        assert food > 0
    weapon_wear = [n.uses for needs, _ in _ways(library.get("combat.iron_golem")) for n in needs
                   if "wooden_sword" in n.any_of]
    assert weapon_wear == [25]  # 100 health / 4 damage: a wooden (or better) sword loses 25 uses


def test_a_mob_no_gear_beats_has_no_combat_atom(library):
    from taskverse.library.combat import fight_ways

    assert fight_ways(load_knowledge(), "warden") == []
    assert "combat.warden" not in {t.id for t in library.tasks}
    assert "no combat.warden" in (load_knowledge().combat.mobs["warden"].note or "")


# -- 7. what stays unsolvable says why -----------------------------------------------------------------------

def test_the_summary_lists_every_unsolvable_atom_with_its_reason(library):
    from conftest import cli_json

    data = cli_json("summary")
    unsolvable = data["unsolvable"]
    assert len(unsolvable) == data["atoms"] - data["solvable_from_scratch"]
    assert "smelt.diamond" not in unsolvable  # Silk Touch mines the ore block itself (tests/test_mechanisms.py)
    assert "craft.acacia_hanging_sign" not in unsolvable  # an axe strips the log
    assert "not obtainable in survival" in unsolvable["place.spawner"]
    assert all(reason for reason in unsolvable.values())
