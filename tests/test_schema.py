import json

import pytest
from pydantic import ValidationError

from conftest import run_cli
from taskverse.schema import AtomTask, Initialization, Need

MINIMAL = {
    "id": "craft.iron_sword",
    "description": "craft iron_sword",
    "category": "crafting",
    "verb": "craft",
    "metrics": {"success": {"event": "craft", "target": "iron_sword"}},
}


def test_minimal_atom_validates_with_naive_defaults():
    task = AtomTask.model_validate(MINIMAL)
    assert task.initialization.is_naive()
    assert task.goal.describe() == "craft iron_sword"


@pytest.mark.parametrize("where", [(), ("initialization",), ("metrics", "success")])
def test_unknown_fields_are_rejected_everywhere(where):
    data = json.loads(json.dumps(MINIMAL))
    data.setdefault("initialization", {})
    target = data
    for key in where:
        target = target[key]
    target["colour"] = "red"
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        AtomTask.model_validate(data)


def test_bad_values_are_rejected():
    with pytest.raises(ValidationError):
        AtomTask.model_validate({**MINIMAL, "category": "cooking"})
    with pytest.raises(ValidationError):
        AtomTask.model_validate({**MINIMAL, "id": "Craft Iron Sword"})
    with pytest.raises(ValidationError):
        Initialization.model_validate({"inventory": {"stick": 0}})
    with pytest.raises(ValidationError):
        Need.model_validate({"any_of": []})
    with pytest.raises(ValidationError):
        AtomTask.model_validate({**MINIMAL, "pre_tasks": ["craft.iron_sword"]})


def test_round_trip_through_json(library):
    for task in library.tasks[::97]:
        again = AtomTask.model_validate_json(task.model_dump_json())
        assert again == task


def test_schema_command_exports_json_schema():
    result = run_cli("schema", "atom")
    assert result.returncode == 0
    schema = json.loads(result.stdout)
    assert schema["additionalProperties"] is False
    for key in ("id", "description", "category", "initialization", "pre_tasks", "metrics", "difficulty", "tags"):
        assert key in schema["properties"]
