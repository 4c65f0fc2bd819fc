"""Benchmark: a reset of an agent's episode in the engine, in the running server and on a fresh one.

Prints the time of a reset that starts the episode again in the running server (``EngineEpisode.reset``: the
runtime puts the start back) and of one that starts a new server on a fresh world (``reset(fresh=True)``), median
and p95 over ``--resets`` resets of a task after one step each; the same after the optimal agent has played a task
from scratch (``--played``: trees dug, a furnace placed and burnt, all put back); and gymnasium's ``check_env`` on
``taskverse/EngineSkills-v0`` with resets in the running server and with a new server every reset. Needs the engine
(scripts/install-engine.sh).

    python scripts/perf/engine_reset.py [--game minetest_game] [--task craft.stick] [--resets 10]
        [--played "naive(smelt.iron_ingot)"]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _figures(seconds: list[float]) -> str:
    return f"median {statistics.median(seconds):.3f} s, p95 {_pct(seconds, 0.95):.3f} s ({len(seconds)} resets)"


def resets(library: Any, game: str, task: str, n: int, fresh: bool) -> tuple[list[float], int]:
    """Seconds of ``n`` resets of ``task``, each after one step (a wait); and how many restarted in the server."""
    from taskverse.engine.episode import EngineEpisode
    from taskverse.engine.runner import claimed_homes

    seconds, restarted = [], 0
    with claimed_homes(1) as homes, EngineEpisode(task, library=library, game=game, client_home=homes[0]) as episode:
        episode.reset()  # the first start, not counted: the server every later reset may reuse
        for _ in range(n):
            episode.step({"do": "wait", "seconds": 0})
            started = time.monotonic()
            episode.reset(fresh=fresh)
            seconds.append(time.monotonic() - started)
            restarted += episode.last_reset == "restart"
    return seconds, restarted


def played(library: Any, game: str, task: str, n: int) -> tuple[list[float], int, int]:
    """Seconds of a reset after each of ``n`` episodes of the optimal agent on ``task``; restarts; successes."""
    from taskverse.engine.adapter import play
    from taskverse.engine.episode import EngineEpisode
    from taskverse.engine.runner import claimed_homes
    from taskverse.textenv.agents import make_agent

    seconds, restarted, solved = [], 0, 0
    with claimed_homes(1) as homes, EngineEpisode(task, library=library, game=game, client_home=homes[0]) as episode:
        for _ in range(n):
            solved += play(episode, make_agent("optimal"), stop=False).success  # its own reset: a clean start
            started = time.monotonic()
            episode.reset()  # what the episode changed is put back
            seconds.append(time.monotonic() - started)
            restarted += episode.last_reset == "restart"
    return seconds, restarted, solved


def check_env_seconds(game: str, reuse: bool) -> tuple[float, int]:
    """Seconds gymnasium's check_env takes on EngineSkills-v0 (craft.stick), and the servers it started."""
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import taskverse  # noqa: F401 - registers the environment

    env = gymnasium.make("taskverse/EngineSkills-v0", task="craft.stick", game=game, max_steps=5, reuse=reuse)
    try:
        started = time.monotonic()
        check_env(env.unwrapped)
        return time.monotonic() - started, env.unwrapped.episode.server_starts
    finally:
        env.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="minetest_game")
    parser.add_argument("--task", default="craft.stick")
    parser.add_argument("--resets", type=int, default=10, help="resets to time each way")
    parser.add_argument("--played", default="naive(smelt.iron_ingot)", help="a task the optimal agent plays first")
    parser.add_argument("--episodes", type=int, default=3, help="episodes of --played to reset after")
    args = parser.parse_args()
    from taskverse.library.loader import load_library

    library = load_library()
    for fresh in (False, True):
        seconds, restarted = resets(library, args.game, args.task, args.resets, fresh)
        way = "a new server on a fresh world" if fresh else "in the running server"
        print(f"{args.game} {args.task}: reset {way}: {_figures(seconds)}; {restarted} restarted in the server")
    if args.episodes > 0:
        seconds, restarted, solved = played(library, args.game, args.played, args.episodes)
        print(f"{args.game} {args.played}: reset after the optimal agent's episode: {_figures(seconds)}; "
              f"{restarted} restarted in the server; {solved} of {args.episodes} episodes solved")
    for reuse in (True, False):
        took, servers = check_env_seconds(args.game, reuse)
        way = "resets in the running server" if reuse else "a new server every reset"
        print(f"check_env on EngineSkills-v0 ({way}): {took:.1f} s, {servers} server(s) started by the checked "
              "environment (the one check_env makes to try the render modes starts its own)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
