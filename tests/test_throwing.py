"""Throwing (``throwing.yaml``): ``throw.<item>``, judged as the game's ``used`` statistic counts a throw, with one
meaning for the world's rules, the fast and the batched stepping, the evaluator, the planner, the phrase reader, the
MCU importer and the engine compile step."""

import pytest

from phrase_support import reads_as
from stepping_support import assert_fast_path_agrees, one_step_single_and_batched
from taskverse.algebra.expr import AtomRef
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.engine.compiler import CompileError, compile_task
from taskverse.language.reading import PhraseError
from taskverse.textenv.kernel import BACKENDS
from taskverse.textenv.plans import plan_task
from taskverse.world.graph import ways_of


def test_the_table_declares_what_a_player_throws(library):
    mech = library.knowledge.mechanisms
    table = mech.throwing
    thrown = {t.goal.target for t in library.tasks if t.verb == "throw"}
    potions = {mech.brewing.name(p.id, c) for p in mech.brewing.potions for c in ("splash_potion", "lingering_potion")}
    assert thrown == {t.item for t in table.items} | potions
    assert {"snowball", "egg", "ender_pearl", "ender_eye", "experience_bottle", "trident"} <= thrown
    assert "fire_charge" not in thrown and table.why_not_thrown("fire_charge")
    for task in library.tasks:
        if task.verb == "throw":  # success is the item's used statistic, nothing else
            assert (task.goal.event.value, task.goal.target, task.goal.using) == ("use", task.id[6:], None)
    trident = ways_of(library.get("throw.trident"))[0][0]
    assert trident.kept and trident.uses == 1  # picked up again, one durability a throw
    eye = library.get("throw.ender_eye")
    assert [(y.name, y.chance) for y in eye.yields] == [("ender_eye", 0.8)]  # drops 80% of the time
    assert not ways_of(library.get("throw.snowball"))[0][0].kept


def test_a_throw_uses_the_item_up_and_counts_one_use(rules):
    state = rules.new_state({"snowball": 2})
    throw = rules.action_index["throw.snowball"]
    events = rules.act(state, throw)
    assert [e[:3] for e in events] == [("use", "snowball", 1)]
    assert rules.inventory(state) == {"snowball": 1}
    rules.act(state, throw)
    assert rules.inventory(state) == {} and not state.mask[throw]  # nothing left to throw


def test_a_thrown_trident_is_kept_and_worn(rules):
    state = rules.new_state({"trident": 1})
    throw = rules.action_index["throw.trident"]
    for _ in range(3):
        events = rules.act(state, throw)
        assert [e[:2] for e in events] == [("use", "trident")]  # one use, not one for the throw and one for wear
    counter, durability = rules.wear_of[rules.index[("item", "trident")]]
    assert state.counts[counter] == 3 and durability == 250
    assert rules.inventory(state)["trident"] == 1


def test_throws_step_the_same_in_the_fast_path(rules):
    start = {"snowball": 3, "trident": 1, "ender_eye": 2, "splash_potion_of_healing": 1}
    plan = ["throw.snowball", "throw.trident", "throw.ender_eye", "throw.splash_potion_of_healing", "throw.trident",
            "throw.snowball", "throw.ender_eye"]
    assert_fast_path_agrees(rules, start, plan, seeded=True)


@pytest.mark.parametrize("backend", BACKENDS)
def test_throws_step_the_same_batched(library, backend):
    rules, inventory = one_step_single_and_batched(library, backend, "throw.trident")
    counter = rules.wear_of[rules.index[("item", "trident")]][0]
    assert inventory[0, counter] == 1 and inventory[0, rules.index[("item", "trident")]] == 1


def test_the_evaluator_counts_a_throw_as_the_games_used_statistic(library):
    evaluator = Evaluator.for_library(library)
    thrown = GameEvent(event="use", target="snowball")
    assert evaluator.evaluate(AtomRef(task="throw.snowball"), [thrown]).satisfied
    picked = GameEvent(event="obtain", target="snowball")
    assert not evaluator.evaluate(AtomRef(task="throw.snowball"), [picked]).satisfied
    assert not evaluator.evaluate(AtomRef(task="throw.egg"), [thrown]).satisfied
    # the game counts a trident's melee hit as a use too: the statistic does not tell them apart
    assert evaluator.evaluate(AtomRef(task="use.trident"), [GameEvent(event="use", target="trident")]).satisfied


def test_a_throw_is_planned_from_scratch(library):
    plan = plan_task("naive(throw.snowball)", library)
    assert plan.actions[-2:] == ["mine.snow", "throw.snowball"]


@pytest.mark.parametrize(("phrase", "expected"), [
    ("throw a snowball", "throw.snowball"),
    ("throw eggs", "throw.egg"),
    ("toss an ender pearl", "throw.ender_pearl"),
    ("use ender pearl", "throw.ender_pearl"),
    ("throw an eye of ender", "throw.ender_eye"),
    ("throw a bottle o' enchanting", "throw.experience_bottle"),
    ("throw a trident", "throw.trident"),
    ("use splash potion of healing", "throw.splash_potion_of_healing"),
    ("throw a lingering potion of poison", "throw.lingering_potion_of_poison"),
    ("use splash thick potion", "throw.thick_splash_potion"),
    ("throw 3 snowballs", "amount(3, throw.snowball)"),  # three uses in all, as the statistic counts
])
def test_throwing_phrases_read(phrase, expected):
    assert reads_as(phrase, expected)


def test_what_no_player_throws_is_impossible_with_the_reason(reader):
    with pytest.raises(PhraseError) as caught:
        reader.read("throw a fire charge")
    assert caught.value.status == "impossible" and "only a dispenser fires one" in caught.value.message


def test_mcus_snowball_config_imports_as_a_throw(library, tmp_path):
    from taskverse.interop.commands import Names
    from taskverse.interop.minestudio import import_config
    from taskverse.knowledge.renames import load_renames

    config = tmp_path / "throw_a_snowball.yaml"
    config.write_text("custom_init_commands:\n- /give @s minecraft:snowball 16\n- /give @s minecraft:iron_shovel\n"
                      "text: throw a snowball\n")
    names = Names(library.knowledge, load_renames(kn=library.knowledge))
    imported = import_config(config, library, names)
    assert "throw.snowball" in str(imported.molecule.expression)
    assert imported.molecule.initialization.inventory["snowball"] == 16


@pytest.mark.parametrize("task", ["throw.snowball", "throw.ender_pearl", "throw.splash_potion_of_healing"])
def test_the_engine_compile_step_says_the_game_throws_nothing(library, task):
    with pytest.raises(CompileError, match="does nothing when used in taskverse_mc") as info:
        compile_task(library.get(task), library, game="taskverse_mc")
    assert "\n" not in str(info.value)
