"""MCU's building and decorating families as atoms with a check every evaluator runs: placements counted over a
tag (``decorate.ground``, ``light.surroundings``), hangings counted (``decorate.wall``), weeds broken
(``clean.weeds``), a shape of placed blocks (``build.fence_stack``) and a free-form build judged by a person
(``build.library``); one meaning for the evaluator, the world's rules and the engine compile step."""

import pytest

from taskverse.algebra.expr import AtomRef
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.engine.compiler import BUILD_SHAPES, CompileError, compile_task
from taskverse.engine.ir import shape_cells
from taskverse.language.explain import rules_of
from taskverse.language.reading import PhraseError


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


@pytest.mark.parametrize(("line", "task"), [  # MCU's atomic list, as written there (typos and all)
    ("build a chair", "build.chair"), ("Build a cube", "build.cube"), ("build a pyramid", "build.pyramid"),
    ("Build a lava fall", "build.lava_fall"), ("Build a lava lake", "build.lava_lake"),
    ("bulid a hallway", "build.hallway"), ("build a fish tank", "build.fish_tank"),
    ("Build an artificial cave", "build.cave"), ("Build a hidden room", "build.hidden_room"),
    ("Build a base", "build.shelter"), ("Build a coop", "build.coop"),
    ("merge two chests into one", "build.double_chest"),
    ("build basic redstone circuit", "build.basic_redstone_circuit"),
    ("build NOT gate (inverter)", "build.not_gate"), ("build OR gate", "build.or_gate"),
    ("build XNOR gate", "build.xnor_gate"), ("build IMPLIES gate", "build.implies_gate"),
    ("make a chair", "build.chair"), ("construct a pyramid", "build.pyramid"),
    ("light up a castle", "light.surroundings"), ("light up the home", "light.surroundings"),
    ("decorate the cave", "decorate.ground"),
])
def test_a_named_build_or_place_is_read_as_its_atom(reader, line, task):
    assert reader.read(line).root.task == task


@pytest.mark.parametrize("line", ["light up a spaceship", "decorate the spaceship", "build an automated machine",
                                  "build redstone turret"])
def test_a_place_or_build_the_library_does_not_name_is_not_read(reader, line):
    with pytest.raises(PhraseError):
        reader.read(line)


def test_the_reading_names_the_rule_and_how_the_build_is_judged(reader):
    chair = rules_of(reader.read("build a chair"), reader)
    assert any("named build: build.chair" in r and "human_rating" in r for r in chair)
    castle = rules_of(reader.read("light up a castle"), reader)
    assert any("light.surroundings" in r and "castle" in r for r in castle)


@pytest.mark.parametrize(("name", "cells"), [("cube", 27), ("pyramid", 35)])
def test_a_cube_and_a_pyramid_are_shapes_the_engine_runtime_checks(library, name, cells):
    spec = BUILD_SHAPES[name]
    laid = shape_cells(spec["shape"], spec["length"], spec.get("width", 1), spec.get("height", 1))
    assert len(set(laid)) == cells
    assert sum(library.get(f"build.{name}").initialization.inventory.values()) == cells
    compiled = compile_task(library.get(f"build.{name}"), library, game="taskverse_mc")
    assert [b.shape for b in compiled.trackers.builds] == [spec["shape"]]


def test_each_layer_of_the_pyramid_rests_on_the_one_below():
    laid = set(shape_cells("pyramid", 5))
    assert all((x, y - 1, z) in laid for x, y, z in laid if y > 0)
    assert {y for _, y, _ in laid} == {0, 1, 2}
