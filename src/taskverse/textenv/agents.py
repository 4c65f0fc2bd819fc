"""Agents for the text environment: random, greedy, optimal, and an external program speaking JSON lines.

Every agent has ``reset(env, seed)`` (a new episode of ``env``, a ``SkillForgeTextEnv``) and ``act(env)``, which
returns an action index or text naming an action (a candidate number, an id or a name). In-process agents read
the environment directly; the external agent sees only ``env.json_observation()``.

Example:
    >>> from taskverse.textenv.env import SkillForgeTextEnv
    >>> env = SkillForgeTextEnv(task="craft stick", plan_info=False)
    >>> _ = env.reset(seed=0)
    >>> agent = make_agent("optimal")
    >>> agent.reset(env, seed=0)
    >>> done = False
    >>> while not done:
    ...     _, reward, done, _, _ = env.step(agent.act(env))
    >>> env.trajectory
    ['find.acacia_log', 'mine.acacia_log', 'craft.acacia_planks', 'craft.stick']

"""

from __future__ import annotations

import json
import shlex
import subprocess
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import numpy as np

from taskverse.errors import TaskverseError
from taskverse.textenv.planning import DEFAULT_BUDGET, planner_for, view
from taskverse.world.search import Planner, StateDict, greedy_choice

if TYPE_CHECKING:
    from taskverse.textenv.env import SkillForgeTextEnv

AGENT_NAMES = ("random", "greedy", "optimal")


class Agent(Protocol):
    """What the evaluation runner drives."""

    name: str

    def reset(self, env: SkillForgeTextEnv, seed: int | None = None) -> None:
        """Start an episode of ``env`` (already reset)."""

    def act(self, env: SkillForgeTextEnv) -> int | str:
        """The next action: an index into the action space, or text naming a candidate."""

    def close(self) -> None:
        """Release what the agent holds (processes)."""


class RandomAgent:
    """Picks a candidate uniformly at random (masked random play)."""

    name = "random"

    def __init__(self) -> None:
        self.rng = np.random.default_rng()

    def reset(self, env: SkillForgeTextEnv, seed: int | None = None) -> None:
        """Seed the agent's own generator."""
        self.rng = np.random.default_rng(seed)

    def act(self, env: SkillForgeTextEnv) -> int:
        """A random candidate."""
        candidates = env.candidates()
        return int(candidates[int(self.rng.integers(len(candidates)))])

    def close(self) -> None:
        """Nothing to release."""


class GreedyAgent:
    """Works down from the target to the first thing it can do now (``world.search.greedy_choice``)."""

    name = "greedy"

    def __init__(self) -> None:
        self.planner: Planner | None = None
        self.fallback = RandomAgent()

    def reset(self, env: SkillForgeTextEnv, seed: int | None = None) -> None:
        """Build the planner's view of the target."""
        self.planner = planner_for(env)
        self.fallback.reset(env, seed)

    def act(self, env: SkillForgeTextEnv) -> int:
        """The greedy choice (a random candidate when the greedy rule finds nothing to do)."""
        if self.planner is None:
            self.reset(env)
        assert self.planner is not None
        tracker = self.planner.tracker
        progress = tracker.feed(tracker.initial(), env.light_trace)
        choice = greedy_choice(self.planner, view(self.planner, env), progress)
        return choice if choice is not None else self.fallback.act(env)

    def close(self) -> None:
        """Nothing to release."""


class OptimalAgent:
    """Follows a shortest plan (``Planner.best_plan``), replanning whenever the world did something else.

    Args:
        budget: States the search may expand to prove a plan shortest (see ``DEFAULT_BUDGET``).

    """

    name = "optimal"

    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        self.budget = budget
        self.plan: list[int] = []
        self.expected: StateDict | None = None
        self.proven = True
        self.stuck = False
        self.fallback = GreedyAgent()

    def reset(self, env: SkillForgeTextEnv, seed: int | None = None) -> None:
        """Plan from the episode's start."""
        self.fallback.reset(env, seed)
        self._replan(env)

    def _replan(self, env: SkillForgeTextEnv) -> None:
        planner = planner_for(env, budget=self.budget)
        plan, self.proven = planner.best_plan()
        self.plan = list(plan or [])
        self.stuck = plan is None  # no plan from here: the greedy rule takes over for the rest of the episode
        self.expected = view(planner, env)
        self._planner = planner

    def act(self, env: SkillForgeTextEnv) -> int:
        """The next action of the plan (replanning first if the state is not the one the plan expects)."""
        if self.stuck:
            return self.fallback.act(env)
        now = view(self._planner, env)
        if not self.plan or now != self.expected or not env.state.mask[self.plan[0]]:
            self._replan(env)
            now = view(self._planner, env)
        if not self.plan:
            return self.fallback.act(env)
        a = self.plan.pop(0)
        planner = self._planner
        w = planner.enabled_way(a, now)
        if w is not None:
            tracker = planner.tracker
            progress = tracker.feed(tracker.initial(), env.light_trace)
            self.expected, _ = planner.apply(now, progress, a, w)
        return a

    def close(self) -> None:
        """Nothing to release."""


