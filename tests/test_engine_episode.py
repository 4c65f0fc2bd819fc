"""Interactive episodes in the real engine: an agent acts a step at a time through the harness's own actions.

The optimal agent, sending its scripted plan a step at a time, solves compiled atoms and a molecule, with the
Python evaluator's replay agreeing; a bad action fails its step, never the server; an action the engine cannot
do fails honestly with the reason; the server is stopped whatever happens; ``taskverse/EngineSkills-v0`` passes
gymnasium's ``check_env``. The parts that need no engine (reading actions, candidates, the text view) come first.
"""

from __future__ import annotations

import doctest
import gc
import json
import os
import signal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_support import assert_solved, need_engine
from taskverse.engine.episode import EngineEpisode, Nearby, Observation, StepResult, parse_action
from taskverse.errors import TaskverseError

# --- without the engine ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("action", "reason"), [
    ("not json", "the action is not JSON"),
    ("[1, 2]", "an action is a JSON object"),
    ({"do": "fly"}, "unknown action 'fly'"),
    ({"do": "craft", "item": "stick", "colour": "red"}, "unknown field 'colour'"),
    ({"do": "craft"}, "craft needs item"),
    ({"do": "dig", "node": "no_such_block"}, "'no_such_block', which has no counterpart in minetest_game"),
    ({"do": "craft", "item": "stick", "count": 0}, "count"),
    ({"do": "cook", "item": "iron_ore", "fuel": "coal", "fuels": {"coal": 1}}, "fuel (one kind) or fuels"),
    ({"do": "cook", "item": "iron_ore", "fuels": {"coal": 0}}, "at least one item of each kind"),
    ("x" * 70_000, "longer than"),
])
def test_a_bad_action_is_refused_with_the_reason(action, reason):
    with pytest.raises(TaskverseError, match=None) as caught:
        parse_action(action, "minetest_game")
    assert reason in caught.value.message and "\n" not in caught.value.message


def test_an_action_in_minecraft_names_is_read_in_the_games():
    assert parse_action({"do": "dig", "node": "oak_log"}, "minetest_game").node == "default:tree"
    assert parse_action('{"do": "craft", "item": "default:stick"}', "minetest_game").item == "default:stick"
    cook = parse_action({"do": "cook", "item": "iron_ore", "fuels": {"oak_planks": 1, "stick": 1}}, "minetest_game")
    assert cook.fuels == {"default:wood": 1, "default:stick": 1}


def test_candidates_follow_the_inventory_and_what_is_around():
    from taskverse.engine.candidates import candidate_actions
    from taskverse.engine.profile import load_registry

    registry = load_registry()
    near = Nearby(count=3, nearest=(1, 8, 0), distance=1.5, reach=True, sight=True)
    far = Nearby(count=1, nearest=(6, 8, 0), distance=6.0, reach=False, sight=True)
    obs = Observation(inventory={"default:wood": 3, "default:apple": 1, "default:coal_lump": 1,
                                 "default:iron_lump": 1, "default:furnace": 1},
                      held="default:wood", nodes={"default:tree": near, "default:stone": far},
                      entities={"taskverse:cow": far}, drops={"default:dirt": near})
    candidates = candidate_actions(obs, registry)
    for wanted in [{"do": "craft", "item": "default:stick"}, {"do": "eat", "item": "default:apple"},
                   {"do": "cook", "item": "default:iron_lump"}, {"do": "dig", "node": "default:tree"},
                   {"do": "goto_node", "node": "default:stone", "radius": 8}, {"do": "kill", "entity": "taskverse:cow"},
                   {"do": "collect"}, {"do": "wield", "item": "default:apple"},
                   {"do": "place", "item": "default:wood"}]:
        assert wanted in candidates
    assert {"do": "wield", "item": "default:wood"} not in candidates  # already held
    assert {"do": "craft", "item": "default:pick_wood"} not in candidates  # no sticks
    for candidate in candidates:  # each one an action the episode accepts as it is
        parse_action(candidate, "minetest_game")


