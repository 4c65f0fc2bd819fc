"""The text world's agents in the engine: one adapter, an observation and candidate actions in, an action out.

``taskverse eval`` and ``taskverse engine eval`` build their agents alike (``taskverse.textenv.agents.make_agent``:
``random``, ``greedy``, ``optimal``, ``cmd:PROGRAM``, ``openai:MODEL``, with the text world's options), so an
``--agent`` spec means the same agent in both worlds. A text-world agent sees its world through a few of the
environment's methods; :class:`EngineWorld` gives those over an engine episode:

- ``rules.actions`` / ``rules.descriptions``: every action seen in the episode (a candidate, an agent's own, a
  plan's step), each with an id (the action as compact JSON) and its words (``candidates.describe``: ``dig
  default:tree``), numbered in the order first seen;
- ``candidates()`` and ``shown_candidates()`` (with ``shuffle``, in an order drawn from the episode's seed, each
  action keeping its place for the whole episode), ``text()`` (the engine's text view, candidates numbered from 0
  in the order shown), ``json_observation()`` (the text world's protocol, ``docs/textenv.md``, with the
  structured ``observation`` and each candidate's ``action`` besides), ``inventory()``, ``found()``, ``steps``,
  ``max_steps``, ``target``, ``action_indices``, ``last_error``;
- ``plan_course(budget)``: the planner agents (``optimal``, ``greedy``) follow the planner's scripted plan for the
  game's own model (``taskverse.engine.agents.PlanCourse``) instead of the text world's, replanning after a failed
  step.

- ``view`` (``all``, ``relevant``, ``top:K``, as in the text world, ``taskverse.textenv.views``): which
  candidates are listed. In the engine the way to the target is the planner's scripted plan for the game's own
  model from the task's start: ``relevant`` lists the candidates about a block, item, mob or biome that plan
  names (and those about nothing: collect, wait); ``top:K`` the K first of the plan's own actions in its order,
  then the other relevant ones, then the rest. With no plan for the task every candidate is listed. A view changes
  what is listed, not what may be done: any action may still be sent as JSON.

An answer is read as in the text world (a candidate's number or name; ``openai:`` by the answer rule of
``taskverse.textenv.answers``); the engine's action space is open, so an action written out as JSON
(``{"do": "goto_biome", "biomes": ["savanna"]}``, or ``{"action": {...}}``) is taken too. An answer that names no
action wastes the step (invalid); an agent that gives none (``AgentError``) is the caller's to end the episode with.
With ``give_up`` (a run with impossible tasks, ``taskverse.engine.impossible``) the agents list the give-up after
the shown candidates, as in the text world; an answer taking it (its number, ``give up``, ``impossible``) ends the
episode with :class:`~taskverse.engine.agents.GaveUp`, the engine untouched.

Example:
    >>> from taskverse.textenv.agents import make_agent
    >>> with EngineEpisode("craft.stick") as episode:  # doctest: +SKIP
    ...     world = EngineWorld(episode, max_steps=50)
    ...     agent = make_agent("random")
    ...     world.begin(seed=0)
    ...     agent.reset(world, 0)  # before the server starts: a planner with no plan costs no engine
    ...     result = world.reset(seed=0)
    ...     result = world.turn(agent)

"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from taskverse.engine.candidates import MAIN_FIELDS, describe
from taskverse.engine.episode import EngineEpisode, StepResult
from taskverse.engine.runner import EpisodeReport
from taskverse.errors import TaskverseError, close_matches

WAIT = {"do": "wait", "seconds": 1}
"""The candidate when nothing else makes sense (an empty hand in an empty place): time passes."""


@dataclass(frozen=True)
class EngineTarget:
    """What the text world's agents read of a target: its id, its words, its category."""

    id: str
    description: str
    category: str


def action_id(action: dict[str, Any]) -> str:
    """An action's id: its JSON, compact with sorted keys (the same action, the same id).

    Example:
        >>> action_id({"node": "default:tree", "do": "dig"})
        '{"do":"dig","node":"default:tree"}'

    """
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def _normal(text: str) -> str:
    return " ".join(text.casefold().replace("_", " ").split())


