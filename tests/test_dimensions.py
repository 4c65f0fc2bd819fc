"""Found things belong to the dimension they were found in: using one from another dimension takes the trip back."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taskverse.difficulty.estimate import PlanModel
from taskverse.schema import Initialization
from taskverse.textenv.plans import plan_task
from taskverse.world.derivation import held_resources
from taskverse.world.rules import Rules, places_from_knowledge

KIT = {"flint_and_steel": 2, "obsidian": 20, "ender_eye": 12, "diamond_sword": 1, "diamond_helmet": 1,
       "diamond_chestplate": 1, "diamond_leggings": 1, "diamond_boots": 1, "cooked_beef": 16, "stone_pickaxe": 1,
       "oak_planks": 8}
"""A start that can light a portal, open the End and fight the dragon: every trip within a short walk."""
FOUND = [("structure", "stronghold"), ("block", "oak_log"), ("block", "stone"), ("entity", "cow")]
WORLD_EVENTS = frozenset({"mine", "kill", "find"})
"""Events whose target is a thing in the world (a block mined, a mob killed, a place found), not an item made."""


def _here(rules, state):
    """The dimensions whose count says the agent is there (one, always)."""
    return [rules.names[r] for r in range(rules.n_items, rules.n_resources)
            if rules.resources[r][0] == "dimension" and state.counts[r]]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 200), kit=st.booleans(),
       dimension=st.sampled_from(["overworld", "nether", "end"]), found=st.lists(st.sampled_from(FOUND), max_size=4))
def test_no_action_uses_a_thing_of_another_dimension_without_the_trip(library, rules, seed, steps, kit, dimension,
                                                                     found):
    places = places_from_knowledge(library.knowledge)
    start = Initialization(inventory=KIT if kit else {}, dimension=dimension)
    state = rules.state_from_initialization(start)
    for kind, name in found:
        if not state.counts[rules.index[(kind, name)]]:
            rules.change(state, rules.index[(kind, name)], 1)
    rng = np.random.default_rng(seed)
    trips = [a for a, goal in enumerate(rules.goals) if goal.event == "enter"]
    for _ in range(steps):
        here = _here(rules, state)
        assert len(here) == 1, here
        ready = [a for a in trips if state.mask[a]]
        a = int(rng.choice(ready)) if ready and rng.random() < 0.2 else int(rng.choice(np.flatnonzero(state.mask)))
        events = rules.act(state, a)
        assert events is not None
        if rules.goals[a].event == "enter":  # a trip: the agent is where it went, and only there
            assert _here(rules, state) == [rules.goals[a].target]
            continue
        assert _here(rules, state) == here, rules.actions[a]
        for event, target, *_, where, _value, _chest in events:
            assert where in (None, here[0]), (rules.actions[a], where, here)
            homes = {places[(kind, target)][1] for kind in ("block", "entity", "biome", "structure")
                     if places.get((kind, target), (None, None))[1] is not None}
            placed = rules.index.get(("block", target)) in rules.placed_only  # where the agent put it
            if event in WORLD_EVENTS and len(homes) == 1 and not placed:
                assert homes == {here[0]}, (rules.actions[a], homes, here)


def _dimensions_walked(library, task):
    """Each step of the plan for ``task`` with the dimension the agent does it in, replayed in the text world."""
    report = plan_task(task, library)
    rules = Rules.for_library(library)
    state = rules.state_from_initialization(Initialization())
    walked = []
    where = "overworld"
    for atom in report.actions:
        a = rules.action_index[atom]
        events = rules.act(state, a)
        assert events is not None
        dimensions = {e[5] for e in events} - {None}
        if rules.goals[a].event != "enter":
            assert dimensions <= {where}, (atom, where, dimensions)  # no step moves the agent for free
        where = dimensions.pop() if dimensions else where
        walked.append((atom, where))
    return walked


def test_a_potion_of_healing_from_scratch_gathers_the_overworlds_part_before_it_goes_through_the_portal(library):
    walked = _dimensions_walked(library, "naive(brew.potion_of_healing)")
    nether = [i for i, (_, where) in enumerate(walked) if where == "nether"]
    assert nether, "the blaze rods and the nether wart are the nether's"
    trips = [atom for atom, _ in walked if atom.startswith("enter.")]
    assert trips == ["enter.nether"], trips  # the melon, the bottle and the cobblestone go with it, no trip back
    assert walked[-1] == ("brew.potion_of_healing", "nether")


def test_a_start_that_names_no_dimension_holds_the_overworld_in_the_derivation_as_in_the_rules(rules):
    held = held_resources(rules, {"iron_ingot": 1}, [])
    state = rules.new_state({"iron_ingot": 1}, [])
    assert {r for r in rules.dimensions if held.get(r)} == {r for r in rules.dimensions if state.counts[r]} \
        == {rules.index[("dimension", "overworld")]}
    assert rules.index[("dimension", "overworld")] not in held_resources(rules, {}, [("dimension", "nether")])


@pytest.mark.parametrize("dimension", ["overworld", "nether", "end"])
def test_every_plan_derived_from_a_start_in_each_dimension_stays_within_its_work(library, dimension):
    """From the nether or the End a need on the overworld is the trip back: priced from the start's own holdings,
    the derivation follows what can be had; priced from the overworld, where that need is free, it went round
    every loop it could not ground (``WORK_BUDGET`` stops it with an error)."""
    plans = PlanModel(library)
    derivation = plans.derivation(Initialization(dimension=dimension))
    derived = [derivation.plan_action(a) for a in range(len(plans.rules.actions))]
    assert derivation.work <= 2 * len(plans.rules.resources)  # each resource about once, at one or two amounts
    feasible = sum(plan is not None and plan.frames < math.inf for plan in derived)
    assert feasible > {"overworld": 4000, "nether": 100, "end": 0}[dimension]


def test_a_flower_from_the_nether_takes_the_trip_the_start_can_make(library):
    plans = PlanModel(library)
    flower = plans.rules.action_index["break.flower"]
    portal = Initialization(dimension="nether", inventory={"obsidian": 10, "flint_and_steel": 1})
    plan = plans.derivation(portal).plan_action(flower)
    assert plan is not None and "enter.overworld" in plan.tasks
    assert plans.derivation(Initialization(dimension="nether")).plan_action(flower) is None  # no obsidian there
