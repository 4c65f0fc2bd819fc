"""Benchmark: all six difficulty scores of every atom and its naive version, plus the calibration quantiles.

Target: at most 5 s on one core (``taskset -c 0 python scripts/perf/difficulty.py``). Prints figures (not a test);
the calibration table is computed but not written.
"""

from __future__ import annotations

import argparse
import sys
import time

from taskverse.difficulty.recalibrate import compute_table
from taskverse.library.loader import load_library


def main() -> int:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    start = time.perf_counter()
    library = load_library()
    library.tasks  # noqa: B018 - build every task model before timing the scores
    library.world  # noqa: B018
    loaded = time.perf_counter()
    table = compute_table(library)
    done = time.perf_counter()
    meta = table.meta
    scored = meta["atoms"] + meta["naive_versions"]
    print(f"load the library (warm cache): {loaded - start:6.2f} s")
    print(f"six scores of {meta['atoms']} atoms + {meta['naive_versions']} naive versions, and the 5-quantiles: "
          f"{done - loaded:6.2f} s ({(done - loaded) / scored * 1e6:,.0f} us per task; target <= 5 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
