"""Benchmark: interactive engine episodes, an agent's action a step (``taskverse.engine.episode``).

Prints the step round trip without the agent (an action the harness does at once, ``wield``, and one that waits a
server step, ``wait 0``: median and p95, and what the harness's observation costs of it), the episode start
(reset: server, client, the start set up, the map around generated), memory per episode (server and client
RSS), steps per second of the step loop alone (an agent that answers at once: ``wield`` and ``wait 0`` in turn) in
one episode and in 2 at once, with the CPU time a step costs (Python, server and client: the figure a loaded
machine changes least), steps per second of the optimal agent in one episode and in 2 at once (its planning, the
starts and the walks included), and the optimal agent's success a step at a time over a seeded sample of
compilable atoms and molecules. Needs the engine (scripts/install-engine.sh).

    python scripts/perf/engine_steps.py [--game minetest_game] [--round-trips 200] [--rate-steps 300] [--atoms 50]
        [--molecules 10]
    python scripts/perf/engine_steps.py --game taskverse_mc --screenshots /tmp/frames --atoms 0 --molecules 0
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except FileNotFoundError:
        pass
    return 0.0


def _cpu_s(pid: int) -> float:
    """CPU seconds (user and system) a process has used so far (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def step_rate(library: Any, game: str, task: str, parallel: int, n: int) -> dict[str, Any]:
    """Steps per second of ``parallel`` episodes stepping at once, ``n`` steps each, an agent answering at once.

    The episodes are started first; the clock runs from when all of them step to when the last one is done. The
    CPU a step costs is the Python process's and every server's and client's over that span, over the steps.
    """
    from taskverse.engine.episode import EngineEpisode
    from taskverse.engine.runner import claimed_homes

    with claimed_homes(parallel) as homes:
        episodes = [EngineEpisode(task, library=library, game=game, client_home=home) for home in homes]
        try:
            firsts = [episode.reset() for episode in episodes]
            pids = [p.pid for e in episodes for p in (e._run.process, *e._run.clients)]
            gate = threading.Barrier(parallel + 1)
            spans: list[float] = [0.0] * parallel

            def play(index: int) -> None:
                episode, held = episodes[index], next(iter(firsts[index].observation.inventory), "")
                actions = [{"do": "wield", "item": held}, {"do": "wait", "seconds": 0}]
                gate.wait()
                started = time.monotonic()
                for i in range(n):
                    episode.step(actions[i % 2])
                spans[index] = time.monotonic() - started

            threads = [threading.Thread(target=play, args=(i,)) for i in range(parallel)]
            for thread in threads:
                thread.start()
            cpu = time.process_time() + sum(_cpu_s(pid) for pid in pids)
            gate.wait()
            wall = time.monotonic()
            for thread in threads:
                thread.join()
            wall = time.monotonic() - wall
            cpu = time.process_time() + sum(_cpu_s(pid) for pid in pids) - cpu
        finally:
            for episode in episodes:
                episode.close()
    steps = parallel * n
    return {"steps": steps, "wall_s": wall, "steps_per_s": steps / wall,
            "per_episode": [n / span for span in spans], "cpu_ms_per_step": 1000 * cpu / steps}


def round_trips(library: Any, game: str, task: str, n: int, screenshots: Path | None = None,
                starts: int = 5) -> dict[str, Any]:
    """The episode start (``starts`` of them: the first, the median, the Python CPU), memory, step round trips."""
    from taskverse.engine.episode import EngineEpisode
    from taskverse.engine.runner import claimed_homes

    out: dict[str, Any] = {}
    with claimed_homes(1) as homes, \
            EngineEpisode(task, library=library, game=game, screenshots=screenshots, client_home=homes[0]) as episode:
        walls, cpus = [], []
        for _ in range(max(1, starts)):  # the first start in a process also builds a generated game's files
            started, cpu = time.monotonic(), time.process_time()
            first = episode.reset()
            walls.append(time.monotonic() - started)
            cpus.append(time.process_time() - cpu)
        out["start_s"] = statistics.median(walls)
        out["first_start_s"] = walls[0]
        out["start_cpu_s"] = statistics.median(cpus)
        out["starts"] = len(walls)
        run = episode._run
        screen = [episode._screen.process.pid] if episode._screen is not None and episode._screen.process else []
        out["rss_mb"] = _rss_mb(run.process.pid) + sum(_rss_mb(c.pid) for c in run.clients) + \
            sum(_rss_mb(pid) for pid in screen)
        held = next(iter(first.observation.inventory), "")
        for name, action in [("wield", {"do": "wield", "item": held}), ("wait0", {"do": "wait", "seconds": 0})]:
            times, observe = [], []
            for _ in range(n):
                t = time.monotonic()
                result = episode.step(action)
                times.append(time.monotonic() - t)
                if result.observe_ms is not None:
                    observe.append(result.observe_ms)
            out[name] = {"median_ms": 1000 * statistics.median(times), "p95_ms": 1000 * _pct(times, 0.95),
                         "observe_ms": statistics.median(observe) if observe else None,
                         "frames_per_s": len(times) / sum(times) if screenshots is not None else None}
        out["frame_ms"] = statistics.median(episode.frame_ms) if episode.frame_ms else None
    return out


def optimal(library: Any, game: str, tasks: list[tuple[Any, Any]], parallel: int) -> dict[str, Any]:
    from taskverse.engine.adapter import play
    from taskverse.engine.episode import EngineEpisode
    from taskverse.engine.planner import NoPlan
    from taskverse.engine.runner import claimed_homes
    from taskverse.textenv.agents import make_agent

    def one(job: tuple[Any, Any], home: Any) -> dict[str, Any]:
        task, ir = job
        episode = EngineEpisode(task, library=library, game=game, ir=ir, client_home=home)
        started = time.monotonic()
        try:  # the text world's optimal agent through the engine adapter; planned before the server starts
            report = play(episode, make_agent("optimal"))
        except NoPlan as exc:
            return {"task": task.id, "planned": False, "reason": str(exc)}
        except Exception as exc:  # an engine failure is a result here, not the end of the benchmark
            return {"task": task.id, "planned": True, "success": False, "error": str(exc)}
        seconds = time.monotonic() - started
        listening = report.timings.listening or 0.0
        return {"task": task.id, "planned": True, "success": report.success,
                "agrees": report.replay is not None and report.replay.agrees, "steps": len(report.steps),
                "seconds": seconds, "listening": listening,
                "failed": next((s for s in report.steps if not s.get("ok")), None)}

    wall = time.monotonic()
    with claimed_homes(parallel) as homes, ThreadPoolExecutor(parallel) as pool:
        slots = [homes[i % parallel] for i in range(len(tasks))]
        results = list(pool.map(one, tasks, slots))
    wall = time.monotonic() - wall
    played = [r for r in results if r["planned"]]
    steps = sum(r.get("steps", 0) for r in played)
    return {"results": results, "planned": len(played), "succeeded": sum(r.get("success", False) for r in played),
            "agrees": sum(r.get("agrees", False) for r in played), "steps": steps, "wall_s": wall,
            "steps_per_s": steps / wall if wall > 0 else 0.0}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="minetest_game")
    parser.add_argument("--task", default="craft.stick", help="the task of the round-trip episode")
    parser.add_argument("--round-trips", type=int, default=200)
    parser.add_argument("--starts", type=int, default=5, help="episode starts to time (the median is printed)")
    parser.add_argument("--rate-steps", type=int, default=300,
                        help="steps each episode takes for the steps-per-second figures (0: not measured)")
    parser.add_argument("--atoms", type=int, default=50)
    parser.add_argument("--molecules", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--screenshots", type=Path, metavar="DIR",
                        help="measure the round trips with a first-person frame kept in DIR each step (needs xvfb)")
    args = parser.parse_args()
    from taskverse.engine.sample import sample_tasks
    from taskverse.library.loader import load_library

    library = load_library()
    trips = round_trips(library, args.game, args.task, args.round_trips, args.screenshots, args.starts)
    extra = " + virtual screen" if args.screenshots else ""
    print(f"{args.game}: episode start {trips['start_s']:.2f} s median of {trips['starts']} (the first in this "
          f"process {trips['first_start_s']:.2f} s), {trips['start_cpu_s']:.2f} CPU-s of Python; server + client"
          f"{extra} {trips['rss_mb']:.0f} MB RSS")
    for name in ("wield", "wait0"):
        t = trips[name]
        frames = f"; {t['frames_per_s']:.1f} frames/s kept" if t["frames_per_s"] else ""
        print(f"step round trip ({name}, {args.round_trips} steps): median {t['median_ms']:.1f} ms, p95 "
              f"{t['p95_ms']:.1f} ms (the harness's observation: {t['observe_ms']:.1f} ms){frames}")
    if trips["frame_ms"] is not None:
        print(f"a frame: read and written as PNG in {trips['frame_ms']:.1f} ms median, after the "
              "0.1 s the client is given to draw it")
    for parallel in (1, 2) if args.rate_steps > 0 and args.screenshots is None else ():
        rate = step_rate(library, args.game, args.task, parallel, args.rate_steps)
        each = ", ".join(f"{r:.1f}" for r in rate["per_episode"])
        print(f"step loop ({args.rate_steps} steps of wield and wait 0 in turn), {parallel} episode(s) at once: "
              f"{rate['steps_per_s']:.1f} steps/s in all (each: {each}); {rate['cpu_ms_per_step']:.1f} CPU-ms a "
              "step (Python, server and client)")
    if args.atoms + args.molecules == 0:
        return 0
    tasks = sample_tasks(library, args.game, args.atoms, args.molecules, args.seed)
    for parallel in (1, 2):
        chosen = tasks if parallel == 2 else tasks[: max(1, len(tasks) // 4)]
        report = optimal(library, args.game, chosen, parallel)
        print(f"optimal agent a step at a time, {parallel} at once: {report['succeeded']} of {report['planned']} "
              f"planned tasks solved ({len(chosen)} sampled, seed {args.seed}); replay agrees in "
              f"{report['agrees']}; {report['steps']} steps in {report['wall_s']:.1f} s = "
              f"{report['steps_per_s']:.1f} steps/s")
        for r in report["results"]:
            if r["planned"] and not r.get("success"):
                print(f"  not solved: {r['task']}: {r.get('error') or r.get('failed')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
