"""The cheapest derivation the cost fixpoint prices, read back as a plan (``world.derivation``)."""

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import take_trip_back
from taskverse.errors import TaskverseError
from taskverse.world.derivation import Derivation, held_resources
from taskverse.world.rules import CostModel, Rules


@pytest.fixture(scope="module")
def model(library):
    rules = Rules.for_library(library)
    return rules, CostModel.for_rules(rules)


@pytest.fixture(scope="module")
def naive(model):
    rules, costs = model
    return Derivation.of_steps(rules, costs, {rules.index[("dimension", "overworld")]: 1})


def test_a_plan_from_nothing_exists_exactly_when_the_world_grounds_the_task(library, model, naive):
    rules, _ = model
    for a, atom in enumerate(rules.actions):
        assert (naive.steps_for(a) is None) == (library.world.task_rank(atom) == math.inf), atom


def _run(rules, steps, state):
    """Do the steps in the text world (chance yields as a plan counts on them); the actions done."""
    done = []
    for a, runs in steps:
        for _ in range(runs):
            try:
                rules.act(state, a, events=False)
            except TaskverseError as error:
                raise AssertionError(f"step {len(done)}: {error}; done so far: {done[-8:]}") from None
            done.append(rules.actions[a])
    return done


@pytest.mark.parametrize("atom", ["craft.wooden_pickaxe", "craft.stone_pickaxe", "craft.iron_sword",
                                  "craft.diamond_pickaxe", "craft.torch", "craft.white_bed", "craft.bread",
                                  "smelt.iron_ingot", "craft.furnace", "hunt.sheep", "mine.diamond_ore"])
def test_plans_from_nothing_run_in_the_text_world(model, naive, atom):
    rules, _ = model
    steps = naive.steps_for(rules.action_index[atom])
    done = _run(rules, steps, rules.new_state(found=[("dimension", "overworld")]))
    assert done[-1] == atom




def test_every_plan_from_nothing_runs_in_the_text_world(model, naive):
    """Tools, stations and found things are always there in time (worn tools made again, no place-and-mine loops).

    No step spends what a later step made for itself (a part that takes any of several items comes before the
    parts that make them: sticks before the acacia planks of a fence, the water's bucket before the lava bucket a
    furnace would burn), and no plan enters the End before a step elsewhere (a lingering potion's dragon's breath:
    everything else first). The trip back to the overworld is taken where a step needs it (the derivation leaves
    it out). A kept tool the runs wear out is always made again in time: no plan runs out of one.
    """
    rules, _ = model
    plans = short = worn = away = 0
    for a in range(len(rules.actions)):
        steps = naive.steps_for(a)
        if steps is None:
            continue
        plans += 1
        state = rules.new_state(found=[("dimension", "overworld")])
        for b, runs in steps:
            if not state.mask[b]:
                take_trip_back(rules, state, b)
            if not state.mask[b] and "(dimension)" in rules.explain(state, b):
                away += 1  # in the End before the dragon opens the way back
                break
            if not state.mask[b]:
                assert any(all(need.consume and len(need.members) == 1 for need in way
                               if not rules.need_met(state, need)) for way in rules.ways[b]), rules.explain(state, b)
                short += 1
                break
            done = 0
            while done < runs and state.mask[b]:
                rules.act(state, b, events=False)
                done += 1
            if done < runs:  # only a kept tool the runs wore out is missing
                assert done and any(all(not need.consume and not need.presence for need in way
                                        if not rules.need_met(state, need)) for way in rules.ways[b]), (
                    rules.explain(state, b))
                worn += 1
                break
    assert plans > 2500 and (short, worn, away) == (0, 0, 0), (short, worn, away, plans)


def test_setups_are_obtained_once_before_what_needs_them(model, naive):
    rules, _ = model
    steps = naive.steps_for(rules.action_index["craft.diamond_pickaxe"])
    atoms = [rules.actions[a] for a, _ in steps]
    for setup in ("craft.crafting_table", "craft.wooden_pickaxe", "craft.stone_pickaxe", "craft.iron_pickaxe"):
        assert atoms.count(setup) == 1, setup
    finds = [a for a in atoms if a.startswith("find.")]
    assert len(finds) == len(set(finds))  # a found thing stays found
    found = next(a for a in finds if a.endswith("diamond_ore"))
    assert atoms.index("craft.iron_pickaxe") < atoms.index(found) < atoms.index("mine." + found.split(".", 1)[1])


def test_what_the_initialization_holds_costs_nothing(library, model):
    rules, costs = model
    task = library.get("craft iron_sword")
    held = held_resources(rules, task.initialization.inventory, [("dimension", "overworld")])
    plan = Derivation.of_steps(rules, costs, held).steps_for(rules.action_index[task.id])
    assert plan == ((rules.action_index[task.id], 1),)
    short = dict(task.initialization.inventory, iron_ingot=1)  # one ingot short: that one is made
    plan = Derivation.of_steps(rules, costs, held_resources(rules, short, [])).steps_for(rules.action_index[task.id])
    assert "smelt.iron_ingot" in [rules.actions[a] for a, _ in plan] and plan[-1][0] == rules.action_index[task.id]


