"""Game facts a player checks in a plan: what only shears collect, what the dragon's death opens, what a stem, a
chorus plant and a composter give, and that MCU's "enchant diamond_sword" is the enchanting table's own atom."""

from __future__ import annotations

import pytest

from taskverse.world.graph import way_yields, ways_of


def _yields(task):
    return {y.name: (y.count, y.max, y.chance) for way in way_yields(task) for y in way}


@pytest.mark.parametrize("block", ["vine", "seagrass", "small_dripleaf", "hanging_roots", "nether_sprouts"])
def test_plants_only_shears_collect_give_nothing_by_hand(library, block):
    assert not any(y.kind.value == "item" for y in library.get(f"mine.{block}").yields)  # the break is counted
    sheared = library.get(f"shear.{block}")
    assert _yields(sheared) == {block: (1, None, 1.0)}
    assert any("shears" in n.any_of and n.kept for n in ways_of(sheared)[0])


def test_tall_grasses_give_a_seed_by_hand_and_two_plants_to_shears(library):
    assert _yields(library.get("mine.tall_grass")) == {"wheat_seeds": (1, None, 0.125)}
    assert _yields(library.get("shear.tall_grass")) == {"grass": (2, None, 1.0)}
    assert _yields(library.get("shear.large_fern")) == {"fern": (2, None, 1.0)}
    assert _yields(library.get("shear.tall_seagrass")) == {"seagrass": (2, None, 1.0)}


def test_a_sheared_sheep_gives_one_to_three_wool(library):
    assert _yields(library.get("use.shear_sheep")) == {"white_wool": (1, 3, 1.0)}


def test_stems_chorus_plants_and_composters_give_what_the_loot_tables_give(library):
    assert _yields(library.get("mine.pumpkin_stem")) == {"pumpkin_seeds": (0, 3, 1.0)}
    assert _yields(library.get("mine.attached_melon_stem")) == {"melon_seeds": (0, 3, 1.0)}
    assert _yields(library.get("mine.chorus_plant")) == {"chorus_fruit": (0, 1, 1.0)}
    assert _yields(library.get("mine.composter")) == {"composter": (1, None, 1.0)}  # bone meal only when full


@pytest.mark.parametrize("task_id", ["find.end_city", "find.end_highlands", "find.small_end_islands",
                                     "find.chorus_plant", "find.shulker", "find.purpur_block"])
def test_the_outer_end_lies_past_the_gateway_the_dragons_death_opens(library, task_id):
    needs = ways_of(library.get(task_id))[0]
    assert any(n.kind.value == "block" and n.any_of == ["end_gateway"] for n in needs)


def test_the_central_island_needs_no_gateway_and_the_dragon_opens_it(library):
    for task_id in ("find.ender_dragon", "find.end_stone", "find.the_end"):
        assert not any("end_gateway" in n.any_of for n in ways_of(library.get(task_id))[0])
    dragon = library.get("combat.ender_dragon")
    assert any(y.kind.value == "block" and y.name == "end_gateway" for y in dragon.yields)


def test_an_elytra_from_scratch_kills_the_dragon_before_the_end_city(library):
    from taskverse.textenv.plans import plan_task

    actions = plan_task("naive(obtain.elytra)", library).actions
    assert actions.index("combat.ender_dragon") < actions.index("find.end_city")


def test_mcus_enchant_diamond_sword_is_the_enchanting_tables_atom(library):
    task = library.get("enchant diamond_sword")
    assert task.id == "enchant.diamond_sword" and "use.enchant_diamond_sword" not in library.by_id
    needs = {m: n for n in ways_of(task)[0] for m in n.any_of}
    assert needs["lapis_lazuli"].count == 3 and needs["bookshelf"].count == 15 and not needs["diamond_sword"].kept


@pytest.mark.parametrize("rare", ["ravager", "phantom", "trader_llama", "wandering_trader", "skeleton_horse",
                                  "evoker"])
def test_mobs_that_come_only_with_structures_events_or_time_take_longer_to_find_than_a_cow(library, rare):
    from taskverse.difficulty.timemodel import ActionModel

    model = ActionModel(library.knowledge)
    cow = model.action(library.get("find.cow")).frames
    assert model.action(library.get(f"find.{rare}")).frames > 10 * cow


def test_leather_for_a_book_comes_from_a_cow(library):
    from taskverse.textenv.plans import plan_task

    actions = plan_task("naive(craft enchanting_table)", library).actions
    assert "hunt.cow" in actions and "combat.trader_llama" not in actions


def test_string_for_a_bow_comes_from_spiders_not_from_a_mineshafts_cave_spiders(library):
    # Cave spiders come only from mineshaft spawners (Minecraft Wiki, Cave Spider: Spawning): as far as a
    # mineshaft, where a spider is met in any dark place. Of the equally short ways to three string, the plan takes
    # the mob found sooner.
    from taskverse.difficulty.timemodel import ActionModel
    from taskverse.textenv.plans import plan_task

    model = ActionModel(library.knowledge)
    assert model.action(library.get("find.cave_spider")).frames > model.action(library.get("find.spider")).frames
    actions = plan_task("naive(craft bow)", library).actions
    assert "combat.spider" in actions and not any("cave_spider" in a for a in actions), actions


def test_a_witch_one_monster_spawn_in_a_hundred_is_further_than_a_spider(library):
    # The overworld's monster spawners weigh a witch 5 of 515, a spider 100 (the 1.20 worldgen biome files): met
    # as often as a spider, a witch was the cheapest of redstone's and glass bottles' sources to find.
    from taskverse.difficulty.timemodel import ActionModel

    model = ActionModel(library.knowledge)
    spider = model.action(library.get("find.spider")).frames
    witch = model.action(library.get("find.witch")).frames
    assert library.knowledge.mobs["witch"].spawn_share == pytest.approx(5 / 515, rel=1e-3)
    assert witch > 5 * spider
