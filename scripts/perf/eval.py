"""Benchmark: 1,000 greedy SkillForge-text episodes in this process, on 2 workers and on a local Ray cluster.

All three in one run (Ray with 2 CPUs).

Prints figures (never asserts): wall seconds and episodes per second of each backend, and Ray's overhead per
episode (its wall time minus the 2-worker local run's, per episode; and against one worker), both with Ray's
start-up (starting Ray, loading the library in its workers) and after it (Ray started and its workers warmed by one
episode a target, six times over, so that each actor has planned the targets' shortest plans as the forked local
workers inherit them from this process, as a long evaluation sees it). The episodes are craft targets from an empty
inventory (the first 100 reachable craft atoms, 10 episodes each), no observations kept, the trajectory file
written as in a real run. On Ray the episodes go in batches (``evaluation.ray_batch``) to a pool of actors, one per
CPU, each of which loaded the library once when it started (``evaluation.prepare_worker``); with Ray started by the
script, the warm-up's pool serves the timed run.

Beside wall time, each backend's CPU seconds: this process's, its children's that ended (the forked workers), and
those of its descendants still running (the Ray processes and actors, ``psutil``). On a busy machine the CPU
figures are the ones to compare: wall time there also counts other people's work. Ray's start-up run has no CPU
figure, since the actors it started end before it could be read.

    python scripts/perf/eval.py [--episodes-per-task 10] [--tasks 100]
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

from taskverse.textenv.env import shared_library, task_list
from taskverse.textenv.evaluation import EvalSettings, evaluate, named_tasks
from taskverse.workers import Backend

WARM_PASSES = 6
"""Runs of one episode a target that warm Ray's actors before the timed run after start-up."""


def _cpu_seconds() -> float:
    """CPU seconds (user and system) of this process, its children that ended and its descendants still running."""
    import psutil  # Ray's own dependency

    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    for process in psutil.Process().children(recursive=True):
        try:
            times = process.cpu_times()
        except psutil.Error:  # ended meanwhile
            continue
        total += times.user + times.system + times.children_user + times.children_system
    return total


def _run(settings: EvalSettings, tasks: list[Any], episodes: int, backend: Backend, library: Any,
         ) -> tuple[float, float, dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        cpu = _cpu_seconds()
        started = time.perf_counter()
        report = evaluate(settings, tasks, episodes=episodes, progress=False, library=library, backend=backend,
                          output=Path(tmp) / "report.json")
        return time.perf_counter() - started, _cpu_seconds() - cpu, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tasks", type=int, default=100)
    parser.add_argument("--episodes-per-task", type=int, default=10)
    args = parser.parse_args()
    library = shared_library()
    tasks = named_tasks(task_list("naive-craft", library)[:args.tasks], library)
    settings = EvalSettings(agent="greedy", observations=False)
    n = len(tasks) * args.episodes_per_task
    # plan lengths are cached per process: warm them here so every backend pays the same
    evaluate(settings, tasks, episodes=1, progress=False, library=library, backend=Backend(workers=1))
    walls: dict[str, float] = {}
    cpus: dict[str, float] = {}
    summaries = set()

    def show(label: str, wall: float, cpu: float, report: dict[str, Any]) -> None:
        walls[label], cpus[label] = wall, cpu
        summaries.add(str(report["summary"]))
        cpu_text = f"CPU {cpu:7.2f} s ({1000 * cpu / n:6.2f} ms/episode)" if "start-up included" not in label \
            else "CPU not read (its Ray ended with the run)"
        print(f"{label:<44} {n} episodes in {wall:7.2f} s  ({n / wall:7.1f} episodes/s, "
              f"{1000 * wall / n:6.2f} ms/episode), {cpu_text}  success {report['summary']['success_rate']:.3f}",
              flush=True)

    for label, backend in (("local, 1 worker", Backend(workers=1)), ("local, --workers 2", Backend(workers=2)),
                           ("Ray (local, 2 CPUs), start-up included", Backend(workers=2, ray=True))):
        show(label, *_run(settings, tasks, args.episodes_per_task, backend, library))
    import ray

    started = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=True)
    # warm-up: every worker loads the library once, as at the start of a long run, and plans the targets'
    # shortest plans, which the forked local workers inherit from this process: each pass gives a target to one
    # actor or the other, so after WARM_PASSES an actor has missed a given target with odds of 1 in 2**WARM_PASSES
    for _ in range(WARM_PASSES):
        evaluate(settings, tasks, episodes=1, progress=False, backend=Backend(workers=2, ray=True))
    print(f"Ray start-up and warm-up: {time.perf_counter() - started:.2f} s")
    try:
        show("Ray (local, 2 CPUs), after start-up", *_run(settings, tasks, args.episodes_per_task,
                                                           Backend(workers=2, ray=True), library))
    finally:
        ray.shutdown()
    single, double = walls["local, 1 worker"], walls["local, --workers 2"]
    for label in ("Ray (local, 2 CPUs), start-up included", "Ray (local, 2 CPUs), after start-up"):
        ray_wall = walls[label]
        print(f"{label}: overhead per episode vs --workers 2 {1000 * (ray_wall - double) / n:+.2f} ms; "
              f"vs 1 worker {1000 * (ray_wall - single) / n:+.2f} ms (wall time)")
    after = cpus["Ray (local, 2 CPUs), after start-up"]
    print(f"Ray (local, 2 CPUs), after start-up: CPU overhead per episode vs --workers 2 "
          f"{1000 * (after - cpus['local, --workers 2']) / n:+.2f} ms; vs 1 worker "
          f"{1000 * (after - cpus['local, 1 worker']) / n:+.2f} ms (CPU time)")
    print(f"same summary on every backend: {len(summaries) == 1}")


if __name__ == "__main__":
    main()
