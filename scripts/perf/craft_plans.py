"""Benchmark: the optimal agent plays every feasible naive craft atom in the text environment. Prints figures.

Every craft atom reachable from an empty inventory is planned (search budget 40, as the tests' sample of one
atom of each kind is) and its plan played to the end. Printed: the atoms, the plans that did not end in success
in exactly their own length (none is expected), the plans longer than the default 100-step limit and their share
(under a tenth: the End's, copper's, Silk Touch's, the wither's and far structures' long chains, not planner
detours), and the seconds of this process's CPU time per atom.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

from taskverse.textenv.agents import OptimalAgent
from taskverse.textenv.env import SkillForgeTextEnv, shared_library

LONG = 100
"""Steps past which a plan is long (the environment's default step limit)."""


def play(env: SkillForgeTextEnv, agent: OptimalAgent, task: str) -> tuple[int, str | None]:
    """(the plan's length, what went wrong or None) for one atom played from its naive start."""
    env.reset(seed=0, options={"task": task})
    agent.reset(env, seed=0)
    length = len(agent.plan)
    terminated = False
    while not terminated and env.steps < max(LONG, length):
        _, _, terminated, _, _ = env.step(agent.act(env))
    if not terminated:
        return length, f"{task}: not done after {env.steps} steps"
    if env.steps != length:
        return length, f"{task}: {env.steps} steps for a {length}-step plan"
    return length, None


def main() -> int:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    library = shared_library()
    world = library.world
    tasks = [t.id for t in library.tasks if t.verb == "craft" and world.task_rank(t.id) != math.inf]
    env = SkillForgeTextEnv(task=tasks[0], observation="structured", plan_info=False, library=library,
                            max_steps=10_000)
    agent = OptimalAgent(budget=40)
    start = time.process_time()
    played = [play(env, agent, task) for task in tasks]
    seconds = time.process_time() - start
    failures = [problem for _, problem in played if problem is not None]
    long_plans = sum(length > LONG for length, _ in played)
    print(f"optimal agent over {len(tasks)} feasible naive craft atoms: {len(failures)} failed, {long_plans} plans "
          f"over {LONG} steps ({100 * long_plans / len(tasks):.1f}%), {1000 * seconds / len(tasks):.0f} ms CPU an "
          f"atom, {seconds:.1f} s in all")
    for problem in failures:
        print(f"  failed: {problem}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
