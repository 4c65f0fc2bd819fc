"""Every kind of bad input gets one message naming file, line and field; no traceback; nothing half-written."""

import json
from pathlib import Path

import pytest

from conftest import GOOD, cli, one_clean_line, run_cli


def _validate(tmp_path: Path, text: str, name: str = "task.yaml"):
    """``validate`` in-process: what these tests check is the message (a good file is validated as a user runs it)."""
    path = tmp_path / name
    path.write_text(text)
    return cli("validate", str(path)), path


def _one_error(result, path: Path, line: int | None, *needles: str) -> str:
    assert result.exit_code == 1, result.stdout + result.stderr
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
    path = tmp_path / "task.yaml"
    path.write_text(GOOD)
    result = run_cli("validate", str(path))  # the installed command, as a user runs it
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
    result = cli("validate", str(tmp_path))
    _one_error(result, tmp_path / "b.yaml", 1, "duplicate id")


def test_duplicate_of_a_library_description(tmp_path):
    result, path = _validate(tmp_path, GOOD.replace("craft my sword", "craft iron_sword"))
    assert result.exit_code == 0  # a user file may restate a library task; only duplicates among its files clash


@pytest.mark.parametrize("argument", ["craft iron_swrod", "no.such_task", "missing.yaml"])
def test_unknown_task_argument_is_one_clean_line(argument):
    result = cli("show", argument)
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("error:")


def test_unknown_task_suggests_close_description():
    result = cli("show", "craft iron_swrod")
    assert "craft.iron_sword" in result.stderr or "craft iron sword" in result.stderr


# -- validate lists every error of a file, within a stated limit; other commands stop at the first -------------

MANY = (GOOD.replace("category: crafting", "category: craftin").replace("iron_ingot: 2", "iron_ingott: 2")
        .replace("target: iron_sword", "target: iron_swordd"))
"""The issue's example: a wrong category (a schema error) and two unknown items (name checks)."""


def _error_lines(result) -> list[str]:
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert all(line.startswith("error: ") for line in lines), result.stderr
    return lines


def test_validate_reports_every_error_of_a_file(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(MANY)
    result = cli("validate", str(path))
    assert result.exit_code == 1
    lines = _error_lines(result)
    assert [line.split(":")[2] for line in lines] == ["3", "6", "8"], lines
    category, item, target = lines
    assert "category:" in category and "(did you mean 'crafting'?)" in category
    assert "initialization.inventory.iron_ingott: unknown item 'iron_ingott'" in item and "'iron_ingot'" in item
    assert "metrics.success.target: unknown item 'iron_swordd'" in target and "'iron_sword'" in target
    assert "invalid: 0 task(s) in 1 file(s), 3 error(s)" in result.stdout


def test_validate_json_lists_every_error(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(MANY)
    result = cli("validate", str(path), "--format", "json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["valid"] is False and report["errors_left_out"] == 0
    assert [(e["line"], e["field"]) for e in report["errors"]] == [
        (3, "category"), (6, "initialization.inventory.iron_ingott"), (8, "metrics.success.target")]
    assert report["errors"][0]["suggestions"] == ["crafting"]


def test_show_still_reports_only_the_first_error(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(MANY)
    one_clean_line(cli("show", str(path)), f"{path}:3: category:", "did you mean 'crafting'")


def test_a_mistyped_key_is_one_error_not_also_a_missing_field(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(GOOD.replace("category:", "categroy:").replace("verb:", "verbb:"))
    lines = _error_lines(cli("validate", str(path)))
    assert len(lines) == 2, lines
    assert "categroy: unknown field (did you mean 'category'?)" in lines[0]
    assert "verbb: unknown field (did you mean 'verb'?)" in lines[1]


def test_a_bad_way_is_reported_once_without_the_schema_branch_names(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(GOOD + "requires:\n- - {any_of: [stick], count: 0}\n- {needz: [], yields: [{name: iron_sword}]}\n"
                    "- 5\n")
    lines = _error_lines(cli("validate", str(path)))
    assert len(lines) == 3, lines
    assert f"{path}:10: requires.0.0.count: Input should be greater than or equal to 1" in lines[0]
    assert f"{path}:11: requires.1.needz: unknown field (did you mean 'needs'?)" in lines[1]
    assert f"{path}:12: requires.2: Input should be a valid list or a valid dictionary" in lines[2]


def test_a_bad_task_in_a_list_hides_neither_the_others_nor_their_errors(tmp_path):
    good = GOOD.replace("\n", "\n    ").rstrip()
    bad = MANY.replace("craft.my_sword", "craft.my_other").replace("my sword", "my other").replace("\n", "\n    ")
    path = tmp_path / "t.yaml"
    path.write_text(f"tasks:\n  - {good}\n    pre_tasks: [craft.my_other]\n  - {bad.rstrip()}\n")
    result = cli("validate", str(path))
    lines = _error_lines(result)
    assert [line.split(": ")[2] for line in lines] == [
        "tasks.1.category", "tasks.1.initialization.inventory.iron_ingott", "tasks.1.metrics.success.target"], lines
    assert "1 task(s) in 1 file(s), 3 error(s)" in result.stdout  # and no "unknown pre-task craft.my_other"


def test_a_molecule_file_lists_every_schema_error(tmp_path):
    path = tmp_path / "m.yaml"
    path.write_text("kind: molecule\nid: mol.x\ndescriptoin: x\nexpression: 5\n")
    lines = _error_lines(cli("validate", str(path)))
    assert len(lines) > 2 and any("descriptoin: unknown field (did you mean 'description'?)" in x for x in lines)


def test_validate_lists_at_most_the_limit_of_errors(tmp_path):
    from taskverse.cli.library import MAX_ERRORS, MAX_ERRORS_PER_FILE

    per_file = MAX_ERRORS_PER_FILE + 20
    files = MAX_ERRORS // MAX_ERRORS_PER_FILE + 1  # one file more than the total limit lists in full
    inventory = ", ".join(f"X{i}: 1" for i in range(per_file))  # each a malformed name: a cheap schema error
    for n in range(files):
        (tmp_path / f"t{n:02}.yaml").write_text(
            GOOD.replace("craft.my_sword", f"craft.my_sword{n}").replace("my sword", f"my sword {n}")
            .replace("{iron_ingot: 2, stick: 1, crafting_table: 1}", "{" + inventory + "}"))
    result = cli("validate", str(tmp_path))
    assert result.exit_code == 1
    lines = _error_lines(result)
    assert len(lines) == MAX_ERRORS + 1
    assert sum(f"{tmp_path / 't00.yaml'}:" in line for line in lines) == MAX_ERRORS_PER_FILE
    left_out = files * per_file - MAX_ERRORS
    assert lines[-1] == (f"error: {left_out} more error(s) left out (validate lists at most "
                         f"{MAX_ERRORS_PER_FILE:,} per file and {MAX_ERRORS:,} in all)")
    assert f"{files * per_file} error(s)" in result.stdout  # the summary counts them all
    report = json.loads(cli("validate", str(tmp_path), "--format", "json").stdout)
    assert len(report["errors"]) == MAX_ERRORS and report["errors_left_out"] == left_out


def test_validate_states_its_limit_in_help():
    from taskverse.cli.library import MAX_ERRORS, MAX_ERRORS_PER_FILE

    text = " ".join(cli("validate", "--help").output.split())
    assert f"at most {MAX_ERRORS_PER_FILE:,} per file and {MAX_ERRORS:,} in all" in text
