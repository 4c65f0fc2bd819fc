"""Shared checks that the text world's three steppers agree: the rules, the fast path and the batched kernel."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import gymnasium
import numpy as np

from taskverse.textenv.fast import FastRules
from taskverse.textenv.vector import SkillForgeTextVectorEnv


def assert_fast_path_agrees(rules: Any, start: dict[str, int], plan: Sequence[str],
                            found: Iterable[tuple[str, str]] = (), seeded: bool = False,
                            candidates_only: bool = False) -> None:
    """Step ``plan`` from ``start`` with the rules and with the fast path: the same events, counts and mask each step.

    ``seeded`` draws chance yields from a generator seeded by the step's index (the same for both);
    ``candidates_only`` skips a step that is not a candidate when its turn comes.
    """
    fast = FastRules.for_rules(rules)
    found = list(found)
    reference = rules.new_state(start, found, track=True)
    quick = rules.new_state(start, found, track=True)
    for index, name in enumerate(plan):
        a = rules.action_index[name]
        if candidates_only and not reference.mask[a]:
            continue
        draw = {"rng": np.random.default_rng(index)} if seeded else {}
        got, _ = fast.act(quick, a, events=True, **dict(draw))
        draw = {"rng": np.random.default_rng(index)} if seeded else {}
        assert got == rules.act(reference, a, events=True, **draw), name
        assert quick.counts == reference.counts and quick.mask == reference.mask, name


def one_step_single_and_batched(library: Any, backend: str, task: str) -> tuple[Any, np.ndarray]:
    """Do ``task``'s own action once from its start, in gymnasium's synchronous pair of single environments and in
    the batched pair (``backend``); both must finish the task with the same inventories: the rules and those.
    """
    kwargs = {"task": task, "max_steps": 10, "library": library, "initialization": "task"}
    singles = gymnasium.make_vec("taskverse/SkillForgeTextStructured-v0", num_envs=2, vectorization_mode="sync",
                                 plan_info=False, **kwargs)
    batched = SkillForgeTextVectorEnv(2, backend=backend, **kwargs)
    rules = batched.rules
    seen = []
    for envs in (singles, batched):
        envs.reset(seed=0)
        obs, reward, terminated, *_ = envs.step(np.full(2, rules.action_index[task]))
        seen.append(obs["inventory"])
        assert terminated.all() and reward.all()
    assert (seen[0] == seen[1]).all()
    return rules, seen[1]
