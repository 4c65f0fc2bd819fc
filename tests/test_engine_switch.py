"""Another task in the same server: a suite's next task starts where the last one ran, as on a fresh server.

The runtime reads the next task's data at the restart (its expression, its start, what it watches), puts the map
back as the last episode began, takes away the last start's blocks and objects and sets up the new start as a
fresh server does. Each task, played so after others, starts as it does on a fresh server and plays the same; a
task of another world (other mods, mobs or settings) gets a fresh server with the reason.
"""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any

import pytest

from engine_support import need_engine
from taskverse.engine.chains import chains, world_of
from taskverse.engine.episode import EngineEpisode, Observation


def _start_of(observation: Observation) -> dict[str, object]:
    """What a start must give: mobs wander from where they were summoned, so of them only kind and count; of the
    nodes around only their kinds (two fresh servers' map generators may place a tree's leaves a little apart); of
    the player's position the node it stands in, as the runtime checks a start (the client's last position update
    may still be landing when the first observation is taken: 8.9 where it stands at 8.5)."""
    data = observation.model_dump(mode="json", exclude={"entities", "drops", "nodes", "position"})
    data["position"] = [math.floor(v + 0.5) for v in observation.position]
    data["entities"] = {name: seen.count for name, seen in observation.entities.items()}
    data["nodes"] = sorted(observation.nodes)
    return data


def _played(report: Any) -> list[tuple[object, object]]:
    return [(step.get("do"), step.get("ok")) for step in report.steps]


def _events(report: Any) -> list[dict[str, object]]:
    """The events the runtime logged, what and where, but not when nor at which height (two fresh servers' trees
    differ a little, and a step lands when the machine's load lets it)."""
    return [{k: v for k, v in e["game_event"].items() if k not in ("clock", "y")} for e in report.events]


# a start with blocks placed around the player (the fence), one from scratch that digs trees and stone and places
# a crafting table, one whose start holds planks: each must find the map as a fresh server gives it
@pytest.mark.parametrize(("game", "tasks"), [
    ("minetest_game", ["mine.acacia_fence", "naive(craft.wooden_pickaxe)", "craft.stick", "mine.acacia_fence"]),
    ("taskverse_mc", ["naive(craft.wooden_pickaxe)", "craft.stick"]),
])
def test_tasks_following_one_another_in_one_server_play_as_on_fresh_servers(library, game, tasks):
    need_engine(client=True)
    from taskverse.engine.adapter import play
    from taskverse.textenv.agents import make_agent

    following: list[tuple[Any, Any]] = []
    with EngineEpisode(tasks[0], library=library, game=game) as episode:
        for i, task in enumerate(tasks):
            episode.use_task(task)
            report = play(episode, make_agent("optimal"), stop=False)
            assert episode.last_reset == ("fresh" if i == 0 else "restart"), episode.refused_restart
            assert episode.first is not None
            following.append((episode.first.observation, report))
        assert episode.server_starts == 1
    for task, (start, report) in zip(tasks, following, strict=True):
        with EngineEpisode(task, library=library, game=game) as fresh:
            alone = play(fresh, make_agent("optimal"), stop=False)
            assert fresh.first is not None
            assert _start_of(start) == _start_of(fresh.first.observation), task
        assert report.success and alone.success and report.replay.agrees, report.summary()
        assert report.progress == alone.progress and _played(report) == _played(alone), task
        assert _events(report) == _events(alone), task


def test_a_task_of_another_world_gets_a_fresh_server_with_the_reason(library):
    need_engine(client=True)
    with EngineEpisode("craft.stick", library=library) as episode:
        episode.reset()
        episode.use_task("breed.cow")  # the mobs API and a cow registered as the server starts
        first = episode.reset()
        assert episode.last_reset == "fresh" and "another world" in str(episode.refused_restart)
        assert "mobs:cow" in first.observation.entities or first.observation.entities, first.observation
        episode.use_task("breed.cow")  # the same task again: a plain restart
        episode.reset()
        assert episode.last_reset == "restart" and episode.server_starts == 2


def test_an_evaluations_chains_hold_the_tasks_of_one_world(library):
    from taskverse.engine.compiler import Compiler

    compiler = Compiler(library, "minetest_game")
    irs = {name: compiler.compile(library.get(name)) for name in ("craft.stick", "mine.stone", "breed.cow")}
    jobs = [SimpleNamespace(index=i, episode=k, ir=irs[name])
            for i, name in enumerate(["craft.stick", "breed.cow", "mine.stone"]) for k in range(2)]
    cut = chains(jobs, workers=1, key=world_of)
    assert [[(j.index, j.episode) for j in chain] for chain in cut] == [[(0, 0), (0, 1), (2, 0), (2, 1)],
                                                                         [(1, 0), (1, 1)]]
    assert len(chains(jobs, workers=2, key=world_of)) == 3
    assert len(chains(jobs, workers=1, key=world_of, fresh=True)) == 6
