"""Published atomic task lists (one task a line, as MCU's ``atomic_task_list.txt`` writes them): names as players
write them (potions by display name, misspellings), verbs in other words, and what the 1.20 game does not have,
each read as the game means it or named with the game's reason. The lines here are written for the tests."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import cli
from phrase_support import phrase_reader as _reader
from phrase_support import reads_as
from taskverse.language.reading import PhraseError, to_expr
from taskverse.language.vocabulary import potion_name


def _refused(text: str) -> PhraseError:
    """The error reading a line gives (the test fails if the line reads)."""
    with pytest.raises(PhraseError) as caught:
        _reader().read(text)
    return caught.value


@pytest.mark.parametrize(("text", "expected"), [
    # potions by the names players give them; "craft to" a potion is brewing it (no potion has a recipe)
    ("craft to potion of swiftness", "brew.potion_of_swiftness"),
    ("make a potion of healing", "brew.potion_of_healing"),
    ("craft to potion of fire", "brew.potion_of_fire_resistance"),
    ("brew a potion of leap", "brew.potion_of_leaping"),
    ("craft to extended potion of poison", "brew.potion_of_long_poison"),
    ("craft to enhanced potion of harming", "brew.potion_of_strong_harming"),
    ("brew a strong potion of swiftness", "brew.potion_of_strong_swiftness"),
    ("craft to splash potion of weakness", "brew.splash_potion_of_weakness"),
    ("craft to potion splash of night vision", "brew.splash_potion_of_night_vision"),
    ("brew lingering potion of the turtle master", "brew.lingering_potion_of_turtle_master"),
    ("craft to splash thick potion", "brew.thick_splash_potion"),
    ("brew an awkward potion", "brew.awkward_potion"),
    ("drink potion of fire", "drink.potion_of_fire_resistance"),
    ("drink an extended potion of invisibility", "drink.potion_of_long_invisibility"),
    # misspellings whose word is certain
    ("craft ot potion of strength", "brew.potion_of_strength"),
    ("dink potion of regeneration", "drink.potion_of_regeneration"),
    # "use X" is the game's used statistic: a thrown ender pearl
    ("use ender pearl", "throw.ender_pearl"),
    ("use a bow", "use.bow"),
])
def test_each_atomic_list_family_reads_as_the_game_means_it(text, expected):
    assert reads_as(text, expected)


@pytest.mark.parametrize(("text", "reason"), [
    ("brew potion of weaving", "1.21"),
    ("brew an elixir", "Education Edition"),
    ("brew eye drops", "Education Edition"),
    ("craft a crafter", "1.21"),
    ("craft a copper bulb", "1.21"),
    ("drink splash_potion", "thrown, not drunk"),
    ("drink a lingering potion of healing", "thrown, not drunk"),
    # the emerald pays for every trade: no villager or trader buys or sells one (trades.yaml: currency)
    ("sell Emerald", "currency of every trade"),
    ("trade for an emerald", "currency of every trade"),
])
def test_what_the_1_20_game_does_not_have_or_do_is_impossible_with_its_reason(text, reason):
    error = _refused(text)
    assert error.status == "impossible" and reason in error.message


def test_coverage_reads_a_potion_list_and_names_what_the_game_lacks(tmp_path):
    path = tmp_path / "atomic.txt"
    path.write_text("craft to potion of leap\ncraft to enhanced potion of healing\nbrew potion of oozing\n"
                    "use splash potion of healing\n")
    result = cli("coverage", str(path), "--format", "json")
    rows = json.loads(result.stdout)["lines"]
    assert [r["status"] for r in rows] == ["matched", "matched", "impossible", "matched"]
    assert [r["task"] for r in rows[:2]] == ["brew.potion_of_leaping", "brew.potion_of_strong_healing"]
    assert rows[3]["task"] == "throw.splash_potion_of_healing"  # a splash potion is used by throwing it


EFFECTS = ["healing", "harming", "swiftness", "slowness", "poison", "strength", "weakness", "regeneration",
           "invisibility", "night vision", "water breathing", "fire resistance", "leaping", "slow falling",
           "turtle master"]


@settings(max_examples=80)
@given(st.sampled_from(["", "splash ", "lingering "]), st.sampled_from(["", "extended ", "enhanced "]),
       st.sampled_from(EFFECTS))
def test_a_potion_s_display_name_means_the_item_id_of_its_form_level_and_effect(form, level, effect):
    name = potion_name(tuple(f"{level}{form}potion of {effect}".split()))
    assert name is not None and name.endswith(effect.replace(" ", "_"))
    assert name.startswith(f"{form.strip()}_potion_of_" if form else "potion_of_")
    assert ("_long_" in name) == (level == "extended ") and ("_strong_" in name) == (level == "enhanced ")
    reader = _reader()
    if name in reader.potions:  # a form the game brews: read as its brew atom, never another potion's
        assert to_expr(reader.read(f"craft to {level}{form}potion of {effect}").root).task == f"brew.{name}"


@pytest.mark.parametrize(("text", "expected"), [
    # the atomic list's words for the library's use atoms
    ("play record", "use.play_music_disc"),
    ("tune noteblock", "use.play_note_block"),
    ("till dirt into farmland with hoe", "use.till_land"),
    ("pick up water with bucket", "use.fill_water_bucket"),
    # display names for item ids
    ("trade for Leather Tunic", "trade.leather_chestplate"),
    ("buy leather pants", "trade.leather_leggings"),
    ("sell Turtle Scute", "sell.scute"),
    ("sell a Rabbit's Foot", "sell.rabbit_foot"),
])
def test_other_words_for_use_atoms_and_display_names_read_as_their_atoms(text, expected):
    assert reads_as(text, expected)


def test_pot_a_flower_is_any_pot_atom_of_the_game_s_flowers_tag():
    reader = _reader()
    expr = to_expr(reader.read("pot a flower").root)
    tasks = {part.task for part in expr.parts}
    flowers = set(reader.kn.tags["flowers"])
    assert tasks and all(t.startswith("pot.") and t.removeprefix("pot.") in flowers for t in tasks)
    assert "pot.poppy" in tasks and "pot.oak_sapling" not in tasks


@pytest.mark.parametrize(("text", "named"), [
    ("Trap a creeper in house.", "trapped in a house"),
    ("climb waterfall", "climbable"),
    ("close door", "no statistic"),
    ("feed tamed wolf", "tamed"),
    ("Bring a cow into nether.", "dimension"),
    ("turn a villager into librarian", "profession"),
    ("build redstone turret", "free-form build"),
    ("build an automated machine", "free-form build"),
    ("build redstone adder", "free-form build"),
])
def test_lines_needing_a_mechanism_the_world_model_lacks_name_it(text, named):
    error = _refused(text)
    assert error.status == "not expressible" and named in error.message


@pytest.mark.parametrize(("text", "named"), [
    ("find decorated_pot", "records neither the structures"),
    ("enchant stick", "anvil.yaml lists it among no items a book's enchantment goes on"),
])
def test_lines_the_library_lacks_an_atom_for_say_what_the_world_model_lacks(text, named):
    error = _refused(text)
    assert error.status == "not expressible" and named in error.message


@settings(max_examples=40)
@given(st.sampled_from(["redstone sequencer", "redstone adder", "automated machine", "spaceship", "redstone turret"]),
       st.sampled_from(["a ", "an ", "the ", ""]))
def test_a_build_the_library_does_not_name_is_never_read_as_crafting(thing, article):
    with pytest.raises(PhraseError) as caught:
        _reader().read(f"build {article}{thing}")
    assert caught.value.free_form is not None and caught.value.status == "not expressible"


@settings(max_examples=40)
@given(st.sampled_from(["chair", "refrigerator", "fountain", "statue", "NAND gate", "pyramid", "fish tank"]),
       st.sampled_from(["a ", "an ", "the ", ""]), st.sampled_from(["build", "make", "construct", "bulid"]))
def test_a_named_build_is_its_build_atom_never_crafting(thing, article, verb):
    task = _reader().read(f"{verb} {article}{thing}").root.task
    assert task == "build." + thing.lower().replace(" ", "_")


@pytest.mark.parametrize(("text", "kind"), [
    ("trade for Any color wool", "wool"), ("buy any colour carpet", "carpet"),
    ("trade for Any color blank banner", "banner"), ("trade for any kind of bed", "bed"),
])
def test_any_color_of_a_kind_is_every_one_of_it_never_the_one_an_old_name_means(text, kind):
    expr = to_expr(_reader().read(text).root)
    tasks = {part.task for part in expr.parts}
    assert len(tasks) >= 2 and all(t.startswith("trade.") and t.endswith(f"_{kind}") for t in tasks)


def test_wool_alone_and_any_color_wool_are_every_wool_where_no_group_atom_is():
    # "wool" held its colours as data values: with no trade group atom, any wool's trade (an OR), never white only
    reader = _reader()
    assert reader.read("trade for wool").root == reader.read("trade for any color wool").root
    assert not reads_as("trade for wool", "trade.white_wool")


@pytest.mark.parametrize(("text", "expected"), [
    ("mine birch_wood", "mine.birch_wood"),  # the bark block the id names
    ("mine birch wood", "mine.birch_log"),  # the literature's "mine oak wood": logs (an alias)
    ("mine grass_path", "mine.dirt_path"),  # an id the game renamed (1.17) still means its block
])
def test_a_game_id_written_as_an_id_means_that_id_not_an_alias_s_thing(text, expected):
    assert reads_as(text, expected)


@pytest.mark.parametrize(("text", "reason"), [
    ("craft to iron_ore", "iron_ore has no crafting recipe"),
    ("craft to nether_brick", "nether_brick has no crafting recipe"),
])
def test_an_id_with_no_recipe_is_impossible_not_read_as_another_thing_s_recipe(text, reason):
    error = _refused(text)
    assert error.status == "impossible" and reason in error.message


@pytest.mark.parametrize("item", ["item_frame", "painting", "chest", "barrel", "shulker_box", "minecart",
                                  "enchanted_book", "potion", "map"])
def test_renaming_an_item_task_lists_name_is_the_anvil_s_rename_atom(item):
    """The anvil renames any item; anvil.yaml's also_renamed gives these their rename atoms."""
    assert reads_as(f"rename {item.replace('_', ' ')}", f"rename.{item}")


