"""How runs of engine episodes are budgeted and interrupted, with stand-in episodes (no engine needed)."""

from __future__ import annotations

import json
import os
import signal
import threading
from typing import Any

import pytest

from taskverse.engine import jobs, runner
from taskverse.engine.harness import Plan, Step
from taskverse.engine.runner import Interrupted, Timings, episode_budget, run_episodes

LONG = Plan(steps=[Step(do="wait", seconds=0.1)] * 607)  # as long as 2 * obtain.nether_gold_ore's plan


def _report(episode: int) -> runner.EpisodeReport:
    return runner.EpisodeReport(task="craft.stick", episode=episode, success=True, timings=Timings(total=0.0))


def test_an_episode_may_take_longer_the_longer_its_plan():
    assert episode_budget(60.0, Plan(steps=[])) == 60.0
    assert episode_budget(60.0, LONG) == 60.0 + runner.STEP_SECONDS * 607


def test_local_and_ray_runs_give_each_episode_the_plans_budget(monkeypatch, library):
    given: list[float] = []

    def fake_episode(task: Any, ir: Any, plan: Plan, *, timeout: float, episode: int = 1, **_: Any):
        given.append(timeout)
        return _report(episode)

    monkeypatch.setattr(runner, "run_episode", fake_episode)
    run_episodes(library.get("craft.stick"), None, LONG, library=library, episodes=2, parallel=2,  # type: ignore[arg-type]
                 timeout=60.0)
    assert given == [episode_budget(60.0, LONG)] * 2

    sent: list[Any] = []

    def fake_run_jobs(function: Any, arguments: list[Any], backend: Any):
        sent.extend(arguments)
        return [(i, _report(i + 1)) for i in range(len(arguments))]

    monkeypatch.setattr(jobs, "run_jobs", fake_run_jobs)
    backend = type("Ray", (), {"ray": True, "workers": 2})()
    jobs.run_engine_episodes(library.get("craft.stick"), None, LONG, library=library, episodes=2,  # type: ignore[arg-type]
                             backend=backend, timeout=60.0)
    assert [arguments[-1] for arguments in sent] == [episode_budget(60.0, LONG)] * 2


def test_ctrl_c_keeps_the_reports_of_the_episodes_that_finished(monkeypatch):
    from taskverse.engine import binaries

    released = threading.Event()

    def fake_stop_all(grace: float = 0.0) -> int:
        released.set()  # the engines of the running episodes end: so does the stand-in episode
        return 1

    monkeypatch.setattr(binaries, "stop_all", fake_stop_all)

    def one(job: int, home: Any) -> runner.EpisodeReport:
        if job == 2:  # the second episode is interrupted while it runs (one at a time: the first is done)
            os.kill(os.getpid(), signal.SIGINT)
            assert released.wait(timeout=600), "hang guard: the interrupt never stopped the run"
        return _report(job)

    previous = signal.getsignal(signal.SIGINT)
    try:
        with pytest.raises(Interrupted) as caught:
            runner.run_all(one, [1, 2, 3], 1)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert [r.episode for r in caught.value.reports] == [1]
    assert caught.value.total == 3
    assert isinstance(caught.value, KeyboardInterrupt)  # callers that know only Ctrl-C still stop


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_engine_run_prints_the_finished_episodes_when_interrupted(monkeypatch, fmt):
    from click.testing import CliRunner

    from taskverse.cli.engine import engine

    def interrupted(*_: Any, **__: Any):
        raise Interrupted([_report(1)], 3)

    monkeypatch.setattr(jobs, "run_engine_episodes", interrupted)
    previous = signal.getsignal(signal.SIGINT)
    try:
        result = CliRunner().invoke(engine, ["run", "craft.stick", "--episodes", "3", "--format", fmt])
    finally:
        signal.signal(signal.SIGINT, previous)
    assert result.exit_code == 130, result.output
    assert result.stderr.strip().splitlines()[-1] == "error: interrupted; every engine of the run was stopped"
    if fmt == "json":
        report = json.loads(result.stdout)
        assert report["interrupted"] == {"episodes": 3, "finished": 1}
        assert [e["episode"] for e in report["episodes"]] == [1] and report["summary"]["successes"] == 1
    else:
        assert result.stdout.startswith("episode 1: success")
        assert "1/1 succeeded of the 1 finished before the interrupt" in result.stderr


def test_the_timeout_help_says_what_a_step_adds():
    from click.testing import CliRunner

    from taskverse.cli.engine import engine

    help_text = " ".join(CliRunner().invoke(engine, ["run", "--help"]).output.split())
    assert f"besides {runner.STEP_SECONDS:g} s for each step of its plan" in help_text