_REGISTRIES: dict[str, object] = {}


def _registry(game):
    from taskverse.engine.profile import load_registry

    if game not in _REGISTRIES:
        _REGISTRIES[game] = load_registry(game)
    return _REGISTRIES[game]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(["minetest_game", "taskverse_mc"]), data=st.data())
def test_the_craft_candidates_are_every_recipe_the_inventory_fills(game, data):
    from taskverse.engine.candidates import can_craft, candidate_actions

    registry = _registry(game)
    # items the recipes name (so inventories fill some), and a few of any kind
    named = sorted({cell for r in registry.recipes for cell in r.items if cell and not cell.startswith("group:")})
    held = data.draw(st.dictionaries(st.sampled_from(named), st.integers(1, 9), max_size=8))
    crafts = {c["item"] for c in candidate_actions(Observation(inventory=held), registry) if c["do"] == "craft"}
    assert crafts == {r.output for r in registry.recipes if r.method == "normal" and can_craft(r, held, registry)}


def test_the_text_view_is_printable_and_names_the_candidates():
    from taskverse.engine.gymenv import TEXT_CHARSET, observation_text

    result = StepResult(step=2, ok=False, error="no default:tree within 8 nodes", observation=Observation(
        inventory={"default:wood": 2}, nodes={"default:stone": Nearby(count=4, nearest=(0, 7, 0), distance=1.5,
                                                                      reach=True, sight=False)}),
                        candidates=[{"do": "dig", "node": "default:stone"}])
    text = observation_text(result, "craft a stick \u00e9", 2, 10)
    assert set(text) <= TEXT_CHARSET
    assert "Last action: failed: no default:tree within 8 nodes." in text
    assert '  0. dig default:stone {"do": "dig", "node": "default:stone"}' in text
    assert "default:stone x4, nearest at (0,7,0) 1.5 away in reach\n" in text


@pytest.mark.parametrize("module", ["taskverse.engine.episode", "taskverse.engine.candidates",
                                    "taskverse.engine.gymenv", "taskverse.engine.evaluation",
                                    "taskverse.engine.adapter", "taskverse.engine.frames",
                                    "taskverse.engine.chains"])
def test_docstring_examples(module):
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted >= 1 and result.failed == 0


def test_the_environment_is_registered_on_import():
    import gymnasium

    import taskverse  # noqa: F401

    assert "taskverse/EngineSkills-v0" in gymnasium.envs.registry


# --- in the engine -----------------------------------------------------------------------------------------

OPTIMAL = ["craft.stick", "craft.wooden_pickaxe", "mine.iron_ore", "smelt.iron_ingot", "hunt.cow", "eat.apple",
           "find.acacia_log"]


@pytest.mark.parametrize("task_id", OPTIMAL)
def test_the_optimal_agent_solves_an_atom_a_step_at_a_time(library, task_id):
    need_engine(client=True)
    from taskverse.engine.adapter import play
    from taskverse.textenv.agents import make_agent

    episode = EngineEpisode(task_id, library=library)
    report = play(episode, make_agent("optimal"))
    assert_solved(report)
    assert all(step["ok"] for step in report.steps), report.steps
    assert not episode.running


def test_the_optimal_agent_solves_a_molecule_in_the_generated_game(library):
    need_engine(client=True)
    from taskverse.algebra.expr import ref
    from taskverse.algebra.molecule import build_molecule
    from taskverse.engine.adapter import play
    from taskverse.textenv.agents import make_agent

    task = build_molecule(ref("craft.stick") >> ref("mine.stone"), library)
    episode = EngineEpisode(task, library=library, game="taskverse_mc")
    report = play(episode, make_agent("optimal"))
    assert_solved(report)


