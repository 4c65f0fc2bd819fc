"""Mobs that never spawn by themselves, brought about by a player's action (``mobs.yaml``: ``brought_by``): an
endermite from an ender pearl thrown, vexes from an evoker met. Their find atoms, the fights, traps and hooks that
follow, one meaning for the world's rules (a find counts the mob only when it came), the fast path and the
planner, and the phrases of a published list."""

import numpy as np
import pytest

from phrase_support import reads_as
from stepping_support import assert_fast_path_agrees
from taskverse.textenv.plans import plan_task
from taskverse.world.graph import way_yields, ways_of


def test_an_endermite_comes_from_one_ender_pearl_in_twenty(library):
    # Minecraft Wiki, Endermite#Spawning: a thrown ender pearl spawns one where it lands with a 5% chance.
    task = library.get("find.endermite")
    (way,) = ways_of(task)
    assert [(n.any_of, n.count, n.kept) for n in way] == [(["ender_pearl"], 1, False)]
    (given,) = way_yields(task)[0]
    assert (given.kind.value, given.name, given.chance) == ("entity", "endermite", 0.05)


def test_an_evoker_met_summons_three_vexes_and_stays(library):
    task = library.get("find.vex")
    (way,) = ways_of(task)
    assert [(n.kind.value, n.any_of, n.kept) for n in way] == [("entity", ["evoker"], True)]
    (given,) = way_yields(task)[0]
    assert (given.name, given.count, given.chance) == ("vex", 3, 1.0)


@pytest.mark.parametrize("mob", ["endermite", "vex"])
def test_a_brought_mob_is_fought_trapped_and_hooked_as_a_spawned_one(library, mob):
    assert {f"combat.{mob}", f"trap.{mob}", f"hook.{mob}"} <= set(library.by_id)
    assert library.get(f"combat.{mob}").goal.target == mob


def test_a_find_by_chance_counts_the_mob_only_when_it_came(rules):
    # Sampled: most pearls land with no endermite, and those tries find none; the one that brings it finds it.
    a = rules.action_index["find.endermite"]
    state = rules.new_state({"ender_pearl": 64})
    found = []
    for seed in range(64):
        events = rules.act(state, a, rng=np.random.default_rng(seed))
        found.append(any(e[:2] == ("find", "endermite") for e in events))
        if found[-1]:
            break
    assert found[-1] and not all(found)
    assert state.counts[rules.index[("entity", "endermite")]] >= 1


def test_a_find_by_chance_steps_the_same_in_the_fast_path(rules):
    assert_fast_path_agrees(rules, {"ender_pearl": 30}, ["find.endermite"] * 30, seeded=True)
    assert_fast_path_agrees(rules, {"iron_sword": 1}, ["find.vex", "combat.vex"], [("entity", "evoker")])


@pytest.mark.parametrize(("task", "before"), [
    ("combat.endermite", "find.endermite"),   # ender pearls thrown until one brings an endermite
    ("combat.vex", "find.evoker"),            # a woodland mansion's evoker met, its vexes fought
    ("trap.vex", "find.vex"),
])
def test_a_plan_from_nothing_brings_the_mob_about_first(library, task, before):
    plan = plan_task(f"naive({task})", library, "steps").actions
    assert plan[-1] == task and before in plan[:-1]


def test_a_plan_throws_the_pearls_a_5_percent_chance_takes(library):
    # The world counts on a chance yield at the 95% level (world.chance): 59 pearls for one endermite.
    plan = plan_task("naive(combat.endermite)", library, "steps").actions
    assert plan.count("find.endermite") == 59


@pytest.mark.parametrize(("text", "expected"), [
    ("combat a endermite", "combat.endermite"),
    ("combat a vex", "combat.vex"),
    ("trap an endmite with a boat", "init(trap.endermite, main_hand=oak_boat)"),
    ("trap a vex with a boat", "init(trap.vex, main_hand=oak_boat)"),
])
def test_the_published_endermite_and_vex_lines_read(text, expected):
    assert reads_as(text, expected)
