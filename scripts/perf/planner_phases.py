"""Figures: where the planner's time per naive craft atom goes, phase by phase, and its costliest functions.

Plans every naive craft atom as ``textenv.py``'s ``planner_figures`` does (from the episode's start, the per-rules
caches warmed by one plan first) under ``cProfile``, and prints each phase's share of the time: setting the
planner up (its universe, its compiled tables), the greedy first plan, pruning it, the heuristic (the bound at the
start, and the search's evaluations) and the search, then the functions with the most time of their own. The
profiler slows every call, small ones most, so the shares are a guide to where to look, not the figures themselves
(``textenv.py`` times those). Prints figures (never asserts).

Run on one core: ``taskset -c 0 python scripts/perf/planner_phases.py [--top 25]``.
"""

from __future__ import annotations

import argparse
import cProfile
import math
import pstats
import sys

from taskverse.textenv.agents import planner_for
from taskverse.textenv.env import SkillForgeTextEnv, shared_library

PHASES = [("planner set-up", "planning.py", "planner_for"), ("  its universe", "search.py", "build_universe"),
          ("  its tables", "search.py", "_compile"), ("greedy first plan", "search.py", "greedy_plan"),
          ("pruning", "search.py", "prune_plan"), ("heuristic", "search.py", "heuristic"),
          ("  cones", "search.py", "_all_cones"), ("search", "search.py", "solve")]
"""(label, module file, function): a phase and the function whose cumulative time it is."""


def profile_atoms() -> tuple[pstats.Stats, int]:
    """The profile of planning every naive craft atom from its start, and how many there were."""
    library = shared_library()
    tasks = [t.id for t in library.tasks if t.verb == "craft" and library.world.task_rank(t.id) != math.inf]
    env = SkillForgeTextEnv(task=tasks[0], plan_info=False)
    env.reset(seed=0)
    planner_for(env).best_plan()  # warm the per-rules caches, as planner_figures does
    profile = cProfile.Profile()
    for task in tasks:
        env.reset(seed=0, options={"task": task})
        profile.enable()
        planner_for(env, from_start=True).best_plan()
        profile.disable()
    return pstats.Stats(profile), len(tasks)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--top", type=int, default=25, help="how many of the costliest functions to print")
    args = parser.parse_args()
    stats, atoms = profile_atoms()
    table = stats.stats  # type: ignore[attr-defined]  # (file, line, name) -> (calls, primitive, own, cumulative, _)
    total = sum(own for _, _, own, _, _ in table.values())
    print(f"planner over {atoms} naive craft atoms under cProfile: {total:.1f} s ({1000 * total / atoms:.1f} ms an "
          f"atom, profiled)")
    for label, module, name in PHASES:
        cumulative = sum(cum for (path, _, func), (*_, cum, _) in table.items() if func == name and
                         path.endswith(module))
        print(f"{label:<20} {100 * cumulative / total:5.1f} %  {1000 * cumulative / atoms:7.2f} ms an atom")
    print("costliest functions by their own time:")
    for (path, line, name), (calls, _, own, cumulative, _) in sorted(table.items(), key=lambda e: -e[1][2])[:args.top]:
        where = f"{path.rsplit('/', 1)[-1]}:{line}({name})"
        print(f"  {100 * own / total:5.1f} %  own {own:6.2f} s  cumulative {cumulative:6.2f} s  {calls:>9} calls  "
              f"{where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
