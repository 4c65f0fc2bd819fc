"""docs/atoms.md's worked examples from scratch, played in the engine by the scripted player.

What a researcher tries first: ``naive(craft iron_sword)`` and its neighbours, compiled for the generated game
``taskverse_mc`` and played step by step from an empty inventory. Each must end with the game judging the task
done and the Python evaluator's replay of the game's events agreeing: the golden apple's smelts burn two kinds of
fuel in one cooking (a slab and a stick), the name tag's loot goes on to woodland mansions beyond one search's reach
until a chest holds the tag, and the cake's egg is laid by a chicken the player waits beside.

A job site placed beside a villager stands in the game, while the model still holds it (a kept need): when the
model burns it, the scripted player first digs it back, as a player would. The packed ice's 13 bookshelves are one
past a librarian's twelve (the offer's uses): the game's librarian refuses the thirteenth, so the scripted player
digs the lectern back and buys it of a second librarian.
"""

from __future__ import annotations

import pytest

from engine_support import ENGINE_TIMEOUT, assert_solved, need_engine, play_in_engine
from taskverse.algebra.molecule import build_molecule
from taskverse.algebra.parse import parse_expression
from taskverse.engine.compiler import compile_task
from taskverse.engine.harness import Plan, Step
from taskverse.engine.planner import plan_task
from taskverse.engine.runner import run_jobs

GAME = "taskverse_mc"

#: The worked examples that fit in an episode, with the step each plan ends on (the goal's own).
PLAYED = {
    "naive(craft.iron_sword)": "craft",
    "naive(craft.enchanting_table)": "craft",
    "naive(obtain.saddle)": "loot",
    "naive(brew.potion_of_healing)": "brew",
    "naive(craft.golden_apple)": "craft",
    "naive(obtain.name_tag)": "loot",
    "naive(craft.cake)": "craft",
    "naive(craft.packed_ice)": "craft",
}
#: More woodland mansions' chests than lie within one search's reach of the first (four on the test's map): a loot
#: finds another structure further out, as the text world's find does.
MANSIONS = 8


def _task(library, expression):
    return build_molecule(parse_expression(expression), library)


@pytest.fixture(scope="module")
def played(library):
    need_engine(client=True)
    return play_in_engine(library, GAME, [(expression, _task(library, expression)) for expression in PLAYED])


@pytest.mark.parametrize("expression", PLAYED)
def test_a_worked_example_from_scratch_succeeds_in_the_engine_and_the_replay_agrees(played, expression):
    report = played[expression]
    assert_solved(report)
    assert report.plan_error is None
    assert all(step["ok"] for step in report.steps), report.steps
    assert report.steps[-1]["do"] == PLAYED[expression]


def test_a_job_site_the_model_burns_is_dug_back_from_beside_its_villager_first(library):
    # the farmer's composter is placed for the apples' trades; the gold's smelting later burns it
    task = _task(library, "naive(craft.golden_apple)")
    steps = plan_task(task, compile_task(task, library, GAME), library).steps
    placed = next(i for i, s in enumerate(steps) if s.do == "place" and s.item == "minecraft:composter")
    burned = next(i for i, s in enumerate(steps) if s.do == "cook" and "minecraft:composter" in (s.fuels or {}))
    dug = [i for i, s in enumerate(steps) if s.do == "dig" and s.node == "minecraft:composter"]
    assert len(dug) == 1 and placed < dug[0] < burned
    assert steps[dug[0] - 1].do == "goto_node" and steps[dug[0] - 1].node == "minecraft:composter"


def test_the_packed_ice_buys_its_thirteenth_bookshelf_of_a_second_librarian(played, library):
    report = played["naive(craft.packed_ice)"]
    task = _task(library, "naive(craft.packed_ice)")
    steps = plan_task(task, compile_task(task, library, GAME), library).steps
    done = [(steps[s["index"] - 1], s["ok"]) for s in report.steps]  # the record numbers the plan's steps from 1
    trades = [i for i, (s, ok) in enumerate(done) if s.do == "trade" and s.item == "minecraft:bookshelf" and ok]
    assert sum(done[i][0].count or 1 for i in trades) == 13
    dug = next(i for i, (s, ok) in enumerate(done) if s.do == "dig" and s.node == "minecraft:lectern" and ok)
    first = [i for i in trades if i < dug]
    assert sum(done[i][0].count or 1 for i in first) == 12  # the first librarian's twelve, then its offer locked
    assert any(s.do == "spawn" and s.entity == "minecraft:villager" for s, _ in done[dug:trades[-1]])


def test_a_cook_step_burns_every_kind_of_fuel_the_model_burns_in_one_cooking(library):
    # the model's smelt takes k items of any fuel burning cooktime / k: a slab and a stick fuel one cooking (7.5 s
    # and 5 s of 10 s), and the step gives both, so the harness burns both
    task = _task(library, "naive(craft.golden_apple)")
    steps = plan_task(task, compile_task(task, library, GAME), library).steps
    cooks = [s for s in steps if s.do == "cook"]
    assert all(s.fuel is None and s.fuels for s in cooks)
    assert any(len(s.fuels or {}) > 1 for s in cooks)


def test_a_loot_step_opens_structures_beyond_one_search_s_reach(library):
    need_engine(client=True)
    task = _task(library, "naive(obtain.name_tag)")
    ir = compile_task(task, library, GAME)
    scripted = plan_task(task, ir, library).steps
    loot = next(s for s in scripted if s.do == "loot")
    # the scripted plan's way to the first mansion, then MANSIONS chests opened whatever they hold
    opening = Step(do="loot", node=loot.node, count=MANSIONS, radius=loot.radius, y=loot.y, vertical=loot.vertical)
    plan = Plan(steps=[*scripted[:scripted.index(loot)], opening])
    (report,) = run_jobs([(task, ir, plan)], library=library, parallel=1, timeout=ENGINE_TIMEOUT)
    assert report.error is None, (report.error, report.engine_errors)
    assert report.plan_error is None and report.steps[-1]["ok"], report.steps[-1]
    assert report.steps[-1]["opened"] == MANSIONS
