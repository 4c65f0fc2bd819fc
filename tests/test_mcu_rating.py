"""MCU's criteria files built from tasks, and ``rate-video`` against a loopback vision endpoint."""

from __future__ import annotations

import re

from conftest import cli, one_clean_line
from taskverse.interop.criteria import SECTION_NAMES, criteria_for, file_name

MCU_SECTIONS = ("Task Progress", "Action Control", "Error Recognition and Correction", "Creative Attempts",
                "Task Completion Efficiency", "Material Selection and Usage")


def _sections(text: str) -> dict[str, list[str]]:
    """A criteria file read as MCU's rater shows it to the model: bold headings, ``-`` points under each."""
    out: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        heading = re.fullmatch(r"\*\*([^:*]+)(?::[^*]*)?\*\*", line.strip())
        if heading:
            current = heading.group(1)
            out[current] = []
        elif line.strip():
            assert current is not None and line.startswith(" - "), line
            out[current].append(line[3:])
    return out


def test_every_skillforge_task_has_criteria_in_the_six_mcu_sections(library):
    from taskverse.benchmarks.suites import load_suite, resolve_suite_task

    tasks = [resolve_suite_task(item, library) for item in load_suite("SkillForge").tasks]
    assert len(tasks) > 100
    for task in tasks:
        sections = _sections(criteria_for(task, library).render())
        assert tuple(sections) == MCU_SECTIONS == SECTION_NAMES, task.id
        assert all(sections.values()), task.id
        assert sections["Task Progress"][-1].endswith(task.description), task.id


def test_milestones_are_the_plan_s_steps_and_materials_the_recipe_s(library):
    from taskverse.cli.app import resolve_task

    naive = _sections(criteria_for(resolve_task("naive(craft iron_sword)"), library).render())
    progress = "\n".join(naive["Task Progress"])
    # the real route from an empty inventory, in order: wood, a table, a pickaxe, stone, iron, the sword
    order = [progress.index(step) for step in ("mine oak_log", "craft crafting_table", "craft wooden_pickaxe",
                                               "mine stone", "mine iron_ore", "smelt iron_ingot",
                                               "craft iron_sword")]
    assert order == sorted(order)
    assert "mine stone (" in progress  # repeats are counted, not listed
    tools = "\n".join(naive["Material Selection and Usage"])
    assert "wooden pickaxe" in tools and "furnace" in tools
    given = _sections(criteria_for(library.get("craft.iron_sword"), library).render())
    assert given["Task Progress"][:3] == ["whether the agent has the iron ingot (2)", "whether the agent has the stick",
                                          "whether the agent has at hand the crafting table"]
    assert any("2 iron ingot" in p for p in given["Material Selection and Usage"])


def test_constraints_and_avoidance_are_errors_to_watch_for(library):
    from taskverse.cli.app import resolve_task

    night = _sections(criteria_for(resolve_task("combat zombie @ when=night"), library).render())
    assert any("'at night'" in p for p in night["Error Recognition and Correction"])
    assert any("health" in p for p in night["Error Recognition and Correction"])


def test_criteria_are_the_same_every_time(library):
    task = library.get("mine.iron_ore")
    assert criteria_for(task, library).render() == criteria_for(task, library).render()


def test_export_writes_one_file_a_task_and_never_overwrites(tmp_path):
    out = tmp_path / "criteria"
    result = cli("export", "craft.iron_sword", "combat.zombie", "--to", "mcu-criteria", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["combat.zombie.txt", "craft.iron_sword.txt"]
    assert file_name("craft.iron_sword") == "craft.iron_sword.txt"
    (out / "craft.iron_sword.txt").write_text("edited by hand\n")
    again = cli("export", "craft.iron_sword", "--to", "mcu-criteria", "-o", str(out))
    one_clean_line(again, "already exists", "--force")
    assert (out / "craft.iron_sword.txt").read_text() == "edited by hand\n"
    forced = cli("export", "craft.iron_sword", "--to", "mcu-criteria", "-o", str(out), "--force")
    assert forced.exit_code == 0 and "**Task Progress" in (out / "craft.iron_sword.txt").read_text()
    one_clean_line(cli("export", "craft.iron_sword", "--to", "mcu-criteria", "-o", "atoms/x"), "library's own folder")
