"""Shared by the engine tests: the engine's files, and what to do when they are missing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from conftest import HANG_GUARD
from taskverse.engine.binaries import CLIENT, SERVER
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


def play_in_engine(library: Any, game: str, played: Iterable[str],
                   wrong: Iterable[tuple[str, Any, list[dict[str, Any]]]] = ()) -> dict[str, EpisodeReport]:
    """Each task of ``played`` with the scripted player's plan, and each ``(key, task, steps)`` of ``wrong`` with a
    plan written by hand that must not complete it, run in the engine two at a time: the reports by task id (or key)."""
    from taskverse.engine.compiler import compile_task
    from taskverse.engine.harness import Plan
    from taskverse.engine.planner import plan_task
    from taskverse.engine.runner import run_jobs

    jobs, keys = [], []
    for task_id in played:
        task = library.get(task_id)
        ir = compile_task(task, library, game)
        jobs.append((task, ir, plan_task(task, ir, library)))
        keys.append(task_id)
    for key, task, steps in wrong:
        jobs.append((task, compile_task(task, library, game), Plan.model_validate({"steps": steps})))
        keys.append(key)
    return dict(zip(keys, run_jobs(jobs, library=library, parallel=2, timeout=ENGINE_TIMEOUT), strict=True))
