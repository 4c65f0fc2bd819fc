"""One model, one planner: the engine game's model is a second instance of the text world's rules, and scripted plans
are the one planner's plans over it, played in order.

No engine is needed: these check the model built from the committed registries and the plans made over it.
"""

from __future__ import annotations

import pytest

from taskverse.algebra.expr import AtomRef, naive, ref
from taskverse.algebra.molecule import build_molecule
from taskverse.algebra.semantics import Evaluator
from taskverse.algebra.tracker import Context, GoalTracker
from taskverse.engine.compiler import CompileError, compile_task
from taskverse.engine.harness import Step
from taskverse.engine.model import GameModel, game_model
from taskverse.engine.planner import MOVES, STAND_INS, UNLUCKY, NoPlan, scripted_plan, start_state, tries_for
from taskverse.engine.profile import load_registry
from taskverse.errors import TaskverseError
from taskverse.schema import AtomTask, Goal
from taskverse.world.rules import Rules
from taskverse.world.search import Planner, holdings

GAMES = ("minetest_game", "taskverse_mc")


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_model_is_built_by_the_same_rules_class(library, game):
    model = game_model(game, library.knowledge)
    assert isinstance(model, GameModel)
    assert type(model.rules) is Rules is type(Rules.for_library(library))  # one class, two instances
    assert model.rules is not Rules.for_library(library)
    assert all(isinstance(atom, AtomTask) for atom in model.atoms)  # the library's own atom format
    assert model.rules.actions == sorted(atom.id for atom in model.atoms)  # every atom an action, as in the library
    assert {atom.verb for atom in model.atoms} >= {"find", "mine", "craft", "smelt", "place", "equip", "kill"}


def test_numbers_come_from_the_registry(library):
    model = game_model("minetest_game", library.knowledge)
    rules = model.rules
    registry = load_registry("minetest_game")
    stick = rules.action_index["craft.default:stick"]
    made = {out.count for outputs in rules.way_outputs[stick] for out in outputs}
    assert made == {r.count for r in registry.recipes if r.output == "default:stick" and r.method == "normal"}
    stone = rules.action_index["mine.default:stone"]  # a pickaxe is kept, the stone is found, cobble comes out
    (way,) = rules.ways[stone]
    kept = next(n for n in way if not n.consume and not n.presence)
    assert "default:pick_wood" in {rules.names[m] for m in kept.members} and "default:axe_wood" not in \
        {rules.names[m] for m in kept.members}
    assert [(rules.names[o.resource], o.count) for o in rules.outputs[stone]] == [("default:cobble", 1)]
    iron = rules.action_index["smelt.default:steel_ingot"]
    needs = {rules.names[m] for way in rules.ways[iron] for n in way for m in n.members}
    assert {"default:iron_lump", "default:coal_lump", "default:furnace"} <= needs
    assert "find.default:stone_with_iron" in rules.action_index and model.places["default:stone_with_iron"].y < 0
    assert "minecraft:raw_iron_block" not in game_model("taskverse_mc", library.knowledge).places  # under deepslate


def _independent_plan(model: GameModel, event: str, target: str) -> list[str]:
    """The one planner's plan for one goal from an empty inventory, built here by hand (not by engine.planner)."""
    rules = model.rules
    tracker = GoalTracker(AtomRef(task="goal"), Evaluator({"goal": Goal(event=event, target=target)}), Context())
    start = holdings(rules, rules.new_state({}, [("dimension", "overworld")]))
    plan, _ = Planner(rules, tracker, start, max_expansions=1000).best_plan()
    assert plan is not None
    return [rules.actions[a] for a in plan]


@pytest.mark.parametrize(("game", "atom", "event", "target"), [
    ("minetest_game", "craft.wooden_pickaxe", "craft", "default:pick_wood"),
    ("minetest_game", "obtain.iron_ingot", "obtain", "default:steel_ingot"),
    ("taskverse_mc", "obtain.iron_ingot", "obtain", "minecraft:iron_ingot"),
    ("taskverse_mc", "obtain.flint", "obtain", "minecraft:flint"),
])
def test_a_naive_tasks_steps_follow_the_one_planners_actions(library, game, atom, event, target):
    task = build_molecule(naive(ref(atom)), library)
    scripted = scripted_plan(task, compile_task(task, library, game), library)
    model = game_model(game, library.knowledge)
    assert scripted.actions == _independent_plan(model, event, target)
    # each step plays the planned actions in order (a run of one action is one step with a count); moves say why
    # (a kill's note may go on to say it kills until a drop falls; collecting the drops is the kill's aftermath)
    played = [(s.note or "").split(", until")[0] for s in scripted.plan.steps
              if s.do not in MOVES | STAND_INS and s.do != "collect"]
    assert all(note in model.acts for note in played)
    runs = [a for i, a in enumerate(scripted.actions) if i == 0 or scripted.actions[i - 1] != a]
    assert [n for i, n in enumerate(played) if (i == 0 or played[i - 1] != n) and not n.startswith("find.")] == \
        [a for a in runs if not a.startswith("find.")]
    assert all(s.note and s.note.startswith("teleport") for s in scripted.plan.steps if s.do in MOVES)
    assert all(s.note and s.note.startswith("spawn:") and "standing in for" in s.note
               for s in scripted.plan.steps if s.do in STAND_INS)


def test_what_the_game_lacks_is_named(library):
    task = build_molecule(naive(ref("obtain.nether_star")), library)  # a wither is built, never spawned
    with pytest.raises(NoPlan, match=r"entity minecraft:wither .*spawned where Minecraft spawns it, if the player"):
        scripted_plan(task, compile_task(task, library, "taskverse_mc"), library)


def test_mobs_are_spawned_where_minecraft_spawns_them(library):
    model = game_model("taskverse_mc", library.knowledge)
    assert model.spawns["minecraft:ghast"] == {"nether": ("basalt_deltas", "nether_wastes", "soul_sand_valley")}
    assert model.spawns["minecraft:skeleton"] == {"overworld": (), "nether": ()}  # everywhere in both
    assert "minecraft:giant" not in model.spawns and "minecraft:cow" not in game_model("minetest_game").spawns
    task = build_molecule(naive(ref("obtain.leather")), library)
    scripted = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library)
    # 0-2 leather a cow: three give one with 96% probability (1 - 1/27), so the model kills three
    assert scripted.actions == ["find.minecraft:cow", *["kill.minecraft:cow"] * 3]
    steps = scripted.plan.steps
    assert [s.do for s in steps][:5] == ["goto_biome", "spawn", "wait", "kill", "collect"]
    assert "plains" in (steps[0].biomes or []) and "desert" not in (steps[0].biomes or [])
    assert steps[1].entity == "minecraft:cow"
    assert "standing in for Minecraft's natural spawning" in (steps[1].note or "")
    # leather is a chance drop: the three kills are one step, cows killed (another spawned beside the player for
    # each, where it stands: no travel again) until one drops it
    kills = [s for s in steps if s.do == "kill"]
    assert [(s.item, s.count, s.tries, s.spawn) for s in kills] == [("minecraft:leather", 1, 13, True)]
    assert [s.do for s in steps].count("goto_biome") == 1 and [s.do for s in steps].count("spawn") == 1


