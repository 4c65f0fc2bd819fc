"""The scripted player over a seeded sample of a game's tasks: how many it completes, and whether replays agree.

The sample is drawn from the atoms that compile for the game (a seeded ``random.sample`` of their ids in sorted
order) and from random molecules (:func:`taskverse.algebra.generate.random_molecules`, same seed) that compile.
Each task is planned by :mod:`taskverse.engine.planner` and played once in the engine. A task the planner has no
plan for counts as not completed, with the planner's reason. The report gives the success rate, whether the
Python evaluator's replay agreed with the engine's verdict in every episode, and the failures by verb and reason.
"""

from __future__ import annotations

import random
import time
from collections import Counter, defaultdict
from typing import Any

from taskverse.engine.compiler import Compiler
from taskverse.engine.planner import NoPlan, plan_task
from taskverse.engine.runner import run_jobs


def sample_tasks(library: Any, game: str, atoms: int, molecules: int, seed: int) -> list[tuple[Any, Any]]:
    """``atoms`` compiling atoms and ``molecules`` compiling molecules, each with its compiled form, from ``seed``."""
    from taskverse.algebra.generate import random_molecules

    compiler = Compiler(library, game)
    compiled = [t for t in sorted(library.tasks, key=lambda t: t.id) if not compiler.problems(t)]
    rng = random.Random(seed)
    chosen = rng.sample(compiled, min(atoms, len(compiled)))
    out = [(task, compiler.compile(task)) for task in chosen]
    found = 0
    for molecule in random_molecules(library, molecules * 20, seed):
        if found >= molecules:
            break
        if compiler.problems(molecule):
            continue
        out.append((molecule, compiler.compile(molecule)))
        found += 1
    return out


def _verb(task: Any) -> str:
    return "molecule" if getattr(task, "kind", "atom") == "molecule" else task.goal.event.value


def run_sample(library: Any, game: str = "taskverse_mc", *, atoms: int = 200, molecules: int = 50, seed: int = 0,
               parallel: int = 2, timeout: float = 60.0) -> dict[str, Any]:
    """Plan and play the sample; return the report (see the module docstring)."""
    started = time.monotonic()
    tasks = sample_tasks(library, game, atoms, molecules, seed)
    jobs = []
    no_plan: dict[str, str] = {}
    for task, ir in tasks:
        try:
            jobs.append((task, ir, plan_task(task, ir, library)))
        except NoPlan as exc:
            no_plan[task.id] = str(exc)
    planned = time.monotonic()
    reports = run_jobs(jobs, library=library, parallel=parallel, timeout=timeout)
    wall = time.monotonic() - planned
    by_verb: dict[str, Counter[str]] = defaultdict(Counter)
    failures: dict[str, str] = {}
    for task, _ in tasks:
        by_verb[_verb(task)]["tasks"] += 1
    for task_id, reason in no_plan.items():
        failures[task_id] = f"no plan: {reason}"
    for (task, _, _), report in zip(jobs, reports, strict=True):
        by_verb[_verb(task)]["succeeded"] += report.success
        if not report.success:
            failures[task.id] = report.error or report.plan_error or f"not done (progress {report.progress:.2f})"
    reasons = Counter(_reason(text) for text in failures.values())
    n = len(tasks)
    return {
        "game": game, "seed": seed, "tasks": n,
        "atoms": sum(1 for t, _ in tasks if _verb(t) != "molecule"),
        "molecules": sum(1 for t, _ in tasks if _verb(t) == "molecule"),
        "planned": len(jobs), "succeeded": sum(r.success for r in reports),
        "success_rate": round(sum(r.success for r in reports) / n, 4) if n else 0.0,
        "replay_agrees": sum(1 for r in reports if r.replay is not None and r.replay.agrees),
        "episodes": len(reports), "engine_errors": sum(r.error is not None for r in reports),
        "servers_started": sum(not r.restarted for r in reports),
        "by_verb": {verb: dict(counts) for verb, counts in sorted(by_verb.items())},
        "failure_reasons": dict(reasons.most_common()),
        "failures": dict(sorted(failures.items())),
        "mean_episode_seconds": round(sum(r.timings.total for r in reports) / len(reports), 3) if reports else 0.0,
        "episodes_per_minute": round(60 * len(reports) / wall, 1) if wall > 0 else 0.0,
        "seconds": round(time.monotonic() - started, 1),
    }


def _reason(text: str) -> str:
    """A failure's group: its text up to the first name-specific part."""
    if text.startswith("no plan: "):
        rest = text.split(": ", 2)[-1]
        return "no plan: " + rest.split(" ", 3)[0] + " ..." if rest else "no plan"
    return text.split(":")[0][:60]
