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


def test_local_and_ray_runs_play_the_same_chains_with_the_same_timeout(monkeypatch, library):
    played: list[tuple[int, float]] = []

    def fake_plans(task: Any, ir: Any, plans: list[Plan], *, timeout: float, **_: Any):
        played.append((len(plans), timeout))
        return [_report(1) for _ in plans]

    monkeypatch.setattr(runner, "run_plans", fake_plans)
    reports = run_episodes(library.get("craft.stick"), None, LONG, library=library, episodes=5,  # type: ignore[arg-type]
                           parallel=2, timeout=60.0)
    assert sorted(played) == [(2, 60.0), (3, 60.0)]  # two chains, each episode's budget added by run_plans
    assert [r.episode for r in reports] == [1, 2, 3, 4, 5]

    sent: list[Any] = []

    def fake_run_jobs(function: Any, arguments: list[Any], backend: Any):
        sent.extend(arguments)
        return [(i, [_report(k) for k in arguments[i][3]]) for i in range(len(arguments))]

    monkeypatch.setattr(jobs, "run_jobs", fake_run_jobs)
    backend = type("Ray", (), {"ray": True, "workers": 2})()
    reports = jobs.run_engine_episodes(library.get("craft.stick"), None, LONG, library=library,  # type: ignore[arg-type]
                                       episodes=5, backend=backend, timeout=60.0)
    assert [(arguments[3], arguments[4]) for arguments in sent] == [([1, 2, 3], 60.0), ([4, 5], 60.0)]
    assert [r.episode for r in reports] == [1, 2, 3, 4, 5]


def test_with_a_fresh_server_each_every_episode_is_a_chain_of_its_own(monkeypatch, library):
    chains: list[int] = []

    def fake_plans(task: Any, ir: Any, plans: list[Plan], **_: Any):
        chains.append(len(plans))
        return [_report(1) for _ in plans]

    monkeypatch.setattr(runner, "run_plans", fake_plans)
    run_episodes(library.get("craft.stick"), None, LONG, library=library, episodes=3,  # type: ignore[arg-type]
                 fresh_server=True)
    assert chains == [1, 1, 1]
    chains.clear()
    run_episodes(library.get("craft.stick"), None, LONG, library=library, episodes=3)  # type: ignore[arg-type]
    assert chains == [3]


def test_a_refused_restart_is_said_on_the_episode_that_got_a_new_server(monkeypatch, library):
    servers: list[int] = []

    def fake_server(task: Any, ir: Any, plans: list[Plan], **_: Any):
        servers.append(len(plans))
        if len(servers) == 1:  # the first server plays one episode, then cannot give the start back
            return [_report(1)], "the map changed beyond what the runtime puts back"
        return [_report(1).model_copy(update={"server": "restart" if i else "fresh"}) for i in range(len(plans))], None

    monkeypatch.setattr(runner, "_plans_in_one_server", fake_server)
    reports = runner.run_plans(library.get("craft.stick"), None, [LONG] * 3, library=library)  # type: ignore[arg-type]
    assert servers == [3, 2]
    assert [r.server for r in reports] == ["fresh", "fresh", "restart"]
    assert [r.refused_restart for r in reports] == [None, "the map changed beyond what the runtime puts back", None]
    assert "server: fresh; no restart: the map changed" in reports[1].summary()
    assert "server: restart)" in reports[2].summary()


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
