"""The planner agents' course in the engine: the scripted plan a step at a time, replanned after a failed step.

The agents are the text world's (``taskverse.textenv.agents.make_agent``), acting through
:class:`taskverse.engine.adapter.EngineWorld`. The planner agents (``optimal``, ``greedy``) plan with the one
planner over the game's own model instead of the library's (``EngineWorld.plan_course``): a :class:`PlanCourse`
sends the planner's scripted plan for the compiled task (the plan ``engine run`` plays whole) one step at a time
and, after one of its steps failed in the engine, plans again from what the player holds then (at most
``replans`` times). ``optimal`` lets the planner look for a shorter plan than its first (``budget`` states);
``greedy`` keeps the first, greedy one (budget 0). When the course has no step left it stops the episode
(:class:`AgentStopped`).

``taskverse.engine.adapter.play`` runs any of the agents in an episode.
"""

from __future__ import annotations

from typing import Any

from taskverse.engine.episode import EngineEpisode
from taskverse.errors import TaskverseError


class AgentStopped(TaskverseError):
    """The agent has nothing more to do (a planner agent's course ran out): the episode ends here."""


class GaveUp(AgentStopped):
    """The agent took the give-up the run offers (``--impossible``): it says the task cannot be done."""


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


class PlanCourse:
    """The planner's scripted plan for an engine world's task, a step at a time, replanned after a failed step.

    Args:
        world: The ``EngineWorld`` the agent acts in.
        budget: States the planner may expand looking for a shorter plan than its first (0: the first).
        replans: Times it plans again after a failed step before it stops.

    Raises ``planner.NoPlan`` when the game's model has no plan from the task's start.

    """

    def __init__(self, world: Any, budget: int | None = None, replans: int = 3) -> None:
        self.world = world
        self.budget = budget
        self.plan = _plan(world.episode, world.episode.ir, budget)
        self.replans_left = replans
        self.replanned = 0
        self._next = 0

    def act(self, world: Any) -> int:
        """The number (in ``world.rules``) of the plan's next step; ``AgentStopped`` when there is none."""
        from taskverse.engine.planner import NoPlan

        result = world.result
        if result is not None and result.step > 0 and not result.ok and not result.invalid:
            if self.replans_left <= 0:
                raise AgentStopped(f"a step of the plan failed and it was planned again {self.replanned} times")
            self.replans_left -= 1
            try:
                self.plan = replan(world.episode, result.observation, self.budget)
            except NoPlan as exc:
                raise AgentStopped(f"a step of the plan failed and there is no plan from there: {exc.message}") \
                    from None
            self.replanned += 1
            self._next = 0
        if self._next >= len(self.plan.steps):
            raise AgentStopped("the plan has no step left")
        step = self.plan.steps[self._next]
        self._next += 1
        return int(world.rules.add(step.model_dump(mode="json", exclude_none=True, exclude={"note"})))


__all__ = ["AgentStopped", "GaveUp", "PlanCourse", "replan"]
