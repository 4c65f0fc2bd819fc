"""Plans as a user asks for them (``taskverse plan``): a task's plan by steps or by estimated game time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from taskverse.errors import TaskverseError
from taskverse.textenv.env import SkillForgeTextEnv
from taskverse.textenv.planning import DEFAULT_BUDGET, game_time_costs, planner_for, recalled_plan, remembered_best_plan
from taskverse.world.search import infeasibility

Objective = Literal["steps", "time"]
FRAMES_PER_SECOND = 20


@dataclass(frozen=True)
class PlanReport:
    """A plan for a task: its actions, length, estimated game time, and whether it is proven optimal."""

    task: str
    description: str
    objective: Objective
    actions: list[str]
    descriptions: list[str]
    frames: list[float]
    proven: bool
    start: dict[str, Any]

    @property
    def steps(self) -> int:
        """How many actions the plan takes."""
        return len(self.actions)

    @property
    def total_frames(self) -> float:
        """The plan's estimated game time, in frames (20 a second)."""
        return float(sum(self.frames))

    def to_json(self) -> dict[str, Any]:
        """The report as plain data (``taskverse plan --format json``)."""
        return {
            "task": self.task, "description": self.description, "objective": self.objective,
            "start": self.start, "steps": self.steps, "game_time_frames": round(self.total_frames, 1),
            "game_time_seconds": round(self.total_frames / FRAMES_PER_SECOND, 1), "proven_optimal": self.proven,
            "time_source": "proxy:timemodel (estimated frames of each atom's own action)",
            "actions": [{"id": a, "description": d, "frames": round(f, 1)}
                        for a, d, f in zip(self.actions, self.descriptions, self.frames, strict=True)],
        }


def plan_task(task: Any, library: Any, objective: Objective = "steps", budget: int = DEFAULT_BUDGET) -> PlanReport:
    """The one planner's plan for a task (atom, molecule, id, description or composition) from its own start.

    ``naive(...)`` starts from an empty inventory; an atom starts from its initialization. ``objective`` says
    what the plan minimises: the number of steps, or the estimated game time. Raises a TaskverseError when the
    planner finds no plan within its budget.
    """
    if objective not in ("steps", "time"):
        raise TaskverseError(f"objective {objective!r}: expected steps or time")
    env = SkillForgeTextEnv(task=task, initialization="task", plan_info=False, library=library)
    env.reset(seed=0)
    times = game_time_costs(env.rules, library)
    # In steps, the plan every caller shares (the suite checks, evaluations, criteria): remembered on disk. A
    # remembered plan was planned after the infeasibility check passed, by the same library and code.
    found = recalled_plan(env, budget) if objective == "steps" else None
    if found is None:
        planner = planner_for(env, from_start=True, budget=budget,
                              action_cost=times if objective == "time" else None)
        reason = infeasibility(planner.rules, planner.tracker, planner.start)
        if reason is not None:
            raise TaskverseError(f"{env.target.description!r} cannot be done in the text world: {reason}")
        found = remembered_best_plan(env, planner, budget) if objective == "steps" else planner.best_plan()
    plan, proven = found
    if plan is None:
        raise TaskverseError(f"no plan for {env.target.description!r} within {budget} expanded states: "
                             "it is not solvable from this start, or needs a larger --budget")
    rules = env.rules
    start = env.start.model_dump(mode="json", exclude_defaults=True)
    return PlanReport(env.target.id, env.target.description, objective, [rules.actions[a] for a in plan],
                      [rules.descriptions[a] for a in plan], [times[a] for a in plan], proven, start)
