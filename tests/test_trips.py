"""A plan brings across a portal the spares that wear on the other side will need (``world.search.trip_spares``)."""

from __future__ import annotations

import pytest

from taskverse.textenv.plans import plan_task


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
def test_the_end_from_scratch_goes_through_the_nether_portal_at_most_twice(library, task):
    """A player needs the nether once, for blaze rods; this planner goes twice (it goes home for iron armour
    before it has all its rods), never again for a sword or a helmet worn out there (four times before)."""
    actions = plan_task(task, library).actions
    assert actions.count("enter.nether") <= 2


def test_the_shulker_box_plan_never_leaves_the_end(library):
    """The shulker fight wears the sword out in the End, which has no wood: the spare comes along."""
    actions = plan_task("naive(craft.shulker_box)", library).actions
    end = actions.index("enter.end")
    assert actions.count("enter.end") == 1
    assert not any(a.startswith("enter.") for a in actions[end + 1:])
