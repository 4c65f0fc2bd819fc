"""Benchmark: the SkillForge-text environment (single and batched) and its optimal planner, and Plancraft's.

Prints figures (never asserts). Run on one core: ``taskset -c 0 python scripts/perf/textenv.py``. Rates are per
second of this process's CPU time (``time.process_time``), so that other work on a shared machine does not count;
Plancraft's probe is timed the same way.

* Single environment steps per second with the structured and the text observation: random masked actions (a
  uniform pick among the candidates, from uniform numbers drawn in blocks), craft targets (every craft atom
  reachable from an empty inventory, one per episode), naive initialization, 100-step episodes, resets included;
  once on the raw environment and once through ``gymnasium.make``'s wrappers. Reset time.
* The batched environment (``gymnasium.make_vec``) at batch sizes 1, 64, 1024 and 4096, numba-compiled (when
  installed) and, at small sizes, the plain loop: total steps per second with copied observations and with
  read-only views (``copy=False``), once with a random masked agent (rejection sampling over the masks) in the
  loop and once for the environment alone (replaying the actions that agent chose).
* The slowest actions: the step time of the actions that change the most candidates (crafting a crafting table
  makes hundreds of recipes possible), from a well-stocked state.
* The optimal planner: milliseconds per naive-initialized craft atom over the whole library (median, 90th
  percentile, worst), and how many plans were proven shortest within the default budget.
* Plancraft (``pip install plancraft``), timed in its own virtual environment (``.cache/plancraft-venv``, made
  here if missing, never inside ``.venv``) through a subprocess on the same machine in the same run: its
  ``PlancraftEnvironment.step`` loop with random moves. Its step also renders the crafting-table image.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

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
    steps, start = 0, time.process_time()
    while time.process_time() - start < float(sys.argv[1]):
        env.step(actions[steps % len(actions)])
        steps += 1
        if steps % 100 == 0:
            env.reset(dict(inventory))
    out[resolution] = steps / (time.process_time() - start)
import importlib.metadata
out["version"] = importlib.metadata.version("plancraft")
print(json.dumps(out))
"""


def steps_per_second(env: gymnasium.Env, seconds: float = SECONDS) -> float:
    """Random masked actions, episodes of the environment's limit, resets included."""
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for u in rng.random(1024).tolist():
            choices = info["action_mask"].nonzero()[0]
            _, _, terminated, truncated, info = env.step(int(choices[int(u * len(choices))]))
            if terminated or truncated:
                _, info = env.reset()
        steps += 1024
    return steps / (time.process_time() - start)


def environment_figures() -> dict[str, float]:
    figures = {}
    for mode in ("structured", "text"):
        raw = SkillForgeTextEnv(tasks="naive-craft", observation=mode, plan_info=False)  # type: ignore[arg-type]
        figures[f"{mode} (raw env)"] = steps_per_second(raw)
        made = gymnasium.make("taskverse/SkillForgeText-v0", tasks="naive-craft", observation=mode, plan_info=False)
        figures[f"{mode} (gymnasium.make)"] = steps_per_second(made)
    raw = SkillForgeTextEnv(tasks="naive-craft", observation="structured", plan_info=False)
    raw.reset(seed=0)
    start, resets = time.process_time(), 0
    while time.process_time() - start < 1.0:
        raw.reset()
        resets += 1
    figures["reset us"] = 1e6 * (time.process_time() - start) / resets
    return figures


