"""Figures: plans from scratch a player would check (steps, estimated game time), and which naive craft plans differ.

Prints, for the everyday goals of ``docs/atoms.md``'s worked examples, the plan's length and game time (by steps,
and by time for the iron sword), and with ``--save FILE`` writes every naive craft atom's plan (its actions) as
JSON; ``--compare FILE`` then says what share of those plans differ from the saved ones (run the script on two
commits to see what a change of the world model did to the plans). It prints the median time a naive craft plan
takes too.

    python scripts/perf/player_plans.py --save /tmp/before.json      # on one commit
    python scripts/perf/player_plans.py --compare /tmp/before.json   # on the next
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from taskverse.errors import TaskverseError
from taskverse.textenv.env import shared_library
from taskverse.textenv.plans import plan_task

GOALS = [("craft iron_sword", "steps"), ("craft iron_sword", "time"), ("craft golden_apple", "steps"),
         ("craft enchanting_table", "steps"), ("craft cake", "steps"), ("obtain.name_tag", "steps"),
         ("obtain.saddle", "steps"), ("obtain.dragon_head", "steps"), ("obtain.elytra", "steps")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--save", type=Path, help="write every naive craft atom's plan here (JSON)")
    parser.add_argument("--compare", type=Path, help="compare every naive craft atom's plan with this file")
    args = parser.parse_args()
    library = shared_library()
    print(f"{'goal from scratch':<34} {'objective':<9} {'steps':>6} {'game time':>11}  proven")
    for goal, objective in GOALS:
        report = plan_task(f"naive({goal})", library, objective)  # type: ignore[arg-type]
        print(f"{goal:<34} {objective:<9} {report.steps:>6} {report.total_frames / 20:>9.1f} s  {report.proven}")
    if not (args.save or args.compare):
        return 0
    plans: dict[str, list[str] | None] = {}
    started = time.perf_counter()
    crafts = [t.id for t in library.tasks if t.verb == "craft"]
    took: list[float] = []
    for task_id in crafts:
        began = time.perf_counter()
        try:
            plans[task_id] = plan_task(f"naive({task_id})", library).actions
        except TaskverseError:
            plans[task_id] = None
        took.append(time.perf_counter() - began)
    print(f"{len(crafts)} naive craft atoms planned in {time.perf_counter() - started:.1f} s"
          f" (median {1000 * statistics.median(took):.1f} ms an atom)")
    if args.save:
        args.save.write_text(json.dumps(plans, indent=0, sort_keys=True))
        print(f"wrote {args.save}")
    if args.compare:
        before = json.loads(args.compare.read_text())
        common = sorted(set(before) & set(plans))
        changed = [t for t in common if before[t] != plans[t]]
        longer = [t for t in changed if before[t] and plans[t] and len(plans[t]) > len(before[t])]
        print(f"{len(changed)} of {len(common)} naive craft plans changed ({len(changed) / max(1, len(common)):.1%}),"
              f" {len(longer)} of them longer")
        for t in changed[:15]:
            print(f"  {t}: {len(before[t] or [])} -> {len(plans[t] or [])} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
