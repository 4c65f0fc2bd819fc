"""A reset that starts an agent's episode again in the running server plays as one on a fresh server.

The optimal agent plays a task on a fresh server, then again after a reset in the same server: the start it sees
(inventory, place, health, time, the nodes around, the kinds of mobs), the plan it plays, whether the runtime
judges the task done, its judged progress and the Python evaluator's replay are the same both times. A server that
died, or a start the server cannot give back whole (the player died), makes the reset start a fresh server.
"""

from __future__ import annotations

import json
import os
import signal
from typing import Any

import pytest

from engine_support import assert_solved, need_engine
from taskverse.engine.episode import EngineEpisode, Observation
from taskverse.engine.runner import EpisodeReport


def _start_of(observation: Observation) -> dict[str, object]:
    """What a start must give back: mobs wander from where they were summoned, so of them only kind and count."""
    data = observation.model_dump(mode="json", exclude={"entities", "drops"})
    data["entities"] = {name: seen.count for name, seen in observation.entities.items()}
    return data


def _played(report: object) -> list[tuple[object, object]]:
    return [(step.get("do"), step.get("ok")) for step in report.steps]  # type: ignore[attr-defined]


# from scratch, trees and stone are dug and a furnace is placed and burns: the map the next episode needs is changed
@pytest.mark.parametrize(("task_id", "game"), [("naive(craft.wooden_pickaxe)", "minetest_game"),
                                               ("hunt.cow", "minetest_game"),
                                               ("naive(smelt.iron_ingot)", "taskverse_mc")])
def test_an_episode_started_again_in_the_running_server_plays_as_on_a_fresh_one(library, task_id, game):
    need_engine(client=True)
    from taskverse.engine.adapter import play
    from taskverse.textenv.agents import make_agent

    with EngineEpisode(task_id, library=library, game=game) as episode:
        fresh = play(episode, make_agent("optimal"), stop=False)
        fresh_start = episode.first
        server = episode._run.process.pid
        again = play(episode, make_agent("optimal"), stop=False)
        assert episode.last_reset == "restart", episode.refused_restart
        assert episode._run.process.pid == server and episode.server_starts == 1
        again_start = episode.first
    assert fresh_start is not None and again_start is not None
    assert _start_of(again_start.observation) == _start_of(fresh_start.observation)
    assert_solved(fresh)
    assert_solved(again)
    assert again.replay is not None and fresh.replay is not None
    assert (again.progress, again.replay.progress) == (fresh.progress, fresh.replay.progress)
    assert _played(again) == _played(fresh)
    assert [e["game_event"]["event"] for e in again.events] == [e["game_event"]["event"] for e in fresh.events]


def test_a_start_the_server_cannot_give_back_or_a_dead_server_gets_a_fresh_one(library):
    need_engine(client=True)
    with EngineEpisode("craft.stick", library=library) as episode:
        episode.reset()
        episode.step({"do": "die"})
        first = episode.reset()
        assert episode.last_reset == "fresh" and episode.refused_restart == "the player is dead"
        assert first.observation.inventory == {"default:wood": 2} and first.observation.health > 0
        os.killpg(episode._run.process.pid, signal.SIGKILL)  # the server dies between two episodes
        episode.reset()
        assert episode.last_reset == "fresh" and episode.server_starts == 3
        result = episode.step({"do": "craft", "item": "default:stick"})
        assert result.success


def _verdict(r: EpisodeReport) -> tuple[object, ...]:
    """What an episode of a scripted plan must report the same on a fresh server and after a restart."""
    return (r.success, r.progress, r.plan_completed, r.stopped_on_success, r.failed_step, r.plan_error, _played(r),
            [e["game_event"]["event"] for e in r.events], r.replay is not None and r.replay.agrees, r.error)


def test_the_scripted_players_plans_of_one_task_play_in_one_server_as_on_fresh_ones(library):
    need_engine(client=True)
    from taskverse.algebra.molecule import build_molecule
    from taskverse.algebra.parse import parse_expression
    from taskverse.engine.compiler import compile_task
    from taskverse.engine.harness import Plan, Step
    from taskverse.engine.planner import plan_task
    from taskverse.engine.runner import run_episode, run_jobs, run_plans

    task = build_molecule(parse_expression("naive(craft.wooden_pickaxe)"), library)
    ir = compile_task(task, library, "minetest_game")
    plan = plan_task(task, ir, library)
    short = Plan(steps=plan.steps[: len(plan.steps) // 2])  # trees dug, the pickaxe not made: not done
    plans = [plan, short, plan]
    chained = run_plans(task, ir, plans, library=library)
    assert [r.restarted for r in chained] == [False, True, True]
    fresh = [run_episode(task, ir, p, library=library) for p in plans]
    assert [_verdict(r) for r in chained] == [_verdict(r) for r in fresh]
    assert [r.success for r in chained] == [True, False, True]
    # a player killed by its plan cannot be given its start back in that server: the next plan gets a fresh one
    stick = library.get("craft.stick")
    stick_ir = compile_task(stick, library, "minetest_game")
    dying = Plan(steps=[Step(do="die")])
    jobs = [(stick, stick_ir, dying), (stick, stick_ir, plan_task(stick, stick_ir, library))]
    reports = run_jobs(jobs, library=library, parallel=1)
    assert [r.restarted for r in reports] == [False, False] and reports[1].success
    assert reports[0].refused_restart is None and reports[1].refused_restart  # the harness's reason, said
    assert [r.restarted for r in run_jobs(jobs[1:] * 2, library=library, parallel=1)] == [False, True]


SERVER_FIELDS = ("run", "timings", "server", "servers_started", "wall_seconds", "mean_episode_seconds",
                 "episodes_per_minute", "y", "clock", "moves")


def _same_but_for_servers(value: Any) -> Any:
    """An engine run's report without what a new server or a restart changes: timings, the game time at which
    things happened and the player's height then (it settles on the ground after each move by the clock), whether a
    move held the player in the air until the map under it was generated and how many tries it took (a restarted
    server has the map already), which server played an episode and how many were started."""
    if isinstance(value, list):
        return [_same_but_for_servers(v) for v in value]
    if isinstance(value, dict):
        return {k: _same_but_for_servers(v) for k, v in value.items()
                if k not in SERVER_FIELDS and not (k == "time" and isinstance(v, float | int))
                and not (k == "held" and isinstance(v, bool))}  # a step's hold; an event's held item stays
    return value


def test_engine_run_plays_its_episodes_in_one_server_as_on_a_fresh_server_each():
    need_engine(client=True)
    from click.testing import CliRunner

    from taskverse.cli.engine import engine

    args = ["run", "naive(craft.wooden_pickaxe)", "--episodes", "3", "--format", "json"]
    one = CliRunner().invoke(engine, args)
    each = CliRunner().invoke(engine, [*args, "--fresh-server"])
    assert one.exit_code == 0 and each.exit_code == 0, one.output + each.output
    chained, fresh = json.loads(one.stdout), json.loads(each.stdout)
    assert [e["server"] for e in chained["episodes"]] == ["fresh", "restart", "restart"]
    assert [e["server"] for e in fresh["episodes"]] == ["fresh", "fresh", "fresh"]
    assert (chained["summary"]["servers_started"], fresh["summary"]["servers_started"]) == (1, 3)
    assert (chained["run"]["fresh_server"], fresh["run"]["fresh_server"]) == (False, True)
    assert chained["summary"]["successes"] == 3 and chained["summary"]["replay_agrees"] is True
    assert _same_but_for_servers(chained) == _same_but_for_servers(fresh)
