"""Plans for an environment's target: a planner from the episode's start or from now, and cached plan lengths."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from taskverse.algebra.tracker import GoalTracker
from taskverse.world.rules import CostModel, Rules
from taskverse.world.search import TIE_WEIGHT, Planner, StateDict, holdings

if TYPE_CHECKING:
    from taskverse.textenv.env import SkillForgeTextEnv

DEFAULT_BUDGET = 1000
"""States the optimal planner may expand to prove a plan shortest before it settles for the best found."""


def game_time_costs(rules: Any, library: Any) -> list[float]:
    """Game time of each action of the rules, in frames: one run of its atom's own action (a named estimate).

    The estimate is ``difficulty.timemodel``'s: breaking times from hardness and tool speed, 200 ticks a smelt,
    fights from the mob's health and the weapon's damage, walking distances to what is found. Cached per rules.
    """
    cached: list[float] | None = getattr(rules, "_game_time_costs", None)
    if cached is None:
        from taskverse.difficulty.timemodel import ActionModel

        model = ActionModel(library.knowledge)
        cached = [model.action(library.by_id[atom]).frames for atom in rules.actions]
        rules._game_time_costs = cached
    return cached


def text_rules(library: Any) -> Rules:
    """The library's rules with what the planners price by (game times, the cost models), kept in the cache.

    Compiling the rules and settling their cost models takes seconds and depends only on the library and the
    code: every command after the first reads them back in a fraction of a second.
    """
    rules: Rules | None = getattr(library, "_textworld_rules", None)
    if rules is not None and getattr(rules, "_game_time_costs", None) is not None:
        return rules

    def build() -> Rules:
        built = Rules.for_library(library)
        times = game_time_costs(built, library)
        CostModel.for_rules(built)  # from an empty inventory: by steps, and by steps then game time (Planner)
        CostModel.for_rules(built, [1.0 + TIE_WEIGHT * t for t in times])
        return built

    if library.digest:
        from taskverse.memo import code_digest, remembered

        rules = remembered("textrules", f"{library.digest[:16]}-{code_digest()}", build)
    else:
        rules = build()
    library._textworld_rules = rules
    return rules


def planner_for(env: SkillForgeTextEnv, from_start: bool = False, budget: int = DEFAULT_BUDGET,
                action_cost: Sequence[float] | None = None) -> Planner:
    """A planner for the environment's target, from the episode's start or from where the episode is now.

    With ``action_cost`` (e.g. ``game_time_costs``) it minimises that cost instead of the number of steps;
    else it minimises steps, and among equally short alternatives prefers the faster in game time.
    """
    rules = env.rules
    tracker = GoalTracker(env.expression, env.evaluator, env.context)
    if from_start:
        start = holdings(rules, rules.state_from_initialization(env.start))
        progress = tracker.initial()
    else:
        start = holdings(rules, env.state)
        progress = tracker.feed(tracker.initial(), env.light_trace)
    tie_break = game_time_costs(rules, env.library) if action_cost is None else None
    return Planner(rules, tracker, start, start_progress=progress, max_expansions=budget, action_cost=action_cost,
                   tie_break=tie_break)


def view(planner: Planner, env: SkillForgeTextEnv) -> StateDict:
    """The environment's state as the planner keeps it."""
    return planner.normalize(holdings(env.rules, env.state))


def plan_for(env: SkillForgeTextEnv, from_start: bool = False,
             budget: int = DEFAULT_BUDGET) -> tuple[list[int] | None, bool]:
    """(a shortest plan, proven) for the environment's target; see ``Planner.best_plan``."""
    if from_start:
        return plan_from_start(env, budget)[1:]
    return planner_for(env, from_start, budget).best_plan()


def plan_from_start(env: SkillForgeTextEnv, budget: int = DEFAULT_BUDGET) -> tuple[Planner, list[int] | None, bool]:
    """The planner from the episode's start and its (plan, proven), the plan remembered on disk.

    The same target from the same start gets the same plan whoever asks (the suite builder's check, an
    evaluation's plan efficiency, the optimal agent's first plan): it is planned once per library and code.
    """
    planner = planner_for(env, from_start=True, budget=budget)
    return (planner, *remembered_best_plan(env, planner, budget))


def remembered_best_plan(env: SkillForgeTextEnv, planner: Planner, budget: int = DEFAULT_BUDGET
                         ) -> tuple[list[int] | None, bool]:
    """``planner.best_plan()``, remembered on disk per library and code (see ``plan_from_start``).

    ``planner`` plans the episode's target from its start in steps, as ``planner_for(env, True, budget)`` makes it.
    """
    if not _remembers(env):  # a file's own atoms: not remembered
        return planner.best_plan()
    found = recalled_plan(env, budget)
    if found is not None:
        return found
    plan, proven = planner.best_plan()
    memo = _plan_memo(env.library)
    memo.put(_plan_key(env, budget), (plan, proven))
    if not any(memo is later for later in _SAVED_LATER):
        memo.save()  # a few hundred bytes a plan: kept at once, for the processes that start next
    return None if plan is None else list(plan), proven


def recalled_plan(env: SkillForgeTextEnv, budget: int = DEFAULT_BUDGET) -> tuple[list[int] | None, bool] | None:
    """The (plan, proven) ``remembered_best_plan`` kept for the episode's target and start, or None.

    A caller with a remembered plan needs no planner: building one (its cost model lowered for the start) can
    take longer than the plan took to look up.
    """
    if not _remembers(env):
        return None
    found = _plan_memo(env.library).get(_plan_key(env, budget))
    if found is None:
        return None
    plan, proven = found
    return None if plan is None else list(plan), proven


def _remembers(env: SkillForgeTextEnv) -> bool:
    """Whether plans for the episode's target are kept on disk: a library's own atoms, not a file's."""
    return not env.target.extra_goals and bool(getattr(env.library, "digest", ""))


def _plan_key(env: SkillForgeTextEnv, budget: int) -> tuple[Any, ...]:
    return (env.expression.model_dump_json(), env.start.model_dump_json(), env.chance, budget)


_PLAN_MEMO: list[tuple[Any, Any]] = []
_SAVED_LATER: list[Any] = []  # plan memos that ``plans_saved_together`` saves when its block ends


@contextmanager
def plans_saved_together(library: Any) -> Iterator[None]:
    """Within the block, the plans ``remembered_best_plan`` makes for ``library`` are saved once, at its end.

    Saving writes the whole memo: a suite build that plans a hundred targets in one process would otherwise rewrite
    a growing file a hundred times. Processes that start after the block still find every plan.
    """
    if not getattr(library, "digest", ""):
        yield
        return
    memo = _plan_memo(library)
    _SAVED_LATER.append(memo)
    try:
        yield
    finally:
        _SAVED_LATER.remove(memo)
        memo.save()


def _plan_memo(library: Any) -> Any:
    """The plans remembered for a library (one kept: the last library asked about)."""
    if _PLAN_MEMO and _PLAN_MEMO[0][0] is library:
        return _PLAN_MEMO[0][1]
    from taskverse.memo import DiskMemo, code_digest

    memo = DiskMemo("startplans", f"{library.digest[:16]}-{code_digest()}")
    _PLAN_MEMO[:] = [(library, memo)]
    return memo


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
