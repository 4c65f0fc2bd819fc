"""SkillForge-text as a gymnasium environment (MCU Appendix D), registered as ``taskverse/SkillForgeText-v0``.

The agent plans with atoms: at each step it picks one of the candidate actions (the atoms whose needs are met,
see ``taskverse.world.rules``) until the target task, an atom or any molecule, is done or has failed. Success and
failure are decided by ``semantics.Evaluator`` on the trace of events the actions emit, so the operators mean the
same here as everywhere else: success ends the episode with reward 1, failure (something to avoid was done, a
time bound passed) ends it with reward 0 and ``info["failed"]``. The text world's clock is its step count: each
step is ``SECONDS_PER_STEP`` second of game time, so ``within=600s`` allows 600 steps. The variants are presets
registered in a loop from ``PRESETS``.

Example:
    >>> import gymnasium
    >>> import taskverse.textenv.env
    >>> env = gymnasium.make("taskverse/SkillForgeText-v0", task="craft stick")
    >>> obs, info = env.reset(seed=0)
    >>> print(obs.splitlines()[0])
    Task: craft stick.
    >>> info["optimal_steps"]
    4

"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces

from taskverse.algebra.expr import GROUPS, AtomRef, Avoid, Constrained, Initialized, _Node, atoms_of
from taskverse.algebra.parse import COMPOSITION_MARKS
from taskverse.algebra.semantics import Evaluator, GameEvent, Verdict
from taskverse.algebra.tracker import Context
from taskverse.errors import TaskverseError, close_matches
from taskverse.schema import AtomTask, Initialization
from taskverse.text import id_shaped
from taskverse.textenv.arraystate import ArrayState
from taskverse.textenv.fast import INVALID, MASK, FastRules, ListState
from taskverse.textenv.planning import shortest_plan_length, text_rules
from taskverse.textenv.registry import ENV_NAMESPACE, PRESETS, Preset, env_ids, register_envs  # noqa: F401, E402
from taskverse.textenv.status import StatusWords
from taskverse.textenv.views import parse_view, relevant_closure, shown_candidates
from taskverse.world.jit import HAVE_NUMBA
from taskverse.world.rules import CHANCE_MODES, Event, State

DEFAULT_TASK = "craft.iron_sword"
"""The target when none is given: MCU Figure 5's example."""
DEFAULT_MAX_STEPS = 100
SECONDS_PER_STEP = 1.0
"""Game time one step of the text world takes, for time bounds (the text world has no finer clock)."""
TEXT_CHARSET = frozenset(string.printable)
_BOOL = np.dtype(np.bool_)
MAX_TEXT = 1 << 20
ObservationMode = Literal["text", "structured"]
InitMode = Literal["auto", "naive", "task"]


TASK_LISTS = ("naive-craft",)
STEP_ARRAYS = 1024
"""Step counts whose observation array is made once (longer limits make the others when they come)."""
_SEPARATORS = ["0: ", *(f"; {i}: " for i in range(1, 4096))]
"""What comes before each candidate in the text's numbered list (built once: the list is rebuilt often)."""


def _numbered(descriptions: list[str], actions: list[int]) -> str:
    """``0: name; 1: name; ...`` for the actions, as the text observation lists its candidates."""
    n = len(actions)
    if n < 2:
        return f"0: {descriptions[actions[0]]}" if n else ""
    parts: list[str] = [""] * (2 * n)
    parts[0::2] = _SEPARATORS[:n] if n <= len(_SEPARATORS) else ["0: ", *(f"; {i}: " for i in range(1, n))]
    parts[1::2] = itemgetter(*actions)(descriptions)
    return "".join(parts)


class ResetNeeded(TaskverseError, gymnasium.error.ResetNeeded):
    """A step or an observation asked for before ``reset()``: a TaskverseError, and gymnasium's own error for it."""


# -- targets -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """A resolved target: its expression over library atoms, what to call it, and where it starts."""

    expression: Any
    id: str
    description: str
    category: str
    initialization: Initialization
    custom_start: bool
    extra_goals: tuple[AtomTask, ...] = ()


