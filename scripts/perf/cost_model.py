"""Benchmark: the cost fixpoint (``CostModel``) from scratch, compiled and in Python, and the planner it orders.

Prints figures (never asserts). Run on one core: ``taskset -c 0 python scripts/perf/cost_model.py``. Times are
this process's CPU time (``time.process_time``), so that other work on a shared machine does not count.

* ``CostModel(rules)`` from the overworld alone: compiled (the first build in the process, which loads the compiled
  loop, then the least of three more) and the Python loop (once).
* ``CostModel.lowered`` for a crafting start (a table, a furnace, an iron pickaxe), compiled: the least of three.
* With ``--planner``, the optimal planner over every naive craft atom (``textenv.py``'s figure: median, 90th
  percentile, worst, in milliseconds).
"""

from __future__ import annotations

import argparse
import runpy
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from taskverse.textenv.env import shared_library
from taskverse.world.rules import CostModel, Rules


def _cpu(build: Callable[[], Any]) -> float:
    """Seconds of CPU time one call takes."""
    start = time.process_time()
    build()
    return time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--planner", action="store_true", help="also time the planner over the naive craft atoms")
    args = parser.parse_args()
    rules = Rules.for_library(shared_library())
    overworld = [rules.index[("dimension", "overworld")]]
    first = _cpu(lambda: CostModel(rules, overworld))
    compiled = min(_cpu(lambda: CostModel(rules, overworld)) for _ in range(3))
    before, CostModel.compiled = CostModel.compiled, False
    try:
        python = _cpu(lambda: CostModel(rules, overworld))
    finally:
        CostModel.compiled = before
    base = CostModel.for_rules(rules)
    held = [*overworld, *(rules.index[("item", name)] for name in ("crafting_table", "furnace", "iron_pickaxe"))]
    lowered = min(_cpu(lambda: CostModel.lowered(base, held)) for _ in range(3))
    print(f"CostModel(rules) from scratch: {first:.2f} s first (loads the compiled loop), {compiled:.3f} s compiled, "
          f"{python:.2f} s in Python")
    print(f"CostModel.lowered for a table, a furnace and an iron pickaxe: {lowered:.3f} s compiled")
    if args.planner:
        planner_figures = runpy.run_path(str(Path(__file__).with_name("textenv.py")))["planner_figures"]
        plan = planner_figures()
        print(f"optimal planner over {plan['atoms']} naive craft atoms: median {plan['median ms']:.1f} ms, p90 "
              f"{plan['p90 ms']:.1f} ms, worst {plan['max ms']:.0f} ms, total {plan['total s']:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
