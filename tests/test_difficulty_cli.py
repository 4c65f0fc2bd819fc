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


def test_a_composed_or_generated_file_gets_its_scores_when_asked(tmp_path):
    # a molecule file stores no scores (they would go stale); compose and generate say how to get them, and the
    # file gives the same six scores as its expression
    path = tmp_path / "m.yaml"
    written = cli("compose", "naive(craft iron_sword) & hunt sheep", "-o", str(path))
    assert written.exit_code == 0, written.stderr
    assert "difficulty: {}" in path.read_text()
    assert f"taskverse difficulty {path}" in written.stderr
    from_file = in_process_json("difficulty", str(path))
    assert from_file["scores"] == in_process_json("difficulty", "naive(craft iron_sword) & hunt sheep")["scores"]
    assert from_file["calibration"]["file"].endswith("quantiles.json") and from_file["calibration"]["stale"] is False
    shown = in_process_json("show", str(path))
    assert {dim: s["raw"] for dim, s in shown["difficulty"].items()} == {
        dim: s["raw"] for dim, s in from_file["scores"].items()}
    folder = tmp_path / "generated"
    generated = cli("generate", "--n", "1", "--seed", "3", "-o", str(folder))
    assert generated.exit_code == 0, generated.stderr
    (one,) = folder.glob("mol.*.yaml")
    assert f"taskverse difficulty {one}" in generated.stderr