def resolve_target(task: Any, library: Any) -> Target:
    """A target from an atom or molecule task, an id, a description, a composition, a YAML path or a phrase.

    A phrase is a task as papers write it ("hunt a pig in the savanna", docs/phrases.md). Raises a
    TaskverseError with close matches when the reference names nothing.
    """
    from pathlib import Path

    from taskverse.algebra.molecule import MoleculeTask, build_molecule

    if isinstance(task, Target):
        return task
    if isinstance(task, str):
        text = task.strip()
        if text.endswith((".yaml", ".yml")):
            path = Path(text)
            if not path.exists():
                raise TaskverseError("no such file", file=text)
            from taskverse.algebra.files import load_molecule_file
            from taskverse.library.loader import parse_task_file

            molecule = load_molecule_file(path, library)
            if molecule is not None:
                return resolve_target(molecule, library)
            found = parse_task_file(path)
            if len(found) != 1:
                raise TaskverseError(f"expected one task in the file, found {len(found)}", file=text)
            return resolve_target(found[0].task, library)
        if text in library.by_id:
            return resolve_target(library.by_id[text], library)
        if any(mark in text for mark in COMPOSITION_MARKS):
            from taskverse.algebra.parse import parse_expression

            return resolve_target(build_molecule(parse_expression(text), library), library)
        if library.lookup(text) is None and not any(c in text for c in "()=") and not id_shaped(text):
            return resolve_target(_phrase(text, library), library)
        return resolve_target(library.get(text), library)
    if isinstance(task, AtomTask):
        extra = () if task.id in library.by_id and library.by_id[task.id] == task else (task,)
        return Target(AtomRef(task=task.id), task.id, task.description, task.category.value, task.initialization,
                      custom_start=False, extra_goals=extra)
    if isinstance(task, MoleculeTask):
        return Target(task.expression, task.id, task.description, task.category.value, task.initialization,
                      custom_start=has_custom_start(task.expression))
    if isinstance(task, _Node):
        return resolve_target(build_molecule(task, library), library)
    raise TaskverseError(f"cannot use {type(task).__name__} as a task: give an id, a description, a composition, "
                         "an AtomTask or a MoleculeTask")


def _phrase(text: str, library: Any) -> Any:
    """A task phrase as algebra nodes; the library's own error (with close matches) when it does not read."""
    from taskverse.language.reader import PhraseReader
    from taskverse.language.reading import PhraseError, to_expr

    try:
        reading = PhraseReader(library).read(text)
    except PhraseError as exc:
        try:
            library.get(text)
        except TaskverseError as missing:
            raise TaskverseError(f"{missing.message}; as a phrase: {exc.message}",
                                 suggestions=exc.suggestions or missing.suggestions) from None
        raise
    return to_expr(reading.root)


def _wanted_tools(expr: Any) -> list[str]:
    """The tools a target's ``how=with:TOOL`` constraints ask to have in hand, in order."""
    if isinstance(expr, Constrained):
        how = expr.constraint.how
        return ([how[5:]] if how and how.startswith("with:") else []) + _wanted_tools(expr.part)
    if isinstance(expr, GROUPS):
        return [t for p in expr.parts for t in _wanted_tools(p)]
    if isinstance(expr, Avoid | AtomRef):
        return []
    return _wanted_tools(expr.part)


def has_custom_start(expr: Any) -> bool:
    """Whether a composition starts anywhere from a custom ``init(...)`` (then ``auto`` keeps the task's start)."""
    if isinstance(expr, Initialized):
        return expr.mode == "custom" or has_custom_start(expr.part)
    if isinstance(expr, GROUPS):
        return any(has_custom_start(p) for p in expr.parts)
    if isinstance(expr, AtomRef):
        return False
    return has_custom_start(expr.part)


def start_of(target: Target, mode: InitMode) -> Initialization:
    """Where an episode starts: naive (empty inventory) unless the target has a custom start or ``mode='task'``."""
    if mode == "task" or (mode == "auto" and target.custom_start):
        return target.initialization
    return Initialization()


def task_list(name: str | Sequence[str], library: Any) -> list[str]:
    """A named task list (``naive-craft``) or an explicit list of task references."""
    if not isinstance(name, str):
        return list(name)
    if name == "naive-craft":
        world = library.world
        return [t.id for t in library.tasks if t.verb == "craft" and world.task_rank(t.id) != float("inf")]
    raise TaskverseError(f"unknown task list {name!r}", suggestions=close_matches(name, TASK_LISTS))


# -- the environment -----------------------------------------------------------------------------------------------


