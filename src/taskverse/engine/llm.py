r"""A language model acting in the engine: the step's text view as the prompt, its answer read as an action.

The ``openai:MODEL`` agent of ``taskverse engine eval`` talks to any OpenAI-compatible chat completions endpoint
(``OPENAI_BASE_URL``, else OpenAI's; ``OPENAI_API_KEY``, which local servers ignore) through the ``openai``
client (``pip install 'taskverse[llm]'``). Each step sends the rules of the game of actions and the text view
(``taskverse.engine.gymenv.observation_text``: the task, progress, inventory, what is around, the last outcome,
the numbered candidates) with the last few steps; the answer's last ``ACTION:`` line (else its last line) is the
action: a candidate's number or an action as JSON. An answer that is neither wastes the step (invalid); an
endpoint that fails after the client's retries fails the episode (``AgentError``).

Example:
    >>> read_action("Wood first.\nACTION: 3")
    '3'
    >>> read_action('ACTION: {"do": "dig", "node": "oak_log"}')
    '{"do": "dig", "node": "oak_log"}'

"""

from __future__ import annotations

import os
import re
from typing import Any

from taskverse.errors import TaskverseError

SYSTEM = """You play a voxel game (like Minecraft) through actions, one per turn, to do a task.
Each turn you see the task, your inventory, the nodes and mobs around you and numbered candidate actions.
Answer with one short line of reasoning, then a last line `ACTION: N` (a candidate's number) or
`ACTION: {"do": ..., ...}` (any action as JSON: wield, dig, place, craft, cook, eat, kill, collect, use,
interact, goto_node, goto_biome, move, wait, ... with their fields)."""
HISTORY = 6
_ACTION = re.compile(r"^\s*ACTION:\s*(.+?)\s*$", re.MULTILINE | re.IGNORECASE)


def read_action(answer: str) -> str:
    """The action an answer names: its last ``ACTION:`` line's value, else its last non-empty line."""
    found = _ACTION.findall(answer)
    if found:
        return str(found[-1]).strip().strip("`")
    lines = [line.strip() for line in answer.strip().splitlines() if line.strip()]
    return lines[-1].strip("`") if lines else ""


class EngineLLMAgent:
    """The ``openai:MODEL`` agent for engine episodes (one per worker)."""

    def __init__(self, model: str, timeout: float = 60.0, retries: int = 2) -> None:
        try:
            from openai import OpenAI
        except ImportError:
            raise TaskverseError("the openai: agent needs the openai package: pip install 'taskverse[llm]'") from None
        self.model = model
        self.client = OpenAI(base_url=os.environ.get("OPENAI_BASE_URL") or None,
                             api_key=os.environ.get("OPENAI_API_KEY") or "not-needed", timeout=timeout,
                             max_retries=retries)
        self.history: list[dict[str, str]] = []
        self.answer: str | None = None
        self.reasoning: str | None = None
        self.calls = 0

    def reset(self, env: Any = None, seed: int | None = None) -> None:
        """A new episode: no history."""
        self.history = []

    def act(self, view: Any) -> str:
        """Ask the model for the next action given the view's text (``json_observation()["text"]``)."""
        from taskverse.textenv.options import AgentError

        text = view.json_observation()["text"]
        messages = [{"role": "system", "content": SYSTEM}, *self.history[-2 * HISTORY:],
                    {"role": "user", "content": text}]
        self.calls += 1
        try:
            done = self.client.chat.completions.create(model=self.model, messages=messages,  # type: ignore[arg-type]
                                                       temperature=0)
        except Exception as exc:  # the client's own errors: connection, status, timeout
            raise AgentError(f"the endpoint failed: {type(exc).__name__}: {str(exc)[:200]}") from None
        content = (done.choices[0].message.content or "") if done.choices else ""
        self.answer = content[:2000]
        self.reasoning = content[:2000]
        self.history += [{"role": "user", "content": text}, {"role": "assistant", "content": content}]
        return read_action(content)

    def recover(self) -> None:
        """Nothing to restart (the next request is a new one)."""

    def close(self) -> None:
        """Close the client's connections."""
        self.client.close()