@pytest.fixture(scope="module")
def stick(library):
    """One episode of craft.stick for the checks below (each leaves it running for the next)."""
    need_engine(client=True)
    episode = EngineEpisode("craft.stick", library=library)
    yield episode, episode.reset()
    episode.close()


def test_the_first_observation_shows_the_start(stick):
    _, first = stick
    obs = first.observation
    assert first.step == 0 and first.ok and not first.done
    assert obs.inventory == {"default:wood": 2} and obs.health == obs.max_health > 0
    assert obs.dimension == "overworld" and obs.biome is not None and 0 <= obs.time_of_day < 1
    assert obs.task.outcome == "pending" and obs.task.progress == 0.0
    standing = obs.nodes  # the ground under the feet is counted, in reach
    assert any(seen.reach for seen in standing.values()) and all(seen.count >= 1 for seen in standing.values())
    assert {"do": "craft", "item": "default:stick"} in first.candidates


def test_a_bad_action_fails_the_step_not_the_server(stick):
    episode, first = stick
    before = episode.invalid_steps
    for bad in ["{", {"do": "craft", "item": "default:stick", "colour": "red"}, {"do": "teleport"}]:
        result = episode.step(bad)
        assert not result.ok and result.invalid and result.error and result.observation == first.observation
    assert episode.invalid_steps == before + 3 and episode.running


def test_an_action_the_engine_cannot_do_fails_with_the_reason(stick):
    episode, _ = stick
    result = episode.step({"do": "dig", "node": "default:diamondblock"})
    assert not result.ok and not result.invalid and result.error == "no default:diamondblock within 8 nodes"
    result = episode.step({"do": "craft", "item": "default:pick_stone"})
    assert not result.ok and result.error.startswith("cannot craft default:pick_stone")


def test_the_step_that_does_the_task_is_judged_by_the_runtime(stick):
    episode, _ = stick
    result = episode.step(json.dumps({"do": "craft", "item": "default:stick"}))
    assert result.ok and result.done and result.success and result.observation.task.progress == 1.0
    assert result.observation.inventory.get("default:stick") == 4
    report = episode.close()
    assert report is not None and report.success and report.replay is not None and report.replay.agrees
    assert [step.get("invalid", False) for step in report.steps] == [True, True, True, False, False, False]
    with pytest.raises(TaskverseError, match="call reset"):
        episode.step({"do": "wait"})


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not yet reaped) is not running
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False


def test_nothing_is_left_running_when_the_engine_dies_or_the_episode_is_dropped(library):
    need_engine(client=True)
    episode = EngineEpisode("craft.stick", library=library)
    episode.reset()
    run = episode._run
    pids = [run.process.pid, *(c.pid for c in run.clients)]
    folder = run.directory
    os.killpg(run.process.pid, signal.SIGKILL)  # the engine dies under the episode
    with pytest.raises(TaskverseError, match="step 1"):
        episode.step({"do": "wait", "seconds": 0})
    assert not episode.running and not any(_alive(pid) for pid in pids) and not folder.exists()
    report = episode.report
    assert report is not None and report.error is not None and report.error.startswith("step 1")

    episode = EngineEpisode("craft.stick", library=library)
    episode.reset()
    run = episode._run
    pids = [run.process.pid, *(c.pid for c in run.clients)]
    del episode, run
    gc.collect()  # an episode nobody closed: collected, its server stopped
    assert not any(_alive(pid) for pid in pids)


def test_engine_skills_passes_gymnasiums_check_env():
    need_engine(client=True)
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import taskverse  # noqa: F401

    env = gymnasium.make("taskverse/EngineSkills-v0", task="craft.stick", max_steps=5)
    try:
        check_env(env.unwrapped)
        episode = env.unwrapped.episode
        assert episode.restarts > 0 and episode.server_starts < episode.restarts  # resets reuse the server
        text, info = env.reset(seed=0)
        assert text.startswith("Task: craft stick.") and info["candidates"]
        text, reward, terminated, truncated, info = env.step('{"do": "fly"}')
        assert (reward, terminated, truncated, info["invalid_action"]) == (0.0, False, False, True)
        text, reward, terminated, truncated, info = env.step({"do": "craft", "item": "stick"})
        assert (reward, terminated, info["success"]) == (1.0, True, True), text
    finally:
        env.close()
    assert not env.unwrapped.episode.running


