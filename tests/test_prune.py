"""Pruning a first plan: the fast ``prune_plan`` drops exactly what trying every drop on the whole plan drops."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taskverse.textenv.env import SkillForgeTextEnv
from taskverse.textenv.planning import planner_for
from taskverse.world.search import Planner, prune_plan


def runs(planner: Planner, plan: list[int]) -> bool:
    """Whether a plan runs from the planner's start and reaches its goal."""
    state, progress = dict(planner.start), planner.start_progress
    for a in plan:
        w = planner.enabled_way(a, state)
        if w is None:
            return False
        state, progress = planner.apply(state, progress, a, w)
    return bool(planner.tracker.done(progress))


def reference_prune(planner: Planner, plan: list[int]) -> list[int]:
    """Drop one step at a time, last first, replaying the whole plan each time, until no step can go."""
    dropped = True
    while dropped:
        dropped = False
        for i in range(len(plan) - 1, -1, -1):
            if i < len(plan) and runs(planner, plan[:i] + plan[i + 1:]):
                plan = plan[:i] + plan[i + 1:]
                dropped = True
    return plan


def _planner(library, task: str) -> Planner:
    env = SkillForgeTextEnv(task=task, observation="structured", plan_info=False, library=library)
    env.reset(seed=0)
    return planner_for(env, from_start=True)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(task=st.sampled_from(["craft stone_pickaxe from scratch", "craft torch from scratch",
                             "craft flint_and_steel from scratch"]),
       copies=st.lists(st.tuples(st.integers(0, 200), st.integers(1, 4)), min_size=1, max_size=4))
def test_pruning_drops_what_trying_every_drop_drops(library, task, copies):
    """Runs of repeated steps (a mine done once too often) are pruned as the one-drop-at-a-time rule prunes them."""
    planner = _planner(library, task)
    plan, _ = planner.best_plan()
    assert plan is not None
    padded = list(plan)
    for at, times in copies:  # repeat a step in place: often still a plan, with steps it can do without
        i = at % len(padded)
        padded[i + 1:i + 1] = [padded[i]] * times
    if not runs(planner, padded):
        return
    pruned = prune_plan(planner, padded)
    assert runs(planner, pruned)
    assert pruned == reference_prune(planner, padded)


def test_pruning_stops_at_a_lower_bound(library):
    """A plan as short as the given floor comes back as it is, even with a step it could do without."""
    planner = _planner(library, "craft torch from scratch")
    plan, _ = planner.best_plan()
    assert plan is not None
    padded = plan[:1] + plan  # the first step (a find or a mine) twice
    assert runs(planner, padded)
    assert prune_plan(planner, padded, floor=len(padded)) == padded
    assert len(prune_plan(planner, padded)) < len(padded)