def test_a_run_of_kills_travels_once_and_counted_kills_keep_their_count(library):
    def steps(expression, game="taskverse_mc"):
        task = build_molecule(expression, library)
        return scripted_plan(task, compile_task(task, library, game), library).plan.steps

    # five leathers for a helmet: the cows are killed where the first was found, until five leathers are held
    helmet = steps(naive(ref("craft.leather_helmet")))
    assert [s.do for s in helmet].count("goto_biome") == 1
    assert [(s.item, s.count, s.tries) for s in helmet if s.do == "kill"] == [("minecraft:leather", 5, 65)]
    # three zombies, each a part of its own (the start summons one): three kills, the second and third spawned
    # where the player is, which it leaves once (for where zombies spawn), not once a kill
    zombies = steps(3 * ref("combat.zombie"))
    after = zombies[next(i for i, s in enumerate(zombies) if s.do == "kill"):]
    assert [(s.do, s.count, s.item) for s in after if s.do in ("kill", "spawn")] == \
        [("kill", None, None), ("spawn", None, None), ("kill", None, None), ("spawn", None, None), ("kill", None, None)]
    assert sum(1 for s in after if s.do in MOVES) == 1


def test_a_spawned_mob_is_fought_with_the_gear_the_combat_table_asks(library):
    model = game_model("taskverse_mc", library.knowledge)
    rules = model.rules
    golem = rules.ways[rules.action_index["kill.minecraft:iron_golem"]]
    assert golem and all(any("minecraft:diamond_chestplate" in rules.names[m] for n in way for m in n.members)
                         or any("netherite" in rules.names[m] for n in way for m in n.members) for way in golem)
    assert all(any(rules.names[m].endswith("_sword") for n in way for m in n.members) for way in golem)
    task = build_molecule(naive(ref("obtain.iron_ingot")), library)
    scripted = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library)
    assert not any(a.startswith("kill.") for a in scripted.actions), scripted.actions  # iron from ore, not golems
    assert any(a.startswith("mine.") and a.endswith("iron_ore") for a in scripted.actions)


@pytest.mark.parametrize(("atom", "action", "step"), [
    ("place.green_wall_banner", "place.minecraft:green_banner.minecraft:green_wall_banner",
     {"do": "place", "item": "minecraft:green_banner", "wall": True}),
    ("pot.red_tulip", "place.minecraft:red_tulip.minecraft:potted_red_tulip",
     {"do": "place", "item": "minecraft:red_tulip", "on": "minecraft:flower_pot", "radius": 6}),
    ("place.lime_candle_cake", "place.minecraft:lime_candle.minecraft:lime_candle_cake",
     {"do": "place", "item": "minecraft:lime_candle", "on": "minecraft:cake", "radius": 6}),
])
def test_an_item_placed_in_another_form(library, atom, action, step):
    task = library.get(atom)
    scripted = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library)
    assert scripted.actions[-1] == action
    assert scripted.plan.steps[-1].model_dump(exclude_none=True, exclude={"note"}) == step
    rules = game_model("taskverse_mc", library.knowledge).rules
    a = rules.action_index[action]
    assert {rules.names[o.resource] for o in rules.outputs[a]} == {action.rsplit(".", 1)[1]}


@pytest.mark.parametrize(("atom", "steps"), [
    ("harden.green_concrete", [{"do": "place", "item": "minecraft:green_concrete_powder", "beside": "minecraft:water",
                                "radius": 6}]),
    ("dry.dead_brain_coral_block", [{"do": "place", "item": "minecraft:brain_coral_block", "count": 1},
                                    {"do": "wait", "seconds": 13.93, "node": "minecraft:dead_brain_coral_block",
                                     "radius": 6}]),  # until it has died, at most thrice the game's 3.975 s + 2
])
def test_blocks_that_change_once_placed(library, atom, steps):
    task = library.get(atom)
    scripted = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library)
    assert [s.model_dump(exclude_none=True, exclude={"note"}) for s in scripted.plan.steps] == steps
    assert not any(a.endswith((".harden", ".dry")) for a in game_model("minetest_game").acts)  # the generated game's


def test_an_axe_strips_a_placed_log(library):
    model = game_model("taskverse_mc", library.knowledge)
    rules = model.rules
    a = rules.action_index["use.minecraft:stripped_oak_log.strip"]
    (way,) = rules.ways[a]
    assert {rules.names[m] for n in way if n.consume for m in n.members} == {"minecraft:oak_log"}
    assert "minecraft:wooden_axe" in {rules.names[m] for n in way if not n.consume for m in n.members}
    task = build_molecule(naive(ref("obtain.stripped_oak_log")), library)
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    assert [(s.do, s.item or s.node) for s in steps[-3:]] == [
        ("place", "minecraft:oak_log"), ("use", steps[-2].item), ("dig", "minecraft:stripped_oak_log")]
    assert (steps[-2].item or "").endswith("_axe")


def test_shears_on_a_full_bee_nest_give_honeycomb_at_a_nest_of_its_own(library):
    model = game_model("taskverse_mc", library.knowledge)
    rules = model.rules
    shear = rules.action_index["use.minecraft:bee_nest.minecraft:shears"]
    (way,) = rules.ways[shear]
    assert {rules.names[m] for n in way for m in n.members} == {"minecraft:bee_nest", "minecraft:shears"}
    assert not any(n.consume for n in way)  # the nest is found, the shears kept
    assert [(rules.names[o.resource], o.count) for o in rules.way_outputs[shear][0]] == [("minecraft:honeycomb", 3)]
    bottle = rules.ways[rules.action_index["use.minecraft:bee_nest.minecraft:glass_bottle"]][0]
    assert [rules.names[m] for n in bottle if n.consume for m in n.members] == ["minecraft:glass_bottle"]
    # where every tree carries one (honey.yaml), not where 1 in 500 does
    assert model.places["minecraft:bee_nest"].biomes == ("meadow",)
    assert not any(a.startswith("use.minecraft:bee_nest.") for a in game_model("minetest_game").acts)
    task = library.get("obtain.honeycomb_block")
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    uses = [i for i, s in enumerate(steps) if s.do == "use"]
    assert [(steps[i].item, steps[i].node) for i in uses] == [("minecraft:shears", "minecraft:bee_nest")] * 2
    assert all(steps[i - 1].do == "goto_node" for i in uses)  # each at a full nest: the first one is empty
    assert (steps[-1].do, steps[-1].item) == ("craft", "minecraft:honeycomb_block")


