"""Benchmark: a newcomer's first hour, the commands of ``make run`` and ``make test`` timed as a user runs them.

Prints figures (not a test). Each command runs as a user types it, from a clean cache (cold: as on a fresh clone,
``.cache/taskverse`` removed) and again (warm: what the cache keeps from the first run); wall time and the CPU
time of the command's processes are both shown, so a figure taken on a busy machine can still be read.

- ``taskverse suite build SkillForge SkillForge-Chain`` (rewrites the same bytes into ``benchmarks/``);
- ``taskverse pipeline --engine-episodes 0`` into a temporary folder (``make run`` without the engine episodes);
- with ``--tests``, the whole test suite (``python -m pytest``, as ``make test`` runs it after its set-up), once
  on a quiet machine and once beside ``--load`` (default 2) other CPU-bound processes. This takes a while.

Run on one core for the first two figures: ``taskset -c 0 python scripts/perf/first_hour.py``; the test-suite
figures want both cores: ``python scripts/perf/first_hour.py --tests``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TASKVERSE = str(Path(sys.executable).with_name("taskverse"))


def run(label: str, argv: list[str], env: dict[str, str] | None = None) -> float:
    """Run a command to its end; print its wall and CPU seconds; return the wall seconds."""
    before = os.times()
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    status = "" if done.returncode == 0 else f"  (exit {done.returncode}: {done.stderr.strip().splitlines()[-1:]})"
    print(f"{label:<64} {wall:8.1f} s wall {cpu:8.1f} s CPU{status}", flush=True)
    lines = done.stdout.splitlines()
    tail = [line for line in lines if " passed" in line or " failed" in line]
    if tail:
        print(f"{'':<64} {tail[-1].strip()}")
    for line in lines:  # what failed, by name (pytest's short summary)
        if line.startswith(("FAILED ", "ERROR ")):
            print(f"{'':<64} {line.strip()[:200]}")
    return wall


def burn() -> None:
    """A CPU-bound process (the load beside the tests)."""
    while True:
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tests", action="store_true", help="also time the whole test suite, quiet and loaded")
    parser.add_argument("--load", type=int, default=2, help="CPU-bound processes beside the loaded test run")
    args = parser.parse_args()
    cache = ROOT / ".cache" / "taskverse"
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, affinity {sorted(os.sched_getaffinity(0))}")

    shutil.rmtree(cache, ignore_errors=True)
    build = [TASKVERSE, "suite", "build", "SkillForge", "SkillForge-Chain"]
    run("cold: taskverse suite build SkillForge SkillForge-Chain", build)
    run("warm: taskverse suite build SkillForge SkillForge-Chain", build)

    with tempfile.TemporaryDirectory() as folder:
        pipeline = [TASKVERSE, "pipeline", "--out", folder, "--force", "--engine-episodes", "0"]
        shutil.rmtree(cache, ignore_errors=True)
        run("cold: taskverse pipeline --engine-episodes 0", pipeline)
        run("warm: taskverse pipeline --engine-episodes 0", pipeline)

    if args.tests:
        tests = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"]  # -q comes from the project's addopts
        env = {**os.environ, "CI": "true"}  # as CI runs it: the engine tests run, not skip
        shutil.rmtree(cache, ignore_errors=True)
        run("cold: pytest (the whole suite), quiet", tests, env)
        burners = [multiprocessing.Process(target=burn, daemon=True) for _ in range(args.load)]
        for process in burners:
            process.start()
        try:
            shutil.rmtree(cache, ignore_errors=True)
            run(f"cold: pytest (the whole suite), beside {args.load} CPU-bound processes", tests, env)
        finally:
            for process in burners:
                process.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
