"""``taskverse/EngineSkills-v0``: a compiled task in the real engine as a gymnasium environment, a step an action.

The action is one action of the plan format as JSON text (``{"do": "dig", "node": "default:tree"}``), a dict, or
the number of one of the candidates the observation lists (from 0); the observation is a text view of the engine's
observation (the task, inventory, what is around, the last step's outcome and the candidate actions, numbered,
each written as the JSON an agent can send back), for language models. The
structured observation is ``info["observation"]`` and the candidates ``info["candidates"]``. The reward is 1 when
the runtime judges the task done (the episode terminates), 0 otherwise; an avoided thing done or a deadline
missed terminates with 0. The first ``reset()`` starts a server on a fresh world; a later one starts the episode
again in that server from the task's start (``EngineEpisode.reset``: a new server only when the running one cannot
give the start back whole, or with ``options={"fresh": True}`` or ``reuse=False``); ``close()`` stops it.

Example:
    >>> import gymnasium, taskverse
    >>> env = gymnasium.make("taskverse/EngineSkills-v0", task="craft.stick")  # doctest: +SKIP
    >>> text, info = env.reset()  # doctest: +SKIP
    >>> text, reward, done, cut, info = env.step('{"do": "craft", "item": "minecraft:stick"}')  # doctest: +SKIP

"""

from __future__ import annotations

import json
import string
from typing import Any

import gymnasium
from gymnasium import spaces

from taskverse.engine.candidates import describe
from taskverse.engine.episode import EngineEpisode, StepResult

TEXT_CHARSET = frozenset(string.printable)
MAX_TEXT = 1 << 20
DEFAULT_MAX_STEPS = 200
NODES_SHOWN = 24


def _nearby_line(name: str, seen: Any) -> str:
    where = ",".join(f"{v:g}" for v in seen.nearest)
    marks = "".join([" in reach" if seen.reach else "", " in sight" if seen.sight else ""])
    return f"  {name} x{seen.count}, nearest at ({where}) {seen.distance:g} away{marks}"


def observation_text(result: StepResult, description: str, steps: int, max_steps: int,
                     candidates: list[dict[str, Any]] | None = None) -> str:
    """The text view of a step's result (printable ASCII; times and positions rounded, so a start reads the same).

    The candidates (the result's, or ``candidates`` in the order shown) are numbered from 0, as the text world
    numbers its own, each in words and as the JSON an agent can send back.

    Example:
        >>> from taskverse.engine.episode import Observation
        >>> text = observation_text(StepResult(step=0, ok=True, observation=Observation()), "craft a stick", 0, 9)
        >>> text.splitlines()[0]
        'Task: craft a stick. Step 0 of 9.'

    """
    obs = result.observation
    hour = int(obs.time_of_day * 24) % 24
    lines = [f"Task: {description}. Step {steps} of {max_steps}.",
             f"Progress: {obs.task.progress:.2f} ({obs.task.outcome}).",
             f"Health {obs.health:g}/{obs.max_health:g}; at ({obs.position[0]:.0f},{obs.position[1]:.0f},"
             f"{obs.position[2]:.0f}) in {obs.biome or 'no biome'} ({obs.dimension}"
             f"{', in a cave' if obs.in_cave else ''}); {'day' if obs.daytime else 'night'}, about {hour}:00.",
             f"Holding: {obs.held or 'nothing'}.",
             "Inventory: " + (", ".join(f"{n} x{c}" for n, c in sorted(obs.inventory.items())) or "empty") + "."]
    if result.step > 0:
        outcome = "done" if result.ok else f"failed: {result.error}"
        lines.append(f"Last action{' (invalid)' if result.invalid else ''}: {outcome}.")
    nodes = sorted(obs.nodes.items(), key=lambda kv: (kv[1].distance, kv[0]))[:NODES_SHOWN]
    lines.append("Nodes around:" if nodes else "Nodes around: none.")
    lines += [_nearby_line(name, seen) for name, seen in nodes]
    if obs.entities:
        lines.append("Mobs around:")
        lines += [_nearby_line(name, seen) for name, seen in sorted(obs.entities.items())]
    if obs.drops:
        lines.append("Items on the ground:")
        lines += [_nearby_line(name, seen) for name, seen in sorted(obs.drops.items())]
    lines.append("Candidate actions (send one's number, or any action as JSON):")
    lines += [f"  {i}. {describe(c)} {json.dumps(c, sort_keys=True)}"
              for i, c in enumerate(result.candidates if candidates is None else candidates)]
    text = "\n".join(lines) + "\n"
    return "".join(ch if ch in TEXT_CHARSET else "?" for ch in text)


