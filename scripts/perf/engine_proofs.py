"""Benchmark: the engine proofs (tests/test_engine_proofs.py) run N times in a row; how many runs passed.

Prints one line per run (passed or the failing cases) and the total (target: 20 of 20). Each run is a fresh
pytest process, as CI runs it, so nothing is shared between runs but the client's media cache. Needs the engine
(scripts/install-engine.sh).

    python scripts/perf/engine_proofs.py [RUNS]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="?", type=int, default=20, help="how many times to run the proofs")
    runs = parser.parse_args().runs
    passed = 0
    started = time.perf_counter()
    for run in range(1, runs + 1):
        begun = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               "tests/test_engine_proofs.py"], cwd=ROOT, capture_output=True, text=True)
        failed = re.findall(r"^FAILED (\S+)", done.stdout, re.MULTILINE)
        ok = done.returncode == 0
        passed += ok
        verdict = "passed" if ok else f"FAILED ({', '.join(failed) or done.stdout.strip().splitlines()[-1:]})"
        print(f"run {run:2d}: {verdict} in {time.perf_counter() - begun:5.1f} s", flush=True)
    print(f"engine proofs: {passed} of {runs} runs passed in {time.perf_counter() - started:.0f} s "
          f"(target: {runs} of {runs})")
    return 0 if passed == runs else 1


if __name__ == "__main__":
    sys.exit(main())
