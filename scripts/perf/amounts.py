"""Benchmark: counted tasks planned as amounts (figures, not a test).

``obtain 8 redstone`` should mine redstone ore rather than kill witches, and ``obtain 8 beef`` should hunt no
more cows than the game's expected drops need (a cow drops 1-3 beef: two on average, so four cows). Prints
each plan's length, the actions it repeats and the planning time, next to the same count read as eight events
(``8 * A``). Run on one core: ``taskset -c 0 python scripts/perf/amounts.py``.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from taskverse.library.loader import load_library
from taskverse.textenv.env import SkillForgeTextEnv
from taskverse.textenv.planning import planner_for

CASES = ["obtain 8 redstone", "obtain 8 beef", "craft 8 sticks", "mine 3 oak logs", "obtain 8 beef in swampland"]


def describe(task: str, library: object) -> str:
    """One plan's figures: steps, the most repeated actions, planning time."""
    env = SkillForgeTextEnv(task=task, observation="structured", plan_info=False, library=library)
    env.reset(seed=0)
    start = time.process_time()
    plan, proven = planner_for(env, from_start=True).best_plan()  # not the plan memo: planned here
    seconds = time.process_time() - start
    if plan is None:
        return f"{task!r}: no plan ({seconds:.2f} s)"
    counts = Counter(env.rules.actions[a] for a in plan).most_common(3)
    repeated = ", ".join(f"{name} x{n}" for name, n in counts)
    return (f"{task!r}: {len(plan)} steps ({'proven shortest' if proven else 'best found'}), most done: "
            f"{repeated}; planned in {seconds:.2f} CPU-s")


def main() -> int:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    library = load_library()
    for task in CASES:
        print(describe(task, library))
    for task in ("8 * obtain.redstone", "8 * obtain.beef"):
        print(describe(task, library) + "   (eight separate events)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
