"""Figures: the difficulty derivation's estimated plan of every action from nothing, and how they moved since a run.

Prints how long the estimates of every action of the world model from nothing (standing in the overworld) take
(``difficulty.estimate.PlanModel.plan``: the derivation read back from the cost fixpoint in frames), and a few
named estimates in game seconds (the master fletcher's tipped arrow); ``--save FILE`` writes every estimate as
JSON, and ``--compare FILE`` counts the estimates that changed since the saved run, the range of their ratios and
the biggest moves (run the script on two commits to see what a change of the derivation did).

    python scripts/perf/derivation_estimates.py --save /tmp/before.json      # on one commit
    python scripts/perf/derivation_estimates.py --compare /tmp/before.json   # on the next
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

from taskverse import load_library
from taskverse.difficulty.estimate import PlanModel
from taskverse.schema import Initialization

NAMED = ("trade.tipped_arrow", "trade.enchanted_crossbow", "trade.enchanted_bow", "trade.experience_bottle",
         "trade.bookshelf")
SHOWN = 12
TICKS_PER_SECOND = 20


def main() -> int:
    """Print the figures; save or compare the estimates."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", type=Path, help="write every estimate (game seconds) as JSON")
    parser.add_argument("--compare", type=Path, help="compare with the estimates of a saved run")
    args = parser.parse_args()
    library = load_library()
    model = PlanModel(library)
    rules = model.rules  # the model and its fixpoint built before timing
    init = Initialization()
    start = time.process_time()
    seconds = {atom: model.plan(library.by_id[atom], init).frames / TICKS_PER_SECOND for atom in rules.actions}
    spent = time.process_time() - start
    finite = {atom: s for atom, s in seconds.items() if math.isfinite(s)}
    print(f"{len(seconds)} estimates from nothing ({len(finite)} with a plan): {spent:.2f} s CPU")
    for atom in NAMED:
        if atom in seconds:
            print(f"  {atom}: {seconds[atom]:,.0f} s")
    if args.save:
        args.save.write_text(json.dumps(finite, indent=0, sort_keys=True))
    if args.compare:
        before: dict[str, float] = json.loads(args.compare.read_text())
        moved = sorted(((finite.get(atom, math.inf) / s, atom) for atom, s in before.items()
                        if abs(finite.get(atom, math.inf) - s) > 1e-6 * max(1.0, s)), reverse=True)
        lower = [m for m in moved if m[0] < 1]
        print(f"changed: {len(moved)} of {len(before)} ({len(moved) - len(lower)} dearer, {len(lower)} cheaper)")
        if moved:
            print(f"  ratios after / before: {moved[-1][0]:.3f} to {moved[0][0]:.3f}")
        for ratio, atom in [*moved[:SHOWN // 2], *moved[-SHOWN // 2:]][:SHOWN] if len(moved) > SHOWN else moved:
            print(f"  {atom}: {before[atom]:,.0f} s -> {finite.get(atom, math.inf):,.0f} s ({ratio:.3f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
