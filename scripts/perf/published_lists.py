"""Benchmark: how much of the literature's published task lists ``taskverse coverage`` reads, and how fast.

Prints figures (not a test): for each list, the lines matched, impossible (with the game's reason) and not
expressible, the share read, the most common reasons a line is not read, and the seconds taken (the library load
apart). The bundled list is MineDojo's 1,581 programmatic tasks (``tests/data/minedojo``, MIT). Other lists are
given as paths, one task per line: MCU's atomic task list is ``atomic_task_list.txt`` at the root of
https://github.com/CraftJarvis/MCU (not bundled: the repository states no licence)::

    python scripts/perf/published_lists.py [--samples 40] [LIST.txt ...]

``--samples N`` prints N matched lines of each list with their expressions (seeded), for checking by hand.
"""

from __future__ import annotations

import argparse
import collections
import random
import re
import time
from pathlib import Path

from taskverse.benchmarks.coverage import coverage
from taskverse.library.loader import load_library

BUNDLED = Path(__file__).resolve().parents[2] / "tests" / "data" / "minedojo" / "programmatic_tasks.txt"


def main() -> None:
    """Print the figures for the bundled list and any given."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lists", nargs="*", type=Path, help="more task lists, one task per line")
    parser.add_argument("--samples", type=int, default=0, help="matched lines to print per list")
    args = parser.parse_args()
    started = time.perf_counter()
    library = load_library()
    print(f"library loaded in {time.perf_counter() - started:.1f} s")
    for path in [BUNDLED, *args.lists]:
        lines = path.read_text(encoding="utf-8").splitlines()
        started = time.perf_counter()
        report = coverage(lines, library)
        seconds = time.perf_counter() - started
        by = report["by_status"]
        total = report["total"]
        print(f"\n{path.name}: {total} lines in {seconds:.1f} s")
        for status in ("matched", "impossible", "not expressible"):
            print(f"  {status:<16} {by[status]:>5}  ({by[status] / total:.1%})")
        reasons = collections.Counter(_shape(row["reason"] or "") for row in report["lines"]
                                      if row["status"] == "not expressible")
        print("  not expressible, most common reasons:")
        for reason, n in reasons.most_common(8):
            print(f"    {n:>4}  {reason}")
        if args.samples:
            matched = [row for row in report["lines"] if row["status"] == "matched"]
            print(f"  {args.samples} matched lines (seed 7), to check by hand:")
            for row in random.Random(7).sample(matched, min(args.samples, len(matched))):
                print(f"    {row['text']}  =>  {row['expression'] or row['task']}")


def _shape(reason: str) -> str:
    """A reason with its quoted words and names folded, so that reasons of one kind count together."""
    reason = re.sub(r"'[^']*'", "'…'", reason)
    reason = re.sub(r"(task for|close known names:).*", r"\1 …", reason)
    return reason[:110]


if __name__ == "__main__":
    main()
