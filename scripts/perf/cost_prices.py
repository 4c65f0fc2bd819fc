"""Figures: what the cost model from scratch prices every resource at, and how that moved since a saved run.

Prints how long ``CostModel(rules)`` takes to build (Python loop and compiled), and with ``--save FILE`` writes
every resource's cost at 1 and 81 units (``amount_cost``, in steps) as JSON; ``--compare FILE`` then counts the
resources dearer and cheaper than in the saved run at each amount and lists the biggest moves (run the script on
two commits to see what a change of the fixpoint did to the prices).

    python scripts/perf/cost_prices.py --save /tmp/before.json      # on one commit
    python scripts/perf/cost_prices.py --compare /tmp/before.json   # on the next
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

from taskverse import load_library
from taskverse.world.rules import CostModel, Rules

AMOUNTS = (1, 81)
SHOWN = 15


def _key(kind: str, name: str) -> str:
    return f"{kind}:{name}"


def _moves(before: dict[str, list[float]], after: dict[str, list[float]], i: int) -> list[tuple[float, str]]:
    """Per resource priced in both runs, its change at ``AMOUNTS[i]`` (finite prices only), biggest first."""
    moves = []
    for key in sorted(set(before) & set(after)):
        old, new = before[key][i], after[key][i]
        if math.isfinite(old) and math.isfinite(new) and abs(new - old) > 1e-6 * max(1.0, abs(old)):
            moves.append((new - old, key))
    return sorted(moves, key=lambda move: -abs(move[0]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--save", type=Path, help="write every resource's cost at 1 and 81 units here (JSON)")
    parser.add_argument("--compare", type=Path, help="compare every resource's cost with this file")
    args = parser.parse_args()
    rules = Rules.for_library(load_library())
    overworld = [rules.index[("dimension", "overworld")]]
    CostModel(rules, overworld)  # the compiled loop's first use loads it: not part of a build's time
    for compiled in (False, True):
        CostModel.compiled = compiled
        started = time.perf_counter()
        model = CostModel(rules, overworld)
        print(f"CostModel(rules) {'compiled' if compiled else 'in Python':<9} {time.perf_counter() - started:6.2f} s")
    prices = {_key(*rules.resources[r]): [model.amount_cost(r, amount) for amount in AMOUNTS]
              for r in range(rules.n_resources)}
    print(f"{len(prices)} resources, {sum(math.isfinite(p[0]) for p in prices.values())} with a price")
    if args.save:
        args.save.write_text(json.dumps(prices, indent=0, sort_keys=True))
        print(f"wrote {args.save}")
    if args.compare:
        before = json.loads(args.compare.read_text())
        for i, amount in enumerate(AMOUNTS):
            moves = _moves(before, prices, i)
            up = sum(1 for delta, _ in moves if delta > 0)
            print(f"at {amount} unit(s): {len(moves) - up} cheaper, {up} dearer of {len(set(before) & set(prices))}")
            for delta, key in moves[:SHOWN]:
                print(f"  {key:<44} {before[key][i]:9.2f} -> {prices[key][i]:9.2f}  ({delta:+.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
