"""What a new user gets from the engine commands for bad input: one clean line, exit 2, nothing written.

A plan file for ``taskverse engine run --plan`` that is empty, broken, names an unknown action, an unknown item (in
Minecraft's names or in the game's own) or an unknown fuel is refused before any engine starts, naming the file, the
line and the field, with close matches. ``taskverse engine game build -o DIR`` never empties a folder that is not an
earlier build of the game. None of these needs the engine.
"""

from __future__ import annotations

import pytest

from conftest import cli

GAME = "taskverse_mc"


def _run_plan(tmp_path, text):
    plan = tmp_path / "plan.json"
    plan.write_text(text)
    return cli("engine", "run", "smelt.iron_ingot", "--game", GAME, "--plan", str(plan))


@pytest.mark.parametrize(("text", "where", "says"), [
    ("", "plan.json:1: ", "invalid JSON"),
    ('{"steps": [\n {"do": "cook", "item": "raw_iron",\n', "plan.json:3: ", "invalid JSON"),
    ('{"steps": [\n {"do": "cook", "item": "raw_irn", "fuel": "coal"}\n]}\n', "plan.json:2: steps.0.item: ",
     "plan names 'raw_irn', which has no counterpart in taskverse_mc (did you mean 'raw_iron'"),
    ('{"steps": [\n {"do": "cook", "item": "minecraft:raw_irn"}\n]}\n', "plan.json:2: steps.0.item: ",
     "'minecraft:raw_irn' is no item, node or entity taskverse_mc has (did you mean 'minecraft:raw_iron'"),
    ('[\n {"do": "wield", "item": "stick"},\n {"do": "cook",\n  "item": "raw_iron",\n  "fuels": {"cole": 1}}\n]\n',
     "plan.json:5: steps.1.fuels.cole: ", "plan names 'cole', which has no counterpart in taskverse_mc (did you "
     "mean 'coal'"),
    ('[\n {"do": "cok", "item": "raw_iron"}\n]\n', "plan.json:2: steps.0.do: ", "(did you mean 'cook'"),
    ('{"steps": [\n {"do": "cook",\n  "item": "raw_iron",\n  "count": "two"}\n]}\n', "plan.json:4: steps.0.count: ",
     "valid integer"),
])
def test_a_bad_plan_file_is_one_line_naming_file_line_and_field(tmp_path, text, where, says):
    done = _run_plan(tmp_path, text)
    assert done.exit_code == 2, done.output
    assert done.stdout == "" and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    line = done.stderr.strip()
    assert line.startswith(f"error: {tmp_path / where}") or line.startswith(f"error: {where}"), line
    assert says in line, line


def test_a_game_build_into_a_folder_that_is_not_an_earlier_build_leaves_it_as_it_was(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "my_game").mkdir()
    (folder / "notes.txt").write_text("keep me\n")
    done = cli("engine", "game", "build", "-o", str(folder))
    assert done.exit_code == 2 and done.stderr.count("\n") == 1, done.output
    assert "is not an earlier build" in done.stderr and "--output" in done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["my_game", "notes.txt"]
    assert (folder / "notes.txt").read_text() == "keep me\n"


def test_a_game_build_goes_again_into_its_own_folder_and_replaces_another_knowledge_s_only_with_force(tmp_path):
    folder = tmp_path / GAME
    assert cli("engine", "game", "build", "-o", str(folder)).exit_code == 0
    assert cli("engine", "game", "build", "-o", str(folder)).exit_code == 0  # the same build: nothing to do
    (folder / ".taskverse-digest").write_text("0123456789abcdef\n")  # as another knowledge's build would leave it
    done = cli("engine", "game", "build", "-o", str(folder))
    assert done.exit_code == 2 and "add --force" in done.stderr
    assert cli("engine", "game", "build", "-o", str(folder), "--force").exit_code == 0
    assert (folder / "game.conf").is_file()
