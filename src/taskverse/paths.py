"""Where the project's data lives: the atom library, game knowledge, suites, calibration and engine files."""

from __future__ import annotations

import os
from pathlib import Path

from taskverse.errors import TaskverseError


def project_root() -> Path:
    """The folder holding ``atoms/``: ``$TASKVERSE_HOME``, else the checkout this package runs from, else cwd."""
    env = os.environ.get("TASKVERSE_HOME")
    candidates = [Path(env)] if env else []
    candidates += [Path(__file__).resolve().parents[2], Path.cwd()]
    for candidate in candidates:
        if (candidate / "atoms" / "knowledge").is_dir():
            return candidate
    raise TaskverseError(
        "cannot find the taskverse data folder (atoms/knowledge); set TASKVERSE_HOME to the project checkout"
    )


def atoms_dir() -> Path:
    """The atom library folder."""
    return project_root() / "atoms"


def knowledge_dir() -> Path:
    """The game knowledge folder."""
    return atoms_dir() / "knowledge"


def cache_dir() -> Path:
    """A per-checkout cache folder (never committed)."""
    path = project_root() / ".cache" / "taskverse"
    path.mkdir(parents=True, exist_ok=True)
    return path