@pytest.mark.parametrize(("item", "site", "price"), [("enchanted_bow", "fletching_table", 7),
                                                      ("enchanted_diamond_pickaxe", "smithing_table", 18)])
def test_a_villager_sells_the_enchanted_gear_its_drawn_offer_names(library, item, site, price):
    # trades.yaml's drawn offers: the game's enchanted item (the anvil's), for the offer's lowest price
    rules = game_model("taskverse_mc", library.knowledge).rules
    a = rules.action_index[f"use.minecraft:villager.minecraft:{item}"]
    (way,) = rules.ways[a]
    trading = library.knowledge.mechanisms.trading
    prof, trade = next((p, t) for p in trading.professions for t in p.sells if t.item == item)
    assert sorted((rules.names[n.members[0]], n.count) for n in way if not n.restock) == [
        ("minecraft:emerald", price), (f"minecraft:{site}", 1), ("minecraft:villager", 1),
        (f"xp:{prof.profession}", trading.levels[trade.level])]  # the villager raised to the offer's level
    assert [n.restock for n in way if n.restock] == [trade.uses]  # one of the offer's trades, as the text world's
    task = library.get(f"trade.{item}")  # its start summons the villager and gives the highest price
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    assert [(s.do, s.item) for s in steps] == [("place", f"minecraft:{site}"), ("trade", f"minecraft:{item}")]


def test_a_villager_trades_the_offers_of_its_job_sites_profession(library):
    model = game_model("taskverse_mc", library.knowledge)
    rules = model.rules
    a = rules.action_index["use.minecraft:villager.minecraft:chainmail_chestplate"]
    (way,) = rules.ways[a]  # only a journeyman armorer sells it (trades.yaml): its job site kept, 70 experience
    assert sorted((rules.names[n.members[0]], n.count, n.consume) for n in way if not n.restock) == [
        ("minecraft:blast_furnace", 1, False), ("minecraft:emerald", 4, True), ("minecraft:villager", 1, False),
        ("xp:armorer", 70, False)]
    assert sorted((rules.names[o.resource], o.count) for o in rules.way_outputs[a][0]) == [
        ("minecraft:chainmail_chestplate", 1), ("xp:armorer", 10)]  # the trade's experience
    emerald = rules.action_index["use.minecraft:villager.minecraft:emerald"]  # what villagers buy
    assert {rules.names[n.members[0]]: n.count for w in rules.ways[emerald] for n in w}["minecraft:coal"] == 15
    assert not any(".minecraft:villager." in a or a.startswith("use.default:villager") for a in
                   game_model("minetest_game").acts)
    task = library.get("trade.chainmail_chestplate")  # its start summons the villager
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    assert [(s.do, s.item) for s in steps] == [("place", "minecraft:blast_furnace"),
                                               ("trade", "minecraft:chainmail_chestplate")]
    task = build_molecule(naive(ref("trade.chainmail_chestplate")), library)  # from scratch: spawned
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    spawn = next(i for i, s in enumerate(steps) if s.do == "spawn")
    assert [s.do for s in steps[spawn - 2:spawn + 4]] == ["home", "goto_biome", "spawn", "wait", "place", "trade"]
    assert "standing in for" in (steps[spawn].note or "")
    # the armorer raised to a journeyman by trades with the one villager: its job site placed once, each later
    # trade back at it (from the start, the same travel), the chestplate last
    met = [(s.do, s.entity or s.item) for s in steps if s.do in ("spawn", "place")]
    assert [m for m in met if m[1] in ("minecraft:villager", "minecraft:blast_furnace")] == [
        ("spawn", "minecraft:villager"), ("place", "minecraft:blast_furnace")]
    trades = [i for i, s in enumerate(steps) if s.do == "trade"]
    assert len(trades) > 1 and steps[trades[-1]].item == "minecraft:chainmail_chestplate"
    for i in trades[1:]:
        if steps[i - 1].do != "trade":
            assert [(s.do, s.node or s.entity) for s in steps[i - 3:i]] == [
                ("goto_biome", None), ("goto_node", "minecraft:blast_furnace"), ("wait", "minecraft:villager")]
            moves = [s.do for s in steps[:i - 3] if s.do in ("home", "goto_biome", "goto_node", "move", "loot")]
            assert moves[-1] == "home"  # from the start, as the villager was spawned
    # the furnace the cooking set up at the start is dug back for the blast furnace's recipe
    craft = next(i for i, s in enumerate(steps) if (s.do, s.item) == ("craft", "minecraft:blast_furnace"))
    assert (steps[craft - 1].do, steps[craft - 1].node) == ("dig", "minecraft:furnace")
    assert model.digs("minecraft:furnace", steps[craft - 1].tool or "")


def test_a_block_from_the_start_is_taken_along_to_a_biome_a_constraint_asks_for(library):
    task = build_molecule(ref("mine.oak_door").at(where="snowy_plains"), library)
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    assert [(s.do, s.node or s.item) for s in steps] == [
        ("home", None), ("dig", "minecraft:oak_door"), ("goto_biome", None), ("place", "minecraft:oak_door"),
        ("dig", "minecraft:oak_door")]
    assert "take along" in (steps[1].note or "") and (steps[0].note or "").startswith("teleport")


def test_chance_lines_of_one_item_are_not_sure(library):
    """A dead bush's two 1-in-2 sticks: a stick 3 times in 4 (dug until held), not a sure stick."""
    model = game_model("taskverse_mc", library.knowledge)
    (stick,) = [y for y in model.drop_yields("minecraft:dead_bush", "") if y.name == "minecraft:stick"]
    assert (stick.count, stick.chance) == (1, 0.75)


def test_constraints_set_up_before_each_action_that_counts(library):
    task = build_molecule(ref("craft.oak_planks") >> ref("craft.stick").at(when="night"), library)
    steps = scripted_plan(task, compile_task(task, library), library).plan.steps
    assert [s.do for s in steps] == ["craft", "time", "craft"] and steps[1].of_day == "night"
    task = build_molecule((2 * ref("mine.stone")).at(where="cave"), library)
    steps = scripted_plan(task, compile_task(task, library), library).plan.steps
    # each part in the cave: the stone near the start, then another found from down there
    assert [s.do for s in steps] == ["move", "dig", "move", "goto_node", "dig"]


@pytest.mark.parametrize(("atom", "do", "item", "chance"), [
    ("obtain.flint", "dig", "minecraft:flint", 0.1),  # gravel: flint one time in ten
    ("obtain.ghast_tear", "kill", "minecraft:ghast_tear", 0.5),  # a ghast drops 0..1 tears
    ("obtain.bone", "kill", "minecraft:bone", 2 / 3),  # a skeleton drops 0..2 bones
])
def test_a_chance_drop_gets_tries_enough_that_bad_luck_is_one_in_a_million(library, atom, do, item, chance):
    task = build_molecule(naive(ref(atom)), library)
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    (step,) = [s for s in steps if s.do == do and s.item == item]
    assert step.tries == tries_for(chance, step.count or 1)
    assert (1 - chance) ** step.tries <= UNLUCKY < (1 - chance) ** (step.tries - 1)