def test_a_tool_that_wears_is_made_again(library, model):
    rules, costs = model
    pickaxe = rules.index[("item", "wooden_pickaxe")]
    held = held_resources(rules, {}, [("dimension", "overworld")])
    plan = Derivation.of_steps(rules, costs, held)
    durability = rules.wear_of[pickaxe][1]
    mine = rules.action_index["mine.stone"]
    uses = next(n.uses for way in rules.ways[mine] for n in way if pickaxe in n.members)
    steps = plan.plan_needs(rules.ways[mine][0], durability // uses + 1, ((mine, durability // uses + 1),))
    made = {rules.actions[a]: runs for a, runs in steps}
    assert made["craft.wooden_pickaxe"] == 2  # 60 blocks: one more than a wooden pickaxe lasts


def test_a_chance_drop_takes_the_tries_that_give_it_with_95_percent_probability(model, naive):
    rules, _ = model
    # An apple drops from 1 in 200 oak or dark oak leaves (a farmer sells four for an emerald, which a plan from
    # nothing now prefers); a sapling from 1 in 20: 59 leaves give one with 95% probability (1 - 0.95 ** 59).
    steps = dict((rules.actions[a], runs) for a, runs in naive.steps_for(rules.action_index["place.oak_sapling"]))
    assert steps["mine.oak_leaves"] == 59


def _bound_and_length(library, model, naive, a: int) -> tuple[float, int] | None:
    """The planner's bound from nothing for the action's naive task, and the length of its derivation if it runs."""
    from taskverse.textenv.env import SkillForgeTextEnv
    from taskverse.textenv.planning import planner_for

    rules, _ = model
    steps = naive.steps_for(a)
    assert steps is not None
    try:
        _run(rules, steps, rules.new_state(found=[("dimension", "overworld")]))
    except AssertionError:
        return None  # one of the few plans that fall short in the text world (see above): not a plan
    env = SkillForgeTextEnv(task=f"naive({rules.actions[a]})", plan_info=False, library=library)
    env.reset(seed=0)
    planner = planner_for(env, from_start=True)
    return planner.heuristic(planner.start, planner.start_progress), sum(runs for _, runs in steps)


def test_a_macro_action_meets_the_bound_of_the_goal_it_counts_for(library, model, naive):
    """Clearing eight weeds at once counts for "mine 8 weeds" whichever weed it breaks: the bound sees one action."""
    rules, _ = model
    bound, length = _bound_and_length(library, model, naive, rules.action_index["clean.weeds"])
    assert bound <= length == 2


@pytest.mark.parametrize("atom", ["trade.blue_ice", "trade.tube_coral_block", "trade.podzol"])
def test_a_trade_for_a_chance_offer_is_tried_until_it_comes(library, model, naive, atom):
    """A wandering trader has an offer by chance and a try without it obtains nothing: the derivation tries until
    95% of players have the item (so its plan succeeds in the text world), and the planner's bound counts at least
    the tries the chance rule's linear bound asks, each using up a trader one find gives."""
    from taskverse.textenv.env import SkillForgeTextEnv
    from taskverse.world import chance

    rules, _ = model
    a = rules.action_index[atom]
    env = SkillForgeTextEnv(task=f"naive({atom})", plan_info=False, library=library, max_steps=10_000)
    env.reset(seed=0)
    done = False
    for b, runs in naive.steps_for(a):
        for _ in range(runs):
            assert not done
            _, _, done, _, _ = env.step(b)
    assert done
    out = rules.own_yield(a)
    bound, length = _bound_and_length(library, model, naive, a)
    tries = (rules.goals[a].count - chance.excess(out.chance, out.count, out.most)) / out.expected
    assert 2 * tries <= bound <= length


def test_the_planner_bound_never_exceeds_a_plan_that_runs(library, model, naive):
    """The search's heuristic is admissible: from nothing, no derivation that runs is shorter than its bound.

    (The fixpoint's own price is no bound: it picks a producer per run, so a setup that three runs would share
    can look dearer than a route the plan takes; and a plan's leftovers serve later steps.)
    """
    rules, costs = model
    over = []
    for a in range(len(rules.actions)):  # every action, so the law fails on the same action at every run
        if costs.action[a] == math.inf or rules.actions[a].startswith("obtain."):
            continue
        found = _bound_and_length(library, model, naive, a)
        if found is not None and found[0] > found[1]:
            over.append((rules.actions[a], *found))
    assert not over, over


@settings(max_examples=5, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_a_plan_does_not_depend_on_the_plans_asked_for_before(model, seed):
    """Scores and suites are built from these plans in whatever order a command asks: the order must not show.

    A derivation keeps parts of plans between questions; a part derived around a loop it had to cut depends on
    the path it was derived on (``obtain.fire_coral`` came out 25% cheaper after every atom before it).
    """
    rules, costs = model
    overworld = {rules.index[("dimension", "overworld")]: 1}
    atoms = list(range(0, len(rules.actions), 3))
    random.Random(seed).shuffle(atoms)
    shuffled = Derivation.of_steps(rules, costs, overworld)
    asked = {a: shuffled.steps_for(a) for a in atoms}
    fresh = {}
    for a in atoms[:12]:  # each alone, from a derivation that was asked nothing else
        fresh[a] = Derivation.of_steps(rules, costs, overworld).steps_for(a)
        assert asked[a] == fresh[a], rules.actions[a]
    in_order = Derivation.of_steps(rules, costs, overworld)
    for a in sorted(atoms):
        assert in_order.steps_for(a) == asked[a], rules.actions[a]
