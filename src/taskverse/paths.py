"""Where the project's data lives: the atom library, game knowledge, suites, calibration and engine files."""

from __future__ import annotations

import os
from pathlib import Path

from taskverse.errors import TaskverseError

_ROOTS: dict[tuple[str | None, str], Path] = {}


def project_root() -> Path:
    """The folder holding ``atoms/``: ``$TASKVERSE_HOME``, else the checkout this package runs from, else cwd."""
    env = os.environ.get("TASKVERSE_HOME")
    where = (env, os.getcwd())
    found = _ROOTS.get(where)  # scoring asks thousands of times: the answer for these settings, once found
    if found is not None:
        return found
    candidates = [Path(env)] if env else []
    candidates += [Path(__file__).resolve().parents[2], Path.cwd()]
    for candidate in candidates:
        if (candidate / "atoms" / "knowledge").is_dir():
            _ROOTS[where] = candidate
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