class ActionTable:
    """The episode's actions as the text world's rules list theirs: ids and words, by number."""

    def __init__(self) -> None:
        self.actions: list[str] = []
        self.descriptions: list[str] = []
        self.bodies: list[dict[str, Any]] = []
        self._index: dict[str, int] = {}

    def add(self, action: dict[str, Any]) -> int:
        """The number of an action, given one the first time it is seen."""
        key = action_id(action)
        found = self._index.get(key)
        if found is None:
            found = self._index[key] = len(self.actions)
            self.actions.append(key)
            self.descriptions.append(describe(action))
            self.bodies.append(action)
        return found

    def lookup(self, text: str, among: list[int]) -> int | None:
        """The one of ``among`` whose id or words ``text`` is (any case; ``_`` and spaces alike), else None."""
        wanted = _normal(text)
        for a in among:
            if wanted in (_normal(self.descriptions[a]), _normal(self.actions[a])):
                return a
        return None


class EngineWorld:
    """An engine episode as the text world's agents see an environment (see the module docstring).

    Args:
        episode: The episode to play (the caller closes it).
        max_steps: The step limit agents are told of.
        shuffle: List the candidates in an order drawn from the episode's seed.
        view: Which candidates are listed: ``all``, ``relevant`` or ``top:K`` (see the module docstring).
        give_up: The give-up is offered (see the module docstring).

    """

    def __init__(self, episode: EngineEpisode, max_steps: int = 1000, shuffle: bool = False,
                 view: str = "all", give_up: bool = False) -> None:
        from taskverse.textenv.views import parse_view

        self.episode = episode
        self.max_steps = max_steps
        self.shuffle = shuffle
        self.view = view
        self.give_up = give_up
        self._view = parse_view(view)
        self._plan_ids: list[str] | None = None
        self._plan_names: set[str] | None = None
        self.rules = ActionTable()
        task = episode.task
        category = getattr(task, "category", None)
        self.target = EngineTarget(task.id, episode.description,
                                   str(getattr(category, "value", category) or getattr(task, "kind", "molecule")))
        self.result: StepResult | None = None
        self.action_indices: list[int] = []
        self.last_error: str | None = None
        self.seed = 0
        self._candidates: list[int] = []

    # -- the episode ----------------------------------------------------------------------------------------------

    def begin(self, seed: int | None = None) -> None:
        """A new episode's bookkeeping, before its server starts (an agent may be reset in between)."""
        self.seed = 0 if seed is None else seed
        self.rules = ActionTable()
        self.action_indices = []
        self.last_error = None
        self.result = None

    def reset(self, seed: int | None = None) -> StepResult:
        """Start the episode (a fresh world and server); the first result."""
        if self.result is not None or seed is not None and seed != self.seed:
            self.begin(seed)
        return self._update(self.episode.reset())

    def _update(self, result: StepResult) -> StepResult:
        self.result = result
        shown = result.candidates or [WAIT]
        self._candidates = [self.rules.add(action) for action in shown]
        return result

    def _now(self) -> StepResult:
        if self.result is None:
            raise TaskverseError("the episode is not running; call reset() first")
        return self.result

    def play(self, index: int) -> StepResult:
        """Play action number ``index`` of ``rules`` (a candidate or any action seen)."""
        if not 0 <= index < len(self.rules.bodies):
            return self.refuse(f"no action number {index}")
        self.action_indices.append(index)
        result = self.episode.step(self.rules.bodies[index])
        self.last_error = None if result.ok else result.error
        return self._update(result)

    def refuse(self, reason: str, answer: Any = None) -> StepResult:
        """Waste a step on an answer that names no action (``reason`` says why)."""
        self.last_error = reason
        return self._update(self.episode.refuse(reason, answer))

    def turn(self, agent: Any) -> StepResult:
        """Ask the agent for its action and play it; the step's result.

        An answer that names no action (``AnswerRefused``, or text that is no candidate and no action) wastes the
        step; ``AgentError`` and ``agents.AgentStopped`` pass to the caller, and so does ``agents.GaveUp`` when the
        agent takes the give-up offered.
        """
        from taskverse.engine.agents import GaveUp
        from taskverse.textenv.impossible import GIVE_UP, names_give_up
        from taskverse.textenv.options import AnswerRefused

        try:
            choice = agent.act(self)
        except AnswerRefused as exc:
            return self.refuse(exc.message)
        if self.give_up and (choice == GIVE_UP if isinstance(choice, int) else
                             names_give_up(choice, len(self.shown_candidates()))):
            raise GaveUp("the agent said the task cannot be done (give up)")
        if isinstance(choice, str):
            try:
                choice = self.resolve(choice, getattr(agent, "answer", None))
            except TaskverseError as exc:
                return self.refuse(exc.message, choice)
        return self.play(int(choice))

    def resolve(self, text: str, raw: str | None = None) -> int:
        """The action an answer names: a shown candidate's number, a candidate's id or words, or an action as JSON.

        ``raw`` is the agent's whole answer line, whose ``{"action": {...}}`` an external program's reader gives
        back as text. Raises a TaskverseError saying why when it names none.
        """
        text = text.strip()
        shown = self.shown_candidates()
        if text.isascii() and text.isdigit():
            if len(text) <= 9 and int(text) < len(shown):
                return shown[int(text)]
            raise TaskverseError(f"no candidate number {text[:12]} (there are {len(shown)}: 0..{len(shown) - 1})")
        action = _json_action(raw) if raw and raw.lstrip().startswith("{") else None
        if action is None and text.startswith("{"):
            action = _json_action(text)
        if isinstance(action, int) and not isinstance(action, bool):
            if self.give_up and action == len(shown):  # {"action": N}, N the give-up's number
                from taskverse.engine.agents import GaveUp

                raise GaveUp("the agent said the task cannot be done (give up)")
            return self.resolve(str(action))
        if isinstance(action, dict):
            return self.rules.add(action)
        head, _, name = text.partition(":")
        if name.strip() and head.strip().isdigit():  # "3: dig default:tree", as a list is echoed: the words decide
            return self.resolve(name)
        found = self.rules.lookup(text, self._candidates)
        if found is None:
            names = [self.rules.descriptions[a] for a in self._candidates]
            raise TaskverseError(f"no candidate named {text[:80]!r} (a candidate's number, its words, or an action "
                                 "as JSON)", suggestions=close_matches(text, names, n=3))
        return found

    # -- what the text world's agents read -----------------------------------------------------------------------

    @property
    def steps(self) -> int:
        """Steps taken so far, invalid ones included."""
        return self.episode.steps

    def candidates(self) -> list[int]:
        """The numbers of the actions that make sense now (``taskverse.engine.candidates``)."""
        return list(self._candidates)

    def shown_candidates(self) -> list[int]:
        """The candidates the view lists, in the order the observation numbers them (``shuffle``: from the seed)."""
        shown = self._viewed(self.candidates())
        if self.shuffle:
            shown.sort(key=lambda a: hashlib.sha256(f"{self.seed}\0{self.rules.actions[a]}".encode()).digest())
        return shown

    def _viewed(self, candidates: list[int]) -> list[int]:
        """The candidates the view keeps (``all``: every one), in its order."""
        kind, k = self._view
        if kind == "all":
            return candidates
        if self._plan_names is None:
            self._plan_ids, self._plan_names = _plan_view(self.episode)
        if not self._plan_ids and not self._plan_names:  # no plan: nothing to rank by
            return candidates[:k] if k else candidates
        bodies = self.rules.bodies

        def about(a: int) -> list[str]:
            value = next((bodies[a][f] for f in MAIN_FIELDS if f in bodies[a]), None)
            return [] if value is None else [str(v) for v in value] if isinstance(value, list) else [str(value)]

        relevant = [a for a in candidates if not about(a) or set(about(a)) & self._plan_names]
        if kind == "relevant":
            return relevant or candidates
        order = {key: i for i, key in reversed(list(enumerate(self._plan_ids or [])))}
        ranked = sorted(candidates, key=lambda a: (order.get(_step_key(bodies[a]), len(order)),
                                                   0 if a in relevant else 1))
        return ranked[:k]

    def inventory(self) -> dict[str, int]:
        """What the player holds, by game name."""
        return dict(self._now().observation.inventory)

    def found(self) -> list[tuple[str, str]]:
        """(kind, name) of what the player sees now: its biome, the nodes in sight, the mobs around."""
        obs = self._now().observation
        out = [("biome", obs.biome)] if obs.biome else []
        out += [("node", name) for name, seen in sorted(obs.nodes.items()) if seen.sight]
        out += [("mob", name) for name in sorted(obs.entities)]
        return out

    def text(self) -> str:
        """The text view (``gymenv.observation_text``), the candidates numbered from 0 in the order shown."""
        from taskverse.engine.gymenv import observation_text

        shown = [self.rules.bodies[a] for a in self.shown_candidates()]
        return observation_text(self._now(), self.target.description, self.steps, self.max_steps, shown)

    def json_observation(self) -> dict[str, Any]:
        """The observation as the text world's protocol gives it, with the engine's own fields besides.

        The text world's fields (``task``, ``task_id``, ``expression``, ``previous_action``, ``view``, ``step``,
        ``max_steps``, ``inventory``, ``found``, ``candidates`` as ``index``, ``id``, ``name``, ``progress``,
        ``error``, ``text``), each candidate's ``action`` (the JSON to send back), the structured ``observation``,
        ``last`` (the previous step's action and outcome) and ``frame`` (the first-person PNG's path, with
        screenshots).
        """
        result = self._now()
        rules = self.rules
        expression = self.episode.expression
        dump = getattr(expression, "model_dump", None)
        return {
            "task": self.target.description,
            "task_id": self.target.id,
            "expression": dump(mode="json", exclude_none=True) if dump is not None else str(expression),
            "previous_action": rules.actions[self.action_indices[-1]] if self.action_indices else None,
            "view": self.view,
            "step": self.steps,
            "max_steps": self.max_steps,
            "inventory": self.inventory(),
            "found": [{"kind": kind, "name": name} for kind, name in self.found()],
            "candidates": [{"index": i, "id": rules.actions[a], "name": rules.descriptions[a],
                            "action": rules.bodies[a]} for i, a in enumerate(self.shown_candidates())],
            "progress": result.observation.task.progress,
            "error": self.last_error,
            "text": self.text(),
            "observation": result.observation.model_dump(mode="json"),
            "last": None if result.step == 0 else {"action": result.action, "ok": result.ok,
                                                    "invalid": result.invalid, "error": result.error},
            "frame": result.frame,
        }

    def plan_course(self, budget: int) -> Any:
        """The planner agents' course here: the game's scripted plan, replanned after a failed step.

        Raises ``planner.NoPlan`` when the game's model has no plan for the task from its start.
        """
        from taskverse.engine.agents import PlanCourse

        return PlanCourse(self, budget)