def test_tries_need_the_item_they_are_for():
    with pytest.raises(ValueError, match="tries only with item"):
        Step(do="dig", node="minecraft:gravel", tries=10)


def test_an_underground_biome_is_found_by_going_down_into_it(library):
    model = game_model("taskverse_mc", library.knowledge)
    assert model.underground("dripstone_caves") and not model.underground("savanna")
    assert not model.underground("nether_wastes")  # another dimension's layer, not under the ground
    task = library.get("find.dripstone_caves")
    (step,) = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    biome = model.registry.biomes["dripstone_caves"]
    assert step.do == "goto_biome" and step.biomes == ["dripstone_caves"]
    assert step.y is not None and step.vertical is not None
    assert biome.y_min <= step.y - step.vertical and step.y + step.vertical <= biome.y_max
    assert step.note and "into the rock" in step.note


def test_a_find_in_a_biome_travels_to_a_node_in_that_biome(library):
    task = build_molecule(ref("find.copper_ore").at(where="taiga"), library)
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    assert [s.do for s in steps] == ["goto_biome", "goto_node"]
    assert steps[0].biomes == steps[1].biomes == ["taiga"]  # the nearest ore may lie under the next biome
    unconstrained = scripted_plan(library.get("find.copper_ore"), compile_task(library.get("find.copper_ore"),
                                                                               library, "taskverse_mc"), library)
    assert all(s.biomes is None for s in unconstrained.plan.steps if s.do == "goto_node")


def test_the_brewing_stand_brews_the_knowledges_recipes(library):
    """Every mix of ``brewing.yaml`` is a way of its result, with blaze powder burnt and the stand near or held."""
    table = library.knowledge.mechanisms.brewing
    rules = game_model("taskverse_mc", library.knowledge).rules

    def ways(potion: str) -> set[tuple[str, ...]]:
        a = rules.action_index[f"brew.minecraft:{potion}"]
        return {tuple(sorted(rules.names[n.members[0]] for n in way if n.consume for _ in range(n.count)))
                for way in rules.ways[a]}

    for mix in table.mixes:
        base, result = table.name(mix.base), table.name(mix.result)
        burnt = ("minecraft:blaze_powder",) * (1 if mix.ingredient != "blaze_powder" else 2)
        expected = tuple(sorted((f"minecraft:{base}", *burnt, *([f"minecraft:{mix.ingredient}"]
                                                                 if mix.ingredient != "blaze_powder" else []))))
        assert expected in ways(result), (mix, ways(result))
        if mix.base == "water":  # a filled bottle is minecraft:potion, Minecraft's own water bottle
            assert tuple(sorted(x if x != f"minecraft:{base}" else "minecraft:potion" for x in expected)) in \
                ways(result)
    for potion in table.potions:  # gunpowder makes every potion a splash potion
        assert tuple(sorted((f"minecraft:{table.name(potion.id)}", "minecraft:blaze_powder", "minecraft:gunpowder"))) \
            in ways(table.name(potion.id, "splash_potion"))
    a = rules.action_index["brew.minecraft:awkward_potion"]
    stations = {(rules.names[n.members[0]], n.presence) for way in rules.ways[a] for n in way if not n.consume}
    assert stations == {("minecraft:brewing_stand", True), ("minecraft:brewing_stand", False)}
    assert not any(a.startswith(("brew.", "use.minecraft:potion.fill")) for a in game_model("minetest_game").acts)


def test_a_bottle_filled_at_water_is_brewed_at_the_stand(library):
    task = build_molecule(naive(ref("brew.awkward_potion")), library)
    scripted = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library)
    # the bottle is filled at the overworld's water before the trip to the nether, then brewed with its wart
    assert scripted.actions[-2:] == ["mine.minecraft:nether_wart", "brew.minecraft:awkward_potion"]
    assert scripted.actions.index("use.minecraft:potion.fill") < scripted.actions.index("enter.nether")
    steps = [s.model_dump(exclude_none=True, exclude={"note"}) for s in scripted.plan.steps]
    fill_at = steps.index({"do": "use", "item": "minecraft:glass_bottle", "node": "minecraft:water", "radius": 6})
    assert steps[fill_at - 1] == {"do": "goto_node", "node": "minecraft:water", "radius": 32, "vertical": 12}
    assert steps[-2:] == [
        {"do": "home"},
        {"do": "brew", "item": "minecraft:potion", "ingredient": "minecraft:nether_wart",
         "fuel": "minecraft:blaze_powder", "count": 1}]
    assert "craft.minecraft:brewing_stand" in scripted.actions
    fill = library.get("fill.water_bottle")  # the library's fill goal: the bottle used on the water near the start
    (step,) = scripted_plan(fill, compile_task(fill, library, "taskverse_mc"), library).plan.steps
    assert step.model_dump(exclude_none=True, exclude={"note"}) == steps[fill_at]
    with pytest.raises(ValueError, match="brew needs ingredient"):
        Step(do="brew", item="minecraft:potion")


def test_a_hoe_tills_the_ground_a_shovel_flattens_a_path_and_shears_carve_a_pumpkin(library):
    table = library.knowledge.mechanisms.tool_uses
    assert {g.verb for g in table.groups} == {"till", "flatten", "carve"}
    model = game_model("taskverse_mc", library.knowledge)
    rules = model.rules
    for group in table.groups:
        for pair in group.pairs:
            a = rules.action_index[f"use.minecraft:{pair.becomes}.{group.verb}.{pair.block}"]
            (way,) = rules.ways[a]
            kept = {rules.names[m] for n in way if not n.consume and not n.presence for m in n.members}
            assert kept == {f"minecraft:{t}" for t in library.knowledge.tags.get(group.tools, [group.tools])}
            assert [rules.names[o.resource] for o in rules.outputs[a]] == [
                f"minecraft:{pair.becomes}", *(f"minecraft:{i}" for i in pair.drops)]  # a pumpkin's seeds
    task = library.get("use.till_land")  # the library's goal: a hoe used on grass, played as the game tills it
    (step,) = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    assert step.model_dump(exclude_none=True, exclude={"note"}) == {
        "do": "use", "item": "minecraft:wooden_hoe", "node": "minecraft:grass_block", "radius": 6}
    assert not any(".till." in a for a in game_model("minetest_game").acts)


