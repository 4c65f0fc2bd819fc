"""Evaluating a planner on SkillForge-text: episodes, and a JSON report of success, steps and plan efficiency.

A report (``evaluate``) has the run's settings, a ``summary``, a ``by_category`` breakdown and a ``tasks`` list
with every episode. Plan efficiency is the shortest plan's length divided by the steps taken, on a successful
episode (0 on a failed one); ``plan_efficiency`` averages it over all episodes and
``plan_efficiency_successful`` over the successful ones. ``docs/textenv.md`` describes every field.
"""

from __future__ import annotations

import statistics
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from taskverse.errors import TaskverseError
from taskverse.textenv.agents import DEFAULT_BUDGET, Agent, make_agent
from taskverse.textenv.env import DEFAULT_MAX_STEPS, SkillForgeTextEnv, Target, resolve_action_text, resolve_target

REPORT_VERSION = 1


@dataclass(frozen=True)
class EvalTask:
    """A task to evaluate: how the user named it, and what it resolved to."""

    reference: str
    target: Target


def suite_tasks(name: str, library: Any) -> list[EvalTask]:
    """The tasks of ``benchmarks/NAME.yaml`` (or a suite file path): a ``tasks:`` list of ``id`` / ``expression``.

    Raises a TaskverseError naming the file when it is missing or malformed.
    """
    try:
        from taskverse.benchmarks import suites
    except ImportError:  # pragma: no cover - the suites module ships with the package
        suites = None  # type: ignore[assignment]
    if suites is not None:
        suite = suites.load_suite(name)
        out = []
        for item in suite.tasks:
            task = suites.resolve_suite_task(item, library)
            out.append(EvalTask(item.id, resolve_target(task, library)))
        return out
    return _plain_suite(name, library)  # pragma: no cover


def _plain_suite(name: str, library: Any) -> list[EvalTask]:  # pragma: no cover - fallback without suites
    from pathlib import Path

    from taskverse.paths import project_root
    from taskverse.yamlio import read_yaml

    path = Path(name) if name.endswith((".yaml", ".yml")) else project_root() / "benchmarks" / f"{name}.yaml"
    if not path.exists():
        raise TaskverseError(f"no suite {name!r}: expected a file {path} with a 'tasks:' list")
    data = read_yaml(path)
    if not isinstance(data, dict) or not isinstance(data.get("tasks"), list):
        raise TaskverseError("expected a mapping with a 'tasks:' list", file=path)
    out = []
    for i, item in enumerate(data["tasks"]):
        reference = item.get("expression") or item.get("id") if isinstance(item, dict) else None
        if reference is None:
            raise TaskverseError("each task needs an 'id' or an 'expression'", file=path, field=f"tasks.{i}")
        out.append(EvalTask(str(item.get("id", reference)), resolve_target(reference, library)))
    return out


def named_tasks(references: Sequence[str], library: Any) -> list[EvalTask]:
    """Tasks named on the command line (ids, descriptions, compositions or YAML paths)."""
    return [EvalTask(ref, resolve_target(ref, library)) for ref in references]


def run_episode(env: SkillForgeTextEnv, agent: Agent, target: Target, seed: int) -> dict[str, Any]:
    """One episode of ``agent`` on ``target``; the episode's record for the report."""
    _, info = env.reset(seed=seed, options={"task": target})
    agent.reset(env, seed)
    done = truncated = False
    invalid = 0
    while not (done or truncated):
        choice = agent.act(env)
        if isinstance(choice, str):
            try:
                action = resolve_action_text(env, choice)
            except TaskverseError as exc:
                _, _, done, truncated, info = env.invalid_step(str(exc))
                invalid += 1
                continue
        else:
            action = int(choice)
        _, _, done, truncated, info = env.step(action)
        invalid += bool(info["invalid_action"])
    steps = int(info["steps"])
    optimal = info.get("optimal_steps")
    success = bool(done)
    efficiency: float | None = 0.0
    if success:  # an unproven "shortest" plan can be beaten: the ratio is capped at 1
        efficiency = None if not optimal else round(min(1.0, optimal / max(steps, 1)), 4)
    return {
        "seed": seed,
        "success": success,
        "steps": steps,
        "efficiency": efficiency,
        "invalid_actions": invalid,
        "progress": round(float(info["progress"]), 4),
    }


