"""Every kind of bad input gets one message naming file, line and field; no traceback; nothing half-written."""

from pathlib import Path

import pytest

from conftest import GOOD, run_cli


def _validate(tmp_path: Path, text: str, name: str = "task.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return run_cli("validate", str(path)), path


def _one_error(result, path: Path, line: int | None, *needles: str) -> str:
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    errors = [x for x in result.stderr.splitlines() if x.startswith("error:")]
    assert errors, result.stderr
    message = errors[0]
    prefix = f"{path}:{line}:" if line else f"{path}"
    assert prefix in message, message
    for needle in needles:
        assert needle in message, message
    return message


def test_a_good_file_validates(tmp_path):
    result, _ = _validate(tmp_path, GOOD)
    assert result.returncode == 0, result.stderr
    assert "ok: 1 task(s)" in result.stdout


def test_invalid_yaml_names_the_line(tmp_path):
    result, path = _validate(tmp_path, GOOD.replace("verb: craft", "verb: [craft"))
    _one_error(result, path, None, "invalid YAML")


def test_missing_field(tmp_path):
    result, path = _validate(tmp_path, GOOD.replace("category: crafting\n", ""))
    _one_error(result, path, 1, "category", "missing required field")


def test_mistyped_field_name(tmp_path):
    result, path = _validate(tmp_path, GOOD.replace("category:", "categroy:"))
    _one_error(result, path, 3, "categroy", "unknown field")


def test_wrong_value_type(tmp_path):
    result, path = _validate(tmp_path, GOOD.replace("stick: 1", "stick: many"))
    _one_error(result, path, 6, "initialization.inventory.stick")


def test_unknown_item_suggests_close_names(tmp_path):
    result, path = _validate(tmp_path, GOOD.replace("iron_ingot: 2", "iron_ingt: 2"))
    message = _one_error(result, path, 6, "initialization.inventory.iron_ingt", "unknown item")
    assert "'iron_ingot'" in message


def test_unknown_goal_target(tmp_path):
    result, path = _validate(tmp_path, GOOD.replace("target: iron_sword", "target: iron_swrod"))
    message = _one_error(result, path, 8, "metrics.success.target")
    assert "iron_sword" in message


def test_pre_task_cycle(tmp_path):
    text = "tasks:\n" + "".join(
        "  - " + GOOD.replace("craft.my_sword", f"craft.my_{a}").replace("craft my sword", f"craft my {a}")
        .replace("\n", "\n    ").rstrip() + f"\n    pre_tasks: [craft.my_{b}]\n"
        for a, b in (("a", "b"), ("b", "a"))
    )
    result, path = _validate(tmp_path, text)
    _one_error(result, path, None, "pre-task cycle")


def test_unknown_pre_task(tmp_path):
    result, path = _validate(tmp_path, GOOD + "pre_tasks: [craft.iron_swrod]\n")
    message = _one_error(result, path, 9, "pre_tasks", "unknown pre-task")
    assert "craft.iron_sword" in message


def test_duplicate_id_across_files(tmp_path):
    (tmp_path / "a.yaml").write_text(GOOD)
    (tmp_path / "b.yaml").write_text(GOOD.replace("craft my sword", "craft another sword"))
    result = run_cli("validate", str(tmp_path))
    _one_error(result, tmp_path / "b.yaml", 1, "duplicate id")


def test_duplicate_of_a_library_description(tmp_path):
    result, path = _validate(tmp_path, GOOD.replace("craft my sword", "craft iron_sword"))
    assert result.returncode == 0  # a user file may restate a library task; only duplicates among its files clash


@pytest.mark.parametrize("argument", ["craft iron_swrod", "no.such_task", "missing.yaml"])
def test_unknown_task_argument_is_one_clean_line(argument):
    result = run_cli("show", argument)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("error:")


def test_unknown_task_suggests_close_description():
    result = run_cli("show", "craft iron_swrod")
    assert "craft.iron_sword" in result.stderr or "craft iron sword" in result.stderr
