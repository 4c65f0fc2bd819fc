"""A plan gathers before a portal trip what it would come back for (``world.search.trip_needs``): the spares that wear
on the other side will need, and the items only this side gives that a later visit would gather."""

from __future__ import annotations

import pytest

from taskverse.textenv.env import SkillForgeTextEnv
from taskverse.textenv.planning import planner_for
from taskverse.textenv.plans import plan_task
from taskverse.world import search


def _segments(rules, actions: list[str]) -> list[tuple[set[int], set[int], set[int]]]:
    """Replays a plan from scratch; per stretch between trips, the worn tools that broke, the ones made, and the
    ones held at its end (when it takes the next trip)."""
    state = rules.new_state()
    segments: list[tuple[set[int], set[int], set[int]]] = [(set(), set(), set())]
    for name in actions:
        a = rules.action_index[name]
        before = list(state.counts)
        rules.act(state, a, events=False)
        if a in rules.trips:
            segments[-1][2].update(r for r in rules.wear_of if state.counts[r] > 0)
            segments.append((set(), set(), set()))
            continue
        broke, made, _ = segments[-1]
        for r in rules.wear_of:
            if state.counts[r] < before[r] and not any(n.consume and r in n.members for way in rules.ways[a]
                                                       for n in way):
                broke.add(r)
            elif state.counts[r] > before[r]:
                made.add(r)
    return segments


def _kinds(rules) -> dict[int, frozenset[int]]:
    """Per worn tool, the tools that meet a kept need with it (any sword for a fight)."""
    kinds: dict[int, set[int]] = {}
    for ways in rules.ways:
        for way in ways:
            for need in way:
                if not need.consume and need.wears:
                    for m in need.members:
                        kinds.setdefault(m, set()).update(need.members)
    return {m: frozenset(k) for m, k in kinds.items()}


@pytest.mark.parametrize("task", ["naive(obtain.elytra)", "naive(craft.shulker_box)", "naive(craft.end_rod)"])
def test_no_trip_back_only_to_replace_what_wore_out_on_the_other_side(library, rules, task):
    """Law: a trip back with none left of a kind of tool that broke on the other side makes none of it at home.

    A spare made before leaving costs what the copy made back home costs, without the round trip: a player
    brings it (on the tree before this rule, the elytra went back to the overworld twice for a stone sword worn
    out on blazes and endermen, and the shulker box left the End once for a wooden sword).
    """
    kinds = _kinds(rules)
    segments = _segments(rules, plan_task(task, library).actions)
    for (broke, _, held), (_, made, _) in zip(segments[1:], segments[2:], strict=False):
        replaced = {m for m in made if any(b in kinds.get(m, ()) for b in broke) and held.isdisjoint(kinds[m])}
        assert not replaced, [rules.names[m] for m in replaced]


@pytest.mark.parametrize("task", ["naive(obtain.elytra)", "naive(obtain.dragon_head)"])
def test_the_end_from_scratch_goes_through_the_nether_portal_once(library, task):
    """A player needs the nether once, for the blaze rods of all twelve eyes of ender: one round trip (twice before
    this rule: the first trip brought five rods and went home for the iron armour; four times before the spares)."""
    actions = plan_task(task, library).actions
    assert actions.count("enter.nether") == 1
    assert actions.count("enter.overworld") == 1


@pytest.mark.parametrize("task", ["naive(craft.end_rod)", "naive(craft.purpur_block)", "naive(craft.shulker_box)"])
def test_one_nether_trip_gathers_every_blaze_rod(library, task):
    """The eyes of ender and the end rod's own rod: every blaze kill in one visit to the nether (the end rod's plan
    walked through the portal six times before, for one or two rods at a time)."""
    actions = plan_task(task, library).actions
    assert actions.count("enter.nether") == 1
    nether = actions.index("enter.nether")
    back = actions.index("enter.overworld", nether)
    assert all(i in range(nether, back) for i, a in enumerate(actions) if a == "combat.blaze")


def _visits(rules, actions: list[str]) -> list[tuple[int, int, int]]:
    """Replays a plan from scratch: (dimension, first step, end step) of each stretch between trips."""
    state = rules.new_state()
    where = next(d for d in rules.dimensions if state.counts[d] > 0)
    visits, begin = [], 0
    for i, name in enumerate(actions):
        a = rules.action_index[name]
        rules.act(state, a, events=False)
        if a in rules.trips:
            visits.append((where, begin, i))
            where, begin = next(d for d in rules.dimensions if state.counts[d] > 0), i + 1
    visits.append((where, begin, len(actions)))
    return visits


@pytest.mark.parametrize("task", ["naive(obtain.elytra)", "naive(craft.end_rod)", "naive(craft.purpur_block)",
                                  "naive(craft.shulker_box)", "naive(brew.potion_of_healing)"])
def test_no_errand_back_for_what_the_last_visit_could_have_gathered(library, rules, task):
    """Law: a visit to a dimension that is only an errand (it goes back where it came from, or ends the plan) does
    not only repeat there, with the same kind of step, what the previous visit already did there.

    Gathered on the earlier visit, the same items cost the same by the cost model, and the round trip is saved.
    """
    actions = plan_task(task, library).actions
    visits = _visits(rules, actions)
    for k, (where, begin, end) in enumerate(visits):
        earlier = [v for v in visits[:k] if v[0] == where]
        if not earlier or k == 0:
            continue
        came_from = visits[k - 1][0]
        errand = k == len(visits) - 1 or visits[k + 1][0] == came_from
        done_before = {actions[i] for v in earlier for i in range(v[1], v[2])}
        bound = [actions[i] for i in range(begin, end) if rules.action_index[actions[i]] not in rules.trips
                 and _bound(rules, rules.action_index[actions[i]], where)]
        assert not (errand and bound and set(bound) <= done_before), (rules.names[where], bound)


def _bound(rules, a: int, where: int) -> bool:
    """Whether every way of action ``a`` is done in dimension ``where`` alone."""
    return all(any(n.presence and all(rules.lies_in.get(m) == where for m in n.members) for n in way)
               for way in rules.ways[a])


def test_the_shulker_box_plan_never_leaves_the_end(library):
    """The shulker fight wears the sword out in the End, which has no wood: the spare comes along."""
    actions = plan_task("naive(craft.shulker_box)", library).actions
    end = actions.index("enter.end")
    assert actions.count("enter.end") == 1
    assert not any(a.startswith("enter.") for a in actions[end + 1:])


def _best_plan(library, task: str) -> list[int] | None:
    """The planner's plan from the task's start, planned now (``plan_task`` recalls a plan remembered on disk)."""
    env = SkillForgeTextEnv(task=task, initialization="task", plan_info=False, library=library)
    env.reset(seed=0)
    return planner_for(env, from_start=True).best_plan()[0]


@pytest.mark.parametrize("task", ["naive(craft.end_rod)", "naive(craft.iron_sword)"])
def test_plans_are_the_same_with_the_planners_memos_bounded_to_one_entry(library, monkeypatch, task):
    """Law: the greedy choices and the looks past a trip that a planner remembers only save work.

    A memo started afresh at every ask (``_CHOICE_MEMO``, ``_TRIP_MEMO`` at 0: one entry at most) gives the plan a
    memo kept whole gives: an entry that no longer held for its key (a stale memo) would show as another plan.
    """
    kept = _best_plan(library, task)
    monkeypatch.setattr(search, "_CHOICE_MEMO", 0)
    monkeypatch.setattr(search, "_TRIP_MEMO", 0)
    assert _best_plan(library, task) == kept
