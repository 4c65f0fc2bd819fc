"""Benchmark: checking a suite's tasks (``taskverse suite build``'s costliest step), task by task.

Prints figures (not a test): the CPU seconds ``textenv.checks.check_task`` takes for every task of the named
suites (default SkillForge and SkillForge-Chain, as shipped in ``benchmarks/``), with the library loaded first and
no remembered verdicts, then the total, the slowest tasks, and a digest of the verdicts so that two versions of
the code can be compared for the same answers.

Run on one core: ``taskset -c 0 python scripts/perf/suite_checks.py [SUITE ...] [--top 10]``.
"""

from __future__ import annotations

import argparse
import hashlib
import time

from taskverse.benchmarks.suites import load_suite, resolve_suite_task
from taskverse.textenv import planning
from taskverse.textenv.checks import check_task
from taskverse.textenv.env import shared_library


class _Unremembered(dict):  # type: ignore[type-arg]
    """A plan memo that keeps nothing on disk: every task is planned, as on a fresh clone."""

    def put(self, key: object, value: object) -> None:
        self[key] = value

    def save(self) -> None:
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("suites", nargs="*", default=["SkillForge", "SkillForge-Chain"])
    parser.add_argument("--top", type=int, default=10, help="how many of the slowest tasks to list")
    args = parser.parse_args()
    start = time.process_time()
    library = shared_library()
    memo = _Unremembered()
    planning._plan_memo = lambda _library: memo  # plan every task here, whatever an earlier run remembered
    print(f"library loaded in {time.process_time() - start:.1f} s CPU", flush=True)
    timings: list[tuple[float, str, str]] = []
    digest = hashlib.sha256()
    seen: set[str] = set()
    for name in args.suites:
        for item in load_suite(name).tasks:
            if item.id in seen:
                continue
            seen.add(item.id)
            task = resolve_suite_task(item, library)
            begin = time.process_time()
            verdict = check_task(task, library)
            timings.append((time.process_time() - begin, item.id, item.description))
            digest.update(f"{item.id}:{verdict.optimal_steps}:{verdict.max_steps}:{verdict.reason}\n".encode())
    total = sum(t for t, _, _ in timings)
    print(f"{len(timings)} tasks checked in {total:.1f} s CPU (median {sorted(timings)[len(timings) // 2][0]:.3f} s)")
    print(f"verdicts digest {digest.hexdigest()[:16]}")
    for seconds, task_id, description in sorted(timings, reverse=True)[:args.top]:
        print(f"  {seconds:7.2f} s  {task_id:<28} {description[:80]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
