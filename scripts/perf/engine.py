"""Benchmark: compiling tasks to Lua mods and running episodes in the real engine.

Prints figures (not a test): compiling every compilable atom (target <= 10 s), writing their mods and checking
them with ``luajit -bl`` and luacheck, one engine episode from start to shutdown (target <= 2.5 s), and episodes
per minute with 2 and 4 in parallel. Needs the engine (scripts/install-engine.sh); without it only the compile
figures are printed. Run on the cores you mean to measure (``make perf`` pins to one core; the parallel figures
need more: run it directly).

    python scripts/perf/engine.py [GAME]     (default minetest_game; taskverse_mc is the generated game)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from taskverse.engine.binaries import CLIENT, SERVER
from taskverse.engine.compiler import Compiler
from taskverse.engine.coverage import check_compiled
from taskverse.engine.lua import render_mod
from taskverse.engine.planner import plan_task
from taskverse.engine.runner import run_episodes
from taskverse.library.loader import load_library


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", default="minetest_game", help="the game to compile for and run in")
    game = parser.parse_args().game
    library = load_library()
    start = time.perf_counter()
    compiler = Compiler(library, game)
    compiled = []
    for task in library.tasks:
        if not compiler.problems(task):
            compiled.append(task)
    checked = time.perf_counter() - start
    start = time.perf_counter()
    mods = [render_mod(compiler.compile(task)) for task in compiled]
    rendered = time.perf_counter() - start
    print(f"game {game}")
    print(f"compile {len(library.tasks)} atoms (feasibility), {len(compiled)} compile: {checked:6.2f} s")
    print(f"intermediate form + Lua for the {len(mods)} compilable atoms:     {rendered:6.2f} s (target <= 10 s)")
    if not SERVER.exists() or not CLIENT.exists():
        print("the engine is not installed: skipping the episode figures (scripts/install-engine.sh)")
        return 0
    start = time.perf_counter()
    report = check_compiled(compiler, compiled)
    print(f"luajit -bl + luacheck on {report['files']} mods:             {time.perf_counter() - start:6.2f} s "
          f"({len(report['luajit_failures'])} luajit failures, luacheck exit {report['luacheck_exit']})")

    task = library.get("craft.stick")
    ir = compiler.compile(task)
    plan = plan_task(task, ir, library)
    run_episodes(task, ir, plan, library=library, episodes=1)  # warm the client's media cache
    single = [r.timings.total for r in run_episodes(task, ir, plan, library=library, episodes=5)]
    print(f"one episode, start to shutdown (craft.stick, 5 runs): median {statistics.median(single):5.2f} s, "
          f"max {max(single):5.2f} s (target <= 2.5 s)")
    for parallel in (2, 4):
        episodes = 12
        start = time.perf_counter()
        reports = run_episodes(task, ir, plan, library=library, episodes=episodes, parallel=parallel)
        wall = time.perf_counter() - start
        ok = sum(r.success for r in reports)
        print(f"{episodes} episodes, {parallel} in parallel: {wall:5.1f} s = {60 * episodes / wall:5.1f} episodes/min "
              f"({ok}/{episodes} succeeded)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
