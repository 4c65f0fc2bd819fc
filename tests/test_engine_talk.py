"""A villager talked to in the generated game (taskverse_mc): the right-click on the mob that the game counts as
``talked_to_villager`` (``statistics.yaml``) is the runtime's interact event on the villager, which ``talk.villager``
counts; a villager killed is no talk."""

from __future__ import annotations

import pytest

from engine_support import ENGINE_TIMEOUT, assert_solved, need_engine
from taskverse.engine.compiler import compile_task
from taskverse.engine.harness import Plan, Step
from taskverse.engine.planner import plan_task
from taskverse.engine.runner import run_jobs

GAME = "taskverse_mc"
VILLAGER = "minecraft:villager"


@pytest.fixture(scope="module")
def played(library):
    """``talk.villager`` with the planner's plan, and with the villager killed instead of right-clicked."""
    need_engine(client=True)
    task = library.get("talk.villager")
    ir = compile_task(task, library, GAME)
    hit = Plan(steps=[Step(do="kill", entity=VILLAGER, radius=8), Step(do="wait", seconds=0.6)])
    jobs = [(task, ir, plan_task(task, ir, library)), (task, ir, hit)]
    return dict(zip(["talked", "hit"], run_jobs(jobs, library=library, parallel=2, timeout=ENGINE_TIMEOUT),
                    strict=True))


def test_the_villager_right_clicked_completes_the_task(played):
    report = played["talked"]
    assert_solved(report)
    talked = [e["game_event"] for e in report.events if e["game_event"]["event"] == "interact"]
    assert talked and talked[0]["target"] == "villager"


def test_a_villager_killed_is_no_talk(played):
    report = played["hit"]
    assert report.error is None, report.engine_errors
    assert not report.success, report.summary()
    assert not [e for e in report.events if e["game_event"]["event"] == "interact"]
