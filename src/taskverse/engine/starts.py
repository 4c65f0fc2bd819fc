"""Where an engine episode starts: the task's own start as it compiles, or the naive one (``--init``).

``taskverse engine eval`` and the impossible tasks it draws (``taskverse.engine.impossible``) give every task the
start of the run's mode: ``task`` (the start the task compiles with, an atom's prerequisites held), ``naive`` (an
empty inventory: the task wrapped in ``naive(...)``) or ``auto`` (the text world's default: naive unless the task
has a custom ``init(...)``).
"""

from __future__ import annotations

from typing import Any

from taskverse.errors import TaskverseError

INIT_MODES = ("auto", "naive", "task")


def start_as(task: Any, mode: str, library: Any) -> Any:
    """The task with the start ``mode`` gives it (``EngineSettings.initialization``): itself, or ``naive(task)``.

    Raises a TaskverseError for an unknown mode, and the algebra's error when the naive form is infeasible.
    """
    from taskverse.algebra.expr import Initialized, naive, ref
    from taskverse.algebra.molecule import build_molecule
    from taskverse.textenv.env import has_custom_start

    if mode not in INIT_MODES:
        raise TaskverseError(f"--init {mode!r}: expected {', '.join(INIT_MODES)}")
    molecule = getattr(task, "kind", "atom") == "molecule"
    expr = task.expression if molecule else ref(task.id)

    if mode == "task" or (mode == "auto" and has_custom_start(expr)):
        return task
    if isinstance(expr, Initialized) and expr.mode == "naive":
        return task
    return build_molecule(naive(expr), library)


__all__ = ["INIT_MODES", "start_as"]