def test_selling_what_a_villager_buys_still_reads_beside_the_currency():
    assert reads_as("sell wheat", "sell.wheat")


@pytest.mark.parametrize(("text", "expected"), [
    # groups: the illagers (tags.yaml), the pyramids (structures sharing a last word)
    ("combat a illager", "combat.evoker | combat.pillager | combat.vindicator"),
    ("trap a illager with a boat",
     "init(trap.evoker | trap.pillager | trap.vindicator, inventory.oak_boat=2, main_hand=oak_boat)"),
    ("find pyramid.", "find.desert_pyramid | find.jungle_pyramid"),
])
def test_a_group_s_name_is_any_of_its_members_atoms(text, expected):
    assert reads_as(text, expected)


def test_any_color_stained_terracotta_is_each_dyed_terracotta_never_the_plain_one():
    reader = _reader()
    tasks = {part.task for part in to_expr(reader.read("trade for Any color stained terracotta").root).parts}
    assert tasks == {f"trade.{t}" for t in reader.kn.tags["stained_terracotta"]}
    assert "trade.terracotta" not in tasks and len(tasks) == 16


@pytest.mark.parametrize("text", ["combat a illagre", "find pyramd", "trade for Globe Baner Pattern"])
def test_a_near_miss_of_a_new_name_still_fails_cleanly_with_close_names(text):
    error = _refused(text)
    assert error.status == "not expressible" and "did not understand" in error.message
    assert "did you mean" in str(error)


