"""Benchmark: 1,000 greedy SkillForge-text episodes in this process, on 2 workers and on a local Ray cluster.

All three in one run (Ray with 2 CPUs).

Prints figures (never asserts): wall seconds and episodes per second of each backend, and Ray's overhead per
episode (its wall time minus the 2-worker local run's, per episode; and against one worker). The episodes are
craft targets from an empty inventory (the first 100 reachable craft atoms, 10 episodes each), no observations
kept, the trajectory file written as in a real run. Start-up (forking workers, starting Ray) is included: it is
what a user waits for.

    python scripts/perf/eval.py [--episodes-per-task 10] [--tasks 100]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from taskverse.textenv.env import shared_library, task_list
from taskverse.textenv.evaluation import EvalSettings, evaluate, named_tasks
from taskverse.workers import Backend


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
    rows = []
    reports = {}
    for label, backend in (("local, 1 worker", Backend(workers=1)), ("local, --workers 2", Backend(workers=2)),
                           ("Ray (local cluster, 2 CPUs)", Backend(workers=2, ray=True))):
        with tempfile.TemporaryDirectory() as tmp:
            started = time.perf_counter()
            report = evaluate(settings, tasks, episodes=args.episodes_per_task, progress=False, library=library,
                              backend=backend, output=Path(tmp) / "report.json")
            wall = time.perf_counter() - started
        reports[label] = report
        rows.append((label, wall, report["summary"]["success_rate"]))
        print(f"{label:<30} {n} episodes in {wall:7.2f} s  ({n / wall:7.1f} episodes/s, "
              f"{1000 * wall / n:6.2f} ms/episode)  success {report['summary']['success_rate']:.3f}", flush=True)
    single, double, ray = (wall for _, wall, _ in rows)
    print(f"Ray overhead per episode vs --workers 2: {1000 * (ray - double) / n:+.2f} ms; vs 1 worker: "
          f"{1000 * (ray - single) / n:+.2f} ms")
    same = len({str(r["summary"]) for r in reports.values()}) == 1
    print(f"same summary on every backend: {same}")


if __name__ == "__main__":
    main()