def masked_choice(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """One uniform candidate per row of ``mask``: 32 uniform proposals per row, the first that is a candidate."""
    n, width = mask.shape
    proposals = rng.integers(0, width, (n, 32))
    hits = mask[np.arange(n)[:, None], proposals] != 0
    chosen = proposals[np.arange(n), hits.argmax(1)]
    for row in np.flatnonzero(~hits.any(1)).tolist():  # rare: no hit in 32 tries
        candidates = np.flatnonzero(mask[row])
        chosen[row] = candidates[rng.integers(len(candidates))]
    return chosen


def batched_figures(sizes: tuple[int, ...] = (1, 64, 1024, 4096), seconds: float = 2.0) -> list[dict[str, Any]]:
    """Total steps/s of the vector environment per backend, batch size and copy mode, with and without an agent."""
    from taskverse.textenv.kernel import BACKENDS
    from taskverse.textenv.vector import SkillForgeTextVectorEnv

    rows = []
    for backend in BACKENDS:
        for n in sizes if backend == "numba" else sizes[:2]:
            for copy in (False, True):
                envs = SkillForgeTextVectorEnv(n, tasks="naive-craft", backend=backend, copy=copy)
                obs, _ = envs.reset(seed=0)
                envs.step(masked_choice(np.random.default_rng(1), obs["action_mask"]))  # compiled (or loaded) here
                rng = np.random.default_rng(0)
                obs, _ = envs.reset(seed=0)
                chosen = []
                start = time.process_time()
                while time.process_time() - start < seconds:
                    actions = masked_choice(rng, obs["action_mask"])
                    chosen.append(actions)
                    obs, *_ = envs.step(actions)
                with_agent = n * len(chosen) / (time.process_time() - start)
                envs.reset(seed=0)  # the same episodes again: the recorded actions are all still candidates
                start = time.process_time()
                for actions in chosen:
                    envs.step(actions)
                alone = n * len(chosen) / (time.process_time() - start)
                rows.append({"backend": backend, "n": n, "copy": copy, "agent": with_agent, "env": alone})
    return rows


def slowest_actions(top: int = 5, repeats: int = 50) -> list[tuple[str, float, int]]:
    """(action, microseconds per step, candidates it changes) of the slowest actions from a well-stocked state."""
    from taskverse.textenv.fast import FastRules
    from taskverse.world.rules import Rules

    rules = Rules.for_library(shared_library())
    fast = FastRules.for_rules(rules)
    stock = {"oak_planks": 8, "birch_planks": 4, "stick": 8, "cobblestone": 16, "iron_ingot": 8, "coal": 8,
             "raw_iron": 8, "white_wool": 4, "string": 4, "furnace": 1, "stone_pickaxe": 1, "gold_ingot": 4,
             "diamond": 4, "redstone": 8, "leather": 4, "paper": 4, "glass": 4, "oak_log": 8}
    state = rules.new_state(stock, [("block", "stone"), ("block", "iron_ore"), ("entity", "sheep")], track=True)
    figures = []
    for a in rules.candidates(state):
        best = math.inf
        for _ in range(3):  # the fastest of three rounds: the others met other work on the machine
            copies = [state.copy() for _ in range(repeats)]
            start = time.process_time()
            for copy in copies:
                fast.act(copy, a)
            best = min(best, (time.process_time() - start) / repeats)
        elapsed = best
        changed = sum(x != y for x, y in zip(copies[0].mask, state.mask, strict=True))
        figures.append((rules.actions[a], 1e6 * elapsed, changed))
    figures.sort(key=lambda f: -f[1])
    table = rules.action_index["craft.crafting_table"]
    wanted = [f for f in figures if f[0] == rules.actions[table]]
    return figures[:top] + [f for f in wanted if f not in figures[:top]]


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
        start = time.process_time()
        plan, shortest = planner_for(env, from_start=True).best_plan()
        times.append(time.process_time() - start)
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
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    env = environment_figures()
    for name, value in env.items():
        if name != "reset us":
            print(f"SkillForge-text steps/s, {name:<26} {value:>10,.0f}")
    print(f"SkillForge-text reset: {env['reset us']:.1f} us")
    for row in batched_figures():
        mode = "views" if not row["copy"] else "copies"
        print(f"batched ({row['backend']}, {mode:<6}) N={row['n']:<5} total steps/s: {row['agent']:>12,.0f} with a "
              f"random masked agent, {row['env']:>12,.0f} environment alone")
    for name, micros, changed in slowest_actions():
        print(f"slow action {name:<28} {micros:8.1f} us per step ({changed} candidates change)")
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