class SkillForgeTextEnv(gymnasium.Env[Any, np.int64]):
    """The text-only planner environment.

    Args:
        task: The target: an id, a description, a composition (``"craft stick & hunt sheep"``), a YAML path, an
            ``AtomTask``, a ``MoleculeTask`` or an algebra expression. Default: ``craft.iron_sword``.
        tasks: A list of targets (or ``"naive-craft"``) to draw one from at each reset (``options={"task": ...}``
            picks one explicitly).
        observation: ``"text"`` (MCU Figure 5) or ``"structured"`` (inventory vector, candidate mask, target
            encoding, step, mission).
        max_steps: Step limit; the episode is truncated when it is reached.
        initialization: ``"auto"`` (naive, unless the target has a custom ``init(...)``), ``"naive"`` or
            ``"task"`` (the task's own initialization, e.g. an atom's prerequisites).
        chance: ``"sure"`` (chance yields deterministic, where what comes with 95% probability grows:
            ``taskverse.world.chance``) or ``"sample"`` (drawn with ``np_random``).
        render_mode: ``"ansi"`` (``render()`` returns the text) or ``"human"`` (prints it).
        library: A loaded library (default: ``load_library()``).
        plan_info: Put the shortest plan length into ``info`` (planned once per target and start, cached).
        view: Which candidates the text and JSON observations list (``taskverse.textenv.views``): ``"all"``,
            ``"relevant"`` (on some way to the target) or ``"top:K"`` (the K the planner ranks cheapest).
        shuffle: List the view's candidates in an order drawn from each episode's seed instead of the view's
            own (the action index order, or the planner's ranking for ``top:K``).

    The action space is ``Discrete(n)`` over every atom except ``obtain.*`` (goals, not actions); the candidates
    are ``info["action_mask"]`` and ``action_masks()``. Choosing a non-candidate wastes the step
    (``info["invalid_action"]``). The reward is 1 when the target is done (the episode terminates), else 0.
    Stepping an episode that has terminated or been truncated raises a TaskverseError: call ``reset()``.

    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}
    compiled = HAVE_NUMBA
    """Hold the state in arrays stepped by the compiled kernel (``ArrayState``; needs numba), else in lists stepped
    by ``FastRules`` (``ListState``). The two step alike (``tests/test_textenv_fast.py``)."""

    def __init__(self, task: Any = None, tasks: str | Sequence[Any] | None = None,
                 observation: ObservationMode = "text", max_steps: int = DEFAULT_MAX_STEPS,
                 initialization: InitMode = "auto", chance: str = "sure", render_mode: str | None = None,
                 library: Any = None, plan_info: bool = True, view: str = "all", shuffle: bool = False) -> None:
        if observation not in ("text", "structured"):
            raise TaskverseError(f"observation={observation!r}: expected 'text' or 'structured'")
        if chance not in CHANCE_MODES:
            raise TaskverseError(f"chance={chance!r}: expected one of {', '.join(CHANCE_MODES)}")
        if initialization not in ("auto", "naive", "task"):
            raise TaskverseError(f"initialization={initialization!r}: expected auto, naive or task")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise TaskverseError(f"render_mode={render_mode!r}: expected ansi or human")
        if max_steps < 1:
            raise TaskverseError(f"max_steps={max_steps}: expected at least 1")
        self.view_kind, self.view_k = parse_view(view)
        self._args = {"view": view, "task": task, "tasks": tasks, "observation": observation, "max_steps": max_steps,
                      "initialization": initialization, "chance": chance, "render_mode": render_mode,
                      "plan_info": plan_info, "library": library, "shuffle": bool(shuffle)}
        self._custom_library = library is not None
        self._build(library)
        self._started = False  # reset() has been called: the state held is an episode's
        self._steps = 0
        self._trace: list[GameEvent] = []
        self._light_trace: list[Event] = []
        self._actions: list[int] = []
        self._verdict: Verdict | None = None
        self._last_invalid = False
        self._last_error: str | None = None
        self._last_action: int | None = None
        self._ended = True  # no episode to step yet
        self._info_base: dict[str, Any] | None = None  # the inline step's info but its mask, steps and limit
        self._inline = False  # the step builds its observation and info itself (a structured, untimed target)
        self.view_planner: Any = None  # the top:K view's planner for this episode
        self._order: np.ndarray | None = None  # with shuffle: each action's place in this episode's order
        self._plan_info: tuple[int | None, bool] | None = None
        self._obs_mask = np.zeros(0, dtype=np.int8)
        self._done = False
        self._starts: dict[str, Any] = {}  # per start (as JSON): its state held's snapshot, restored at each reset
        self._empty_verdicts: dict[str, tuple[Target, Verdict]] = {}  # per target: its verdict before any event
        self._version = 0  # bumped whenever the state changes: the text observation's parts are cached by it
        self._mask_version = 0  # bumped whenever the candidates change: the candidate list is cached by it
        self._text_parts: tuple[int, tuple[str, str, str, list[int], str, str]] | None = None
        self._candidate_parts: tuple[int, str, list[int]] | None = None

    def _build(self, library: Any) -> None:
        args = self._args
        self.library = library if library is not None else shared_library()
        self.rules = text_rules(self.library)
        self._fast = FastRules.for_rules(self.rules)
        self._found_text = self._fast.found_text
        self._status = StatusWords.for_rules(self.rules, getattr(self.library, "knowledge", None))
        self._held_items = self._status.held
        self._held: ArrayState | ListState = ArrayState(self.rules) if self.compiled else ListState(self.rules)
        self._plain_step = self._held.plain_step()
        self._held_state: tuple[int, int, State] | None = None  # (episode, step, the state held as lists)
        self._episode = 0  # counts resets (and restores): with the step count, says when the state changed
        self.observation_mode: ObservationMode = args["observation"]
        self.max_steps = self._space_steps = int(args["max_steps"])
        # each step count's observation array, copied out at each step (a copy costs less than making one)
        self._step_arrays = [np.array((i,), dtype=np.int32) for i in range(min(self._space_steps, STEP_ARRAYS) + 1)]
        self.init_mode: InitMode = args["initialization"]
        self.chance = str(args["chance"])
        self._sample = self.chance == "sample"
        self.render_mode = args["render_mode"]
        self.plan_info = bool(args["plan_info"])
        self.shuffle = bool(args.get("shuffle", False))
        # a valid step's observation and info are built inline (see step) unless something else is asked for
        self._lean = self.observation_mode == "structured" and not self.plan_info and self.render_mode != "human"
        self.task_refs: list[Any] = task_list(args["tasks"], self.library) if args["tasks"] is not None else []
        self._targets: dict[int, Target] = {}
        self._derived: dict[str, tuple[Any, ...]] = {}
        self._closures: dict[str, bytearray] = {}
        first = args["task"] if args["task"] is not None else (self.task_refs[0] if self.task_refs else DEFAULT_TASK)
        self._set_target(resolve_target(first, self.library))
        n_actions = self._n_actions = len(self.rules.actions)
        self.action_space = spaces.Discrete(n_actions)
        if self.observation_mode == "text":
            self.observation_space = spaces.Text(max_length=MAX_TEXT, min_length=0, charset=TEXT_CHARSET)
        else:
            self.observation_space = spaces.Dict({
                "inventory": spaces.Box(0, np.iinfo(np.int32).max - 1, (self.rules.n_resources,), np.int32),
                "action_mask": spaces.MultiBinary(n_actions),
                "target": spaces.MultiBinary(len(self.rules.atom_ids)),
                "step": spaces.Box(0, self.max_steps, (1,), np.int32),
                "mission": spaces.Text(max_length=MAX_TEXT, min_length=0, charset=TEXT_CHARSET),
            })

    def _set_target(self, target: Target) -> None:
        self.target = target
        derived = self._derived.get(target.id)
        if derived is not None and derived[0] is target:
            (_, self.evaluator, self.expression, self.keys, self.relevant_actions, self.start, self.context,
             self._target_vector, self._task_line, self.wield, self._start_key, self._timed) = derived
            return
        extra = {t.id: t.goal for t in target.extra_goals}
        if extra:
            from collections import ChainMap

            base = Evaluator.for_library(self.library)
            self.evaluator = Evaluator(ChainMap(extra, base.goals), self.library.knowledge.tags)  # type: ignore[arg-type]
        else:
            self.evaluator = _library_evaluator(self.library)
        self.expression = target.expression
        self.keys = frozenset(self.evaluator.relevant_keys(self.expression))
        self._timed = self.evaluator.is_timed(self.expression)
        self.wield = self.rules.wield_tools(_wanted_tools(self.expression))
        self.relevant_actions = bytearray(len(self.rules.actions))
        for key in self.keys:
            for a in self.rules.actions_by_key.get(key, ()):
                self.relevant_actions[a] = 1
        self.start = start_of(target, self.init_mode)
        self._start_key = self.start.model_dump_json()  # targets with the same start share its compiled state
        self.context = Context(time=self.start.time.value if self.start.time else "day",
                               weather=self.start.weather.value if self.start.weather else "clear",
                               dimension=self.start.dimension.value)
        target_vector = np.zeros(len(self.rules.atom_ids), dtype=np.int8)
        for atom in atoms_of(self.expression):
            if atom in self.rules.atom_index:
                target_vector[self.rules.atom_index[atom]] = 1
        self._target_vector = target_vector
        self._task_line = f"Task: {target.description}."
        if len(self._derived) > 4096:
            self._derived.clear()
        self._derived[target.id] = (target, self.evaluator, self.expression, self.keys, self.relevant_actions,
                                    self.start, self.context, self._target_vector, self._task_line, self.wield,
                                    self._start_key, self._timed)

    # -- gymnasium API -------------------------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start an episode.

        ``options``: ``task`` to change the target (a task list draws one otherwise); ``max_steps``, this
        episode's step limit (suites record one per task).
        """
        super().reset(seed=seed)
        options = options or {}
        if "task" in options:
            self._set_target(resolve_target(options["task"], self.library))
        elif self.task_refs:
            index = int(self.np_random.integers(len(self.task_refs)))
            target = self._targets.get(index)
            if target is None:
                target = self._targets[index] = resolve_target(self.task_refs[index], self.library)
            self._set_target(target)
        limit = options.get("max_steps", self._args["max_steps"])
        if not isinstance(limit, int) or limit < 1:
            raise TaskverseError(f"options max_steps={limit!r}: expected a whole number of at least 1")
        self.max_steps = limit
        self._inline = self._lean and not self._timed  # a timed target reads its clock every step: the full path
        held = self._held
        start = self._starts.get(self._start_key)
        if start is None:
            if len(self._starts) > 256:
                self._starts.clear()
            held.load(self.rules.state_from_initialization(self.start, track=True))
            start = self._starts[self._start_key] = held.snapshot()
        held.restore(start)  # type: ignore[arg-type]
        self._started = True
        self._episode += 1
        self._version += 1
        self._mask_version += 1
        self._plan_info = None
        self._steps = 0
        self._trace = []
        self._light_trace = []
        self._actions = []
        verdict = self._empty_verdicts.get(self.target.id)
        if verdict is None or verdict[0] is not self.target:
            if len(self._empty_verdicts) > 4096:
                self._empty_verdicts.clear()
            verdict = self._empty_verdicts[self.target.id] = (self.target, self.evaluator.evaluate(self.expression, []))
        self._verdict = verdict[1]
        self._info_base = None
        self._done = verdict[1].decided
        self._last_invalid = False
        self._last_error = None
        self._last_action = None
        self._ended = False
        self.view_planner = None
        if self.shuffle:  # its own generator: shuffling leaves the chance draws of the episode as they were
            key = seed if seed is not None else int(self.np_random.integers(2**32))
            self._order = np.random.default_rng([key, 0x5348]).permutation(self._n_actions)
        if self.render_mode == "human":
            print(self.text())
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Do candidate action ``action`` (a non-candidate wastes the step)."""
        if self._ended:  # true before the first reset too
            self._check_started()
            raise ResetNeeded("the episode has ended (terminated or truncated): call reset() before step()")
        a = int(action)
        if not 0 <= a < self._n_actions:
            raise TaskverseError(f"action {a} is out of range (0..{self._n_actions - 1})")
        steps = self._steps = self._steps + 1
        if self.relevant_actions[a]:
            events, changed = self._held.act(a, self.np_random if self._sample else None, True, self.wield)
            if events:
                self._record(events)
        elif self._sample:  # no event of this action can matter to the target: none is made
            changed = self._held.step(a, self.np_random)
        else:
            changed = self._plain_step(a)
        if changed == INVALID:
            self._last_action = None
            self._last_invalid = True
            self._last_error = f"{self.rules.descriptions[a]!r} is not a candidate now: " \
                f"{self.rules.explain(self._require_state(), a)}"
            return self._finish_step()
        if self._last_invalid:  # only an invalid step leaves an error behind
            self._last_invalid = False
            self._last_error = None
        self._last_action = a
        self._actions.append(a)
        if changed:
            self._version += 1
            if changed == MASK:
                self._mask_version += 1
        if self._done or not self._inline:  # a step that ends the episode, or an observation of another kind
            return self._finish_step()
        # A structured step that does not end the episode (reward 0, neither success nor failure), its observation
        # and info built here: this is the per-step cost learners pay. _finish_step returns the same.
        truncated = steps >= self.max_steps
        if truncated:
            self._ended = True
        held = self._held
        mask = held.mask.copy()  # (_obs_mask is for _info, which only runs after _observation has set it)
        try:
            step = self._step_arrays[steps].copy()
        except IndexError:  # past the arrays made once
            step = self._step_array(steps)
        info = self._info_base
        if info is None:  # the target or its verdict changed: what stays until it changes again
            info = self._info_base = {"action_mask": None, "steps": 0, "max_steps": 0, "task": self.target.id,
                                      "progress": self._verdict.progress,  # type: ignore[union-attr]
                                      "success": False, "failed": False, "invalid_action": False}
        info = info.copy()  # (cheaper than building the dict again: its keys come along)
        info["action_mask"] = mask.view(_BOOL)  # the observation's copy, seen as booleans
        info["steps"] = steps
        info["max_steps"] = self.max_steps
        return {
            "inventory": held.counts.copy(),
            "action_mask": mask,
            "target": self._target_vector.copy(),
            "step": step,
            "mission": self.target.description,
        }, 0.0, False, truncated, info

    def _record(self, events: list[Event]) -> None:
        """Keep the events the target counts, and judge the trace again if any came."""
        keys = self.keys
        kept = False
        for event in events:
            if (event[0], event[1]) in keys:
                self._light_trace.append(event)
                self._trace.append(self.context.game_event(event, self._steps * SECONDS_PER_STEP))
                kept = True
        if kept:
            self._verdict = self._evaluate()
            self._done = self._verdict.decided
            self._info_base = None

    def _step_array(self, steps: int) -> np.ndarray:
        """The observation's step count (at most the space's bound: a suite's limit can exceed the preset's)."""
        bounded = steps if steps <= self._space_steps else self._space_steps
        arrays = self._step_arrays
        return arrays[bounded].copy() if bounded < len(arrays) else np.array((bounded,), dtype=np.int32)

    def invalid_step(self, message: str) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Waste a step with an error message (for wrappers whose input named no action)."""
        self._check_started()
        if self._ended:
            raise ResetNeeded("the episode has ended (terminated or truncated): call reset() before step()")
        self._steps += 1
        self._last_action = None
        self._last_invalid = True
        self._last_error = message
        return self._finish_step()

    def _evaluate(self) -> Verdict:
        """The verdict on the trace now (the clock is the step count: ``SECONDS_PER_STEP`` per step)."""
        return self.evaluator.evaluate(self.expression, self._trace, now=self._steps * SECONDS_PER_STEP)

    def _finish_step(self) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._timed and self._verdict is not None and not self._verdict.decided:
            self._verdict = self._evaluate()  # a deadline can pass with no event
            self._done = self._verdict.decided
            self._info_base = None
        verdict = self._verdict
        terminated = self._done
        truncated = not terminated and self._steps >= self.max_steps
        self._ended = terminated or truncated
        if self.render_mode == "human":
            print(self.text())
        reward = 1.0 if verdict is not None and verdict.satisfied else 0.0
        return self._observation(), reward, terminated, truncated, self._info()

    def render(self) -> str | None:  # type: ignore[override]
        """The text observation (``ansi``), or print it (``human``)."""
        if not self._started:
            return None
        if self.render_mode == "human":
            print(self.text())
            return None
        return self.text()

    def action_masks(self) -> np.ndarray:
        """The candidate mask as booleans (for masked policies such as sb3-contrib's MaskablePPO)."""
        self._check_started()
        return self._held.mask.astype(bool)

    # -- observations --------------------------------------------------------------------------------------------

    def _check_started(self) -> None:
        if not self._started:
            raise ResetNeeded("call reset() before step()")

    def _require_state(self) -> State:
        """The state held, as lists (made once per step it is asked for)."""
        self._check_started()
        cached = self._held_state
        if cached is not None and cached[0] == self._episode and cached[1] == self._steps:
            return cached[2]
        state = self._held.state()
        self._held_state = (self._episode, self._steps, state)
        return state

    def candidates(self) -> list[int]:
        """The candidate actions now, in the order the text numbers them."""
        return list(self._parts()[3])

    def shown_candidates(self) -> list[int]:
        """The candidates the observation lists under the env's view, in the order it numbers them.

        With ``shuffle`` they come in an order drawn from the episode's seed (each action keeps its place in it
        for the whole episode), so an agent that always answers the first candidate gains nothing from the view's
        ranking.
        """
        shown = self.candidates() if self.view_kind == "all" else shown_candidates(self, self.view_kind, self.view_k)
        order = self._order
        if self.shuffle and order is not None:
            shown.sort(key=order.__getitem__)
        return shown

    def relevant_closure(self) -> bytearray:
        """A mask of the actions on some way to the target (computed once per target)."""
        cached = self._closures.get(self.target.id)
        if cached is None:
            if len(self._closures) > 256:
                self._closures.clear()
            cached = self._closures[self.target.id] = relevant_closure(self)
        return cached

    def _observation(self) -> Any:
        if self.observation_mode == "text":
            return self.text()
        held = self._held
        # fresh arrays every step: an observation handed out is never changed afterwards
        mask = self._obs_mask = held.mask.copy()
        step = self._steps
        return {
            "inventory": held.counts.copy(),
            "action_mask": mask,
            "target": self._target_vector.copy(),
            "step": self._step_array(step),
            "mission": self.target.description,
        }

    def inventory(self) -> dict[str, int]:
        """Held items by name."""
        self._check_started()
        array = self._held.counts
        names = self.rules.names
        held = np.flatnonzero(array[:self.rules.n_items]).tolist()
        return {names[r]: int(array[r]) for r in held}

    def found(self) -> list[tuple[str, str]]:
        """What was found, as (kind, name)."""
        self._check_started()
        array = self._held.counts
        n_items = self.rules.n_items
        resources = self.rules.resources
        return [resources[n_items + r] for r in np.flatnonzero(array[n_items:]).tolist()]

    def text(self) -> str:
        """The observation as MCU Figure 5 shows it: task, step, inventory, numbered candidate actions."""
        inventory, found, line, _, held_status, found_status = self._parts()
        lines = [self._task_line, f"Step: {self._steps}/{self.max_steps}", inventory]
        if held_status:
            lines.append(held_status)
        if found:
            lines.append(found)
        if found_status:
            lines.append(found_status)
        if self._last_error:
            lines.append(f"Invalid action: {self._last_error}")
        lines.append("Candidate Actions:")
        lines.append(line if self.view_kind == "all" and not self.shuffle else self._view_line())
        return "\n".join(lines)

    def _parts(self) -> tuple[str, str, str, list[int], str, str]:
        """The text's lines and candidate list, kept until the state changes.

        Inventory, found and candidate lines, the candidate list, and the internal counts' lines after the inventory
        and after what was found (``status.StatusWords``).
        """
        parts = self._text_parts
        if parts is not None and parts[0] == self._version:
            return parts[1]
        self._check_started()
        array = self._held.counts
        n_items = self.rules.n_items
        names = self.rules.names
        listed = np.flatnonzero(array[:n_items] * self._held_items).tolist()  # internal counts: in words below
        counts = array[listed].tolist()
        held_status, found_status = self._status.of(array)
        held = ", ".join([f"'{names[r]}': {count}" for r, count in zip(listed, counts, strict=True)])
        found_text = self._found_text
        found_ones = (np.flatnonzero(array[n_items:]) + n_items).tolist()
        found = ", ".join([found_text[r] for r in found_ones if found_text[r]])
        cached = self._candidate_parts
        if cached is not None and cached[0] == self._mask_version:
            line, candidates = cached[1], cached[2]
        else:
            candidates = np.flatnonzero(self._held.mask).tolist()
            line = _numbered(self.rules.descriptions, candidates) if self.view_kind == "all" else ""
            self._candidate_parts = (self._mask_version, line, candidates)
        computed = (f"Inventory: {{{held}}}", f"Found: {found}" if found else "", line, candidates, held_status,
                    found_status)
        self._text_parts = (self._version, computed)
        return computed

    def _view_line(self) -> str:
        return _numbered(self.rules.descriptions, self.shown_candidates())

    def _info(self) -> dict[str, Any]:
        if self.observation_mode == "structured":
            mask = self._obs_mask.view(bool)  # the observation's copy, seen as booleans
        else:
            self._check_started()
            mask = self._held.mask.view(np.bool_).copy()
        verdict = self._verdict
        info: dict[str, Any] = {
            "action_mask": mask,
            "steps": self._steps,
            "max_steps": self.max_steps,
            "task": self.target.id,
            "progress": 0.0 if verdict is None else verdict.progress,
            "success": bool(verdict is not None and verdict.satisfied),
            "failed": bool(verdict is not None and verdict.failed),
            "invalid_action": self._last_invalid,
        }
        if self._last_error:
            info["error"] = self._last_error
        if self.observation_mode == "text":
            info["candidates"] = self.candidates() if self.view_kind == "all" and not self.shuffle else \
                self.shown_candidates()
        if self.plan_info:
            if self._plan_info is None:
                self._plan_info = shortest_plan_length(self)
            info["optimal_steps"], info["optimal_proven"] = self._plan_info
        return info

    # -- what agents and tools read ------------------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The current text-world state (read it, do not change it)."""
        return self._require_state()

    @property
    def steps(self) -> int:
        """Steps taken in this episode."""
        return self._steps

    @property
    def trace(self) -> list[GameEvent]:
        """The events so far that can matter to the target (what success is decided on)."""
        return list(self._trace)

    @property
    def light_trace(self) -> list[Event]:
        """The same events in the light tuple form (for planners' goal automata)."""
        return list(self._light_trace)

    @property
    def action_indices(self) -> list[int]:
        """The actions done so far (indices into the action space), in order."""
        return list(self._actions)

    @property
    def last_error(self) -> str | None:
        """Why the last step's action was refused (None if it was not)."""
        return self._last_error

    @property
    def trajectory(self) -> list[str]:
        """The atoms done so far, in order."""
        return [self.rules.actions[a] for a in self._actions]

    def json_observation(self) -> dict[str, Any]:
        """The observation as one JSON object (the external agent protocol, ``docs/textenv.md``)."""
        self._check_started()
        rules = self.rules
        verdict = self._verdict
        return {
            "task": self.target.description,
            "task_id": self.target.id,
            "expression": self.target.expression.model_dump(mode="json", exclude_none=True),
            "previous_action": None if self._last_action is None else rules.actions[self._last_action],
            "view": self._args["view"],
            "step": self._steps,
            "max_steps": self.max_steps,
            "inventory": self.inventory(),
            "found": [{"kind": kind, "name": name} for kind, name in self.found()],
            "candidates": [{"index": i, "id": rules.actions[a], "name": rules.descriptions[a]}
                           for i, a in enumerate(self.shown_candidates())],
            "progress": 0.0 if verdict is None else verdict.progress,
            "error": self._last_error,
            "text": self.text(),
        }

    # -- pickling ------------------------------------------------------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        args = dict(self._args)
        if not self._custom_library:
            args["library"] = None  # reloaded from its cache rather than carried along
        state = self._held.state() if self._started else None
        return {
            "args": args,
            "target": self.target if self.target.extra_goals or not isinstance(args["task"], str) else None,
            "target_ref": self.target.id,
            "episode": None if state is None else {
                "counts": list(state.counts), "tries": list(state.tries), "place": state.place, "steps": self._steps,
                "trace": list(self._trace), "light": list(self._light_trace), "actions": list(self._actions),
                "invalid": self._last_invalid, "error": self._last_error, "last_action": self._last_action,
                "ended": self._ended, "order": self._order,
            },
            "np_random": self._np_random,
            "np_random_seed": self._np_random_seed,
            "plan_targets": self._targets,
            "expression": self.expression,
        }

    def __setstate__(self, data: dict[str, Any]) -> None:
        self._args = data["args"]
        self.view_kind, self.view_k = parse_view(self._args.get("view", "all"))
        self._custom_library = data["args"]["library"] is not None
        self._build(data["args"]["library"])
        self._targets = data["plan_targets"]
        target = data["target"]
        if target is None:
            target = self._find_target(data["target_ref"], data["expression"])
        self._set_target(target)
        self._inline = self._lean and not self._timed
        self._np_random = data["np_random"]
        self._np_random_seed = data["np_random_seed"]
        episode = data["episode"]
        self._started = False
        self._verdict = None
        self._info_base = None
        self._plan_info = None
        self._obs_mask = np.zeros(0, dtype=np.int8)
        self._done = False
        self._starts = {}
        self._empty_verdicts = {}
        self._version = 0
        self._mask_version = 0
        self._text_parts = None
        self._candidate_parts = None
        self._trace, self._light_trace, self._actions = [], [], []
        self._steps = 0
        self._last_invalid = False
        self._last_error = None
        self._last_action = None
        self._ended = True
        self.view_planner = None
        self._order = None
        if episode is not None:
            self._order = episode.get("order")
            restored = self._restore_state(episode["counts"], episode["tries"])
            restored.place = episode["place"]
            self._held.load(restored)
            self._started = True
            self._episode += 1
            self._steps = episode["steps"]
            self._trace = episode["trace"]
            self._light_trace = episode["light"]
            self._actions = episode["actions"]
            self._last_invalid = episode["invalid"]
            self._last_error = episode["error"]
            self._last_action = episode["last_action"]
            self._ended = episode["ended"]
            self._verdict = self._evaluate()
            self._done = self._verdict.decided
            if self.observation_mode == "structured":
                self._obs_mask = self._held.mask.copy()

    def _find_target(self, ref: str, expression: Any) -> Target:
        for target in [self.target, *self._targets.values()]:
            if target.id == ref:
                return target
        return resolve_target(expression, self.library) if not isinstance(expression, AtomRef) else \
            resolve_target(expression.task, self.library)

    def _restore_state(self, counts: list[int], tries: list[int]) -> State:
        rules = self.rules
        inventory = {rules.names[r]: c for r, c in enumerate(counts[:rules.n_items]) if c}
        found = [rules.resources[r] for r in range(rules.n_items, rules.n_resources) if counts[r]]
        state = rules.new_state(inventory, found, track=True)
        state.tries[:] = tries
        return state