def test_an_animal_is_fed_each_food_the_breeding_table_gives_it(library):
    model = game_model("taskverse_mc", library.knowledge)
    rules = model.rules
    table = library.knowledge.mechanisms.breeding
    pig_foods = next(b.food for b in table.breeding if b.animal == "pig")
    fed = {a.split(".", 2)[2] for a in rules.actions if a.startswith("use.minecraft:pig.minecraft:")}
    assert fed == {f"minecraft:{f}" for f in pig_foods}
    horse = {a.split(".", 2)[2] for a in rules.actions if a.startswith("use.minecraft:horse.minecraft:")}
    assert {"minecraft:wheat", "minecraft:golden_carrot"} <= horse  # its other food, and its breeding food
    a = rules.action_index["use.minecraft:pig.minecraft:carrot"]
    (way,) = rules.ways[a]
    pig, carrot = (next(n for n in way if rules.names[n.members[0]] == x) for x in ("minecraft:pig",
                                                                                 "minecraft:carrot"))
    assert pig.presence and not pig.consume and carrot.consume  # the pig stays, the carrot is eaten
    assert rules.goals[a].using == "minecraft:carrot"  # the use on the pig is done holding the carrot
    assert not rules.outputs[a]
    axolotl = rules.action_index["use.minecraft:axolotl.minecraft:tropical_fish_bucket"]
    assert [rules.names[o.resource] for o in rules.outputs[axolotl]] == ["minecraft:water_bucket"]  # given back
    assert not any(n.startswith("use.default:") and n.count(".") > 1 and not n.endswith(".dig")  # a tool's dig
                   for n in game_model("minetest_game").rules.actions)


@pytest.mark.parametrize(("atom", "food", "mob"), [
    ("breed.pig", "minecraft:beetroot", "minecraft:pig"),
    ("breed.mule", "minecraft:golden_carrot", "minecraft:horse"),  # the start's breeding food, not wheat
    ("tame.ocelot", "minecraft:cod", "minecraft:ocelot"),
    ("feed.horse", "minecraft:sugar", "minecraft:horse"),  # the start's food: any the horse eats
    ("breed.cow", "minecraft:wheat", "minecraft:cow"),  # `using`: the food asked for
])
def test_feeding_plays_the_food_used_on_the_animal(library, atom, food, mob):
    task = library.get(atom)
    scripted = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library)
    uses = [s for s in scripted.plan.steps if s.do == "use"]
    count = task.metrics.success.count
    assert scripted.actions == [f"use.{mob}.{food}"] * count
    assert [(s.item, s.entity, s.secondary) for s in uses] == [(food, mob, True)] * count


def test_a_naive_breeding_spawns_two_animals_and_feeds_each(library):
    task = build_molecule(naive(ref("breed.pig")), library)
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    fed = [i for i, s in enumerate(steps) if s.do == "use"]
    spawned = [i for i, s in enumerate(steps) if s.do == "spawn"]
    assert len(fed) == 2 and len(spawned) == 2 and spawned[0] < fed[0] < spawned[1] < fed[1]
    assert all("natural spawning" in (steps[i].note or "") for i in spawned)


def test_of_two_unlocked_offers_the_model_takes_the_first_in_the_list_as_the_game_does(library):
    # trading.lua's _taskverse_trade takes the first offer of the item the villager has unlocked and whose price the
    # player holds; the model takes the first way whose needs are met: the ways are the offers, in the game's order
    from taskverse.engine.gamegen.content import trading

    model = game_model("taskverse_mc", library.knowledge)
    rules = model.rules
    emerald = rules.action_index["use.minecraft:villager.minecraft:emerald"]
    prices = [tuple(rules.names[n.members[0]] for n in way if n.consume and not n.restock)
              for way in rules.ways[emerald]]
    offers = [tuple(p["item"] for p in o["price"]) for prof in trading(library.knowledge)["professions"]
              for o in prof["offers"] if o["gives"] == "minecraft:emerald"]
    assert prices == offers
    # a farmer's two novice offers, both held: 20 wheat and 15 beetroots for an emerald each; the first is taken
    state = rules.new_state({"minecraft:composter": 1, "minecraft:wheat": 20, "minecraft:beetroot": 15},
                            [("entity", "minecraft:villager")])
    rules.act(state, emerald)
    held = {n: state.counts[rules.index[("item", n)]] for n in ("minecraft:wheat", "minecraft:beetroot")}
    assert held == {"minecraft:wheat": 0, "minecraft:beetroot": 15}


def test_an_offer_locks_after_its_uses_and_another_villager_makes_more_as_in_the_text_world(library):
    # trades.yaml's uses (maxUses): a librarian's bookshelf 12, a farmer's 20 wheat 16. The game's villager counts
    # each offer's trades (trading.lua); the model's villager met gives each offer's, counted per way of the one
    # trade atom (an emerald for wheat apart from an emerald for potatoes)
    rules = game_model("taskverse_mc", library.knowledge).rules
    villager = [("entity", "minecraft:villager")]
    shelf = rules.action_index["use.minecraft:villager.minecraft:bookshelf"]
    state = rules.new_state({"minecraft:lectern": 1, "minecraft:emerald": 9 * 13}, villager)
    for _ in range(12):
        rules.act(state, shelf)
    assert not state.mask[shelf]
    with pytest.raises(TaskverseError, match="locked"):
        rules.act(state, shelf)
    rules.act(state, rules.action_index["find.minecraft:villager"])  # another villager
    rules.act(state, shelf)
    assert state.counts[rules.index[("item", "minecraft:bookshelf")]] == 13
    emerald = rules.action_index["use.minecraft:villager.minecraft:emerald"]
    state = rules.new_state({"minecraft:composter": 1, "minecraft:wheat": 20 * 17, "minecraft:potato": 26}, villager)
    for _ in range(16):
        rules.act(state, emerald)
    rules.act(state, emerald)  # the wheat offer locked: the potato offer, still open, is taken
    held = {n: state.counts[rules.index[("item", n)]] for n in ("minecraft:wheat", "minecraft:potato")}
    assert held == {"minecraft:wheat": 20, "minecraft:potato": 0}
    # a start that summons two villagers has each offer twice
    task = library.get("trade.bookshelf")
    task = task.model_copy(update={"initialization": task.initialization.model_copy(update={
        "summon": [s.model_copy(update={"count": 2}) for s in task.initialization.summon]})})
    state = start_state(game_model("taskverse_mc", library.knowledge), compile_task(task, library, "taskverse_mc"))
    stock = next(n for n in rules.ways[shelf][0] if n.restock)
    assert state.counts[stock.members[0]] == 24


def test_a_chicken_lays_an_egg_the_player_waits_beside_it_for(library):
    # Minecraft Wiki, Chicken: an adult lays an egg every 6000 to 12000 ticks (husbandry.yaml's laying)
    model = game_model("taskverse_mc", library.knowledge)
    rules = model.rules
    lay = rules.action_index["use.minecraft:chicken.lay"]
    (way,) = rules.ways[lay]
    assert [(rules.names[n.members[0]], n.consume) for n in way] == [("minecraft:chicken", False)]
    assert [rules.names[o.resource] for o in rules.outputs[lay]] == ["minecraft:egg"]
    goal = next(t for t in model.atoms if t.id == "use.minecraft:chicken.lay").metrics.success
    assert (goal.event, goal.target) == ("obtain", "minecraft:egg")
    task = build_molecule(naive(ref("obtain.egg")), library)
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    assert steps[-1].model_dump(exclude_none=True, exclude={"note"}) == {
        "do": "tend", "entity": "minecraft:chicken", "item": "minecraft:egg", "count": 1}