@pytest.mark.parametrize(("text", "expected"), [
    # names the game's English gives the rider, the dimension and an item ("X (Y)": a trade's category, then the item)
    ("combat a skeleton horseman", "combat.skeleton"),
    ("trap a skeleton horseman with a boat", "init(trap.skeleton, main_hand=oak_boat)"),
    ("find nether.", "enter.nether"),
    ("find nether_gold_ore", "find.nether_gold_ore"),  # a block named after the dimension is still found
    ("trade for Map (Empty Map)", "trade.map"),
    ("trade for Banner Pattern (Globe Banner Pattern)", "trade.globe_banner_pattern"),
    ("repair Turtle Shell (repaired with Scute)", "repair.turtle_helmet"),
    ("repair Elytra (repaired with Phantom Membrane)", "repair.elytra"),
    # planting what grows where it is placed is placing it; the seeds on farmland keep their plant atoms
    ("plant suger cane", "place.sugar_cane"),
    ("plant mushroom", "place.brown_mushroom | place.red_mushroom"),
    ("plant wheat seeds", "plant.wheat_seeds"),
    # a trade for what villagers only buy is the sell side of it; what they sell stays the trade
    ("trade for Ink Sac", "sell.ink_sac"),
    ("trade for Stone", "sell.stone"),
    # a cake is eaten a slice at a time once placed (the eat_cake_slice statistic), never as an item
    ("eat cake slice", "eat.cake"),
    ("eat a slice of cake", "eat.cake"),
    ("trade for a bookshelf", "trade.bookshelf"),
])
def test_names_and_phrasings_of_the_atomic_list_read_as_the_game_means_them(text, expected):
    assert reads_as(text, expected)


