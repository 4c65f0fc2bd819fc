"""Actions the game counts as custom statistics beyond a screen (``statistics.yaml``: ``talked_to_villager``,
``target_hit``, ``clean_armor``/``clean_banner``/``clean_shulker_box``, ``climb_one_cm``): one atom each, with one
meaning for the world's rules, the fast and batched stepping, the evaluator, the planner, the phrase reader and the
engine compile step."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phrase_support import phrase_reader, reads_as
from stepping_support import assert_fast_path_agrees, one_step_single_and_batched
from taskverse.algebra.expr import AtomRef
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.engine.compiler import CompileError, compile_task
from taskverse.language.reading import PhraseError
from taskverse.textenv.kernel import BACKENDS


def _stats(library):
    return library.knowledge.mechanisms.statistics.statistics


def test_every_entry_of_the_table_has_its_atom_with_the_declared_success(library):
    stats = _stats(library)
    assert {f"{s.verb}.{s.name}" for s in stats} >= {"talk.villager", "hit.target", "clean.leather_armor",
                                                     "clean.banner", "clean.shulker_box", "climb.ladder",
                                                     "climb.vine"}
    for stat in stats:
        task = library.get(f"{stat.verb}.{stat.name}")
        assert task.goal == stat.goal
        assert task.initialization is not None  # where it starts: the mob summoned, the block beside


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_an_event_satisfies_exactly_the_atoms_whose_success_it_is(library, data):
    stats = _stats(library)
    atom = data.draw(st.sampled_from(stats))
    done_by = data.draw(st.sampled_from(stats))
    evaluator = Evaluator.for_library(library)
    g = done_by.goal
    held = library.knowledge.tags[g.using[1:]][0] if g.using and g.using.startswith("#") else g.using  # a boat
    events = [GameEvent(event=g.event.value, target=g.target, held=held, value=g.value)]
    done = evaluator.evaluate(AtomRef(task=f"{atom.verb}.{atom.name}"), events).satisfied
    assert done == (atom.goal == done_by.goal)


def test_climbing_one_block_is_not_climbing_another(library):
    evaluator = Evaluator.for_library(library)
    ladder = [GameEvent(event="interact", target="climb", held="ladder")]
    assert evaluator.evaluate(AtomRef(task="climb.ladder"), ladder).satisfied
    assert not evaluator.evaluate(AtomRef(task="climb.vine"), ladder).satisfied


def test_cleaning_keeps_the_armor_and_the_cauldron_and_spends_the_dye(rules):
    state = rules.new_state({"leather_boots": 1, "red_dye": 2}, [("block", "water_cauldron")])
    events = rules.act(state, rules.action_index["clean.leather_armor"])
    assert ("interact", "clean_armor") in [e[:2] for e in events]
    assert rules.inventory(state) == {"leather_boots": 1, "red_dye": 1}
    assert rules.found(state) == [("block", "water_cauldron"), ("dimension", "overworld")]  # where it stands
    state = rules.new_state({"red_shulker_box": 1}, [("block", "water_cauldron")])
    rules.act(state, rules.action_index["clean.shulker_box"])
    assert rules.inventory(state) == {"shulker_box": 1}


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from(["talk.villager", "hit.target", "clean.shulker_box", "clean.leather_armor",
                                 "climb.ladder", "climb.vine", "craft.oak_planks"]), min_size=1, max_size=8))
def test_statistics_step_the_same_in_the_fast_path(rules, plan):
    assert_fast_path_agrees(rules, {"snowball": 2, "red_shulker_box": 1, "leather_helmet": 1, "blue_dye": 2,
                                    "oak_log": 1},
                            plan, [("entity", "villager"), ("block", "target"), ("block", "water_cauldron"),
                                   ("block", "ladder"), ("block", "vine")], candidates_only=True)


@pytest.mark.parametrize("backend", BACKENDS)
def test_statistics_step_the_same_batched(library, backend):
    one_step_single_and_batched(library, backend, "talk.villager")


def test_the_plan_from_scratch_fills_a_cauldron_dyes_armor_and_cleans_it(library):
    from taskverse.textenv.plans import plan_task

    actions = plan_task("naive(clean.leather_armor)", library).actions
    assert actions[-1] == "clean.leather_armor"
    assert "place.water_cauldron" in actions and "place.cauldron" in actions
    assert any(a.startswith("craft.leather_") for a in actions)
    assert any(a.endswith("_dye") and a.startswith("craft.") for a in actions)


@pytest.mark.parametrize(("phrase", "expected"), [
    # MCU's atomic task list, as it writes them
    ("talk to villager", "talk.villager"),
    ("hit target", "hit.target"),
    ("clean armor", "clean.leather_armor"),
    ("clean banner", "clean.banner"),
    ("clean shulker box", "clean.shulker_box"),
    ("fill cauldron", "place.water_cauldron"),
    ("climb ladder", "climb.ladder"),
    ("climb on vine", "climb.vine"),
    # other words for the same
    ("talk with a villager", "talk.villager"),
    ("speak to the wandering trader", "talk.wandering_trader"),
    ("shoot a target", "hit.target"),
    ("wash a shulker box", "clean.shulker_box"),
    ("fill a cauldron", "place.water_cauldron"),
    ("climb up a ladder", "climb.ladder"),
    ("climb scaffolding", "climb.scaffolding"),
])
def test_statistic_phrases_read(phrase, expected):
    assert reads_as(phrase, expected)


@pytest.mark.parametrize(("phrase", "expected"), [("ride llama", "tame.llama"), ("ride a strider", "use.ride_strider")])
def test_riding_a_llama_is_mounting_it_and_a_strider_is_steered(phrase, expected):
    assert reads_as(phrase, expected)


@pytest.mark.parametrize(("phrase", "named"), [
    ("climb waterfall", "climbable"), ("close door", "no statistic"), ("sprint-jumping", "sprint_one_cm"),
])
def test_what_no_statistic_or_no_state_counts_is_named_not_read(phrase, named):
    with pytest.raises(PhraseError) as caught:
        phrase_reader().read(phrase)
    assert caught.value.status == "not expressible" and named in caught.value.message


def test_the_engine_compiles_talking_to_a_villager_as_its_right_click(library):
    ir = compile_task(library.get("talk.villager"), library, game="taskverse_mc")
    assert ir.trackers.interact.entities


@pytest.mark.parametrize(("task_id", "statistic"), [("climb.ladder", "climb_one_cm"), ("hit.target", "target_hit"),
                                                    ("clean.shulker_box", "clean_shulker_box"),
                                                    ("clean.leather_armor", "clean_armor"),
                                                    # the distances: reach goals counted by a statistic
                                                    ("fly.elytra", "aviate_one_cm"), ("move.fall", "fall_one_cm"),
                                                    ("move.dive", "walk_under_water_one_cm"),
                                                    ("move.ice_boat", "boat_one_cm")])
def test_the_engine_compile_step_refuses_what_its_runtime_does_not_watch(library, task_id, statistic):
    with pytest.raises(CompileError, match="does not watch") as caught:
        compile_task(library.get(task_id), library, game="taskverse_mc")
    assert statistic in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize(("phrase", "expected"), [
    # MCU's atomic task list: the game's distance statistics, at the atoms' documented defaults
    ("aviate", "fly.elytra"), ("fall", "move.fall"), ("dive deeply", "move.dive"), ("ice boating", "move.ice_boat"),
    ("shoot with a crossbow", "use.shoot_crossbow"),
])
def test_distances_and_a_crossbow_shot_read(phrase, expected):
    assert reads_as(phrase, expected)


def test_a_distance_counts_only_as_far_as_it_goes(library):
    """A distance statistic is a reach goal with its distance: a shorter one, or another statistic's, is not it."""
    evaluator = Evaluator.for_library(library)
    dive = AtomRef(task="move.dive")
    assert evaluator.evaluate(dive, [GameEvent(event="reach", target="underwater_distance", value=12)]).satisfied
    assert not evaluator.evaluate(dive, [GameEvent(event="reach", target="underwater_distance", value=6)]).satisfied
    assert not evaluator.evaluate(dive, [GameEvent(event="reach", target="swim_distance", value=12)]).satisfied


def test_a_boat_on_ice_needs_the_boat_and_the_ice(rules):
    state = rules.new_state({"oak_boat": 1}, [("block", "packed_ice")])
    events = rules.act(state, rules.action_index["move.ice_boat"])
    assert ("reach", "boat_distance") in [e[:2] for e in events]
    assert rules.inventory(state) == {"oak_boat": 1}
    assert not rules.new_state({"oak_boat": 1}).mask[rules.action_index["move.ice_boat"]]
