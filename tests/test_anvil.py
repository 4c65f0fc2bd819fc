"""The anvil (``anvil.yaml``): repair, rename and combine, with one meaning for the world's rules, the fast and the
batched stepping, the evaluator, the planner, the phrase reader and the engine compile step."""

import gymnasium
import numpy as np
import pytest

from taskverse.algebra.expr import AtomRef
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.engine.compiler import CompileError, Compiler, compile_task
from taskverse.language.reading import render
from taskverse.textenv.fast import FastRules
from taskverse.textenv.kernel import BACKENDS
from taskverse.textenv.plans import plan_task
from taskverse.textenv.vector import SkillForgeTextVectorEnv
from taskverse.world.graph import ways_of


def test_the_table_declares_the_games_anvil(library):
    anvil = library.knowledge.mechanisms.anvil
    durable = {n for n, item in library.knowledge.items.items() if item.get("durability")}
    listed = {i for r in anvil.repairs for i in r.items}
    assert listed == durable  # every item with durability is repaired at an anvil, and nothing else
    assert anvil.unit_share == 0.25 and anvil.levels == {"rename": 1, "unit": 1, "combine": 2}
    for item in listed:
        assert f"repair.{item}" in library.by_id and f"rename.{item}" in library.by_id
    assert "rename.name_tag" in library.by_id


def test_each_anvil_atom_has_a_goal_of_its_own(library):
    goals = {}
    for task in library.tasks:
        if task.verb in ("repair", "rename", "combine"):
            key = (task.goal.event.value, task.goal.target, task.goal.using)
            assert key not in goals, (task.id, goals.get(key))
            goals[key] = task.id
    repair = library.get("repair.iron_pickaxe")
    assert (repair.goal.event.value, repair.goal.target, repair.goal.using) == ("use", "anvil", "iron_pickaxe")
    assert library.get("rename.iron_sword").goal.target == "named_iron_sword"
    assert library.get("combine.iron_pickaxe").goal.target == "enchanted_iron_pickaxe"
    # a bow has no repair material: only two bows make one
    assert [[n.count for n in way if "bow" in n.any_of] for way in ways_of(library.get("repair.bow"))] == [[2]]


def wear(rules, state, tool):
    return state.counts[rules.wear_of[rules.index[("item", tool)]][0]]


def test_a_repair_takes_a_units_share_or_all_of_the_wear(rules):
    state = rules.new_state({"iron_pickaxe": 2, "iron_ingot": 1, "anvil": 1}, [("block", "stone")])
    mine, repair = rules.action_index["mine.stone"], rules.action_index["repair.iron_pickaxe"]
    for _ in range(100):
        rules.act(state, mine, wield=[rules.index[("item", "iron_pickaxe")]])
    assert wear(rules, state, "iron_pickaxe") == 100
    events = rules.act(state, repair)
    assert wear(rules, state, "iron_pickaxe") == 100 - 250 // 4  # one ingot: a quarter of 250
    assert events[0][:2] == ("use", "anvil") and events[0][3] == "iron_pickaxe"
    assert not any(e[0] == "use" and e[1] == "iron_pickaxe" for e in events)  # no use in the game's count
    rules.act(state, repair)  # no ingot left: the second pickaxe is used up, the one given back is whole
    assert wear(rules, state, "iron_pickaxe") == 0
    assert state.counts[rules.index[("item", "iron_pickaxe")]] == 1


