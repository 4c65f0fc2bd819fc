"""SkillForge-text as a gymnasium vector environment: N episodes stepped in one call, arrays in and out.

``gymnasium.make_vec("taskverse/SkillForgeTextChain-v0", num_envs=N)`` (or ``SkillForgeTextStructured-v0``)
makes one. It is N copies of ``SkillForgeTextEnv`` with the structured observation, held as rows of arrays and
stepped by one loop (``taskverse.textenv.kernel``; compiled when numba is installed, ``backend="numba"``, the
same loop uncompiled otherwise):

* Observations are the single environment's, batched: ``inventory`` (N, resources), ``action_mask`` (N,
  actions), ``target`` (N, atoms), ``step`` (N, 1), and ``mission``, a tuple of N strings. ``copy=True`` (the
  default, as gymnasium's ``SyncVectorEnv``) hands out fresh arrays; ``copy=False`` hands out read-only views of
  the environment's own arrays, which the next ``step`` changes (the fast way: read them, don't keep them).
* Episodes reset themselves in gymnasium's next-step mode (``metadata["autoreset_mode"]``): the step after one
  ends resets that copy, ignores its action and returns its first observation with reward 0.
* ``reset(seed=s)`` seeds copy ``i`` with ``s + i``, as gymnasium's vector environments do, and each copy draws its
  target and its chance yields from its own generator in the single environment's order: N single environments
  with the same seeds and actions give exactly the same trajectories (``tests/test_textenv_vector.py``).
* ``info["invalid_action"]`` marks the copies whose action was not a candidate (the step is wasted, as in the
  single environment).
* Success is the evaluator's verdict on the events that can matter to the target, as in the single environment;
  only steps that can emit such events leave the loop to build them.

Example:
    >>> import gymnasium, taskverse.textenv.env
    >>> envs = gymnasium.make_vec("taskverse/SkillForgeTextChain-v0", num_envs=4)
    >>> obs, _ = envs.reset(seed=0)
    >>> obs["action_mask"].shape[0], obs["inventory"].dtype.name
    (4, 'int32')

"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from taskverse.algebra.semantics import Evaluator, GameEvent, Verdict
from taskverse.algebra.tracker import Context
from taskverse.errors import TaskverseError
from taskverse.textenv.env import DEFAULT_MAX_STEPS, InitMode, SkillForgeTextEnv, Target, resolve_target
from taskverse.textenv.kernel import BACKENDS, Tables, kernel, recorded_events


@dataclass(frozen=True)
class _TargetData:
    """What a copy needs of its target: success, relevance, its start and its part of the observation."""

    target: Target
    evaluator: Evaluator
    keys: frozenset[tuple[str, str]]
    relevant: np.ndarray
    context: Context
    vector: np.ndarray
    wield: tuple[int, ...]
    start: tuple[np.ndarray, ...]
    empty: Verdict


class SkillForgeTextVectorEnv(VectorEnv[Any, Any, Any]):
    """N SkillForge-text episodes with the structured observation, stepped together.

    Args:
        num_envs: How many copies.
        task, tasks, max_steps, initialization, chance, library: As ``SkillForgeTextEnv``.
        observation: Only ``"structured"`` (the text observation is one string per copy: use single envs).
        backend: ``"auto"`` (numba when installed), ``"numba"`` or ``"numpy"`` (the same loop, uncompiled).
        copy: Hand out fresh observation arrays (True) or read-only views of the environment's own (False).

    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 1, task: Any = None, tasks: str | Sequence[Any] | None = None,
                 max_steps: int = DEFAULT_MAX_STEPS, initialization: InitMode = "auto", chance: str = "sure",
                 library: Any = None, observation: str = "structured", backend: str = "auto", copy: bool = True,
                 plan_info: bool = False, render_mode: str | None = None) -> None:
        if observation != "structured":
            raise TaskverseError(f"observation={observation!r}: the vector environment has the structured "
                                 "observation only (step single environments for text)")
        if not isinstance(num_envs, int) or num_envs < 1:
            raise TaskverseError(f"num_envs={num_envs!r}: expected a whole number of at least 1")
        if backend == "auto":
            backend = BACKENDS[0]
        if backend not in ("numba", "numpy"):
            raise TaskverseError(f"backend={backend!r}: expected auto, numba or numpy")
        if plan_info or render_mode is not None:
            raise TaskverseError("the vector environment has no plan_info and no rendering")
        self._single = SkillForgeTextEnv(task=task, tasks=tasks, observation="structured", max_steps=max_steps,
                                         initialization=initialization, chance=chance, library=library,
                                         plan_info=False)
        self.backend = backend
        self._kernel = kernel(backend)
        self.num_envs = num_envs
        self.copy = copy
        self.rules = rules = self._single.rules
        self.tables = Tables.for_rules(rules)
        self._table_arrays = self.tables.arrays()
        self.single_observation_space = self._single.observation_space
        self.single_action_space = self._single.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.max_steps = int(max_steps)
        self._sample = chance == "sample"
        self._fixed = None if self._single.task_refs else self._single.target
        n, t = num_envs, self.tables
        self._counts = np.zeros((n, rules.n_resources), dtype=np.int32)
        self._virtual = np.zeros((n, rules.n_virtual), dtype=np.int32)
        self._way_missing = np.zeros((n, len(rules.way_action)), dtype=np.int16)
        self._ok_ways = np.zeros((n, len(rules.actions)), dtype=np.int16)
        self._mask = np.zeros((n, len(rules.actions)), dtype=np.int8)
        self._tries = np.zeros((n, max(rules.n_slots, 1)), dtype=np.int64)
        self._place = np.full((n, 2), -1, dtype=np.int32)
        self._targets = np.zeros((n, len(rules.atom_ids)), dtype=np.int8)
        self._relevant = np.zeros((n, len(rules.actions)), dtype=np.bool_)
        self._steps = np.zeros(n, dtype=np.int64)
        self._step_obs = np.zeros((n, 1), dtype=np.int32)
        self._done = np.zeros(n, dtype=np.bool_)
        self._autoreset = np.zeros(n, dtype=np.bool_)
        self._valid = np.ones(n, dtype=np.uint8)
        self._used_way = np.zeros(n, dtype=np.int64)
        self._used = np.zeros((n, t.max_needs), dtype=np.int64)
        self._given = np.zeros((n, t.max_outputs), dtype=np.int64)
        self._sampled = np.zeros(n, dtype=np.bool_)
        self._amounts = np.zeros((n, t.max_uncertain), dtype=np.int64)
        self._uncertain = np.array([any(o.slot >= 0 for o in outs) for outs in rules.outputs], dtype=np.bool_)
        self._rngs: list[np.random.Generator | None] = [None] * n
        self._data: list[_TargetData | None] = [None] * n
        self._traces: list[list[GameEvent]] = [[] for _ in range(n)]
        self._missions: list[str] = [""] * n
        self._mission_tuple: tuple[str, ...] | None = None
        self._by_target: dict[str, _TargetData] = {}
        self._starts: dict[str, tuple[np.ndarray, ...]] = {}
        self._rows = np.arange(n)
        self._was_reset = False

    # -- gymnasium API -------------------------------------------------------------------------------------------

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Reset every copy; ``seed`` (an int: copy ``i`` gets ``seed + i``, or one per copy) makes it repeatable.

        ``options``: ``task``, one target for every copy (a task list draws one per copy otherwise).
        """
        if isinstance(seed, int):
            seeds: list[int | None] = [seed + i for i in range(self.num_envs)]
        elif seed is None:
            seeds = [None] * self.num_envs
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise TaskverseError(f"reset: {len(seeds)} seeds for {self.num_envs} environments")
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seeds[0])
        task = (options or {}).get("task")
        target = resolve_target(task, self._single.library) if task is not None else None
        for n, s in enumerate(seeds):
            if s is not None or self._rngs[n] is None:
                self._rngs[n] = seeding.np_random(s)[0]
            self._reset_one(n, target)
        self._autoreset[:] = False
        self._was_reset = True
        return self._observation(), {}

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every copy by its action (copies whose episode ended last step are reset instead)."""
        if not self._was_reset:
            raise TaskverseError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise TaskverseError(f"actions: expected {self.num_envs} whole numbers, got shape {actions.shape} "
                                 f"of {actions.dtype}")
        actions = actions.astype(np.int64, copy=False)
        n_actions = self._mask.shape[1]
        if actions.min() < 0 or actions.max() >= n_actions:
            raise TaskverseError(f"actions out of range (0..{n_actions - 1})")
        restart = self._autoreset
        active = ~restart
        rows = self._rows
        allowed = (self._mask[rows, actions] != 0) & active
        relevant = np.flatnonzero(allowed & self._relevant[rows, actions])
        wielded = [self._wielded(int(n), int(actions[n])) for n in relevant]
        self._sampled[:] = False
        if self._sample:
            for drawing in np.flatnonzero(allowed & self._uncertain[actions]).tolist():
                self._draw(drawing, int(actions[drawing]))
        self._kernel(actions, active, self._sampled, self._amounts, self._counts, self._virtual, self._way_missing,
                     self._ok_ways, self._mask, self._tries, self._place, self._valid, self._used_way, self._used,
                     self._given, *self._table_arrays)
        self._steps += active
        for n, held in zip(relevant.tolist(), wielded, strict=True):
            self._record(n, int(actions[n]), held)
        terminated = self._done & active
        truncated = ~terminated & active & (self._steps >= self.max_steps)
        for n in np.flatnonzero(restart).tolist():
            self._reset_one(n, None)
        self._autoreset = terminated | truncated
        info = {"invalid_action": active & (self._valid == 0), "_invalid_action": active}
        return self._observation(), terminated.astype(np.float64), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The candidate masks, (N, actions) booleans (for masked policies)."""
        return self._mask.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the copies live in this process's arrays."""

    # -- the copies ----------------------------------------------------------------------------------------------

    def _reset_one(self, n: int, target: Target | None) -> None:
        single = self._single
        if target is None and not single.task_refs:  # as a single env: the last target until told another
            current = self._data[n]
            target = current.target if current is not None else self._fixed
        if target is None:
            rng = self._rngs[n]
            assert rng is not None
            index = int(rng.integers(len(single.task_refs)))
            target = single._targets.get(index)
            if target is None:
                target = single._targets[index] = resolve_target(single.task_refs[index], single.library)
        data = self._target_data(target)
        counts, virtual, way_missing, ok_ways, mask, place = data.start
        self._counts[n] = counts
        self._virtual[n] = virtual
        self._way_missing[n] = way_missing
        self._ok_ways[n] = ok_ways
        self._mask[n] = mask
        self._place[n] = place
        self._tries[n] = 0
        if self._data[n] is not data:
            self._targets[n] = data.vector
            self._relevant[n] = data.relevant
            self._missions[n] = target.description
            self._mission_tuple = None
            self._data[n] = data
        self._traces[n] = []
        self._done[n] = data.empty.satisfied
        self._steps[n] = 0

    def _target_data(self, target: Target) -> _TargetData:
        data = self._by_target.get(target.id)
        if data is not None and data.target is target:
            return data
        single = self._single
        single._set_target(target)
        start = self._starts.get(single._start_key)
        if start is None:
            state = self.rules.state_from_initialization(single.start)
            start = self._starts[single._start_key] = (
                np.array(state.counts, dtype=np.int32), np.array(state.virtual, dtype=np.int32),
                np.array(state.way_missing, dtype=np.int16), np.array(state.ok_ways, dtype=np.int16),
                np.frombuffer(state.mask, dtype=np.int8).copy(), np.array(state.place, dtype=np.int32))
        data = _TargetData(target, single.evaluator, single.keys,
                           np.frombuffer(single.relevant_actions, dtype=np.uint8).astype(bool), single.context,
                           single._target_vector.copy(), single.wield, start,
                           single.evaluator.evaluate(single.expression, []))
        if len(self._by_target) > 4096:
            self._by_target.clear()
        self._by_target[target.id] = data
        return data

    def _way(self, n: int, a: int) -> int:
        ways = self.rules.action_ways[a]
        row = self._way_missing[n]
        w = 0
        while row[ways[w]]:
            w += 1
        return w

    def _wielded(self, n: int, a: int) -> int | None:
        """The tool of the target's ``how=with:`` in hand, read before the step (as ``Rules.act`` does)."""
        data = self._data[n]
        assert data is not None
        if not data.wield:
            return None
        row = self._counts[n]
        return self.rules.wielded(a, self._way(n, a), data.wield, lambda r: int(row[r]))

    def _draw(self, n: int, a: int) -> None:
        """The chance yields' amounts, drawn from copy ``n``'s generator in ``Rules.effects``' order."""
        w = self._way(n, a)
        way = self.tables.way_start[a] + w
        if self.tables.way_find[way]:
            return  # Rules.effects' shortcut for a find draws nothing
        rng = self._rngs[n]
        assert rng is not None
        column = 0
        for out in self.rules.way_outputs[a][w]:
            if out.slot >= 0:
                self._amounts[n, column] = int(rng.integers(out.count, out.most + 1)) \
                    if rng.random() < out.chance else 0
                column += 1
        self._sampled[n] = True

    def _record(self, n: int, a: int, wielded: int | None) -> None:
        """Build the events copy ``n``'s step emitted (from what the loop recorded) and judge its target."""
        data = self._data[n]
        assert data is not None
        events = recorded_events(self.rules, self.tables, a, int(self._used_way[n]), self._used[n], self._given[n],
                                 (int(self._place[n, 0]), int(self._place[n, 1])), wielded)
        trace = self._traces[n]
        changed = False
        for event in events:
            if (event[0], event[1]) in data.keys:
                trace.append(data.context.game_event(event))
                changed = True
        if changed:
            self._done[n] = data.evaluator.evaluate(data.target.expression, trace).satisfied

    def _observation(self) -> dict[str, Any]:
        np.minimum(self._steps, self.max_steps, out=self._step_obs[:, 0], casting="unsafe")
        if self._mission_tuple is None:
            self._mission_tuple = tuple(self._missions)
        arrays: dict[str, np.ndarray] = {"inventory": self._counts, "action_mask": self._mask, "target": self._targets,
                  "step": self._step_obs}
        if self.copy:
            obs: dict[str, Any] = {k: v.copy() for k, v in arrays.items()}
        else:
            obs = {}
            for k, v in arrays.items():
                view = v.view()
                view.flags.writeable = False
                obs[k] = view
        obs["mission"] = self._mission_tuple
        return obs


__all__ = ["SkillForgeTextVectorEnv", "recorded_events"]