class ExternalAgent:
    """A program that reads one JSON observation per line on stdin and answers one action per line on stdout.

    The protocol is in ``docs/textenv.md``: each line sent is ``env.json_observation()`` plus ``"episode"``
    and ``"type": "observation"``; the answer is a candidate number, an action id or name, or a JSON object
    ``{"action": ...}``. The program runs once for a whole evaluation; its stdin is closed at the end.

    Args:
        command: The command line (split like a shell would).
        timeout: Seconds to wait for each answer.

    """

    def __init__(self, command: str | Sequence[str], timeout: float = 30.0) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise TaskverseError("cmd: needs a program to run, e.g. cmd:\"python my_agent.py\"")
        self.name = "cmd:" + " ".join(self.argv)
        self.timeout = timeout
        self.episode = -1
        try:
            self.process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=None, text=True, bufsize=1)
        except OSError as exc:
            raise TaskverseError(f"cannot start the agent program {self.argv[0]!r}: {exc.strerror}") from None

    def reset(self, env: SkillForgeTextEnv, seed: int | None = None) -> None:
        """Count the episode (the next observation carries its number)."""
        self.episode += 1

    def act(self, env: SkillForgeTextEnv) -> str:
        """Send the observation, read the answer (text naming an action)."""
        message = {"type": "observation", "episode": self.episode, **env.json_observation()}
        process = self.process
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(json.dumps(message) + "\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise TaskverseError(f"the agent program {self.argv[0]!r} stopped reading its input "
                                 f"(exit code {process.poll()})") from None
        line = _readline(process, self.timeout)
        if line is None:
            raise TaskverseError(f"the agent program {self.argv[0]!r} gave no answer within {self.timeout:g} s")
        if line == "":
            raise TaskverseError(f"the agent program {self.argv[0]!r} ended without answering "
                                 f"(exit code {process.poll()})")
        return parse_answer(line)

    def close(self) -> None:
        """Close the program's input and wait for it (killing it if it does not end)."""
        process = self.process
        try:
            if process.stdin is not None:
                process.stdin.close()
            process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()


def _readline(process: subprocess.Popen[str], timeout: float) -> str | None:
    """One line from the process (None on timeout, '' at end of output)."""
    result: list[str] = []
    assert process.stdout is not None
    stdout = process.stdout
    reader = threading.Thread(target=lambda: result.append(stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    if reader.is_alive():
        return None
    return result[0]


def parse_answer(line: str) -> str:
    """An agent's answer line as text naming an action (a JSON ``{"action": ...}`` is unwrapped)."""
    text = line.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            return text
        if isinstance(data, dict) and "action" in data:
            return str(data["action"])
    return text


def check_agent_spec(spec: str) -> None:
    """Raise a TaskverseError (with close matches) unless ``spec`` names an agent."""
    if spec.startswith("cmd:"):
        if not spec[4:].strip().strip('"').strip("'"):
            raise TaskverseError("cmd: needs a program to run, e.g. cmd:\"python my_agent.py\"")
        return
    if spec not in AGENT_NAMES:
        from taskverse.errors import close_matches

        raise TaskverseError(f"unknown agent {spec!r}; expected random, greedy, optimal or cmd:PROGRAM",
                             suggestions=close_matches(spec, AGENT_NAMES))


def make_agent(spec: str, budget: int = DEFAULT_BUDGET) -> Agent:
    """An agent from its name: ``random``, ``greedy``, ``optimal`` or ``cmd:PROGRAM``."""
    check_agent_spec(spec)
    if spec.startswith("cmd:"):
        return ExternalAgent(spec[4:].strip().strip('"').strip("'") or "")
    if spec == "random":
        return RandomAgent()
    if spec == "greedy":
        return GreedyAgent()
    return OptimalAgent(budget)
