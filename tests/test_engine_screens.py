"""A block's screen opened in the generated game (taskverse_mc): a right-click on a chest or a crafting table opens
it (the node's on_rightclick, from ``screens.yaml``), which the runtime logs as the block's interact event and the
task counts; a punch opens nothing and counts nothing."""

from __future__ import annotations

import pytest

from engine_support import ENGINE_TIMEOUT, assert_solved, need_engine
from taskverse.engine.compiler import compile_task
from taskverse.engine.harness import Plan, Step
from taskverse.engine.planner import plan_task
from taskverse.engine.runner import run_jobs

GAME = "taskverse_mc"
TASKS = ("open.chest", "interact.crafting_table")


@pytest.fixture(scope="module")
def played(library):
    """Each task with the planner's plan, and with its block punched instead of right-clicked."""
    need_engine(client=True)
    jobs, keys = [], []
    for task_id in TASKS:
        task = library.get(task_id)
        ir = compile_task(task, library, GAME)
        node = f"minecraft:{task.goal.target}"
        punched = Plan(steps=[Step(do="interact", node=node, radius=6, punch=True), Step(do="wait", seconds=0.6)])
        jobs += [(task, ir, plan_task(task, ir, library)), (task, ir, punched)]
        keys += [task_id, f"punched:{task_id}"]
    return dict(zip(keys, run_jobs(jobs, library=library, parallel=2, timeout=ENGINE_TIMEOUT), strict=True))


@pytest.mark.parametrize("task_id", TASKS)
def test_the_screen_opened_completes_the_task(played, task_id):
    report = played[task_id]
    assert_solved(report)
    target = task_id.split(".", 1)[1]
    opened = [e["game_event"] for e in report.events if e["game_event"]["event"] == "interact"]
    assert opened and opened[0]["target"] == target


@pytest.mark.parametrize("task_id", TASKS)
def test_a_punch_opens_nothing(played, task_id):
    report = played[f"punched:{task_id}"]
    assert report.error is None, report.engine_errors
    assert report.plan_completed and not report.success, report.summary()
    assert not [e for e in report.events if e["game_event"]["event"] == "interact"]
