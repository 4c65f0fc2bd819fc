"""Shared by the engine tests: the engine's files, and what to do when they are missing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from conftest import HANG_GUARD
from taskverse.engine.binaries import CLIENT, SERVER
from taskverse.engine.harness import Plan
from taskverse.engine.runner import EpisodeReport

if TYPE_CHECKING:
    from collections.abc import Iterable

ROOT = Path(__file__).resolve().parent.parent
ENGINE_DIR = ROOT / "engine"
INSTALL = "scripts/install-engine.sh (make test runs it)"

ENGINE_TIMEOUT = HANG_GUARD
"""The time limit the engine tests give an episode (or a server run) that must end by itself: the engine's own
default (60 s) is a limit a loaded machine can reach, and a test must not fail because the machine is busy. Tests
of the limit itself (a run that never ends) pass their own small one."""


def need_engine(*tools: str, client: bool = False) -> None:
    """Skip when the engine (or a tool) is missing on a developer's machine; fail in CI, which installs it."""
    missing = [str(p) for p in [SERVER, *([CLIENT] if client else [])] if not p.exists()]
    missing += [tool for tool in tools if shutil.which(tool) is None]
    if not missing:
        return
    message = f"missing {', '.join(missing)}; install with {INSTALL}"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def run_engine_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``taskverse engine ARGS`` as a user would (no time limit here: the engine runs have their own).

    Until ``taskverse.cli.main`` registers the group (``main.add_command(engine)``), the group's own module runs it.
    """
    from taskverse.cli.app import main

    if "engine" in main.commands:
        command = [sys.executable, "-m", "taskverse.cli", "engine", *args]
    else:
        command = [sys.executable, "-m", "taskverse.cli.engine", *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT)


def assert_solved(report: EpisodeReport) -> None:
    """The episode ran without an engine error, the game judged the task done, and the Python evaluator's replay
    of the game's events agrees (each failure says what the engine, the plan or the replay reported)."""
    assert report.error is None, (report.error, report.engine_errors)
    assert report.success, (report.plan_error, report.events[-3:], report.summary())
    assert report.replay is not None and report.replay.agrees, report.summary()


PlanMaker = Callable[[Plan], Plan]
"""A wrong plan made from the task's scripted plan (the chest it opens swapped for another)."""


def play_in_engine(library: Any, game: str, played: Iterable[str | tuple[str, Any]],
                   wrong: Iterable[tuple[str, Any, list[dict[str, Any]] | PlanMaker]] = ()) -> dict[str, EpisodeReport]:
    """Play tasks in the engine two at a time: the reports by task id (or key).

    Each of ``played`` (a task id, or ``(key, task)`` for a task made in the test) with the scripted player's plan;
    each ``(key, task, wrong)`` of ``wrong`` with a plan that must not complete it: the steps of a plan written by
    hand, or a function from the task's scripted plan to the wrong plan. A task is compiled (and planned) once,
    however many plans play it.
    """
    from taskverse.engine.compiler import compile_task
    from taskverse.engine.planner import plan_task
    from taskverse.engine.runner import run_jobs

    compiled: dict[str, tuple[Any, Any]] = {}
    scripted: dict[str, Plan] = {}

    def ir_of(task: Any) -> Any:
        if task.id not in compiled or compiled[task.id][0] != task:
            compiled[task.id] = (task, compile_task(task, library, game))
            scripted.pop(task.id, None)
        return compiled[task.id][1]

    def plan_of(task: Any) -> Plan:
        ir = ir_of(task)
        if task.id not in scripted:
            scripted[task.id] = plan_task(task, ir, library)
        return scripted[task.id]

    jobs, keys = [], []
    for entry in played:
        key, task = (entry, library.get(entry)) if isinstance(entry, str) else entry
        jobs.append((task, ir_of(task), plan_of(task)))
        keys.append(key)
    for key, task, how in wrong:
        plan = how(plan_of(task)) if callable(how) else Plan.model_validate({"steps": how})
        jobs.append((task, ir_of(task), plan))
        keys.append(key)
    return dict(zip(keys, run_jobs(jobs, library=library, parallel=2, timeout=ENGINE_TIMEOUT), strict=True))
