"""Hanging (``hanging.yaml``): an item frame, a glow item frame or a painting hung on a block face (``hang.<item>``),
judged as the game's ``used`` statistic counts it, with one meaning for the world's rules, the fast and the batched
stepping, the evaluator, the phrase reader, the MCU importer and the engine compile step."""

import pytest

from phrase_support import reads_as
from stepping_support import assert_fast_path_agrees, one_step_single_and_batched
from taskverse.algebra.expr import AtomRef
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.engine.compiler import CompileError, compile_task
from taskverse.textenv.kernel import BACKENDS
from taskverse.textenv.plans import plan_task

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
    start = {"item_frame": 2, "glow_item_frame": 1, "painting": 1}
    plan = ["hang.item_frame", "hang.painting", "hang.glow_item_frame", "hang.item_frame"]
    assert_fast_path_agrees(rules, start, plan)


@pytest.mark.parametrize("backend", BACKENDS)
def test_hangs_step_the_same_batched(library, backend):
    rules, inventory = one_step_single_and_batched(library, backend, "hang.glow_item_frame")
    assert inventory[0, rules.index[("item", "glow_item_frame")]] == 0


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
