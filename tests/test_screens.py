"""A block's screen opened, as the game's custom statistics count it (``screens.yaml``: ``open_chest``,
``interact_with_crafting_table``, ``inspect_hopper``...): ``<verb>.<block>`` atoms judged by the block's interact
event, with one meaning for the world's rules, the fast and the batched stepping, the evaluator, the planner, the
phrase reader and the engine compile step."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phrase_support import reads_as
from stepping_support import assert_fast_path_agrees, one_step_single_and_batched
from taskverse.algebra.expr import AtomRef
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.engine.compiler import CompileError, compile_task
from taskverse.engine.gamegen.content import game_content
from taskverse.textenv.kernel import BACKENDS
from taskverse.world.graph import ways_of

VERBS = ("open", "interact", "inspect", "trigger")


def _screens(library):
    return library.knowledge.mechanisms.screens.blocks


def test_every_block_of_the_table_has_its_atom_with_the_statistic_s_verb(library):
    screens = _screens(library)
    atoms = {t.id: t for t in library.tasks if t.verb in VERBS and t.goal.event.value == "interact"}
    want = {f"{s.statistic.split('_')[0]}.{s.block}" for s in screens}
    assert want <= set(atoms)
    assert {"open.chest", "interact.crafting_table", "inspect.hopper", "trigger.trapped_chest"} <= want
    for screen in screens:
        task = atoms[f"{screen.verb}.{screen.block}"]
        assert screen.block in library.knowledge.blocks
        assert task.goal.target == screen.block and task.goal.using is None
        block, *fed = ways_of(task)[0]
        assert block.kind.value == "block" and block.any_of == [screen.block] and block.kept
        assert [n.any_of for n in fed] == ([sorted(screen.with_)] if screen.with_ else [])
        assert all(not n.kept for n in fed)  # the food, the book goes into the block


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_an_interact_event_on_a_block_satisfies_exactly_that_block_s_atom(library, data):
    screens = _screens(library)
    atom = data.draw(st.sampled_from(screens))
    clicked = data.draw(st.sampled_from(screens))
    count = data.draw(st.integers(min_value=1, max_value=3))
    evaluator = Evaluator.for_library(library)
    events = [GameEvent(event="interact", target=clicked.block)] * count
    done = evaluator.evaluate(AtomRef(task=f"{atom.verb}.{atom.block}"), events).satisfied
    assert done == (atom.block == clicked.block)
    placed = [GameEvent(event="place", target=atom.block), GameEvent(event="use", target=atom.block)]
    assert not evaluator.evaluate(AtomRef(task=f"{atom.verb}.{atom.block}"), placed).satisfied


def test_opening_keeps_the_block_and_uses_up_what_it_takes(rules):
    state = rules.new_state({}, [("block", "chest")])
    events = rules.act(state, rules.action_index["open.chest"])
    assert [e[:2] for e in events] == [("interact", "chest")]
    assert rules.found(state) == [("block", "chest"), ("dimension", "overworld")]  # where it stands
    state = rules.new_state({"beef": 2}, [("block", "campfire")])
    events = rules.act(state, rules.action_index["interact.campfire"])
    assert [e[:2] for e in events] == [("interact", "campfire")] and rules.inventory(state) == {"beef": 1}


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from(["open.chest", "interact.crafting_table", "interact.campfire", "inspect.hopper",
                                 "interact.lectern", "craft.oak_planks"]), min_size=1, max_size=8))
def test_screens_step_the_same_in_the_fast_path(rules, plan):
    assert_fast_path_agrees(rules, {"beef": 2, "writable_book": 1, "oak_log": 1}, plan,
                            [("block", "chest"), ("block", "crafting_table"), ("block", "campfire"),
                             ("block", "hopper"), ("block", "lectern")], candidates_only=True)


@pytest.mark.parametrize("backend", BACKENDS)
def test_screens_step_the_same_batched(library, backend):
    one_step_single_and_batched(library, backend, "interact.furnace")


def test_the_plan_from_scratch_makes_the_block_places_it_and_opens_it(library):
    from taskverse.textenv.plans import plan_task

    actions = plan_task("naive(interact.crafting_table)", library).actions
    assert actions[-2:] == ["place.crafting_table", "interact.crafting_table"], actions


@pytest.mark.parametrize(("phrase", "expected"), [
    # MCU's atomic task list, as it writes them
    ("interact with crafting table", "interact.crafting_table"),
    ("interact with cartography stable", "interact.cartography_table"),
    ("interact with brewingstand", "interact.brewing_stand"),
    ("interact with blast furnace", "interact.blast_furnace"),
    ("interact with hopper", "inspect.hopper"),
    ("open chest", "open.chest"),
    ("open shulker box", "open.shulker_box"),
    ("trigger trapped chest", "trigger.trapped_chest"),
    # the statistic's verb or another one for the same screen
    ("open the furnace", "interact.furnace"),
    ("inspect a dropper", "inspect.dropper"),
    ("open a barrel", "open.barrel"),
    ("open an ender chest", "open.ender_chest"),
])
def test_screen_phrases_read(phrase, expected):
    assert reads_as(phrase, expected)


def test_the_generated_game_gives_a_screen_to_every_block_but_those_fed_an_item(library):
    content = game_content(library.knowledge)
    want = {f"minecraft:{s.block}" for s in _screens(library) if not s.with_}
    assert set(content["screens"]) == want and "minecraft:campfire" not in want


@pytest.mark.parametrize(("task_id", "named"), [("interact.campfire", "campfire"), ("interact.lectern", "book")])
def test_the_engine_compile_step_refuses_a_block_it_cannot_feed(library, task_id, named):
    with pytest.raises(CompileError, match="does not take") as caught:
        compile_task(library.get(task_id), library, game="taskverse_mc")
    assert named in str(caught.value) and "\n" not in str(caught.value)


def test_the_engine_compiles_the_anvil_s_screen_and_its_work_where_the_game_does_it(library):
    ir = compile_task(library.get("interact.anvil"), library, game="taskverse_mc")
    assert "minecraft:anvil" in ir.trackers.interact.nodes
    compile_task(library.get("rename.barrel"), library, game="taskverse_mc")  # the generated game's anvil renames
    with pytest.raises(CompileError, match="anvil"):
        compile_task(library.get("rename.barrel"), library, game="minetest_game")
