#!/usr/bin/env python3
"""An external agent for ``taskverse eval --agent cmd:"python examples/agents/greedy_agent.py"``.

It speaks the JSON-lines protocol of ``docs/textenv.md``: it reads one observation per line on stdin and writes
one answer per line on stdout (here an action id, e.g. ``craft.stick``; a candidate number or a name would do
too). It decides with taskverse's greedy goal-stack rule, rebuilding the state from the observation's
inventory and found things, so it shows how a planner outside the environment plugs in. Replace ``choose``
with your own (an LLM prompt with ``observation["text"]``, a search, ...).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from taskverse.algebra.semantics import Evaluator
from taskverse.textenv.env import resolve_target, shared_library
from taskverse.algebra.tracker import Context, GoalTracker
from taskverse.world.search import Planner, greedy_choice
from taskverse.world.rules import Rules

_planners: dict[str, Planner] = {}


def planner_for(task_id: str) -> Planner:
    """A planner for a task (built once per task)."""
    if task_id not in _planners:
        library = shared_library()
        rules = Rules.for_library(library)
        target = resolve_target(task_id, library)
        tracker = GoalTracker(target.expression, Evaluator.for_library(library), Context())
        _planners[task_id] = Planner(rules, tracker, {})
    return _planners[task_id]


def choose(observation: dict[str, Any]) -> str:
    """The action to take: the greedy rule's choice, else the first candidate."""
    candidates = observation["candidates"]
    try:
        planner = planner_for(observation["task_id"])
    except Exception:  # noqa: BLE001 - a task this agent cannot parse: fall back to the first candidate
        return str(candidates[0]["index"])
    rules = planner.rules
    state = {rules.index[("item", name)]: count for name, count in observation["inventory"].items()}
    state.update({rules.index[(f["kind"], f["name"])]: 1 for f in observation["found"]})
    choice = greedy_choice(planner, state, planner.tracker.initial())
    ids = {c["id"] for c in candidates}
    if choice is not None and rules.actions[choice] in ids:
        return rules.actions[choice]
    return str(candidates[0]["index"])


def main() -> int:
    """Answer every observation line until the input ends."""
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") != "observation":
            continue
        print(choose(message), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