def test_a_bucket_is_filled_at_a_source_or_with_milk_from_an_animal(library):
    rules = game_model("taskverse_mc", library.knowledge).rules
    for liquid in ("water", "lava", "powder_snow"):
        (way,) = rules.ways[rules.action_index[f"use.minecraft:{liquid}_bucket.fill"]]
        assert {(rules.names[n.members[0]], n.consume) for n in way} == {("minecraft:bucket", True),
                                                                         (f"minecraft:{liquid}", False)}
    milk = rules.action_index["use.minecraft:cow.minecraft:bucket"]
    assert [rules.names[o.resource] for o in rules.outputs[milk]] == ["minecraft:milk_bucket"]
    task = build_molecule(naive(ref("obtain.milk_bucket")), library)
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    assert steps[-1].model_dump(exclude_none=True, exclude={"note"}) == {
        "do": "use", "item": "minecraft:bucket", "entity": "minecraft:cow", "secondary": True}


def test_a_pickaxe_is_enchanted_for_silk_touch_as_the_library_has_it(library):
    model = game_model("taskverse_mc", library.knowledge)
    rules = model.rules
    a = rules.action_index["use.minecraft:silk_touch_diamond_pickaxe.enchant"]
    (way,) = rules.ways[a]
    needs = {(n.consume, tuple(rules.names[m] for m in n.members), n.count) for n in way}
    assert needs == {(True, ("minecraft:diamond_pickaxe",), 1), (True, ("minecraft:lapis_lazuli",), 3),
                     (False, ("minecraft:enchanting_table",), 1), (False, ("minecraft:bookshelf",), 15),
                     (False, ("minecraft:grindstone",), 1)}
    made = {rules.names[o.resource]: o.chance for o in rules.way_outputs[a][0]}
    atom = library.get("enchant.silk_touch_diamond_pickaxe")
    assert made == {f"minecraft:{y.name}": y.chance for y in atom.yields}
    # a Silk Touch pickaxe digs a sculk sensor (no pickaxe block) as the hand does, and gets the sensor
    sensor = rules.action_index["mine.minecraft:sculk_sensor.minecraft:silk_touch_diamond_pickaxe"]
    assert [rules.names[o.resource] for o in rules.way_outputs[sensor][0]] == ["minecraft:sculk_sensor"]


def test_a_tool_doing_its_work_is_used_as_the_runtime_logs_it(library):
    """A node dug with a tool that digs it, a mob killed with a weapon: a use of it (the runtime's ``use`` events,
    Minecraft's ``used`` statistic). An item only held, or a Silk Touch pickaxe digging glass as the hand does: none.
    """
    rules = game_model("taskverse_mc", library.knowledge).rules
    pickaxes = {f"minecraft:{m}_pickaxe" for m in ("wooden", "stone", "iron", "golden", "diamond", "netherite")}
    stone = rules.action_index["mine.minecraft:stone"]
    # a pickaxe the anvil named or enchanted (anvil.yaml) digs as its pickaxe does: its own use
    anvils = {f"minecraft:{how}_{p.split(':')[1]}" for p in pickaxes for how in ("named", "enchanted")}
    assert rules.use_keys[stone] == {("use", p) for p in pickaxes | anvils}
    (way,) = rules.ways[stone]
    kept = next(n for n in way if not n.consume and not n.presence)
    pickaxe = rules.resource("item", "minecraft:stone_pickaxe")
    used = [pickaxe if n is kept else n.members[0] for n in way]
    assert ("use", "minecraft:stone_pickaxe", 1) in [e[:3] for e in rules.events(stone, 0, used, [])]
    zombie = rules.action_index["kill.minecraft:zombie"]
    assert ("use", "minecraft:stone_sword") in rules.use_keys[zombie]
    assert not any(key[1].endswith(("_helmet", "_chestplate")) for key in rules.use_keys[zombie])  # armour: no use
    assert not rules.use_keys[rules.action_index["equip.minecraft:stone_pickaxe"]]  # held in hand, nothing put on
    assert not rules.use_keys[rules.action_index["mine.minecraft:glass.minecraft:silk_touch_diamond_pickaxe"]]
    assert rules.worn == frozenset()


def test_use_of_a_tool_is_one_dig_with_it_and_enchanting_is_the_tables_use(library):
    """``use.<tool>.dig``: a generated node the tool digs, dug with that tool in hand (the mine atoms dig with the
    first tool held, as the library's rules do, so the library's ``use.<tool>`` is an action of its own too)."""
    model = game_model("taskverse_mc", library.knowledge)
    rules = model.rules
    a = rules.action_index["use.minecraft:stone_pickaxe.dig"]
    (way,) = rules.ways[a]
    nodes = {rules.names[m] for n in way if n.presence for m in n.members}
    assert {"minecraft:stone", "minecraft:deepslate"} <= nodes and "minecraft:obsidian" not in nodes
    assert all(model.digs(node, "minecraft:stone_pickaxe") and node in model.places for node in nodes)
    assert [rules.names[m] for n in way if not n.presence for m in n.members] == ["minecraft:stone_pickaxe"]
    assert rules.use_keys[a] == {("use", "minecraft:stone_pickaxe")} and not rules.outputs[a]
    enchant = rules.action_index["use.minecraft:silk_touch_stone_pickaxe.enchant"]  # the table's use, held the pickaxe
    assert (rules.goals[enchant].target, rules.goals[enchant].using) == (
        "minecraft:enchanting_table", "minecraft:stone_pickaxe")
    for tool in ("stone_pickaxe", "iron_pickaxe", "stone_sword"):
        task = library.get(f"use.{tool}")
        steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
        assert [(s.do, s.tool) for s in steps if s.do in ("dig", "kill", "enchant")] == [
            ("dig", f"minecraft:{tool}")], tool
        assert len(steps) <= 3, tool  # the tool is held from the start: travel to a node it digs, and dig it


