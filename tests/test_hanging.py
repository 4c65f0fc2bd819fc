"""Hanging (``hanging.yaml``): an item frame, a glow item frame or a painting hung on a block face (``hang.<item>``),
judged as the game's ``used`` statistic counts it, with one meaning for the world's rules, the fast and the batched
stepping, the evaluator, the phrase reader, the MCU importer and the engine compile step."""

import gymnasium
import numpy as np
import pytest

from phrase_support import reads_as
from taskverse.algebra.expr import AtomRef
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.engine.compiler import CompileError, compile_task
from taskverse.textenv.fast import FastRules
from taskverse.textenv.kernel import BACKENDS
from taskverse.textenv.plans import plan_task
from taskverse.textenv.vector import SkillForgeTextVectorEnv

HUNG = ["item_frame", "glow_item_frame", "painting"]


def test_the_table_declares_what_a_player_hangs(library):
    assert [h.item for h in library.knowledge.mechanisms.hanging.items] == HUNG
    for item in HUNG:
        task = library.get(f"hang.{item}")
        assert (task.goal.event.value, task.goal.target, task.goal.using) == ("use", item, None)
        assert item not in library.knowledge.blocks  # an entity: no place atom could say it
        assert f"place.{item}" not in library.by_id


def test_hanging_uses_the_item_up_and_counts_one_use(rules):
    state = rules.new_state({"item_frame": 1, "painting": 1})
    events = rules.act(state, rules.action_index["hang.item_frame"])
    assert [e[:3] for e in events] == [("use", "item_frame", 1)]
    assert rules.inventory(state) == {"painting": 1} and not state.mask[rules.action_index["hang.item_frame"]]


def test_hangs_step_the_same_in_the_fast_path(rules):
    fast = FastRules.for_rules(rules)
    start = {"item_frame": 2, "glow_item_frame": 1, "painting": 1}
    reference = rules.new_state(start, track=True)
    quick = rules.new_state(start, track=True)
    for name in ["hang.item_frame", "hang.painting", "hang.glow_item_frame", "hang.item_frame"]:
        a = rules.action_index[name]
        got, _ = fast.act(quick, a, events=True)
        assert got == rules.act(reference, a, events=True)
        assert quick.counts == reference.counts and quick.mask == reference.mask


@pytest.mark.parametrize("backend", BACKENDS)
def test_hangs_step_the_same_batched(library, backend):
    kwargs = {"task": "hang.glow_item_frame", "max_steps": 10, "library": library, "initialization": "task"}
    singles = gymnasium.make_vec("taskverse/SkillForgeTextStructured-v0", num_envs=2, vectorization_mode="sync",
                                 plan_info=False, **kwargs)
    batched = SkillForgeTextVectorEnv(2, backend=backend, **kwargs)
    rules = batched.rules
    seen = []
    for envs in (singles, batched):
        envs.reset(seed=0)
        obs, reward, terminated, *_ = envs.step(np.full(2, rules.action_index["hang.glow_item_frame"]))
        seen.append(obs["inventory"])
        assert terminated.all() and reward.all()
    assert (seen[0] == seen[1]).all() and seen[1][0, rules.index[("item", "glow_item_frame")]] == 0


def test_the_evaluator_counts_a_frame_hung_as_its_use(library):
    evaluator = Evaluator.for_library(library)
    hung = GameEvent(event="use", target="item_frame")
    assert evaluator.evaluate(AtomRef(task="hang.item_frame"), [hung]).satisfied
    assert not evaluator.evaluate(AtomRef(task="hang.glow_item_frame"), [hung]).satisfied
    assert not evaluator.evaluate(AtomRef(task="hang.item_frame"),
                                  [GameEvent(event="craft", target="item_frame")]).satisfied


def test_a_frame_is_hung_from_scratch(library):
    plan = plan_task("naive(hang.item_frame)", library)
    assert plan.actions[-2:] == ["craft.item_frame", "hang.item_frame"]


@pytest.mark.parametrize(("phrase", "expected"), [
    ("place an item frame on a solid surface", "hang.item_frame"),  # MCU's place_a_item_frame
    ("place an item frame on a block", "hang.item_frame"),
    ("hang an item frame", "hang.item_frame"),
    ("place a glow item frame", "hang.glow_item_frame"),
    ("hang a painting", "hang.painting"),
    ("use an item frame", "hang.item_frame"),
    ("put an item in an item frame", "use.fill_item_frame"),
    ("find_melon_and_combat_witch_and_place_a_item_frame", "find.melon & combat.witch & hang.item_frame"),
])
def test_hanging_phrases_read(phrase, expected):
    assert reads_as(phrase, expected)


@pytest.mark.parametrize("task", [f"hang.{item}" for item in HUNG])
def test_the_engine_compile_step_says_the_game_hangs_nothing(library, task):
    with pytest.raises(CompileError, match="does nothing when used in taskverse_mc") as info:
        compile_task(library.get(task), library, game="taskverse_mc")
    assert "\n" not in str(info.value)
