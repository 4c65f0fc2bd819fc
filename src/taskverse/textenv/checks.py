"""Whether a task is honest in SkillForge-text: feasible, and solvable within the step limit a suite records.

``check_task`` plans the task from the start an evaluation uses (``initialization="auto"``), derives the step
limit from the plan's length (``benchmarks.suites.step_limit``), and runs the optimal agent in the environment
under that limit: a task passes only when that episode succeeds. The suite builder takes it as its checker, so
the check holds for whatever the game model and the atom data are.

Example:
    >>> from taskverse.textenv.env import shared_library
    >>> check_task("craft stick", shared_library())
    TaskCheck(optimal_steps=4, max_steps=18, reason=None)

"""

from __future__ import annotations

from typing import Any

from taskverse.benchmarks.suites import TaskCheck, step_limit
from taskverse.errors import TaskverseError
from taskverse.textenv.agents import OptimalAgent
from taskverse.textenv.env import SkillForgeTextEnv
from taskverse.textenv.planning import DEFAULT_BUDGET

LAST_RESORT_BUDGET = 20_000
"""States searched before a task with no plan found is declared infeasible."""


def check_task(task: Any, library: Any, budget: int = DEFAULT_BUDGET) -> TaskCheck:
    """A task's shortest plan length and step limit, or why it is not honest (infeasible or unsolvable)."""
    try:
        env = SkillForgeTextEnv(task=task, observation="structured", plan_info=False, library=library)
    except TaskverseError as exc:
        return TaskCheck(None, None, f"not a task of the text environment: {exc}")
    env.reset(seed=0)
    agent = OptimalAgent(budget)
    agent.reset(env, 0)  # the agent's first plan is the shortest plan from the start: it is planned once
    if agent.stuck:  # the heuristic knows little of some constraints (how=with:TOOL): search harder before saying no
        budget = max(budget, LAST_RESORT_BUDGET)
        agent = OptimalAgent(budget)
        agent.reset(env, 0)
    if agent.stuck:
        return TaskCheck(None, None, f"infeasible: no plan reaches it from its start in the text world "
                                     f"(searched {budget} states)")
    plan = list(agent.plan)
    limit = step_limit(len(plan))
    env.reset(seed=0, options={"max_steps": limit})  # the same start: the agent's plan still holds
    done = truncated = False
    while not (done or truncated):
        _, _, done, truncated, _ = env.step(agent.act(env))
    if not done:
        return TaskCheck(len(plan), limit, f"unsolved: the optimal agent did not finish it within {limit} steps "
                                           f"(shortest plan {len(plan)})")
    return TaskCheck(len(plan), limit)


__all__ = ["check_task"]
