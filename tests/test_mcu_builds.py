"""MCU's building and decorating families as atoms with a check every evaluator runs: placements counted over a
tag (``decorate.ground``, ``light.surroundings``), hangings counted (``decorate.wall``), weeds broken
(``clean.weeds``), a shape of placed blocks (``build.fence_stack``) and a free-form build judged by a person
(``build.library``); one meaning for the evaluator, the world's rules and the engine compile step."""

import pytest

from taskverse.algebra.expr import AtomRef
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.engine.compiler import BUILD_SHAPES, CompileError, compile_task
from taskverse.engine.ir import shape_cells


def _events(event: str, targets: list[str]) -> list[GameEvent]:
    return [GameEvent(event=event, target=t) for t in targets]


@pytest.mark.parametrize(("task", "event", "enough", "short"), [
    ("decorate.ground", "place", ["white_carpet"] * 4 + ["red_tulip", "flower_pot", "torch", "moss_carpet"],
     ["white_carpet"] * 7),
    ("light.surroundings", "place", ["torch"] * 5 + ["lantern", "glowstone", "sea_lantern"], ["torch"] * 7),
    ("decorate.wall", "use", ["painting", "painting", "item_frame", "glow_item_frame"], ["painting"] * 3),
    ("clean.weeds", "mine", ["tall_grass"] * 6 + ["grass", "fern"], ["tall_grass"] * 7),
])
def test_the_evaluator_counts_the_members_of_the_tag_together(library, task, event, enough, short):
    evaluator = Evaluator.for_library(library)
    assert evaluator.evaluate(AtomRef(task=task), _events(event, enough)).satisfied
    assert not evaluator.evaluate(AtomRef(task=task), _events(event, short)).satisfied


def test_what_is_not_a_member_does_not_count(library):
    evaluator = Evaluator.for_library(library)
    assert not evaluator.evaluate(AtomRef(task="decorate.ground"), _events("place", ["stone"] * 8)).satisfied
    assert not evaluator.evaluate(AtomRef(task="light.surroundings"), _events("place", ["redstone_lamp"] * 8)).satisfied
    assert not evaluator.evaluate(AtomRef(task="clean.weeds"), _events("mine", ["poppy"] * 8)).satisfied


@pytest.mark.parametrize(("task", "inventory", "found", "event"), [
    ("decorate.ground", {"white_carpet": 4, "red_tulip": 2, "flower_pot": 1, "torch": 1}, [], "place"),
    ("light.surroundings", {"torch": 6, "lantern": 2}, [], "place"),
    ("decorate.wall", {"painting": 2, "item_frame": 2}, [], "use"),
    ("clean.weeds", {}, [("block", "tall_grass")], "mine"),
])
def test_the_atom_spends_mixed_members_and_its_events_meet_its_goal(library, rules, task, inventory, found, event):
    state = rules.new_state(inventory, found)
    action = rules.action_index[task]
    assert state.mask[action]
    events = rules.act(state, action)
    assert rules.inventory(state) == {}
    evaluator = Evaluator.for_library(library)
    judged = [GameEvent(event=e[0], target=e[1], count=e[2]) for e in events]
    assert events[0][0] == event and evaluator.evaluate(AtomRef(task=task), judged).satisfied


def test_too_few_members_leave_the_atom_undone(rules):
    state = rules.new_state({"torch": 7}, [])
    assert not state.mask[rules.action_index["light.surroundings"]]


def test_a_fence_stack_is_a_column_the_engine_runtime_checks(library):
    assert BUILD_SHAPES["fence_stack"] == {"shape": "column", "length": 3}
    compiled = compile_task(library.get("build.fence_stack"), library, game="taskverse_mc")
    assert [b.model_dump() for b in compiled.trackers.builds] == [
        {"name": "fence_stack", "shape": "column", "length": 3, "width": 1, "height": 1}]


@pytest.mark.parametrize(("task", "says"), [
    ("build.library", "the runtime recognises only"),
    ("decorate.wall", "does nothing when used"),
])
def test_the_engine_compile_step_names_what_its_runtime_cannot_judge(library, task, says):
    with pytest.raises(CompileError, match=says):
        compile_task(library.get(task), library, game="taskverse_mc")


def test_a_library_is_judged_by_a_person(library):
    assert "human_rating" in {m.value for m in library.get("build.library").metrics.also}


def test_a_road_is_a_line_the_engine_runtime_checks_and_the_atomic_list_reads(library, reader):
    assert BUILD_SHAPES["road"] == {"shape": "line", "length": 10}
    compiled = compile_task(library.get("build.road"), library, game="taskverse_mc")
    assert [b.name for b in compiled.trackers.builds] == ["road"]
    assert reader.read("Build a road").root.task == "build.road"  # MCU's atomic list
    evaluator = Evaluator.for_library(library)
    assert evaluator.evaluate(AtomRef(task="build.road"), [GameEvent(event="build", target="road")]).satisfied
    assert not evaluator.evaluate(AtomRef(task="build.road"), [GameEvent(event="build", target="fence")]).satisfied


def test_each_layer_of_the_pyramid_rests_on_the_one_below():
    laid = set(shape_cells("pyramid", 5))
    assert all((x, y - 1, z) in laid for x, y, z in laid if y > 0)
    assert {y for _, y, _ in laid} == {0, 1, 2}
    assert len(laid) == 35
