"""Agents that act in an engine episode a step at a time, and the loop that runs one.

An agent is anything with ``act(result) -> action | None`` (None: it stops): the optimal agent sends its
scripted plan's steps one at a time (the planner's plan for the compiled task, the same one ``engine run`` plays
whole), planning again from what it holds after a step failed; the greedy agent does the same with the planner's
first, greedy plan (not searched for a shorter one); the random agent picks among the step's candidate
actions with its own seeded generator.

Example:
    >>> with EngineEpisode("craft.stick") as episode:  # doctest: +SKIP
    ...     report = play(episode, OptimalAgent(episode))
    >>> report.success  # doctest: +SKIP
    True

"""

from __future__ import annotations

import random
from typing import Any, Protocol

from taskverse.engine.episode import EngineEpisode, StepResult
from taskverse.engine.runner import EpisodeReport
from taskverse.errors import TaskverseError


class Agent(Protocol):
    """Chooses the next action from a step's result (None: stop)."""

    def act(self, result: StepResult) -> Any:
        """The next action (a Step, a dict or JSON text), or None to stop."""


def replan(episode: EngineEpisode, observation: Any, budget: int | None = None) -> Any:
    """The scripted plan for the episode's task from what the agent holds now (the start's other parts kept).

    Raises ``planner.NoPlan`` when there is none (an item the game's model does not know, nothing left to try).
    """
    from taskverse.engine.ir import StackIR

    inventory = [StackIR(name=name, count=count) for name, count in sorted(observation.inventory.items())]
    init = episode.ir.init.model_copy(update={"inventory": inventory, "wield": None})  # the held stack is in it
    return _plan(episode, episode.ir.model_copy(update={"init": init}), budget)


def _plan(episode: EngineEpisode, ir: Any, budget: int | None) -> Any:
    from taskverse.engine.planner import DEFAULT_BUDGET, scripted_plan

    return scripted_plan(episode.task, ir, episode.library, DEFAULT_BUDGET if budget is None else budget).plan


class OptimalAgent:
    """Sends the planner's scripted plan for the episode's task, one step at a time (stops when it runs out).

    After one of its steps failed in the engine, it plans again from what it holds then (at most ``replans``
    times; it stops when there is no plan from there). ``budget``: the states the planner may expand looking for
    a shorter plan than its first, greedy one (``planner.DEFAULT_BUDGET``; 0 keeps the first).
    """

    budget: int | None = None

    def __init__(self, episode: EngineEpisode, replans: int = 3) -> None:
        self.episode = episode
        self.plan = _plan(episode, episode.ir, self.budget)
        self.replans_left = replans
        self.replanned = 0
        self._next = 0

    def act(self, result: StepResult) -> Any:
        """The plan's next step (None after the last one, or when a failed step leaves no plan)."""
        from taskverse.engine.planner import NoPlan

        if result.step > 0 and not result.ok and not result.invalid:
            if self.replans_left <= 0:
                return None
            self.replans_left -= 1
            try:
                self.plan = replan(self.episode, result.observation, self.budget)
            except NoPlan:
                return None
            self.replanned += 1
            self._next = 0
        if self._next >= len(self.plan.steps):
            return None
        step = self.plan.steps[self._next]
        self._next += 1
        return step


class GreedyAgent(OptimalAgent):
    """The planner's first plan, greedy and not searched for a shorter one, a step at a time.

    It replans as the optimal agent does (from what it holds after a failed step).
    """

    budget = 0


class RandomAgent:
    """Picks one of the step's candidate actions at random (its own generator, seeded)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, result: StepResult) -> Any:
        """A candidate drawn at random (None when there is none)."""
        return self.rng.choice(result.candidates) if result.candidates else None


def play(episode: EngineEpisode, agent: Agent, max_steps: int = 1000) -> EpisodeReport:
    """Reset the episode and let the agent act until the task is decided, it stops, or ``max_steps``; the report.

    The server is stopped before this returns, whatever happens (an agent that raises included).
    """
    try:
        result = episode.reset()
        while not result.done and episode.steps < max_steps:
            action = agent.act(result)
            if action is None:
                break
            result = episode.step(action)
    finally:
        report = episode.close()
    if report is None:  # pragma: no cover - reset() ran, so close() reports it
        raise TaskverseError("the episode ended without a report")
    return report


__all__ = ["Agent", "GreedyAgent", "OptimalAgent", "RandomAgent", "play", "replan"]
