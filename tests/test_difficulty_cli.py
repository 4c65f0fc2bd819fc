import json
import os
import subprocess
import sys

from conftest import ROOT, cli, cli_json, in_process_json
from taskverse.schema import DIFFICULTY_DIMENSIONS


def run_in(folder, *args):
    env = {**os.environ, "TASKVERSE_CALIBRATION": str(folder)}
    return subprocess.run([sys.executable, "-m", "taskverse.cli", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT)


def cli_in(folder, *args):
    """The command line in-process (click's test runner) with the calibration folder ``folder``."""
    from click.testing import CliRunner

    from taskverse.cli import main

    return CliRunner().invoke(main, list(args), env={"TASKVERSE_CALIBRATION": str(folder)})


def test_difficulty_json_by_id_description_and_expression():
    by_id = cli_json("difficulty", "craft.iron_sword")  # the installed command, as a user runs it
    assert by_id == in_process_json("difficulty", "craft an iron_sword")
    assert list(by_id["scores"]) == list(DIFFICULTY_DIMENSIONS) and by_id["calibrated"] is True
    for score in by_id["scores"].values():
        assert 0 <= score["calibrated"] <= 5 and score["source"]
    molecule = in_process_json("difficulty", "naive(craft iron_sword) & (hunt sheep | combat spider @ when=night)")
    assert molecule["kind"] == "molecule" and molecule["id"].startswith("mol.")
    assert molecule["scores"]["planning_complexity"]["raw"] > by_id["scores"]["planning_complexity"]["raw"]


def test_difficulty_raw_and_table_output():
    raw = in_process_json("difficulty", "mine dirt", "--raw")
    assert raw["calibrated"] is False and "calibrated" not in raw["scores"]["novelty"]
    text = cli("difficulty", "mine dirt")
    assert text.exit_code == 0 and "planning_complexity" in text.stdout and "dependency graph" in text.stdout


def test_bad_task_is_one_clean_line():
    result = cli("difficulty", "craft iron_swrod", "--format", "json")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "craft.iron_sword" in result.stderr


def test_show_includes_calibrated_scores():
    shown = in_process_json("show", "hunt sheep")
    assert set(shown["difficulty"]) == set(DIFFICULTY_DIMENSIONS)
    assert all(s["calibrated"] is not None for s in shown["difficulty"].values())


def test_calibrate_writes_the_table_and_staleness_is_reported(tmp_path):
    result = cli_in(tmp_path, "calibrate", "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    written = json.loads((tmp_path / "quantiles.json").read_text())
    assert written["quantiles"] == data["quantiles"] and set(data["quantiles"]) == set(DIFFICULTY_DIMENSIONS)
    assert data["computed_on"]["atoms"] >= 3000
    fresh = cli_in(tmp_path, "difficulty", "mine dirt", "--format", "json")
    assert fresh.exit_code == 0 and "warning" not in fresh.stderr
    written["computed_on"]["library_digest"] = "0" * 64
    (tmp_path / "quantiles.json").write_text(json.dumps(written))
    # a process of its own reads the table afresh (this one re-reads it only when its mtime changes)
    stale = run_in(tmp_path, "difficulty", "mine dirt", "--format", "json")
    assert stale.returncode == 0 and "taskverse calibrate" in stale.stderr
    assert json.loads(stale.stdout)["calibration"]["stale"] is True


def test_missing_table_needs_raw(tmp_path):
    result = cli_in(tmp_path, "difficulty", "mine dirt")
    assert result.exit_code == 2 and "taskverse calibrate" in result.stderr
    assert cli_in(tmp_path, "difficulty", "mine dirt", "--raw").exit_code == 0


def test_schemas_of_the_user_formats():
    ratings = in_process_json("schema", "ratings")
    trajectory = in_process_json("schema", "trajectory")
    assert ratings["additionalProperties"] is False and "ratings" in ratings["properties"]
    assert trajectory["additionalProperties"] is False and "actions" in trajectory["properties"]
