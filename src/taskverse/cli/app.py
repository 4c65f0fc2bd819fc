"""The ``taskverse`` command group and what every command shares: the bundled library, TASK arguments.

Every command that prints data takes ``--format json`` and then prints exactly one JSON document on stdout;
progress and logs go to stderr. Bad input exits non-zero with one clear line, never a traceback.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import click

from taskverse import __version__
from taskverse.errors import TaskverseError


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="taskverse")
def main() -> None:
    """taskverse: atom and molecule tasks, difficulty scores and benchmarks for open-ended game agents."""


@functools.cache
def _library() -> Any:
    """The bundled library, loaded once per command (commands consult it from several places)."""
    from taskverse.library.loader import load_library

    return load_library()


COMPOSITION_MARKS = ("&", "|", ">>", "@", "naive(", "init(")


def resolve_task(reference: str, molecules: bool = True) -> Any:
    """A TASK argument: an id, a description, a task YAML file, or (with ``molecules``) a composition."""
    from taskverse.library.loader import parse_task_file

    path = Path(reference)
    if reference.endswith((".yaml", ".yml")):
        if not path.exists():
            raise TaskverseError("no such file", file=reference)
        from taskverse.algebra.files import load_molecule_file

        molecule = load_molecule_file(path, _library()) if molecules else None
        if molecule is not None:
            return molecule
        found = parse_task_file(path)
        if len(found) != 1:
            raise TaskverseError(f"expected one task in the file, found {len(found)}", file=reference)
        return found[0].task
    if molecules and any(mark in reference for mark in COMPOSITION_MARKS):
        return compose_expression(reference)
    return _library().get(reference)


def compose_expression(source: str) -> Any:
    """Parse, check and build a molecule from a composition expression."""
    from taskverse.algebra.molecule import build_molecule
    from taskverse.algebra.parse import parse_expression

    return build_molecule(parse_expression(source), _library())
