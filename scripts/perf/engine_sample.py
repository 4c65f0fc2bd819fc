"""Benchmark: the scripted player on a seeded sample of a game's tasks in the real engine.

Prints the success rate (target: 95%), whether the Python evaluator's replay agreed in every episode (target: all),
successes by verb, failures by reason and each failing task, and episodes per minute. Needs the engine
(scripts/install-engine.sh).

    python scripts/perf/engine_sample.py [--game taskverse_mc] [--atoms 200] [--molecules 50] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="taskverse_mc")
    parser.add_argument("--atoms", type=int, default=200)
    parser.add_argument("--molecules", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--parallel", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print the whole report as JSON")
    args = parser.parse_args()
    from taskverse.engine.sample import run_sample
    from taskverse.library.loader import load_library

    report = run_sample(load_library(), args.game, atoms=args.atoms, molecules=args.molecules, seed=args.seed,
                        parallel=args.parallel)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(f"{args.game}, seed {args.seed}: {report['succeeded']} of {report['tasks']} tasks completed "
              f"({100 * report['success_rate']:.1f}%; target 95%): {report['atoms']} atoms, {report['molecules']} "
              f"molecules; {report['planned']} planned")
        print(f"replay agrees in {report['replay_agrees']} of {report['episodes']} episodes; engine errors: "
              f"{report['engine_errors']}")
        print("by verb: " + ", ".join(f"{v} {c.get('succeeded', 0)}/{c['tasks']}"
                                      for v, c in report["by_verb"].items()))
        for reason, count in report["failure_reasons"].items():
            print(f"  {count:4d}  {reason}")
        for task_id, why in report["failures"].items():
            print(f"    {task_id}: {why}")
        print(f"{report['mean_episode_seconds']:.2f} s an episode, {report['episodes_per_minute']:.0f} episodes/min "
              f"with {args.parallel} in parallel; {report['seconds']:.0f} s in all")
    ok = report["success_rate"] >= 0.95 and report["replay_agrees"] == report["episodes"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