def test_a_repair_steps_the_same_in_the_fast_path(rules):
    fast = FastRules.for_rules(rules)
    start = {"iron_pickaxe": 3, "iron_ingot": 2, "anvil": 1}
    reference = rules.new_state(start, [("block", "stone")], track=True)
    quick = rules.new_state(start, [("block", "stone")], track=True)
    wield = [rules.index[("item", "iron_pickaxe")]]
    plan = ["mine.stone"] * 80 + ["repair.iron_pickaxe"] + ["mine.stone"] * 30 + ["repair.iron_pickaxe"] * 3
    for name in plan:
        a = rules.action_index[name]
        assert fast.act(quick, a, events=True, wield=wield)[0] == rules.act(reference, a, events=True, wield=wield)
        assert quick.counts == reference.counts and quick.mask == reference.mask


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_repair_steps_the_same_batched(library, backend):
    kwargs = {"task": "repair.iron_pickaxe", "max_steps": 40, "library": library, "initialization": "task"}
    singles = gymnasium.make_vec("taskverse/SkillForgeTextStructured-v0", num_envs=2, vectorization_mode="sync",
                                 plan_info=False, **kwargs)
    batched = SkillForgeTextVectorEnv(2, backend=backend, **kwargs)
    rules = batched.rules
    counter = rules.wear_of[rules.index[("item", "iron_pickaxe")]][0]
    seen = []
    for envs in (singles, batched):
        obs, _ = envs.reset(seed=0)
        record = [obs["inventory"]]
        for name in ["find.stone", *["mine.stone"] * 20, "repair.iron_pickaxe"]:
            obs, reward, terminated, *_ = envs.step(np.full(2, rules.action_index[name]))
            record.append(obs["inventory"])
        seen.append(np.array(record))
        assert terminated.all() and reward.all()
    assert (seen[0] == seen[1]).all()
    assert seen[1][-2, 0, counter] == 20 and seen[1][-1, 0, counter] == 0  # worn 20 uses, then whole


def test_the_evaluator_tells_a_repair_from_a_rename(library):
    evaluator = Evaluator.for_library(library)
    repaired = GameEvent(event="use", target="anvil", held="iron_sword")
    renamed = GameEvent(event="craft", target="named_iron_sword")
    assert evaluator.evaluate(AtomRef(task="repair.iron_sword"), [repaired]).satisfied
    assert not evaluator.evaluate(AtomRef(task="repair.iron_sword"), [renamed]).satisfied
    assert evaluator.evaluate(AtomRef(task="rename.iron_sword"), [renamed]).satisfied
    assert not evaluator.evaluate(AtomRef(task="rename.iron_sword"), [repaired]).satisfied
    enchanted = GameEvent(event="obtain", target="enchanted_iron_pickaxe")  # what an enchanting table gives
    assert not evaluator.evaluate(AtomRef(task="combine.iron_pickaxe"), [enchanted]).satisfied


@pytest.mark.parametrize(("phrase", "expected"), [
    ("repair an iron pickaxe", "repair.iron_pickaxe"),
    ("fix a bow", "repair.bow"),
    ("rename a bow", "rename.bow"),
    ("rename an iron sword", "rename.iron_sword"),
    ("name a name tag", "rename.name_tag"),
    ("combine an enchanted book with an iron pickaxe", "combine.iron_pickaxe"),
    ("combine enchanted book onto a diamond sword", "combine.diamond_sword"),
])
def test_the_anvils_phrases_read(reader, phrase, expected):
    assert render(reader.read(phrase).root) == expected


def test_a_kind_reads_as_any_of_its_members(reader):
    swords = render(reader.read("rename a sword").root).split(" | ")
    assert "rename.iron_sword" in swords and all(s.startswith("rename.") for s in swords)
    picks = render(reader.read("combine an enchanted book with a pickaxe").root).split(" | ")
    assert "combine.iron_pickaxe" in picks and all(p.startswith("combine.") for p in picks)
    start = render(reader.read("repair a iron pickaxe with an anvil").root)
    assert "repair.iron_pickaxe" in start and "anvil" in start  # a start with the anvil, as for other stations


def test_a_repair_is_planned_from_scratch(library):
    plan = plan_task("naive(repair.iron_pickaxe)", library)
    assert plan.actions[-1] == "repair.iron_pickaxe" and "craft.anvil" in plan.actions


@pytest.mark.parametrize("task", ["repair.iron_pickaxe", "rename.iron_sword", "combine.iron_pickaxe"])
def test_the_engine_compile_step_says_a_game_without_the_anvils_work_has_no_anvil(library, task):
    with pytest.raises(CompileError, match="done at an anvil, which the engine runtime does not run") as info:
        compile_task(library.get(task), library, game="minetest_game")
    assert "\n" not in str(info.value)


def test_every_anvil_atom_compiles_for_the_generated_game_whose_anvil_works(library):
    worked = [t for t in library.tasks if t.verb in ("repair", "rename", "combine")]
    assert len(worked) == 208
    compiler = Compiler(library, "taskverse_mc")
    assert {t.id: compiler.problems(t) for t in worked if compiler.problems(t)} == {}


