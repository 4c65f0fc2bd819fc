"""Benchmark: the SkillForge-text environment and its optimal planner, and Plancraft's environment for scale.

Prints figures (never asserts). Run on one core: ``taskset -c 0 python scripts/perf/textenv.py``.

* Environment steps per second with the structured and the text observation: random masked actions, craft
  targets (every craft atom reachable from an empty inventory, one per episode), naive initialization, 100-step
  episodes, resets included; once on the raw environment and once through ``gymnasium.make``'s wrappers.
* The optimal planner: milliseconds per naive-initialized craft atom over the whole library (median, 90th
  percentile, worst), and how many plans were proven shortest within the default budget.
* Plancraft (``pip install plancraft``), timed in its own virtual environment (``.cache/plancraft-venv``, made
  here if missing, never inside ``.venv``) through a subprocess on the same machine in the same run: its
  ``PlancraftEnvironment.step`` loop with random moves. Its step also renders the crafting-table image.
"""

from __future__ import annotations

import json
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path

import gymnasium
import numpy as np

from taskverse.paths import project_root
from taskverse.textenv.agents import DEFAULT_BUDGET, planner_for
from taskverse.textenv.env import SkillForgeTextEnv, shared_library

SECONDS = 3.0
PLANCRAFT_VENV = project_root() / ".cache" / "plancraft-venv"
PLANCRAFT_PROBE = r"""
import json, random, sys, time
from plancraft.environment.env import PlancraftEnvironment
from plancraft.environment.actions import MoveAction
inventory = {10: dict(type="iron_ore", quantity=10), 23: dict(type="oak_log", quantity=23),
             30: dict(type="cobblestone", quantity=20), 31: dict(type="stick", quantity=8)}
out = {}
for resolution in ("high", "low"):
    env = PlancraftEnvironment(inventory=dict(inventory), resolution=resolution)
    rng = random.Random(0)
    actions = []
    while len(actions) < 2000:
        a, b = rng.randint(0, 45), rng.randint(1, 45)
        if a != b:
            actions.append(MoveAction(slot_from=a, slot_to=b, quantity=1))
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < float(sys.argv[1]):
        env.step(actions[steps % len(actions)])
        steps += 1
        if steps % 100 == 0:
            env.reset(dict(inventory))
    out[resolution] = steps / (time.perf_counter() - start)
import importlib.metadata
out["version"] = importlib.metadata.version("plancraft")
print(json.dumps(out))
"""


def steps_per_second(env: gymnasium.Env, seconds: float = SECONDS) -> float:
    """Random masked actions, episodes of the environment's limit, resets included."""
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        choices = info["action_mask"].nonzero()[0]
        _, _, terminated, truncated, info = env.step(int(choices[rng.integers(len(choices))]))
        steps += 1
        if terminated or truncated:
            _, info = env.reset()
    return steps / (time.perf_counter() - start)


def environment_figures() -> dict[str, float]:
    figures = {}
    for mode in ("structured", "text"):
        raw = SkillForgeTextEnv(tasks="naive-craft", observation=mode, plan_info=False)  # type: ignore[arg-type]
        figures[f"{mode} (raw env)"] = steps_per_second(raw)
        made = gymnasium.make("taskverse/SkillForgeText-v0", tasks="naive-craft", observation=mode, plan_info=False)
        figures[f"{mode} (gymnasium.make)"] = steps_per_second(made)
    return figures


def planner_figures() -> dict[str, float]:
    library = shared_library()
    world = library.world
    tasks = [t.id for t in library.tasks if t.verb == "craft" and world.task_rank(t.id) != math.inf]
    env = SkillForgeTextEnv(task=tasks[0], plan_info=False)
    env.reset(seed=0)
    planner_for(env).best_plan()  # warm the per-rules caches (cost model), as any later call would find them
    times, proven, lengths = [], 0, []
    for task in tasks:
        env.reset(seed=0, options={"task": task})
        start = time.perf_counter()
        plan, shortest = planner_for(env, from_start=True).best_plan()
        times.append(time.perf_counter() - start)
        proven += shortest
        lengths.append(len(plan) if plan is not None else 0)
    times.sort()
    return {"atoms": len(tasks), "median ms": 1000 * statistics.median(times),
            "p90 ms": 1000 * times[int(0.9 * len(times))], "max ms": 1000 * times[-1],
            "total s": sum(times), "proven": proven, "median plan length": statistics.median(lengths)}


def plancraft_figures(seconds: float = SECONDS) -> dict[str, float] | str:
    """Steps/s of Plancraft's environment in its own virtual environment, or why it could not be measured."""
    python = PLANCRAFT_VENV / "bin" / "python"
    if not python.exists():
        made = subprocess.run([sys.executable, "-m", "venv", str(PLANCRAFT_VENV)], capture_output=True, text=True)
        if made.returncode != 0:
            return f"cannot create {PLANCRAFT_VENV}: {made.stderr.strip().splitlines()[-1:]}"
    probe = subprocess.run([str(python), "-c", "import plancraft"], capture_output=True, text=True)
    if probe.returncode != 0:
        installed = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "plancraft"],
                                   capture_output=True, text=True, timeout=1800)
        if installed.returncode != 0:
            lines = (installed.stderr or installed.stdout).strip().splitlines()
            return f"pip install plancraft failed: {lines[-1] if lines else 'no output'}"
    run = subprocess.run([str(python), "-c", PLANCRAFT_PROBE, str(seconds)], capture_output=True, text=True,
                         timeout=600, cwd=Path.home())
    if run.returncode != 0:
        lines = run.stderr.strip().splitlines()
        return f"Plancraft's environment did not run: {lines[-1] if lines else 'no output'}"
    return json.loads(run.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> int:
    env = environment_figures()
    for name, value in env.items():
        print(f"SkillForge-text steps/s, {name:<26} {value:>10,.0f}")
    plan = planner_figures()
    print(f"optimal planner over {plan['atoms']} naive craft atoms (budget {DEFAULT_BUDGET}): median "
          f"{plan['median ms']:.1f} ms, p90 {plan['p90 ms']:.1f} ms, worst {plan['max ms']:.0f} ms, total "
          f"{plan['total s']:.1f} s; {plan['proven']} proven shortest; median plan {plan['median plan length']:.0f} "
          f"steps")
    plancraft = plancraft_figures()
    if isinstance(plancraft, str):
        print(f"Plancraft: not measured ({plancraft})")
    else:
        ours = env["structured (raw env)"]
        print(f"Plancraft {plancraft['version']} PlancraftEnvironment.step steps/s: {plancraft['high']:,.0f} "
              f"(high resolution, default), {plancraft['low']:,.0f} (low)")
        print(f"ratio SkillForge-text structured / Plancraft: {ours / plancraft['high']:.0f}x (default), "
              f"{ours / plancraft['low']:.0f}x (low resolution); text observation: "
              f"{env['text (raw env)'] / plancraft['high']:.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
