"""Benchmark: load the whole atom library and build every dependency graph; time `taskverse show`.

Prints figures (not a test), and the library's pre-task counts (median, 90th percentile). Cold = no cache (every
file parsed and validated, the world graph built); warm = served from the content-hashed cache. Run on one core:
``taskset -c 0 python scripts/perf/library.py``.
"""

from __future__ import annotations

import argparse
import math
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from taskverse.library.loader import load_library
from taskverse.paths import cache_dir


def build_every_graph() -> tuple[int, float]:
    library = load_library()
    world = library.world
    start = time.perf_counter()
    total = sum(world.dependency_graph(t.id).number_of_nodes() for t in library.tasks)
    return total, time.perf_counter() - start


def pre_task_counts() -> None:
    """The pre-task count of every atom solvable from scratch: median and 90th percentile (and craft iron_sword)."""
    library = load_library()
    world = library.world
    counts = sorted(len(world.pre_tasks(t.id)) for t in library.tasks if world.task_rank(t.id) != math.inf)
    p90 = counts[min(len(counts) - 1, math.ceil(0.9 * len(counts)) - 1)]
    print(f"{'pre-tasks per solvable atom: median / 90th percentile':<58} {statistics.median(counts):g} / {p90}"
          f"  ({len(counts)} atoms; craft iron_sword {len(world.pre_tasks('craft.iron_sword'))})")


def timed(label: str, func) -> float:
    start = time.perf_counter()
    func()
    elapsed = time.perf_counter() - start
    print(f"{label:<58} {elapsed:7.3f} s")
    return elapsed


def main() -> int:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    shutil.rmtree(cache_dir(), ignore_errors=True)
    print(f"python {sys.version.split()[0]}, one process")
    timed("cold: load + validate library + world graph (no cache)", lambda: load_library().world)
    timed("warm: load library + world graph (cache)", lambda: load_library().world)
    nodes, graphs = build_every_graph()
    print(f"{'build every atom dependency graph (networkx subgraphs)':<58} {graphs:7.3f} s  ({nodes:,} nodes)")
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([str(Path(sys.executable).with_name("taskverse")), "show", "craft iron_sword"], check=True,
                       capture_output=True)
        runs.append(time.perf_counter() - start)
    label = 'taskverse show "craft iron_sword" (median of 5, process)'
    print(f"{label:<58} {statistics.median(runs):7.3f} s")
    pre_task_counts()
    return 0


if __name__ == "__main__":
    sys.exit(main())
