"""The vector environment: exactly N single environments' trajectories, gymnasium's vector API, clean errors."""

import gymnasium
import numpy as np
import pytest

from taskverse.errors import TaskverseError
from taskverse.textenv.kernel import BACKENDS, HAVE_NUMBA
from taskverse.textenv.vector import SkillForgeTextVectorEnv

TASKS = ["craft stick", "mine oak_log", "hunt sheep", "craft crafting_table", "craft flint_and_steel",
         "craft stone_pickaxe", "smelt iron_ingot", "mine stone & craft wooden_pickaxe"]
FAVOURED = ["find.oak_log", "mine.oak_log", "craft.oak_planks", "craft.stick", "craft.crafting_table",
            "craft.wooden_pickaxe", "find.stone", "mine.stone", "craft.stone_pickaxe", "find.gravel", "mine.gravel",
            "find.sheep", "hunt.sheep", "find.iron_ore", "mine.iron_ore", "craft.furnace", "smelt.iron_ingot",
            "craft.flint_and_steel", "find.coal_ore", "mine.coal_ore", "smelt.charcoal"]
"""Actions the test agent prefers, so that episodes succeed, tools wear, fuel burns and chance yields come."""


def choose(rng, masks, favoured, invalid=0.05):
    """Per row: now and then any action (wasted when not a candidate), mostly a candidate, often a favoured one."""
    actions = []
    for mask in masks:
        if rng.random() < invalid:
            actions.append(int(rng.integers(len(mask))))
            continue
        candidates = np.flatnonzero(mask)
        preferred = [a for a in favoured if mask[a]]
        pool = preferred if preferred and rng.random() < 0.7 else candidates
        actions.append(int(pool[rng.integers(len(pool))]))
    return np.array(actions)


def run(envs, seed, steps, favoured):
    rng = np.random.default_rng(seed)
    obs, _ = envs.reset(seed=seed)
    record = [obs]
    for _ in range(steps):
        obs, reward, terminated, truncated, _ = envs.step(choose(rng, obs["action_mask"], favoured))
        record.append((obs, reward, terminated, truncated))
    return record


def same(left, right):
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(same(left[k], right[k]) for k in left)
    if isinstance(left, tuple | list):
        return len(left) == len(right) and all(same(a, b) for a, b in zip(left, right, strict=True))
    return np.array_equal(np.asarray(left), np.asarray(right))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("chance", ["sure", "sample"])
def test_the_same_trajectories_as_single_environments(library, backend, chance):
    n, steps = (5, 160) if backend == "numba" else (4, 120)
    kwargs = {"tasks": TASKS, "chance": chance, "max_steps": 30, "library": library}
    singles = gymnasium.make_vec("taskverse/SkillForgeTextStructured-v0", num_envs=n, vectorization_mode="sync",
                                 plan_info=False, **kwargs)
    batched = SkillForgeTextVectorEnv(n, backend=backend, **kwargs)
    favoured = [batched.rules.action_index[name] for name in FAVOURED]
    expected, got = run(singles, 11, steps, favoured), run(batched, 11, steps, favoured)
    assert same(expected, got)
    rewards = np.array([r[1] for r in got[1:]])
    ends = np.array([r[2] | r[3] for r in got[1:]])
    assert rewards.sum() >= 2 and ends.sum() > rewards.sum()  # episodes succeeded, others ran out of steps


@pytest.mark.skipif(not HAVE_NUMBA, reason="numba not installed")
def test_the_compiled_and_the_plain_loop_agree(library):
    runs = [run(SkillForgeTextVectorEnv(4, tasks="naive-craft", backend=b, chance="sample", library=library), 3,
                40, []) for b in ("numba", "numpy")]
    assert same(*runs)


def test_make_vec_builds_it_and_autoresets_next_step(library):
    envs = gymnasium.make_vec("taskverse/SkillForgeTextChain-v0", num_envs=3, max_steps=2, library=library)
    assert isinstance(envs.unwrapped, SkillForgeTextVectorEnv)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    obs, _ = envs.reset(seed=0)
    assert obs in envs.observation_space
    find = envs.unwrapped.rules.action_index["find.oak_log"]
    actions = np.full(3, find)
    _, _, _, truncated, _ = envs.step(actions)
    assert not truncated.any()
    obs, reward, terminated, truncated, _ = envs.step(actions)
    assert truncated.all() and not terminated.any() and (obs["step"] == 2).all()
    obs, reward, terminated, truncated, _ = envs.step(actions)  # the autoreset step: the action is ignored
    assert (obs["step"] == 0).all() and not reward.any() and not (terminated | truncated).any()
    assert (obs["inventory"].sum(1) == 1).all()  # back at the start: only the overworld found


def test_a_target_given_at_reset_stays_as_in_single_environments(library):
    envs = SkillForgeTextVectorEnv(2, task="craft stick", max_steps=1, library=library)
    obs, _ = envs.reset(seed=0, options={"task": "hunt sheep"})
    assert obs["mission"] == ("hunt sheep", "hunt sheep")
    find = envs.rules.action_index["find.oak_log"]
    envs.step(np.full(2, find))
    obs, *_ = envs.step(np.full(2, find))  # the autoreset keeps the target, as SkillForgeTextEnv.reset() does
    assert obs["mission"] == ("hunt sheep", "hunt sheep")