def test_plant_a_flower_places_one_of_the_game_s_flowers():
    reader = _reader()
    tasks = {part.task for part in to_expr(reader.read("plant flower").root).parts}
    flowers = set(reader.kn.tags["small_flowers"]) | set(reader.kn.tags["tall_flowers"])
    assert "place.poppy" in tasks and "place.oak_sapling" not in tasks and "place.cherry_leaves" not in tasks
    assert all(t.split(".", 1)[1].removesuffix("_seeds") in flowers for t in tasks)


@pytest.mark.parametrize(("text", "expected"), [
    # the anvil's two things, in either order: an item and a book (which enchantment is not modelled)
    ("combine a Netherite Sword and a book with the Smite enchantment", "combine.netherite_sword"),
    ("combine a pair of Leather Pants and a book with the Unbreaking enchantment", "combine.leather_leggings"),
    ("combine a Bow and a book with the Power enchantment", "combine.bow"),
    ("combine a bow with an enchanted book", "combine.bow"),
    ("combine an enchanted book with a diamond sword", "combine.diamond_sword"),
    # two of one item, or an item and its repair material: the anvil's repair
    ("combine a Diamond Pickaxe and another Diamond Pickaxe", "repair.diamond_pickaxe"),
    ("combine an iron ingot and an iron pickaxe", "repair.iron_pickaxe"),
    ("combine a bow and combine a crossbow", "combine.bow & combine.crossbow"),  # two phrases, two anvil uses
])
def test_an_anvil_pair_reads_as_the_anvil_s_atom_for_it(text, expected):
    assert reads_as(text, expected)


@pytest.mark.parametrize("text", [
    "combine a golden axe and a golden hoe",
    "combine a Golden Axe and a Golden Hoe (although they are the same material, this is not typically done since "
    "they are different tools)",
])
def test_two_different_items_at_an_anvil_are_impossible_with_the_game_s_reason(text):
    error = _refused(text)
    assert error.status == "impossible" and "golden_axe and golden_hoe are different items" in error.message


def test_an_item_no_book_goes_onto_in_the_library_names_the_item():
    error = _refused("combine a stick and a book with the Mending enchantment")
    assert error.status == "not expressible" and "no combine task for stick" in error.message


@pytest.mark.parametrize(("text", "expected"), [
    # the villagers' drawn offers (trades.yaml): enchanted gear, explorer maps, tipped arrows, enchanted books
    ("trade for enchanted diamond leggings", "trade.enchanted_diamond_leggings"),
    ("trade for Enchanted Iron Pickaxe", "trade.enchanted_iron_pickaxe"),
    ("trade for Enchanted Fishing Rod", "trade.enchanted_fishing_rod"),
    ("trade for Ocean Explorer Map", "trade.ocean_explorer_map"),
    ("trade for Woodland Explorer Map", "trade.woodland_explorer_map"),
    ("trade for Tipped Arrow", "trade.tipped_arrow"),
    ("trade for Enchanted Book", "trade.enchanted_book"),
    # "sell" an emerald and an item: the price a player hands over, the trades that take it
    ("sell Emerald and Compass", "trade.ocean_explorer_map | trade.woodland_explorer_map"),
    ("sell emerald and Gravel", "trade.flint"),
    ("sell Emerald and arrow", "trade.tipped_arrow"),
    # "one of N THINGS": any of the kind when the verb has an atom for exactly N (a shepherd's sixteen carpets)
    ("trade one of 16 carpets", " | ".join(f"trade.{c}_carpet" for c in (
        "black", "blue", "brown", "cyan", "gray", "green", "light_blue", "light_gray", "lime", "magenta", "orange",
        "pink", "purple", "red", "white", "yellow"))),
])
def test_the_villagers_drawn_offers_and_their_prices_read_as_trades(text, expected):
    assert reads_as(text, expected)


@pytest.mark.parametrize(("text", "words"), [
    ("trade one of 4 carpets", "of 4 carpets"),  # the count says how many kinds: four is not the sixteen
    ("sell emerald and diamond", "emerald and diamond"),  # no trade takes emeralds and a diamond
])
def test_a_price_or_a_kind_count_no_trade_has_is_not_read(text, words):
    error = _refused(text)
    assert error.status == "not expressible" and words in error.message