_EVALUATORS: dict[int, Evaluator] = {}
_SHARED: list[Any] = []


def shared_library() -> Any:
    """The bundled library, loaded once per process (environments share it and its compiled rules)."""
    if not _SHARED:
        from taskverse.library.loader import load_library

        _SHARED.append(load_library())
    return _SHARED[0]


def _library_evaluator(library: Any) -> Evaluator:
    evaluator = _EVALUATORS.get(id(library))
    if evaluator is None:
        evaluator = _EVALUATORS[id(library)] = Evaluator.for_library(library)
    return evaluator


# -- wrappers ------------------------------------------------------------------------------------------------------


class TextActions(gymnasium.Wrapper[Any, str, Any, Any]):
    """Take actions as text: a candidate's number (as the text observation numbers them), an id or a name.

    Text that names no candidate wastes the step and says why in ``info["error"]`` (and in the next text
    observation), with the closest candidate names.

    Example:
        >>> env = TextActions(SkillForgeTextEnv(task="craft stick"))
        >>> _ = env.reset(seed=0)
        >>> _, _, _, _, info = env.step("fnd oak log")
        >>> info["error"].split(" (")[0], "find oak_log" in info["error"]
        ("no action named 'fnd oak log'", True)

    """

    def __init__(self, env: gymnasium.Env[Any, Any]) -> None:
        super().__init__(env)
        self.action_space = spaces.Text(max_length=512, min_length=0, charset=TEXT_CHARSET)  # type: ignore[assignment]

    def resolve(self, text: str) -> int:
        """The action a piece of text names (raises a TaskverseError with the closest names otherwise)."""
        base: SkillForgeTextEnv = self.env.unwrapped  # type: ignore[assignment]
        return resolve_action_text(base, text)

    def step(self, action: str) -> tuple[Any, float, bool, bool, dict[str, Any]]:  # type: ignore[override]
        """Do the action the text names, or waste the step with an error message."""
        base: SkillForgeTextEnv = self.env.unwrapped  # type: ignore[assignment]
        try:
            a = self.resolve(str(action))
        except TaskverseError as exc:
            return base.invalid_step(str(exc))
        obs, reward, terminated, truncated, info = self.env.step(a)  # type: ignore[arg-type]
        return obs, float(reward), terminated, truncated, info


