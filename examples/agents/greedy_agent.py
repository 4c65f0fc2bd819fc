#!/usr/bin/env python3
"""An external agent for ``taskverse eval --agent cmd:"python examples/agents/greedy_agent.py"``.

It speaks the JSON-lines protocol of ``docs/textenv.md``: it reads one observation per line on stdin and writes
one answer per line on stdout (here ``{"action": <id>, "reasoning": ...}``; a candidate number or a name would
do too). It decides with taskverse's greedy goal-stack rule on its own copy of the episode: at step 0 it builds
the target from the observation's ``expression`` (atoms and molecules alike), and every later observation's
``previous_action`` (null when the last answer was refused) is replayed on the copy, so the copy knows which
parts of an AND / THEN target are done. Replace ``choose`` with your own (an LLM prompt with
``observation["text"]``, a search, ...).

``python`` in a ``cmd:`` spec is the interpreter running taskverse, so the imports below work whether or not a
virtual environment is active.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from pydantic import TypeAdapter

from taskverse.algebra.expr import Expr
from taskverse.textenv.agents import GreedyAgent
from taskverse.textenv.env import SkillForgeTextEnv

_copy: dict[str, Any] = {}


def follow(observation: dict[str, Any]) -> SkillForgeTextEnv:
    """The agent's copy of the episode, brought to the observation's step."""
    if observation["step"] == 0 or "env" not in _copy:
        expression = TypeAdapter(Expr).validate_python(observation["expression"])
        env = SkillForgeTextEnv(task=expression, observation="structured", plan_info=False,
                                max_steps=observation["max_steps"])
        env.reset(seed=0)
        agent = GreedyAgent()
        agent.reset(env, 0)
        _copy.update(env=env, agent=agent)
    env = _copy["env"]
    previous = observation.get("previous_action")
    if observation["step"] > 0 and previous is not None:
        env.step(env.rules.lookup(previous))
    elif observation["step"] > 0:
        env.invalid_step(observation.get("error") or "refused")
    return env


def choose(observation: dict[str, Any]) -> dict[str, Any]:
    """The action to take: the greedy rule's choice on the copy, else the first candidate."""
    candidates = observation["candidates"]
    env = follow(observation)
    choice = _copy["agent"].act(env)
    ids = {c["id"] for c in candidates}
    action = env.rules.actions[choice]
    if action in ids or choice in env.candidates():
        return {"action": action, "reasoning": f"greedy: {env.rules.descriptions[choice]} advances "
                                               f"{observation['task']!r}"}
    return {"action": candidates[0]["index"], "reasoning": "greedy found nothing: the first candidate"}


def main() -> int:
    """Answer every observation line until the input ends."""
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") != "observation":
            continue
        print(json.dumps(choose(message)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
