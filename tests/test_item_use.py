"""The item-use statistic ("use X"): one meaning for the world's actions, the evaluator, the planner and the reader.

"Use X" is the game's ``used`` statistic (Minecraft Wiki, Statistics): the block placed, the food eaten, the armour
put on, the tool worn down, the item used on a block. Every action of the text world emits a ``use`` event for the
items it uses (``world.graph.items_used``); ``use.X`` atoms count them.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taskverse.algebra.expr import Amount, AtomRef, Then
from taskverse.algebra.molecule import build_molecule
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.language.reading import to_expr
from taskverse.textenv.plans import plan_task
from taskverse.world.graph import items_used
from taskverse.world.rules import durability_from_knowledge


def uses(rules, action, items, found=()):
    """The items doing ``action`` uses, holding ``items`` with ``found`` (block or mob names) present."""
    present = [(kind, name) for name in found for kind in ("block", "entity") if (kind, name) in rules.index][:1] \
        if len(found) == 1 else [(k, n) for n in found for k in ("block", "entity") if (k, n) in rules.index]
    state = rules.new_state(items, present)
    a = rules.action_index[action]
    events = rules.act(state, a)
    if rules.goals[a].using is not None:  # its success names what the item was used on, not a use of an item
        events = events[1:]
    return {e[1] for e in events if e[0] == "use"}


@pytest.mark.parametrize(("action", "items", "found", "used"), [
    ("mine.stone", {"wooden_pickaxe": 1}, ["stone"], {"wooden_pickaxe"}),   # a tool worn down breaking a block
    ("place.torch", {"torch": 1}, [], {"torch"}),                            # a block placed
    ("eat.apple", {"apple": 1}, [], {"apple"}),                              # a food eaten
    ("equip.iron_helmet", {"iron_helmet": 1}, [], {"iron_helmet"}),          # armour put on
    ("use.fill_water_bucket", {"bucket": 1}, ["water"], {"bucket"}),         # an item used on a block
    ("use.lodestone", {"compass": 1}, ["lodestone"], {"compass"}),
    ("breed.cow", {"wheat": 2}, ["cow"], set()),                             # fed to a mob: no use in the count
    ("use.rename_with_anvil", {"anvil": 1, "iron_sword": 1}, [], set()),     # at a station in the inventory
    ("craft.stick", {"oak_planks": 2}, [], set()),
])
def test_an_action_uses_what_the_games_statistic_counts(rules, action, items, found, used):
    assert uses(rules, action, items, found) == used


def test_armour_worn_in_a_fight_is_no_use_of_it(rules):
    keys = rules.action_keys[rules.action_index["combat.zombie"]]
    assert not any(k == ("use", piece) for k in keys for piece in ("iron_chestplate", "iron_helmet"))
    assert ("use", "stone_sword") in keys or ("use", "wooden_sword") in keys  # the weapon is


def test_every_actions_declared_uses_are_the_task_level_rule(library, rules):
    kn = library.knowledge
    worn = {rules.names[r] for r in rules.worn}
    durability = durability_from_knowledge(kn)
    for a, task_id in enumerate(rules.actions):
        expected = {("use", m) for m in items_used(library.by_id[task_id], kn.tags, durability, worn)}
        assert rules.use_keys[a] == expected, task_id


START = ["oak_log", "oak_planks", "stick", "cobblestone", "iron_ingot", "coal", "crafting_table", "furnace", "torch",
         "wooden_pickaxe", "stone_sword", "iron_helmet", "apple", "bucket", "shears", "flint_and_steel", "wheat"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(start=st.dictionaries(st.sampled_from(START), st.integers(1, 5), max_size=6),
       picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=40))
def test_every_use_an_action_emits_is_one_it_declares_and_a_use_atom_counts_it(library, rules, start, picks):
    """Law: the events an action emits are among those the planner looks up (``action_keys``), and ``use.X``
    is met exactly by a trace with a use of X, whichever action made it."""
    evaluator = Evaluator.for_library(library)
    state = rules.new_state(start)
    trace = []
    for pick in picks:
        candidates = rules.candidates(state)
        a = candidates[pick % len(candidates)]
        events = rules.act(state, a)
        assert {(e[0], e[1]) for e in events} <= rules.action_keys[a]
        trace += [GameEvent(event=e[0], target=e[1], count=e[2], held=e[3]) for e in events]
    used = {e.target for e in trace if e.event.value == "use"}
    for item in ("wooden_pickaxe", "stone_sword", "shears", "bucket", "flint_and_steel"):
        verdict = evaluator.evaluate(AtomRef(task=f"use.{item}"), trace)
        assert verdict.satisfied == (item in used)


def test_use_x_is_the_item_used_and_amounts_count_its_uses(library):
    evaluator = Evaluator.for_library(library)
    use = GameEvent(event="use", target="iron_pickaxe", held="iron_pickaxe")
    other = GameEvent(event="mine", target="stone", held="iron_pickaxe")
    assert not evaluator.evaluate(AtomRef(task="use.iron_pickaxe"), [other]).satisfied
    assert evaluator.evaluate(AtomRef(task="use.iron_pickaxe"), [other, use]).satisfied
    three = Amount(count=3, part=AtomRef(task="use.iron_pickaxe"))
    assert not evaluator.evaluate(three, [use, use]).satisfied
    assert evaluator.evaluate(three, [use, use, use]).satisfied
    then = Then(parts=(AtomRef(task="use.iron_pickaxe"), AtomRef(task="use.iron_pickaxe")))
    assert evaluator.evaluate(then, [use, use]).satisfied and not evaluator.evaluate(then, [use]).satisfied


def test_use_atoms_are_the_statistic_not_a_special_meaning(library):
    compass = library.get("use.compass")
    assert (compass.goal.event.value, compass.goal.target, compass.goal.using) == ("use", "compass", None)
    assert compass.goal_only  # reached by what uses a compass: a lodestone
    assert library.get("find the spawn point with a compass").id == "use.return_to_spawn"
    sword = library.get("use.stone_sword")
    assert not sword.goal_only and sword.initialization.main_hand == "stone_sword"  # an action: swing it
    assert "use.clock" not in library.by_id  # nothing in the game uses a clock


@pytest.mark.parametrize(("phrase", "expected"), [
    ("use a torch", "place.torch"),
    ("use an apple", "eat.apple"),
    ("use an iron chestplate", "equip.iron_chestplate"),
    ("use an iron pickaxe", "use.iron_pickaxe"),
    ("use a bucket", "use.bucket"),
    ("craft and use a redstone lamp", "craft.redstone_lamp >> place.redstone_lamp"),
])
def test_use_reads_as_the_statistic(reader, phrase, expected):
    from taskverse.language.reading import render

    assert render(reader.read(phrase).root) == expected


@pytest.mark.parametrize("material", ["wood", "stone", "iron", "gold", "diamond"])
def test_minedojos_tool_kits_start_with_the_five_tools_and_not_the_target(library, reader, material):
    reading = reader.read(f"starting from {material} tools, craft and use a diamond pickaxe")
    start = build_molecule(to_expr(reading.root), library).initialization
    prefix = {"wood": "wooden", "gold": "golden"}.get(material, material)
    kit = {f"{prefix}_{t}" for t in ("axe", "hoe", "pickaxe", "shovel", "sword")}
    held = set(start.inventory) | ({start.main_hand} if start.main_hand else set())
    assert kit <= held and "diamond_pickaxe" not in held or prefix == "diamond"
    assert set(start.inventory) - kit == set()  # the kit is the whole start


def test_craft_and_use_a_stone_sword_is_planned_and_uses_the_new_sword(library):
    plan = plan_task("starting from wood tools, craft and use a stone sword", library)
    assert plan.actions[-2:] == ["craft.stone_sword", "use.stone_sword"] and len(plan.actions) <= 12


def test_the_rule_behind_a_use_reading_is_said(library):
    from taskverse.benchmarks.coverage import coverage

    rows = coverage(["use a torch", "craft and use an iron pickaxe"], library)["lines"]
    assert any("a block is used by placing it" in r for r in rows[0]["rules"])
    assert any("used statistic" in r for r in rows[1]["rules"])