def resolve_action_text(env: SkillForgeTextEnv, text: str) -> int:
    """The action ``text`` names: a candidate number, or an action id or name (which must be a candidate).

    Raises a TaskverseError saying why not, with the closest candidate names.
    """
    text = text.strip()
    candidates = env.candidates()
    rules = env.rules
    if text.isascii() and text.isdigit():  # not "²" (a digit int() refuses)
        shown = env.shown_candidates()
        if len(text) > 9:  # int() refuses more than 4300 digits, and no list is this long
            raise TaskverseError(f"no candidate number {text[:12]}... ({len(text)} digits; there are "
                                 f"{len(shown)}: 0..{len(shown) - 1})")
        number = int(text)
        if number < len(shown):
            return shown[number]
        raise TaskverseError(f"no candidate number {number} (there are {len(shown)}: 0..{len(shown) - 1})")
    head, _, name = text.partition(":")
    if name.strip() and head.strip().isdigit():  # "3: craft planks", as Figure 5 echoes it: the name decides
        return resolve_action_text(env, name)
    try:
        a = rules.lookup(text)
    except TaskverseError:
        from taskverse.text import normalize

        names = [rules.descriptions[c] for c in candidates]
        suggestions = close_matches(normalize(text), names, n=3) or close_matches(text, names, n=3)
        raise TaskverseError(f"no action named {text!r}", suggestions=suggestions) from None
    if a not in candidates:
        raise TaskverseError(f"{rules.descriptions[a]!r} is not a candidate now: "
                             f"{rules.explain(env.state, a)}")
    return a


register_envs()
