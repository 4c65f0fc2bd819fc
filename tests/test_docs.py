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
