"""Benchmark: where a cold ``taskverse suite build SkillForge SkillForge-Chain`` spends its CPU time, phase by phase.

Prints figures (not a test). The command runs in this process from a clean cache (``.cache/taskverse`` removed,
as on a fresh clone), with a CPU-time counter around each phase: reading the library, building its world model,
the difficulty scores of the selection's candidates, the text world's rules, and the suite checks with the
planner's three parts (the greedy plan, its pruning, the exact search). A phase inside another is counted in both;
a phase called again inside itself is counted once. It rewrites the same bytes into ``benchmarks/``.

Run on one core: ``taskset -c 0 python scripts/perf/suite_build_phases.py [SUITE ...]``.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PHASES = [
    ("taskverse.library.loader", "load_library", "read and validate the library"),
    ("taskverse.library.loader", "Library._build_world", "build the world model"),
    ("taskverse.library.loader", "Library._costs", "  its cost fixpoints"),
    ("taskverse.benchmarks.suites", "vectors", "difficulty scores of the candidates"),
    ("taskverse.benchmarks.suites", "check_tasks", "check the selected tasks"),
    ("taskverse.textenv.planning", "text_rules", "  the text world's rules"),
    ("taskverse.world.search", "greedy_plan", "  greedy plans"),
    ("taskverse.world.search", "prune_plan", "  pruning them"),
    ("taskverse.world.search", "Planner.solve", "  exact searches"),
]


def _timed(function: Callable[..., Any], label: str, totals: dict[str, float]) -> Callable[..., Any]:
    depth = [0]

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if depth[0]:
            return function(*args, **kwargs)
        depth[0] += 1
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            depth[0] -= 1
            totals[label] = totals.get(label, 0.0) + time.process_time() - start

    return wrapper


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("suites", nargs="*", default=["SkillForge", "SkillForge-Chain"])
    args = parser.parse_args()
    shutil.rmtree(ROOT / ".cache" / "taskverse", ignore_errors=True)
    totals: dict[str, float] = {}
    for module_name, attribute, label in PHASES:
        owner: Any = importlib.import_module(module_name)
        *path, name = attribute.split(".")
        for part in path:
            owner = getattr(owner, part)
        setattr(owner, name, _timed(getattr(owner, name), label, totals))
    from taskverse.cli import main as cli

    start = time.process_time()
    try:
        cli(["suite", "build", *args.suites], standalone_mode=False)
    except SystemExit:
        pass
    total = time.process_time() - start
    print(f"cold suite build {' '.join(args.suites)}: {total:.1f} s CPU (imports before it not counted)")
    for _, _, label in PHASES:
        print(f"  {label:<40} {totals.get(label, 0.0):6.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
