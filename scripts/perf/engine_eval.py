"""Benchmark: ``taskverse engine eval`` (or ``engine run``) with a task's episodes restarted in one server, or fresh.

Runs the command as a user does (a process of its own, the library loaded, servers and clients started), once per
way and ``--repeat`` times, and prints for each its wall time, the CPU time of the command and of every process it
started (servers and clients included: they are its children), the servers it started and its successes. The
ways: ``reuse`` (the default: a task's next episode starts again in the server that played the one before) and
``fresh`` (``--fresh-server``: a new server on a fresh world for every episode). ``--src DIR`` runs another
checkout's code (its ``src``), e.g. the code before restarts existed, whose default is a new server each episode.
``--command run`` times ``taskverse engine run TASK --episodes K`` (the scripted player's plan) the same ways instead.
Then (``--scripted``, the default) the scripted player's plan for the task, ``--episodes`` times through
``runner.run_jobs`` in this process, in one server and with a new server each.
Needs the engine (scripts/install-engine.sh).

    python scripts/perf/engine_eval.py [--task "naive(craft.wooden_pickaxe)"] [--episodes 5] [--agent optimal]
        [--ways reuse,fresh] [--repeat 2] [--src DIR] [--no-scripted] [--command eval|run] [--sample N --seed S]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

WAYS = {"reuse": [], "fresh": ["--fresh-server"]}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Run(NamedTuple):
    """One run's figures."""

    wall: float
    cpu: float
    servers: Any
    successes: int
    episodes: int


def run_once(args: argparse.Namespace, way: str) -> Run:
    """One run of the command: wall and CPU seconds, servers started, successes, episodes."""
    env = dict(os.environ)
    if args.src:
        env["PYTHONPATH"] = str(Path(args.src).resolve())
    if args.command == "run":
        command = [sys.executable, "-m", "taskverse.cli", "engine", "run", args.task, "--episodes", str(args.episodes),
                   "--game", args.game, "--format", "json", *WAYS[way]]
    else:
        tasks = [arg for task in args.tasks for arg in ("--tasks", task)]
        command = [sys.executable, "-m", "taskverse.cli", "engine", "eval", *tasks, "--agent",
                   args.agent, "--episodes", str(args.episodes), "--game", args.game, "--format", "json", *WAYS[way]]
    cpu = _children_cpu()
    started = time.monotonic()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    wall = time.monotonic() - started
    cpu = _children_cpu() - cpu  # the command and every process it waited for: its servers and clients
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    summary = json.loads(done.stdout)["summary"]
    return Run(wall, cpu, summary.get("servers_started", "?"), summary["successes"], summary["episodes"])


def _cpu() -> float:
    """CPU seconds of this process and of every process it waited for (servers and clients)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime + _children_cpu()


def scripted(args: argparse.Namespace) -> None:
    """The scripted player's plan for the task ``--episodes`` times through ``run_jobs``, in one server and fresh."""
    from taskverse.algebra.molecule import build_molecule
    from taskverse.algebra.parse import COMPOSITION_MARKS, parse_expression
    from taskverse.engine.compiler import compile_task
    from taskverse.engine.planner import plan_task
    from taskverse.engine.runner import run_jobs
    from taskverse.library.loader import load_library

    library = load_library()
    task = build_molecule(parse_expression(args.task), library) if any(m in args.task for m in COMPOSITION_MARKS) \
        else library.get(args.task)
    ir = compile_task(task, library, args.game)
    plan = plan_task(task, ir, library)
    jobs = [(task, ir, plan)] * args.episodes
    for fresh in (False, True):
        cpu, started = _cpu(), time.monotonic()
        reports = run_jobs(jobs, library=library, parallel=1, fresh_server=fresh)
        wall, cpu = time.monotonic() - started, _cpu() - cpu
        way = "fresh" if fresh else "reuse"
        print(f"run_jobs: the scripted plan of {args.task} ({len(plan.steps)} steps) x {args.episodes}, {way}: "
              f"wall {wall:.2f} s, CPU {cpu:.2f} s; {sum(not r.restarted for r in reports)} server(s) started, "
              f"{sum(r.success for r in reports)}/{len(reports)} solved")


def _sample(game: str, atoms: int, seed: int) -> list[str]:
    """``atoms`` atoms that compile for ``game``, drawn as the engine's seeded sample draws them."""
    from taskverse.engine.sample import sample_tasks
    from taskverse.library.loader import load_library

    return [task.id for task, _ in sample_tasks(load_library(), game, atoms, 0, seed)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="naive(craft.wooden_pickaxe)")
    parser.add_argument("--episodes", type=int, default=5)
    parser.add_argument("--agent", default="optimal", help="engine eval's agent (not for --command run)")
    parser.add_argument("--command", choices=["eval", "run"], default="eval",
                        help="time engine eval (an agent a step at a time) or engine run (the scripted plan)")
    parser.add_argument("--game", default="minetest_game")
    parser.add_argument("--ways", default="reuse,fresh", help="comma-separated: reuse, fresh")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each way")
    parser.add_argument("--src", help="another checkout's src folder to run (its default way only: --ways reuse)")
    parser.add_argument("--scripted", action=argparse.BooleanOptionalAction, default=True,
                        help="also time the scripted player's run_jobs in this process (not with --src)")
    parser.add_argument("--sample", type=int, default=0, metavar="N",
                        help="engine eval over N different atoms that compile for the game (drawn with --seed, as "
                             "taskverse.engine.sample draws them) instead of --task; with --episodes 1, the run "
                             "times how a suite's tasks follow one another")
    parser.add_argument("--seed", type=int, default=0, help="the --sample draw")
    args = parser.parse_args()
    args.tasks = [args.task]
    if args.sample:
        if args.command != "eval":
            parser.error("--sample is for --command eval")
        args.scripted = False
        args.tasks = _sample(args.game, args.sample, args.seed)
        args.task = f"{args.sample} atoms ({', '.join(args.tasks)})"
    ways = [w.strip() for w in args.ways.split(",") if w.strip()]
    for way in ways:
        if way not in WAYS:
            parser.error(f"unknown way {way!r}; expected one of {', '.join(WAYS)}")
    where = f" ({args.src})" if args.src else ""
    run_once(args, ways[0])  # not counted: the first run of a checkout fills the caches (compiled tasks, plans)
    for way in ways:
        runs = [run_once(args, way) for _ in range(args.repeat)]
        walls, cpus = [r.wall for r in runs], [r.cpu for r in runs]
        last = runs[-1]
        what = f"--agent {args.agent}" if args.command == "eval" else "(scripted)"
        print(f"engine {args.command} {args.task} --episodes {args.episodes} {what}, {way}{where}: "
              f"wall {statistics.median(walls):.2f} s (runs {', '.join(f'{w:.2f}' for w in walls)}), "
              f"CPU {statistics.median(cpus):.2f} s (runs {', '.join(f'{c:.2f}' for c in cpus)}); "
              f"{last.servers} server(s) started, {last.successes}/{last.episodes} solved")
    if args.scripted and not args.src:
        scripted(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