def test_an_anvil_use_whose_work_uses_an_item_up_compiles_for_the_generated_game(library):
    # no repair tag: two pickaxes made one is the game's repair with a second item, the anvil used holding the pickaxe
    task = library.get("use.combine_with_anvil")
    assert "repairs" not in task.tags
    assert Compiler(library, "taskverse_mc").problems(task) == []
    assert compile_task(task, library, game="taskverse_mc").goals[task.id].using == ["iron_pickaxe"]


@pytest.mark.parametrize(("task", "using"), [("use.repair_with_anvil", "iron_ingot"),
                                              ("use.rename_with_anvil", "iron_sword")])
def test_an_anvil_use_holding_an_item_its_work_takes_compiles_for_the_generated_game(library, task, using):
    # the game logs every work as the anvil used holding an item it took: the one in hand (the repair's ingot), else
    # the item worked on (the sword renamed); the runtime watches that item's _on_used_on
    ir = compile_task(library.get(task), library, game="taskverse_mc")
    assert ir.goals[task].using == [using]
    assert f"minecraft:{using}" in ir.trackers.use.items


@pytest.mark.parametrize(("phrase", "expected"), [
    ("use a bucket on a cow", {"use.milk_cow"}),
    ("use a bucket on water", {"use.fill_water_bucket"}),
    ("use wheat on a cow", {"breed.cow", "use.breed_cows", "feed.cow"}),  # one wheat fed, or a pair bred
    ("use a bone on a wolf", {"tame.wolf", "use.tame_wolf"}),
])
def test_an_item_used_on_a_mob_or_block_reads_as_the_atoms_with_that_goal(library, reader, phrase, expected):
    read = set(render(reader.read(phrase).root).split(" | "))
    assert read == expected
    for task_id in read:  # the goal is the item used on the thing, whatever the atom's verb
        goal = library.get(task_id).goal
        assert goal.event.value == "use" and goal.using in phrase.replace(" ", "_")


def test_coverage_says_the_rule_behind_a_thing_used_up_or_used_on(library):
    from taskverse.benchmarks.coverage import coverage

    rows = coverage(["combine an enchanted book with an iron pickaxe", "use a bucket on a cow"], library)["lines"]
    assert any("'an enchanted book' is used up by combine.iron_pickaxe" in r for r in rows[0]["rules"])
    assert any("cow used with bucket" in r for r in rows[1]["rules"])


ANVIL_ONLY = ["shears", "flint_and_steel", "carrot_on_a_stick", "warped_fungus_on_a_stick", "shield", "elytra", "brush"]


def test_items_a_table_does_not_take_are_enchanted_only_at_an_anvil(library):
    # Their enchantability is 0: no enchant atom; a book's enchantments go on at an anvil (Unbreaking on every one).
    kn = library.knowledge
    assert kn.mechanisms.anvil.also_combined == ANVIL_ONLY
    assert not set(ANVIL_ONLY) & set(kn.mechanisms.enchanting.any_enchantment.items)
    for item in ANVIL_ONLY:
        assert f"enchant.{item}" not in library.by_id
        task = library.get(f"combine.{item}")
        assert task.goal.target == f"enchanted_{item}"
        (way,) = ways_of(task)
        assert {m for n in way if not n.kept for m in n.any_of} == {item, "enchanted_book"}


@pytest.mark.parametrize(("phrase", "expected"), [
    *((f"enchant {item}", f"combine.{item}") for item in ANVIL_ONLY[:6]),  # the published list's six
    ("combine a Shield and a book with the Mending enchantment", "combine.shield"),
    ("enchant a diamond sword", "enchant.diamond_sword"),  # a table's own item stays the table's
])
def test_enchanting_an_item_only_a_book_enchants_is_the_anvils_combine(reader, phrase, expected):
    assert render(reader.read(phrase).root) == expected


def test_enchanted_shears_are_planned_from_scratch_through_a_book(library):
    plan = plan_task("naive(combine.shears)", library, "steps").actions
    assert plan[-1] == "combine.shears" and "craft.anvil" in plan
    assert any(a in plan for a in ("enchant.book", "trade.enchanted_book"))
