"""The text observation says the model's internal counts as the game shows them, and lists only held items.

A tool's wear reads as its durability bar would (``Tools: wooden_pickaxe (wear 1 of 59)``), a furnace's unburnt fuel
as the smelts it still gives, a profession's experience as its level bar (level, experience, the next level), what a
found structure still holds as its chests unopened; an offer's trades left are not shown. The inventory line lists
held items only (a dict an agent can read), while the structured observation and ``env.inventory()`` keep the raw
counts.
"""

from __future__ import annotations

import ast

import gymnasium
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import taskverse.textenv  # noqa: F401  (registers the environments)

ENV = "taskverse/SkillForgeText-v0"
INTERNAL = ("wear:", "xp:", "left:", "stock:", "furnace_heat")


def _make(task, **kwargs):
    return gymnasium.make(ENV, task=task, plan_info=False, **kwargs)


def _play(env, *descriptions):
    obs, info = env.reset(seed=0)
    rules = env.unwrapped.rules
    for description in descriptions:
        obs, _, _, _, info = env.step(rules.descriptions.index(description))
        assert not info["invalid_action"], info.get("error")
    return obs


def _line(obs, title):
    return next((line for line in obs.splitlines() if line.startswith(f"{title}: ")), None)


def test_a_tool_s_wear_reads_as_its_durability_and_the_inventory_lists_the_tool_alone():
    env = _make("init(craft.diamond_sword, inventory.wooden_pickaxe=1)")
    obs = _play(env, "find stone", "mine stone")
    assert _line(obs, "Tools") == "Tools: wooden_pickaxe (wear 1 of 59)"
    assert "wear:" not in obs
    assert ast.literal_eval(_line(obs, "Inventory")[len("Inventory: "):]) == {"cobblestone": 1, "wooden_pickaxe": 1}
    assert env.unwrapped.inventory()["wear:wooden_pickaxe"] == 1  # the model's raw count stays


def test_a_furnace_s_unburnt_fuel_reads_as_the_smelts_it_still_gives():
    env = _make("init(craft.diamond_sword, inventory.furnace=1, inventory.raw_iron=1, inventory.oak_planks=1)")
    obs = _play(env, "smelt iron_ingot")
    assert _line(obs, "Furnace") == "Furnace: fuel left for 0.5 smelts"  # a plank burns 15 s, a smelt takes 10
    assert "furnace_heat" not in obs


def test_a_villager_s_experience_reads_as_its_level_bar():
    env = _make("init(craft.diamond_sword, inventory.cartography_table=1, inventory.paper=48)")
    sell = "sell paper to a cartographer or a librarian for emeralds"
    obs = _play(env, "find villager", sell)
    assert _line(obs, "Villagers") == "Villagers: cartographer novice (experience 2; apprentice at 10)"
    obs = _play(env, "find villager", sell, sell)
    assert _line(obs, "Villagers") == "Villagers: cartographer novice (experience 4; apprentice at 10)"
    assert "xp:" not in obs and "stock:" not in obs
    structured = _make("init(craft.diamond_sword, inventory.cartography_table=1, inventory.paper=48)",
                       observation="structured")
    raw = _play(structured, "find villager", sell)
    rules = structured.unwrapped.rules
    assert raw["inventory"][rules.index[("item", "xp:cartographer")]] == 2


def test_a_found_structure_s_chests_left_read_as_chests_unopened():
    env = _make("init(craft.diamond_sword, inventory.iron_pickaxe=1)")
    obs = _play(env, "find mineshaft")
    left = env.unwrapped.inventory()["left:mineshaft"]
    assert _line(obs, "Left where found") == f"Left where found: mineshaft ({left} chests unopened)"
    assert obs.index("Found: ") < obs.index("Left where found: ")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 60))
def test_the_inventory_line_is_exactly_the_held_items_and_no_internal_name_is_shown(seed, steps):
    env = _make(None, tasks="naive-craft", max_steps=200)
    obs, info = env.reset(seed=seed)
    rules = env.unwrapped.rules
    pick = np.random.default_rng(seed)
    for _ in range(steps):
        obs, _, terminated, truncated, info = env.step(int(pick.choice(np.flatnonzero(info["action_mask"]))))
        if terminated or truncated:
            break
    internal = {rules.names[r] for r in rules.internal}
    held = {name: count for name, count in env.unwrapped.inventory().items() if name not in internal}
    assert ast.literal_eval(_line(obs, "Inventory")[len("Inventory: "):]) == held
    assert not any(name in obs for name in INTERNAL)
