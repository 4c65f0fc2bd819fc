import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import ROOT
from taskverse.difficulty.ratings import (
    Rating,
    RatingsFile,
    aggregate,
    krippendorff_alpha_interval,
    load_ratings_file,
    save_ratings_file,
)
from taskverse.errors import TaskverseError


def test_alpha_on_krippendorffs_example():
    # Krippendorff (2011), "Computing Krippendorff's alpha-reliability": 4 observers, 12 units, interval 0.849
    n = None
    a = [1, 2, 3, 3, 2, 1, 4, 1, 2, n, n, n]
    b = [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, n, 3]
    c = [n, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, n]
    d = [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, n]
    units = [[v for v in unit if v is not None] for unit in zip(a, b, c, d, strict=True)]
    assert krippendorff_alpha_interval(units) == pytest.approx(0.849, abs=5e-4)


def test_alpha_edge_cases():
    assert krippendorff_alpha_interval([[1, 1], [4, 4], [2, 2]]) == 1.0
    assert krippendorff_alpha_interval([[3, 3], [3, 3]]) is None  # no variation: undefined
    assert krippendorff_alpha_interval([[1], [2]]) is None  # nothing pairable
    assert krippendorff_alpha_interval([[1, 5], [5, 1]]) < 0  # systematic disagreement


def test_aggregation_means_and_agreement():
    alice = RatingsFile(rater="alice", ratings=[Rating(task="craft.stick", intricacy=1, creativity=2),
                                                Rating(task="build.house", intricacy=4, creativity=5, novelty=2)])
    bob = RatingsFile(rater="bob", ratings=[Rating(task="craft.stick", intricacy=2),
                                            Rating(task="build.house", intricacy=5, novelty=3)])
    combined = aggregate([alice, bob])
    assert combined.mean("intricacy", "build.house") == (4.5, 2)
    assert combined.mean("creativity", "build.house") == (5.0, 1)
    assert combined.mean("novelty", "craft.stick") is None
    assert combined.alpha["intricacy"] == pytest.approx(krippendorff_alpha_interval([[1, 2], [4, 5]]))
    assert combined.alpha["creativity"] is None
    assert combined.source("intricacy", 2).startswith("human ratings (2 raters, alpha=")


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


@pytest.mark.parametrize(("text", "line", "field", "words"), [
    ("rater: eve\nratings:\n  - {task: craft.stick, intricacy: 2}\n  - {task: build.house, novelty: 6}\n",
     4, "ratings.1.novelty", "less than or equal to 5"),
    ("rater: eve\nratings:\n  - task: craft.stick\n    intricasy: 2\n", 4, "ratings.0.intricasy", "unknown field"),
    ("rater: eve\nratings:\n  - {task: craft.stick}\n", 3, "ratings.0", "at least one"),
    ("rater: eve\nratings:\n  - {task: craft.stik, creativity: 1}\n", 3, "ratings.0.task", "unknown task"),
    ("rater: bob\nratings: []\n", 1, "rater", "does not match the file name"),
])
def test_bad_ratings_files_name_file_line_and_field(tmp_path, library, text, line, field, words):
    path = write(tmp_path / "eve.yaml", text)
    with pytest.raises(TaskverseError) as info:
        load_ratings_file(path, library.by_id)
    error = info.value
    assert error.file == path and error.line == line and error.field == field and words in error.message
    if "unknown task" in words:
        assert "craft.stick" in error.suggestions


def test_files_round_trip(tmp_path):
    ratings = RatingsFile(rater="zoe", ratings=[Rating(task="mine.dirt", novelty=1, note="from the literature")])
    save_ratings_file(ratings, tmp_path / "zoe.yaml")
    assert load_ratings_file(tmp_path / "zoe.yaml") == ratings


def test_rate_through_stdin_writes_a_valid_file(tmp_path, library):
    env = {**os.environ, "TASKVERSE_CALIBRATION": str(tmp_path)}
    answers = "3\n2\n\nq\n"  # craft.stick: intricacy 3, creativity 2, novelty skipped; then quit at mine.dirt
    result = subprocess.run([sys.executable, "-m", "taskverse.cli", "rate", "--rater", "tess", "--tasks",
                             "craft.stick,mine dirt", "--tasks", "hunt.sheep"], input=answers, text=True,
                            capture_output=True, env=env, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert "intricacy:" in result.stdout and "precision" in result.stdout  # the MCU definitions are shown
    path = tmp_path / "ratings" / "tess.yaml"
    saved = load_ratings_file(path, library.by_id)
    assert saved.ratings == [Rating(task="craft.stick", intricacy=3, creativity=2)]
    # a second session samples tasks the rater has not rated yet; end of input saves and stops cleanly
    again = subprocess.run([sys.executable, "-m", "taskverse.cli", "rate", "--rater", "tess", "--sample", "2",
                            "--seed", "1", "--format", "json"], input="5\n5\n5\n1\n\n\n", text=True,
                           capture_output=True, env=env, cwd=ROOT)
    assert again.returncode == 0, again.stderr
    data = yaml.safe_load(again.stdout)
    assert data["rated"] == 3 and data["new"] == 2
    assert len(load_ratings_file(path, library.by_id).ratings) == 3


def test_rate_rejects_bad_arguments(tmp_path):
    # in-process: what is tested is the message (rating through stdin above runs the command as a user does)
    from click.testing import CliRunner

    from taskverse.cli import main

    for args in (["--rater", "tess"], ["--rater", "bad name!", "--sample", "1"]):
        result = CliRunner().invoke(main, ["rate", *args], input="", env={"TASKVERSE_CALIBRATION": str(tmp_path)})
        assert result.exit_code == 2 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
