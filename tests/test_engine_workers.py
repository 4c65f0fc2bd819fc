"""Engine episodes on the shared worker pool: a local Ray instance gives the report a local run gives.

One local Ray instance serves the module (started here, as a long-lived driver would, so the second command finds
its actors up); the commands run in-process. Starting Ray from a command and shutting it down again is
``test_workers_ray``'s, and a command run as a user runs it is ``test_engine_proofs``'.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import local_ray as running_ray
from engine_support import ENGINE_TIMEOUT, need_engine

TIMING_FIELDS = ("wall_seconds", "mean_episode_seconds", "episodes_per_minute", "y")


def _untimed(value: Any) -> Any:
    """A report without what depends on the clock: timings, the game time at which things happened, and the
    player's height then (a player that has just joined may still be settling on the ground)."""
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items()
                if k not in ("run", "timings", *TIMING_FIELDS) and not (k == "time" and isinstance(v, float | int))}
    return value


@pytest.fixture(scope="module")
def local_ray():
    need_engine(client=True)
    pytest.importorskip("ray")
    with running_ray():
        yield


def _engine(*args: str):
    from click.testing import CliRunner

    from taskverse.cli.engine import engine

    return CliRunner().invoke(engine, list(args))


def test_engine_episodes_on_a_local_ray_instance_report_as_a_local_run(local_ray):
    args = ("run", "craft.stick", "--episodes", "2", "--parallel", "2", "--timeout", str(ENGINE_TIMEOUT), "--format",
            "json")
    local = _engine(*args)
    on_ray = _engine(*args, "--ray")
    assert local.exit_code == 0, local.output
    assert on_ray.exit_code == 0 and "Traceback" not in on_ray.stderr, on_ray.output
    here, there = json.loads(local.stdout), json.loads(on_ray.stdout)
    assert here["run"] == {"backend": "local", "workers": 2, "fresh_server": False}
    assert there["run"] == {"backend": "ray", "address": "local", "workers": 2, "fresh_server": False}
    assert [e["episode"] for e in there["episodes"]] == [1, 2]
    assert there["summary"]["successes"] == 2 and there["summary"]["replay_agrees"] is True
    assert _untimed(there) == _untimed(here)


def _without_clock(value: Any) -> Any:
    """An engine eval report without what depends on the clock or the backend (seconds, wall time, run)."""
    if isinstance(value, list):
        return [_without_clock(v) for v in value]
    if isinstance(value, dict):
        return {k: _without_clock(v) for k, v in value.items() if k not in ("run", "seconds", "wall_seconds")}
    return value


def test_engine_eval_on_a_local_ray_instance_reports_as_a_local_run(local_ray):
    # two episodes of each task: a chain of two on each worker, the second started again in the first's server
    args = ("eval", "--tasks", "craft.stick", "--tasks", "mine.stone", "--agent", "optimal", "--workers", "2",
            "--episodes", "2", "--format", "json")
    local = _engine(*args)
    on_ray = _engine(*args, "--ray")
    assert local.exit_code == 0, local.output
    assert on_ray.exit_code == 0 and "Traceback" not in on_ray.stderr, on_ray.output
    here, there = json.loads(local.stdout), json.loads(on_ray.stdout)
    assert here["run"]["backend"] == "local" and there["run"]["backend"] == "ray"
    assert there["summary"]["successes"] == 4 and there["summary"]["replay_agrees"] is True
    assert there["summary"]["restarted_in_server"] == 2 and there["summary"]["servers_started"] == 2
    assert _without_clock(there) == _without_clock(here)