def test_copies_and_views(library):
    fresh = SkillForgeTextVectorEnv(2, task="craft stick", library=library)
    obs, _ = fresh.reset(seed=0)
    kept = {k: v.copy() for k, v in obs.items() if isinstance(v, np.ndarray)}
    fresh.step(np.full(2, fresh.rules.action_index["find.oak_log"]))
    assert all(np.array_equal(obs[k], v) for k, v in kept.items())  # copy=True: handed-out arrays stay as they were
    views = SkillForgeTextVectorEnv(2, task="craft stick", library=library, copy=False)
    obs, _ = views.reset(seed=0)
    with pytest.raises(ValueError):
        obs["inventory"][0, 0] = 5  # read-only: the environment's own arrays


def test_bad_input_is_a_clean_error(library):
    envs = SkillForgeTextVectorEnv(2, task="craft stick", library=library)
    with pytest.raises(TaskverseError, match="reset"):
        envs.step(np.zeros(2, dtype=int))
    envs.reset(seed=0)
    with pytest.raises(TaskverseError, match="expected 2"):
        envs.step(np.zeros(3, dtype=int))
    with pytest.raises(TaskverseError, match="out of range"):
        envs.step(np.array([0, 10**6]))
    with pytest.raises(TaskverseError, match="structured"):
        SkillForgeTextVectorEnv(2, observation="text", library=library)
    with pytest.raises(TaskverseError, match="backend"):
        SkillForgeTextVectorEnv(2, backend="gpu", library=library)


# -- the loop itself against the reference rules, state by state -------------------------------------------------

KIT = {"flint_and_steel": 2, "obsidian": 20, "ender_eye": 12, "coal": 2, "raw_iron": 9, "furnace": 1,
       "stone_pickaxe": 1, "oak_planks": 3, "birch_planks": 3, "spruce_planks": 2, "crafting_table": 1,
       "white_wool": 2, "stick": 3, "stone_sword": 1, "stonecutter": 1}
FOUND = [("block", "stone"), ("block", "gravel"), ("block", "iron_ore"), ("block", "lapis_ore"),
         ("biome", "desert"), ("entity", "sheep"), ("structure", "stronghold")]
WALK = ["enter.nether", "enter.overworld", "enter.end", "find.desert", "find.plains", "find.crimson_forest",
        "smelt.iron_ingot", "smelt.charcoal", "mine.stone", "mine.gravel", "mine.lapis_ore", "mine.netherrack",
        "craft.stick", "craft.crafting_table", "hunt.sheep", "craft.green_wool", "craft.chest",
        "find.evoker", "combat.evoker",  # a mansion's evokers are used up (mobs.yaml: finite)
        "stonecut.cobblestone_slab", "stonecut.cobblestone_stairs"]  # ways that make 2 and 1 (stonecutting.yaml)


def as_rows(rules, state):
    return {"counts": np.array([state.counts], dtype=np.int32), "virtual": np.array([state.virtual], dtype=np.int32),
            "way_missing": np.array([state.way_missing], dtype=np.int16),
            "ok_ways": np.array([state.ok_ways], dtype=np.int16),
            "mask": np.frombuffer(state.mask, dtype=np.int8).copy()[None],
            "tries": np.array([state.tries], dtype=np.int64), "place": np.array([state.place], dtype=np.int32)}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("seed", range(4))
def test_the_loop_steps_exactly_as_the_rules(library, backend, seed):
    from taskverse.textenv.kernel import Tables, kernel
    from taskverse.textenv.vector import recorded_events
    from taskverse.world.rules import Rules

    rules = Rules.for_library(library)
    tables = Tables.for_rules(rules)
    step = kernel(backend)
    pick = np.random.default_rng(seed)
    draws = [np.random.default_rng(seed + 1), np.random.default_rng(seed + 1)]
    sample = seed % 2 == 1
    state = rules.new_state({**KIT, "oak_planks": 1 + seed, "diamond": seed}, FOUND)
    rows = as_rows(rules, state)
    walk = [rules.action_index[name] for name in WALK]
    one = {"valid": np.ones(1, np.uint8), "way": np.zeros(1, np.int64),
           "used": np.zeros((1, tables.max_needs), np.int64), "given": np.zeros((1, tables.max_outputs), np.int64),
           "sampled": np.zeros(1, np.bool_), "amounts": np.zeros((1, tables.max_uncertain), np.int64)}
    for _ in range(200 if backend == "numba" else 80):
        candidates = rules.candidates(state)
        preferred = [a for a in walk if state.mask[a]]
        pool = preferred if preferred and pick.random() < 0.5 else candidates
        a = pool[int(pick.integers(len(pool)))]
        w = next(i for i, way in enumerate(rules.action_ways[a]) if not state.way_missing[way])
        one["sampled"][0] = False
        if sample and not tables.way_find[tables.way_start[a] + w]:
            column = 0
            for out in rules.way_outputs[a][w]:
                if out.slot >= 0:
                    one["amounts"][0, column] = int(draws[1].integers(out.count, out.most + 1)) \
                        if draws[1].random() < out.chance else 0
                    column += 1
            one["sampled"][0] = True
        events = rules.act(state, a, draws[0] if sample else None, events=True)
        step(np.array([a]), np.ones(1, np.bool_), one["sampled"], one["amounts"], rows["counts"], rows["virtual"],
             rows["way_missing"], rows["ok_ways"], rows["mask"], rows["tries"], rows["place"], one["valid"],
             one["way"], one["used"], one["given"], *tables.arrays())
        assert one["valid"][0] == 1 and one["way"][0] == w
        expected = as_rows(rules, state)
        for key, value in expected.items():
            assert np.array_equal(rows[key], value), (rules.actions[a], key)
        got = recorded_events(rules, tables, a, w, one["used"][0], one["given"][0],
                              (int(rows["place"][0, 0]), int(rows["place"][0, 1])), None)
        assert got == events, rules.actions[a]
