"""The text world's rules: candidate masks, effects, chance yields, and the goal automaton vs the evaluator."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taskverse.algebra.expr import AllOf, AnyOf, AtLeast, AtomRef, Avoid, Repeat, Then, Within
from taskverse.algebra.semantics import Evaluator
from taskverse.algebra.tracker import Context, GoalTracker


def way_met(rules, counts, way):
    """An independent reading of the rules: every need of the way is met by the counts (fuel by burn ticks)."""
    return all(sum(counts[m] * w for m, w in zip(need.members, need.weights or [1] * len(need.members), strict=True))
               >= need.count for need in way)


def candidates_from_scratch(rules, state):
    return [a for a, ways in enumerate(rules.ways) if any(way_met(rules, state.counts, w) for w in ways)]


START_ITEMS = ["oak_log", "oak_planks", "stick", "cobblestone", "iron_ingot", "coal", "crafting_table", "furnace",
               "white_wool", "wooden_pickaxe", "stone_pickaxe", "string", "diamond"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(start=st.dictionaries(st.sampled_from(START_ITEMS), st.integers(1, 9), max_size=5),
       picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=60))
def test_candidates_are_exactly_the_atoms_whose_needs_are_met(rules, start, picks):
    state = rules.new_state(start)
    for pick in picks:
        candidates = rules.candidates(state)
        assert candidates == candidates_from_scratch(rules, state)
        a = candidates[pick % len(candidates)]
        before = list(state.counts)
        rules.act(state, a)
        assert all(c >= 0 for c in state.counts)
        # Kept needs stay held unless a tool wore out; found things stay found.
        for need in next(w for w in rules.ways[a] if way_met(rules, before, w)):
            if not need.consume and not need.uses:
                assert sum(state.counts[m] for m in need.members) >= 1
        assert all(state.counts[r] for r in range(rules.n_items, rules.n_resources) if before[r])


def test_consumption_takes_the_most_held_and_keeps_tools_last(rules):
    index = rules.index
    state = rules.new_state({"oak_planks": 1, "birch_planks": 3, "crafting_table": 1, "iron_ore": 0,
                             "raw_iron": 2, "furnace": 1})
    rules.act(state, rules.action_index["craft.stick"])  # any 2 planks: both from birch, held most
    assert state.counts[index[("item", "birch_planks")]] == 1 and state.counts[index[("item", "oak_planks")]] == 1
    rules.act(state, rules.action_index["smelt.iron_ingot"])  # fuel: a plank or the stick, never the table
    rules.act(state, rules.action_index["smelt.iron_ingot"])
    assert state.counts[index[("item", "crafting_table")]] == 1
    assert state.counts[index[("item", "iron_ingot")]] == 2


def test_fuel_burns_for_its_smelts_and_the_rest_stays_in_the_furnace(rules):
    index = rules.index
    smelt = rules.action_index["smelt.iron_ingot"]
    state = rules.new_state({"raw_iron": 9, "coal": 1, "furnace": 1})
    for _ in range(8):  # one coal smelts eight items (fuels.yaml: 1600 ticks)
        rules.act(state, smelt)
    assert state.counts[index[("item", "coal")]] == 0
    assert state.counts[index[("item", "iron_ingot")]] == 8
    assert not state.mask[smelt]  # the ninth needs more fuel
    assert "fuel for 1 smelt" in rules.explain(state, smelt)
    sticks = rules.new_state({"raw_iron": 2, "stick": 1, "furnace": 1})
    assert not sticks.mask[smelt]  # a stick is half a smelt
    rules.change(sticks, index[("item", "stick")], 1)
    rules.act(sticks, smelt)
    assert sticks.counts[index[("item", "stick")]] == 0


def test_one_log_is_not_both_the_input_and_the_fuel(rules):
    state = rules.new_state({"oak_log": 1, "furnace": 1})
    assert not state.mask[rules.action_index["smelt.charcoal"]]
    state = rules.new_state({"oak_log": 1, "oak_planks": 1, "furnace": 1})
    rules.act(state, rules.action_index["smelt.charcoal"])
    assert rules.inventory(state) == {"charcoal": 1, "furnace": 1}


def test_a_placed_block_is_mined_back_once_a_found_one_again_and_again(rules):
    place, mine = rules.action_index["place.packed_mud"], rules.action_index["mine.packed_mud"]
    state = rules.new_state({"packed_mud": 1})
    rules.act(state, place)
    rules.act(state, mine)
    assert rules.inventory(state) == {"packed_mud": 1} and not state.mask[mine]  # no copying by place-and-mine
    state = rules.new_state({"wooden_pickaxe": 1}, [("block", "stone")])
    for _ in range(3):
        rules.act(state, rules.action_index["mine.stone"])
    assert rules.inventory(state)["cobblestone"] == 3 and ("block", "stone") in rules.found(state)


def test_a_mansions_evokers_are_used_up_and_another_mansion_gives_more(rules, library):
    # Evokers generate once with their woodland mansion and never respawn (mobs.yaml: finite, with its source):
    # a find gives the few a mansion holds, each kill uses one up, and more take another find.
    held = library.knowledge.mobs["evoker"].finite
    assert held == 2
    find, kill = rules.action_index["find.evoker"], rules.action_index["combat.evoker"]
    state = rules.new_state({"iron_sword": 1})
    rules.act(state, find)
    for _ in range(held):
        events = rules.act(state, kill)
        assert events[0][:2] == ("kill", "evoker")
        assert not any(e[1].startswith("left:") for e in events)  # no event for the count of evokers left
    assert not state.mask[kill] and ("entity", "evoker") in rules.found(state)
    assert "one more evoker" in rules.explain(state, kill)
    assert "left:evoker" not in rules.inventory(state)
    rules.act(state, find)
    assert state.mask[kill]
    # an atom that summons an evoker starts with one to kill; a sheep herd is no finite source
    start = rules.state_from_initialization(library.by_id["combat.evoker"].initialization)
    assert start.mask[kill]
    sheep = rules.new_state({"iron_sword": 1}, [("entity", "sheep")])
    for _ in range(5):
        rules.act(sheep, rules.action_index["hunt.sheep"])


def test_an_atom_obtaining_what_it_yields_counts_what_came(rules, library):
    # A farmer's trade gives 4 apples: its success event obtains 4, not 1 (an amount goal counts them all).
    state = rules.state_from_initialization(library.by_id["trade.apple"].initialization)
    events = rules.act(state, rules.action_index["trade.apple"])
    assert [e[:3] for e in events if e[0] == "obtain"] == [("obtain", "apple", 4)]
    # A wandering trader without the offer (its 5/64 chance, planned for on the 37th trader) gives nothing: no
    # success event, where the atom's own event used to say a shell was obtained on every try.
    state = rules.state_from_initialization(library.by_id["trade.nautilus_shell"].initialization)
    events = rules.act(state, rules.action_index["trade.nautilus_shell"])
    assert not [e for e in events if e[0] == "obtain"]


@pytest.mark.parametrize(("structure", "chests"), [("desert_pyramid", 4), ("jungle_pyramid", 2),
                                                  ("buried_treasure", 1), ("pillager_outpost", 1),
                                                  ("shipwreck", 2), ("mineshaft", 4), ("dungeon", 2),
                                                  ("ancient_city", 10), ("woodland_mansion", 4)])
def test_a_structures_chests_are_looted_once_each(rules, library, structure, chests):
    # A structure's loot chests are there once (structures.yaml: chests, with its source; a named estimate where
    # the count varies with the layout, as a mineshaft's); more take another find.
    assert library.knowledge.structures[structure].chests == chests
    find, loot = rules.action_index[f"find.{structure}"], rules.action_index[f"loot.{structure}"]
    state = rules.new_state()
    rules.act(state, find)
    for _ in range(chests):
        rules.act(state, loot)
    assert not state.mask[loot] and f"one more {structure}" in rules.explain(state, loot)
    rules.act(state, find)
    assert state.mask[loot]


def test_a_treasure_bastion_is_one_in_four_and_its_chest_is_one_of_its_own_kind(rules, library):
    # A find of a bastion gives its four main chests, and a treasure chest with the share of bastions that have a
    # treasure room (one in four): planned for at 95% (chance="sure"), the eleventh find gives it; looting it uses
    # up the treasure chest, not a main one, and a start at a bastion holds one.
    find, main = rules.action_index["find.bastion_remnant"], rules.action_index["loot.bastion_remnant"]
    treasure = rules.action_index["loot.bastion_remnant.treasure"]
    state = rules.new_state({}, [("dimension", "nether")])
    finds = 0
    while not state.mask[treasure]:
        rules.act(state, find)
        finds += 1
        assert finds <= 11
    assert finds == 11
    events = rules.act(state, treasure)
    assert ("interact", "bastion_remnant", 1, None, None, "nether", None, "treasure") in events
    assert not state.mask[treasure] and state.mask[main]
    assert "netherite_upgrade_smithing_template" in rules.inventory(state)
    start = rules.state_from_initialization(library.by_id["loot.bastion_remnant.treasure"].initialization)
    assert start.mask[treasure]


def test_every_looted_structure_counts_its_chests_and_says_when_the_count_is_estimated(library):
    # A structure whose chests structure_loot.yaml loots has a count (else one find gave endless chests: 212
    # mineshaft chests for an enchanted golden apple); an estimated count says it is one, and why, in its source.
    structures = library.knowledge.structures
    looted = {t.structure for t in library.knowledge.mechanisms.structure_loot.tables if t.verb == "loot"}
    assert looted >= {"mineshaft", "ancient_city", "dungeon", "woodland_mansion", "stronghold", "end_city",
                      "nether_fortress", "bastion_remnant"}
    for name in looted:
        assert structures[name].chests, name
        if structures[name].chests_estimate:
            assert "named estimate" in (structures[name].source or ""), name
    assert not structures["desert_pyramid"].chests_estimate  # the wiki's fact: four


@pytest.mark.parametrize("item", ["oak_slab", "white_candle", "sea_pickle", "pink_petals"])
def test_a_stacking_block_placed_once_gives_back_one(rules, item):
    # minecraft-data lists the fullest state's drop (a double slab: 2); one placed item is one in the block
    state = rules.new_state({item: 1, "wooden_axe": 1, "wooden_pickaxe": 1})
    rules.act(state, rules.action_index[f"place.{item}"])
    rules.act(state, rules.action_index[f"mine.{item}"])
    assert rules.inventory(state).get(item) == 1


def test_tools_wear_and_break(rules):
    index = rules.index
    durability = rules.durability["wooden_pickaxe"]  # minecraft-data: 59
    state = rules.new_state({"wooden_pickaxe": 1}, [("block", "stone")])
    mine = rules.action_index["mine.stone"]
    for _ in range(durability - 1):
        rules.act(state, mine)
    assert rules.inventory(state)["wooden_pickaxe"] == 1
    rules.act(state, mine)
    assert "wooden_pickaxe" not in rules.inventory(state)
    assert rules.inventory(state)["cobblestone"] == durability
    assert state.counts[index[("item", "wear:wooden_pickaxe")]] == 0


def test_events_name_the_tag_member_used_and_the_tool(rules):
    state = rules.new_state({"stone_pickaxe": 1}, [("block", "birch_log"), ("block", "iron_ore")])
    events = rules.act(state, rules.action_index["mine.any_log"])
    assert events[0][:2] == ("mine", "birch_log")
    events = rules.act(state, rules.action_index["mine.iron_ore"])
    assert events[0][:4] == ("mine", "iron_ore", 1, "stone_pickaxe")
    assert events[1][:3] == ("use", "stone_pickaxe", 1)  # the game's used statistic: the pickaxe wore
    assert events[2][:3] == ("obtain", "raw_iron", 1)
    state = rules.new_state({"oak_planks": 4})
    events = rules.act(state, rules.action_index["craft.crafting_table"])
    assert events[0][3] is None  # crafted at a table, not with a tool in hand


def test_gravel_gives_its_first_flint_on_the_29th_try_as_a_player_plans_for_it(rules):
    """10% flint: 1 - 0.9 ** 29 = 0.953, the first try count that gives a flint with 95% probability."""
    state = rules.new_state({"wooden_shovel": 1}, [("block", "gravel")])
    mine = rules.action_index["mine.gravel"]
    got = []
    for _ in range(46):
        events = rules.act(state, mine)
        got.append(sum(e[2] for e in events if e[:2] == ("obtain", "flint")))
    assert [i + 1 for i, n in enumerate(got) if n] == [29, 46]


def test_lookup_and_explain(rules):
    assert rules.lookup("Craft  Oak Planks") == rules.action_index["craft.oak_planks"]
    assert rules.lookup("craft.oak_planks") == rules.action_index["craft.oak_planks"]
    with pytest.raises(Exception, match="did you mean"):
        rules.lookup("craft oak plank")
    state = rules.new_state()
    assert "iron_ingot" in rules.explain(state, rules.action_index["craft.iron_sword"])


ATOMS = ["craft.stick", "craft.crafting_table", "hunt.sheep", "mine.oak_log", "find.oak_log", "craft.oak_planks",
         "loot.stronghold", "loot.stronghold.library"]


def expressions():
    leaf = st.sampled_from(ATOMS).map(lambda t: AtomRef(task=t))
    return st.recursive(leaf, lambda inner: st.one_of(
        st.lists(inner, min_size=2, max_size=3).map(lambda p: AllOf(parts=tuple(p))),
        st.lists(inner, min_size=2, max_size=3).map(lambda p: AnyOf(parts=tuple(p))),
        st.lists(inner, min_size=2, max_size=3).map(lambda p: Then(parts=tuple(p))),
        st.lists(inner, min_size=2, max_size=3).map(lambda p: AtLeast(count=2, parts=tuple(p))),
        st.tuples(st.integers(1, 3), inner).map(lambda ti: Repeat(times=ti[0], part=ti[1])),
        inner.map(lambda i: Avoid(part=i)), inner.map(lambda i: Within(ticks=60, part=i))), max_leaves=5)


EVENTS = [("craft", "stick", 1, None), ("obtain", "stick", 1, None), ("craft", "crafting_table", 1, None),
          ("kill", "sheep", 1, None), ("mine", "oak_log", 1, None), ("obtain", "oak_log", 1, None),
          ("find", "oak_log", 1, None), ("craft", "oak_planks", 1, None), ("obtain", "oak_planks", 4, None),
          ("interact", "stronghold", 1, None), ("interact", "stronghold", 1, "library")]  # a corridor, a library


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(expr=expressions(), trace=st.lists(st.sampled_from(EVENTS), max_size=12))
def test_goal_automaton_agrees_with_the_evaluator(library, expr, trace):
    evaluator = Evaluator.for_library(library)
    context = Context()
    tracker = GoalTracker(expr, evaluator, context)
    state = tracker.initial()
    events = []
    for step, (name, target, count, chest) in enumerate(trace):
        event = (name, target, count, None, None, None, None, chest)
        clock = float(step)  # a second a step, as in the environment: time bounds of 3 s pass
        state = tracker.feed(tracker.advance(state, clock), [event], clock)
        events.append(context.game_event(event, clock))
        verdict = evaluator.evaluate(expr, events)
        assert tracker.done(state) == verdict.satisfied and tracker.failed(state) == verdict.failed
        assert tracker.progress(state) == pytest.approx(verdict.progress)