def test_a_bow_is_used_when_it_shoots_and_a_trident_or_rod_when_thrown_or_cast(library):
    """The generated game counts these uses when they happen (shooting.yaml, throwing.yaml, hooking.yaml): a bow
    shot uses up an arrow, a thrown trident and a cast rod need only themselves in hand. A carrot on a stick boosts a
    ridden pig, which nothing does in the game: no way to use it.
    """
    rules = game_model("taskverse_mc", library.knowledge).rules
    (way,) = rules.ways[rules.action_index["use.minecraft:bow"]]
    used_up = {rules.names[m] for n in way if n.consume for m in n.members}
    assert used_up == {"minecraft:arrow", "minecraft:spectral_arrow", "minecraft:tipped_arrow"}
    for item in ("minecraft:trident", "minecraft:fishing_rod"):
        (way,) = rules.ways[rules.action_index[f"use.{item}"]]
        assert not any(n.consume for n in way), item
    assert "use.minecraft:carrot_on_a_stick" not in rules.action_index
    for task_id in ("use.shoot_bow", "use.trident", "use.fishing_rod"):
        task = library.get(task_id)
        steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
        assert [s.do for s in steps] == ["use"], task_id  # the start holds the item (and the arrow)
    bow = library.get("use.bow")  # its start holds the bow only: an arrow is got first
    steps = scripted_plan(bow, compile_task(bow, library, "taskverse_mc"), library).plan.steps
    assert steps[-1].do == "use" and steps[-1].item == "minecraft:bow" and len(steps) > 1


def test_enchanting_tries_are_one_step_until_the_silk_touch_tool_is_held(library):
    task = build_molecule(naive(ref("obtain.deepslate_coal_ore")), library)
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    (enchant,) = [s for s in steps if s.do == "enchant"]
    chance = game_model("taskverse_mc").enchanting["tools"][0]["chance"]
    assert (enchant.tool, enchant.item, enchant.count) == (
        "minecraft:wooden_pickaxe", "minecraft:silk_touch_wooden_pickaxe", 1)
    assert enchant.tries == tries_for(chance, 1)
    at = steps.index(enchant)
    # lapis for every try it may take: the last lapis ore dig goes on until 3 lapis a try are held
    lapis = [s for s in steps[:at] if s.do == "dig" and s.node == "minecraft:deepslate_lapis_ore"]
    assert lapis[-1].item == "minecraft:lapis_lazuli"
    assert sum(s.count or 1 for s in lapis[:-1]) * 4 + (lapis[-1].count or 0) >= 3 * enchant.tries
    shelves = [s.at for s in steps[:at] if s.do == "place" and s.item == "minecraft:bookshelf"]
    assert len(shelves) == 15 and all(max(abs(x), abs(z - 6)) == 2 and y == 0 for x, y, z in shelves)
    assert (steps[-1].do, steps[-1].node, steps[-1].tool) == (
        "dig", "minecraft:deepslate_coal_ore", "minecraft:silk_touch_wooden_pickaxe")


def test_a_structures_chest_gives_its_loot_tables_chances(library):
    """taskverse_mc's stand-ins: a buried treasure's chest holds a heart of the sea, a bastion's a snout template
    one time in twelve (structure_loot.yaml: one roll of a pool weighing 12), so the player opens bastions until
    one holds it."""
    model = game_model("taskverse_mc", library.knowledge)
    rules = model.rules
    treasure = rules.action_index["interact.minecraft:structure_buried_treasure"]
    assert [(o.resource, o.at_least_one) for o in rules.way_outputs[treasure][0]] == \
        [(model.item("minecraft:heart_of_the_sea"), 1.0)]
    assert model.structures["minecraft:structure_bastion_remnant_looted"] == "bastion_remnant"
    assert "interact.minecraft:structure_village" not in rules.action_index  # villages are not generated
    task = library.get("obtain.snout_armor_trim_smithing_template")
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    (loot,) = [s for s in steps if s.do == "loot"]
    assert loot.node == "minecraft:structure_bastion_remnant"
    assert loot.item == "minecraft:snout_armor_trim_smithing_template"
    assert loot.tries == tries_for(1 / 12, 1)
    assert [s.do for s in steps].index("interact") < [s.do for s in steps].index("loot")  # into the Nether first


def test_structures_are_found_where_the_game_places_them(library):
    ir = compile_task(library.get("find.desert_pyramid"), library, "taskverse_mc")
    assert ir.trackers.find.nodes == ["minecraft:structure_desert_pyramid", "minecraft:structure_desert_pyramid_looted"]
    with pytest.raises(CompileError, match="minetest_game does not generate desert_pyramid"):
        compile_task(library.get("find.desert_pyramid"), library, "minetest_game")
    with pytest.raises(CompileError, match="does not generate village"):
        compile_task(library.get("find.village"), library, "taskverse_mc")  # villages are another mechanism


def test_a_block_a_structures_stand_in_holds_is_found_there(library):
    model = game_model("taskverse_mc", library.knowledge)
    assert set(model.places["minecraft:red_bed"].biomes) == {"snowy_plains", "snowy_slopes", "snowy_taiga"}  # igloos
    assert model.places["minecraft:chest"].dimension is None  # an overworld structure's, not a bastion's
    assert model.places["minecraft:nether_bricks"].dimension == "nether"  # a nether fortress's
    task = library.get("find.tnt")
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    # a desert pyramid's treasure room, or a woodland mansion's (the 1.20.1 templates hold TNT in both)
    assert [(s.do, s.biomes or s.node) for s in steps] == [("goto_biome", ["desert", "dark_forest"]),
                                                           ("goto_node", "minecraft:tnt")]


def test_a_smelt_cooks_at_the_furnace_the_player_set_up(library):
    """A smelt cooks at the start, at a furnace the player made: an igloo's furnace is found, not used (the model's
    finds of what only structures hold yield nothing, as the library's)."""
    task = library.get("obtain.iron_ingot")
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    cook = [i for i, s in enumerate(steps) if s.do == "cook"]
    for i in cook:
        before = next(s for s in reversed(steps[:i]) if s.do in MOVES)
        assert before.do == "home" or (before.do == "goto_node" and before.node == "minecraft:furnace")
        if before.do == "home":
            assert any(s.do == "craft" and s.item == "minecraft:furnace" for s in steps[:i])


def test_the_end_is_entered_through_a_strongholds_portal_with_twelve_eyes(library):
    model = game_model("taskverse_mc", library.knowledge)
    task = library.get("enter.end")
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    assert [s.do for s in steps] == ["goto_biome", "goto_node", *["use"] * 12, "interact", "wait"]
    assert steps[1].node == "minecraft:structure_stronghold"
    assert {(s.item, s.node) for s in steps if s.do == "use"} == {("minecraft:ender_eye", "minecraft:end_portal_frame")}
    assert steps[-2].node == "minecraft:end_portal"
    assert "find.minecraft:chorus_flower" in model.rules.action_index  # the End's blocks, from scratch
    task = library.get("obtain.chorus_flower")
    plan = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library)
    assert "enter.end" in plan.actions and "craft.minecraft:ender_eye" in plan.actions


