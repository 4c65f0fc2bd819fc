"""The fast stepping path against the reference ``Rules``: the same states, events and draws, step by step."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taskverse.textenv.arraystate import ArrayState
from taskverse.textenv.env import SkillForgeTextEnv
from taskverse.textenv.fast import MASK, UNCHANGED, FastRules
from taskverse.textenv.kernel import HAVE_NUMBA

START_ITEMS = ["oak_log", "oak_planks", "birch_planks", "stick", "cobblestone", "iron_ingot", "raw_iron", "coal",
               "crafting_table", "furnace", "white_wool", "wooden_pickaxe", "stone_pickaxe", "iron_pickaxe",
               "string", "diamond", "gravel", "flint", "bucket", "wheat", "lapis_lazuli", "flint_and_steel", "obsidian",
               "ender_eye", "stonecutter", "stone_bricks", "snowball", "red_shulker_box", "leather_boots", "red_dye"]
FOUND = [("block", "stone"), ("block", "gravel"), ("block", "iron_ore"), ("block", "lapis_ore"),
         ("block", "netherrack"), ("biome", "desert"), ("entity", "sheep"), ("dimension", "nether"),
         ("structure", "stronghold"), ("entity", "villager"), ("block", "water_cauldron"), ("block", "ladder"),
         ("block", "target")]
TOOLS = [(), ("stone_pickaxe",), ("#logs", "iron_pickaxe")]
FAVOURED = ["enter.nether", "enter.overworld", "enter.end", "find.desert", "find.plains", "find.crimson_forest",
            "smelt.iron_ingot", "smelt.charcoal", "mine.stone", "mine.gravel", "mine.lapis_ore", "mine.netherrack",
            "craft.stick", "craft.crafting_table", "hunt.sheep", "stonecut.cobblestone_slab",
            "stonecut.stone_brick_stairs", "talk.villager", "hit.target", "clean.shulker_box", "clean.leather_armor",
            "climb.ladder"]
"""Actions the walk takes more often than a uniform pick would: places, fuel, wear, chance yields, groups, ways
that make different counts (a stonecutter's slab is 2 from a block), the custom statistics' actions (a mob kept, a
block kept, an item spent and another given)."""
KIT = {"flint_and_steel": 2, "obsidian": 20, "ender_eye": 12, "coal": 2, "raw_iron": 9, "furnace": 1,
       "stone_pickaxe": 1, "oak_planks": 3, "birch_planks": 2, "stonecutter": 1}
"""A start that reaches the rarer rules soon: portals, smelting with fuel left over, tools wearing."""


def same_state(a, b):
    return (a.counts == b.counts and a.virtual == b.virtual and a.way_missing == b.way_missing
            and a.ok_ways == b.ok_ways and a.mask == b.mask and a.tries == b.tries and a.place == b.place
            and (a.array == b.array).all())


def _runs(law):
    """The runs both laws step: a start, found places, a seed, sampled chance or not, tools, a length, a kit."""
    return settings(max_examples=40, deadline=None, suppress_health_check=[
        HealthCheck.too_slow, HealthCheck.function_scoped_fixture])(given(
            start=st.dictionaries(st.sampled_from(START_ITEMS), st.integers(1, 70), max_size=8),
            found=st.lists(st.sampled_from(FOUND), max_size=4), seed=st.integers(0, 2**32 - 1),
            sample=st.booleans(), tools=st.sampled_from(TOOLS), steps=st.integers(1, 150), kit=st.booleans())(law))


@_runs
def test_fast_steps_exactly_as_the_rules(rules, start, found, seed, sample, tools, steps, kit):
    _steps_exactly_as_the_rules(rules, FastRules.for_rules(rules).act, None, start, found, seed, sample, tools, steps,
                                kit)


@pytest.mark.skipif(not HAVE_NUMBA, reason="numba (the [fast] extra) is not installed")
@_runs
def test_the_array_state_steps_exactly_as_the_rules(rules, start, found, seed, sample, tools, steps, kit):
    held = ArrayState(rules)
    _steps_exactly_as_the_rules(rules, held.act, held, start, found, seed, sample, tools, steps, kit)


def _steps_exactly_as_the_rules(rules, act, held, start, found, seed, sample, tools, steps, kit):
    """Step ``act`` (on ``held``, an ArrayState, or on a State) and ``Rules.act`` side by side; compare all."""
    if kit:
        start = {**start, **KIT}
        found = [*found, ("structure", "stronghold")]
    reference, quick = rules.new_state(start, found, track=True), rules.new_state(start, found, track=True)
    if held is not None:
        held.load(quick)
    wield = rules.wield_tools(tools)
    pick = np.random.default_rng(seed)
    draws = [np.random.default_rng(seed + 1), np.random.default_rng(seed + 1)]
    favoured = [rules.action_index[name] for name in FAVOURED]
    for _ in range(steps):
        candidates = rules.candidates(reference)
        preferred = [a for a in favoured if reference.mask[a]]
        if preferred and pick.random() < 0.4:
            candidates = preferred
        a = candidates[int(pick.integers(len(candidates)))]
        events = rules.act(reference, a, draws[0] if sample else None, events=True, wield=wield)
        counts, mask = list(quick.counts), bytes(quick.mask)
        if held is None:
            got, changed = act(quick, a, draws[1] if sample else None, events=True, wield=wield)
        else:
            got, changed = act(a, draws[1] if sample else None, events=True, wield=wield)
            quick = held.state()
        # what the text observation's caches trust: a changed mask is reported, and so are changed counts
        assert changed == MASK or quick.mask == mask
        assert changed != UNCHANGED or quick.counts == counts
        assert got == events, rules.actions[a]
        assert same_state(reference, quick), rules.actions[a]
        assert draws[0].bit_generator.state == draws[1].bit_generator.state
    # and the mask is still what the needs say, recomputed from nothing: every count set on an empty state (not
    # new_state's finds, which would give a finite source's structure its chests again)
    again = rules.new_state()  # (in the overworld, where a start that names no dimension is)
    for r, count in enumerate(quick.counts[:rules.n_resources]):
        if count != again.counts[r]:
            rules.change(again, r, count - again.counts[r])
    assert quick.mask == again.mask


def test_every_action_has_a_plan_or_the_general_rules(rules):
    fast = FastRules.for_rules(rules)
    assert len(fast.plans) == len(rules.actions)
    assert all(len(plans) == len(ways) for plans, ways in zip(fast.plans, rules.ways, strict=True))
    fixed = sum(p is not None for plans in fast.plans for p in plans)
    assert 0 < fixed < sum(len(ways) for ways in rules.ways)  # finds and plain crafts fixed; groups, fuel, wear not
    find = rules.action_index["find.oak_log"]
    assert fast.plans[find][0] is not None
    assert fast.plans[rules.action_index["smelt.iron_ingot"]][0] is None  # fuel: the general rules


@pytest.mark.parametrize("observation", ["structured", "text"])
def test_observations_are_never_changed_after_they_are_returned(observation):
    env = SkillForgeTextEnv(tasks="naive-craft", observation=observation, plan_info=False)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    kept = []
    for _ in range(300):
        snapshot = ({k: np.array(v, copy=True) if isinstance(v, np.ndarray) else v for k, v in obs.items()}
                    if isinstance(obs, dict) else obs, info["action_mask"].copy())
        kept.append((obs, info, snapshot))
        choices = np.flatnonzero(info["action_mask"])
        obs, _, terminated, truncated, info = env.step(int(choices[rng.integers(len(choices))]))
        if terminated or truncated:
            obs, info = env.reset()
    for obs, info, (saved, mask) in kept:
        assert (info["action_mask"] == mask).all()
        if isinstance(obs, dict):
            for key, value in saved.items():
                assert np.array_equal(obs[key], value) if isinstance(value, np.ndarray) else obs[key] == value
        else:
            assert obs == saved


def test_the_env_mask_matches_a_recomputation_through_episodes():
    env = SkillForgeTextEnv(tasks="naive-craft", observation="structured", plan_info=False)
    rules = env.rules
    rng = np.random.default_rng(3)
    obs, info = env.reset(seed=3)
    for _ in range(400):
        # every count set on an empty state, not new_state's finds: a find there gives a finite source (a
        # wandering trader, a mansion's chests) its count again, though the walk may have used it up
        again = rules.new_state()  # (in the overworld, where a start that names no dimension is)
        for r, count in enumerate(obs["inventory"][:rules.n_resources]):
            if count != again.counts[r]:
                rules.change(again, r, int(count) - again.counts[r])
        assert (np.frombuffer(again.mask, dtype=np.int8) == obs["action_mask"]).all()
        choices = np.flatnonzero(info["action_mask"])
        obs, _, terminated, truncated, info = env.step(int(choices[rng.integers(len(choices))]))
        if terminated or truncated:
            obs, info = env.reset()


def _plain(obs, info):
    return ({k: (v.dtype.str, v.tolist()) if isinstance(v, np.ndarray) else v for k, v in obs.items()},
            {k: (v.dtype.str, v.tolist()) if isinstance(v, np.ndarray) else v for k, v in info.items()})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), max_steps=st.integers(1, 40),
       task=st.sampled_from([None, "craft stick", "mine oak_log", "find oak_log >> mine oak_log",
                             "find oak_log & find sheep", "~craft oak_planks & craft stick",
                             "craft stick @ within=12s"]))
def test_the_inline_structured_step_is_the_full_step(seed, task, max_steps):
    """The structured step built inline (the learners' path) returns what the general path returns.

    Non-candidates now and then (a wasted step, then a valid one), targets that fail and a timed target (which
    takes the general path) included; observations are fresh arrays, never changed by a later step.
    """
    tasks = "naive-craft" if task is None else None
    inline = SkillForgeTextEnv(task=task, tasks=tasks, observation="structured", plan_info=False, max_steps=max_steps)
    full = SkillForgeTextEnv(task=task, tasks=tasks, observation="structured", plan_info=False, max_steps=max_steps)
    assert inline._lean
    full._lean = False  # every step through _finish_step, _observation and _info
    pick = np.random.default_rng(seed)
    (obs, info), (other, other_info) = inline.reset(seed=seed), full.reset(seed=seed)
    assert _plain(obs, info) == _plain(other, other_info)
    for _ in range(80):
        candidates = np.flatnonzero(info["action_mask"])
        counted = [a for a in candidates.tolist() if inline.relevant_actions[a]]  # what the target counts, often
        if pick.random() < 0.1:
            a = int(pick.integers(inline.action_space.n))
        else:
            a = int(pick.choice(counted if counted and pick.random() < 0.5 else candidates))
        kept = _plain(obs, info)
        before = obs, info
        obs, reward, terminated, truncated, info = inline.step(a)
        other, *rest, other_info = full.step(a)
        assert _plain(*before) == kept
        assert (reward, terminated, truncated) == tuple(rest)
        assert _plain(obs, info) == _plain(other, other_info)
        assert inline.last_error == full.last_error and inline.action_indices == full.action_indices
        if terminated or truncated:
            (obs, info), (other, other_info) = inline.reset(), full.reset()
            assert _plain(obs, info) == _plain(other, other_info)


@pytest.mark.skipif(not HAVE_NUMBA, reason="numba (the [fast] extra) is not installed")
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), chance=st.sampled_from(["sure", "sample"]),
       observation=st.sampled_from(["structured", "text"]),
       task=st.sampled_from([None, "craft stick", "find oak_log >> mine oak_log", "mine gravel"]))
def test_the_environment_steps_alike_on_arrays_and_on_lists(monkeypatch, seed, chance, observation, task):
    """The compiled state (ArrayState) and the lists (ListState) give the same episodes, bad actions included.

    (``monkeypatch.context`` undoes its change at once: nothing carries over between examples.)
    """
    tasks = "naive-craft" if task is None else None
    envs = []
    for compiled in (True, False):
        with monkeypatch.context() as patch:
            patch.setattr(SkillForgeTextEnv, "compiled", compiled)
            envs.append(SkillForgeTextEnv(task=task, tasks=tasks, observation=observation, chance=chance,
                                          plan_info=False))
    arrays, lists = envs
    assert type(arrays._held).__name__ == "ArrayState" and type(lists._held).__name__ == "ListState"
    pick = np.random.default_rng(seed)
    (obs, info), (other, other_info) = arrays.reset(seed=seed), lists.reset(seed=seed)
    for _ in range(120):
        plain = (_plain(obs, info), _plain(other, other_info)) if observation == "structured" else \
            ((obs, _plain({}, info)), (other, _plain({}, other_info)))
        assert plain[0] == plain[1]
        assert same_state(arrays.state, lists.state)
        candidates = np.flatnonzero(info["action_mask"])
        a = int(pick.choice(candidates)) if pick.random() < 0.9 else int(pick.integers(arrays.action_space.n))
        obs, reward, terminated, truncated, info = arrays.step(a)
        other, *rest, other_info = lists.step(a)
        assert (reward, terminated, truncated) == tuple(rest)
        if terminated or truncated:
            (obs, info), (other, other_info) = arrays.reset(), lists.reset()


@pytest.mark.skipif(not HAVE_NUMBA, reason="numba (the [fast] extra) is not installed")
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(start=st.dictionaries(st.sampled_from(START_ITEMS), st.integers(1, 70), max_size=8),
       found=st.lists(st.sampled_from(FOUND), max_size=4), seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 80))
def test_a_restored_snapshot_steps_as_the_state_it_was_taken_of(rules, start, found, seed, steps):
    """A snapshot leaves the kernel's scratch out: restored after a walk, the state steps as a fresh copy does."""
    state = rules.new_state(start, found, track=True)
    held, fresh = ArrayState(rules), ArrayState(rules)
    held.load(state)
    snapshot = held.snapshot()
    pick = np.random.default_rng(seed)
    for _ in range(steps):  # a walk that fills the scratch (pools, deltas) and the records
        held.act(int(pick.choice(np.flatnonzero(held.mask))))
    held.restore(snapshot)
    fresh.load(state)
    assert same_state(held.state(), fresh.state())
    for _ in range(steps):
        a = int(pick.choice(np.flatnonzero(fresh.mask)))
        assert held.act(a, events=True) == fresh.act(a, events=True)
        assert same_state(held.state(), fresh.state())
