"""Hooking (``hooking.yaml``): a mob hooked with a fishing rod and reeled in (``hook.<mob>``), judged as the rod used
on the mob, with one meaning for the world's rules, the fast and the batched stepping, the evaluator, the phrase
reader and the engine compile step."""

import pytest

from phrase_support import reads_as
from stepping_support import assert_fast_path_agrees, one_step_single_and_batched
from taskverse.algebra.expr import AtomRef
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.engine.compiler import CompileError, compile_task
from taskverse.textenv.kernel import BACKENDS
from taskverse.world.graph import ways_of


def test_every_mob_the_world_finds_is_hooked_with_the_rod(library):
    kn = library.knowledge
    table = kn.mechanisms.hooking
    hooked = {t.goal.target for t in library.tasks if t.verb == "hook"}
    assert hooked == {m for m, info in kn.mobs.items() if info.natural or info.brought_by}
    task = library.get("hook.cow")
    assert (task.goal.event.value, task.goal.target, task.goal.using) == ("use", "cow", "fishing_rod")
    rod, mob = ways_of(task)[0]
    assert rod.any_of == [table.rod] and rod.kept and rod.uses == table.wear == 5
    assert mob.any_of == ["cow"] and mob.kept  # the mob is pulled, not killed


def test_a_hook_wears_the_rod_and_counts_the_rod_used_on_the_mob(rules):
    state = rules.new_state({"fishing_rod": 1}, [("entity", "cow")])
    hook = rules.action_index["hook.cow"]
    events = rules.act(state, hook)
    assert [e[:4] for e in events] == [("use", "cow", 1, "fishing_rod"), ("use", "fishing_rod", 1, "fishing_rod")]
    counter, durability = rules.wear_of[rules.index[("item", "fishing_rod")]]
    assert state.counts[counter] == 5 and durability == 64
    for _ in range(11):  # 64 durability: the thirteenth mob reeled in breaks the rod
        rules.act(state, hook)
    assert rules.inventory(state) == {"fishing_rod": 1}
    rules.act(state, hook)
    assert rules.inventory(state) == {} and not state.mask[hook]


def test_hooks_step_the_same_in_the_fast_path(rules):
    found = [("entity", "cow"), ("entity", "pig")]
    assert_fast_path_agrees(rules, {"fishing_rod": 2}, ["hook.cow", "hook.pig"] * 13, found)  # both rods worn out


@pytest.mark.parametrize("backend", BACKENDS)
def test_hooks_step_the_same_batched(library, backend):
    rules, inventory = one_step_single_and_batched(library, backend, "hook.chicken")
    assert inventory[0, rules.wear_of[rules.index[("item", "fishing_rod")]][0]] == 5


def test_the_evaluator_needs_the_rod_on_the_mob(library):
    evaluator = Evaluator.for_library(library)
    hooked = GameEvent(event="use", target="cow", held="fishing_rod")
    assert evaluator.evaluate(AtomRef(task="hook.cow"), [hooked]).satisfied
    milked = GameEvent(event="use", target="cow", held="bucket")
    assert not evaluator.evaluate(AtomRef(task="hook.cow"), [milked]).satisfied
    assert not evaluator.evaluate(AtomRef(task="hook.pig"), [hooked]).satisfied


@pytest.mark.parametrize(("phrase", "expected"), [
    ("Hook a chicken using fishing rod.", "init(hook.chicken, main_hand=fishing_rod)"),  # MCU's atomic list
    ("hook_a_cow_using_fishing_rod", "init(hook.cow, main_hand=fishing_rod)"),  # MCU's config name
    ("hook a zombie", "hook.zombie"),
    ("use a fishing rod on a pig", "hook.pig"),
])
def test_hooking_phrases_read(phrase, expected):
    assert reads_as(phrase, expected)


def test_the_engine_compile_step_says_the_game_has_no_hook(library):
    with pytest.raises(CompileError, match="which the engine game does not have") as info:
        compile_task(library.get("hook.cow"), library, game="taskverse_mc")
    assert "\n" not in str(info.value)
