"""Benchmark: ``taskverse coverage`` on 3,000 lines (target: under 10 s), and single phrases through the reader.

Prints figures (not a test). The 3,000 lines are the two task lists of the tests (MineDojo's and MCU's styles)
with their counts, biomes and items varied so few lines repeat, plus unreadable lines (the slow path: close
names are looked for); the library load is timed apart. Run on one core: ``taskset -c 0 python
scripts/perf/phrase_coverage.py``.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from taskverse.benchmarks.coverage import coverage
from taskverse.language.reader import PhraseReader
from taskverse.library.loader import load_library

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"
BIOMES = ["plains", "desert", "savanna", "forest", "swampland", "extreme hills", "taiga", "jungle", "mesa"]


def lines(n: int, seed: int = 0) -> list[str]:
    """``n`` task lines: the test lists, varied (counts, biomes), and one in ten unreadable."""
    rng = random.Random(seed)
    base = [line for name in ("minedojo_style_tasks.txt", "mcu_style_tasks.txt")
            for line in (DATA / name).read_text().splitlines() if line.strip() and not line.startswith("#")]
    out = []
    while len(out) < n:
        line = rng.choice(base)
        roll = rng.random()
        if roll < 0.3:
            line = line.replace(" 1 ", f" {rng.randint(2, 64)} ")
        elif roll < 0.6 and " in " not in line:
            line = f"{line} in {rng.choice(BIOMES)}"
        elif roll < 0.7:
            line = f"{line.split()[0]} {rng.choice(['zorp', 'florp', 'wheet', 'iron swrd'])}{rng.randint(0, 99)}"
        out.append(line)
    return out


def main() -> int:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    start = time.perf_counter()
    library = load_library()
    library.world  # noqa: B018 - built once per command too
    print(f"library loaded in {time.perf_counter() - start:.2f} s")
    task_lines = lines(3000)
    start = time.perf_counter()
    report = coverage(task_lines, library)
    elapsed = time.perf_counter() - start
    print(f"coverage of {report['total']} lines: {elapsed:.2f} s ({report['total'] / elapsed:,.0f} lines/s), "
          f"{report['covered']} covered; target: under 10 s")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tasks.txt"
        path.write_text("\n".join(task_lines) + "\n")
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "taskverse.cli", "coverage", str(path), "--format", "json"],
                       check=True, capture_output=True)
        print(f"taskverse coverage (the whole command, 3,000 lines): {time.perf_counter() - start:.2f} s")
    reader = PhraseReader(library)
    phrases = ["hunt a pig in the savanna", "combat a zombie in plains with a diamond sword, shield, and a full "
               "suite of iron armors", "starting from a furnace and coal, smelt and eat cooked porkchop"]
    for phrase in phrases:
        start = time.perf_counter()
        for _ in range(100):
            reader.read(phrase)
        print(f"read {phrase[:50]!r}: {(time.perf_counter() - start) * 10:.2f} ms per phrase")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