def evaluate(agent_spec: str, tasks: Sequence[EvalTask], episodes: int = 1, seed: int = 0,
             max_steps: int = DEFAULT_MAX_STEPS, chance: str = "expected", initialization: str = "auto",
             suite: str | None = None, progress: bool = True, library: Any = None,
             budget: int = DEFAULT_BUDGET) -> dict[str, Any]:
    """Run ``episodes`` episodes of an agent (``random``, ``greedy``, ``optimal``, ``cmd:PROGRAM``) per task.

    Episode ``k`` of task ``i`` is seeded ``seed + i * episodes + k`` (the environment and the agent alike), so
    a report is reproducible from its seed. Returns the report (see the module docstring).
    """
    from tqdm import tqdm

    if not tasks:
        raise TaskverseError("no tasks to evaluate")
    if episodes < 1:
        raise TaskverseError(f"--episodes {episodes}: expected at least 1")
    env = SkillForgeTextEnv(task=tasks[0].target, observation="structured", max_steps=max_steps, chance=chance,
                            initialization=initialization, library=library)  # type: ignore[arg-type]
    agent = make_agent(agent_spec, budget)
    records = []
    bar = tqdm(total=len(tasks) * episodes, desc=f"eval {agent.name}", unit="episode", file=sys.stderr,
               disable=not progress, dynamic_ncols=True)
    try:
        for i, task in enumerate(tasks):
            runs = []
            for k in range(episodes):
                runs.append(run_episode(env, agent, task.target, seed + i * episodes + k))
                bar.update(1)
            optimal = env._plan_info or (None, False)
            records.append(_task_record(task, runs, optimal))
    finally:
        bar.close()
        agent.close()
    all_runs = [run for record in records for run in record["episodes"]]
    by_category: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        by_category[record["category"]].extend(record["episodes"])
    return {
        "version": REPORT_VERSION,
        "agent": agent.name,
        "suite": suite,
        "episodes_per_task": episodes,
        "seed": seed,
        "max_steps": max_steps,
        "chance": chance,
        "initialization": initialization,
        "summary": {"tasks": len(records), **_stats(all_runs)},
        "by_category": {category: {"tasks": sum(1 for r in records if r["category"] == category), **_stats(runs)}
                        for category, runs in sorted(by_category.items())},
        "tasks": records,
    }


def _task_record(task: EvalTask, runs: list[dict[str, Any]], optimal: tuple[int | None, bool]) -> dict[str, Any]:
    target = task.target
    return {
        "task": task.reference,
        "id": target.id,
        "description": target.description,
        "category": target.category,
        "optimal_steps": optimal[0],
        "optimal_proven": optimal[1],
        **_stats(runs),
        "episodes": runs,
    }


def _stats(runs: list[dict[str, Any]]) -> dict[str, Any]:
    successes = [r for r in runs if r["success"]]
    rated = [r["efficiency"] for r in runs if r["efficiency"] is not None]
    rated_successes = [r["efficiency"] for r in successes if r["efficiency"] is not None]
    return {
        "episodes": len(runs),
        "successes": len(successes),
        "success_rate": round(len(successes) / len(runs), 4) if runs else 0.0,
        "mean_steps": round(statistics.fmean(r["steps"] for r in runs), 3) if runs else 0.0,
        "mean_steps_successful": round(statistics.fmean(r["steps"] for r in successes), 3) if successes else None,
        "plan_efficiency": round(statistics.fmean(rated), 4) if rated else 0.0,
        "plan_efficiency_successful": round(statistics.fmean(rated_successes), 4) if rated_successes else None,
        "invalid_actions": sum(r["invalid_actions"] for r in runs),
    }


def summary_lines(report: dict[str, Any]) -> list[str]:
    """A short human-readable summary of a report."""
    s = report["summary"]
    lines = [f"{report['agent']}: {s['successes']}/{s['episodes']} episodes succeeded "
             f"({100 * s['success_rate']:.1f}%) on {s['tasks']} task(s); mean steps {s['mean_steps']:.1f}; "
             f"plan efficiency {s['plan_efficiency']:.3f}"]
    for category, c in report["by_category"].items():
        lines.append(f"  {category:<13} {c['successes']:>4}/{c['episodes']:<4} success {100 * c['success_rate']:5.1f}%"
                     f"  steps {c['mean_steps']:6.1f}  efficiency {c['plan_efficiency']:.3f}")
    return lines


__all__ = ["EvalTask", "evaluate", "make_agent", "named_tasks", "run_episode", "suite_tasks", "summary_lines"]
