"""Storing (``storing.yaml``): an item put into a container's slots, out of the inventory (``store.<item>``), the
event the game has no statistic for, with one meaning for the world's rules, the fast and the batched stepping, the
evaluator and its automaton, the planner, the phrase reader, the MCU importer, the engine's game model and
planner, and the engine runtime (taskverse_mc's containers, the chest's on_metadata_inventory_put)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_support import ENGINE_TIMEOUT, need_engine
from stepping_support import assert_fast_path_agrees, one_step_single_and_batched
from taskverse.algebra.expr import AtomRef
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.algebra.tracker import Context, GoalTracker
from taskverse.engine.compiler import CompileError, compile_task
from taskverse.engine.harness import Plan, Step
from taskverse.engine.model import game_model
from taskverse.engine.planner import scripted_plan
from taskverse.textenv.kernel import BACKENDS
from taskverse.textenv.plans import plan_task

STORED = ["cake", "diamond", "emerald", "gold_ingot", "golden_apple", "iron_ingot"]
CONTAINERS = ["chest", "barrel", "trapped_chest", "shulker_box", "red_shulker_box"]


def test_the_table_declares_the_containers_and_the_items_stored(library):
    table = library.knowledge.mechanisms.storing
    assert sorted(i.item for i in table.items) == STORED
    assert {"chest", "barrel", "trapped_chest", "shulker_box"} <= set(table.container_items)
    assert "ender_chest" not in table.container_items  # its slots are the player's own
    for item in STORED:
        task = library.get(f"store.{item}")
        assert (task.goal.event.value, task.goal.target) == ("store", item)
        (way,) = task.requires
        used, container = way
        assert (used.any_of, used.kept) == ([item], False)
        assert container.kept and set(container.any_of) == set(table.container_items)
    assert "store.dirt" not in library.by_id  # a named choice of items, not every item


def test_storing_takes_the_item_out_of_the_inventory_and_keeps_the_container(rules):
    state = rules.new_state({"cake": 2, "chest": 1})
    events = rules.act(state, rules.action_index["store.cake"])
    assert [e[:3] for e in events] == [("store", "cake", 1)]
    assert rules.inventory(state) == {"cake": 1, "chest": 1}
    without = rules.new_state({"cake": 1})
    assert not without.mask[rules.action_index["store.cake"]]  # no container: nothing to store it in


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(items=st.dictionaries(st.sampled_from(STORED), st.integers(1, 3), min_size=1),
       container=st.sampled_from(CONTAINERS), order=st.lists(st.sampled_from(STORED), min_size=1, max_size=6))
def test_stores_step_the_same_in_the_fast_path_and_the_judges_agree(rules, library, items, container, order):
    start = {**items, container: 1}
    plan = [f"store.{item}" for item in order]
    # the reference rules and the fast path: the same states and events, step by step
    assert_fast_path_agrees(rules, start, plan, candidates_only=True)
    state, events = rules.new_state(start), []
    left = dict(items)
    for action in plan:
        item = action.removeprefix("store.")
        before = rules.inventory(state).get(item, 0)
        done = rules.act(state, rules.action_index[action]) if state.mask[rules.action_index[action]] else []
        # a store event exactly when one of the item leaves the inventory; the container stays
        assert [e[:3] for e in done] == ([("store", item, 1)] if left.get(item) else [])
        assert rules.inventory(state).get(item, 0) == before - len(done) and rules.inventory(state)[container] == 1
        left[item] = left.get(item, 0) - len(done)
        events += done
    evaluator, context = Evaluator.for_library(library), Context()
    for item in STORED:  # the evaluator and its automaton (the tracker) give one verdict
        expr = AtomRef(task=f"store.{item}")
        tracker = GoalTracker(expr, evaluator, context)
        verdict = evaluator.evaluate(expr, [context.game_event(e) for e in events]).satisfied
        assert verdict == tracker.done(tracker.feed(tracker.initial(), events)) == (item in items and item in order)


@pytest.mark.parametrize("backend", BACKENDS)
def test_stores_step_the_same_batched(library, backend):
    rules, inventory = one_step_single_and_batched(library, backend, "store.cake")
    assert inventory[0, rules.index[("item", "cake")]] == 0


def test_the_evaluator_counts_only_an_item_stored(library):
    evaluator = Evaluator.for_library(library)
    assert evaluator.evaluate(AtomRef(task="store.cake"), [GameEvent(event="store", target="cake")]).satisfied
    for other in (GameEvent(event="store", target="diamond"), GameEvent(event="place", target="cake"),
                  GameEvent(event="use", target="chest")):
        assert not evaluator.evaluate(AtomRef(task="store.cake"), [other]).satisfied


def test_a_cake_is_stored_from_scratch_with_a_container_obtained_first(library):
    plan = plan_task("naive(store.cake)", library)
    assert plan.actions[-1] == "store.cake"
    made = plan.actions[:-1]
    assert any(a.startswith(("craft.chest", "craft.barrel", "craft.trapped_chest")) for a in made)
    assert any(a.endswith(".cake") for a in made)


def test_the_game_model_stores_at_a_container_near_or_held_and_the_plan_places_none_near(library):
    model = game_model("taskverse_mc", library.knowledge)
    rules = model.rules
    ways = rules.ways[rules.action_index["store.minecraft:cake"]]
    assert len(ways) == 2  # a container standing near the start, or one held (placed, then kept)
    for way in ways:
        item, container = way
        assert [rules.names[m] for m in item.members] == ["minecraft:cake"] and item.consume
        assert "minecraft:chest" in {rules.names[m] for m in container.members} and not container.consume
    assert not any(a.startswith("store.") for a in game_model("minetest_game").acts)
    task = library.get("store.cake")
    steps = scripted_plan(task, compile_task(task, library, "taskverse_mc"), library).plan.steps
    assert [(s.do, s.item, s.node) for s in steps] == [("store", "minecraft:cake", "minecraft:chest")]


def test_a_game_whose_containers_store_nothing_says_why(library):
    with pytest.raises(CompileError, match="has no container that stores items") as info:
        compile_task(library.get("store.cake"), library, game="minetest_game")
    assert "\n" not in str(info.value)


def test_the_scripted_player_stores_a_cake_and_the_runtime_agrees_with_the_replay(library):
    """The cake put into a chest (the runtime's store event, from the chest's on_metadata_inventory_put): the
    runtime's verdict is success and the Python evaluator replaying its events agrees; a plan that stores nothing
    (the cake only held, the chest only placed) is not done, and the replay agrees too."""
    need_engine(client=True)
    from taskverse.engine.runner import run_jobs

    task = library.get("store.cake")
    ir = compile_task(task, library, "taskverse_mc")
    assert ir.trackers.store.items and "minecraft:chest" in ir.trackers.store.items
    scripted = scripted_plan(task, ir, library).plan
    placed_only = Plan(steps=[Step(do="place", item="minecraft:chest", count=1), Step(do="wait", seconds=0.5)])
    stored, not_stored = run_jobs([(task, ir, scripted), (task, ir, placed_only)], library=library, parallel=2,
                                  timeout=ENGINE_TIMEOUT)
    assert stored.error is None and not_stored.error is None, (stored.engine_errors, not_stored.engine_errors)
    assert stored.success, (stored.plan_error, stored.events[-3:])
    events = [(e["game_event"]["event"], e["game_event"]["target"], e["game_event"]["count"]) for e in stored.events]
    assert ("store", "cake", 1) in events
    assert stored.replay is not None and stored.replay.agrees
    assert not not_stored.success and not_stored.plan_completed
    assert not any(e["game_event"]["event"] == "store" for e in not_stored.events)
    assert not_stored.replay is not None and not_stored.replay.agrees
