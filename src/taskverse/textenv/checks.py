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

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from taskverse.algebra.tracker import GoalTracker
from taskverse.benchmarks.suites import Checker, TaskCheck, step_limit, task_hash
from taskverse.errors import TaskverseError
from taskverse.memo import DiskMemo, code_digest
from taskverse.textenv.agents import OptimalAgent
from taskverse.textenv.env import SkillForgeTextEnv
from taskverse.textenv.planning import DEFAULT_BUDGET, plans_saved_together
from taskverse.world.search import holdings, infeasibility


def check_task(task: Any, library: Any, budget: int = DEFAULT_BUDGET) -> TaskCheck:
    """A task's shortest plan length and step limit, or why it is not honest (infeasible or unsolvable)."""
    try:
        env = SkillForgeTextEnv(task=task, observation="structured", plan_info=False, library=library)
    except TaskverseError as exc:
        return TaskCheck(None, None, f"not a task of the text environment: {exc}")
    env.reset(seed=0)
    reason = infeasibility(env.rules, GoalTracker(env.expression, env.evaluator, env.context),
                           holdings(env.rules, env.state))
    if reason is not None:  # proven without a search
        return TaskCheck(None, None, f"infeasible: {reason}")
    agent = OptimalAgent(budget)
    agent.reset(env, 0)  # the agent's first plan is the shortest plan from the start: it is planned once
    if agent.stuck:  # not proven infeasible, and no step limit to give it without a plan
        return TaskCheck(None, None, f"no plan: the planner finds none from its start in the text world within "
                                     f"{budget} expanded states (not proven infeasible)")
    plan = list(agent.plan)
    limit = step_limit(len(plan))
    env.reset(seed=0, options={"max_steps": limit})  # the same start: the agent's plan still holds
    if _plan_finishes(env, plan):  # what the agent does when the world goes as its plan expects
        return TaskCheck(len(plan), limit)
    agent.reset(env, 0)  # the world went otherwise: the agent replans as it goes, as in an evaluation
    env.reset(seed=0, options={"max_steps": limit})
    done = truncated = False
    while not (done or truncated):
        _, _, done, truncated, _ = env.step(agent.act(env))
    if not done:
        return TaskCheck(len(plan), limit, f"unsolved: the optimal agent did not finish it within {limit} steps "
                                           f"(shortest plan {len(plan)})")
    return TaskCheck(len(plan), limit)


def _plan_finishes(env: SkillForgeTextEnv, plan: list[int]) -> bool:
    """Whether doing the plan's steps in turn, each a candidate when its turn comes, ends the episode done.

    The optimal agent only replans when the world leaves its plan's path; when every step is possible in turn
    and the last one finishes the task, its episode is this one, without its per-step comparisons.
    """
    done = False
    for a in plan:
        if done or not env.state.mask[a]:
            return False
        _, _, done, truncated, _ = env.step(a)
        if truncated and not done:
            return False
    return done


@contextmanager
def remembered_checks(library: Any) -> Iterator[Checker]:
    """``check_task`` for a library, remembering its verdicts on disk (keyed by the library, the code, the task).

    Rebuilding a suite, or the pipeline's SkillForge step after ``taskverse suite build``, then checks only the
    tasks it has not seen: a verdict depends on nothing else. The verdicts are saved when the block ends.
    """
    memo = DiskMemo("checks", f"{library.digest[:16]}-{code_digest()}")

    def check(task: Any) -> TaskCheck:
        key = task_hash(task)
        verdict = memo.get(key)
        if verdict is None:
            verdict = check_task(task, library)
            memo.put(key, verdict)
        return verdict

    try:
        with plans_saved_together(library):  # the checks' plans from the start, written once
            yield check
    finally:
        memo.save()


__all__ = ["check_task", "remembered_checks"]
