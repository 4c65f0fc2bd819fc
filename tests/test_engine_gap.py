"""``taskverse gap``: the text world's report against the engine's, per task and category, with the reasons."""

from __future__ import annotations

import doctest
import json

import pytest

from conftest import cli
from taskverse.engine.gap import gap_report, load_report
from taskverse.errors import TaskverseError


def _text(*tasks):
    return {"agent": "greedy", "tasks": [{"id": i, "task": i, "category": c, "description": i,
                                          "episodes": [{"success": s} for s in ok]} for i, c, ok in tasks]}


def _engine(*tasks):
    return {"agent": "greedy", "game": "taskverse_mc", "tasks": [
        {"name": i, "task": i, "category": c, "compiled": compiled, "reason": None if compiled else "no counterpart",
         "episodes": [{"success": s, "error": None, "reason": reason} for s in ok]}
        for i, c, compiled, ok, reason in tasks]}


TEXT = _text(("craft.stick", "crafting", [True]), ("mine.stone", "mining", [True, False]),
             ("hunt.cow", "combat", [False]), ("find.desert", "navigation", [True]),
             ("craft.iron_helmet", "crafting", [True]), ("eat.apple", "exploitation", [True]))
ENGINE = _engine(("craft.stick", "crafting", True, [True], None),
                 ("mine.stone", "mining", True, [False, False], "no default:stone within 8 nodes"),
                 ("hunt.cow", "combat", True, [True], None),
                 ("find.desert", "navigation", True, [False], "step limit"),
                 ("craft.iron_helmet", "crafting", False, [], None))


def test_each_task_is_sorted_by_where_it_succeeds_with_the_engines_reason():
    report = gap_report(TEXT, ENGINE)
    kinds = {row["task"]: row["kind"] for row in report["tasks"]}
    assert kinds == {"craft.stick": "both", "mine.stone": "text only", "hunt.cow": "engine only",
                     "find.desert": "text only", "craft.iron_helmet": "not compiled", "eat.apple": "text world only"}
    mine = next(row for row in report["tasks"] if row["task"] == "mine.stone")
    assert mine["text_success_rate"] == 0.5 and mine["engine_success_rate"] == 0.0
    assert mine["why"] == "no default:stone within 8 nodes" and mine["why_kinds"] == {"no ... within ... nodes": 2}
    assert report["summary"]["gap_reasons"] == {"no ... within ... nodes": 1, "step limit": 1}
    crafting = report["by_category"]["crafting"]
    assert (crafting["tasks"], crafting["both"], crafting["not compiled"]) == (2, 1, 1)
    assert crafting["text_success_rate"] == 1.0 and crafting["engine_success_rate"] == 1.0


def test_the_reports_must_be_of_their_worlds(tmp_path):
    text, engine = tmp_path / "text.json", tmp_path / "engine.json"
    text.write_text(json.dumps(TEXT))
    engine.write_text(json.dumps(ENGINE))
    with pytest.raises(TaskverseError, match="this is an engine report"):
        load_report(engine, "text")
    with pytest.raises(TaskverseError, match="not an engine report"):
        load_report(text, "engine")
    (tmp_path / "other.json").write_text("[1, 2]")
    with pytest.raises(TaskverseError, match="no list of tasks"):
        load_report(tmp_path / "other.json", "text")
    done = cli("gap", str(text), str(engine), "--format", "json")
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["summary"]["text only"] == 2
    done = cli("gap", str(text), str(engine))
    assert "  gap: mine.stone (mining): no default:stone within 8 nodes" in done.stdout
    assert "  not in the engine: craft.iron_helmet: no counterpart" in done.stdout
    done = cli("gap", str(engine), str(text))
    assert done.exit_code != 0 and "this is an engine report" in done.output and "Traceback" not in done.output


def test_docstring_examples():
    import taskverse.engine.gap as module

    result = doctest.testmod(module)
    assert result.attempted >= 1 and result.failed == 0


def test_the_impossible_tasks_of_either_report_are_left_out():
    text = _text(("craft.stick", "crafting", [True]), ("mol.a", "molecule", [False]), ("mol.b", "molecule", [True]))
    engine = _engine(("craft.stick", "crafting", True, [True], None), ("mol.a", "molecule", True, [False], "gave up"),
                     ("mol.b", "molecule", True, [False], "gave up"))
    text["tasks"][1]["impossible"] = engine["tasks"][1]["impossible"] = "no way to do it has a wooden pickaxe"
    engine["tasks"][2]["impossible"] = "no way to do it has a default:pick_wood in hand"  # in the engine only
    report = gap_report(text, engine)
    assert {row["task"]: row["kind"] for row in report["tasks"]} == {"craft.stick": "both",
                                                                   "mol.b": "text world only"}
