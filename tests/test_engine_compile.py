"""Compiling tasks to Lua: the one escaping function, the generated mods, snapshots, coverage, and the runtime's
evaluator (eval.lua under plain LuaJIT) against the Python evaluator on random tasks and traces."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import cli, run_cli
from engine_support import ENGINE_DIR, ROOT, need_engine
from taskverse.algebra.expr import (
    AllOf,
    Amount,
    AnyOf,
    AtLeast,
    Avoid,
    Constrained,
    Constraint,
    Repeat,
    Then,
    Within,
    custom,
    naive,
    ref,
)
from taskverse.algebra.molecule import build_molecule
from taskverse.algebra.semantics import Evaluator, GameEvent
from taskverse.engine.compiler import CompileError, Compiler, compile_task
from taskverse.engine.ir import TaskIR
from taskverse.engine.lua import lua_string, render_init, to_lua, write_env
from taskverse.schema import Goal

SNAPSHOTS = ROOT / "tests" / "snapshots"
RUNTIME = ENGINE_DIR / "mods" / "taskverse"
UPDATE = os.environ.get("TASKVERSE_UPDATE_SNAPSHOTS") == "1"


def luajit(code: str) -> bytes:
    done = subprocess.run(["luajit", "-e", code], capture_output=True)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


# --- the one escaping function -----------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "]] os.exit() --[[", '"\n', "\\", "tab\there", "nul\x00byte", "é ü 字 🙂", "\\065", "'", "\r\n", "--[==[", "",
])
def test_lua_string_is_the_text_exactly(text):
    need_engine("luajit")
    literal = lua_string(text)
    assert literal.isascii() and literal.isprintable() and "\n" not in literal
    assert luajit(f"io.write({literal})") == text.encode("utf-8")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_lua_string_round_trips_any_text(text):
    need_engine("luajit")
    assert luajit(f"io.write({lua_string(text)})") == text.encode("utf-8")


def test_a_hostile_description_stays_a_literal(library, tmp_path):
    need_engine("luajit")
    hostile = ']] os.exit(3) --[[ "\n end) os.exit(4) --'
    ir = compile_task(library.get("craft.stick"), library).model_copy(update={"description": hostile})
    init = render_init(ir)
    lua = tmp_path / "init.lua"
    lua.write_text(init)
    out = luajit(f"taskverse = {{start = function(t) io.write(t.description) end}} dofile({lua_string(str(lua))})")
    assert out == hostile.encode()
    assert subprocess.run(["luajit", "-bl", str(lua)], capture_output=True).returncode == 0


def test_to_lua_writes_data_only():
    text = to_lua({"a": [1, 2.5, True, None], "b c": {"end": "x"}, "n": None})
    assert text == '{a = {1, 2.5, true, nil}, ["b c"] = {["end"] = "x"}}'


# --- any valid task makes clean Lua ------------------------------------------------------------------------

_ID_PART = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_", min_size=1, max_size=40)
_TASK_IDS = st.builds(lambda head, tail: ".".join([head, *tail]), _ID_PART,
                      st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_#:-", min_size=1, max_size=60),
                               min_size=1, max_size=3)).filter(lambda s: len(s) <= 200)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(task_id=_TASK_IDS, description=st.text(min_size=1, max_size=500).filter(str.strip))
def test_any_valid_task_compiles_to_lua_that_passes_luacheck(library, tmp_path, task_id, description):
    need_engine("luajit", "luacheck")
    import yaml

    from taskverse.engine.lua import MAX_LINE
    from taskverse.library.loader import parse_task_file

    source = tmp_path / "task.yaml"
    source.write_text(yaml.safe_dump({
        "id": task_id, "description": description, "category": "crafting", "verb": "craft",
        "initialization": {"inventory": {"oak_planks": 2}},
        "metrics": {"success": {"event": "craft", "target": "stick"}},
    }, allow_unicode=True), encoding="utf-8")
    task = parse_task_file(source)[0].task
    text = render_init(compile_task(task, library))
    assert max(len(line.expandtabs(4)) for line in text.splitlines()) <= MAX_LINE
    lua = tmp_path / "init.lua"
    lua.write_text(text, encoding="utf-8")
    done = subprocess.run(["luacheck", "--no-color", "--codes", "--config", str(ENGINE_DIR / ".luacheckrc"), str(lua)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout
    out = luajit("taskverse = {start = function(t) io.write(t.id, '\\n', t.description) end} "
                 f"dofile({lua_string(str(lua))})")
    assert out == f"{task.id}\n{task.description}".encode()  # as the task file says them (YAML folds U+0085)


# --- the generated mod -------------------------------------------------------------------------------------

EXAMPLES = {
    "craft_stick": lambda lib: lib.get("craft.stick"),
    "smelt_iron_ingot": lambda lib: lib.get("smelt.iron_ingot"),
    "hunt_cow": lambda lib: lib.get("hunt.cow"),
    "find_desert": lambda lib: lib.get("find.desert"),
    "use_ignite_tnt": lambda lib: lib.get("use.ignite_tnt"),
    "molecule_nested": lambda lib: build_molecule(
        (ref("craft.stick") | ref("hunt.cow")) >> naive(ref("craft.wooden_pickaxe")).at(when="night", where="desert")
        & custom(ref("mine.oak_log"), inventory={"wooden_axe": 1}).at(how="with:wooden_axe"), lib),
}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_generated_lua_matches_its_snapshot(library, name):
    ir = compile_task(EXAMPLES[name](library), library)
    text = render_init(ir)
    path = SNAPSHOTS / f"{name}.lua"
    if UPDATE or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert text == path.read_text(), f"{path} changed; rerun with TASKVERSE_UPDATE_SNAPSHOTS=1 and review the diff"


def test_generated_mods_hold_only_data_and_one_call(library):
    for make in EXAMPLES.values():
        text = render_init(compile_task(make(library), library))
        code = [line for line in text.splitlines() if line and not line.startswith("--")]
        assert code[0] == "local task = {" and code[-1] == "taskverse.start(task)"
        assert "function" not in text and text.count("taskverse.start(") == 1


def test_the_environment_folder_is_deterministic_and_craftium_shaped(library, tmp_path):
    ir = compile_task(EXAMPLES["hunt_cow"](library), library)
    first, second = tmp_path / "a", tmp_path / "b"
    files = write_env(ir, first)
    write_env(ir, second)

    def tree(root):
        return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())

    rel = tree(first)
    assert rel == tree(second)
    for name in rel:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    # the files named are the task's; of the game's copy only the settings file written for the task
    named = sorted(str(p.relative_to(first)) for p in files)
    assert set(named) <= set(rel)
    assert [n for n in named if n.startswith("games/")] == ["games/minetest_game/minetest.conf"]
    for needed in ["mods/taskverse/init.lua", "mods/taskverse/eval.lua", "mods/taskverse_task/init.lua",
                   "mods/taskverse_task/mod.conf", "mods/taskverse_task/taskverse_task.json", "worlds/world/world.mt",
                   "worlds/world/map_meta.txt", "games/minetest_game/minetest.conf"]:
        assert needed in rel
    # nothing at the top, where Craftium writes its own minetest.conf; the whole game beside the mods
    assert not [p for p in first.iterdir() if p.is_file()]
    assert (first / "games/minetest_game/game.conf").is_file()
    assert (first / "games/minetest_game/mods/default/init.lua").is_file()
    world = (first / "worlds/world/world.mt").read_text()
    assert "gameid = minetest" in world and "load_mod_taskverse_task = true" in world
    assert "load_mod_mobs = true" in world
    assert "mg_name = flat\n" in (first / "worlds/world/map_meta.txt").read_text()
    assert "depends = taskverse, mobs" in (first / "mods/taskverse_task/mod.conf").read_text()
    assert TaskIR.model_validate_json((first / "mods/taskverse_task/taskverse_task.json").read_text()) == ir
    write_env(ir, first)  # an earlier output is replaced
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    from taskverse.errors import TaskverseError

    with pytest.raises(TaskverseError, match="not empty"):
        write_env(ir, tmp_path / "other")


def test_the_docs_craftium_example_names_the_folders_game(library, tmp_path):
    docs = (ROOT / "docs" / "engine.md").read_text()
    example = docs[docs.index("from craftium import CraftiumEnv"):]
    example = example[:example.index("```")]
    game_id = re.search(r'CraftiumEnv\(env_dir="envs/craft_stick", game_id="([a-z_]+)"', example)
    assert game_id is not None, example
    write_env(compile_task(library.get("craft.stick"), library), tmp_path / "env")
    assert f"gameid = {game_id.group(1)}\n" in (tmp_path / "env/worlds/world/world.mt").read_text()


def test_compile_cli_writes_the_env_and_names_what_is_missing(tmp_path):
    done = run_cli("compile", "craft stick", "-o", str(tmp_path / "out"), "--format", "json")  # as a user runs it
    assert done.returncode == 0, done.stderr
    assert "mods/taskverse_task/init.lua" in json.loads(done.stdout)["files"]
    done = cli("compile", "craft.iron_helmet", "-o", str(tmp_path / "x"))
    assert done.exit_code == 2 and "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert "iron_helmet (item) has no counterpart in minetest_game" in done.stderr
    done = cli("compile", "mine.stone @ when=rain", "-o", str(tmp_path / "y"))
    assert done.exit_code == 2 and "minetest_game has no weather" in done.stderr
    done = cli("compile", "craft.stick")
    assert done.exit_code == 2 and "-o DIR" in done.stderr
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def test_compile_errors_name_every_missing_thing(library):
    with pytest.raises(CompileError) as caught:
        compile_task(build_molecule(ref("craft.iron_helmet") & ref("find.nether_wastes"), library), library)
    reasons = {p.reason for p in caught.value.problems}
    assert "item with no counterpart" in reasons and "biome with no counterpart" in reasons
    assert "iron_helmet" in str(caught.value)


def test_starting_items_without_a_counterpart_are_replaced_or_left_out(library):
    ir = compile_task(library.get("craft.stick"), library)  # the atom starts with bamboo: any planks will do
    assert [(s.name, s.count) for s in ir.init.inventory] == [("default:wood", 2)]
    ir = compile_task(library.get("craft.wooden_pickaxe"), library)  # its crafting table is not needed
    assert "crafting_table" not in ir.names.values() and ir.init.inventory


# --- coverage ----------------------------------------------------------------------------------------------

def test_coverage_counts_and_every_compiled_mod_passes_luajit_and_luacheck():
    need_engine("luajit", "luacheck")
    done = cli("compile", "--coverage", "--check", "--format", "json")
    assert done.exit_code == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["atoms"] > 4000 and report["compiled"] >= 600
    assert report["compiled"] == sum(v.get("compiled", 0) for v in report["by_verb"].values())
    assert report["atoms"] - report["compiled"] == sum(r["atoms"] for r in report["reasons"])
    reasons = {r["reason"] for r in report["reasons"]}
    assert {"item with no counterpart", "block with no counterpart", "biome with no counterpart"} <= reasons
    check = report["check"]
    assert check["files"] == report["compiled"] and check["luajit_failures"] == {}
    assert check["luacheck_exit"] == 0, check["luacheck_problems"]
    # the work: every atom was looked at once (how fast that goes is scripts/perf/engine.py's business)
    assert sum(v["atoms"] for v in report["by_verb"].values()) == report["atoms"]


# --- the runtime's evaluator is the Python evaluator -------------------------------------------------------

ATOMS = ["craft.stick", "mine.iron_ore", "hunt.cow", "find.desert", "place.cobblestone", "eat.apple",
         "mine.any_log", "craft.oak_planks", "navigate.dig_down"]
CONSTRAINTS = [{"when": "night"}, {"when": "day"}, {"when": "first_day"}, {"when": "clear"}, {"where": "desert"},
               {"where": "cave"}, {"where": "height:0..40"}, {"where": "height:..0"}, {"where": "overworld"},
               {"how": "bare_hand"}, {"how": "with:stone_pickaxe"}, {"how": "with:#axes"}]


def _random_expr(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth >= 3 or roll < 0.35:
        return ref(rng.choice(ATOMS))
    if roll < 0.55:
        return Constrained(part=_random_expr(rng, depth + 1), constraint=Constraint(**rng.choice(CONSTRAINTS)))
    if roll < 0.62:
        return Repeat(part=_random_expr(rng, depth + 1), times=rng.randint(1, 3))
    if roll < 0.69:
        return Avoid(part=_random_expr(rng, depth + 1))
    if roll < 0.76:
        return Within(part=_random_expr(rng, depth + 1), ticks=rng.choice([20, 100, 200, 400]))
    if roll < 0.82:  # an amount of an atom, maybe constrained: its events add up their counts
        atom = ref(rng.choice(ATOMS))
        if rng.random() < 0.4:
            atom = Constrained(part=atom, constraint=Constraint(**rng.choice(CONSTRAINTS)))
        return Amount(part=atom, count=rng.randint(2, 4))
    kind = rng.choice([AllOf, AnyOf, Then, AtLeast])
    parts = tuple(_random_expr(rng, depth + 1) for _ in range(rng.randint(2, 3)))
    if kind is AtLeast:
        return AtLeast(count=rng.randint(1, len(parts)), parts=parts)
    return kind(parts=parts)


def _random_trace(rng: random.Random, goals: list) -> list[GameEvent]:
    names = {"held": [None, "stone_pickaxe", "wooden_axe", "stick"], "biome": [None, "desert", "plains"]}
    events = []
    clock = 0.0
    for _ in range(rng.randint(0, 14)):
        clock += rng.choice([0.0, 0.5, 1.0, 3.25, 7.0])
        goal = rng.choice(goals)
        target = rng.choice(sorted(goal.targets)) if rng.random() < 0.85 else "dirt"
        events.append(GameEvent(
            event=goal.event if rng.random() < 0.9 else "obtain", target=target, count=rng.randint(1, 2),
            value=rng.choice([None, 10.0, 35.0]), day=rng.choice([0, 0, 1]), time=rng.choice(["day", "night"]),
            weather="clear", biome=rng.choice(names["biome"]), y=rng.choice([-12.5, 9.5, 35.0, None]),
            in_cave=rng.random() < 0.3, held=rng.choice(names["held"]), clock=clock,
        ))
    return events


def test_eval_lua_agrees_with_the_python_evaluator(library, tmp_path):
    need_engine("luajit")
    rng = random.Random(9)
    compiler = Compiler(library)
    cases, expected = [], []
    while len(cases) < 400:
        try:
            molecule = build_molecule(_random_expr(rng), library)
            ir = compiler.compile(molecule)
        except Exception:  # noqa: BLE001 - infeasible random compositions are skipped
            continue
        trace = _random_trace(rng, list(ir.goals.values()))
        now = (trace[-1].clock if trace else 0.0) + rng.choice([0.0, 2.5, 30.0])
        verdict = Evaluator.for_library(library).evaluate(molecule.expression, trace, now=now)
        at = verdict.satisfied_at if verdict.satisfied else verdict.failed_at
        expected.append((verdict.status.value, at, verdict.decided_clock, verdict.progress))
        cases.append({"expression": ir.model_dump(mode="json", exclude_none=True)["expression"],
                      "goals": {k: v.model_dump(mode="json", exclude_none=True) for k, v in ir.goals.items()},
                      "events": [e.model_dump(mode="json", exclude_none=True) for e in trace], "now": now})
    data = tmp_path / "cases.lua"
    data.write_text("return " + to_lua(cases) + "\n")
    driver = (f"local eval = dofile({lua_string(str(RUNTIME / 'eval.lua'))})\n"
              f"local json = dofile({lua_string(str(RUNTIME / 'json.lua'))})\n"
              f"for _, c in ipairs(dofile({lua_string(str(data))})) do\n"
              "  local v = eval.evaluate(eval.resolve(c.expression, c.goals), c.events, c.now)\n"
              "  io.write(json.encode({outcome = v.outcome, at = v.at or -1, clock = v.clock or -1,\n"
              "                        progress = v.progress}), '\\n')\nend\n")
    got = [json.loads(line) for line in luajit(driver).decode().splitlines()]
    assert len(got) == len(expected)
    names = {"satisfied": "success", "failed": "failure", "in_progress": "pending", "not_started": "pending"}
    seen = Counter()
    for index, ((status, at, clock, progress), lua) in enumerate(zip(expected, got, strict=True)):
        outcome = "pending" if lua["outcome"] == "holding" else lua["outcome"]
        assert outcome == names[status], (index, cases[index])
        assert lua["at"] == (-1 if at is None else at + 1), (index, cases[index])
        assert lua["clock"] == (-1 if clock is None else clock), (index, cases[index])
        assert abs(lua["progress"] - progress) < 1e-12, (index, cases[index])
        seen[(outcome, at is None)] += 1
    # the random cases exercise every verdict: done by an event, failed by an event and by a deadline, not yet
    assert min(seen[("success", False)], seen[("failure", False)], seen[("failure", True)],
               seen[("pending", True)]) >= 10, seen


def test_eval_lua_counts_only_the_kind_of_chest_a_goal_names(library):
    # The runtime's matching is the Python evaluator's: a goal naming a library chest counts no event of the
    # structure's main kind (no chest field), and a goal naming none counts either.
    need_engine("luajit")
    goals = {"loot.s": Goal(event="interact", target="s"),
             "loot.s.library": Goal(event="interact", target="s", chest="library")}
    evaluator = Evaluator(goals)
    corridor = GameEvent(event="interact", target="s", clock=1.0)
    kind = GameEvent(event="interact", target="s", chest="library", clock=2.0)
    cases, expected = [], []
    for atom in goals:
        for trace in ([corridor], [kind], [corridor, kind]):
            verdict = evaluator.evaluate(ref(atom), trace)
            expected.append([verdict.satisfied, -1 if verdict.satisfied_at is None else verdict.satisfied_at + 1])
            goal = goals[atom]
            cases.append({"expression": {"op": "atom", "atom": atom},
                          "goals": {atom: {"event": "interact", "targets": ["s"], "count": 1,
                                           **({"chest": goal.chest} if goal.chest else {})}},
                          "events": [e.model_dump(mode="json", exclude_none=True) for e in trace]})
    code = (f"local eval = dofile({lua_string(str(RUNTIME / 'eval.lua'))})\n"
            f"local json = dofile({lua_string(str(RUNTIME / 'json.lua'))})\n"
            f"for _, c in ipairs({to_lua(cases)}) do\n"
            "  local v = eval.evaluate(eval.resolve(c.expression, c.goals), c.events, 3)\n"
            "  io.write(json.encode({v.outcome == 'success', v.at or -1}), '\\n')\nend\n")
    got = [json.loads(line) for line in luajit(code).decode().splitlines()]
    assert got == expected
    assert expected == [[True, 1], [True, 1], [True, 1], [False, -1], [True, 1], [True, 2]]


def test_json_lua_writes_what_python_reads():
    need_engine("luajit")
    value = {"s": 'q"\\\n\t\x01é', "i": 3, "f": 2.5, "neg": -0.125, "big": 2 ** 40, "t": True, "list": [1, "a"],
             "empty": {}, "nested": {"k": [{"x": None}]}}
    code = (f"local json = dofile({lua_string(str(RUNTIME / 'json.lua'))})\n"
            f"io.write(json.encode({to_lua(value)}))")
    decoded = json.loads(luajit(code))
    assert decoded == {**value, "nested": {"k": [{}]}}  # nil in a table is absent, as in Lua
