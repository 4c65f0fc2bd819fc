"""Plans for an environment's target: a planner from the episode's start or from now, and cached plan lengths."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from taskverse.algebra.tracker import GoalTracker
from taskverse.world.search import Planner, StateDict, holdings

if TYPE_CHECKING:
    from taskverse.textenv.env import SkillForgeTextEnv

DEFAULT_BUDGET = 1000
"""States the optimal planner may expand to prove a plan shortest before it settles for the best found."""


def planner_for(env: SkillForgeTextEnv, from_start: bool = False, budget: int = DEFAULT_BUDGET,
                action_cost: Sequence[float] | None = None) -> Planner:
    """A planner for the environment's target, from the episode's start or from where the episode is now.

    With ``action_cost`` (e.g. ``game_time_costs``) it minimises that cost instead of the number of steps.
    """
    rules = env.rules
    tracker = GoalTracker(env.expression, env.evaluator, env.context)
    if from_start:
        start = holdings(rules, rules.state_from_initialization(env.start))
        progress = tracker.initial()
    else:
        start = holdings(rules, env.state)
        progress = tracker.feed(tracker.initial(), env.light_trace)
    return Planner(rules, tracker, start, start_progress=progress, max_expansions=budget, action_cost=action_cost)


def view(planner: Planner, env: SkillForgeTextEnv) -> StateDict:
    """The environment's state as the planner keeps it."""
    return planner.normalize(holdings(env.rules, env.state))


def plan_for(env: SkillForgeTextEnv, from_start: bool = False,
             budget: int = DEFAULT_BUDGET) -> tuple[list[int] | None, bool]:
    """(a shortest plan, proven) for the environment's target; see ``Planner.best_plan``."""
    return planner_for(env, from_start, budget).best_plan()


# -- plan lengths (cached across environments: planning takes milliseconds, stepping microseconds) --------------

_PLAN_CACHE: OrderedDict[tuple[Any, ...], tuple[int | None, bool]] = OrderedDict()
_PLAN_CACHE_SIZE = 4096


def shortest_plan_length(env: SkillForgeTextEnv) -> tuple[int | None, bool]:
    """(length of the shortest plan from the episode's start, whether it is proven shortest); cached."""
    key = (id(env.rules), env.target.expression.key if hasattr(env.target.expression, "key") else
           repr(env.target.expression), repr(env.start), env.chance)
    cached = _PLAN_CACHE.get(key)
    if cached is None:
        plan, proven = plan_for(env, from_start=True)
        cached = (None if plan is None else len(plan), proven)
        _PLAN_CACHE[key] = cached
        if len(_PLAN_CACHE) > _PLAN_CACHE_SIZE:
            _PLAN_CACHE.popitem(last=False)
    return cached
