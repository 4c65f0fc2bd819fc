"""Proof in the real engine: compiled tasks, played by a headless client, judged by the Lua runtime.

For a task of every verb the runtime supports, every operator (AND, OR, THEN, nested, N times, at least k, avoid,
time bounds), every constraint kind and naive initialization, the planner's plan succeeds and a wrong plan (a
missing step, the wrong order for THEN, a violated constraint, the wrong item, the avoided thing done, too slow)
does not; where the wrong plan makes the task fail for good (avoid, time bounds) the runtime ends the episode
with the failure outcome. In every episode the Python evaluator, replaying the events the
runtime logged, reaches the same verdict at the same event. All episodes run once, four at a time (a session
fixture); each case then checks its own report.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from engine_support import ENGINE_TIMEOUT, need_engine
from taskverse.algebra.expr import amount, at_least, custom, naive, ref
from taskverse.algebra.molecule import build_molecule
from taskverse.engine.compiler import compile_task
from taskverse.engine.harness import Plan, Step
from taskverse.engine.planner import plan_task
from taskverse.engine.runner import EpisodeReport, run_jobs

EQUIP_ATOM = """\
id: equip.test_stone_sword
description: hold a stone sword (test atom)
category: combat
verb: equip
initialization: {inventory: {stone_sword: 1, stick: 1}}
metrics: {success: {event: equip, target: stone_sword}}
"""


@dataclass(frozen=True)
class Case:
    """One episode: a task (an atom id or an expression builder), how to change the scripted plan, the verdict."""

    name: str
    task: Any
    expect: bool | str  # True: success; False: not done; "fail": the failure outcome
    plan: Callable[[Plan], Plan] | None = None
    game: str = "minetest_game"
    """The game it runs in: the generated game for what only it runs (items stored in its containers)."""


def steps(*raw: dict[str, Any]) -> Callable[[Plan], Plan]:
    """Replace the plan by these steps."""
    return lambda plan: Plan(steps=[Step(**s) for s in raw])


def without(action: str, which: int = 0) -> Callable[[Plan], Plan]:
    """Drop one step of an action (the ``which``-th of them; -1 the last)."""
    def change(plan: Plan) -> Plan:
        indexes = [i for i, s in enumerate(plan.steps) if s.do == action]
        assert indexes, f"the plan has no {action} step: {plan.steps}"
        drop = indexes[which]
        return Plan(steps=[s for i, s in enumerate(plan.steps) if i != drop])
    return change


def replacing(action: str, **fields: Any) -> Callable[[Plan], Plan]:
    """Change the fields of every step of an action."""
    def change(plan: Plan) -> Plan:
        assert any(s.do == action for s in plan.steps), f"the plan has no {action} step"
        return Plan(steps=[s.model_copy(update=fields) if s.do == action else s for s in plan.steps])
    return change


def first(*raw: dict[str, Any]) -> Callable[[Plan], Plan]:
    """Put these steps before the plan."""
    return lambda plan: Plan(steps=[*(Step(**s) for s in raw), *plan.steps])


def reversed_plan(plan: Plan) -> Plan:
    return Plan(steps=list(reversed(plan.steps)))


def equip_task(library: Any, tmp: Path) -> Any:
    from taskverse.library.loader import parse_task_file

    path = tmp / "equip_test.yaml"
    path.write_text(EQUIP_ATOM)
    return parse_task_file(path)[0].task


CASES = [
    # --- one task of every verb: the scripted plan succeeds, a wrong one does not ---------------------------
    Case("obtain", "obtain.iron_ingot", True),  # from an empty inventory: trees, tools, stone, iron, a furnace
    Case("craft", "craft.stick", True),
    Case("craft-wrong-item", "craft.wooden_pickaxe", False, replacing("craft", item="default:axe_wood")),
    Case("mine", "mine.iron_ore", True),
    Case("mine-wrong-tool", "mine.iron_ore", False, steps({"do": "wield", "item": ""},
                                                         {"do": "dig", "node": "default:stone_with_iron"})),
    Case("smelt", "smelt.iron_ingot", True),
    Case("smelt-missing-step", "smelt.iron_ingot", False, without("cook")),
    # a mobs_redo mob with the knowledge's hit points and mapped drops (played to the end: the drop is picked up)
    Case("kill", "hunt.sheep", True, lambda plan: plan.model_copy(update={"stop_on_success": False})),
    Case("kill-missing-step", "hunt.sheep", False, without("kill")),
    Case("find-biome", "find.desert", True),
    Case("find-block", "find.coal_ore", True),
    Case("place", "place.cobblestone", True),
    Case("place-wrong-item", "place.cobblestone", False, steps({"do": "craft", "item": "stairs:slab_cobble"})),
    Case("eat", "eat.apple", True),
    Case("use", "use.fill_water_bucket", True),
    Case("use-nothing-to-use-on", "use.fill_water_bucket", False, replacing("use", node=None, radius=None)),
    Case("use-placed-target", "use.ignite_tnt", True),
    Case("equip", "equip-yaml", True),
    Case("equip-wrong-item", "equip-yaml", False, steps({"do": "wield", "item": "default:stick"})),
    Case("reach-depth", "navigate.dig_down", True),
    Case("reach-block", "navigate.climb_tree", True),
    Case("interact", "use.loot_chest", True),
    Case("interact-entity", "use.ride_minecart", True),
    Case("interact-death", "commit.suicide", True),
    Case("build", "build.pillar", True),
    Case("build-missing-step", "build.pillar", False, without("place", -1)),
    Case("build-cube", "build.cube", True),
    Case("build-cube-missing-step", "build.cube", False, without("place", 13)),  # its middle cell left out
    Case("build-pyramid", "build.pyramid", True, game="taskverse_mc"),
    Case("build-pyramid-missing-step", "build.pyramid", False, without("place", -1), game="taskverse_mc"),  # no apex
    # --- operators ------------------------------------------------------------------------------------------
    Case("and", lambda: ref("craft.stick") & ref("mine.iron_ore"), True),
    Case("and-missing-part", lambda: ref("craft.stick") & ref("mine.iron_ore"), False, without("dig")),
    Case("or", lambda: ref("craft.stick") | ref("hunt.cow"), True),
    Case("or-other-part", lambda: ref("craft.stick") | ref("hunt.cow"), True,
         steps({"do": "kill", "entity": "taskverse:cow"})),
    Case("or-neither", lambda: ref("craft.stick") | ref("hunt.cow"), False,
         steps({"do": "craft", "item": "default:pick_wood"})),
    Case("then", lambda: ref("craft.oak_planks") >> ref("craft.stick"), True),
    # (planks >> stick starts without the stick's planks, which the first craft makes: its reversed plan cannot run)
    Case("then-wrong-order", lambda: ref("craft.stick") >> ref("craft.oak_planks"), False, reversed_plan),
    Case("nested", lambda: (ref("craft.stick") | ref("hunt.cow")) >> (ref("mine.iron_ore") & ref("eat.apple")),
         True),
    Case("nested-wrong-order", lambda: (ref("craft.stick") | ref("hunt.cow")) >> (ref("mine.iron_ore")
                                                                                & ref("eat.apple")), False,
         reversed_plan),
    # --- counts, at least k, avoid, time bounds: a wrong plan that makes the task fail ends the episode ------
    Case("repeat", lambda: 2 * ref("craft.stick"), True),
    Case("repeat-one-short", lambda: 2 * ref("craft.stick"), False, without("craft", -1)),
    # an amount adds up the items the events carry: two crafts of four sticks make eight
    Case("amount", lambda: amount(8, "craft.stick"), True),
    Case("amount-one-short", lambda: amount(8, "craft.stick"), False, without("craft", -1)),
    Case("at-least", lambda: at_least(2, "craft.stick", "mine.iron_ore", "eat.apple"), True),
    Case("at-least-too-few", lambda: at_least(2, "craft.stick", "mine.iron_ore", "eat.apple"), False,
         lambda plan: Plan(steps=plan.steps[:-1])),  # the planner picks two of the three; the second is left out
    Case("avoid", lambda: ref("craft.stick") & ~ref("commit.suicide"), True),
    Case("avoid-done-first", lambda: ref("craft.stick") & ~ref("commit.suicide"), "fail", first({"do": "die"})),
    Case("within", lambda: ref("craft.stick").within("5s"), True),
    Case("within-too-late", lambda: ref("craft.stick").within("5s"), "fail", first({"do": "wait", "seconds": 6})),
    Case("within-survived", lambda: (~ref("commit.suicide")).within("2s"), True, steps({"do": "wait", "seconds": 4})),
    Case("within-not-survived", lambda: (~ref("commit.suicide")).within("2s"), "fail",
         steps({"do": "die"}, {"do": "wait", "seconds": 4})),
    # --- constraints ----------------------------------------------------------------------------------------
    Case("when-night", lambda: ref("craft.stick").at(when="night"), True),
    Case("when-night-done-by-day", lambda: ref("craft.stick").at(when="night"), False,
         replacing("time", of_day="day")),
    Case("when-first-day", lambda: ref("craft.stick").at(when="first_day"), True),
    Case("when-clear", lambda: ref("craft.stick").at(when="clear"), True),  # minetest_game never rains
    Case("where-biome", lambda: ref("craft.stick").at(where="desert"), True),
    Case("where-biome-elsewhere", lambda: ref("craft.stick").at(where="desert"), False, without("goto_biome")),
    Case("where-cave", lambda: ref("mine.stone").at(where="cave"), True),
    Case("where-cave-in-the-open", lambda: ref("mine.stone").at(where="cave"), False, without("move")),
    Case("where-height", lambda: ref("craft.stick").at(where="height:30..40"), True),
    Case("where-height-too-low", lambda: ref("craft.stick").at(where="height:30..40"), False, without("move")),
    Case("where-overworld", lambda: ref("craft.stick").at(where="overworld"), True),
    Case("how-bare-hand", lambda: custom(ref("mine.oak_log"), inventory={"wooden_axe": 1}).at(how="bare_hand"),
         True),
    Case("how-bare-hand-with-a-tool", lambda: custom(ref("mine.oak_log"), inventory={"wooden_axe": 1})
         .at(how="bare_hand"), False, replacing("wield", item="default:axe_wood")),
    Case("how-with-item", lambda: custom(ref("mine.oak_log"), inventory={"wooden_axe": 1})
         .at(how="with:wooden_axe"), True),
    Case("how-with-item-bare-hand", lambda: custom(ref("mine.oak_log"), inventory={"wooden_axe": 1})
         .at(how="with:wooden_axe"), False, steps({"do": "wield", "item": ""}, {"do": "dig", "node": "default:tree"})),
    # --- an item stored in a container (taskverse_mc's chests hold slots; minetest_game's compile has no store) --
    Case("store", "store.cake", True, game="taskverse_mc"),
    Case("store-chest-only-placed", "store.cake", False,
         steps({"do": "place", "item": "minecraft:chest", "count": 1}, {"do": "wait", "seconds": 0.5}),
         game="taskverse_mc"),
    # --- naive initialization: planned from the game's own recipes, from an empty inventory -----------------
    Case("naive", lambda: naive(ref("craft.wooden_pickaxe")), True),
    Case("naive-missing-step", lambda: naive(ref("craft.wooden_pickaxe")), False, without("dig")),
]


@pytest.fixture(scope="session")
def episodes(library, tmp_path_factory) -> dict[str, tuple[Case, Plan, EpisodeReport]]:
    need_engine(client=True)
    tmp = tmp_path_factory.mktemp("engine-proofs")
    jobs, cases, plans = [], [], []
    for case in CASES:
        if case.task == "equip-yaml":
            task = equip_task(library, tmp)  # an atom of its own, outside the library
        elif isinstance(case.task, str):
            task = library.get(case.task)
        else:
            task = build_molecule(case.task(), library)
        ir = compile_task(task, library, case.game)
        plan = plan_task(task, ir, library)
        if case.plan is not None:
            plan = case.plan(plan)
        jobs.append((task, ir, plan))
        cases.append(case)
        plans.append(plan)
    reports = run_jobs(jobs, library=library, parallel=int(os.environ.get("TASKVERSE_ENGINE_PARALLEL", "4")),
                       timeout=ENGINE_TIMEOUT)
    return {c.name: (c, p, r) for c, p, r in zip(cases, plans, reports, strict=True)}


def _explain(case: Case, plan: Plan, report: EpisodeReport) -> str:
    steps_text = "; ".join(f"{s.do} {s.item or s.node or s.entity or ''}".strip() for s in plan.steps)
    events = [(e["seq"], e["game_event"]["event"], e["game_event"]["target"]) for e in report.events[:30]]
    return (f"{case.name}: expected success={case.expect}, got {report.success} ({report.summary()})\n"
            f"plan: {steps_text}\nsteps: {report.steps}\nevents: {events}\nengine errors: {report.engine_errors}")


@pytest.mark.parametrize("name", [c.name for c in CASES])
def test_engine_verdict(episodes, name):
    case, plan, report = episodes[name]
    assert report.error is None, _explain(case, plan, report)
    assert report.success is (case.expect is True), _explain(case, plan, report)
    assert report.failed is (case.expect == "fail"), _explain(case, plan, report)
    assert report.replay is not None and report.replay.agrees, _explain(case, plan, report)
    if case.expect is True:
        assert report.reward_total == 1.0 and report.terminated
        assert report.rewards[0].get("seq") == report.satisfied_seq
    elif case.expect == "fail":  # ended, with no reward, before the rest of the plan ran
        assert report.reward_total == 0.0 and report.terminated and report.stopped_on_success
    else:
        assert report.reward_total == 0.0 and not report.terminated


def test_every_supported_verb_is_proven(episodes):
    from taskverse.engine.compiler import Compiler

    proven = {e["game_event"]["event"] for _, _, r in episodes.values() if r.success and r.satisfied_seq
              for e in r.events[r.satisfied_seq - 1:r.satisfied_seq]}
    handled = {name.removeprefix("_goal_") for name in dir(Compiler) if name.startswith("_goal_")} - {"enter"}
    assert handled <= proven, f"verbs with no successful episode: {sorted(handled - proven)}"


def test_no_engine_process_outlives_the_episodes(episodes):
    mine = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == os.getpid() and b"minetest" in cmdline:
            mine.append(pid)
    assert not mine


def test_events_are_game_events_with_their_conditions(episodes):
    _, _, report = episodes["where-cave"]
    mine = [e["game_event"] for e in report.events if e["game_event"]["event"] == "mine"]
    assert mine and mine[-1]["in_cave"] is True and mine[-1]["target"] == "stone" and mine[-1]["y"] < 0
    _, _, report = episodes["how-with-item"]
    mine = [e for e in report.events if e["game_event"]["event"] == "mine"]
    assert mine[-1]["game_event"]["held"] == "wooden_axe" and mine[-1]["engine"] == "default:tree"
    _, _, report = episodes["kill"]
    obtained = {e["game_event"]["target"] for e in report.events if e["game_event"]["event"] == "obtain"}
    assert "white_wool" in obtained  # the sheep's drop (mutton has no counterpart), picked up after the kill
    _, _, report = episodes["find-biome"]
    assert any(e["game_event"] == {**e["game_event"], "event": "find", "target": "desert", "biome": "desert"}
               for e in report.events)


def test_a_failing_task_mod_reports_the_engine_error_lines(library):
    need_engine(client=True)
    from taskverse.engine.runner import run_episode

    task = library.get("craft.stick")
    ir = compile_task(task, library).model_copy(update={"format": 99})
    report = run_episode(task, ir, Plan(steps=[]), library=library, timeout=ENGINE_TIMEOUT)
    assert not report.success and report.error is not None
    assert any("compiled for runtime format 99" in line for line in report.engine_errors), report.engine_errors


def test_cli_engine_run_reports_json(tmp_path):
    need_engine(client=True)
    import json

    from engine_support import run_engine_cli

    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps([{"do": "craft", "item": "stick", "count": 1}]))
    done = run_engine_cli("run", "craft stick", "--plan", str(plan), "--episodes", "2", "--parallel", "2",
                          "--timeout", str(ENGINE_TIMEOUT), "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["summary"]["successes"] == 2 and data["summary"]["replay_agrees"] is True
    episode = data["episodes"][0]
    assert episode["success"] is True and episode["reward_total"] == 1.0
    assert {"craft", "obtain"} <= {e["game_event"]["event"] for e in episode["events"]}


def test_cli_engine_run_bad_plan_is_one_clean_line(tmp_path):
    # in-process: what is tested is the message (the command as a user runs it is the test above)
    from click.testing import CliRunner

    from taskverse.cli.engine import engine

    def run(*args: str):
        return CliRunner().invoke(engine, ["run", *args])

    plan = tmp_path / "plan.json"
    plan.write_text('[{"do": "fly", "to": [0, 100, 0]}]')
    done = run("craft.stick", "--plan", str(plan))
    assert done.exit_code == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "unknown action 'fly'" in done.stderr
    plan.write_text('[{"do": "craft"}]')
    done = run("craft.stick", "--plan", str(plan))
    assert done.exit_code == 2 and "craft needs item" in done.stderr
    done = run("craft.iron_helmet")
    assert done.exit_code == 2 and "iron_helmet (item) has no counterpart" in done.stderr


def test_the_cases_name_library_atoms(library):
    # a renamed atom fails here with its name, not deep inside the engine fixture
    for case in CASES:
        if isinstance(case.task, str) and case.task != "equip-yaml":
            assert case.task in library.by_id, case.task
