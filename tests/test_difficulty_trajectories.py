import pytest

from taskverse.difficulty import scores as difficulty
from taskverse.difficulty.entropy import permutation_entropy
from taskverse.difficulty.trajectories import ACTION_CODE, Trajectory, load_trajectories, load_trajectory
from taskverse.errors import TaskverseError

GOOD = """task: craft.stick
outcome: success
recorded_by: test
actions:
  - inventory
  - camera_right*3
  - use
  - inventory
"""


def test_a_trajectory_file_loads_and_expands_runs(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text(GOOD)
    trajectory = load_trajectory(path)
    assert trajectory.frames() == [ACTION_CODE["inventory"]] + [ACTION_CODE["camera_right"]] * 3 + \
        [ACTION_CODE["use"], ACTION_CODE["inventory"]]
    assert trajectory.permutation_entropy() == permutation_entropy(trajectory.frames())


@pytest.mark.parametrize(("text", "line", "field", "words"), [
    (GOOD.replace("  - use\n", "  - uze\n"), 7, "actions.2", "did you mean 'use'"),
    (GOOD.replace("camera_right*3", "camera_right*x"), 6, "actions.1", "NAME or NAME*N"),
    (GOOD.replace("outcome: success", "outcome: won"), 2, "outcome", "success"),
    (GOOD + "fps: 20\n", 9, "fps", "unknown field"),
    (GOOD.replace("task: craft.stick\n", ""), 1, "task", "missing required field"),
])
def test_bad_trajectories_name_file_line_and_field(tmp_path, text, line, field, words):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(TaskverseError) as info:
        load_trajectory(path)
    error = info.value
    assert (error.file, error.line, error.field) == (path, line, field) and words in str(error)


def test_unknown_task_ids_are_reported_with_close_matches(tmp_path, library):
    (tmp_path / "craft.stick").mkdir()
    (tmp_path / "craft.stick" / "a.yaml").write_text(GOOD.replace("craft.stick", "craft.stik"))
    with pytest.raises(TaskverseError) as info:
        load_trajectories(tmp_path, library.by_id)
    assert info.value.line == 1 and "craft.stick" in info.value.suggestions


def test_trajectories_take_precedence_over_the_estimate(tmp_path, monkeypatch, library):
    folder = tmp_path / "trajectories" / "craft.stick"
    folder.mkdir(parents=True)
    (folder / "1.yaml").write_text(GOOD)  # 6 frames
    (folder / "2.yaml").write_text(GOOD.replace("camera_right*3", "camera_right*7"))  # 10 frames
    (folder / "3.yaml").write_text(GOOD.replace("success", "failure").replace("*3", "*300"))  # ignored
    monkeypatch.setenv("TASKVERSE_CALIBRATION", str(tmp_path))
    monkeypatch.setattr(difficulty, "_CONTEXT", [])
    raw = difficulty.raw_scores(library.by_id["craft.stick"], library)
    assert raw["time_consumption"].value == 8.0
    assert raw["time_consumption"].source == "trajectories (2 successful)"
    frames = [Trajectory(task="craft.stick", outcome="success", actions=[a]).frames() for a in ("use",)]
    assert frames and raw["operational_effort"].source.startswith("trajectories")
    assert raw["planning_complexity"].source.startswith("dependency graph")
