"""The figures the documentation states about the bundled library are the library's own."""

from __future__ import annotations

import re

import gymnasium

import taskverse  # noqa: F401  (registers the environment ids)
from taskverse.paths import project_root

DOCS = project_root() / "docs"


def test_textenv_doc_gives_the_action_space_of_the_bundled_library():
    """docs/textenv.md's count of actions (every atom but obtain.*) and its make_vec shape are the real ones."""
    text = (DOCS / "textenv.md").read_text()
    actions = gymnasium.make("taskverse/SkillForgeText-v0", task="craft stick").action_space.n
    stated = re.search(r"\(([\d,]+) with the bundled library\)", text)
    assert stated is not None and int(stated.group(1).replace(",", "")) == actions
    assert f"# (1024, {actions})" in text


def test_textenv_doc_gives_the_impossible_families_sizes():
    """docs/textenv.md's count of impossible targets, in all and per family, is what the families hold."""
    from taskverse.library.loader import load_library
    from taskverse.textenv.impossible import candidate_families

    sizes = [len(family) for family in candidate_families(load_library())]
    text = " ".join((DOCS / "textenv.md").read_text().split())
    assert f"{sum(sizes)} targets in all" in text
    assert f"the {sizes[0]} atoms no survival player can do" in text
    assert f"{sizes[1]} blocks mined with a tool" in text and f"{sizes[2]} biomes found in rain" in text


def test_readme_export_figure_is_the_skillforge_suite():
    """The README's figure for exporting SkillForge to MineStudio names the suite's own size (every task exports:
    tests/test_interop.py)."""
    from taskverse.benchmarks.suites import load_suite

    size = len(load_suite("SkillForge").tasks)
    line = next(line for line in (project_root() / "README.md").read_text().splitlines()
                if "export --suite SkillForge --to minestudio" in line)
    assert f"# all {size} " in line


def test_readme_names_every_option_of_one_world_only():
    """The README's list of options refused in the other world is the command's own (text-only, engine-only)."""
    from taskverse.cli.textenv import ENGINE_ONLY, TEXT_ONLY

    readme = " ".join((project_root() / "README.md").read_text().split())
    listed = readme.split("Options of one world only (", 1)[1].split(")", 1)[0]
    text, engine = listed.split(";")
    assert re.findall(r"`--([a-z-]+)`", text) == [name.replace("_", "-") for name in TEXT_ONLY]
    assert re.findall(r"`--([a-z-]+)`", engine) == [name.replace("_", "-") for name in ENGINE_ONLY]
