"""``taskverse eval --world text|engine``: one command for both worlds, one implementation of the engine's side.

``eval --world engine`` is ``engine eval`` (the same report for the same arguments); the two worlds' reports of
the same tasks feed ``taskverse gap``; an option of one world only is one line in the other.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from engine_support import need_engine
from taskverse.cli import main

TIMINGS = {"wall_seconds", "seconds"}


def _untimed(value: Any) -> Any:
    """A report without its timings (the only thing two runs of the same evaluation may differ in)."""
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if k not in TIMINGS}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def _cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def _sample(library: Any) -> list[str]:
    from taskverse.engine.sample import sample_tasks

    return [task.id for task, _ in sample_tasks(library, "minetest_game", 2, 0, seed=2)] + ["craft.stick"]


def test_eval_in_the_engine_world_writes_the_report_engine_eval_writes(library, tmp_path):
    need_engine(client=True)
    tasks = [arg for task in _sample(library) for arg in ("--tasks", task)]
    # the optimal agent: its plan does not hang on what the engine draws (a random agent's candidates follow the
    # leaves that decay at random around it), so two runs of the same evaluation play the same steps
    common = [*tasks, "--agent", "optimal", "--seed", "5", "--init", "task", "--episodes", "2", "--fresh-server"]
    first = _cli("eval", "--world", "engine", *common, "-o", str(tmp_path / "eval.json"))
    assert first.exit_code == 0, first.output
    second = _cli("engine", "eval", *common, "-o", str(tmp_path / "engine.json"))
    assert second.exit_code == 0, second.output
    ours, theirs = (json.loads((tmp_path / name).read_text()) for name in ("eval.json", "engine.json"))
    assert ours["summary"]["episodes"] == 6 and ours["complete"] and ours["run"]["fresh_server"]
    runs = [run for entry in ours["tasks"] for run in entry["episodes"]]
    assert all(run["error"] is None and run["steps"] > 0 for run in runs), runs
    assert _untimed(ours) == _untimed(theirs)
    assert (tmp_path / "eval.trajectories.jsonl").read_text().count("\n") == 6


def test_gap_reads_the_reports_of_both_worlds(tmp_path):
    need_engine(client=True)
    common = ["--tasks", "craft.stick", "--tasks", "mine.stone", "--agent", "optimal", "--init", "naive"]
    text = _cli("eval", "--world", "text", *common, "-o", str(tmp_path / "text.json"), "--no-progress")
    assert text.exit_code == 0, text.output
    engine = _cli("eval", "--world", "engine", *common, "-o", str(tmp_path / "engine.json"))
    assert engine.exit_code == 0, engine.output
    gap = _cli("gap", str(tmp_path / "text.json"), str(tmp_path / "engine.json"), "--format", "json")
    assert gap.exit_code == 0, gap.output
    report = json.loads(gap.stdout)
    assert {row["task"]: row["kind"] for row in report["tasks"]} == {"craft.stick": "both", "mine.stone": "both"}


@pytest.mark.parametrize(("world", "option", "says"), [
    ("text", ["--game", "taskverse_mc"], "--game is for --world engine"),
    ("text", ["--fresh-server"], "--fresh-server is for --world engine"),
    ("text", ["--screenshots", "shots"], "--screenshots is for --world engine"),
    ("engine", ["--trajectories", "t.jsonl"], "--trajectories is for --world text"),
    ("engine", ["--concurrency", "2"], "--concurrency is for --world text"),
    ("engine", ["--no-observations"], "--observations is for --world text"),
    ("engine", ["--chance", "sure"], "the engine draws every drop itself"),
    ("engine", ["--episodes", "1001"], "the engine plays at most 1000"),
])
def test_an_option_of_the_other_world_is_one_line_saying_which(world, option, says):
    done = _cli("eval", "--world", world, "--tasks", "craft.stick", "--agent", "random", *option)
    assert done.exit_code == 2 and says in done.output, done.output
    assert "Traceback" not in done.output and len(done.output.strip().splitlines()) == 1


def test_the_text_world_is_the_default_and_its_report_is_unchanged(tmp_path):
    done = _cli("eval", "--tasks", "craft.stick", "--agent", "optimal", "--no-progress", "--format", "json")
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert "game" not in report and report["summary"]["successes"] == 1