def _step_key(action: dict[str, Any]) -> str:
    """What an action does to what (``dig minecraft:oak_log``), without counts and places.

    A plan's step and the candidate that plays it have the same key.
    """
    value = next((action[f] for f in MAIN_FIELDS if f in action), None)
    return f"{action.get('do')} {' '.join(map(str, value)) if isinstance(value, list) else value}"


def _plan_view(episode: EngineEpisode) -> tuple[list[str], set[str]]:
    """The keys of the planner's scripted plan's steps from the task's start, and every name its steps are about.

    The plan is the greedy one (no search for a shorter one): a view ranks by it, it does not have to be the best.
    Empty when the game's model has no plan for the task.
    """
    from taskverse.engine.agents import _plan
    from taskverse.engine.planner import NoPlan

    try:
        plan = _plan(episode, episode.ir, 0)
    except NoPlan:
        return [], set()
    ids: list[str] = []
    names: set[str] = set()
    for step in plan.steps:
        body = step.model_dump(mode="json", exclude_none=True)
        ids.append(_step_key(body))
        for key in (*MAIN_FIELDS, "tool", "fuel", "ingredient", "on", "ingredients"):
            value = body.get(key)
            names.update(map(str, value) if isinstance(value, list) else [str(value)] if value is not None else [])
    return ids, names