def test_engine_play_at_the_terminal_and_with_the_optimal_agent():
    need_engine(client=True)
    from click.testing import CliRunner

    from taskverse.cli.engine import engine

    # a person: an action that is not one, a number no candidate has, then the candidate that crafts the stick
    done = CliRunner().invoke(engine, ["play", "craft.stick", "--format", "json"],
                              input='{"do": "fly"}\n99\n{"do": "craft", "item": "stick"}\n')
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert report["success"] and report["invalid_steps"] == 2
    assert [s["invalid"] for s in report["steps"]] == [True, True, False]
    assert report["steps"][1]["error"].startswith("no candidate number 99")
    done = CliRunner().invoke(engine, ["play", "mine.iron_ore", "--agent", "optimal"])
    assert done.exit_code == 0, done.output
    assert "Progress: 1.00 (success)." in done.stdout and "> {" in done.stdout
    assert done.stderr.startswith("solved in ") and "replay agrees" in done.stderr


def test_the_optimal_agent_plans_again_from_what_it_holds_after_a_failed_step(library):
    need_engine(client=True)
    from taskverse.engine.adapter import EngineWorld
    from taskverse.textenv.agents import make_agent

    with EngineEpisode("craft.stick", library=library) as episode:
        world = EngineWorld(episode)
        agent = make_agent("optimal")  # the text world's agent, acting through the adapter
        world.begin(0)
        agent.reset(world, 0)
        course = agent.course
        assert [s.do for s in course.plan.steps] == ["craft"]
        result = world.reset(0)
        for _ in range(2):  # the planks its plan crafts from are placed away before it acts
            result = world.play(world.rules.add({"do": "place", "item": "default:wood"}))
            assert result.ok
        assert result.observation.inventory == {}
        while not result.done:
            result = world.turn(agent)
        assert result.success and course.replanned == 1
        assert "dig" in [s.do for s in course.plan.steps]  # the new plan gets wood first


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_screenshots_keep_a_first_person_frame_of_every_step_and_leave_nothing_running(library, tmp_path):
    need_engine(client=True)
    from taskverse.engine.frames import XVFB

    assert XVFB.exists(), "screenshots need Debian's xvfb (scripts/install-engine.sh installs it)"
    frames = tmp_path / "frames"
    with EngineEpisode("craft.stick", library=library, screenshots=frames, screen=(160, 120)) as episode:
        first = episode.reset()
        screen = episode._screen
        assert screen is not None and screen.process is not None
        pid = screen.process.pid
        result = episode.step({"do": "craft", "item": "stick"})
        assert result.success and first.frame and result.frame
    assert sorted(p.name for p in frames.iterdir()) == ["frame_00000.png", "frame_00001.png"]
    for path in frames.iterdir():
        assert _png_size(path.read_bytes()) == (160, 120)
    assert not _alive(pid)


def test_the_docs_example_runs_as_written():
    """docs/engine.md's EngineEpisode example runs in the real engine and solves craft.stick."""
    need_engine(client=True)
    import re

    from taskverse.paths import project_root

    text = (project_root() / "docs" / "engine.md").read_text()
    example = next(block for block in re.findall(r"```python\n(.*?)```", text, re.S) if "EngineEpisode(" in block)
    scope: dict[str, object] = {}
    exec(compile(example, "docs/engine.md", "exec"), scope)  # noqa: S102 - the documentation's own example
    assert scope["result"].success and scope["report"].success  # type: ignore[attr-defined]