class EngineSkillsEnv(gymnasium.Env[str, str]):
    """A compiled task in the real engine, an action a step.

    Args:
        task: An id, a description, a composition or a task object (default ``craft.stick``).
        game: The engine game (``minetest_game`` or ``taskverse_mc``).
        max_steps: Step limit; the episode is truncated when it is reached (invalid actions count).
        library: A loaded library (default: the bundled one).
        step_limit: Seconds the engine may take to answer a step (``episode.STEP_LIMIT``).
        reuse: Whether a reset starts again in the running server when it can (False: a new server every reset).

    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, task: Any = "craft.stick", game: str = "taskverse_mc", max_steps: int = DEFAULT_MAX_STEPS,
                 library: Any = None, step_limit: float | None = None, render_mode: str | None = None,
                 reuse: bool = True) -> None:
        from taskverse.errors import TaskverseError

        if max_steps < 1:
            raise TaskverseError(f"max_steps={max_steps}: expected at least 1")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise TaskverseError(f"render_mode={render_mode!r}: expected ansi")
        from taskverse.engine.episode import STEP_LIMIT

        self.episode = EngineEpisode(task, library=library, game=game,
                                     step_limit=STEP_LIMIT if step_limit is None else step_limit, reuse=reuse)
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.observation_space = spaces.Text(max_length=MAX_TEXT, min_length=0, charset=TEXT_CHARSET)
        self.action_space = spaces.Text(max_length=4096, min_length=0, charset=TEXT_CHARSET)
        self._text = ""
        self._rewarded = False
        self._ended = False

    def _info(self, result: StepResult) -> dict[str, Any]:
        return {"observation": result.observation.model_dump(mode="json"), "candidates": result.candidates,
                "ok": result.ok, "invalid_action": result.invalid, "error": result.error,
                "success": result.success, "steps": self.episode.steps}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        """Start the episode from the task's start; the world is the task's whatever the seed.

        The running server starts the episode again when it can give the start back whole; ``options={"fresh":
        True}`` asks for a new server on a fresh world.
        """
        super().reset(seed=seed)
        result = self.episode.reset(fresh=bool((options or {}).get("fresh")))
        self._rewarded = False
        self._ended = False
        self._text = observation_text(result, self.episode.description, 0, self.max_steps)
        return self._text, self._info(result)

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Play one action (JSON text or a dict); an invalid one wastes the step (``info["invalid_action"]``)."""
        from taskverse.errors import TaskverseError

        if self._ended:
            raise TaskverseError("the episode has ended; call reset()")
        result = self.episode.step(action)
        obs = result.observation
        reward = 0.0
        if obs.task.satisfied and not self._rewarded:
            reward, self._rewarded = 1.0, True
        terminated = obs.task.satisfied or obs.task.failed
        truncated = not terminated and self.episode.steps >= self.max_steps
        self._ended = terminated or truncated
        self._text = observation_text(result, self.episode.description, self.episode.steps, self.max_steps)
        return self._text, reward, terminated, truncated, self._info(result)

    def render(self) -> str | None:  # type: ignore[override]
        """The text observation (``render_mode="ansi"``)."""
        return self._text if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Stop the engine (safe to call twice)."""
        self.episode.close()
        super().close()