def _json_action(text: str) -> Any:
    """The action a JSON answer holds, else None.

    ``{"action": X}`` gives X (an object or a number); an object with ``do`` is the action itself.
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if isinstance(data, dict) and "action" in data:
        inner = data["action"]
        return inner if isinstance(inner, dict | int) else None
    if isinstance(data, dict) and "do" in data:
        return data
    return None


def play(episode: EngineEpisode, agent: Any, max_steps: int = 1000, seed: int = 0,
         shuffle: bool = False, view: str = "all", stop: bool = True) -> EpisodeReport:
    """Reset the episode and let a text-world agent act until the task is decided, it stops, or ``max_steps``.

    The server is stopped before this returns, whatever happens (an agent that raises included); the agent's
    ``AgentError`` propagates after that. With ``stop=False`` a server that played the episode to its end is left
    running, for the next ``play`` to start again in (``EngineEpisode.reset``); the caller closes the episode.
    """
    from taskverse.engine.agents import AgentStopped

    world = EngineWorld(episode, max_steps=max_steps, shuffle=shuffle, view=view)
    world.begin(seed)
    agent.reset(world, seed)  # before the server starts (a planner with no plan raises NoPlan here)
    finished = False
    try:
        result = world.reset(seed)
        while not result.done and episode.steps < max_steps:
            try:
                result = world.turn(agent)
            except AgentStopped:
                break
        finished = True
    finally:
        report = episode.current_report() if finished and not stop else episode.close()
    if report is None:  # pragma: no cover - reset() ran, so close() reports it
        raise TaskverseError("the episode ended without a report")
    return report


__all__ = ["ActionTable", "EngineTarget", "EngineWorld", "action_id", "play"]
