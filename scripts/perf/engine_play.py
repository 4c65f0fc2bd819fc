"""Benchmark: the scripted player's play in the real engine, step by step and on docs/atoms.md's worked examples.

Prints figures (not a test): the server's start (from launch to listening, median of a few episodes), the harness's
steps per second on a plan of steps it does at once (an empty hand ``wield``-ed: the harness's own overhead a
step, one step a server step), and the seconds each worked example of tests/test_engine_worked_examples.py takes from
scratch (planning, compiling and the episode, with its steps and whether the game judged it done). Needs the engine
(scripts/install-engine.sh). Run on the cores you mean to measure (``taskset -c 1``); a loaded machine gives slower
figures, never a failure.

    python scripts/perf/engine_play.py [--game taskverse_mc] [--starts 3] [--steps 400] [--examples all|none|N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

#: tests/test_engine_worked_examples.py's seven, played from scratch.
WORKED_EXAMPLES = (
    "naive(craft.iron_sword)",
    "naive(craft.enchanting_table)",
    "naive(obtain.saddle)",
    "naive(brew.potion_of_healing)",
    "naive(craft.golden_apple)",
    "naive(obtain.name_tag)",
    "naive(craft.cake)",
)
#: A limit a run of this script does not reach on a busy machine (a hung engine still ends).
HANG_GUARD = 1800.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     epilog="Figures go to stdout, one a line; nothing is written.")
    parser.add_argument("--game", default="taskverse_mc", help="the game played (default: taskverse_mc)")
    parser.add_argument("--starts", type=int, default=3, help="episodes timed for the server's start (default: 3)")
    parser.add_argument("--steps", type=int, default=400, help="steps of the harness-rate plan (default: 400)")
    parser.add_argument("--examples", default="all",
                        help="worked examples to play: all, none, or the first N (default: all)")
    args = parser.parse_args()

    from taskverse.algebra.molecule import build_molecule
    from taskverse.algebra.parse import parse_expression
    from taskverse.engine.binaries import CLIENT, SERVER
    from taskverse.engine.compiler import compile_task
    from taskverse.engine.harness import Plan, Step
    from taskverse.engine.planner import plan_task
    from taskverse.engine.runner import run_jobs
    from taskverse.library.loader import load_library

    if not SERVER.exists() or not CLIENT.exists():
        print("the engine is not installed (scripts/install-engine.sh)")
        return 1
    library = load_library()
    print(f"game {args.game}")

    # the server's start, and the harness's rate on steps it does at once
    task = library.get("craft.stick")
    ir = compile_task(task, library, args.game)
    quick = Plan(steps=[Step(do="wield", item="")] * args.steps, stop_on_success=False)  # an empty hand: at once
    jobs = [(task, ir, quick)] * max(1, args.starts)
    reports = run_jobs(jobs, library=library, parallel=1, timeout=HANG_GUARD, fresh_server=True)  # each starts one
    listening = [r.timings.listening for r in reports if r.timings.listening is not None]
    if listening:
        print(f"server start (launch to listening, {len(listening)} episodes): "
              f"median {statistics.median(listening):.2f} s, max {max(listening):.2f} s")
    rates = [len(r.steps) / r.timings.plan for r in reports if r.timings.plan and not r.error]
    if rates:
        print(f"harness steps/s ({args.steps} wield steps, one a server step): median {statistics.median(rates):.1f}")
    for r in reports:
        if r.error or r.plan_error:
            print(f"  rate episode: {r.error or r.plan_error}")

    # the worked examples from scratch
    chosen = {"all": WORKED_EXAMPLES, "none": ()}.get(args.examples)
    if chosen is None:
        chosen = WORKED_EXAMPLES[:int(args.examples)]
    total = 0.0
    for expression in chosen:
        start = time.perf_counter()
        example = build_molecule(parse_expression(expression), library)
        example_ir = compile_task(example, library, args.game)
        plan = plan_task(example, example_ir, library)
        planned = time.perf_counter() - start
        (report,) = run_jobs([(example, example_ir, plan)], library=library, parallel=1, timeout=HANG_GUARD)
        seconds = time.perf_counter() - start
        total += seconds
        outcome = "done" if report.success else f"NOT done ({report.error or report.plan_error})"
        print(f"{expression:34s} {seconds:6.1f} s (plan {planned:4.1f} s, episode {report.timings.total:5.1f} s, "
              f"{len(report.steps):3d} steps): {outcome}")
    if chosen:
        print(f"worked examples: {len(chosen)} in {total:.1f} s, {total / len(chosen):.1f} s each")
    return 0


if __name__ == "__main__":
    sys.exit(main())
