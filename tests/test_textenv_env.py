"""The SkillForge-text environment: every registered id, observations, targets, wrappers, pickling."""

import pickle
import subprocess
import sys

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from taskverse.algebra.semantics import Evaluator
from taskverse.errors import TaskverseError
from taskverse.textenv.env import PRESETS, SkillForgeTextEnv, TextActions, env_ids


def rollout(env, seed, steps=60):
    """A seeded random masked rollout; everything observable, for comparison."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    record = [_plain(obs)]
    for _ in range(steps):
        choices = np.flatnonzero(info["action_mask"])
        action = int(choices[rng.integers(len(choices))])
        obs, reward, terminated, truncated, info = env.step(action)
        record.append((action, _plain(obs), reward, terminated, truncated, info["progress"]))
        if terminated or truncated:
            obs, info = env.reset()
            record.append(_plain(obs))
    return record


def _plain(obs):
    if isinstance(obs, dict):
        return {k: v.tolist() if isinstance(v, np.ndarray) else v for k, v in obs.items()}
    return obs


def test_registry_is_the_preset_table():
    assert env_ids() == [f"taskverse/{name}" for name in PRESETS]
    assert "taskverse/SkillForgeText-v0" in gymnasium.envs.registry


@pytest.mark.parametrize("env_id", env_ids())
def test_every_registered_env(env_id):
    env = gymnasium.make(env_id)
    check_env(env.unwrapped, skip_render_check=False)
    # Same seed, same actions: the same episode, in two separate environments.
    assert rollout(gymnasium.make(env_id), 7) == rollout(gymnasium.make(env_id), 7)
    # Pickled mid-episode, the copy goes on exactly as the original.
    original = gymnasium.make(env_id)
    rollout(original, 3, steps=5)
    copy = pickle.loads(pickle.dumps(original))
    assert rollout_from_here(original, 11) == rollout_from_here(copy, 11)


def rollout_from_here(env, seed, steps=20):
    rng = np.random.default_rng(seed)
    base = env.unwrapped
    record = []
    for _ in range(steps):
        choices = np.flatnonzero(base.action_masks())
        obs, reward, terminated, truncated, info = env.step(int(choices[rng.integers(len(choices))]))
        record.append((_plain(obs), reward, terminated, truncated))
        if terminated or truncated:
            break
    return record


def test_make_by_module_path_without_importing_taskverse():
    code = ("import gymnasium; env = gymnasium.make('taskverse.textenv.env:taskverse/SkillForgeText-v0', "
            "task='craft stick'); obs, info = env.reset(seed=0); print(obs.splitlines()[0], info['optimal_steps'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["Task:", "craft", "stick.", "4"]


def test_text_observation_is_figure_5():
    env = SkillForgeTextEnv(task="craft iron_sword")
    text, info = env.reset(seed=0)
    lines = text.splitlines()
    assert lines[:3] == ["Task: craft iron_sword.", "Step: 0/100", "Inventory: {}"]
    assert lines[-2] == "Candidate Actions:"
    first = lines[-1].split("; ")
    assert first[0].startswith("0: ") and len(first) == len(info["candidates"]) == int(info["action_mask"].sum())
    oak = env.rules.action_index["find.oak_log"]
    text, *_ = env.step(oak)
    text, *_ = env.step(env.rules.action_index["mine.oak_log"])
    assert "Inventory: {'oak_log': 1}" in text and "oak_log (block)" in text and "Step: 2/100" in text
    assert info["optimal_steps"] and info["optimal_steps"] > 10


def test_structured_observation_and_masks():
    env = SkillForgeTextEnv(task="craft stick & hunt sheep", observation="structured")
    obs, info = env.reset(seed=0)
    assert obs in env.observation_space
    rules = env.rules
    assert obs["target"].sum() == 2 and obs["target"][rules.atom_index["hunt.sheep"]] == 1
    assert (obs["action_mask"].astype(bool) == info["action_mask"]).all()
    assert (env.action_masks() == info["action_mask"]).all()
    obs, *_ = env.step(rules.action_index["find.sheep"])
    obs, *_ = env.step(rules.action_index["hunt.sheep"])
    assert obs["inventory"][rules.index[("item", "white_wool")]] == 1
    assert obs["inventory"][rules.index[("entity", "sheep")]] == 1
    assert obs["step"][0] == 2


def test_invalid_action_wastes_a_step_and_says_why():
    env = SkillForgeTextEnv(task="craft stick")
    env.reset(seed=0)
    text, reward, terminated, truncated, info = env.step(env.rules.action_index["craft.stick"])
    assert info["invalid_action"] and info["steps"] == 1 and reward == 0 and not terminated
    assert "not a candidate now" in info["error"] and "planks" in info["error"]
    assert "Invalid action:" in text
    with pytest.raises(TaskverseError):
        env.step(10**6)


def test_step_limit_truncates():
    env = SkillForgeTextEnv(task="craft stick", max_steps=3)
    env.reset(seed=0)
    find = env.rules.action_index["find.oak_log"]
    results = [env.step(find) for _ in range(3)]
    assert [r[3] for r in results] == [False, False, True] and not any(r[2] for r in results)


def drive(env, names):
    for name in names:
        result = env.step(env.rules.action_index[name])
    return result


WOOD = ["find.oak_log", "mine.oak_log", "craft.oak_planks"]


def test_then_needs_the_order_and_or_needs_either():
    then = SkillForgeTextEnv(task="craft crafting_table >> craft stick")
    then.reset(seed=0)
    *_, terminated, _, info = drive(then, [*WOOD, "craft.stick", "mine.oak_log", "craft.oak_planks"])
    assert not terminated and info["progress"] == 0.0  # the stick came first: it does not count
    *_, terminated, _, info = drive(then, ["craft.crafting_table"])
    assert not terminated and info["progress"] == 0.5
    _, reward, terminated, _, info = drive(then, ["craft.stick"])
    assert terminated and reward == 1.0
    either = SkillForgeTextEnv(task="craft stick | hunt sheep")
    either.reset(seed=0)
    _, reward, terminated, _, _ = drive(either, ["find.sheep", "hunt.sheep"])
    assert terminated and reward == 1.0


def test_success_is_the_evaluators_verdict(library):
    evaluator = Evaluator.for_library(library)
    for task in ["craft stick & hunt sheep", "(craft stick | mine oak_log) >> hunt sheep", "hunt.animals"]:
        env = SkillForgeTextEnv(task=task, library=library)
        rng = np.random.default_rng(0)
        _, info = env.reset(seed=0)
        names = ["find.sheep", "find.oak_log", "mine.oak_log", "hunt.sheep", "craft.oak_planks", "craft.stick",
                 "hunt.sheep"]
        for name in names:
            a = env.rules.action_index[name]
            if not env.state.mask[a]:
                a = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, _, terminated, _, info = env.step(a)
            assert terminated == evaluator.evaluate(env.expression, env.trace).satisfied
            if terminated:
                break
        assert terminated, task


def test_initialization_naive_by_default_custom_when_given():
    assert SkillForgeTextEnv(task="craft iron_sword").reset(seed=0)[0].splitlines()[2] == "Inventory: {}"
    own = SkillForgeTextEnv(task="craft iron_sword", initialization="task")
    text, info = own.reset(seed=0)
    assert "'iron_ingot': 2" in text and info["optimal_steps"] == 1
    custom = SkillForgeTextEnv(task="init(craft stick, inventory.oak_planks=2)")
    text, info = custom.reset(seed=0)
    assert "'oak_planks': 2" in text and info["optimal_steps"] == 1
    night = SkillForgeTextEnv(task="init(hunt sheep, time=night) @ when=night")
    night.reset(seed=0)
    _, reward, terminated, _, _ = drive(night, ["find.sheep", "hunt.sheep"])
    assert terminated and reward == 1.0
    day = SkillForgeTextEnv(task="hunt sheep @ when=night")
    _, info = day.reset(seed=0)
    *_, terminated, _, _ = drive(day, ["find.sheep", "hunt.sheep"])
    assert not terminated  # the text world has no clock: the night never comes


def test_task_list_variant_draws_from_its_list():
    env = gymnasium.make("taskverse/SkillForgeTextChain-v0")
    seen = {env.reset(seed=s)[1]["task"] for s in range(6)}
    assert len(seen) > 1 and all(t.startswith("craft.") for t in seen)
    _, info = env.reset(seed=0, options={"task": "craft stick"})
    assert info["task"] == "craft.stick"


def test_chance_yields_sure_or_sampled():
    sure = SkillForgeTextEnv(task="craft flint_and_steel", max_steps=100)
    sure.reset(seed=0)
    drive(sure, ["find.gravel"])
    flints = []
    for _ in range(30):
        drive(sure, ["mine.gravel"])
        flints.append(sure.inventory().get("flint", 0))
    # 10%: 29 gravel give a flint with 95% probability (1 - 0.9 ** 29 = 0.953), 28 with 94.8%
    assert flints == [0] * 28 + [1, 1]
    sampled = [SkillForgeTextEnv(task="craft flint_and_steel", chance="sample") for _ in range(2)]
    counts = []
    for env in sampled:
        env.reset(seed=5)
        drive(env, ["find.gravel", *["mine.gravel"] * 40])
        counts.append(env.inventory().get("flint", 0))
    assert counts[0] == counts[1]


def test_bad_arguments_are_clean_errors():
    with pytest.raises(TaskverseError, match="did you mean"):
        SkillForgeTextEnv(task="craft iron swrod")
    with pytest.raises(TaskverseError):
        SkillForgeTextEnv(observation="pixels")
    with pytest.raises(TaskverseError):
        SkillForgeTextEnv(tasks="every-task")


def test_text_actions_wrapper():
    env = TextActions(SkillForgeTextEnv(task="craft stick"))
    env.reset(seed=0)
    _, _, _, _, info = env.step("fnd oak log")
    assert info["invalid_action"] and "did you mean 'find oak_log'" in info["error"]
    _, _, _, _, info = env.step("find oak_log")
    assert not info["invalid_action"]
    _, _, _, _, info = env.step("mine.oak_log")
    _, _, _, _, info = env.step("craft oak planks")
    number = info["candidates"].index(env.unwrapped.rules.action_index["craft.stick"])
    _, reward, terminated, _, info = env.step(str(number))
    assert terminated and reward == 1.0 and info["steps"] == 5
    env.reset(seed=0)
    _, _, _, _, info = env.step("99999")
    assert "no candidate number" in info["error"]


@pytest.mark.parametrize("env_id", env_ids())
def test_make_returns_the_environment_itself_which_enforces_reset_first(env_id):
    env = gymnasium.make(env_id)
    assert env is env.unwrapped and env.spec is not None and env.spec.id == env_id  # no per-step wrapper calls
    for refused in (lambda: env.step(0), env.text):
        with pytest.raises(gymnasium.error.ResetNeeded):  # what gymnasium's OrderEnforcing would raise
            refused()
    with pytest.raises(TaskverseError):
        env.step(0)
    checked = gymnasium.make(env_id, disable_env_checker=False)  # gymnasium's checker, on request
    assert isinstance(checked, gymnasium.wrappers.PassiveEnvChecker)
    env.reset(seed=0)
    env.unwrapped._ended = True
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)


def test_a_corridor_chest_is_no_library_chest_and_a_library_chest_is_a_chest(library):
    # loot.stronghold.library's goal names the kind of chest opened: looting a stronghold's corridor chest emits
    # "interact stronghold" of the main kind, which the library goal does not count; the library chest's does, and
    # it counts for "loot a chest in stronghold" too (any chest of the structure).
    kind = SkillForgeTextEnv(task="loot.stronghold.library", initialization="task", library=library)
    kind.reset(seed=0)
    *_, terminated, _, info = drive(kind, ["loot.stronghold"])
    assert not terminated and info["progress"] == 0.0
    assert [e.chest for e in kind.trace if e.event.value == "interact"] == [None]
    _, reward, terminated, _, _ = drive(kind, ["loot.stronghold.library"])
    assert terminated and reward == 1.0
    assert [e.chest for e in kind.trace] == [None, "library"]
    assert Evaluator.for_library(library).evaluate(kind.expression, kind.trace).satisfied_at == 1
    any_chest = SkillForgeTextEnv(task="loot.stronghold", initialization="task", library=library)
    any_chest.reset(seed=0)
    _, reward, terminated, _, _ = drive(any_chest, ["loot.stronghold.library"])
    assert terminated and reward == 1.0