def test_a_trail_ruins_suspicious_gravel_is_brushed_for_its_archaeology_table(library):
    model = game_model("taskverse_mc", library.knowledge)
    rules = model.rules
    brushed = rules.action_index["use.minecraft:structure_trail_ruins.brush"]
    shaper = model.item("minecraft:shaper_armor_trim_smithing_template")
    assert {o.resource: round(o.at_least_one, 6) for o in rules.way_outputs[brushed][0]}[shaper] == round(1 / 12, 6)
    task = library.get("obtain.shaper_armor_trim_smithing_template")
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    (loot,) = [s for s in steps if s.do == "loot"]
    assert (loot.node, loot.tool, loot.on) == ("minecraft:structure_trail_ruins", "minecraft:brush",
                                               "minecraft:suspicious_gravel")
    assert loot.item == "minecraft:shaper_armor_trim_smithing_template" and loot.tries == tries_for(1 / 12, 1)


def test_a_model_read_back_from_the_cache_is_the_model_built(library, monkeypatch):
    """The project's knowledge gets its game model from the cache after the first build; any other knowledge never."""
    import copy

    from taskverse.engine import model as engine_model

    other = copy.copy(library.knowledge)  # the same facts in another object: built, never cached
    with monkeypatch.context() as patch:
        patch.setattr(engine_model, "_MODELS", {})
        patch.setattr(engine_model, "_remembered_model", lambda *a: pytest.fail("another knowledge was cached"))
        built = game_model("minetest_game", other)
    assert built.kn is other
    for _ in range(2):  # the first may build and keep it, the second reads it back
        monkeypatch.setattr(engine_model, "_MODELS", {})
        kept = game_model("minetest_game", library.knowledge)
        assert kept is not built and kept.kn is library.knowledge
        assert [a.model_dump() for a in kept.atoms] == [a.model_dump() for a in built.atoms]
        assert kept.rules.resources == built.rules.resources and kept.rules.ways == built.rules.ways
        assert kept.places == built.places and kept.acts == built.acts


def test_a_wandering_trader_sells_an_offer_by_the_chance_its_draw_holds_it(library):
    """5 of the 64 generic offers and 1 of the 6 rare ones (trades.yaml), tried trader after trader."""
    model = game_model("taskverse_mc", library.knowledge)
    rules = model.rules
    for item, emeralds, count, chance in (("podzol", 3, 3, 1 / 6), ("sand", 1, 8, 5 / 64)):
        a = rules.action_index[f"use.minecraft:wandering_trader.minecraft:{item}"]
        (way,) = rules.ways[a]
        assert sorted((rules.names[n.members[0]], n.count, n.consume) for n in way) == [
            ("minecraft:emerald", emeralds, True), ("minecraft:wandering_trader", 1, False)]
        (out,) = rules.way_outputs[a][0]
        assert (rules.names[out.resource], out.count, out.chance) == (f"minecraft:{item}", count, round(chance, 6))
    assert not any(a.startswith("use.minecraft:wandering_trader.") for a in game_model("minetest_game").acts)
    task = library.get("trade.podzol")  # its start summons one trader and gives the price of one try
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    assert steps[0].model_dump(exclude_none=True, exclude={"note"}) == {
        "do": "trade", "entity": "minecraft:wandering_trader", "item": "minecraft:podzol", "count": 1,
        "tries": tries_for(1 / 6, 1), "spawn": True}


def test_a_cut_is_made_at_the_stonecutter_the_start_gives(library):
    model = game_model("taskverse_mc", library.knowledge)
    rules = model.rules
    a = rules.action_index["craft.minecraft:andesite_slab.cut"]
    assert {tuple(sorted((rules.names[n.members[0]], n.consume) for n in way)) for way in rules.ways[a]} == {
        (("minecraft:andesite", True), ("minecraft:stonecutter", False))}
    assert len(rules.ways[a]) == 2  # the stonecutter standing near the player, or held
    assert [o.count for o in rules.way_outputs[a][0]] == [2]  # a slab is 2 of a full block
    assert not any(a.endswith(".cut") for a in game_model("minetest_game").acts)
    task = library.get("stonecut.andesite_slab")
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    assert [s.model_dump(exclude_none=True, exclude={"note"}) for s in steps] == [
        {"do": "cut", "item": "minecraft:andesite_slab", "node": "minecraft:stonecutter", "count": 1}]


@pytest.mark.parametrize(("task_id", "made", "needs"), [
    ("rename.name_tag", "craft.minecraft:named_name_tag.anvil", {"minecraft:name_tag"}),
    ("combine.iron_sword", "craft.minecraft:enchanted_iron_sword.anvil",
     {"minecraft:iron_sword", "minecraft:enchanted_book"}),
    ("repair.iron_pickaxe", "use.minecraft:iron_pickaxe.repair", {"minecraft:iron_ingot"}),
])
def test_the_anvils_work_is_done_at_the_anvil_the_start_gives(library, task_id, made, needs):
    model = game_model("taskverse_mc", library.knowledge)
    rules = model.rules
    a = rules.action_index[made]
    used = [{rules.names[m] for n in way if n.consume for m in n.members} for way in rules.ways[a]]
    assert needs in used  # what the text world's atom takes (a repair: a unit of the material, the item kept)
    assert all(any("minecraft:anvil" in {rules.names[m] for m in n.members} and not n.consume for n in way)
               for way in rules.ways[a])  # the anvil kept, standing near the player or held
    assert not any(a.endswith((".anvil", ".repair")) for a in game_model("minetest_game").acts)
    task = library.get(task_id)
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    item = made.split(".")[1]
    # a repair is the anvil used holding the item: the scripted player wields it (not the material, which the
    # anvil would report instead)
    wield = [{"do": "wield", "item": item}] if made.endswith(".repair") else []
    assert [s.model_dump(exclude_none=True, exclude={"note"}) for s in steps] == [
        *wield, {"do": "anvil", "item": item, "node": "minecraft:anvil", "count": 1}]


def test_a_repair_holding_the_material_is_the_anvil_used_holding_it(library):
    # the curated use.repair_with_anvil: the ingot in hand, then the pickaxe repaired with it
    rules = game_model("taskverse_mc", library.knowledge).rules
    a = rules.action_index["use.minecraft:iron_ingot.mend"]
    assert rules.goals[a].using == "minecraft:iron_ingot"
    task = library.get("use.repair_with_anvil")
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    assert [s.model_dump(exclude_none=True, exclude={"note"}) for s in steps] == [
        {"do": "wield", "item": "minecraft:iron_ingot"},
        {"do": "anvil", "item": "minecraft:iron_pickaxe", "node": "minecraft:anvil", "count": 1}]


def test_two_of_an_item_repair_one_at_the_anvil(library):
    rules = game_model("taskverse_mc", library.knowledge).rules
    a = rules.action_index["use.minecraft:bow.repair"]
    ways = [{(rules.names[n.members[0]], n.count, n.consume) for n in way} for way in rules.ways[a]]
    assert all(("minecraft:bow", 2, True) in way for way in ways)  # a bow has no repair material
    assert [[(rules.names[o.resource], o.count) for o in outs] for outs in rules.way_outputs[a]] == \
        [[("minecraft:bow", 1)]] * len(ways)
