"""Hooking (``hooking.yaml``): a mob hooked with a fishing rod and reeled in (``hook.<mob>``), judged as the rod used
on the mob, with one meaning for the world's rules, the fast and the batched stepping, the evaluator, the phrase
reader and the engine compile step."""

import gymnasium
import numpy as np
import pytest

from phrase_support import reads_as
from taskverse.algebra.expr import AtomRef
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.engine.compiler import CompileError, compile_task
from taskverse.textenv.fast import FastRules
from taskverse.textenv.kernel import BACKENDS
from taskverse.textenv.vector import SkillForgeTextVectorEnv
from taskverse.world.graph import ways_of


def test_every_mob_the_world_finds_is_hooked_with_the_rod(library):
    kn = library.knowledge
    table = kn.mechanisms.hooking
    hooked = {t.goal.target for t in library.tasks if t.verb == "hook"}
    assert hooked == {m for m, info in kn.mobs.items() if info.natural}
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
    fast = FastRules.for_rules(rules)
    reference = rules.new_state({"fishing_rod": 2}, [("entity", "cow"), ("entity", "pig")], track=True)
    quick = rules.new_state({"fishing_rod": 2}, [("entity", "cow"), ("entity", "pig")], track=True)
    for name in ["hook.cow", "hook.pig"] * 13:  # both rods worn out and broken
        a = rules.action_index[name]
        got, _ = fast.act(quick, a, events=True)
        assert got == rules.act(reference, a, events=True)
        assert quick.counts == reference.counts and quick.mask == reference.mask


@pytest.mark.parametrize("backend", BACKENDS)
def test_hooks_step_the_same_batched(library, backend):
    kwargs = {"task": "hook.chicken", "max_steps": 10, "library": library, "initialization": "task"}
    singles = gymnasium.make_vec("taskverse/SkillForgeTextStructured-v0", num_envs=2, vectorization_mode="sync",
                                 plan_info=False, **kwargs)
    batched = SkillForgeTextVectorEnv(2, backend=backend, **kwargs)
    rules = batched.rules
    counter = rules.wear_of[rules.index[("item", "fishing_rod")]][0]
    seen = []
    for envs in (singles, batched):
        envs.reset(seed=0)
        obs, reward, terminated, *_ = envs.step(np.full(2, rules.action_index["hook.chicken"]))
        seen.append(obs["inventory"])
        assert terminated.all() and reward.all()
    assert (seen[0] == seen[1]).all() and seen[1][0, counter] == 5


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
